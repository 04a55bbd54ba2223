"""Fixtures and helpers for the browser tests: Debian's Chromium driven by Playwright against
a real table served on loopback. Playwright's own browser download is never used (no
``playwright install``): Chromium is ``/usr/bin/chromium`` from Debian, installed by
``scripts/test-deps.sh``. (Fixtures live here, imported by each test module, not in a
conftest.py: ``--doctest-modules`` imports every ``conftest.py`` under one module name.)"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

from arena_table.table.app import Table, TableConfig
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
    table = Table(TableConfig(db=db, camera=None, pin=PIN)).start()
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


_SHARED: dict = {}


def _stop_shared() -> None:
    if "browser" in _SHARED:
        _SHARED.pop("browser").close()
        _SHARED.pop("playwright").stop()


@pytest.fixture(scope="session")
def browser():
    """One Chromium for the whole run (each test module imports this fixture, and Playwright's
    sync API allows one instance per thread), closed when the interpreter exits."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: scripts/test-deps.sh should have installed Debian's chromium")
        pytest.skip(f"{CHROMIUM} is missing (run scripts/test-deps.sh)")
    if "browser" not in _SHARED:
        import atexit

        from playwright.sync_api import sync_playwright

        _SHARED["playwright"] = sync_playwright().start()
        _SHARED["browser"] = _SHARED["playwright"].chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                                                   headless=True)
        atexit.register(_stop_shared)
    yield _SHARED["browser"]


@pytest.fixture
def live(tmp_path) -> Iterator[Live]:
    lv = start_live(tmp_path / "table.db")
    yield lv
    stop_live(lv)


def _new_page(browser, width: int, height: int):
    ctx = browser.new_context(viewport={"width": width, "height": height})
    pg = ctx.new_page()
    pg.errors = []  # type: ignore[attr-defined]
    pg.on("pageerror", lambda exc: pg.errors.append(str(exc)))
    pg.on("console", lambda msg: pg.errors.append(msg.text) if msg.type == "error" else None)
    return ctx, pg


@pytest.fixture
def page(browser):
    ctx, pg = _new_page(browser, 1920, 1080)
    yield pg
    ctx.close()


TV_SIZES = [(1280, 720), (1920, 1080)]
"""The spectator screen's usual TVs: 720p and 1080p."""


@pytest.fixture(params=TV_SIZES, ids=[f"{w}x{h}" for w, h in TV_SIZES])
def tv(browser, request):
    """A page at each of :data:`TV_SIZES`; ``tv.size`` is ``"WxH"``."""
    ctx, pg = _new_page(browser, *request.param)
    pg.size = "x".join(map(str, request.param))
    yield pg
    ctx.close()


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


@pytest.fixture
def phone(browser):
    ctx, pg = _new_page(browser, 390, 844)
    yield pg
    ctx.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
