"""Helpers for the browser tests: a real table served on loopback, logging in, new pages, the
spectator screen opened for a test. The fixtures (``browser``, ``live``, ``page``, ``tv``,
``phone``, ``screenshots``) are in this folder's ``conftest.py``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from arena_table.rules import parse
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, TableConfig, WebSettings
from arena_table.webui.app import create_app
from arena_table.webui.server import ServerThread

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PIN = "135790"


@dataclass
class Live:
    """A table, its app and its server on a loopback port."""

    table: Table
    app: object
    server: ServerThread

    @property
    def url(self) -> str:
        return self.server.url


def start_live(db: Path, port: int = 0) -> Live:
    table = Table(TableConfig(data=DataSettings(db=db), camera=CameraSettings(source="none"),
                              web=WebSettings(pin=PIN))).start()
    app = create_app(table, {"heartbeat": 15.0})
    server = ServerThread(app, "127.0.0.1", port).start()
    return Live(table, app, server)


def stop_live(live: Live) -> None:
    live.server.stop()
    live.table.close()


def login(page, url: str, pin: str = PIN) -> None:
    page.goto(url + "/login")
    page.fill("#pin", pin)
    page.click("button[type=submit]")
    page.wait_for_url(url + "/control")


def new_page(browser, width: int, height: int):
    ctx = browser.new_context(viewport={"width": width, "height": height})
    pg = ctx.new_page()
    pg.errors = []  # type: ignore[attr-defined]
    pg.on("pageerror", lambda exc: pg.errors.append(str(exc)))
    pg.on("console", lambda msg: pg.errors.append(msg.text) if msg.type == "error" else None)
    return ctx, pg


TV_SIZES = [(1280, 720), (1920, 1080)]
"""The spectator screen's usual TVs: 720p and 1080p."""


def open_tv(page, live, ready: str = "") -> None:
    """Open ``live``'s spectator screen in ``page`` with paging stopped (pages turned by hand) and
    no animations, and wait for its newest event, then for the JS condition ``ready`` if given,
    else 200 ms for the QR image and fonts."""
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live.url}/?page_seconds=3600")
    page.wait_for_function("v => window.arena && window.arena.cur.version >= v", arg=live.table.version, timeout=5000)
    if ready:
        page.wait_for_function(ready, timeout=5000)
    else:
        page.wait_for_timeout(200)


def play(live, game: str, upto: int) -> None:
    """Submit the first ``upto`` events of the transcript ``game`` (a path under the repository)."""
    lines = [ln for ln in (ROOT / game).read_text(encoding="utf-8").splitlines()
             if ln.strip() and not ln.startswith("#")]
    for line in lines[:upto]:
        live.table.submit(parse(line))


SHOWN = """() => {
  const game = document.getElementById('game');
  const main = game.querySelector('.game-main'), side = game.querySelector('.game-side');
  const flat = (col) => [...col.children].flatMap((c) => (c.hasAttribute('data-page-flow') ? [...c.children] : [c]));
  const apart = getComputedStyle(game).display === 'contents';  // the compact ranking's two panels
  const out = {};
  for (const [name, st] of Object.entries(window.arena.pages())) {
    const cols = name === 'game' ? [main, side] : [name === 'main' ? main : side];
    const box = apart ? cols[0] : game;
    const cs = getComputedStyle(box);
    const room = box.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
    const shown = cols.flatMap(flat).filter((e) => e.offsetHeight && !e.closest('.off-page')
      && !e.classList.contains('pager'));
    const rects = shown.map((e) => e.getBoundingClientRect());
    const used = rects.length ? Math.max(...rects.map((r) => r.bottom)) - Math.min(...rects.map((r) => r.top)) : 0;
    out[name] = { page: st.page, pages: st.pages, blocks: shown.map((e) => e.id || e.tagName), fill: used / room };
  }
  return out;
}"""
"""For each paged region (``window.arena.pages()``), what its page shows: the shown blocks' ids (or
tags) top to bottom, and the height they take as a share of the region's box (its padding left out)."""


def every_page(page) -> dict[str, list[dict]]:
    """Each paged region's pages, in order, as :data:`SHOWN` sees them (the pages turned by hand)."""
    seen: dict[str, dict[int, dict]] = {}
    turns = max([p["pages"] for p in page.evaluate("window.arena.pages()").values()] + [1])
    for _ in range(turns):
        for name, shown in page.evaluate(SHOWN).items():
            seen.setdefault(name, {})[shown["page"]] = shown
        page.evaluate("window.arena.nextPage()")
    return {name: [pages[k] for k in sorted(pages)] for name, pages in seen.items()}
