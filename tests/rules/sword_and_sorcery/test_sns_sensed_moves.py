"""Sensed figure moves in Sword & Sorcery: deployment and one area at a time across a shared edge
(4.1, 6.4); a figure carried further is refused, "check the table", until it goes back."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from arena_table.rules import apply, digest, replay
from arena_table.rules.kernel.events import FigureMoved

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))
from test_golden_transcripts import load  # noqa: E402 - one reader of golden transcripts

GOLDEN = sorted(HERE.glob("golden/*.txt"))


def sensed(e):
    """``sns-place`` and ``sns-move`` (no Blinded save) as the camera's ``figure-moved``."""
    if e.KIND == "sns-place" or (e.KIND == "sns-move" and e.blind_save is None):
        return FigureMoved(figure=e.hero, to_cell=e.to if e.KIND == "sns-move" else e.area, source="camera:0")
    return e


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_games_played_with_sensed_moves_end_the_same(path):
    events, meta = load(path)
    moved = [sensed(e) for e in events]
    assert sum(isinstance(e, FigureMoved) for e in moved) >= 5
    ts = replay(moved)
    assert not ts.desync and digest(ts) == meta["digest"]


def test_two_areas_at_once_is_refused_until_the_figure_is_back():
    events, _ = load(HERE / "golden" / "battle-phase-example.txt")
    first = next(i for i, e in enumerate(events) if e.KIND == "sns-move")
    ts = replay(events[:first])
    hero = events[first].hero
    here = ts.state.hero(hero).area
    board = ts.state.board
    two = next(b for n in board.neighbours(here) for b in board.neighbours(n) if b != here and b not in board.neighbours(here))
    off = apply(ts, FigureMoved(figure=hero, to_cell=two, source="camera:0"))
    assert off.state == ts.state
    (d,) = off.desync
    assert d.message == (f"check the table: {two} is not adjacent to {here} "
                         "(areas are adjacent only across a shared edge, 4.1)")
    back = apply(off, FigureMoved(figure=hero, to_cell=here, source="camera:0"))
    assert not back.desync and back.state == ts.state
