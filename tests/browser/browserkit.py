"""Helpers for the browser tests: a real table served on loopback, logging in, new pages, the
spectator screen opened for a test. The fixtures (``browser``, ``live``, ``page``, ``tv``,
``phone``, ``screenshots``) are in this folder's ``conftest.py``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

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
