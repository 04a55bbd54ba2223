// The spectator screen: renders the table's state (docs/view-schema.md) and keeps it live
// over Server-Sent Events (/api/stream). Every render rebuilds the page from the state,
// so a reconnect's snapshot can never leave duplicated log lines behind.
(function () {
  'use strict';
  const ICONS = new Set(['flame', 'snowflake', 'skull', 'shield', 'sword', 'heart', 'eye-off', 'bolt', 'drop',
    'star', 'chain', 'clock', 'arrow-down', 'arrow-up', 'sparkle']);
  const STALE_MS = 20000;  // no message for this long (a heartbeat comes after 15 s of silence): reconnect
  const $ = (id) => document.getElementById(id);
  window.ArenaGames = window.ArenaGames || {};
  const loadedGameScripts = {};

  const initial = JSON.parse($('initial').textContent);
  // Where the page's stream, status and die pictures come from: the table's own by default; a
  // convention hub serving this screen names its own (null media: the hub has no pictures).
  const urls = Object.assign({ stream: '/api/stream', status: '/api/status', media: '/media/' }, initial.urls || {});
  const cur = { epoch: initial.epoch, version: initial.version, rev: initial.rev, state: initial.state };
  // Exposed for the browser tests and for anyone poking at the page.
  window.arena = { cur, renders: 0, renderedAt: {}, snapshots: [], connected: false };

  const el = window.ArenaDom.el;

  function icon(name) {
    const ns = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('viewBox', '0 0 24 24');
    const use = document.createElementNS(ns, 'use');
    use.setAttribute('href', '/static/icons.svg#' + (ICONS.has(name) ? name : 'marker'));
    svg.append(use);
    return svg;
  }

  function fmtValue(v) {
    if (v === null || v === undefined) return '—';
    if (Array.isArray(v)) return v.map(fmtValue).join(', ');
    if (typeof v === 'object') return Object.entries(v).map(([k, x]) => k + ': ' + fmtValue(x)).join('; ');
    return String(v);
  }

  // ---- the game's own view -----------------------------------------------------------------
  function renderOrder(view) {
    const order = view.order || [];
    $('order-title').textContent = order.length ? (view.order_title || 'Order') : '';
    const many = order.length > 6;
    // up to 12 (Theosis's Hero Ranking): compact two-line rows on the TV, conditions beside the name
    const compact = order.length >= 4 && order.length <= 12;
    const items = order.map((o, i) => {
      const acting = o.acting || (view.acting && view.acting === o.id);
      const li = el('li', { class: [acting ? 'acting' : '', o.out ? 'out' : ''].join(' ').trim() || null,
        'data-id': o.id });
      li.append(el('span', { class: 'rank', text: o.rank !== undefined && o.rank !== null ? o.rank : i + 1 }));
      li.append(el('span', { class: 'name' }, o.name || o.id, o.side ? el('span', { class: 'side', text: o.side }) : null));
      const conditions = o.conditions && o.conditions.length
        ? el('ul', { class: 'conditions' }, o.conditions.map((c) => el('li', { class: c.kind || null },
          icon(c.icon),
          el('span', { class: 'cname', text: c.name + (c.kind ? ' (' + c.kind + ')' : '') }),
          c.turns_left !== undefined && c.turns_left !== null
            ? el('span', { class: 'turns', text: '· ' + c.turns_left + (c.turns_left === 1 ? ' turn left' : ' turns left') }) : null,
          c.text ? el('span', { class: 'ctext', text: '— ' + c.text }) : null))) : null;
      if (compact && conditions) li.append(conditions);
      const tags = el('span', { class: 'tags' });
      if (acting) tags.append(el('span', { class: 'tag acting-tag', text: 'Acting' }));
      else if (o.next) tags.append(el('span', { class: 'tag next-tag', text: 'Next' }));
      if (o.out) tags.append(el('span', { class: 'tag out-tag', text: 'Out' }));
      if (o.read_mismatch) {  // the camera reads a counter die (Demigods divine die) at another value
        const m = o.read_mismatch;
        tags.append(el('span', { class: 'tag mismatch-tag', text: 'Die ' + m.read + '≠' + m.engine,
          title: 'The camera reads the die at ' + m.read + '; the game has ' + m.engine + ': check the table' }));
      }
      li.append(tags);
      const body = el('div', { class: 'body' });
      if (o.health !== undefined && o.health !== null) {
        const max = o.health_max || Math.max(o.health, 1);
        const pct = Math.max(0, Math.min(100, 100 * o.health / max));
        body.append(el('div', { class: 'health' },
          el('span', { class: 'sr-only', text: 'Health' }),
          el('div', { class: 'bar' + (pct <= 25 ? ' low' : ''), role: 'meter', 'aria-valuemin': 0,
            'aria-valuemax': max, 'aria-valuenow': o.health, 'aria-label': (o.name || o.id) + ' health' },
          el('span', { style: 'width:' + pct + '%' })),
          el('span', { class: 'num', text: o.health + ' / ' + max })));
      }
      if (o.resources && Object.keys(o.resources).length) {
        body.append(el('div', { class: 'resources', text: Object.entries(o.resources).map(([k, v]) => k + ' ' + v).join(' · ') }));
      }
      if (!compact && conditions) body.append(conditions);
      if (body.childNodes.length) li.append(body);
      return li;
    });
    $('order').replaceChildren(...items);
    $('order').classList.toggle('many', many);
    $('game').classList.toggle('many-order', many);
    $('order').classList.toggle('compact', compact);
    $('order').style.setProperty('--rows', String(Math.ceil(order.length / 2)));  // two columns: 1-6 | 7-12
    $('game').classList.toggle('compact-order', compact);
    const actingEntry = order.find((o) => o.acting || (view.acting && view.acting === o.id));
    return actingEntry || null;
  }

  function renderGame(state) {
    const view = state.view || {};
    $('title').textContent = state.title || state.game || 'Arena table';
    document.title = (state.title || 'Arena table') + ' · live';
    $('phase').textContent = view.phase || (state.game === 'dice-tray' ? (state.tray.rolls || 0) + ' rolls' : '');
    const defaults = view.placeholders || [];  // values used in play still placeholders
    $('placeholder-badge').hidden = !defaults.length;
    $('placeholder-badge').title = defaults.length ? 'Still placeholders: ' + defaults.join(', ') : '';
    $('prompt').textContent = view.prompt || '';
    const acting = renderOrder(view);
    const actingBox = $('acting');
    if (acting) {
      actingBox.replaceChildren(el('div', { class: 'label', text: 'Acting now' }),
        el('div', { class: 'who', text: acting.name || acting.id }),
        acting.side ? el('div', { class: 'side', text: acting.side }) : null);
    } else if (state.acting_token) {  // a hero token laid on a reader pad: "this hero acts now"
      actingBox.replaceChildren(el('div', { class: 'label', text: 'Acting now' }),
        el('div', { class: 'who', text: state.acting_token.name }),
        el('div', { class: 'side', text: 'token on pad ' + state.acting_token.pad }));
    } else if (state.tray && state.tray.last) {
      actingBox.replaceChildren(el('div', { class: 'label', text: 'Last total' }),
        el('div', { class: 'who', text: String(state.tray.last.total) }));
    } else {
      actingBox.replaceChildren();
    }
    const outcome = $('outcome');
    if (state.outcome) {
      const o = state.outcome;
      outcome.hidden = false;
      outcome.textContent = o.draw ? 'Draw — ' + o.reason
        : 'Winner: ' + (o.winners || []).join(', ') + ' — ' + o.reason;
    } else outcome.hidden = true;
    const desync = $('desync');  // "check the table: ..." until the figures and the rules agree
    const off = state.desync || [];
    desync.hidden = !off.length;
    desync.replaceChildren(...off.map((d) => el('p', { text: d.message })));
    const refused = state.roll_refused;  // a camera throw the game did not take: what it waits for, what was seen
    $('roll-refused').hidden = !refused;
    $('roll-refused').textContent = refused ? refused.message : '';
    $('scores').replaceChildren(...(view.scores || []).map((s) => el('div', { class: 'score' },
      el('strong', { text: s.side + ' ' }), s.label + ': ' + s.value + (s.max !== undefined ? ' / ' + s.max : ''))));
    const la = $('last-action');
    if (view.last_action) {
      la.hidden = false;
      la.replaceChildren(el('div', { class: 'title', text: view.last_action.title || '' }),
        ...(view.last_action.lines || []).map((l) => el('div', { text: l })),
        view.last_action.result ? el('div', { class: 'result', text: view.last_action.result }) : null);
    } else la.hidden = true;
    const svg = state.svg || {};
    $('board').innerHTML = svg.board || '';
    $('tracks').innerHTML = svg.tracks || '';
    $('health').innerHTML = svg.health || '';
    renderExtra(state.game, view.extra, view);
    $('game').classList.toggle('has-side', !!(svg.board || svg.tracks || svg.health || $('extra').childNodes.length));
    document.body.classList.toggle('no-game', !(view.order && view.order.length) && !svg.board && !(view.extra && Object.keys(view.extra).length) && !view.prompt && !state.outcome);
  }

  // a game's panel gets its view too (the names its order gives the ids in `extra`)
  function renderExtra(game, extra, view) {
    const box = $('extra');
    if (!extra || (typeof extra === 'object' && !Object.keys(extra).length)) { box.replaceChildren(); return; }
    const renderer = window.ArenaGames[game];
    if (renderer) {
      try { renderer(extra, box, el, view); return; } catch (e) { console.error('game panel failed', e); }
    } else if ((initial.game_panels || []).includes(game) && !(game in loadedGameScripts)) {
      loadedGameScripts[game] = true;
      const s = el('script', { src: '/static/games/' + encodeURIComponent(game) + '.js' });
      s.onload = () => render();
      document.head.append(s);
    }
    box.replaceChildren(el('table', {}, el('tbody', {}, Object.entries(extra).map(([k, v]) =>
      el('tr', {}, el('th', { scope: 'row', text: k.replace(/_/g, ' ') }), el('td', { text: fmtValue(v) }))))));
  }

  // ---- the dice tray -------------------------------------------------------------------------
  function renderDice(tray) {
    const last = tray && tray.last;
    if (last) {
      const dice = last.faces.map((f, i) => {
        const corrected = last.sensed && last.sensed[i] !== undefined && last.sensed[i] !== f;
        const conf = last.confidence && last.confidence[i] !== undefined ? Math.round(100 * last.confidence[i]) + '%' : null;
        // the camera's confidence is in the face it read: a corrected die shows it with that face, not the new one,
        // in lines no wider than "conf. 97%" (a wider die wraps a roll of three onto two rows on the TV)
        const kind = last.kind_titles ? last.kind_titles[last.kind_titles.length === 1 ? 0 : i] : null;  // a roll by die kinds
        return el('div', { class: 'die' + (corrected ? ' corrected' : ''), 'data-kind': last.kinds ? last.kinds[last.kinds.length === 1 ? 0 : i] : null },
          urls.media && last.crops && last.crops[i] ? el('img', { src: urls.media + last.crops[i], alt: 'die ' + (i + 1) + ' showing ' + f }) : null,
          kind ? el('div', { class: 'kind', text: kind.replace(/ (attack )?die$/, '') }) : null,
          el('div', { class: typeof f === 'number' ? 'value' : 'value word', text: f }),
          conf && !corrected ? el('div', { class: 'conf', text: 'conf. ' + conf }) : null,
          corrected ? el('div', { class: 'conf', text: 'corrected' }) : null,
          corrected ? el('div', { class: 'conf', text: 'read ' + last.sensed[i] }) : null,
          corrected && conf ? el('div', { class: 'conf', text: 'at ' + conf }) : null);
      });
      const numeric = last.faces.every((f) => typeof f === 'number');
      $('last-roll').replaceChildren(...dice, el('div', { class: 'total', text: last.kinds
        ? last.faces.length + (last.faces.length === 1 ? ' die' : ' dice') + (numeric ? ' = ' + last.total : '')
        : last.faces.length + last.die + ' = ' + last.total }));
    } else {
      $('last-roll').replaceChildren(el('p', { class: 'muted', text: 'No roll yet.' }));
    }
    $('history').replaceChildren(...((tray && tray.history) || []).map((r) =>
      el('li', { 'data-seq': r.seq }, el('span', { class: 'muted', text: '#' + r.seq + ' ' }),
        r.kind_titles ? r.faces.map((f, i) => r.kind_titles[r.kind_titles.length === 1 ? 0 : i].replace(/ (attack )?die$/, '') + ' ' + f).join(', ')
          : r.faces.length + r.die + ': ' + r.faces.join(', ') + ' = ' + r.total)));
  }

  function renderHistograms(svg) {
    const box = $('histograms');
    // the die kinds rolled most, at most two: a TV has no room for a chart per custom die
    const stats = (cur.state.tray && cur.state.tray.stats) || {};
    const entries = Object.entries((svg && svg.histograms) || {})
      .sort((a, b) => ((stats[b[0]] || {}).dice || 0) - ((stats[a[0]] || {}).dice || 0)).slice(0, 2);
    box.innerHTML = entries.map(([, s]) => s).join('') || '<p class="muted">No dice yet.</p>';
  }

  function renderLog(lines) {
    $('log').replaceChildren(...(lines || []).slice(-30).map((l) =>
      el('li', { 'data-seq': l.seq }, el('span', { class: 'seq', text: '#' + l.seq }), l.text)));
  }

  function renderDevices(status) {
    const items = Object.entries(status || {}).map(([name, info]) => {
      const bad = info.ok === false || !!info.error || ['down', 'error', 'failed', 'disconnected', 'lost'].includes(info.state);
      const word = info.state || info.link || (bad ? 'error' : 'ok');
      const detail = info.error || info.detail || '';
      const reroll = (info.reroll || []).length;
      const others = (info.other_kind || []).length;  // dice of no kind the game throws: reported, not in the roll
      // a token reader's refused lines: how many, and why the last one was refused
      const garbage = (info.counters || {}).garbage_lines || 0;
      const lastBad = info.last_bad_line && info.last_bad_line.reason;
      // a throw held back for a re-roll: its detail (the roll before it) would read as this throw's result
      return el('li', { class: bad || reroll ? 'bad' : 'ok' }, name + ': ', el('span', { class: 'state', text: word }),
        detail && !reroll ? ' — ' + detail : '',
        garbage ? ' · ' + garbage + ' bad line' + (garbage === 1 ? '' : 's') + (lastBad ? ', last: ' + lastBad : '') : '',
        others ? ' · ' + others + (others === 1 ? ' die' : ' dice') + ' of another kind (other-kind), not in the roll' : '',
        reroll ? el('strong', { text: ' — the last throw is not recorded: ' + reroll + (reroll === 1 ? ' die' : ' dice')
          + ' not read, please re-roll ' + (reroll === 1 ? 'it' : 'them') }) : null);
    });
    $('devices').replaceChildren(...(items.length ? items : [el('li', { class: 'muted', text: 'No devices' })]));
  }

  // elements that cut a long text with an ellipsis (app.css): the whole text goes in the title
  const CUT = '#prompt, #phase, #title, #acting .who, #acting .side, #order .side, #scores .score, #extra p, #extra td, ' +
    '#extra th, #extra li, #extra h3, #last-action > div, #history li, #log li, #devices li, #order .conditions li, ' +
    '#order .name';

  function titleCutTexts() {
    for (const e of document.querySelectorAll(CUT)) {
      if (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1) e.title = e.textContent;
      else if (e.hasAttribute('title')) e.removeAttribute('title');
    }
  }

  // The acting name is never cut: one line when it fits at 3/4 of its size or more (the header keeps its
  // height), else two lines (app.css: --lines), made smaller when two do not hold it, down to 40% of its
  // size (about the body text's); only beyond that it is cut (a name of hundreds of letters: its title
  // has it whole).
  const FIT = '#acting .who, #order li.acting .name';

  function fitNames() {
    for (const e of document.querySelectorAll(FIT)) {
      e.classList.remove('cut');
      const fits = () => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1;
      e.style.setProperty('--lines', '1');
      if (window.ArenaDom.shrinkToFit(e, fits, 0.75)) continue;
      e.style.setProperty('--lines', '2');
      if (!window.ArenaDom.shrinkToFit(e, fits, 0.4)) e.classList.add('cut');
    }
  }

  // ---- paging on the TV --------------------------------------------------------------------
  // What the game panel cannot hold is shown in turn (pager.js): its two columns page on their own
  // when they stand side by side, else the panel pages as one column. ?page_seconds=N sets the time
  // a page stays (default PAGE_SECONDS). A page that can scroll (the phone) never pages.
  const PAGE_SECONDS = 8;

  function pageRegions() {
    const game = $('game');
    if (getComputedStyle(document.body).overflowY !== 'hidden' || getComputedStyle(game).display === 'none') return [];
    const main = game.querySelector('.game-main');
    const side = game.querySelector('.game-side');
    const blocks = (col) => [...col.children].flatMap((c) => (c.hasAttribute('data-page-flow') ? [...c.children] : [c]));
    if (getComputedStyle(game).display === 'contents') {  // the compact ranking's two panels
      return [{ name: 'main', box: main, blocks: blocks(main) }, { name: 'side', box: side, blocks: blocks(side) }];
    }
    const m = main.getBoundingClientRect();
    const s = side.getBoundingClientRect();
    if (s.height && m.height && Math.abs(s.top - m.top) < 1) {
      return [{ name: 'main', box: game, column: main, blocks: blocks(main) },
        { name: 'side', box: game, column: side, blocks: blocks(side) }];
    }
    return [{ name: 'game', box: game, blocks: blocks(main).concat(blocks(side)) }];
  }

  // ---- the free part of the game panel is filled before anything pages ---------------------
  // When the panel's two parts stand side by side (the ranking's and the board's) and the side part
  // cannot hold its blocks (board, tracks, the game's panel) while the main part leaves room under
  // its own, the side's first blocks move under the main part (#spill), as many as wholly fit there
  // with room for a page mark (one too tall stays, a later one may still go), a picture only where
  // it is drawn at least as large as beside it, a heading only with what follows it; a picture there is no taller
  // than the room left (--spill-room). Everything goes back before each render and each measure.
  const moved = [];  // {el, parent, before}, in the order moved

  function unspill(keep = 0) {
    while (moved.length > keep) {
      const { el, parent, before } = moved.pop();
      el.style.removeProperty('--spill-room');
      if (before && before.parentElement === parent) parent.insertBefore(el, before);
      else parent.append(el);
    }
  }

  function fillFree() {
    unspill();
    const regions = pageRegions();
    const main = regions.find((r) => r.name === 'main');
    const side = regions.find((r) => r.name === 'side');
    if (!main || !side) return;
    const spill = $('spill');
    const shown = (blocks) => blocks.filter((e) => e.offsetHeight && !e.classList.contains('pager'));
    const inner = (box) => {
      const cs = getComputedStyle(box);
      return box.getBoundingClientRect().bottom - parseFloat(cs.paddingBottom) - parseFloat(cs.borderBottomWidth);
    };
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
    const reserve = 1.3 * rem;  // a page mark
    const bottom = (blocks) => Math.max(-Infinity, ...shown(blocks).map((e) => e.getBoundingClientRect().bottom));
    const mainBlocks = () => [...(main.column || main.box).children].filter((e) => e !== spill).concat([...spill.children]);
    const sideBlocks = () => pageRegions().find((r) => r.name === 'side').blocks;
    const sideFits = () => bottom(sideBlocks()) <= inner(side.box) + 1;
    const mainFits = () => bottom(mainBlocks()) <= inner(main.box) - reserve + 1;
    if (sideFits() || !mainFits()) return;
    const blocks = shown(side.blocks);
    for (let i = 0; i < blocks.length; i += 1) {
      const group = /^H[1-6]$/.test(blocks[i].tagName) && i + 1 < blocks.length ? [blocks[i], blocks[++i]] : [blocks[i]];
      const room = Math.max(0, inner(main.box) - reserve - bottom(mainBlocks()) - 0.5 * rem);  // app.css: .spill margins
      // a picture moves only where it is drawn at least as large as in the side panel
      if (group.some((el) => el.querySelector('svg') && el.offsetHeight > room)) continue;
      const at = moved.length;
      for (const el of group) {
        moved.push({ el, parent: el.parentElement, before: el.nextElementSibling });
        el.style.setProperty('--spill-room', room + 'px');
        spill.append(el);
      }
      if (!mainFits()) unspill(at);  // too tall: a later, smaller block may still fit
      else if (sideFits()) break;
    }
  }

  const pageSeconds = parseFloat(new URLSearchParams(location.search).get('page_seconds')) || PAGE_SECONDS;
  const pager = window.ArenaPager.create({ regions: pageRegions, seconds: pageSeconds,
    fit: () => { fitNames(); fillFree(); }, onchange: titleCutTexts });
  window.arena.pages = pager.status;
  window.arena.nextPage = pager.next;

  function render() {
    const s = cur.state || {};
    try {
      unspill();  // the game's panel is rebuilt where it belongs
      renderGame(s);
      renderDice(s.tray || {});
      renderHistograms(s.svg);
      renderLog(s.log);
      renderDevices(s.status);
      pager.update();  // fitNames, then titleCutTexts
    } catch (e) {
      console.error('render failed', e);
    }
    $('version').textContent = 'event ' + cur.version;
    window.arena.renders += 1;
    if (!(cur.version in window.arena.renderedAt)) window.arena.renderedAt[cur.version] = Date.now();
  }

  // ---- the stream ----------------------------------------------------------------------------
  // An EventSource, or what a page that is fed otherwise puts in its place (the hub's MQTT feed)
  const Source = window.ArenaFeed || EventSource;
  let es = null;
  let lastMessage = Date.now();

  const RETRY_FULL_MS = 10000;  // the table was full: try again this much later

  function setConnected(ok, message) {
    window.arena.connected = ok;
    window.arena.full = !ok && !!message;
    $('conn').hidden = ok;
    if (!ok) $('conn').textContent = message || 'Reconnecting…';
  }

  // A refused stream (503) looks like any other closed EventSource: ask /api/status whether
  // the table is at its viewer cap, so the page says so instead of "Reconnecting…".
  async function fullCap() {
    try {
      const r = await fetch(urls.status, { headers: { Accept: 'application/json' }, cache: 'no-store' });
      if (!r.ok) return null;
      const s = (await r.json()).streams || {};
      return s.max_clients && s.clients >= s.max_clients ? s.max_clients : null;
    } catch (e) {
      return null;  // the server is away: an ordinary reconnect
    }
  }

  function connect() {
    if (es) es.close();
    // tell the server what we have, even on a reconnect of our own (the browser's own sends Last-Event-ID)
    es = new Source(urls.stream + (cur.epoch ? '?lastEventId=' + encodeURIComponent(cur.epoch + ':' + cur.version) : ''));
    es.addEventListener('open', () => { lastMessage = Date.now(); });
    es.addEventListener('snapshot', (e) => {
      const d = JSON.parse(e.data);
      lastMessage = Date.now();
      window.arena.snapshots.push({ epoch: d.epoch, version: d.version, reason: d.reason });
      cur.epoch = d.epoch; cur.version = d.version; cur.rev = d.rev; cur.state = d.state;
      setConnected(true);
      render();
    });
    es.addEventListener('update', (e) => {
      const d = JSON.parse(e.data);
      lastMessage = Date.now();
      if (d.epoch !== cur.epoch || d.base !== cur.rev) {
        if (d.rev <= cur.rev && d.epoch === cur.epoch) return;  // already have it
        connect();  // a gap: a fresh snapshot puts us right
        return;
      }
      for (const [k, v] of Object.entries(d.set || {})) cur.state[k] = v;
      for (const k of d.unset || []) delete cur.state[k];
      for (const [k, a] of Object.entries(d.append || {})) cur.state[k] = (cur.state[k] || []).concat(a.items).slice(-a.keep);
      cur.version = d.version; cur.rev = d.rev;
      setConnected(true);
      render();
    });
    es.addEventListener('heartbeat', () => { lastMessage = Date.now(); setConnected(true); });
    const mine = es;
    es.addEventListener('error', () => {
      if (mine.readyState !== Source.CLOSED) { setConnected(false); return; }  // the browser retries by itself
      fullCap().then((cap) => {  // closed: e.g. a 503; the browser gave up, we try again
        if (mine !== es) return;  // a newer connection took over meanwhile
        if (cap) {
          setConnected(false, 'The table is full: ' + cap + (cap === 1 ? ' viewer is' : ' viewers are')
            + ' connected, the most this table serves. '
            + 'This page tries again by itself.');
          setTimeout(connect, RETRY_FULL_MS);
        } else {
          setConnected(false);
          setTimeout(connect, 3000);
        }
      });
    });
  }

  setInterval(() => {
    if (window.arena.full) return;  // waiting for a free place: the retry timer reconnects
    if (Date.now() - lastMessage > STALE_MS) { setConnected(false); lastMessage = Date.now(); connect(); }
  }, 5000);

  render();
  connect();
})();
