// The control page's core: every action is a POST with the session's CSRF token; the server turns
// it into an event for the rules and answers with the sequence number or what was wrong. The cards
// (start.js, notation.js, correct.js, desync.js, eventlog.js, tags.js, camera.js, teach.js, remote.js,
// loaded after this one) use window.control's helpers and listen on the document for 'table-games'
// (window.control.games, /api/games, loaded once) and 'table-state' (window.control.state, the
// table's view, kept by the event stream).
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const control = window.control = { lastSubmitAt: null, lastResult: null, state: null, games: null };

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
    if (method !== 'GET') control.lastSubmitAt = Date.now();
    const r = await fetch(url, opts);
    let data = null;
    try { data = await r.json(); } catch (e) { data = { error: r.status + ' ' + r.statusText }; }
    control.lastResult = { status: r.status, data };
    if (r.status === 401) { location.href = '/login?next=/control'; }
    if (!r.ok) throw new Error(data.error || (r.status + ' ' + r.statusText));
    return data;
  }

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
  Object.assign(control, { api, toast, act, guarded });

  function onState() {
    const state = control.state;
    $('running').textContent = state ? 'Running: ' + state.title + ' · event ' + state.seq : '';
    document.dispatchEvent(new CustomEvent('table-state'));
  }

  function connect() {
    const es = new EventSource('/api/stream');
    es.addEventListener('snapshot', (e) => { control.state = JSON.parse(e.data).state; onState(); });
    es.addEventListener('update', (e) => {
      const d = JSON.parse(e.data);
      const state = control.state;
      if (!state) return;
      Object.assign(state, d.set || {});
      for (const k of d.unset || []) delete state[k];
      for (const [k, a] of Object.entries(d.append || {})) state[k] = (state[k] || []).concat(a.items).slice(-a.keep);
      onState();
    });
    es.addEventListener('error', () => { if (es.readyState === EventSource.CLOSED) setTimeout(connect, 3000); });
  }

  // after every card's script has run (all are deferred): each has its listeners in place
  document.addEventListener('DOMContentLoaded', async () => {
    control.games = await api('GET', '/api/games');
    document.dispatchEvent(new CustomEvent('table-games'));
    connect();
  });
})();
