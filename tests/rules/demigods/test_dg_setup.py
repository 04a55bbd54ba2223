"""Setup: victory-condition limits, hero selection methods, Demigods and items, formation
('Achieving Victory' p.4, 'Hero Selection' p.11, 'Hero Formation' p.12, 'Demigod Items' p.18)."""

import dataclasses

import pytest

from arena_table.rules import Refused, find_game, from_json, parse, to_json, table_view
from arena_table.rules.games.demigods import events as ev
from arena_table.rules.games.demigods.setup import chieftain_sides
from arena_table.rules.games.demigods.victory import required_points

from dg_helpers import Table


def start(**options) -> Table:
    return Table({"players": ["Ann", "Bo"], **options})


@pytest.mark.parametrize("options,reason", [
    ({"mode": "tactics", "players": ["A", "B", "C", "D"]}, "2-player duel"),
    ({"mode": "slayer", "heroes": 7}, "takes 3-6 heroes"),
    ({"mode": "slayer", "players": ["A", "B", "C", "D"], "heroes": 5}, "takes 3-4 heroes"),
    ({"mode": "tactics", "heroes": 3}, "takes 4-6 heroes"),
    ({"mode": "chess"}, "mode must be one of"),
    ({"selection": "draft"}, "selection must be one of"),
    ({"colour": "red"}, "unknown option"),
    # a new user's audit: wrong types are named, never a traceback or a letter-by-letter reading
    ({"heroes": "three"}, "heroes: 'three' is not a whole number"),
    ({"heroes": 3.7}, "heroes: 3.7 is not a whole number"),
    ({"players": 5}, "players must be a list of names"),
    ({"players": [1, 2]}, "players: 1 is not a name"),
    ({"players": [" ", "  "]}, "players: no names given"),
    ({"players": "AnnBo"}, r"players: 2 or 4 distinct names, got \['AnnBo'\]"),
    ({"hero_stats": 5}, "hero_stats must be a JSON object"),
    ({"hero_stats": {"knight": 5}}, "hero_stats knight must be a JSON object"),
    ({"hero_stats": {"knight": {"ap": "7"}}}, None),  # "7" is a whole number: accepted
    ({"hero_stats": {"knight": {"ap": "fast"}}}, "hero_stats knight ap: 'fast' is not a whole number"),
    ({"hero_stats": {"knight": {"class": "wizard"}}}, "hero_stats knight class must be one of"),
    ({"hero_stats": {"knight": {"traits": "fortres"}}}, "hero_stats knight traits must be one of"),
    ({"hero_stats": {"knight": {"bogus": 1}}}, "hero_stats knight: unknown key"),
    ({"dice_faces": 5}, "dice_faces must be a JSON object"),
    ({"board": {"cols": 5}}, "board needs rows"),
    ({"board": {"cols": -3, "rows": 0}}, r"board cols: -3 is out of range"),
    ({"board": {"cols": 5, "rows": 5, "entry_inset": 7}}, "board entry_inset: 7 is out of range"),
    ({"board": {"cols": 5, "rows": 5, "obstacles": [[1, 2]]}}, r"is not \[col, row, kind\]"),
    ({"board": {"cols": 5, "rows": 5, "obstacles": [[99, 99, "boulder"]]}}, "board obstacle col: 99 is out of range"),
    ({"board": {"cols": 5, "rows": 5, "obstacles": [[1, 2, "lava"]]}}, "board obstacle kind must be one of"),
    ({"board": {"cols": 5, "rows": 5, "obstacles": [[1, 2, "boulders"]]}}, "board obstacle kind must be one of"),
    ({"board": {"cols": 5, "rows": 5, "size": 3}}, "board: unknown key"),
    ({"lineup": "x"}, "lineup must be a JSON object"),
    ({"lineup": {"Ann": 5}}, "lineup Ann must be a JSON object"),
    ({"lineup": {"Ann": {"demigod": "warlord", "heroes": ["knight"], "items": "elemental-sword"}}},
     "lineup Ann items must be a list"),
    ({"lineup": {"Ann": {"demigod": "warlord", "bind": 3}}}, "lineup Ann bind must be a JSON object"),
    ({"lineup": {"Ann": {"demigod": "warlord", "hero": ["knight"]}}}, "lineup Ann: unknown key"),
])
def test_bad_options_are_named(options, reason):
    if reason is None:
        Table({"players": ["Ann", "Bo"], **options})
        return
    with pytest.raises(Refused, match=reason):
        Table({"players": ["Ann", "Bo"], **options})


def test_chieftain_order_one_then_two_each_then_the_last_one():
    """p.11: 1, 2, 2, ... until one side has the total, then the other picks one final hero."""
    assert chieftain_sides(0, (4, 4)) == [0, 1, 1, 0, 0, 1, 1, 0]
    t = start(mode="slayer", heroes=3, selection="chieftain", first="Bo")
    assert table_view(t.ts)["view"]["prompt"] == "Chieftain: Bo picks a hero"
    t.do("dg-pick player=Bo hero=knight")
    assert table_view(t.ts)["view"]["prompt"] == "Chieftain: Ann picks a hero"
    with pytest.raises(Refused, match="Chieftain order: Ann picks now"):
        t.do("dg-pick player=Bo hero=ogre")
    t.do("dg-pick player=Ann hero=ogre", "dg-pick player=Ann hero=trapper")
    with pytest.raises(Refused, match="knight is already taken"):
        t.do("dg-pick player=Bo hero=knight")


def test_no_more_than_three_heroes_of_one_divine_power():
    t = start(mode="slayer", heroes=4)
    t.do("dg-pick player=Ann hero=knight", "dg-pick player=Ann hero=ogre", "dg-pick player=Ann hero=blacksmith")
    with pytest.raises(Refused, match="already has 3 rage heroes"):
        t.do("dg-pick player=Ann hero=weaponsmith")


def test_tactics_team_maximum_and_lower_threshold():
    """p.4: 4-5 heroes: at most 10 points a team, 6 to win; a team worth less lowers the threshold."""
    t = start(mode="tactics", heroes=4)
    t.do("dg-pick player=Ann hero=knight", "dg-pick player=Ann hero=pegasus-knight")  # 8 points
    with pytest.raises(Refused, match="worth 11 tactical points, over the maximum 10"):
        t.do("dg-pick player=Ann hero=blacksmith")
    t.do("dg-pick player=Ann hero=black-wolf", "dg-pick player=Ann hero=high-elder")  # 10
    t.do("dg-pick player=Bo hero=trapper", "dg-pick player=Bo hero=gunner", "dg-pick player=Bo hero=assassin",
         "dg-pick player=Bo hero=weaponsmith")  # 2 + 2 + 2 + 3 = 9
    t.do("dg-demigod player=Ann demigod=warlord", "dg-demigod player=Bo demigod=protector", "dg-begin")
    assert required_points(t.st, "Ann") == 6 and required_points(t.st, "Bo") == 6
    lean = start(mode="tactics", heroes=4, lineup={
        "Ann": {"demigod": "warlord", "heroes": ["black-wolf", "high-elder", "trapper", "assassin"]},
        "Bo": {"demigod": "protector", "heroes": ["knight", "gunner", "weaponsmith", "ogre"]}},
        hero_stats={"ogre": {"class": "mage"}})
    assert required_points(lean.st, "Bo") == 6 and required_points(lean.st, "Ann") == 6
    mages = start(mode="tactics", heroes=4, lineup={
        "Ann": {"demigod": "warlord", "heroes": ["black-wolf", "high-elder", "ogre", "assassin"]},
        "Bo": {"demigod": "protector", "heroes": ["weaponsmith", "gunner", "trapper", "blacksmith"]}},
        hero_stats={"ogre": {"class": "mage"}})
    # 'if a player fields three mages and a rogue, his opponent only needs five tactical points'
    assert required_points(mages.st, "Bo") == 5


def test_divine_mirror_deals_each_stack_equally():
    t = start(mode="slayer", heroes=3, selection="divine-mirror")
    t.do("dg-pick player=Ann hero=knight", "dg-pick player=Ann hero=trapper", "dg-pick player=Ann hero=black-wolf",
         "dg-pick player=Bo hero=ogre", "dg-pick player=Bo hero=gunner", "dg-pick player=Bo hero=blacksmith",
         "dg-demigod player=Ann demigod=warlord", "dg-demigod player=Bo demigod=protector")
    with pytest.raises(Refused, match="Divine Mirror deals each stack equally"):
        t.do("dg-begin")


def test_items_by_slot_type_and_commanders_armor():
    t = start(mode="slayer", heroes=3)
    t.do("dg-pick player=Ann hero=knight", "dg-pick player=Ann hero=trapper", "dg-pick player=Ann hero=black-wolf",
         "dg-pick player=Bo hero=ogre", "dg-pick player=Bo hero=gunner", "dg-pick player=Bo hero=blacksmith",
         "dg-demigod player=Ann demigod=warlord", "dg-demigod player=Bo demigod=protector")
    with pytest.raises(Refused, match="slot 0 of Warlord takes weapon, not a armor"):
        t.do("dg-equip player=Ann item=commanders-armor slot=0")
    with pytest.raises(Refused, match="needs one of Ann's heroes"):
        t.do("dg-equip player=Ann item=commanders-armor slot=1")
    t.do("dg-equip player=Ann item=commanders-armor slot=1 hero=knight",
         "dg-equip player=Bo item=swordmasters-gauntlet slot=2")
    with pytest.raises(Refused, match="already equipped by Warlord"):
        t.do("dg-equip player=Bo item=commanders-armor slot=1")
    with pytest.raises(Refused, match="cannot stand left of"):
        t.do('dg-formation player=Ann heroes=["black-wolf","knight","trapper"]')
    t.do("dg-begin")
    assert [c.name for c in t.ch("knight").conditions] == ["Commander's Armor"]
    assert t.ch("knight").conditions[0].passive
    t.do("dg-wound who=knight amount=99")
    assert any(c.amount == -10 for c in t.ch("warlord").conditions)


def test_every_event_round_trips_in_notation_and_json():
    samples = [ev.Pick(player="Ann", hero="knight"), ev.Equip(player="Ann", item="commanders-armor", slot=1,
                                                              hero="knight"),
               ev.Formation(player="Bo", heroes=("a", "b")), ev.Begin(), ev.Activate(who="knight"),
               ev.Enter(who="knight", cell=(0, 7), facing=0), ev.Move(who="knight", to=(2, 3), facing=1, ap=3),
               ev.Place(who="knight", off=True), ev.Use(who="x", use="attack", targets=("y",), side=("back",),
                                                       distance=4, high_ground=True, engaged=True),
               ev.Reroll(index=1), ev.Resolve(), ev.EndTurn(who="Ann"), ev.DivineRead(who="knight", value=4),
               ev.MinionEnter(player="Ann", cell=(3, 9)), ev.MinionExit(who="minion-1-Ann"),
               ev.Wound(who="knight", amount=-2, reason="potion of healing"), ev.SetDivine(who="knight", value=6),
               ev.AddCondition(who="knight", name="Burn", stat="burn", scope="global"),
               ev.ClearCondition(who="knight", name="Burn"), ev.ChooseDemigod(player="Ann", demigod="warlord")]
    for e in samples:
        assert parse(str(e)) == e and from_json(to_json(e)) == e
        assert e.KIND.startswith("dg-")


def test_objects_catalogue_and_selection_view():
    game = find_game("Demigods-Evolution")
    objs = game.objects()
    assert "demigods:hero:trapper" in objs and "demigods:demigod:warlord" in objs
    assert "demigods:item:elemental-sword" in objs and "demigods:item:warlords-scythe" in objs
    t = start(mode="slayer", heroes=3).do("dg-pick player=Ann hero=knight")
    v = table_view(t.ts)["view"]
    assert v["prompt"] == "Ann has 1 of 3 heroes"
    assert v["extra"]["to_enter"]["demigods:hero:trapper"][:2] == ["class", "race"]
    assert dataclasses.is_dataclass(t.st)


def test_fields_given_in_hero_stats_are_no_longer_to_enter():
    """The control page lists card values still holding placeholders; those the players copied into
    ``hero_stats`` are entered (a new user's audit)."""
    before = table_view(start().ts)["view"]["extra"]["to_enter"]["demigods:hero:trapper"]
    t = start(hero_stats={"trapper": {"race": "elf", "class": "archer", "ap": 6}})
    after = table_view(t.ts)["view"]["extra"]["to_enter"]["demigods:hero:trapper"]
    assert {"class", "race", "ap"} <= set(before)
    assert after == [f for f in before if f not in ("class", "race", "ap")]


def test_demigod_and_item_values_the_book_leaves_out_are_options():
    """The Protector's card values and the Frost Staff's damage are not printed in the rulebook
    (placeholders in data/*.json, listed as to enter): ``demigod_stats`` and ``item_stats`` set them."""
    from arena_table.rules.games.demigods.actions import spec
    from dg_helpers import lineup_options

    lineup = {"Ann": {"demigod": "warlord", "heroes": ["knight", "assassin", "black-wolf", "weaponsmith"],
                      "items": ["frost-staff", "", ""]},
              "Bo": {"demigod": "protector", "heroes": ["pegasus-knight", "trapper", "blacksmith", "gunner"]}}
    t = Table(lineup_options(lineup=lineup, demigod_stats={"protector": {"health": 60, "ap": 5, "primary": {"damage": 8}}},
                             item_stats={"frost-staff": {"damage": 7, "dice": ["ice", "arcane"]}}))
    assert (t.ch("protector").health, t.ch("protector").ap_max) == (60, 5)
    assert spec(t.st, t.ch("protector"), "protectors-shield")["damage"] == 8
    staff = spec(t.st, t.ch("warlord"), "frost-staff")
    assert (staff["damage"], staff["dice"], staff["range"]) == (7, ["ice", "arcane"], 5)  # range as printed
    selecting = start(demigod_stats={"protector": {"health": 60}}, item_stats={"frost-staff": {"damage": 7, "dice": ["ice"]}})
    to_enter = table_view(selecting.ts)["view"]["extra"]["to_enter"]
    assert "demigods:item:frost-staff" not in to_enter  # damage and dice were its only placeholders
    assert "health" not in to_enter["demigods:demigod:protector"]
    assert "physical_defense" in to_enter["demigods:demigod:protector"]


@pytest.mark.parametrize("options,reason", [
    ({"demigod_stats": {"protector": {"health": "lots"}}}, "demigod_stats protector health: 'lots' is not a whole"),
    ({"demigod_stats": {"protector": {"primary": {"dice": ["fire", "lava"]}}}}, "demigod_stats protector primary dice must be one of"),
    ({"demigod_stats": {"titan": {"ap": 4}}}, "demigod_stats: unknown demigod titan"),
    ({"item_stats": {"frost-staff": {"range": "far"}}}, "item_stats frost-staff range: 'far' is not a whole number"),
    ({"item_stats": {"frost-staff": {"colour": "blue"}}}, "item_stats frost-staff: unknown key"),
    ({"item_stats": {"warlords-scythe": {"damage": 9}}}, "a Demigod's primary item"),
    ({"item_stats": {"excalibur": {"damage": 9}}}, "item_stats: unknown item excalibur"),
])
def test_bad_card_values_are_named(options, reason):
    with pytest.raises(Refused, match=reason):
        Table({"players": ["Ann", "Bo"], **options})
