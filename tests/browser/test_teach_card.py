"""The control page's teach card in Chromium: capture the camera's dice as shots of each face, teach
the kind (its held-back confusion matrix shown), and a kind whose two faces look alike refused with
both faces named."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from browserkit import login

from arena_table.rules.kernel.mechanics.die_kinds import use_taught_kinds

sys.path.insert(0, str(Path(__file__).parents[1] / "webui"))
from test_teach_api import RenderedCamera  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _capture(page, camera, kind, face, seeds):
    page.fill("#teach-kind", kind)
    page.fill("#teach-face", face)
    for seed in seeds:
        camera.show(face, seed)
        page.evaluate("() => { document.getElementById('teach-msg').textContent = ''; }")
        page.click("#teach-capture")
        page.wait_for_function("() => document.getElementById('teach-msg').textContent.includes('captured')")


def test_teach_card_captures_teaches_and_refuses(live, page):
    camera = RenderedCamera()
    live.table.devices.append(camera)
    try:
        login(page, live.url)
        _capture(page, camera, "web-glyph", "lightning", range(2))
        _capture(page, camera, "web-glyph", "sword", range(2))
        rows = page.eval_on_selector_all("#teach-counts tbody tr", "rs => rs.map(r => r.dataset.face)")
        assert rows == ["lightning", "sword"]
        page.click("#teach-build")
        page.wait_for_selector("#teach-result:not([hidden])", timeout=60000)
        assert page.inner_text("#teach-summary").startswith("Taught web-glyph: accuracy ")
        heads = page.eval_on_selector_all(".teach-confusion tbody th", "hs => hs.map(h => h.textContent)")
        assert heads == ["lightning", "sword"]
        page.wait_for_function("() => document.getElementById('teach-taught').textContent.includes('web-glyph')")
        assert (live.table.data_dir / "taught-web-glyph.json").is_file()
        # two faces drawn alike (kind_icons draws burn and flame as one flame): refused, both named
        _capture(page, camera, "twin-glyph", "burn", range(2))
        _capture(page, camera, "twin-glyph", "flame", range(2))
        page.click("#teach-build")
        page.wait_for_function("() => document.getElementById('teach-msg').className === 'err'", timeout=60000)
        assert "faces 'burn' and 'flame' cannot be told apart" in page.inner_text("#teach-msg")
        assert page.get_attribute("#teach-msg", "data-faces") == "burn,flame"
        # the browser logs the refusal's 422
        assert [e for e in page.errors if not e.startswith("Failed to load resource")] == []
    finally:
        use_taught_kinds(())
