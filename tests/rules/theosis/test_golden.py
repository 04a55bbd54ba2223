"""One story per Theosis game mode plays from setup to its end through events only, in notation
(the digests and outcomes of the golden files are checked by ``tests/rules/test_golden_transcripts.py``).

The files were written by ``transcripts.py``; regenerate them only when a rules change is
meant to change the games, and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena_table.rules import find_game, parse

from th_helpers import lines_of, play

GOLDEN = Path(__file__).parent / "golden"


STORIES = {
    "pvp-3p": (("Ann",), "Rochon holds the centre hex at the end of turn 9"),
    "blitz-2p": (("Ann",), "last team standing"),
    "team-2x2": (("Sun",), "Lug holds the centre hex at the end of turn 9"),
    "solo": (("Ann",), "every monster is defeated"),
    "coop-3p": (("Ann", "Bo", "Cy"), "every monster is defeated"),
    "coop-2p": (("Ann", "Bo"), "every monster is defeated"),
    "coop-2p-book": ((), "a monster still stands after the ninth turn"),
    "light-2p": (("Ann", "Bo"), "every monster is defeated; MVP: Ann (4 Stamina Tokens)"),
    "heavy-2p": (("Bo",), "Aer holds the centre hex at the end of turn 9"),
    "coop-boss-12": ((), "every hero has fallen"),
}


@pytest.mark.parametrize("key", STORIES)
def test_story_per_mode_reaches_its_outcome(key):
    ts = play((GOLDEN / f"{key}.txt").read_text(encoding="utf-8"))
    s = ts.state
    winners, reason = STORIES[key]
    o = find_game("theosis").outcome(s)
    assert (o.winners, o.reason) == (winners, reason)
    assert s.phase == "over"
    if "centre" in reason:
        assert s.turn == 9
        assert any(h.alive and h.cell == (0, 0) for h in s.heroes.values())
    if key == "coop-2p-book":
        assert s.turn == 9 and s.monster("voax").tokens > 0 and s.monster("voax").tokens <= 8
    if key == "heavy-2p":
        assert s.competitive and not any(m.alive for m in s.monsters)
    if key.startswith("light"):
        assert max(p.stamina_taken for p in s.players) == s.player("Ann").stamina_taken == 4


def test_pvp_story_went_through_hierapolis():
    events = [parse(line) for line in lines_of((GOLDEN / "pvp-3p.txt").read_text(encoding="utf-8"))]
    kinds = [e.KIND for e in events]
    assert kinds.count("th-next") == 6 and kinds.count("th-allocate") == 3
    assert sum(1 for e in events if e.KIND == "th-place" and e.golden) == 18  # one golden slot a player a turn
