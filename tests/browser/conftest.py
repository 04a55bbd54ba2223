"""Browser tests: Debian's Chromium driven by Playwright against a real table served on loopback.

Playwright's own browser download is never used (no ``playwright install``): Chromium is
``/usr/bin/chromium`` from Debian, installed by ``scripts/test-deps.sh``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest
from browserkit import CHROMIUM, CHROMIUM_ARGS, SCREENSHOTS, Live, start_live, stop_live


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: scripts/test-deps.sh should have installed Debian's chromium")
        pytest.skip(f"{CHROMIUM} is missing (run scripts/test-deps.sh)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


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


@pytest.fixture
def phone(browser):
    ctx, pg = _new_page(browser, 390, 844)
    yield pg
    ctx.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
