"""`arena-table replay` of the shipped 9-turn PvP game of 12 heroes prints the final ranking,
each hero's Health and the winner."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena_table.cli import main

EXAMPLE = Path(__file__).parents[3] / "examples" / "theosis-pvp-12.txt"


@pytest.mark.parametrize("extra", [[], ["--game", "theosis"]])
def test_replay_prints_final_ranking_health_and_winner(capsys, extra):
    assert main(["replay", str(EXAMPLE), *extra]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Theosis: 202 events")
    final = next(line for line in out.splitlines() if "Final ranking:" in line)
    assert "winner: Ann" in final
    assert "Rochon holds the centre hex at the end of turn 9" in final
    ranking = final.split("Final ranking: ")[1].split("; ")
    assert len(ranking) == 12
    assert ranking[0] == "1. Edhel (Di) 0 health"
    assert "7. Rochon (Ann) 9 health" in ranking
    assert "outcome: won by Ann (Rochon holds the centre hex at the end of turn 9)" in out


def test_example_is_a_full_nine_turn_game_of_twelve_heroes():
    lines = [ln for ln in EXAMPLE.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    assert lines[0].startswith("start game=theosis")
    assert sum(1 for ln in lines if ln.startswith("th-next")) == 6
    from arena_table.rules import parse, replay
    s = replay([parse(ln) for ln in lines]).state
    assert len(s.heroes) == 12 and s.turn == 9 and s.phase == "over"
