"""The Demigods start form: its values, as the control page submits them, set up every mode."""

from __future__ import annotations

import pytest

from arena_table.rules import find_game
from arena_table.rules.games.demigods import data
from arena_table.rules.games.demigods.form import setup_form

GAME = find_game("demigods")
ANN = ["trapper", "weaponsmith", "black-wolf", "assassin"]      # archer 2 + warrior 3 + mage 1 + rogue 2 = 8
BO = ["knight", "gunner", "high-elder", "blacksmith"]           # tank 4 + archer 2 + mage 1 + warrior 3 = 10


def submitted(**values):
    """The values control.js collects: every field present (defaults), then ``values``."""
    out = {}
    for f in setup_form():
        default = f.get("default")
        out[f["name"]] = list(default) if isinstance(default, list) else default
    out.update(values)
    return out


def test_form_offers_modes_selection_methods_limits_heroes_and_demigods():
    form = {f["name"]: f for f in setup_form()}
    assert [o["value"] for o in form["mode"]["options"]] == ["slayer", "tactics", "advanced-tactics"]
    assert [o["value"] for o in form["selection"]["options"]] == ["chieftain", "divine-mirror", "free-pick"]
    assert (form["heroes"]["min"], form["heroes"]["max"], form["heroes"]["default"]) == (3, 6, 3)
    assert form["heroes"]["help"].startswith("Slayer 3-6 (3-4 with 4 players); Tactics 4-6")
    assert "6: max 13 points, win at 8" in form["heroes"]["help"]
    assert [o["value"] for o in form["heroes_1"]["options"]] == data.hero_ids()
    assert [o["value"] for o in form["demigod_4"]["options"]] == ["", "warlord", "protector"]
    assert "heroes_5" not in form


@pytest.mark.parametrize("mode, players, heroes, selection, teams", [
    ("slayer", ["Ann", "Bo"], 3, "free-pick", (("Ann",), ("Bo",))),
    ("slayer", ["Ann", "Bo"], 6, "divine-mirror", (("Ann",), ("Bo",))),
    ("slayer", ["Ann", "Bo", "Cy", "Di"], 4, "chieftain", (("Ann", "Bo"), ("Cy", "Di"))),
    ("tactics", ["Ann", "Bo"], 4, "chieftain", (("Ann",), ("Bo",))),
    ("advanced-tactics", ["Ann", "Bo"], 6, "free-pick", (("Ann",), ("Bo",))),
])
def test_guided_selection_modes(mode, players, heroes, selection, teams):
    state = GAME.setup(submitted(mode=mode, players=players, heroes=heroes, selection=selection))
    assert (state.mode, state.players, state.teams) == (mode, tuple(players), teams)
    assert (state.heroes_per_player, state.selection, state.first) == (heroes, selection, "Ann")
    assert state.stage == "select" and state.picks == ()


def test_first_picker_and_heroes_as_text_number():
    state = GAME.setup(submitted(players=["Ann", "Bo"], heroes="5", selection="chieftain", first_picker="Bo"))
    assert (state.first, state.heroes_per_player) == ("Bo", 5)


def test_heroes_and_demigods_chosen_on_the_form_start_round_one():
    state = GAME.setup(submitted(mode="tactics", players=["Ann", "Bo"], heroes=4, heroes_1=ANN, heroes_2=BO,
                                 demigod_1="warlord", demigod_2="protector"))
    assert state.stage == "play" and state.round == 1
    owned = {p: sorted(c.id for c in state.chars.values() if c.kind == "hero" and c.player == p) for p in state.players}
    assert owned == {"Ann": sorted(ANN), "Bo": sorted(BO)}
    assert {c.id: c.player for c in state.chars.values() if c.kind == "demigod"} == {"warlord": "Ann", "protector": "Bo"}
    # formation defaults to initiative order, highest first ('Hero Formation' p.12)
    inits = [data.hero(h)["initiative"] for h in state.formations["Ann"]]
    assert inits == sorted(inits, reverse=True)


@pytest.mark.parametrize("values, message", [
    (dict(heroes_1=ANN[:3], demigod_1="warlord"), "choose Bo's too"),
    (dict(heroes_1=ANN[:3], heroes_2=BO[:3], demigod_1="warlord"), r"Bo \(player 2\) has heroes but no Demigod"),
    (dict(heroes_3=["ogre"]), "heroes chosen for player 3 but only 2 players"),
    (dict(heroes_1=ANN[:2], heroes_2=BO[:2], demigod_1="warlord", demigod_2="protector"), "Ann has 2 of 3 heroes"),
    (dict(mode="tactics", heroes=4, heroes_1=ANN, heroes_2=["knight", "ogre", "pegasus-knight", "high-elder"],
          demigod_1="warlord", demigod_2="protector"), "over the maximum 10"),
    (dict(mode="tactics", players=["Ann", "Bo", "Cy", "Di"]), "2-player duel"),
])
def test_bad_form_values_are_named(values, message):
    with pytest.raises(ValueError, match=message):
        GAME.setup(submitted(**values))


def test_options_written_by_hand_still_set_up_unchanged():
    state = GAME.setup({"players": ["A", "B"], "first": "B", "selection": "chieftain"})
    assert (state.first, state.selection, state.heroes_per_player) == ("B", "chieftain", 3)
