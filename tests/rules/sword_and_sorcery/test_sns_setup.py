"""Quest setup from the three PvP grids and the custom sheet (6.2): a field outside its quest's grid
is refused with the field named; Crowns by the asterisk row; alliances; the start form."""

from __future__ import annotations

import dataclasses

import pytest

from arena_table.rules import Refused, apply, find_game, new_table, parse
from arena_table.rules.games.sword_and_sorcery import flow, form, quests
from arena_table.rules.games.sword_and_sorcery.setup import new_game
from arena_table.rules.games.sword_and_sorcery.state import put, put_team

from sns_helpers import deployed

TWO = {"purple": ["shae"], "red": ["artemis"]}


@pytest.mark.parametrize("options, message", [
    ({"quest": "pvp1", "resurrections": 0}, "resurrections: 0 is not allowed by PvP Quest I: There Can Be Only One! (allowed: 1, 2, 3)"),
    ({"quest": "pvp1", "resurrections": 4}, "resurrections: 4 is not allowed"),
    ({"quest": "pvp1", "soulrank": 7}, "soulrank: 7 is not allowed by PvP Quest I"),
    ({"quest": "pvp1", "act": 3}, "act: 3 is not allowed"),
    ({"quest": "pvp2", "heroes_per_team": 3}, "heroes_per_team: 3 is not allowed by PvP Quest II: First Blood (allowed: 1, 2)"),
    ({"quest": "pvp3", "kills_to_win": 3, "heroes_per_team": 4}, "heroes_per_team: 4 is not allowed by PvP Quest III"),
    ({"quest": "pvp3"}, "kills_to_win: all Teams must agree on the number of Kill Coins needed"),
    ({"quest": "pvp3", "kills_to_win": 2, "resurrections": 2}, "resurrections: 2 is not allowed by PvP Quest III: Infernal Deathmatch (allowed: ∞)"),
    ({"quest": "pvp1", "kills_to_win": 2}, "kills_to_win: only a Kill Coins victory uses it"),
    ({"quest": "pvp1", "crowns": 500}, "crowns: fixed by PvP Quest I"),
    ({"quest": "pvp1", "day_night": "yes"}, "day_night: 'yes' must be true or false"),
    ({"quest": "pvp4"}, "quest: 'pvp4' is not a Clash of the Heroes quest"),
    ({"quest": "pvp1", "teams": 5}, "teams: 5 is not allowed"),
])
def test_a_setup_outside_its_grid_names_the_field(options, message):
    with pytest.raises(ValueError) as err:
        quests.check(options)
    assert message in str(err.value)


def test_roman_soulranks_and_the_infinite_box_are_read():
    q = quests.check({"quest": "pvp3", "soulrank": "IV", "kills_to_win": 3, "resurrections": "∞"})
    assert (q.soulrank, q.resurrections, q.kills_to_win) == (4, quests.INFINITE, 3)


@pytest.mark.parametrize("quest, extra, heroes, crowns", [
    ("pvp1", {"soulrank": 3}, 1, 300),       # 100 x Soulrank
    ("pvp2", {"soulrank": 5}, 2, 300),       # 300 per Team
    ("pvp3", {"kills_to_win": 2}, 3, 300),   # 100 x Heroes in the Team
])
def test_crowns_follow_the_asterisk_row(quest, extra, heroes, crowns):
    names = {"purple": [f"p{i}" for i in range(heroes)], "red": [f"r{i}" for i in range(heroes)]}
    s = new_game({"quest": quest, "heroes": names, **extra})
    assert [t.crowns for t in s.teams] == [crowns, crowns]


def test_teams_must_field_equal_numbers_of_heroes():
    with pytest.raises(ValueError, match="heroes_per_team: every Team fields the same number"):
        new_game({"quest": "pvp1", "heroes": {"purple": ["a", "b"], "red": ["c"]}})
    with pytest.raises(Refused, match="heroes_per_team: 2 is not allowed by PvP Quest II|teams: 3"):
        apply(new_table(), parse('start game=sns options={"quest":"pvp2","heroes":{"a":["x","y"],"b":["z","w"],"c":["u","v"]}}'))


def test_the_custom_quest_sheet_takes_its_own_victory_and_crowns():
    s = new_game({"quest": "custom", "crowns": 150, "crowns_per": "hero", "victory": "first-blood",
                  "resurrections": 5, "day_night": True, "special": ["spawn-gate-teleport"], "heroes": TWO})
    assert (s.quest.victory, s.team("red").crowns, s.quest.resurrections, s.quest.day_night) == ("first-blood", 150, 5, True)
    with pytest.raises(ValueError, match="victory: best-of-three is not allowed by Custom Quest"):
        new_game({"quest": "custom", "victory": "best-of-three", "heroes": TWO})
    with pytest.raises(ValueError, match="special: unknown Special Quest Rule"):
        new_game({"quest": "custom", "special": ["dragons"], "heroes": TWO})


def test_alliances_with_four_teams_share_the_victory():
    """PvP I Alliances: with four Teams, allied Teams share the Victory Condition."""
    heroes = {t: [f"{t}-hero"] for t in ("blue", "green", "purple", "red")}
    opts = {"quest": "pvp1", "heroes": heroes, "alliances": [["blue", "red"], ["green", "purple"]]}
    t = deployed(opts, {"blue-hero": "a2", "green-hero": "a4", "purple-hero": "e4", "red-hero": "e2"})
    st = t.st
    assert st.team("blue").allies == ("red",)
    for team in ("green", "purple"):
        st = put(st, dataclasses.replace(st.hero(f"{team}-hero"), ghost=True, hp=0))
        st = put_team(st, dataclasses.replace(st.team(team), resurrections=0))
    st = flow.victory(st)
    assert st.result == (("blue", "red"), "all Teams but one are defeated")
    with pytest.raises(ValueError, match="alliances: only PvP Quest I with four Teams"):
        new_game({"quest": "pvp1", "heroes": TWO, "alliances": [["purple", "red"]]})


def test_allies_cannot_attack_each_other_and_count_together():
    heroes = {t: [f"{t}-hero"] for t in ("blue", "green", "purple", "red")}
    t = deployed({"quest": "pvp1", "heroes": heroes, "alliances": [["blue", "red"], ["green", "purple"]]},
                 {"blue-hero": "a2", "green-hero": "a4", "purple-hero": "e4", "red-hero": "e2"})
    from arena_table.rules.games.sword_and_sorcery import areas
    st = put(t.st, dataclasses.replace(t.st.hero("red-hero"), area="a2"))
    st = put(st, dataclasses.replace(st.hero("green-hero"), area="a2"))
    assert areas.strength(st, "a2", "blue") == (2, 1) and areas.dominates(st, "a2", "red")


def test_soul_points_become_hp():
    """6.5: Soul Points are not used; spending or gaining them is losing or gaining HP (1 for 1)."""
    t = deployed({"quest": "pvp1", "heroes": TWO}, {"shae": "a2", "artemis": "a4"})
    t.do("sns-soul-points hero=shae points=-3")
    assert t.hp("shae") == 7
    t.do("sns-soul-points hero=shae points=2")
    assert t.hp("shae") == 9


def test_the_start_form_gives_the_engine_its_options():
    fields = {f["name"]: f for f in form.setup_form()}
    assert fields["quest"]["default"] == "pvp1" and {o["value"] for o in fields["quest"]["options"]} == {
        "pvp1", "pvp2", "pvp3", "custom"}
    values = {f["name"]: f.get("default") for f in form.setup_form() if f.get("default") is not None}
    state = find_game("sword-and-sorcery").setup(values)
    assert [h for h, _ in state.heroes] == ["shae", "thorgar", "artemis", "thorgren"]
    with pytest.raises(ValueError, match="team_3: Team 3 has Heroes but no name"):
        form.to_options({**values, "heroes_3": ["x"]})
