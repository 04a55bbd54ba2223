// The control page's Advanced card: an event typed as fields or in notation (POST /api/events), the
// kinds offered being the running game's and the kernel's.
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const el = window.ArenaDom.el;
  const { act, guarded } = window.control;

  // what a field takes, in a player's words (the API names Python types: "tuple[int, ...]")
  function typeHint(type) {
    const t = type.replace(/typing\./g, '').replace(/ \| None$/, '');
    if (/^(tuple|list)\[int/.test(t)) return 'whole numbers, e.g. 4, 4';
    if (/^(tuple|list)\[float/.test(t)) return 'numbers, e.g. 0.9, 0.8';
    if (/^(tuple|list)\[str/.test(t)) return 'words, e.g. Ann, Bo';
    return { int: 'a whole number', float: 'a number', str: 'text', bool: 'true or false' }[t] || t;
  }
  // a list field also takes "4, 4" or "4 4"; anything else as JSON when it parses, else as text
  function fieldValue(raw, type) {
    if (/^(typing\.)?(tuple|list)\[/.test(type) && !raw.startsWith('[')) {
      return raw.split(/[\s,]+/).filter((x) => x).map((x) => { try { return JSON.parse(x); } catch (e) { return x; } });
    }
    try { return JSON.parse(raw); } catch (e) { return raw; }
  }
  function renderKindHelp() {
    const k = window.control.games.event_kinds.find((x) => x.kind === $('event-kind').value);
    if (!k) return;
    $('event-help').textContent = k.doc + ' Fields: ' + k.fields.map((f) => f.name + (f.required ? '' : '?')).join(', ');
    // one input a field: a decision (attack with power X on target Y) without writing notation
    $('event-fields').replaceChildren(...k.fields.flatMap((f, i) => [
      el('label', { for: 'ef-' + i, text: f.name + (f.required ? '' : ' (optional)') }),
      el('input', { id: 'ef-' + i, 'data-field': f.name, 'data-type': f.type, autocomplete: 'off', spellcheck: 'false',
        placeholder: typeHint(f.type) })]));
    const text = $('event-text');
    // never while the player is typing in it: a refresh of the kinds would splice its template into their line
    if (document.activeElement !== text && (!text.value || text.dataset.auto === '1')) {
      text.value = k.kind + ' ' + k.fields.filter((f) => f.required).map((f) => f.name + '=').join(' ');
      text.dataset.auto = '1';
    }
  }
  $('event-text').addEventListener('input', (e) => { e.target.dataset.auto = '0'; });
  $('event-fields-submit').addEventListener('click', guarded($('event-fields-submit'), async () => {
    const ev = { kind: $('event-kind').value };
    for (const input of $('event-fields').querySelectorAll('input[data-field]')) {
      const raw = input.value.trim();
      if (raw === '') continue;
      ev[input.dataset.field] = fieldValue(raw, input.dataset.type || '');
    }
    const d = await act('POST', '/api/events', { event: ev }, (x) => 'Recorded #' + x.seq + ': ' + x.event);
    if (d) for (const input of $('event-fields').querySelectorAll('input')) input.value = '';
  }));
  let eventSentAt = 0;
  $('event-form').addEventListener('submit', guarded($('event-form'), async () => {
    // the tail of a double-click or a double Enter finds the line just sent and cleared: not an error
    if (!$('event-text').value.trim() && Date.now() - eventSentAt < 1500) return;
    const sent = $('event-text').value;
    const okText = (x) => 'Recorded #' + x.seq + ': ' + x.event;
    const d = /^\s*start(\s|$)/.test(sent)  // "start game=theosis" typed as an event
      ? await window.control.startGame('/api/events', { notation: sent }, okText)
      : await act('POST', '/api/events', { notation: sent }, okText);
    // cleared only if it still holds what was sent: the next event typed while this one was on its way stays
    if (d && $('event-text').value === sent) { $('event-text').value = ''; $('event-text').dataset.auto = '1'; }
    if (d) eventSentAt = Date.now();
  }));

  // the running game's own kinds and the kernel's (roll, correct, note...): not another game's
  let kindsFor = null;
  function renderKinds(game) {
    const gamesInfo = window.control.games;
    if (!gamesInfo || game === kindsFor) return;
    kindsFor = game;
    const keep = $('event-kind').value;
    const kinds = gamesInfo.event_kinds.filter((k) => !k.game || k.game === game);
    $('event-kind').replaceChildren(...kinds.map((k) => el('option', { value: k.kind, text: k.kind })));
    $('event-kind').value = kinds.some((k) => k.kind === keep) ? keep : 'roll';
    renderKindHelp();
  }


  document.addEventListener('table-games', () => {
    renderKinds(window.control.games.running);
    $('event-kind').addEventListener('change', () => { $('event-text').dataset.auto = '1'; renderKindHelp(); });
  });
  document.addEventListener('table-state', () => {
    if (window.control.state) renderKinds(window.control.state.game);
  });
})();
