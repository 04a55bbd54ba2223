// The control page's teach card: capture the camera's dice as shots of a face, teach the kind,
// show the held-back confusion matrix or the refusal (GET /api/teach, POST /api/teach/*).
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const el = window.ArenaDom.el;
  const card = $('teach-card');
  if (!card || !window.control) return;
  const api = window.control.api;
  let info = null;

  const kind = () => $('teach-kind').value.trim().toLowerCase();
  const face = () => $('teach-face').value.trim().toLowerCase();

  function say(text, isError) {
    const m = $('teach-msg');
    m.textContent = text;
    m.className = isError ? 'err' : '';
  }

  function showCounts(counts) {
    const table = $('teach-counts');
    const body = table.querySelector('tbody');
    body.replaceChildren(...Object.entries(counts || {}).map(([f, n]) =>
      el('tr', { 'data-face': f }, el('td', { text: f }), el('td', { text: String(n) }))));
    table.hidden = !body.children.length;
  }

  function showFaces() {
    const k = info && info.kinds.find((x) => x.id === kind());
    const taught = info && info.taught.find((x) => x.id === kind());
    const faces = taught ? taught.faces : (k && !k.to_enter ? k.faces : []);
    $('teach-faces').replaceChildren(...faces.map((f) => el('option', { value: f })));
    showCounts(info && info.shots[kind()]);
  }

  function confusion(report) {
    const faces = report.faces;
    return el('table', { class: 'teach-confusion' },
      el('thead', {}, el('tr', {}, el('th', { text: 'true \\ read' }), faces.map((f) => el('th', { text: f })))),
      el('tbody', {}, report.confusion.map((row, i) =>
        el('tr', {}, el('th', { text: faces[i] }), row.map((n, j) =>
          el('td', { text: String(n), class: i === j ? 'diag' : (n ? 'off' : null) }))))));
  }

  function showResult(d) {
    const box = $('teach-result');
    const r = d.report;
    box.replaceChildren(
      el('p', { id: 'teach-summary', text: `Taught ${d.kind}: accuracy ${r.accuracy.toFixed(3)} on ${r.held_back} ` +
        `held-back shots, abstaining on ${(100 * r.abstention).toFixed(1)} % (kept in ${d.file})` }),
      confusion(r));
    box.hidden = false;
  }

  async function refresh() {
    try { info = await api('GET', '/api/teach'); } catch (e) { say(e.message, true); return; }
    $('teach-kinds').replaceChildren(...info.kinds.map((k) => el('option', { value: k.id, label: k.title })));
    $('teach-taught').replaceChildren(...(info.taught.length ? info.taught.map((t) =>
      el('li', { 'data-kind': t.id, text: `${t.id}: ${t.faces.join(', ')} (${t.shots} shots, accuracy ` +
        `${t.accuracy === null || t.accuracy === undefined ? '-' : t.accuracy.toFixed(3)})` }))
      : [el('li', { text: 'No kind taught yet' })]));
    showFaces();
  }

  function busy(handler) {
    return async (e) => {
      if (e && e.preventDefault) e.preventDefault();
      if (card.dataset.busy === '1') return;
      card.dataset.busy = '1';
      const buttons = [...card.querySelectorAll('button')];
      buttons.forEach((b) => { b.disabled = true; });
      try { await handler(); } catch (err) { say(err.message, true); } finally {
        card.dataset.busy = '0';
        buttons.forEach((b) => { b.disabled = false; });
      }
    };
  }

  $('teach-form').addEventListener('submit', busy(async () => {
    const d = await api('POST', '/api/teach/capture', { kind: kind(), face: face() });
    say(`${d.added} ${d.added === 1 ? 'die' : 'dice'} captured as ${d.face}`, false);
    if (info) info.shots[d.kind] = d.shots;
    showCounts(d.shots);
  }));

  $('teach-build').addEventListener('click', busy(async () => {
    $('teach-result').hidden = true;
    say('Teaching…', false);
    try {
      const d = await api('POST', '/api/teach/build', { kind: kind() });
      say(`${d.kind} taught`, false);
      showResult(d);
    } catch (err) {
      const last = window.control.lastResult;
      const faces = last && last.data && last.data.faces;
      say(err.message, true);
      if (faces && faces.length) $('teach-msg').dataset.faces = faces.join(',');
    }
    await refresh();
  }));

  $('teach-clear').addEventListener('click', busy(async () => {
    const d = await api('POST', '/api/teach/clear', { kind: kind() });
    say(`shots of ${d.kind} cleared`, false);
    if (info) delete info.shots[d.kind];
    showCounts({});
  }));

  $('teach-kind').addEventListener('change', showFaces);
  $('teach-kind').addEventListener('input', showFaces);
  refresh();
})();
