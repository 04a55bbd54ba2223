"""Fixtures of the browser tests: Debian's Chromium driven by Playwright against a real table
served on loopback. Playwright's own browser download is never used (no ``playwright install``):
Chromium is ``/usr/bin/chromium`` from Debian, installed by ``scripts/test-deps.sh``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest
from browserkit import CHROMIUM, CHROMIUM_ARGS, SCREENSHOTS, TV_SIZES, Live, new_page, start_live, stop_live

_SHARED: dict = {}


def _stop_shared() -> None:
    if "browser" in _SHARED:
        _SHARED.pop("browser").close()
        _SHARED.pop("playwright").stop()


@pytest.fixture(scope="session")
def browser():
    """One Chromium for the whole run (Playwright's sync API allows one instance per thread),
    closed when the interpreter exits."""
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

@pytest.fixture
def page(browser):
    ctx, pg = new_page(browser, 1920, 1080)
    yield pg
    ctx.close()

@pytest.fixture(params=TV_SIZES, ids=[f"{w}x{h}" for w, h in TV_SIZES])
def tv(browser, request):
    """A page at each of :data:`TV_SIZES`; ``tv.size`` is ``"WxH"``."""
    ctx, pg = new_page(browser, *request.param)
    pg.size = "x".join(map(str, request.param))
    yield pg
    ctx.close()

@pytest.fixture
def phone(browser):
    ctx, pg = new_page(browser, 390, 844)
    yield pg
    ctx.close()

@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
