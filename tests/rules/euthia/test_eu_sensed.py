"""Sensed figure moves in Euthia (``euthia/sensed.py``): Heroes' hexes recorded as the table shows
them, held in a Combat; Eltrea's Familiar off its card onto her hex only, 1 Move point a hex up to
its card's Move points, outside Combat (New Hero: Eltrea, Familiars, l.190-216). A refused move
changes nothing and is "check the table"; and the camera's path, rendered photos of the Rotunda
tile through the figure reader, ends in the same state."""

from __future__ import annotations

import pytest
from .eu_helpers import GECKO, Table, start

from arena_table.rules import apply, find_game, table_view
from arena_table.rules.kernel.events import FigureConfirmed, FigureMoved
from arena_table.rules.kernel.table import to_jsonable


def seen(figure: str, cell) -> FigureMoved:
    return FigureMoved(figure=figure, to_cell=None if cell is None else tuple(cell), source="camera:0")


def eltrea(*lines: str) -> Table:
    """Eltrea (her Will o' Wisp: 3 Move points, the shipped placeholder) and Áel, seen at the Rotunda."""
    t = Table(start(mode="fellowship", heroes=["eltrea", "ael"], leader="ael"), *lines)
    t.ts = apply(apply(t.ts, seen("eltrea", (0, 0))), seen("ael", (0, 0)))
    return t


def test_heroes_hexes_are_recorded_and_shown():
    t = eltrea()
    t.ts = apply(t.ts, seen("ael", (1, -1)))
    assert dict(t.s.stands) == {"ael": (1, -1), "eltrea": (0, 0)} and not t.ts.desync
    board = t.v["board"]
    assert board["kind"] == "hex" and [0, 0] in board["cells"] and len(board["cells"]) == 7
    assert {(f["name"], tuple(f["cell"])) for f in board["figures"]} == {("Áel", (1, -1)), ("Eltrea", (0, 0))}
    far = apply(t.ts, seen("ael", (4, -2)))  # off the Rotunda tile: the Map's other tiles are the table's
    assert dict(far.state.stands)["ael"] == (4, -2) and [4, -2] in table_view(far)["view"]["board"]["cells"]


def test_the_familiar_leaves_its_card_onto_eltreas_hex_and_spends_a_move_point_a_hex():
    t = eltrea()
    off = apply(t.ts, seen("will-o-wisp", (1, 0)))
    assert off.state == t.s and off.desync[0].message == \
        "check the table: Will o' Wisp's standee comes off its Familiar card onto Eltrea's hex only (l.200)"
    t.ts = apply(t.ts, seen("will-o-wisp", (0, 0)))
    assert t.s.familiar.moved == 0 and not t.ts.desync  # off its card: no Move point (l.200)
    t.ts = apply(t.ts, seen("will-o-wisp", (2, -1)))  # two hexes
    assert (t.s.familiar.moved, t.s.familiar.slots) == (2, ("lower",))
    before = t.s
    t.ts = apply(t.ts, seen("will-o-wisp", (2, 1)))  # two more: one Move point is left
    assert t.s == before
    assert t.ts.desync[0].message == "check the table: Will o' Wisp cannot reach that hex (2 hexes away; 1 Move point left, l.193-196)"
    t.ts = apply(t.ts, seen("will-o-wisp", (2, 0)))  # one hex from where the rules have it: taken
    assert not t.ts.desync and t.s.familiar.moved == 3 and dict(t.s.stands)["will-o-wisp"] == (2, 0)
    t.ts = apply(t.ts, seen("will-o-wisp", None))  # back on its card (Recall, l.202)
    assert "will-o-wisp" not in dict(t.s.stands)


def test_in_combat_heroes_hold_their_hex_and_the_familiar_stays():
    t = Table(start(mode="fellowship", heroes=["eltrea", "ael"], leader="ael", monsters={"gecko": {**GECKO, "level": 1}}))
    for fig in ("eltrea", "ael", "will-o-wisp"):
        t.ts = apply(t.ts, seen(fig, (0, 0)))
    t.play('eu-combat enemies=["gecko"] heroes=["ael"]')
    moved = apply(t.ts, seen("ael", (1, 0)))
    assert moved.state == t.s and moved.desync[0].reason == "Áel is in Combat: the Combat is fought on its hex (l.933)"
    assert apply(t.ts, seen("will-o-wisp", (1, 0))).desync[0].reason == \
        "Will o' Wisp moves only outside of Combat (l.191, l.202)"
    assert not apply(t.ts, seen("eltrea", (1, 0))).desync  # not in this Combat
    confirmed = apply(moved, FigureConfirmed(figure="ael"))
    assert dict(confirmed.state.stands)["ael"] == (1, 0) and not confirmed.desync


def test_figures_of_no_one_and_recorded_games_are_untouched():
    t = Table(start(heroes=["ael"]))
    assert apply(t.ts, seen("will-o-wisp", (0, 0))).state == t.s  # Áel has no Familiar: not a figure here
    assert "stands" not in to_jsonable(t.s)  # left out while empty: recorded games keep their digests
    b = find_game("euthia").board(t.s)
    assert b.id == "euthia-rotunda" and b.has((0, 0)) and b.has((10, -10)) and not b.has((11, 0))


def test_eu_stand_round_trips():
    from arena_table.rules import parse
    for text in ("eu-stand figure=ael cell=[1,-1]", "eu-stand figure=will-o-wisp", "eu-stand figure=ael cell=[0,0] placed=true"):
        assert str(parse(text)) == text
