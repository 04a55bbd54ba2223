"""The Theosis start form: every Game Mode's values, as the control page submits them, set up the game."""

from __future__ import annotations

import pytest

from arena_table.rules import find_game
from arena_table.rules.games.theosis import catalog
from arena_table.rules.games.theosis.form import MODES, setup_form

GAME = find_game("theosis")
TWELVE = ["rochon", "rac", "norn", "aer", "lug", "edhel", "sauth", "gurth", "garav", "raug", "curunir", "nimloth"]


def submitted(mode: str, players: list[str], each: int, **extra):
    """The values control.js collects from the form: every field present, unused ones empty."""
    values = {}
    for f in setup_form():
        default = f.get("default")
        values[f["name"]] = list(default) if isinstance(default, list) else default
    values.update(mode=mode, players=players)
    for seat in range(len(players)):
        values[f"heroes_{seat + 1}"] = TWELVE[seat * each:(seat + 1) * each]
    values.update(extra)
    return values


def heroes_of(state):
    return {p.id: list(p.heroes) for p in state.players}


def test_form_offers_every_mode_hero_and_monster_of_the_book():
    form = {f["name"]: f for f in setup_form()}
    assert [o["value"] for o in form["mode"]["options"]] == [
        "pvp", "blitz", "team-2x2", "team-2x2-blitz", "team-2x3", "team-3x2", "solo", "coop", "light", "heavy"]
    assert [o["value"] for o in form["heroes_1"]["options"]] == list(catalog.heroes())
    assert len(form["heroes_6"]["options"]) == 12 and "heroes_7" not in form
    assert [o["value"] for o in form["monster_1"]["options"]] == ["", "kotronas", "voax", "mikitas", "keratosauros",
                                                                 "quietus"]
    assert [o["value"] for o in form["boss_monster"]["options"]] == ["", "apollyon", "godslayer"]
    assert {f["type"] for f in form.values()} <= {"select", "multiselect", "number", "text", "list", "checkbox"}
    assert "norn/berserker" in [o["value"] for o in form["second_archetypes"]["options"]]


@pytest.mark.parametrize("mode, players, each, teams", [
    ("pvp", ["Ann", "Bo"], 3, None),
    ("pvp", ["Ann", "Bo", "Cy", "Di"], 3, None),
    ("pvp", ["Ann", "Bo", "Cy", "Di", "Ed", "Fi"], 2, None),
    ("blitz", ["Ann", "Bo", "Cy"], 2, None),
    ("team-2x2", ["Ann", "Bo", "Cy", "Di"], 3, ["Team 1", "Team 1", "Team 2", "Team 2"]),
    ("team-2x2-blitz", ["Ann", "Bo", "Cy", "Di"], 2, ["Team 1", "Team 1", "Team 2", "Team 2"]),
    ("team-2x3", ["Ann", "Bo", "Cy", "Di", "Ed", "Fi"], 2, ["Team 1"] * 3 + ["Team 2"] * 3),
    ("team-3x2", ["Ann", "Bo", "Cy", "Di", "Ed", "Fi"], 2, ["Team 1", "Team 1", "Team 2", "Team 2", "Team 3", "Team 3"]),
])
def test_competitive_modes(mode, players, each, teams):
    state = GAME.setup(submitted(mode, players, each))
    assert state.config.mode == MODES[mode][1]["mode"]
    assert heroes_of(state) == {p: TWELVE[i * each:(i + 1) * each] for i, p in enumerate(players)}
    assert [p.team for p in state.players] == (teams or players)
    assert [p.gold for p in state.players] == [3] * len(players)
    assert state.initiative == "Ann" and state.phase == "preparation" and state.monsters == ()
    assert all(h.health == 9 for h in state.heroes.values()) and len(state.heroes) == len(players) * each


@pytest.mark.parametrize("mode, players, each, monster_values, expected", [
    # Heroes Facing Monsters Modes: (players, heroes each) -> monsters x Stamina Tokens
    ("solo", ["Ann"], 3, {}, [("kotronas", "kotronas", 6)]),
    ("solo", ["Ann"], 4, {"monster_1": "quietus"}, [("quietus", "quietus", 7)]),
    ("coop", ["Ann", "Bo"], 2, {"monster_1": "voax"}, [("voax", "voax", 8)]),
    ("coop", ["Ann", "Bo", "Cy", "Di"], 2, {"monster_1": "voax", "monster_2": "mikitas"},
     [("voax", "voax", 5), ("mikitas", "mikitas", 5)]),
    ("coop", ["Ann", "Bo", "Cy", "Di"], 3, {"boss_monster": "godslayer"}, [("godslayer", "godslayer", 9)]),
    ("light", ["Ann", "Bo", "Cy"], 3, {}, [("kotronas-1", "kotronas", 5), ("kotronas-2", "kotronas", 5)]),
    ("heavy", ["Ann", "Bo"], 2, {"monster_1": "keratosauros"}, [("keratosauros", "keratosauros", 8)]),
])
def test_monster_modes(mode, players, each, monster_values, expected):
    state = GAME.setup(submitted(mode, players, each, **monster_values))
    assert state.config.mode == mode
    assert heroes_of(state) == {p: TWELVE[i * each:(i + 1) * each] for i, p in enumerate(players)}
    assert {p.team for p in state.players} == {"heroes"}
    assert [(m.id, m.kind, m.tokens) for m in state.monsters] == expected


def test_fast_preparation_teams_list_archetypes_and_expansion():
    state = GAME.setup(submitted("team-2x2", ["Ann", "Bo", "Cy", "Di"], 3, fast=True, expansion=True,
                                 teams_list=["Sun", "Moon", "Sun", "Moon"],
                                 second_archetypes=["norn/berserker", "rochon/devotee-of-the-sun"]))
    assert state.phase == "fast" and state.config.fast and state.config.expansion
    assert {p.id: p.team for p in state.players} == {"Ann": "Sun", "Bo": "Moon", "Cy": "Sun", "Di": "Moon"}
    assert state.heroes["norn"].archetype == "berserker" and state.heroes["rochon"].archetype == "devotee-of-the-sun"
    assert state.heroes["rac"].archetype == "mana-devourer"


@pytest.mark.parametrize("values, message", [
    (submitted("pvp", ["Ann", "Bo"], 3, heroes_2=[]), r"player 2 \(Bo\) has no heroes"),
    (submitted("team-2x3", ["Ann", "Bo", "Cy", "Di"], 2), "needs 6 player"),
    (submitted("pvp", ["Ann", "Bo"], 3, heroes_3=["raug"]), "heroes chosen for player 3 but only 2 players"),
    (submitted("pvp", ["Ann", "Bo"], 2), "pvp with 2 players: each selects 3 heroes, not 2"),
    (submitted("blitz", ["Ann", "Bo"], 2, heroes_2=["rochon", "aer"]), "each hero can be chosen once"),
    (submitted("team-2x2", ["Ann", "Bo", "Cy", "Di"], 3, teams_list=["Sun", "Moon"]), "2 teams listed for 4 players"),
    (submitted("coop", ["Ann", "Bo"], 2, second_archetypes=["norn/martyr"]), "'norn/martyr' is not hero/archetype"),
])
def test_bad_form_values_are_named(values, message):
    with pytest.raises(ValueError, match=message):
        GAME.setup(values)


def test_options_written_by_hand_still_set_up_unchanged():
    state = GAME.setup({"mode": "team", "players": ["A", "B", "C", "D"], "teams": {"A": "x", "B": "y", "C": "x", "D": "y"},
                        "heroes": {p: TWELVE[i * 3:(i + 1) * 3] for i, p in enumerate("ABCD")}})
    assert [p.team for p in state.players] == ["x", "y", "x", "y"]
