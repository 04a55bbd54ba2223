"""The actions each game offers now (``Game.actions``): what a known state offers, how many taps
complete it (``test_offer_walks.py`` walks every game at random)."""

from __future__ import annotations

import sys
from pathlib import Path


from arena_table.rules import find_game, parse

sys.path.insert(0, str(Path(__file__).parent / "demigods"))
from dg_helpers import Table  # noqa: E402

THEOSIS = find_game("theosis")
DEMIGODS = find_game("demigods")
TH_OPTIONS = {"players": ["Ann", "Bo"], "heroes": {"Ann": ["rochon", "rac", "norn"], "Bo": ["aer", "lug", "edhel"]}}
EXAMPLES = Path(__file__).parents[2] / "examples"


def by_label(actions):
    return {a.label: a for a in actions}


def choices(param):
    return [c.label for c in param.choices]


def test_theosis_first_placement_offers_the_placers_heroes_on_golden_quest_slots():
    acts = by_label(THEOSIS.actions(THEOSIS.setup(TH_OPTIONS)))
    assert list(acts) == ["Place Rochon", "Place Rac", "Place Norn"]
    assert {a.player for a in acts.values()} == {"Ann"}
    where = acts["Place Norn"].params[0]
    assert choices(where) == [f"{q} quest (golden slot)" for q in
                              ("Warmonger", "Guardian", "Deceitful", "Righteous", "Vengeful", "Merciful")]
    warmonger = where.choices[0]
    assert choices(warmonger.then[0]) == ["Aer", "Lug", "Edhel"]  # the TV's names, Bo's heroes only
    # three taps: the hero, the quest, the target
    assert [len(c) for c in acts["Place Norn"].completions()][:1] == [2]
    assert str(acts["Place Norn"].event([0, 2])) == "th-place hero=norn location=warmonger golden=true target=edhel"


def test_theosis_second_hero_of_a_turn_takes_no_golden_slot_and_the_taken_slot_is_gone():
    st = THEOSIS.setup(TH_OPTIONS)
    for line in ("th-place hero=rochon location=guardian golden=true", "th-place hero=aer location=warmonger "
                 "golden=true target=rochon"):
        st = THEOSIS.apply(st, parse(line))
    acts = by_label(THEOSIS.actions(st))
    assert list(acts) == ["Place Rac", "Place Norn"]
    where = choices(acts["Place Rac"].params[0])
    assert not any("golden" in w for w in where)
    assert {"Tavern", "Cathedral", "Thieves' Guild", "Mercenary Camp", "Market", "Guardian quest"} <= set(where)


def test_theosis_offers_only_the_thieves_guild_d6_while_it_is_awaited_each_face_with_its_result():
    st = THEOSIS.setup(TH_OPTIONS)
    for line in ("th-place hero=rochon location=guardian golden=true",
                 "th-place hero=aer location=righteous golden=true",
                 "th-place hero=rac location=thieves-guild target=lug"):
        st = THEOSIS.apply(st, parse(line))
    (roll,) = THEOSIS.actions(st)
    assert (roll.label, roll.player) == ("Roll the Thieves' Guild d6", "Ann")
    assert choices(roll.params[0]) == ["1: steal mana", "2: deal 3 damage", "3: steal 2 gold", "4: steal 4 gold",
                                       "5: gain initiative", "6: gain initiative"]  # the default faces (ENTER)
    assert THEOSIS.apply(st, roll.event([2])).player("Ann").gold == st.player("Ann").gold + 2
    assert "roll the d6 at the Thieves' Guild" in THEOSIS.view(st)["prompt"]


def _demigods_until(stop: str) -> Table:
    t = Table({}, start=False)
    for line in (EXAMPLES / "demigods-tactics.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            t.do(line)
            if line == stop:
                return t
    raise AssertionError(stop)


def test_demigods_entry_is_one_tap_and_an_attack_three():
    t = _demigods_until("roll die=dg-demigod faces=[2,3]")
    acts = by_label(DEMIGODS.actions(t.st))
    assert list(acts) == ["Protector: enter the battlefield", "Protector: end the turn"]
    assert acts["Protector: enter the battlefield"].to_json()["notation"] == "dg-enter who=protector"
    t = _demigods_until("dg-enter who=knight")
    acts = by_label(DEMIGODS.actions(t.st))
    attack = acts["Knight: base attack"]
    assert attack.player == "Ann"
    assert choices(attack.params[0]) == ["Assassin (Bo)", "Protector (Bo)"]
    assert choices(attack.params[0].choices[0].then[0]) == ["Front", "Side", "Back"]
    assert {len(c) for c in attack.completions()} == {2}  # + the action's own tap: three taps
    assert str(attack.event([0, 2])) == 'dg-use who=knight targets=["assassin"] side=["back"]'


def test_demigods_attack_die_is_offered_as_its_faces_by_their_printed_results():
    t = _demigods_until('dg-use who=knight targets=["assassin"] side=["back"]')
    (roll,) = DEMIGODS.actions(t.st)
    assert (roll.label, roll.player) == ("Roll the bludgeoning die", "Ann")
    assert choices(roll.params[0]) == ["1: Knockdown", "2: Push", "3: Critical", "4: +2", "5: +1", "6: -1"]
    assert str(roll.event([2])) == "roll die=dg-bludgeoning faces=[3] source=control"  # the transcript's die


EUTHIA = find_game("euthia")


def _euthia(example: str, upto: int):
    """The state after the example's first ``upto`` lines (its ``start`` line first)."""
    lines = [ln for ln in (EXAMPLES / example).read_text(encoding="utf-8").splitlines()
             if ln.strip() and not ln.startswith("#")]
    st = EUTHIA.setup(parse(lines[0]).options)
    for line in lines[1:upto]:
        st = EUTHIA.apply(st, parse(line))
    return st


def test_euthia_solo_combat_setup_names_the_monster_cards_and_the_powers_and_asks_no_hero():
    acts = by_label(EUTHIA.actions(_euthia("euthia-fire-shadowbeast.txt", 1)))
    assert list(acts) == ["Set up a Combat", "Áel: Hero Roll", "End the scenario"]
    setup = acts["Set up a Combat"]
    assert setup.player == "Áel" and setup.fields == {"heroes": ["ael"]}  # the one Hero: nothing to tap
    monsters, powers = setup.params
    # the hard decks: the Gecko, Goblin Archer (base), the Shadowbeast (fierce) and the Minions
    assert choices(monsters) == ["Shadowbeast", "Goblin Archer", "Gecko", "Assassin", "Flying Skull",
                                 "Rotting Butcher", "Undead Lord"]
    assert choices(powers) == ["No Elemental Power", "Air", "Earth", "Corrupted"]
    assert str(setup.event([0, 1])) == 'eu-combat enemies=["shadowbeast"] heroes=["ael"] power=air'


def test_euthia_monster_attack_offers_the_chaos_card_then_the_heros_response():
    st = _euthia("euthia-fire-shadowbeast.txt", 5)  # after the First Strike: the Shadowbeast attacks
    acts = by_label(EUTHIA.actions(st))
    assert acts["Shadowbeast's Monster Attack"].to_json()["notation"] == "eu-monster-attack target=ael"
    st = _euthia("euthia-fire-shadowbeast.txt", 8)  # Combat die 6: Gaar and Chaos, the Gold cache revealed
    (reveal,) = EUTHIA.actions(st)
    assert reveal.label == "Reveal the top card of the Gold cache"
    assert choices(reveal.params[0]) == ["Rotting Worm", "Healing", "Power Strike", "Soul Control"]
    st = _euthia("euthia-fire-shadowbeast.txt", 12)  # the re-roll made: the Hero's response
    acts = by_label(EUTHIA.actions(st))
    assert {"Áel: spend a Gaar token to re-roll", "Áel: Scroll of Weakness", "End the Hero's response"} <= set(acts)
    assert "Áel: Air Essence" not in acts  # Before Monster-Attack Roll only
    weakness = acts["Áel: Scroll of Weakness"]
    assert [p.label for p in weakness.params] == ["The value shown"]
    assert str(weakness.event([0])) == "eu-tile hero=ael tile=scroll-of-weakness value=1"


def test_euthia_offers_nothing_while_the_monster_dice_or_a_hero_roll_are_awaited():
    assert EUTHIA.actions(_euthia("euthia-fire-shadowbeast.txt", 3)) == []  # Áel's two Hero dice
    st = _euthia("euthia-fire-shadowbeast.txt", 7)  # the Monster dice read, the Combat die awaited
    assert EUTHIA.actions(st) == []


def test_euthia_fellowship_round_card_is_picked_part_by_part_and_a_joint_combat_offered():
    st = _euthia("euthia-fellowship-3p.txt", 1)
    (card, end) = EUTHIA.actions(st)
    assert card.label == "Reveal the round 1 Fellowship card (I)" and end.label == "End the scenario"
    assert [p.label for p in card.params][:3] == ["Leader of round 1", "Extra Enemy", "Monster Health +"]
    ev = card.event([1, 1, 2, 0, 0, 6, 1, 0, 0, 1])
    assert ev.leader == "dral" and ev.card == {"tier": "I", "enemy": "1", "health": 2, "injuries": 0,
                                               "chaos_action": False, "exchange": 6, "silver": 1, "gold": 0,
                                               "chaos": 0, "gaar": 1}
    st = _euthia("euthia-fellowship-3p.txt", 2)
    setup = by_label(EUTHIA.actions(st))["Set up a Combat"]
    heroes = setup.params[1]
    assert "Áel and Dral (joint Combat)" in choices(heroes)
    gecko = setup.params[0].choices[choices(setup.params[0]).index("Gecko")]
    assert gecko.then[0].label == "The Level 1 Monster added to the right"  # the card adds a Level 1 Monster


def test_first_to_ten_offers_the_d6_to_the_player_up_and_nothing_once_won():
    game = find_game("first-to-ten")
    st = game.apply(game.setup({}), parse("roll faces=[4]"))
    (roll,) = game.actions(st)
    assert (roll.label, roll.player, choices(roll.params[0])) == ("Roll the d6", "Bo", ["1", "2", "3", "4", "5", "6"])
    for line in ("roll faces=[6]", "roll faces=[2]", "roll faces=[6]"):
        st = game.apply(st, parse(line))
    assert game.outcome(st).winners == ("Bo",) and game.actions(st) == []


def test_dice_tray_offers_a_roll_of_each_standard_die():
    game = find_game("dice-tray")
    (roll,) = game.actions(game.setup({}))
    assert choices(roll.params[0]) == ["d4", "d6", "d8", "d10", "d12", "d20"]
    assert len(roll.completions()) == 4 + 6 + 8 + 10 + 12 + 20
    assert str(roll.event([5, 19])) == "roll die=d20 faces=[20] source=control"


SNS = find_game("sword-and-sorcery")


def _sns(upto: str):
    """The PvP I example played up to and including the line ``upto``."""
    lines = [ln for ln in (EXAMPLES / "sword-and-sorcery-pvp1.txt").read_text(encoding="utf-8").splitlines()
             if ln.strip() and not ln.startswith("#")]
    st = SNS.setup(parse(lines[0]).options)
    for line in lines[1:]:
        st = SNS.apply(st, parse(line))
        if line == upto:
            return st
    raise AssertionError(upto)


def test_sns_shrine_claims_are_made_together_one_row_per_team():
    (claim,) = SNS.actions(_sns("sns-ready"))
    assert [p.label for p in claim.params] == ["purple: Shrine", "red: Shrine"]
    assert choices(claim.params[1]) == ["the Shrine in a1", "the Shrine in a5", "the Shrine in e5", "the Shrine in e1"]
    assert str(claim.event([0, 1])) == 'sns-claim claims={"purple":"a1","red":"a5"}'
    (again,) = SNS.actions(_sns('sns-roll team=red red=["tiebreaker","blank","blank","blank"]'))
    assert [p.label for p in again.params] == ["red: Shrine"] and "the Shrine in a1" not in choices(again.params[0])


def test_sns_deployment_offers_the_areas_within_two_of_the_shrine():
    (place,) = SNS.actions(_sns('sns-roll team=red red=["tiebreaker","tiebreaker","tiebreaker","blank"]'))
    assert (place.label, place.player) == ("Place Artemis", "red")
    assert "a3" in choices(place.params[0]) and "e5" not in choices(place.params[0])


def test_sns_pvp1_first_time_phase_asks_for_the_pitfalls_before_the_battle_phase():
    acts = by_label(SNS.actions(_sns("sns-place hero=shae area=b1")))
    assert list(acts) == ["Place a Pitfall"]  # the Battle Phase waits for Locations A-D (PvP Quest I)
    where = acts["Place a Pitfall"].params[0]
    assert choices(where) == ["Location A", "Location B", "Location C", "Location D"]
    assert str(acts["Place a Pitfall"].event([0, 0])) == "sns-pitfall number=I location=A"


def test_sns_hero_turn_offers_the_activities_and_an_attack_on_an_opponent_in_range():
    acts = by_label(SNS.actions(_sns("sns-activate hero=artemis")))
    assert list(acts) == ["Artemis: move", "Artemis: Dash", "Artemis: Focus", "Artemis: attack",
                          "Artemis: end the Hero Turn"]
    attack = acts["Artemis: attack"]
    assert attack.player == "red" and attack.params == ()  # one Opponent, one weapon: one tap
    assert attack.to_json()["notation"] == "sns-attack who=artemis target=shae weapon=bow"
    assert SNS.actions(_sns("sns-attack who=artemis target=shae weapon=bow")) == []  # the HIT dice are awaited
    (resolve,) = SNS.actions(_sns('sns-roll blue=["blank"]'))
    assert resolve.label == "Resolve the attack"


def test_sns_trap_save_is_offered_as_saved_or_failed():
    (save,) = SNS.actions(_sns("sns-move hero=artemis to=a2"))
    assert save.label == "Artemis: Save against the Trap" and choices(save.params[0]) == ["saved", "failed"]


def _theosis_after_preparation():
    """Six Hierapolis turns, each offer taken with its first choices (a 1 where a die is awaited)."""
    from arena_table.rules import DiceRolled

    st = THEOSIS.setup(TH_OPTIONS)
    while st.phase == "preparation":
        acts = THEOSIS.actions(st)
        if not acts:
            kind = next(iter(THEOSIS.awaits(st)))
            st = THEOSIS.apply(st, DiceRolled(die=kind, faces=(1,)))
            continue
        st = THEOSIS.apply(st, acts[0].event(acts[0].completions()[0]))
    return st


def test_theosis_ranking_offers_the_allocating_players_gold_hero_by_hero():
    from arena_table.rules.games.theosis.mats import name

    st = _theosis_after_preparation()
    assert st.phase == "ranking"
    (alloc,) = THEOSIS.actions(st)
    who = st.player(alloc.player)
    assert alloc.label == f"{who.id}: put gold on the Heroes ({who.gold} gold)"
    first = alloc.params[0]
    assert first.label == f"Gold on {name(st, who.heroes[0])}"
    assert choices(first)[0] == "0 gold" and len(first.choices) == who.gold + 1
    # all the gold on the first Hero leaves nothing for the others
    rest = first.choices[-1].then[0]
    assert choices(rest) == ["0 gold"]
    ev = alloc.event([who.gold, 0, 0])
    assert ev.gold == {who.heroes[0]: who.gold, who.heroes[1]: 0, who.heroes[2]: 0}
    assert THEOSIS.apply(st, ev).player(who.id).allocated


def test_theosis_arena_offers_the_acting_hero_a_hex_to_enter_and_actions_1_2():
    st = _theosis_after_preparation()
    while st.phase == "ranking":
        (alloc,) = THEOSIS.actions(st)
        st = THEOSIS.apply(st, alloc.event([0] * 3))
    acts = by_label(THEOSIS.actions(st))
    hero = st.acting_hero()
    from arena_table.rules.games.theosis.mats import name

    enter = acts[f"{name(st, hero)}: enter the Arena"]
    r = st.config.arena_radius
    assert len(enter.params[0].choices) == 3 * r * (r + 1) + 1  # every hex of the Arena: nobody stands on one yet
    act12 = acts[f"{name(st, hero)}: discard a Power face down"]
    assert {c.label for c in act12.params[0].choices} == {name(st, c) for c in st.player(st.heroes[hero].player).hand}
    gems = act12.params[0].choices[0].then[0]
    assert choices(gems)[0] == "do nothing" and all("(take one Damage)" in g for g in choices(gems)[1:])


def test_demigods_selection_offers_the_chieftain_order_pick_then_a_demigod_and_its_slots():
    st = DEMIGODS.setup({"first": "Bo", "heroes": 4, "mode": "tactics", "players": ["Ann", "Bo"],
                         "selection": "chieftain"})
    acts = by_label(DEMIGODS.actions(st))
    assert "Bo: take a hero" in acts and "Ann: take a hero" not in acts  # Bo picks first (p.11)
    assert {"Ann: field a Demigod", "Bo: field a Demigod"} <= set(acts)
    assert str(acts["Bo: take a hero"].event([choices(acts["Bo: take a hero"].params[0]).index("Trapper")])) \
        == "dg-pick player=Bo hero=trapper"
    st = DEMIGODS.apply(st, parse("dg-demigod player=Ann demigod=warlord"))
    equip = by_label(DEMIGODS.actions(st))["Ann: equip Warlord"]
    slot = equip.params[0].choices[0]
    assert "Elemental Sword" in choices(slot.then[0])
