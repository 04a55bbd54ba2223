// The control page: every action is a POST with the session's CSRF token; the server turns
// it into an event for the rules and answers with the sequence number or what was wrong.
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  let state = null;
  let gamesInfo = null;
  window.control = { lastSubmitAt: null, lastResult: null };

  const el = window.ArenaDom.el;

  function toast(text, isError) {
    const t = $('toast');
    t.textContent = text;
    t.className = 'toast show' + (isError ? ' err' : '');
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { t.className = 'toast'; }, isError ? 9000 : 3500);
  }

  async function api(method, url, body) {
    const opts = { method, headers: { 'X-CSRF-Token': csrf, Accept: 'application/json' }, credentials: 'same-origin' };
    if (body !== undefined) { opts.headers['Content-Type'] = 'application/json'; opts.body = JSON.stringify(body); }
    if (method !== 'GET') window.control.lastSubmitAt = Date.now();
    const r = await fetch(url, opts);
    let data = null;
    try { data = await r.json(); } catch (e) { data = { error: r.status + ' ' + r.statusText }; }
    window.control.lastResult = { status: r.status, data };
    if (r.status === 401) { location.href = '/login?next=/control'; }
    if (!r.ok) throw new Error(data.error || (r.status + ' ' + r.statusText));
    return data;
  }

  window.control.api = api;
  window.control.toast = toast;

  async function act(method, url, body, okText) {
    try {
      const d = await api(method, url, body);
      toast(okText ? okText(d) : 'Done', false);
      return d;
    } catch (e) {
      toast(e.message, true);
      return null;
    }
  }

  // One request at a time per form: a double-click or a double Enter must not record an event twice.
  function guarded(box, handler) {
    return async (e) => {
      if (e && e.preventDefault) e.preventDefault();
      if (box.dataset.busy === '1') return;
      box.dataset.busy = '1';
      const buttons = [...box.querySelectorAll('button, input[type=submit]')];
      if (box.tagName === 'BUTTON') buttons.push(box);
      buttons.forEach((b) => { b.disabled = true; });
      try { await handler(e); } finally {
        box.dataset.busy = '0';
        buttons.forEach((b) => { b.disabled = false; });
      }
    };
  }

  // ---- start a game ----------------------------------------------------------------------------
  function fieldsOf(form) {
    if (!form) return null;
    if (Array.isArray(form)) return form;
    if (Array.isArray(form.fields)) return form.fields;
    return null;
  }

  function renderStartFields() {
    const box = $('start-fields');
    const g = gamesInfo.games.find((x) => x.name === $('start-game').value);
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

  $('start-form').addEventListener('submit', guarded($('start-form'), async () => {
    let options;
    try { options = collectOptions(); } catch (err) { toast(err.message, true); return; }
    await startGame('/api/start', { game: $('start-game').value, options }, (d) => 'Started: event #' + d.seq);
  }));

  // ---- events in notation ----------------------------------------------------------------------
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
    const k = gamesInfo.event_kinds.find((x) => x.kind === $('event-kind').value);
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
      ? await startGame('/api/events', { notation: sent }, okText)
      : await act('POST', '/api/events', { notation: sent }, okText);
    // cleared only if it still holds what was sent: the next event typed while this one was on its way stays
    if (d && $('event-text').value === sent) { $('event-text').value = ''; $('event-text').dataset.auto = '1'; }
    if (d) eventSentAt = Date.now();
  }));

  // ---- correct a die ---------------------------------------------------------------------------
  // The card shows one roll of the tray's recent ones (state.tray.history, newest first): the latest,
  // or an earlier one the player stepped back to. A die tapped stays selected on its roll until the
  // player taps its value or cancels, whatever rolls come in meanwhile (the page says so); then the
  // card shows the roll it showed before (the latest, if the player had not stepped back).
  let pinnedSeq = null;  // the earlier roll the player stepped back to; null: the latest
  let selected = null;  // { seq, index }: the die being corrected
  let sending = false;  // a correction on its way
  let gone = null;  // { text, latest }: why the roll shown or selected went away, until a new roll comes
  let focusKey = null;  // the control to focus after the next render (data-key)

  function sidesOf(die) { const m = /^d(\d+)$/i.exec(die || ''); return m ? Number(m[1]) : 6; }

  function recentRolls() {
    const tray = state && state.tray;
    if (!tray) return [];
    if (tray.history && tray.history.length) return tray.history;
    return tray.last ? [tray.last] : [];
  }

  // under a die's value: the camera's confidence in it, or, for a corrected die, "corrected" and what the
  // camera read (its confidence belongs to that value, not to the corrected one)
  function dieNote(roll, i) {
    const c = roll.confidence && roll.confidence[i];
    const conf = typeof c === 'number' ? Math.round(100 * c) + '%' : null;
    const read = roll.sensed ? roll.sensed[i] : undefined;
    if (read !== undefined && read !== roll.faces[i]) return { corrected: true, text: 'read ' + read + (conf ? ' at ' + conf : '') };
    return { corrected: false, text: conf };
  }

  const LISTED = 20;  // rolls in the tray's history (rules/kernel/mechanics/dice.py HISTORY_IN_VIEW)
  function goneText(seq, rolls, selecting) {
    if (rolls.length >= LISTED && seq < rolls[rolls.length - 1].seq) {
      return 'Roll #' + seq + ' is older than the ' + rolls.length + ' rolls listed here' + (selecting ? ': nothing was corrected.' : '.')
        + ' To correct it, enter "correct roll=' + seq + ' index=… value=…" under Enter an event.';
    }
    return 'Roll #' + seq + ' is gone (undone, or a new game began)' + (selecting ? ': nothing was corrected.' : '.');
  }

  function renderCorrect() {
    const rolls = recentRolls();
    const latest = rolls[0] || null;
    const find = (seq) => rolls.find((r) => r.seq === seq);
    if (selected && !find(selected.seq)) {
      gone = { text: goneText(selected.seq, rolls, true), latest: latest && latest.seq };
      selected = null;
    }
    if (pinnedSeq !== null && !find(pinnedSeq)) {
      if (!gone) gone = { text: goneText(pinnedSeq, rolls, false), latest: latest && latest.seq };
      pinnedSeq = null;
    }
    if (gone && gone.latest !== (latest && latest.seq)) gone = null;  // a new roll since: old news
    if (later && !find(later.sel.seq)) later = null;  // its roll went away (undone, a new game)
    const roll = selected ? find(selected.seq) : pinnedSeq !== null ? find(pinnedSeq) : latest;
    const isLatest = !!roll && roll === latest;
    // whether the running game takes a correction is asked of the rules for the last roll only (tray.last,
    // not its copy in the history); for an earlier one the server answers the correction itself
    const last = state && state.tray && state.tray.last;
    const refused = isLatest && last && last.seq === roll.seq && last.correctable === false;
    if (refused) selected = null;
    $('dice-h').textContent = !roll || refused ? 'Last roll'
      : (isLatest ? 'Last roll' : 'Earlier roll') + ' — tap a die to correct it';
    renderNotice(rolls, roll, latest);
    renderNav(rolls, roll);
    renderLater();

    const box = $('correct-dice');
    const vals = $('correct-values');
    const focused = document.activeElement && document.activeElement.closest('#correct-dice, #correct-values')
      ? document.activeElement.dataset.key : null;
    if (!roll) {
      box.replaceChildren(el('p', { class: 'muted', text: 'No roll yet.' }));
    } else if (refused) {
      box.replaceChildren(el('span', { class: 'muted', text: 'Roll #' + roll.seq + ':' }),
        ...roll.faces.map((f) => el('span', { class: 'die-face', text: String(f) })),
        el('p', { id: 'correct-refused', class: 'muted', text: 'No correction here: ' + (last.correct_refused || 'this game does not take corrections') }));
    } else {
      // each die with the camera's crop of it (when the camera read it): which die is which, at a glance
      box.replaceChildren(el('span', { class: 'muted roll-no', text: 'Roll #' + roll.seq + ':' }), ...roll.faces.map((f, i) => {
        const note = dieNote(roll, i);
        // the name holds the text shown, in its order ("5 55%"): a voice user says what they see
        const label = 'Die ' + (i + 1) + ' shows ' + f + (note.corrected ? ', corrected' : '')
          + (note.text ? ', ' + note.text + (note.corrected ? '' : ' sure') : '') + ': correct it';
        const b = el('button', { type: 'button', class: note.corrected ? 'corrected' : null, 'data-index': i, 'data-key': 'die-' + i,
          'aria-pressed': selected && selected.seq === roll.seq && selected.index === i ? 'true' : 'false', 'aria-label': label },
          roll.crops && roll.crops[i] ? el('img', { class: 'die-crop', src: '/media/' + roll.crops[i], alt: '' }) : null,
          el('span', { class: 'die-value', text: String(f) }),  // spaces between: the text reads "5 55%", not "555%"
          note.corrected ? [' ', el('span', { class: 'die-mark', text: 'corrected' })] : null,
          note.text ? [' ', el('span', { class: 'die-conf', text: note.text })] : null);
        b.addEventListener('click', () => {
          selected = { seq: roll.seq, index: i, latest: latest.seq };
          gone = null;
          focusKey = 'first-value';  // a keyboard user goes on at the value buttons, not at the page's top
          renderCorrect();
        });
        return b;
      }));
    }
    if (roll && selected && selected.seq === roll.seq) {
      vals.hidden = false;
      const sel = selected;
      const shown = roll.faces[sel.index];
      // a die of a kind: its faces by symbol (a Demigods attack die's "critical"); else the numbers 1..sides
      const symbols = roll.face_choices && roll.face_choices[sel.index] && roll.face_choices[sel.index].length
        ? roll.face_choices[sel.index] : null;
      const values = symbols || Array.from({ length: sidesOf(roll.die) }, (_, k) => k + 1);
      vals.replaceChildren(el('span', { class: 'correct-label', text: 'Die ' + (sel.index + 1) + ' is really:' }),
        ...values.map((v) => {
          if (String(v) === String(shown)) {  // the face the die shows now: no correction to make
            return el('button', { type: 'button', class: 'current', disabled: true, 'aria-current': 'true', 'data-key': 'value-' + v,
              'aria-label': 'Die ' + (sel.index + 1) + ' of roll #' + sel.seq + ' shows ' + shown + ' now', text: String(v) });
          }
          const b = el('button', { type: 'button', 'data-key': 'value-' + v,
            'aria-label': 'Set die ' + (sel.index + 1) + ' of roll #' + sel.seq + ' to ' + v, text: String(v) });
          b.addEventListener('click', () => sendCorrection(sel, v));
          return b;
        }));
    } else { vals.hidden = true; vals.replaceChildren(); }
    restoreFocus(focused);
  }

  // the card is drawn anew on every change of the table: the focus stays on the same control
  function restoreFocus(focused) {
    const key = focusKey || focused;
    focusKey = null;
    if (!key) return;
    const card = $('correct-dice').closest('section');
    let target = key === 'first-value' ? $('correct-values').querySelector('button:not([disabled])')
      : card.querySelector('[data-key="' + key + '"]');
    const usable = (b) => b && !b.disabled && b.offsetParent !== null;
    if (!usable(target)) {
      target = [...card.querySelectorAll('#correct-values button, #correct-dice button, .correct-nav button')].find(usable);
    }
    if (target && document.activeElement !== target) target.focus();
  }

  // A correction replays the events after the roll. One the corrected value makes illegal comes back as
  // a 409 naming it (later: seq, text, reason): the card asks to drop it (sent again with it in "drop"),
  // to drop it and enter it again afterwards, or to leave the roll as it is.
  let later = null;  // { sel, value, drops: [seq], event: {seq, text, reason, event}, reenter: [notation] }
  async function sendCorrection(sel, value, drops, reenter) {
    if (sending) return;  // a double tap sends one correction
    sending = true;
    let d = null;
    try {
      d = await api('POST', '/api/correct', { roll: sel.seq, index: sel.index, value, drop: drops || [] });
      const dropped = (drops || []).length ? ', dropped ' + drops.map((k) => '#' + k).join(', ') : '';
      toast((d.unchanged ? d.text : 'Corrected die ' + (sel.index + 1) + ' of roll #' + sel.seq + ' to ' + value + ' (event #' + d.seq + ')' + dropped)
        + ((reenter || []).length ? offerReentry(reenter) : ''), false);
    } catch (e) {
      const r = window.control.lastResult;
      if (r && r.status === 409 && r.data && r.data.later) {
        later = { sel, value, drops: drops || [], event: r.data.later, reenter: reenter || [] };
      } else {
        toast(e.message, true);
      }
    }
    sending = false;
    if (d) later = null;
    // done: back to the roll shown before; refused: the die stays selected (the toast says why), to try again or cancel
    if (d && selected === sel) {
      selected = null;
      focusKey = 'die-' + sel.index;
    }
    if (later) focusKey = 'later-drop';
    renderCorrect();
  }

  // the dropped events to enter again: the first in the typed panel, to change and send; returns the words
  function offerReentry(lines) {
    $('event-text').value = lines[0];
    $('event-text').dataset.auto = '';
    return '. Enter ' + (lines.length > 1 ? 'them' : 'it') + ' again as ' + (lines.length > 1 ? 'they' : 'it')
      + ' should be: the buttons above, or the line under Advanced';
  }

  function renderLater() {
    const box = $('correct-later');
    if (!later) { box.hidden = true; box.replaceChildren(); return; }
    const { sel, value, drops, event } = later;
    const send = (reenter) => sendCorrection(sel, value, drops.concat([event.seq]), reenter ? later.reenter.concat([event.event]) : later.reenter);
    const b = (key, text, label, handler) => {
      const x = el('button', { type: 'button', 'data-key': key, 'aria-label': label, text });
      x.addEventListener('click', handler);
      return x;
    };
    box.hidden = false;
    box.replaceChildren(...[
      el('p', { class: 'correct-later-what', text: 'With die ' + (sel.index + 1) + ' of roll #' + sel.seq + ' as ' + value
        + ', event #' + event.seq + ' (' + event.text + (event.when ? ', ' + event.when : '') + ') is illegal: ' + event.reason + '.' }),
      drops.length ? el('p', { class: 'muted', text: 'Dropping too: ' + drops.map((k) => '#' + k).join(', ') }) : null,
      el('div', { class: 'correct-nav', role: 'group', 'aria-label': 'What to do with event #' + event.seq },
        b('later-drop', 'Drop #' + event.seq + ' and correct', 'Drop event #' + event.seq + ' and correct the die', () => send(false)),
        b('later-reenter', 'Drop #' + event.seq + ', correct, enter it again', 'Drop event #' + event.seq + ', correct the die, then enter the event again', () => send(true)),
        b('later-keep', 'Keep the roll', 'Keep roll #' + sel.seq + ' as it is', () => { later = null; renderCorrect(); })),
    ].filter(Boolean));
  }

  // a roll line of the event log: its Correct button shows that roll in the card, its dice ready to tap
  function correctFromLog(seq) {
    showRoll(seq);
    const card = $('correct-dice').closest('section');
    card.scrollIntoView({ block: 'nearest' });
    const first = $('correct-dice').querySelector('button');
    if (first) first.focus();
  }

  function renderNotice(rolls, roll, latest) {
    let text = gone ? gone.text : '';
    if (!text && roll && latest && roll !== latest) {
      const newer = rolls.filter((r) => r.seq > roll.seq).length;
      const many = newer === 1 ? 'a newer roll' : newer + ' newer rolls';
      text = selected && selected.latest === roll.seq
        ? (newer === 1 ? 'A new roll (#' + latest.seq + ') came' : newer + ' new rolls (latest #' + latest.seq + ') came')
          + ' in meanwhile. You are still correcting die ' + (selected.index + 1) + ' of roll #' + roll.seq
          + ': tap its value or Cancel, then the latest roll is shown.'
        : 'Roll #' + roll.seq + ' is an earlier roll: ' + many + ' came after it, the latest #' + latest.seq + '.';
    }
    if ($('correct-notice').textContent !== text) $('correct-notice').textContent = text;
  }

  function renderNav(rolls, roll) {
    const at = roll ? rolls.indexOf(roll) : -1;
    $('correct-nav').hidden = !roll || (rolls.length < 2 && !selected);
    const earlier = at >= 0 ? rolls[at + 1] : null;
    const later = at > 0 ? rolls[at - 1] : null;
    const set = (id, to, label) => {
      const b = $(id);
      b.disabled = !to;
      b.dataset.seq = to ? to.seq : '';
      b.setAttribute('aria-label', label + (to ? ', #' + to.seq : ': none'));
    };
    set('roll-earlier', earlier, 'Earlier roll');
    set('roll-later', later, 'Later roll');
    set('roll-latest', at > 0 ? rolls[0] : null, 'Latest roll');
    $('correct-cancel').hidden = !selected;
    if (selected) $('correct-cancel').setAttribute('aria-label', 'Cancel: leave die ' + (selected.index + 1) + ' of roll #' + selected.seq + ' as it is');
  }

  function showRoll(seq) {
    const rolls = recentRolls();
    selected = null;
    gone = null;
    pinnedSeq = rolls.length && rolls[0].seq === seq ? null : seq;  // the latest: follow the rolls to come
    renderCorrect();
  }
  for (const id of ['roll-earlier', 'roll-later', 'roll-latest']) {
    $(id).addEventListener('click', (e) => {
      const seq = Number(e.currentTarget.dataset.seq);
      if (!seq) return;
      focusKey = id;  // disabled now (the oldest or the latest shown): restoreFocus finds the next control
      showRoll(seq);
    });
  }
  function cancelSelection() {
    if (!selected) return;
    focusKey = 'die-' + selected.index;
    selected = null;
    renderCorrect();
  }
  $('correct-cancel').addEventListener('click', cancelSelection);
  $('correct-dice').closest('section').addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && selected) { e.preventDefault(); cancelSelection(); }
  });

  // ---- undo --------------------------------------------------------------------------------------
  let undoSeq = null;
  $('undo-button').addEventListener('click', async () => {
    try {
      const p = await api('GET', '/api/undo');
      undoSeq = p.seq;
      $('undo-question').textContent = p.question;
      $('undo-dialog').showModal();
    } catch (e) { toast(e.message, true); }
  });
  $('undo-dialog').addEventListener('close', async () => {
    if ($('undo-dialog').returnValue !== 'confirm' || undoSeq === null) return;
    await act('POST', '/api/undo', { seq: undoSeq }, (d) => 'Undone #' + d.undone + ': ' + (d.text || d.event));
    undoSeq = null;
  });

  async function refreshUndoWhat() {
    try {
      const r = await fetch('/api/undo', { headers: { Accept: 'application/json' } });
      const d = await r.json();
      $('undo-what').textContent = r.ok ? d.question.replace(/^Undo event/, 'Would undo event').replace(/\?$/, '') : d.error;
    } catch (e) { /* shown on click */ }
  }

  // ---- tags and the simulated reader -------------------------------------------------------
  $('enroll-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    await act('POST', '/api/tags/enroll', { uid: $('enroll-uid').value, object: $('enroll-object').value },
      (d) => 'Enrolled ' + d.uid + ' as ' + d.object);
  });
  async function refreshTokens() {
    try {
      const t = await api('GET', '/api/tokens');
      $('tokens-sim').hidden = !t.sim;
      const pad = $('sim-pad');
      if (t.sim) {
        const keep = pad.value;
        pad.replaceChildren(...t.pads.map((p) => {
          const n = typeof p === 'object' ? p.pad : p;
          const on = typeof p === 'object' && p.uid ? ' — ' + (p.object || p.uid) : '';
          return el('option', { value: n, text: 'Pad ' + n + on });
        }));
        if (keep !== '') pad.value = keep;
      }
      if (t.last_unknown_uid && !$('enroll-uid').value) $('enroll-uid').value = t.last_unknown_uid;
    } catch (e) { /* toast already shown */ }
  }
  for (const action of ['place', 'remove']) {
    $('sim-' + action).addEventListener('click', () => act('POST', '/api/tokens/' + action,
      { pad: Number($('sim-pad').value), uid: $('sim-uid').value }, (d) => d.action + ' ' + d.uid + ' on pad ' + d.pad));
  }

  // ---- camera ----------------------------------------------------------------------------------
  let frameUrl = null;
  // the camera's own status (/api/status): a failing reader must not read as "dice outlined"
  async function cameraStatus() {
    try {
      const r = await fetch('/api/status', { headers: { Accept: 'application/json' }, cache: 'no-store' });
      const cam = ((await r.json()).devices || {}).camera;
      if (cam && (cam.ok === false || ['error', 'failed', 'down', 'lost', 'disconnected'].includes(cam.state))) {
        return 'Camera ' + cam.state + ': ' + (cam.detail || cam.error || cam.last_error || 'no detail');
      }
    } catch (e) { /* the frame request says what it can */ }
    return null;
  }

  async function refreshCamera() {
    const failing = await cameraStatus();
    $('camera-note').classList.toggle('err', !!failing);
    const r = await fetch('/api/camera/frame.jpg', { cache: 'no-store' });
    if (!r.ok) {
      let msg = r.status + '';
      try { msg = (await r.json()).error; } catch (e) { /* keep status */ }
      $('camera-note').textContent = failing || 'Camera view unavailable: ' + msg;
      $('camera-frame').hidden = true;
      return false;
    }
    const blob = await r.blob();
    if (frameUrl) URL.revokeObjectURL(frameUrl);
    frameUrl = URL.createObjectURL(blob);
    $('camera-frame').src = frameUrl;
    $('camera-frame').hidden = false;
    $('camera-note').textContent = failing
      ? failing + ' — the frame is shown without dice.'
      : 'Live frame, detected dice outlined. Move the camera until every die is found.';
    return true;
  }
  // the board view: the frame warped by the board calibration, the grid and the figures over it
  let boardUrl = null;
  async function refreshBoard() {
    const r = await fetch('/api/camera/board.jpg', { cache: 'no-store' });
    if (!r.ok) {
      let msg = r.status + '';
      try { msg = (await r.json()).error; } catch (e) { /* keep status */ }
      $('board-note').textContent = 'Board view unavailable: ' + msg;
      $('board-frame').hidden = true;
      return;
    }
    const blob = await r.blob();
    if (boardUrl) URL.revokeObjectURL(boardUrl);
    boardUrl = URL.createObjectURL(blob);
    $('board-frame').src = boardUrl;
    $('board-frame').hidden = false;
    $('board-note').textContent = 'The board from above: each figure should sit in its cell of the grid, '
      + 'its arrow where it faces. If not, calibrate again (arena-table calibrate).';
  }

  // "46=-250,-215 47=250,-215 ..." -> {"46": [-250, -215], ...}; "1=0,3" -> {id: 1, cell: [0, 3]}
  function boardCalibration() {
    const corners = {};
    for (const part of $('board-corners').value.trim().split(/\s+/).filter(Boolean)) {
      const m = part.match(/^(\d+)=(-?[\d.]+),(-?[\d.]+)$/);
      if (!m) throw new Error('corner "' + part + '": write id=x,y (board mm), e.g. 46=0,0');
      corners[m[1]] = [Number(m[2]), Number(m[3])];
    }
    const body = { corners };
    const ref = $('board-reference').value.trim();
    if (ref) {
      const m = ref.match(/^(\d+)=(.+)$/);
      if (!m) throw new Error('reference "' + ref + '": write id=cell, e.g. 1=0,0');
      const cell = m[2].match(/^(-?\d+),(-?\d+)$/);
      body.reference = { id: Number(m[1]), cell: cell ? [Number(cell[1]), Number(cell[2])] : m[2] };
    }
    return body;
  }
  $('board-calibrate').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const msg = $('board-calibrate-msg');
    msg.classList.remove('err');
    try {
      const d = await api('POST', '/api/board/calibrate', boardCalibration());
      msg.textContent = 'Calibrated at ' + d.resolution.join('x')
        + (d.reference ? '; reference marker ' + d.reference.id + ' ' + d.reference.offset_mm.toFixed(1)
          + ' mm from the centre of its cell' : '') + '.';
      refreshBoard();
    } catch (e) {
      msg.textContent = 'Calibration refused: ' + e.message;
      msg.classList.add('err');
    }
  });

  // the marker registry: which figure each marker id stands for
  function showMarkers(d) {
    const rows = d.markers.map((m) => el('li', { text: m.id + ': ' + m.figure + ' (' + m.team + ')' }));
    $('marker-list').replaceChildren(...(rows.length ? rows : [el('li', { text: 'No markers assigned yet.' })]));
  }
  async function refreshMarkers() {
    try { showMarkers(await api('GET', '/api/markers')); } catch (e) { $('marker-list').textContent = e.message; }
  }
  async function editMarker(remove) {
    const msg = $('marker-msg');
    msg.classList.remove('err');
    const body = { id: Number($('marker-id').value) };
    if (remove) body.remove = true;
    else { body.figure = $('marker-figure').value; if ($('marker-team').value) body.team = $('marker-team').value; }
    try {
      showMarkers(await api('POST', '/api/markers', body));
      msg.textContent = remove ? 'Removed marker ' + body.id + '.' : 'Marker ' + body.id + ' is ' + body.figure + '.';
    } catch (e) {
      msg.textContent = e.message;
      msg.classList.add('err');
    }
  }
  $('marker-form').addEventListener('submit', (ev) => { ev.preventDefault(); editMarker(false); });
  $('marker-remove').addEventListener('click', () => editMarker(true));
  refreshMarkers();

  async function cameraLoop() {
    try { await refreshBoard(); } catch (e) { /* the note says what it can */ }
    let ok = false;
    try { ok = await refreshCamera(); } catch (e) { ok = false; }
    setTimeout(cameraLoop, ok ? 1000 : 10000);
  }

  // ---- log and live state ------------------------------------------------------------------
  async function refreshLog() {
    try {
      const d = await api('GET', '/api/events?viewer=control&since=' + Math.max(0, (state ? state.seq : 0) - 40));
      const rolls = new Set(recentRolls().map((x) => x.seq));  // the running game's rolls the card can show
      $('control-log').replaceChildren(...d.events.slice().reverse().map((r) => {
        const li = el('li', { value: r.seq, class: r.status === 'rejected' ? 'rejected' : null,
          text: (r.when ? r.when + ' · ' : '') + (r.words || r.text)
            + (r.status === 'rejected' ? '  — rejected: ' + r.reason : '') });
        if (r.status === 'ok' && r.event && r.event.kind === 'roll' && rolls.has(r.seq)) {
          const b = el('button', { type: 'button', class: 'log-correct', 'aria-label': 'Correct roll #' + r.seq, text: 'Correct' });
          b.addEventListener('click', () => correctFromLog(r.seq));
          li.append(' ', b);
        }
        return li;
      }));
    } catch (e) { /* shown */ }
  }

  // the running game's own kinds and the kernel's (roll, correct, note...): not another game's
  let kindsFor = null;
  function renderKinds(game) {
    if (!gamesInfo || game === kindsFor) return;
    kindsFor = game;
    const keep = $('event-kind').value;
    const kinds = gamesInfo.event_kinds.filter((k) => !k.game || k.game === game);
    $('event-kind').replaceChildren(...kinds.map((k) => el('option', { value: k.kind, text: k.kind })));
    $('event-kind').value = kinds.some((k) => k.kind === keep) ? keep : 'roll';
    renderKindHelp();
  }

  // a figure on the table where the rules say it cannot be: put it back, or settle it here
  function renderDesync() {
    const refused = state && state.roll_refused;  // a camera throw the game did not take: throw what it waits for
    $('roll-refused').hidden = !refused;
    $('roll-refused').textContent = refused ? refused.message : '';
    $('awaits').hidden = !(state && state.awaits);
    $('awaits').textContent = state && state.awaits ? 'Waiting for ' + state.awaits : '';
    const off = (state && state.desync) || [];
    $('desync').hidden = !off.length;
    $('desync').replaceChildren(...off.map((d) => {
      const button = (text, kind, done) => {
        const b = el('button', { type: 'button', text });
        b.addEventListener('click', () => act('POST', '/api/events', { notation: kind + ' figure=' + d.figure }, () => done));
        return b;
      };
      return el('div', { class: 'desync-row' }, el('p', { text: d.message }),
        button('The table is right: ' + d.name + ' stays there', 'figure-confirm', 'Confirmed ' + d.name),
        button('The rules are right: ' + d.name + ' goes back', 'figure-override', 'Kept ' + d.name + ' where the rules have it'));
    }));
  }

  function onState() {
    document.dispatchEvent(new CustomEvent('table-state'));
    if (state) renderKinds(state.game);
    $('running').textContent = state ? 'Running: ' + state.title + ' · event ' + state.seq : '';
    renderCorrect();
    renderDesync();
    refreshLog();
    refreshUndoWhat();
  }

  function connect() {
    const es = new EventSource('/api/stream');
    es.addEventListener('snapshot', (e) => { state = JSON.parse(e.data).state; onState(); });
    es.addEventListener('update', (e) => {
      const d = JSON.parse(e.data);
      if (!state) return;
      Object.assign(state, d.set || {});
      for (const k of d.unset || []) delete state[k];
      for (const [k, a] of Object.entries(d.append || {})) state[k] = (state[k] || []).concat(a.items).slice(-a.keep);
      onState();
    });
    es.addEventListener('error', () => { if (es.readyState === EventSource.CLOSED) setTimeout(connect, 3000); });
  }

  async function init() {
    gamesInfo = await api('GET', '/api/games');
    $('start-game').replaceChildren(...gamesInfo.games.map((g) => el('option', { value: g.name, text: g.title + ' (' + g.name + ')' })));
    $('start-game').value = gamesInfo.running;
    $('start-game').addEventListener('change', renderStartFields);
    renderStartFields();
    $('enroll-objects').replaceChildren(...gamesInfo.games.flatMap((g) => (g.objects || []).map((o) => el('option', { value: o }))));
    renderKinds(gamesInfo.running);
    $('event-kind').addEventListener('change', () => { $('event-text').dataset.auto = '1'; renderKindHelp(); });
    refreshTokens();
    setInterval(refreshTokens, 5000);
    cameraLoop();
    connect();
  }
  init();
})();
