"""``arena-table run --camera DIR`` in a subprocess on rendered photos of a game board, watched by
Chromium on the spectator page: when each photo reached the camera loop, and when each figure
was drawn on the board SVG at its cell with its facing.

The photos come from :class:`arena_table.vision.board_film.BoardFilm` (the game's own board
definition, one fixed camera, the calibration found on a clean photo); the game's set-up is
written into the event log before the service starts, and the marker registry and board
calibration into its data folder, as ``arena-table markers assign`` and ``arena-table
calibrate`` would leave them.

Timing, honestly: the folder source runs in real time (``camera.realtime``), so photo ``k``'s
first frame reaches the camera loop at ``t0 + first_index[k] / fps`` on the system's monotonic
clock; ``t0`` comes from the figure reader's report of a move (its frame's time and index). The
page records ``Date.now()`` in the animation frame after the mutation that drew a figure; both
are turned into one clock in this process. A photo that reached the loop late (the loop behind
its schedule) counts from its schedule, so lateness is counted against the latency, never for it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

import cv2

from arena_table.cli.common import free_port
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, TableConfig
from arena_table.vision.board_calib import CALIBRATION_FILE
from arena_table.vision.marker_registry import MarkerRegistry

FPS = 10.0
STILL_FRAMES = 19
"""Each photo is 20 frames at 10 fps: 2 s, time for the dice reader's settle too."""
PIN = "246802"

OBSERVER = """() => {
  window.figuresDrawn = {};
  const board = document.getElementById('board');
  const note = () => {
    const keys = [...board.querySelectorAll('g.figure')].map((g) =>
      g.querySelector('title').textContent.split(' (')[0] + '@' + g.dataset.cell + '/' + (g.dataset.facing ?? ''));
    const fresh = keys.filter((k) => !(k in window.figuresDrawn));
    if (fresh.length) requestAnimationFrame(() => { const t = Date.now(); for (const k of fresh) window.figuresDrawn[k] ??= t; });
  };
  new MutationObserver(note).observe(board, { childList: true, subtree: true });
  const desync = document.getElementById('desync');
  window.desyncShown = null;
  new MutationObserver(() => {
    if (!desync.hidden && window.desyncShown === null)
      requestAnimationFrame(() => { window.desyncShown = { t: Date.now(), text: desync.innerText }; });
  }).observe(desync, { attributes: true, childList: true, subtree: true, characterData: true });
  note();
}"""
"""Installed in the spectator page: ``figuresDrawn["Rac@0,3/2"]`` is the wall time (ms) the token
of Rac on cell 0,3 facing 2 was first drawn; ``desyncShown`` when "check the table" appeared."""


@dataclass
class Run:
    """What a run saw."""

    photos: list[str]
    first_index: list[int]
    """Index of each photo's first frame in the folder source."""
    drawn: dict[str, float] = field(default_factory=dict)
    """``name@cell/facing`` -> monotonic time (s, this process) it was drawn."""
    desync: dict | None = None
    """``{"t": monotonic s, "text"}`` of "check the table" on the page."""
    t0: float | None = None
    """Monotonic time of the folder source's frame 0."""
    connected_at: float = 0.0
    moves: list[dict] = field(default_factory=list)
    state: dict = field(default_factory=dict)
    """The final ``/api/state``."""
    board_svg: str = ""
    log: str = ""
    seen: Any = None
    """What ``collect`` took from the page at the end (:func:`run_service`)."""
    status_camera: dict = field(default_factory=dict)
    """The camera's status entry at the end."""

    def presented(self, photo: int) -> float:
        """Monotonic time photo ``photo``'s first frame was due at the camera loop."""
        assert self.t0 is not None, "no move reported: the frame times are unknown"
        return self.t0 + self.first_index[photo] / FPS

    def latency(self, photo: int, key: str) -> float:
        """Seconds from photo ``photo`` reaching the camera loop to ``key`` drawn on the page."""
        assert key in self.drawn, f"{key} never drawn; drawn: {sorted(self.drawn)}"
        return self.drawn[key] - self.presented(photo)


def write_photos(folder: Path, photos: list[Any]) -> list[str]:
    """Write each image as ``photo-NN.png``; returns the names."""
    folder.mkdir(parents=True, exist_ok=True)
    names = []
    for k, image in enumerate(photos):
        name = f"photo-{k:02d}.png"
        cv2.imwrite(str(folder / name), image)
        names.append(name)
    return names


def prepare(tmp: Path, setup_events: list, film: Any, markers: Mapping[int, str], marker_mm: float) -> Path:
    """The data folder: the game's set-up in ``t.db``, the registry and the calibration. Returns the db."""
    db = tmp / "t.db"
    table = Table(TableConfig(data=DataSettings(db=db), camera=CameraSettings(source="none"))).start()
    try:
        for event in setup_events:
            table.submit(event)
    finally:
        table.close()
    film.calibration.save(tmp / CALIBRATION_FILE)
    with MarkerRegistry(tmp / "markers.db") as reg:
        reg.set_marker_mm(marker_mm)
        for i, f in markers.items():
            reg.assign(i, f)
    return db


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.load(r)


def run_service(browser, tmp: Path, db: Path, photos: list[str], folder: Path, timeout: float = 60.0,
                observer: str = "", collect: Callable[[Any], Any] | None = None) -> Run:
    """Run the service on ``folder`` until its camera has shown every photo, with a spectator page
    open from before the first figure; returns what was seen. ``observer``: more JavaScript
    installed in the page with :data:`OBSERVER`; ``collect(page)``: what to keep from the page at
    the end (``Run.seen``)."""
    config = tmp / "config.toml"
    config.write_text(f"[camera]\nfps = {FPS}\nstill_frames = {STILL_FRAMES}\nrealtime = true\n", encoding="utf-8")
    port = free_port()
    out = tmp / "service.log"
    cmd = [sys.executable, "-m", "arena_table.cli", "run", "--config", str(config), "--db", str(db),
           "--camera", str(folder), "--tokens", "none", "--port", str(port), "--pin", PIN]
    proc = subprocess.Popen(cmd, stdout=open(out, "w"), stderr=subprocess.STDOUT, env={**os.environ})
    url = f"http://127.0.0.1:{port}"
    run = Run(photos, [k * (STILL_FRAMES + 1) for k in range(len(photos))])
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                _get(url + "/api/state")
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"the service did not start:\n{out.read_text()[-3000:]}")
                time.sleep(0.1)
        page = ctx.new_page()
        page.emulate_media(reduced_motion="reduce")
        page.goto(url + "/?page_seconds=3600")
        page.wait_for_function("window.arena && window.arena.connected", timeout=10000, polling=20)
        page.evaluate(OBSERVER)
        if observer:
            page.evaluate(observer)
        run.connected_at = time.monotonic()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            cam = _get(url + "/api/status")["devices"].get("camera", {})
            if cam.get("state") in ("ended", "failed"):
                break
            time.sleep(0.2)
        page.wait_for_timeout(300)  # the last event's render
        offset = time.time() - time.monotonic()  # wall clock (the page's Date.now) -> monotonic
        run.drawn = {k: v / 1000 - offset for k, v in page.evaluate("window.figuresDrawn").items()}
        shown = page.evaluate("window.desyncShown")
        run.desync = None if shown is None else {"t": shown["t"] / 1000 - offset, "text": shown["text"]}
        run.board_svg = page.inner_html("#board")
        if collect is not None:
            run.seen = collect(page)
        status = _get(url + "/api/status")["devices"]
        run.status_camera = status.get("camera", {})
        run.state = _get(url + "/api/state")
        move = status.get("figures", {}).get("last_move")
        if move:
            run.t0 = move["frame_t"] - move["frame_index"] / FPS
        assert status.get("camera", {}).get("state") == "ended", f"camera: {status.get('camera')}"
    finally:
        ctx.close()
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        run.log = out.read_text()
    return run
