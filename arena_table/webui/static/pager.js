// Paging for a screen nobody can scroll (the spectator page on a TV): when a region's blocks do
// not fit its box they are shown in turn, a page at a time, with a small "2/3" in the box's corner.
// A list or table too tall for a page, or for what is left of a page less than half full, is split
// between its rows (rows side by side stay together); a heading stays with what follows it and
// comes back above the rest of a split list; blocks marked data-page-pin stay on every page. A
// region that fits is never touched. A list that is not paged but marked data-whole-rows shows only
// the rows that wholly fit its box.
//
// Pages are a projection of the layout: every update() measures afresh and keeps only each
// region's page number, so a live update neither restarts the rotation nor moves what fits.
(function () {
  'use strict';
  const OFF = 'off-page';  // app.css: display none
  const IN = 'page-in';    // app.css: a short fade-in, none with prefers-reduced-motion

  // The rows a block may be split between: a list's items, a table's body rows, the children of
  // an element marked data-page-rows; null when it is shown whole (a picture, a paragraph, or a
  // grid filled column by column, whose rows would move to the other column).
  function rowsOf(block) {
    let rows = null;
    if (block.tagName === 'TABLE') rows = [...block.querySelectorAll(':scope > tbody > tr')];
    else if (block.tagName === 'UL' || block.tagName === 'OL' || block.hasAttribute('data-page-rows')) rows = [...block.children];
    if (!rows || rows.length < 2 || getComputedStyle(block).gridAutoFlow.startsWith('column')) return null;
    return rows;
  }

  // Rows side by side (a grid's columns, a wrapped flex line) make one line.
  function linesOf(rows) {
    const lines = [];
    for (const row of rows) {
      const r = row.getBoundingClientRect();
      if (!r.height) continue;
      const last = lines[lines.length - 1];
      if (last && r.top < last.bottom - 1) {
        last.rows.push(row);
        last.bottom = Math.max(last.bottom, r.bottom);
      } else lines.push({ rows: [row], top: r.top, bottom: r.bottom });
    }
    return lines;
  }

  function measure(blocks) {
    const items = [];
    for (const el of blocks) {
      const r = el.getBoundingClientRect();
      if (!r.height || el.classList.contains('pager')) continue;  // hidden or empty: takes no room
      const rows = rowsOf(el);
      const lines = rows && linesOf(rows);
      items.push({ el, top: r.top, bottom: r.bottom, lines: lines && lines.length > 1 ? lines : null,
        pin: el.hasAttribute('data-page-pin'), heading: /^H[1-6]$/.test(el.tagName) });
    }
    items.forEach((it, i) => { it.after = i + 1 < items.length ? Math.max(0, items[i + 1].top - it.bottom) : 0; });
    return items;
  }

  // The height of an item's lines a..b, or of the whole item.
  function height(it, a, b) {
    if (a === undefined) return it.bottom - it.top;
    const L = it.lines;
    return (L[0].top - it.top) + (L[b].bottom - L[a].top) + (it.bottom - L[L.length - 1].bottom);
  }

  // A list that does not fit what is left of a page moves whole to the next page only when the page
  // it leaves is at least this full; else it is split there, so no page shows a prompt alone while
  // the next is full.
  const FILLED = 0.5;

  // Pages of items in `room` px: [[{it, from, to}]], from/to the lines of a split item. A list or
  // table is split when it is taller than a page, where it would leave its page less than FILLED
  // full, or, if `eager`, wherever the page is full. If `even`, the last lines of a split list share
  // the page before's evenly rather than come alone (3 + 3, not 5 + 1).
  function paginate(items, room, eager, even) {
    const pages = [];
    let page, used, fresh;  // fresh: nothing on the page yet but a repeated heading
    const gap = () => (page.length ? page[page.length - 1].it.after : 0);
    // more: what the page will hold above the item by then (a heading placed first)
    const split = (it, more = 0) => it.lines && (eager || height(it) > room || used + more < FILLED * room);
    const least = (it, more) => (it ? (split(it, more) ? height(it, 0, 0) : Math.min(height(it), room)) : 0);
    const open = () => { page = []; pages.push(page); used = 0; fresh = true; };
    const fits = (h) => used + gap() + h <= room + 1;
    const put = (it, h, from, to) => {
      used += gap() + h;
      page.push({ it, from, to });
      fresh = false;
      return page[page.length - 1];
    };
    open();
    items.forEach((it, i) => {
      if (it.heading) {
        if (!fits(height(it) + it.after + least(items[i + 1], gap() + height(it))) && !fresh) open();
        put(it, height(it));
        return;
      }
      if (!split(it)) {
        if (!fits(height(it)) && !fresh) open();
        put(it, height(it));
        return;
      }
      const heading = i > 0 && items[i - 1].heading ? items[i - 1] : null;
      let before = null;  // this item's lines on the page before
      for (let a = 0; a < it.lines.length;) {
        if (!fits(height(it, a, a)) && !fresh) {
          open();
          if (heading) { put(heading, height(heading)); fresh = true; }  // "Activation order" again above the rest
          continue;
        }
        let b = a;
        while (b + 1 < it.lines.length && fits(height(it, a, b + 1))) b += 1;
        while (even && b === it.lines.length - 1 && before && before.to - before.from > b - a + 1 && fits(height(it, a - 1, b))) {
          before.to -= 1;
          a -= 1;
        }
        before = put(it, height(it, a, b), a, b);
        a = b + 1;
        if (a < it.lines.length) {
          open();
          if (heading) { put(heading, height(heading)); fresh = true; }
        }
      }
    });
    return pages.filter((p) => p.length);
  }

  function show(region, items, page, animate) {
    const whole = new Set();
    const ranges = new Map();
    for (const p of page || []) {
      if (p.from === undefined) whole.add(p.it.el);
      else ranges.set(p.it.el, [p.from, p.to]);
    }
    const on = (it) => !page || it.pin || whole.has(it.el) || ranges.has(it.el);
    for (const it of items) {
      it.el.classList.toggle(OFF, !on(it));
      const r = ranges.get(it.el);
      if (it.lines) it.lines.forEach((line, i) => line.rows.forEach((row) => row.classList.toggle(OFF, !!r && (i < r[0] || i > r[1]))));
    }
    // a column whose blocks are all on other pages takes no room (nor the gap after it)
    const wrappers = new Set();
    for (const it of items) for (let p = it.el.parentElement; p && p !== region.box; p = p.parentElement) wrappers.add(p);
    for (const w of wrappers) w.classList.toggle(OFF, !items.some((it) => on(it) && w.contains(it.el)));
    if (animate) {
      const shown = items.filter((it) => on(it) && !it.pin).map((it) => it.el);
      shown.forEach((e) => e.classList.remove(IN));
      void region.box.offsetWidth;  // restart the animation
      shown.forEach((e) => e.classList.add(IN));
    }
  }

  // ---- whole rows only ----------------------------------------------------------------------
  // A list in a box of fixed height that is not paged (the roll history, the log) shows only rows
  // that wholly fit: the rest are dropped from its far end, data-whole-rows="first" keeping the
  // first rows (a newest-first history), "last" the last ones (a log whose newest line is at the
  // bottom). The box is every ancestor that clips, less its padding. A row wraps whole (a long attack
  // line); when the kept-end row alone is taller than the box it is shown smaller (down to half its
  // size) rather than none at all, and only beyond that cut to the lines that fit (its text in its title).
  const DROPPED = 'row-dropped';  // app.css: display none
  const CLAMPED = 'row-clamped';  // app.css: cut to --lines lines with an ellipsis
  const LEAST = 0.5;

  function clipBox(el) {
    const box = { top: -Infinity, bottom: Infinity };
    for (let p = el; p; p = p.parentElement) {
      const cs = getComputedStyle(p);
      if (cs.display === 'contents' || (cs.overflowY === 'visible' && cs.overflowX === 'visible')) continue;
      const r = p.getBoundingClientRect();
      box.top = Math.max(box.top, r.top + parseFloat(cs.borderTopWidth) + parseFloat(cs.paddingTop));
      box.bottom = Math.min(box.bottom, r.bottom - parseFloat(cs.borderBottomWidth) - parseFloat(cs.paddingBottom));
    }
    return box;
  }

  function inside(row, box) {
    const r = row.getBoundingClientRect();
    return r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
  }

  function keepWholeRows(list) {
    const rows = [...list.children];
    rows.forEach((row) => {
      row.classList.remove(DROPPED, CLAMPED);
      row.style.removeProperty('font-size');
      row.style.removeProperty('--lines');
    });
    if (list.getAttribute('data-whole-rows') === 'last') rows.reverse();
    // dropping a row may move the others (a list that is not anchored at its kept end): measure again
    for (let cut = rows.length; cut > 0;) {
      const box = clipBox(list);
      const first = rows.findIndex((row) => {
        const r = row.getBoundingClientRect();
        return r.height > 0 && (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5);
      });
      if (first < 0) break;
      rows.slice(first).forEach((row) => row.classList.add(DROPPED));
      cut = first;
    }
    const row = rows[0];
    if (!row || !row.classList.contains(DROPPED)) return;
    row.classList.remove(DROPPED);
    if (window.ArenaDom.shrinkToFit(row, () => inside(row, clipBox(list)), LEAST)) return;
    const box = clipBox(list);
    const cs = getComputedStyle(row);
    const room = box.bottom - box.top - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom) - parseFloat(cs.borderBottomWidth);
    row.style.setProperty('--lines', String(Math.max(1, Math.floor(room / parseFloat(cs.lineHeight)))));
    row.classList.add(CLAMPED);
  }

  // create({regions, seconds, fit, onchange}): regions() -> [{name, box, blocks, column}] (column: the
  // part of box the region fills, when two regions share a box); fit() sizes texts to their boxes
  // with every page shown, before each update measures; onchange() after every change.
  function create(opts) {
    const state = {};  // name -> {page, pages, items, region, marker}
    let current = [];

    function marker(region) {
      const st = state[region.name] || (state[region.name] = { page: 0 });
      if (!st.marker) st.marker = Object.assign(document.createElement('div'), { className: 'pager' });
      if (st.marker.parentElement !== region.box) region.box.append(st.marker);
      const box = region.box.getBoundingClientRect();
      const col = region.column ? region.column.getBoundingClientRect() : null;
      st.marker.style.right = col ? Math.max(0, box.right - col.right) + 'px' : '';
      return st;
    }

    function update() {
      for (const e of document.querySelectorAll('.' + OFF)) e.classList.remove(OFF);  // measure everything
      if (opts.fit) opts.fit();  // texts sized to their boxes before anything is measured
      // lists that keep whole rows first, in document order: a shorter list above makes room below
      for (const list of document.querySelectorAll('[data-whole-rows]')) keepWholeRows(list);
      for (const r of current) {
        r.box.classList.remove('paged');
        r.box.style.removeProperty('--page-room');
      }
      const regions = opts.regions();
      for (const name of Object.keys(state)) {
        if (!regions.some((r) => r.name === name)) { if (state[name].marker) state[name].marker.remove(); delete state[name]; }
      }
      current = regions;
      for (const r of regions) r.box.classList.add('paged');
      // a picture is never taller than a page (app.css reads --page-room)
      const boxes = regions.map((r) => {
        const st = marker(r);
        st.marker.hidden = false;
        if (!st.marker.textContent) st.marker.textContent = '1/1';  // measured as shown, on the first update too
        const cs = getComputedStyle(r.box);
        const reserve = st.marker.offsetHeight;
        r.box.style.setProperty('--page-room', Math.max(0, r.box.clientHeight - parseFloat(cs.paddingTop)
          - parseFloat(cs.paddingBottom) - reserve) + 'px');
        return { st, cs, reserve };
      });
      const plans = regions.map((r, i) => {
        const { st, cs, reserve } = boxes[i];
        const bottom = r.box.getBoundingClientRect().bottom - parseFloat(cs.paddingBottom) - parseFloat(cs.borderBottomWidth);
        const items = measure(r.blocks);
        if (!items.length || Math.max(...items.map((it) => it.bottom)) <= bottom + 1) return { r, st, items, pages: null };
        const room = bottom - items[0].top - reserve;
        // the fewest pages; on a tie, pinned blocks stay, lists stay whole and share their pages evenly
        const pinned = items.filter((it) => it.pin).reduce((s, it) => s + height(it) + it.after, 0);
        const ways = [];
        for (const pin of pinned ? [true, false] : [false]) {
          const shown = pin ? items.filter((it) => !it.pin) : items;
          for (const eager of [false, true]) {
            for (const even of [true, false]) ways.push({ pin, pages: paginate(shown, pin ? room - pinned : room, eager, even) });
          }
        }
        const best = ways.reduce((a, b) => (b.pages.length < a.pages.length ? b : a));
        if (!best.pin) items.forEach((it) => { it.pin = false; });
        return { r, st, items, pages: best.pages };
      });
      for (const { r, st, items, pages } of plans) {
        st.items = items;
        st.region = r;
        st.pages = pages && pages.length > 1 ? pages : null;
        st.page = st.pages ? Math.min(st.page, st.pages.length - 1) : 0;
        paint(st, false);
      }
      if (opts.onchange) opts.onchange();
    }

    function paint(st, animate) {
      show(st.region, st.items, st.pages && st.pages[st.page], animate);
      st.marker.hidden = !st.pages;
      st.marker.textContent = st.pages ? st.page + 1 + '/' + st.pages.length : '';
    }

    function next() {
      let turned = false;
      for (const st of Object.values(state)) {
        if (!st.pages) continue;
        st.page = (st.page + 1) % st.pages.length;
        paint(st, true);
        turned = true;
      }
      if (turned && opts.onchange) opts.onchange();
    }

    // what each region shows: {name: {page, pages}} (pages 1 when it fits)
    function status() {
      const out = {};
      for (const [name, st] of Object.entries(state)) out[name] = { page: st.page + 1, pages: st.pages ? st.pages.length : 1 };
      return out;
    }

    setInterval(next, Math.max(0.2, opts.seconds) * 1000);
    window.addEventListener('resize', update);
    return { update, next, status };
  }

  window.ArenaPager = { create };
})();
