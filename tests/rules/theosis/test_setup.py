"""Setup of every game mode (Game Modes): heroes per player, teams, monsters and Stamina tokens."""

from __future__ import annotations

import pytest

from arena_table.rules import GameStarted, Refused, apply, new_table
from arena_table.rules.games.theosis import catalog
from arena_table.rules.games.theosis.setup import setup

H = list(catalog.heroes())


def heroes(players: int, each: int) -> dict:
    return {f"P{i}": H[i * each:(i + 1) * each] for i in range(players)}


@pytest.mark.parametrize("mode,players,each", [
    ("pvp", 2, 3), ("pvp", 3, 3), ("pvp", 4, 3), ("pvp", 5, 2), ("pvp", 6, 2),
    ("blitz", 2, 2), ("blitz", 3, 2), ("blitz", 4, 2)])
def test_competitive_modes(mode, players, each):
    s = setup({"mode": mode, "players": [f"P{i}" for i in range(players)], "heroes": heroes(players, each)})
    assert len(s.heroes) == players * each
    assert all(p.gold == 3 and p.team == p.id for p in s.players)
    assert all(h.health == 9 and h.mana == () for h in s.heroes.values())
    assert s.alignment == {"warmonger": 0, "deceitful": 0, "vengeful": 0} and s.initiative == "P0"


def test_wrong_hero_counts_are_named():
    with pytest.raises(ValueError, match="each selects 3 heroes, not 2"):
        setup({"players": ["A", "B"], "heroes": {"A": H[:2], "B": H[2:4]}})
    with pytest.raises(ValueError, match="blitz is not played by 5 players"):
        setup({"mode": "blitz", "players": [f"P{i}" for i in range(5)], "heroes": heroes(5, 2)})
    with pytest.raises(ValueError, match="unknown hero"):
        setup({"players": ["A", "B"], "heroes": {"A": ["zeus", "rac", "norn"], "B": ["aer", "lug", "edhel"]}})


@pytest.mark.parametrize("teams,each,blitz", [
    ({"P0": "X", "P1": "Y", "P2": "X", "P3": "Y"}, 3, False),
    ({"P0": "X", "P1": "Y", "P2": "X", "P3": "Y"}, 2, True),
    ({"P0": "X", "P1": "Y", "P2": "X", "P3": "Y", "P4": "X", "P5": "Y"}, 2, False),
    ({"P0": "X", "P1": "Y", "P2": "Z", "P3": "X", "P4": "Y", "P5": "Z"}, 2, False)])
def test_team_modes(teams, each, blitz):
    n = len(teams)
    s = setup({"mode": "team", "blitz": blitz, "players": list(teams), "teams": teams, "heroes": heroes(n, each)})
    assert {p.team for p in s.players} == set(teams.values())


@pytest.mark.parametrize("players,each,monsters,tokens", [
    (1, 2, 1, 5), (1, 3, 1, 6), (1, 4, 1, 7), (2, 2, 1, 8), (2, 3, 1, 9), (3, 2, 1, 11), (2, 4, 1, 10),
    (4, 2, 2, 5), (3, 3, 2, 5), (5, 2, 2, 6), (3, 4, 3, 3), (4, 3, 3, 4), (6, 2, 3, 4)])
def test_monster_modes_use_the_stamina_table(players, each, monsters, tokens):
    s = setup({"mode": "coop" if players > 1 else "solo", "players": [f"P{i}" for i in range(players)],
               "heroes": heroes(players, each)})
    assert [m.tokens for m in s.monsters] == [tokens] * monsters
    assert len({m.id for m in s.monsters}) == monsters


@pytest.mark.parametrize("players,each,tokens", [(3, 4, 8), (4, 3, 9), (6, 2, 10)])
def test_boss_option_for_twelve_heroes(players, each, tokens):
    s = setup({"mode": "coop", "boss": True, "players": [f"P{i}" for i in range(players)],
               "heroes": heroes(players, each)})
    assert [(m.kind, m.tokens) for m in s.monsters] == [("apollyon", tokens)]


def test_bad_start_is_an_illegal_event_naming_the_option():
    with pytest.raises(Refused, match="bad options for theosis: unknown mode 'arena'"):
        apply(new_table(), GameStarted(game="theosis", options={"mode": "arena", "players": ["A"]}))


def test_entered_values_override_the_data():
    s = setup({"players": ["A", "B"], "heroes": {"A": ["rochon", "rac", "norn"], "B": ["aer", "lug", "edhel"]},
               "alignments": {"lug": "guardian"}, "power_values": {"tactics": [1, 3], "pain-spike": [1, 1]}})
    from arena_table.rules.games.theosis.mats import alignment_of, power_values
    assert alignment_of(s, "lug") == "guardian" and alignment_of(s, "norn") is None
    assert power_values(s, "tactics") == (1, 3)


def test_hero_data_marks_what_the_book_leaves_out():
    for h in catalog.heroes().values():
        assert len(h["archetypes"]) == 2 and all(len(a["skills"]) == 3 for a in h["archetypes"].values())
        assert h["speed"] is None and "speed" in h["enter"]
        assert (h["alignment"] is None) == ("alignment" in h["enter"])
    assert sum(1 for p in catalog.powers().values() if p["values_source"].startswith("ENTER")) > 0


def test_idle_table_before_the_start_event():
    from arena_table.rules import new_table, parse, table_view
    ts = new_table("theosis")
    assert table_view(ts)["view"]["phase"] == "Waiting for players"
    with pytest.raises(Refused, match="no Theosis game is set up"):
        apply(ts, parse("th-next"))


@pytest.mark.parametrize("extra, message", [
    ({"speeds": {"rochon": "fast"}}, "speeds rochon: 'fast' is not a whole number"),
    ({"speeds": [1]}, "speeds must be a JSON object, got [1]"),
    ({"items": {"x": 5}}, "items: x must be a JSON object of the item's values, got 5"),
    ({"arena_radius": "big"}, "arena_radius: 'big' is not a whole number"),
    ({"power_values": {"fireball": 3}}, "power_values: fireball must be [value, value], got 3"),
    ({"pads": {"attacker": 1.5}}, "pads attacker: 1.5 is not a whole number"),
])
def test_option_values_of_the_wrong_kind_are_named(extra, message):
    # a new user's trial: these gave Python's own words ("invalid literal for int()",
    # "'int' object is not a mapping")
    from arena_table.rules import new_table

    base = {"mode": "pvp", "players": ["Ann", "Bo"], "heroes_1": ["rochon", "rac", "norn"],
            "heroes_2": ["aer", "lug", "edhel"]}
    with pytest.raises(ValueError) as err:
        new_table("theosis", dict(base, **extra))
    assert str(err.value) == message
