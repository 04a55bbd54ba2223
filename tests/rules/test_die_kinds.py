"""Die kinds as data: every die the four games throw, with the faces their rulebooks print."""

import pytest

import arena_table.rules  # noqa: F401 - loads the games, whose packages ship their kinds
from arena_table.rules.kernel.mechanics.die_kinds import (
    DieKindError, Look, die_kinds, face_index, find_kind, kind_from_json, kind_json, kinds_from_text)

ATTACK_DICE = {  # 'Attack Dice', p.24, as printed (Pure Damage named pure)
    "slashing": ["enrage", "enrage", "critical", "2", "1", "-1"],
    "piercing": ["critical", "critical", "2", "1", "-1", "-3"],
    "bludgeoning": ["knockdown", "push", "critical", "2", "1", "-1"],
    "fire": ["burn", "failure", "critical", "2", "1", "-1"],
    "ice": ["freeze", "failure", "critical", "2", "1", "-1"],
    "arcane": ["pure", "failure", "critical", "3", "2", "1"],
}


def test_every_die_of_the_issue_is_shipped():
    ids = {k.id for k in die_kinds()}
    wanted = {"theosis-d4", "theosis-thieves-d6", "theosis-skullduggery",
              *(f"demigods-{t}" for t in ATTACK_DICE), "demigods-demigod",
              "demigods-divine-rage", "demigods-divine-focus", "demigods-divine-mana",
              "sns-red", "sns-blue", "euthia-hero", "euthia-monster", "euthia-combat", "euthia-hope",
              "licensed-d6", "d4", "d4-edge", "d6", "d8", "d10", "d12", "d20"}
    assert wanted <= ids


@pytest.mark.parametrize("attack", sorted(ATTACK_DICE))
def test_attack_dice_have_the_printed_faces(attack):
    kind = find_kind(f"demigods-{attack}")
    assert [f.symbol for f in kind.faces] == ATTACK_DICE[attack]
    assert kind.games == ("demigods",) and kind.aliases == (f"dg-{attack}",)
    assert "faces" not in kind.to_enter and "look" in kind.to_enter  # the book prints no colours


def test_numeral_faces_have_their_number_as_value_and_effects_their_name():
    ice = find_kind("dg-ice")
    assert [f.value for f in ice.faces] == ["freeze", "failure", "critical", 2, 1, -1]
    assert face_index(ice, "failure") == 2 and face_index(ice, -1) == 6 and ice.value_of("2") == 2


def test_skullduggery_faces_are_the_monster_table_rows():
    """Monster Stat Blocks: row 1 dash, 2 two pips, 3 four pips, 4 sword, 5 lightning, 6 spade."""
    skull = find_kind("skull")
    assert [(f.symbol, f.value) for f in skull.faces] == [
        ("dash", 1), ("two-pips", 2), ("four-pips", 3), ("sword", 4), ("lightning", 5), ("spade", 6)]


def test_faces_no_book_prints_are_marked_to_enter():
    for kid in ("theosis-thieves-d6", "sns-red", "sns-blue", "euthia-combat", "demigods-demigod", "licensed-d6"):
        assert "faces" in find_kind(kid).to_enter, kid
    assert find_kind("demigods-divine-mana").counter and find_kind("euthia-hope").counter
    assert find_kind("d4").look.style == "top-vertex" and find_kind("d4-edge").look.style == "bottom-edge"


def test_the_sns_engine_reads_the_shipped_faces():
    from arena_table.rules.games.sword_and_sorcery.dice import face_of
    assert [face_of("sns-red", i) for i in range(1, 7)] == [f.symbol for f in find_kind("sns-red").faces]


def test_a_games_kinds_are_its_own():
    assert [k.id for k in die_kinds("euthia")] == ["euthia-hero", "euthia-monster", "euthia-combat", "euthia-hope"]
    assert all(k.games == () for k in die_kinds() if k.id in ("d6", "d20", "licensed-d6"))


@pytest.mark.parametrize("kind", die_kinds(), ids=lambda k: k.id)
def test_every_kind_round_trips_through_json(kind):
    assert kind_from_json(kind_json(kind)) == kind


def test_an_unknown_kind_is_named_with_the_known_ones():
    with pytest.raises(DieKindError, match=r"unknown die kind 'banana'; kinds: d10, d12"):
        find_kind("banana")
    with pytest.raises(DieKindError, match=r"a demigods-fire die has no face 'freeze'; its faces: burn, failure"):
        face_index(find_kind("demigods-fire"), "freeze")


@pytest.mark.parametrize("text, why", [
    ('{"format": 2, "kinds": []}', "not a die kinds file of format 1"),
    ('{"format": 1, "kinds": [{"id": "Coin", "faces": [1, 2]}]}', "id 'Coin' is not a lower-case word"),
    ('{"format": 1, "kinds": [{"id": "coin", "faces": [1]}]}', "coin: faces must list 2 to 100 faces"),
    ('{"format": 1, "kinds": [{"id": "coin", "faces": ["Heads", 2]}]}', "face symbol 'Heads' is not"),
    ('{"format": 1, "kinds": [{"id": "coin", "faces": [1, 2], "look": {"body": [[0, 0, 0], [200, 0, 0]]}}]}',
     r"HSV \[200, 0, 0\] outside H 0-179"),
    ('{"format": 1, "kinds": [{"id": "coin", "faces": [1, 2], "colour": "red"}]}', "unknown field"),
    ("{", "not JSON"),
])
def test_a_malformed_definition_is_refused_by_name(text, why):
    with pytest.raises(DieKindError, match=why):
        kinds_from_text(text, "test.json")


def test_a_red_hue_range_wraps_past_179():
    red = Look(body=((170, 120, 60), (8, 255, 255)))
    assert red.holds((175, 200, 200)) and red.holds((4, 200, 200)) and not red.holds((60, 200, 200))
    assert find_kind("sns-blue").look.holds((110, 200, 200)) and not find_kind("sns-red").look.holds((110, 200, 200))


@pytest.mark.parametrize("game", ["theosis", "demigods", "sword-and-sorcery", "euthia"])
def test_kinds_a_game_throws_together_have_looks_that_differ(game):
    # each kind's usual colour lies in its own body range; in another range of the game's kinds
    # only when one ink is white and the other black (a grey die with white ink, an ivory one with black)
    kinds = [k for k in die_kinds(game) if k.sides == 6]
    assert len(kinds) >= 2
    for k in kinds:
        assert k.look.colour is not None and k.look.holds(k.look.colour), k.id
        assert "look" in k.to_enter, k.id  # the books print no colours: the defaults are guesses
        assert k.look.ink in ("black", "white"), k.id
        others = [o.id for o in kinds if o is not k and o.look.holds(k.look.colour) and o.look.ink == k.look.ink]
        assert others == [], (k.id, others)


def test_a_look_s_colour_and_marks_round_trip_and_bad_marks_are_refused():
    kind = find_kind("licensed-d6")
    assert kind.look.marks == "pips" and find_kind("euthia-hero").look.marks == "numerals"
    assert kind_from_json(kind_json(kind)) == kind
    with pytest.raises(DieKindError, match="marks: 'dots' is not one of numerals, pips"):
        kind_from_json({"id": "coin", "faces": [1, 2], "look": {"marks": "dots"}})
