"""Refusals with their exact reasons: wrong phase, values off the book's ranges, absurd numbers, unknown names."""

from __future__ import annotations

import pytest

from arena_table.rules import Refused, apply, parse

from th_helpers import ARENA, fast_blitz, play

PREP = ('start game=theosis options={"players":["Ann","Bo"],"heroes":{"Ann":["rochon","rac","norn"],'
        '"Bo":["aer","lug","edhel"]}}')
ANN = ["fiery-purge", "fireball", "bloodthirst", "tactics", "pain-spike", "blazing-sun"]
BO = ["warcraft", "nova", "despair", "valor", "lifeswap", "last-stand"]


def reason(state, line: str) -> str:
    with pytest.raises(Refused) as info:
        apply(state, parse(line))
    return info.value.reason


@pytest.fixture(scope="module")
def prep():
    return play(PREP)


@pytest.fixture(scope="module")
def fast():
    return play(fast_blitz(ANN, BO))


@pytest.fixture(scope="module")
def arena():
    return play(fast_blitz(ANN, BO), ARENA)


@pytest.mark.parametrize("cell", ["[0,0]", "[99,-99]"])
def test_move_in_the_preparation_phase_is_refused_naming_the_phase(prep, cell):
    assert reason(prep, f"th-move hero=rochon cell={cell}") == (
        "figures enter the Arena once the Preparation Phase is over (p.13); "
        "it is the Preparation Phase (Hierapolis turn 1/6)")


def test_move_in_fast_action_preparation_is_refused(fast):
    assert reason(fast, "th-move hero=rochon cell=[0,0]") == (
        "figures enter the Arena once the Preparation Phase is over (p.13); it is Fast Action Preparation")


def test_move_in_the_arena_is_accepted_and_off_arena_refused(arena):
    assert apply(arena, parse("th-move hero=rochon cell=[0,0]")).state.heroes["rochon"].cell == (0, 0)
    assert reason(arena, "th-move hero=rochon cell=[99,-99]") == (
        "[99, -99] is off the Arena (radius 5 hexes around the centre)")


def test_adjust_health_stays_between_0_and_9(prep):
    assert reason(prep, "th-adjust target=rochon health=-999") == (
        "Rochon's Health is 9: a change of -999 would make it -990 (Health on the Hero mat, p.6: 0 to 9)")
    assert reason(prep, "th-adjust target=rochon health=1") == (
        "Rochon's Health is 9: a change of +1 would make it 10 (Health on the Hero mat, p.6: 0 to 9)")
    s = apply(prep, parse("th-adjust target=rochon health=-3"))
    assert s.state.heroes["rochon"].health == 6
    assert apply(s, parse("th-adjust target=rochon health=3")).state.heroes["rochon"].health == 9
    assert apply(s, parse("th-adjust target=rochon health=-6")).state.heroes["rochon"].alive is False


def test_adjust_refuses_absurd_numbers(prep):
    assert reason(prep, "th-adjust target=rochon gold=99999999999999999999") == (
        "gold=99999999999999999999 is not a sensible number (keep within ±1000000)")
    assert reason(prep, "th-adjust target=Ann gold=1000001") == (
        "gold=1000001 is not a sensible number (keep within ±1000000)")
    assert apply(prep, parse("th-adjust target=Ann gold=1000000")).state.player("Ann").gold == 1000003


def test_adjust_gold_never_below_zero(prep):
    assert reason(prep, "th-adjust target=Ann gold=-5") == (
        "Ann's gold is 3: a change of -5 would make it -2 (a player's gold: at least 0)")
    assert reason(prep, "th-adjust target=rochon gold=-1") == (
        "Rochon's gold is 0: a change of -1 would make it -1 (gold on the Hero mat: at least 0)")
    assert apply(prep, parse("th-adjust target=Ann gold=-3")).state.player("Ann").gold == 0


def test_adjust_mana_holds_one_gem_per_skill(prep):
    assert reason(prep, "th-adjust target=rochon mana=-99") == (
        "Rochon's Mana is 0: a change of -99 would make it -99 (one Mana gem per Skill, p.6: 0 to 3)")
    assert reason(prep, "th-adjust target=rochon mana=4") == (
        "Rochon's Mana is 0: a change of +4 would make it 4 (one Mana gem per Skill, p.6: 0 to 3)")
    assert len(apply(prep, parse("th-adjust target=rochon mana=3")).state.heroes["rochon"].mana) == 3


def test_adjust_names_what_a_target_cannot_take(prep):
    assert reason(prep, "th-adjust target=Ann health=1") == (
        "Ann is a player: only gold can be corrected (Health and Mana are on the Hero mats)")
    assert reason(prep, "th-adjust target=nobody health=1") == "no hero, player or monster 'nobody'"


def test_absurd_numbers_are_refused_in_every_theosis_event(arena):
    assert reason(arena, "th-move hero=rochon cell=[2000000,0]") == (
        "cell=2000000 is not a sensible number (keep within ±1000000)")
    assert reason(arena, 'th-stamina monster=x threshold=-10000000') == (
        "threshold=-10000000 is not a sensible number (keep within ±1000000)")


def test_deceitful_steal_amount_is_checked(prep):
    assert reason(prep, "th-place hero=rochon location=deceitful golden=true target=Bo amount=-5") == (
        "the Deceitful quest steals 0 to 3 gold (amount=-1: as much as allowed), not -5")


def test_gem_for_an_unknown_hero_is_named(prep):
    assert reason(prep, "th-gem hero=nobody") == "no hero 'nobody' in this game"


def test_unknown_attack_target_and_ritual_player_are_named(arena):
    assert reason(arena, 'th-attack hero=rac target=["nobody"] power=warcraft') == (
        "no hero or monster 'nobody' in this game")
    assert reason(arena, "th-ritual player=Zed") == "no player 'Zed' in this game"


def test_heroes_may_enter_the_arena_once_preparation_is_over():
    s = play(fast_blitz(ANN, BO), "th-next")
    assert s.state.phase == "ranking"
    assert apply(s, parse("th-move hero=rochon cell=[4,-4]")).state.heroes["rochon"].cell == (4, -4)


def test_adjust_of_a_removed_hero_is_refused(prep):
    s = apply(prep, parse("th-adjust target=rochon health=-9"))
    assert s.state.heroes["rochon"].alive is False
    assert reason(s, "th-adjust target=rochon health=2") == (
        "Rochon has been removed from the game: no Health or Mana to correct")


THEOSIS_DICE = ("its dice: d4 (faces 1-4), d6 (faces 1-6), skull (faces 1-6), skullduggery (faces 1-6), "
                "theosis-d4 (faces 1-4), theosis-thieves-d6 (faces 1-6)")


@pytest.mark.parametrize("line,why", [
    ("roll die=banana faces=[1000,-3]", f"Theosis uses no 'banana' die; {THEOSIS_DICE}"),
    ("roll die=d7 faces=[3]", f"Theosis uses no 'd7' die; {THEOSIS_DICE}"),
    ("roll die=d20 faces=[20]", f"Theosis uses no 'd20' die; {THEOSIS_DICE}"),
    ("roll die=skull faces=[7]", "a skull die of Theosis shows 1 to 6, not 7"),
    ("roll die=skullduggery faces=[0,3]", "a skullduggery die of Theosis shows 1 to 6, not [0]"),
    ("roll die=d4 faces=[5]", "a d4 die of Theosis shows 1 to 4, not 5"),
])
def test_rolls_of_dice_theosis_does_not_use_are_refused(arena, line, why):
    """Theosis rolls a four-sided die, a six-sided die and the skullduggery die (Setting up the
    Hierapolis Board; Monsters): any other kind, or a face off the die, is refused and stays out of
    the dice statistics."""
    assert reason(arena, line) == why


def test_theosis_dice_are_still_recorded(arena):
    ts = apply(apply(arena, parse("roll die=skull faces=[6]")), parse("roll die=D4 faces=[4]"))
    assert [(r.die, r.faces) for r in ts.tray.rolls] == [("skull", (6,)), ("d4", (4,))]
    assert reason(ts, f"correct roll={ts.tray.rolls[0].seq} index=0 value=9") == (
        "a skull die of Theosis shows 1 to 6, not 9")


def test_negative_gold_allocation_names_the_negative_amount():
    """p.13 Step 2: players put gold on their Heroes' mats; -1 on Aer is named (the sum 3 was within
    Bo's 3 gold, so 'has 3 gold to allocate, not 3' said nothing)."""
    ranking = play(fast_blitz(ANN, BO), "th-next")
    assert reason(ranking, 'th-allocate player=Bo gold={"aer":-1,"rac":4}') == (
        "gold placed on a Hero cannot be negative: aer=-1 (p.13 Step 2)")
    assert reason(ranking, 'th-allocate player=Bo gold={"aer":1,"rac":4}') == "Bo has 3 gold to allocate, not 5"
