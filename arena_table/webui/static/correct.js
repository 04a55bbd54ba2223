// The control page's Last roll card: a die of a recent roll tapped and set to its real face
// (POST /api/correct), and the question when the correction makes a later event illegal.
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const el = window.ArenaDom.el;
  const { api, toast } = window.control;

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
    const state = window.control.state;
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
    const state = window.control.state;
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

  // the event log's rolls (eventlog.js): which it can show here, and its Correct buttons
  window.control.rolls = { recent: recentRolls, correctFromLog };
  document.addEventListener('table-state', renderCorrect);
})();
