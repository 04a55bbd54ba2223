// The control page's Camera and Board cards: the live frame with the dice found, the board view
// warped by its calibration, the calibration from a frame, and the marker registry.
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const el = window.ArenaDom.el;
  const { api } = window.control;

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
  // a table without a board view (no board calibration) is asked again every BOARD_RETRY-th turn of
  // the loop, not every second: each refusal is a request and a console error on every open page
  const BOARD_RETRY = 30;
  let boardWait = 0;
  async function refreshBoard() {
    const r = await fetch('/api/camera/board.jpg', { cache: 'no-store' });
    if (!r.ok) {
      let msg = r.status + '';
      try { msg = (await r.json()).error; } catch (e) { /* keep status */ }
      $('board-note').textContent = 'Board view unavailable: ' + msg;
      $('board-frame').hidden = true;
      return false;
    }
    const blob = await r.blob();
    if (boardUrl) URL.revokeObjectURL(boardUrl);
    boardUrl = URL.createObjectURL(blob);
    $('board-frame').src = boardUrl;
    $('board-frame').hidden = false;
    $('board-note').textContent = 'The board from above: each figure should sit in its cell of the grid, '
      + 'its arrow where it faces. If not, calibrate again (arena-table calibrate).';
    return true;
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
      boardWait = 0;
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
    if (boardWait > 0) boardWait -= 1;
    else {
      let shown = false;
      try { shown = await refreshBoard(); } catch (e) { /* the note says what it can */ }
      boardWait = shown ? 0 : BOARD_RETRY - 1;
    }
    let ok = false;
    try { ok = await refreshCamera(); } catch (e) { ok = false; }
    setTimeout(cameraLoop, ok ? 1000 : 10000);
  }

  document.addEventListener('table-games', cameraLoop);
})();
