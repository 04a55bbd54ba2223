// The control page's Tags card: enroll a tag as a game object (POST /api/tags/enroll), and the
// simulated reader's pads (GET /api/tokens, POST /api/tokens/place|remove).
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const el = window.ArenaDom.el;
  const { api, act } = window.control;

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

  document.addEventListener('table-games', () => {
    const gamesInfo = window.control.games;
    $('enroll-objects').replaceChildren(...gamesInfo.games.flatMap((g) => (g.objects || []).map((o) => el('option', { value: o }))));
    refreshTokens();
    setInterval(refreshTokens, 5000);
  });
})();
