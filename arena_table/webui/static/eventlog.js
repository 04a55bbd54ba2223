// The control page's Event log card (its roll lines open the roll in the Last roll card) and the
// Undo card (GET /api/undo names the event, POST /api/undo takes it back after a confirmation).
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const el = window.ArenaDom.el;
  const { api, act, toast } = window.control;

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

  // ---- the event log -------------------------------------------------------------------------
  async function refreshLog() {
    const state = window.control.state;
    try {
      const d = await api('GET', '/api/events?viewer=control&since=' + Math.max(0, (state ? state.seq : 0) - 40));
      const rolls = new Set(window.control.rolls.recent().map((x) => x.seq));  // the running game's rolls the card can show
      $('control-log').replaceChildren(...d.events.slice().reverse().map((r) => {
        const li = el('li', { value: r.seq, class: r.status === 'rejected' ? 'rejected' : null,
          text: (r.when ? r.when + ' · ' : '') + (r.words || r.text)
            + (r.status === 'rejected' ? '  — rejected: ' + r.reason : '') });
        if (r.status === 'ok' && r.event && r.event.kind === 'roll' && rolls.has(r.seq)) {
          const b = el('button', { type: 'button', class: 'log-correct', 'aria-label': 'Correct roll #' + r.seq, text: 'Correct' });
          b.addEventListener('click', () => window.control.rolls.correctFromLog(r.seq));
          li.append(' ', b);
        }
        return li;
      }));
    } catch (e) { /* shown */ }
  }

  document.addEventListener('table-state', () => {
    refreshLog();
    refreshUndoWhat();
  });
})();
