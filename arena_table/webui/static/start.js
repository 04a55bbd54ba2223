// The control page's Start a game card: the game's setup form (GET /api/games), POST /api/start,
// and the question before a start ends a game in progress.
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const el = window.ArenaDom.el;
  const { api, act, toast, guarded } = window.control;

  function fieldsOf(form) {
    if (!form) return null;
    if (Array.isArray(form)) return form;
    if (Array.isArray(form.fields)) return form.fields;
    return null;
  }

  function renderStartFields() {
    const box = $('start-fields');
    const g = window.control.games.games.find((x) => x.name === $('start-game').value);
    const fields = fieldsOf(g && g.form);
    const nodes = [];
    (fields || []).forEach((f, i) => {
      const id = 'opt-' + i;
      const label = el('label', { for: id, text: f.label || f.name });
      let input;
      const opts = (f.options || f.choices || []).map((o) => (typeof o === 'object' ? o : { value: o, label: String(o) }));
      if (opts.length) {
        input = el('select', { id, name: f.name, multiple: f.type === 'multiselect' || f.multiple ? true : null },
          opts.map((o) => el('option', { value: JSON.stringify(o.value), text: o.label || String(o.value) })));
        const defaults = [].concat(f.default === undefined ? [] : f.default).map((d) => JSON.stringify(d));
        for (const option of input.options) option.selected = defaults.includes(option.value);
      } else if (f.type === 'checkbox' || f.type === 'boolean') {
        input = el('input', { id, name: f.name, type: 'checkbox', checked: f.default ? true : null });
      } else {
        input = el('input', { id, name: f.name, type: f.type === 'number' || f.type === 'integer' ? 'number' : 'text',
          value: f.default === undefined ? '' : (Array.isArray(f.default) ? f.default.join(', ') : f.default),
          min: f.min, max: f.max });
      }
      input.dataset.kind = f.type || '';
      nodes.push(label);
      if (input.multiple) nodes.push(picker(input));
      nodes.push(input);
      if (f.help) nodes.push(el('div', { class: 'field-help', text: f.help }));
    });
    nodes.push(el('label', { for: 'start-options', text: fields ? 'More options (JSON, optional)' : 'Options (JSON object)' }),
      el('textarea', { id: 'start-options', rows: 4, spellcheck: 'false', placeholder: '{}' }),
      el('div', { class: 'field-help', text: 'A JSON object; its keys are added to the fields above. Each game\'s options are in the README.' }));
    box.replaceChildren(...nodes);
  }

  // A multiselect's tap-to-pick buttons: no Ctrl-click, and the order picked is the order sent
  // (the first hero picked is the first listed). The select beside them follows each tap, and a
  // choice made in the select itself is added last.
  function picker(select) {
    select.order = [...select.selectedOptions].map((o) => o.value);
    const box = el('div', { class: 'picker', role: 'group', 'aria-label': select.name });
    const sync = () => {
      const chosen = [...select.selectedOptions].map((o) => o.value);
      select.order = select.order.filter((v) => chosen.includes(v)).concat(chosen.filter((v) => !select.order.includes(v)));
      for (const b of box.children) {
        const at = select.order.indexOf(b.dataset.value);
        b.setAttribute('aria-pressed', at >= 0 ? 'true' : 'false');
        b.textContent = (at >= 0 ? (at + 1) + '. ' : '') + b.dataset.label;
      }
    };
    for (const o of select.options) {
      const b = el('button', { type: 'button', class: 'pick', 'data-value': o.value, 'data-label': o.textContent });
      b.addEventListener('click', () => {
        o.selected = !o.selected;
        select.order = select.order.filter((v) => v !== o.value).concat(o.selected ? [o.value] : []);
        sync();
      });
      box.append(b);
    }
    select.addEventListener('change', sync);
    sync();
    return box;
  }

  function collectOptions() {
    const options = {};
    for (const input of $('start-fields').querySelectorAll('input[name], select[name]')) {
      if (input.tagName === 'SELECT') {
        const chosen = [...input.selectedOptions].map((o) => o.value);
        const ordered = input.multiple && input.order
          ? input.order.filter((v) => chosen.includes(v)).concat(chosen.filter((v) => !input.order.includes(v))) : chosen;
        const vals = ordered.map((v) => JSON.parse(v));
        options[input.name] = input.multiple ? vals : vals[0];
      } else if (input.type === 'checkbox') options[input.name] = input.checked;
      else if (input.type === 'number') { if (input.value !== '') options[input.name] = Number(input.value); }
      else if (input.dataset.kind === 'list') options[input.name] = input.value.split(',').map((s) => s.trim()).filter(Boolean);
      else if (input.value !== '') options[input.name] = input.value;
    }
    const raw = $('start-options').value.trim();
    if (raw) {
      let extra;
      try { extra = JSON.parse(raw); } catch (e) { throw new Error('Options are not valid JSON: ' + e.message); }
      if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) throw new Error('Options must be a JSON object {…}');
      Object.assign(options, extra);
    }
    return options;
  }

  // A board game in progress, or a dice tray's rolls, end when a game starts, and Undo stops at a
  // game's start: ask first. The page sends the start unconfirmed; the server refuses it with 409,
  // naming what it would end, only when something would be lost and the start itself is valid (bad
  // options are answered 422 at once: nobody is asked to end a game for a start that cannot happen).
  // The page then asks (in its own words when its view is at the event the server answered at,
  // else in the server's: a page behind never understates what ends) and, only after a yes,
  // confirms with the 409's "started" number.
  const ENDS = ' and start a new game? Its events stay in the log, but Undo cannot bring it back.';
  function question(r) {
    const state = window.control.state;
    const tray = state && state.tray;  // every roll of the tray, not only those its view lists
    const rolls = !tray ? 0 : Number.isInteger(tray.rolls) ? tray.rolls : (tray.history || []).length;
    if (!state || state.seq !== r.data.seq) return 'End ' + r.data.in_progress + ENDS;  // the view is behind
    if (state.game === 'dice-tray') return 'Clear the dice tray (' + rolls + ' roll' + (rolls === 1 ? '' : 's') + ')' + ENDS;
    return 'End the running ' + state.title + ' (event ' + state.seq + ')' + ENDS;
  }
  async function startGame(url, body, okText) {
    window.control.lastResult = null;
    let d;
    try { d = await api('POST', url, body); } catch (e) {
      const r = window.control.lastResult;
      if (!(r && r.status === 409 && r.data && r.data.in_progress)) { toast(e.message, true); return null; }
      if (!window.confirm(question(r))) return null;
      return act('POST', url, { ...body, confirm: r.data.started }, okText);
    }
    toast(okText(d), false);
    return d;
  }
  window.control.startGame = startGame;  // a start typed as an event (notation.js) asks too

  $('start-form').addEventListener('submit', guarded($('start-form'), async () => {
    let options;
    try { options = collectOptions(); } catch (err) { toast(err.message, true); return; }
    await startGame('/api/start', { game: $('start-game').value, options }, (d) => 'Started: event #' + d.seq);
  }));

  document.addEventListener('table-games', () => {
    const gamesInfo = window.control.games;
    $('start-game').replaceChildren(...gamesInfo.games.map((g) => el('option', { value: g.name, text: g.title + ' (' + g.name + ')' })));
    $('start-game').value = gamesInfo.running;
    $('start-game').addEventListener('change', renderStartFields);
    renderStartFields();
  });
})();
