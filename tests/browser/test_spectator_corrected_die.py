"""What a new user's trial found on the spectator screen: a corrected die showed its new value beside
the camera's confidence in the value it had read ("3 / conf. 55% / read 5, corrected"), and was
wider than the others, so a roll of three took two rows on the TV and cut the roll history."""

from __future__ import annotations

import numpy as np
import pytest
from browserkit import ROOT, open_tv

from arena_table.rules import DiceRolled, parse

pytestmark = pytest.mark.browser


def crops(live, faces) -> tuple[str, ...]:
    return tuple(live.table.media.save(np.full((48, 48, 3), 40 * f, np.uint8), "c") for f in faces)


def die_boxes(pg) -> list[dict]:
    return pg.evaluate("""() => [...document.querySelectorAll('#last-roll .die')].map(d => {
      const r = d.getBoundingClientRect(), p = d.closest('.panel').getBoundingClientRect();
      return {lines: [...d.querySelectorAll('.conf')].map(c => c.textContent),
              oneLine: [...d.querySelectorAll('.conf')].every(c => c.getBoundingClientRect().height
                                                                 < 2 * parseFloat(getComputedStyle(c).fontSize)),
              wide: [...d.children].every(c => c.scrollWidth <= c.clientWidth + 1),
              inside: r.left >= p.left - 1 && r.right <= p.right + 1 && r.top >= p.top - 1 && r.bottom <= p.bottom + 1,
              bottom: Math.round(r.bottom)};
    })""")


@pytest.mark.parametrize("game", ["dice-tray", "theosis"])
def test_the_spectators_corrected_die_shows_what_the_camera_read_not_its_confidence(live, tv, screenshots, game):
    if game == "theosis":  # four heroes: the TV's compact ranking, the dice panel in few lines
        lines = [ln for ln in (ROOT / "tests/rules/theosis/golden/blitz-2p.txt").read_text().splitlines()
                 if ln.strip() and not ln.startswith("#")]
        for line in lines[:23]:
            live.table.submit(parse(line))
    seq = live.table.submit(DiceRolled(faces=(4, 5, 2), source="sim", crops=crops(live, (4, 5, 2)),
                                       confidence=(0.97, 0.55, 0.8)))
    live.table.submit(parse(f"correct roll={seq} index=1 value=3"))
    open_tv(tv, live, "document.querySelector('#last-roll .die.corrected') !== null")
    if game == "theosis":
        assert tv.evaluate("document.querySelector('#game').classList.contains('compact-order')")
    tv.screenshot(path=str(screenshots / f"spectator-corrected-die-{game}-{tv.size}.png"))
    dice = tv.locator("#last-roll .die")
    assert dice.nth(1).locator(".value").inner_text() == "3"
    boxes = die_boxes(tv)
    # the camera's 55% is its confidence in the 5 it read, not in the 3
    assert [b["lines"] for b in boxes] == [["conf. 97%"], ["corrected", "read 5", "at 55%"], ["conf. 80%"]]
    for b in boxes:  # each line on one line, whole, and the die inside the dice panel
        assert b["oneLine"] and b["wide"] and b["inside"], (tv.size, b)
    # no wider than the others: the three dice stay in one row, and the roll history's title below is whole
    assert len({b["bottom"] for b in boxes}) == 1, (tv.size, boxes)
    history_title = tv.evaluate("() => document.querySelector('#dice h2:not(#dice-h)').getBoundingClientRect().bottom")
    assert history_title <= tv.evaluate("() => document.querySelector('#dice').getBoundingClientRect().bottom") + 1
    assert tv.errors == [], tv.errors
