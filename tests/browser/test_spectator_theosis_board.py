"""The Theosis TV shows the Hierapolis board while heroes are placed, the Arena once they fight, and
the three Alignment tracks with their cubes, at 1280x720 and 1920x1080; the side panel's pictures
fill the free part under the ranking before anything pages, and no page holds only a title (or the
prompt). Screenshots of every page in ``artifacts/screenshots/theosis-board-*.png``."""

from __future__ import annotations

import pytest
from browserkit import every_page, open_tv, play

from arena_table.rules import parse

pytestmark = pytest.mark.browser

TWO_PLAYERS = """
start game=theosis options={"players":["Ann","Bo"],"heroes":{"Ann":["rochon","rac","norn"],"Bo":["aer","lug","edhel"]}}
th-place hero=rochon location=guardian golden=true
th-place hero=aer location=deceitful golden=true target=Ann
th-place hero=rac location=warmonger
"""
"""Hierapolis turn 1 of a two-player game: two golden slots taken, Deceitful's cube one step out."""

TITLES = {"H2", "H3", "order-title", "prompt"}
"""Blocks that name or introduce what follows: a page of these alone holds only a title."""

PICTURES = """() => Object.fromEntries(['board', 'tracks'].map((id) => {
  const svg = document.querySelector('#' + id + ' svg');
  const r = svg && svg.getBoundingClientRect();
  const shown = !!svg && !svg.closest('.off-page') && r.width > 0 && r.height > 0;
  return [id, shown ? { w: r.width, h: r.height, spilled: !!svg.closest('#spill'),
    text: svg.getAttribute('aria-label') } : null];
}))"""


def pages_with_pictures(tv, shots: str) -> tuple[dict, list[dict]]:
    """Every page of every paged region (as ``every_page`` sees them) and, page by page, which of the
    board and the tracks is shown where; a screenshot of each page."""
    regions = every_page(tv)
    turns = max([len(pages) for pages in regions.values()] + [1])
    seen = []
    for k in range(turns):  # every_page left each region back on its first page
        tv.screenshot(path=f"{shots}-page{k + 1}.png")
        seen.append(tv.evaluate(PICTURES))
        tv.evaluate("window.arena.nextPage()")
    return regions, seen


def assert_no_title_only_page(regions: dict) -> None:
    for name, pages in regions.items():
        for k, shown in enumerate(pages):
            content = [b for b in shown["blocks"] if b not in TITLES]
            assert content, f"{name} page {k + 1}/{len(pages)} shows only {shown['blocks']}"


@pytest.mark.parametrize("case", ["hierapolis", "hierapolis-12", "arena"])
def test_the_theosis_tv_shows_its_board_and_the_alignment_tracks(live, tv, screenshots, case):
    if case == "hierapolis":
        for line in TWO_PLAYERS.strip().splitlines():
            live.table.submit(parse(line))
    elif case == "hierapolis-12":
        play(live, "examples/theosis-pvp-12.txt", 12)  # 12 heroes, turn 1: eleven placed
    else:
        play(live, "tests/rules/theosis/golden/blitz-2p.txt", 28)  # in the Arena, Rochon to act
    open_tv(tv, live, "!!document.querySelector('#tracks svg')")
    regions, seen = pages_with_pictures(tv, str(screenshots / f"theosis-board-{case}-{tv.size}"))
    assert_no_title_only_page(regions)
    boards = [p["board"] for p in seen if p["board"]]
    tracks = [p["tracks"] for p in seen if p["tracks"]]
    assert boards and tracks, seen  # each on some page at least
    assert all(t["text"] == "Theosis tracks" and t["h"] >= 100 for t in tracks), tracks
    svg = tv.inner_html("#board")
    if case == "arena":
        assert svg.count('class="cell"') == 91 and ">RO</text>" in svg  # the whole Arena, Rochon on it
    else:
        assert "Warmonger quest" in svg and "Mage Tower" in svg and "golden slot taken" in svg
        assert svg.count(">RO</text>") == 1  # Rochon at the Guardian quest
    marker = tv.inner_html("#tracks")
    assert marker.count('class="marker"') == 3  # a cube on each track
    if case == "hierapolis":
        assert ">Deceitful +1</text>" in marker and ">Rac (Ann)</text>" in marker  # Aer's golden Deceitful quest
    if case == "hierapolis" and tv.size == "1920x1080":
        # the ranking's panel has room under six heroes: the board is drawn there, wide, and every
        # side block it took from the side panel is on the first page
        assert boards[0]["spilled"] and boards[0]["w"] > 1000, boards
        assert regions["main"] == regions["main"][:1], regions["main"]
    assert tv.errors == [], tv.errors
