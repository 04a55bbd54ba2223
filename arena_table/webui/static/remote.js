// The remote: the running game's offers (GET /api/actions) as big buttons. A tap on an action
// asks its parameters one at a time, each as a row of choices; the last choice submits the event
// (POST /api/events). Nothing is typed: every choice is one the rules accept now. The Undo button
// names the player's last action and opens the Undo card's confirmation.
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const el = window.ArenaDom.el;
  let offers = null;
  let picking = null;  // {action, fields, todo: [param...], done: [label...]}
  let asked = 0;
  window.remote = { taps: 0, offers: () => offers };

  function tap() { window.remote.taps += 1; }

  let undoText = '';
  async function refresh() {
    const mine = ++asked;
    let d;
    try { d = await window.control.api('GET', '/api/actions'); } catch (e) { return; }
    let u = null;
    try { u = await (await fetch('/api/undo', { headers: { Accept: 'application/json' } })).json(); } catch (e) { u = null; }
    if (mine !== asked) return;  // a later refresh is under way
    undoText = u && u.text ? u.text : '';  // what the Undo card would take back (it asks before)
    offers = d;
    picking = null;
    render();
  }

  function render() {
    const turn = $('remote-turn');
    const box = $('remote-actions');
    if (!offers) return;
    turn.replaceChildren(...[
      offers.turn ? el('strong', { class: 'remote-acting', text: offers.turn + ' · ' }) : null,
      el('span', { text: offers.prompt || (offers.offers ? '' : 'Enter events below (this game offers no buttons yet)') }),
    ].filter(Boolean));
    if (picking) {
      const param = picking.todo[0];
      box.replaceChildren(
        el('p', { class: 'remote-step', text: picking.action.label + (picking.done.length ? ': ' + picking.done.join(' · ') : '') }),
        el('h3', { text: param.label }),
        el('div', { class: 'remote-choices', role: 'group', 'aria-label': param.label },
          param.choices.map((c) => button(c.label, () => choose(c), 'remote-choice'))),
        button('Cancel', () => { picking = null; render(); }, 'remote-cancel'));
      return;
    }
    box.replaceChildren(...(offers.actions.length ? offers.actions.map((a) => button(a.label, () => start(a), 'remote-action'))
      : [el('p', { class: 'muted', text: offers.offers ? 'Nothing to tap now: ' + (offers.prompt || 'the game is over') : '' })]),
    ...(undoText ? [button('Undo: ' + undoText, () => $('undo-button').click(), 'remote-undo')] : []),
    ...checklist());
  }

  // The setup checklist: each value the game still takes from a placeholder, entered by taps like an action
  function checklist() {
    const todo = offers.to_enter || [];
    if (!todo.length) return [];
    const list = el('details', { class: 'remote-checklist', id: 'remote-checklist' },
      el('summary', { text: 'Setup checklist: ' + todo.length + (todo.length === 1 ? ' value' : ' values')
        + ' still placeholders' }),
      el('div', { class: 'remote-choices' }, todo.map((a) => button(a.label, () => start(a), 'remote-enter'))));
    list.open = !!openChecklist;
    list.addEventListener('toggle', () => { openChecklist = list.open; });
    return [list];
  }
  let openChecklist = false;

  function button(text, handler, cls) {
    const b = el('button', { type: 'button', class: cls, text });
    b.addEventListener('click', () => { tap(); handler(); });
    return b;
  }

  function start(action) {
    picking = { action, fields: JSON.parse(JSON.stringify(action.fields)), todo: action.params.slice(), done: [] };
    next();
  }

  function choose(choice) {
    picking.todo.shift();
    merge(picking.fields, choice.fields);
    picking.done.push(choice.label);
    picking.todo.unshift(...(choice.then || []));
    next();
  }

  // A choice's object-valued field merges into the one already picked (a Fellowship card's parts,
  // picked one by one), as Action.event does in the rules.
  function merge(fields, more) {
    const plain = (v) => v && typeof v === 'object' && !Array.isArray(v);
    Object.entries(more).forEach(([k, v]) => {
      fields[k] = plain(v) && plain(fields[k]) ? Object.assign({}, fields[k], v) : v;
    });
  }

  async function next() {
    if (picking.todo.length) { render(); return; }
    const { action, fields } = picking;
    picking = null;
    $('remote-actions').querySelectorAll('button').forEach((b) => { b.disabled = true; });
    try {
      const d = await window.control.api('POST', '/api/events', { event: Object.assign({ kind: action.kind }, fields) });
      window.control.toast(action.label + ': done (event ' + d.seq + ')', false);
    } catch (e) {
      window.control.toast(e.message, true);
    }
    refresh();
  }

  document.addEventListener('table-state', refresh);
})();
