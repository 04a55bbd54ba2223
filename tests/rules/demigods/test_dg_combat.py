"""Damage modifiers, dice effects, divine power, buffs/debuffs durations and Demigod restrictions
('Attacking' p.23, 'Attack Dice' p.24, 'Class Traits' p.13, 'Divine Power' p.12, 'Buffs' p.25, p.16)."""

import pytest

from arena_table.rules import Refused

from dg_helpers import Table, at, lineup_options


def test_hero_tokens_flip_then_go_at_the_end_of_the_bearers_turns():
    """p.25: flipped after the first turn and removed after the second, at the end of the bearer's turn."""
    t = at("knight").do('dg-condition who=assassin name=Sharpen buff=true stat=damage amount=3')
    assert t.ch("assassin").conditions[0].turns == 2
    t.do("dg-end-turn")  # the Knight's turn ends: the Assassin's token is untouched
    assert t.ch("assassin").conditions[0].turns == 2
    t.do("dg-end-turn")  # the Assassin's turn ends
    assert t.ch("assassin").conditions[0].turns == 1
    t.until("assassin").do("dg-end-turn")
    assert t.ch("assassin").conditions == ()


def test_burn_wounds_when_flipped_and_removed_not_when_placed():
    """p.25: 'This damage is not applied when the token is first placed ... but each time the token is
    flipped/removed'; Burn is 3 wounds (p.24)."""
    t = at("knight").do("dg-condition who=assassin name=Burn stat=burn")
    assert t.ch("assassin").wounds == 0
    t.do("dg-end-turn", "dg-end-turn")
    assert t.ch("assassin").wounds == 3
    t.until("assassin").do("dg-end-turn")
    assert t.ch("assassin").wounds == 6 and t.ch("assassin").conditions == ()


def test_burn_wounds_are_said_in_the_log():
    """p.24 'Burn ... three wounds per round', p.25 applied when the token is flipped/removed: the
    spectator log's end-of-turn line says so, with the health left."""
    t = at("knight").do("dg-condition who=assassin name=Burn stat=burn")
    t.do("dg-end-turn", "dg-end-turn")
    health = t.ch("assassin").health
    assert t.ts.log[-1].text == (f"Assassin ends the turn; round {t.st.round}: Assassin takes 3 wounds from the Burn "
                                 f"token (3/{health})")
    assert t.st.notices[-1].endswith(f"Assassin takes 3 wounds from the Burn token (3/{health})")


def test_demigod_tokens_last_one_turn_except_bleed_freeze_burn():
    """p.16/p.25: buffs and debuffs on a Demigod last one turn; Bleed, Freeze and Burn are the exception."""
    t = at("knight").do("dg-condition who=warlord name=Weak stat=damage amount=-2",
                        "dg-condition who=warlord name=Burn stat=burn")
    turns = {c.name: c.turns for c in t.ch("warlord").conditions}
    assert turns == {"Weak": 1, "Burn": 2}
    t.until("warlord").do("dg-end-turn")
    assert [(c.name, c.turns) for c in t.ch("warlord").conditions] == [("Burn", 1)]
    assert t.ch("warlord").wounds == 3


def test_freeze_takes_two_ap():
    t = at("knight").do("dg-condition who=assassin name=Freeze stat=freeze", "dg-end-turn")
    assert t.st.acting == "assassin" and t.ch("assassin").ap == 6 - 2


def test_knockdown_die_ap_extra_damage_and_no_weak_spot():
    """p.24: knockdown loses all AP, +3 damage when attacked, no weak spot."""
    t = at("knight")
    t.do('dg-use who=knight targets=["pegasus-knight"]', "roll die=dg-bludgeoning faces=[1]")
    assert any(c.stat == "knockdown" for c in t.ch("pegasus-knight").conditions)
    assert t.ch("pegasus-knight").ap == 0
    t2 = at("assassin").do("dg-condition who=trapper name=Knockdown stat=knockdown")
    t2.do('dg-use who=assassin targets=["trapper"] side=["back"]', "roll die=dg-piercing faces=[4]")
    # 6 + 1 + 3 knocked down, no weak spot (so no Backstab) - physical defense 1 = 9
    assert t2.st.last_action.lines[-1] == "Trapper: 6 + 1 + 3 knocked down = 10 - physical defense 1 = 9 wounds"


def test_backstab_weak_spot_and_evasion():
    t = at("assassin")
    t.do('dg-use who=assassin targets=["trapper"] side=["back"]', "roll die=dg-piercing faces=[4]")
    assert t.st.last_action.lines[-1] == ("Trapper: 6 + 1 + 2 weak spot + 3 Backstab = 12 - physical defense 1 "
                                          "= 11 wounds")
    t = at("gunner").do('dg-use who=gunner targets=["assassin"] distance=2', "roll die=dg-piercing faces=[4]")
    assert t.st.last_action.lines[-1] == "Assassin: 7 + 1 = 8 - physical defense 2 - Evasion 2 = 4 wounds"


def test_archery_penalties_and_marksmen():
    """p.13: -4 with an opposing figure in melee range, -2 at four or more fields; Critical +6."""
    t = at("gunner").do('dg-use who=gunner targets=["knight"] distance=4 engaged=true',
                        "roll die=dg-piercing faces=[1]")
    assert t.st.last_action.lines[-1] == ("Knight: 7 + 6 Critical - 4 Archery, engaged - 2 Archery, far = 7 "
                                          "- (physical defense 4 + Deflect 2 = 6) = 1 wounds")


def test_deflect_only_from_the_front_and_high_ground():
    t = at("weaponsmith", board=None).do('dg-use who=weaponsmith targets=["pegasus-knight"] side=["side"] '
                                         'high_ground=true', "roll die=dg-slashing faces=[4]")
    assert t.st.last_action.lines[-1] == "Pegasus Knight: 7 + 2 + 2 high ground = 11 - physical defense 5 = 6 wounds"


def test_failure_costs_a_mage_two_mana_or_nullifies_the_attack():
    """p.24: a mana user pays 2 mana on Failure; without it the attack is nullified."""
    t = at("black-wolf").do('dg-use who=black-wolf targets=["trapper"]', "roll die=dg-fire faces=[2]")
    assert t.ch("black-wolf").divine == 6 - 2
    assert t.st.last_action.lines[-1] == "Trapper: 9 = 9 - magical defense 2 = 7 wounds"
    t = at("black-wolf").do("dg-divine who=black-wolf value=1", 'dg-use who=black-wolf targets=["trapper"]',
                            "roll die=dg-fire faces=[2]")
    assert t.st.last_action.result == "attack nullified" and t.ch("trapper").wounds == 0
    assert t.ch("black-wolf").divine == 1


def test_an_attack_nullified_by_failure_still_changes_the_targets_divine_power():
    """'Divine Power' p.12: "Whenever a focus hero is attacked, regardless of whether or not they take
    damage, their focus is reduced by one"; a nullified attack (p.24 Failure) is still an attack.
    The Trapper (archer, focus 3) keeps its health and drops to focus 2."""
    t = at("black-wolf")
    focus = t.ch("trapper").divine
    t.do("dg-divine who=black-wolf value=1", 'dg-use who=black-wolf targets=["trapper"]', "roll die=dg-fire faces=[2]")
    assert t.st.last_action.result == "attack nullified" and t.ch("trapper").wounds == 0
    assert (focus, t.ch("trapper").divine) == (3, 2)


def test_a_melee_attack_nullified_by_failure_is_still_retaliated():
    """'Retaliation' p.13: "After being attacked from melee range, this hero automatically makes a free
    base attack against their attacker"; 'Divine Power' p.12: rage +1 when attacked, damage or not.
    The Blacksmith (warrior) gains a rage and retaliates against the Black Wolf."""
    t = at("black-wolf", board=None)
    rage = t.ch("blacksmith").divine
    t.do("dg-divine who=black-wolf value=1", 'dg-use who=black-wolf targets=["blacksmith"] distance=1',
         "roll die=dg-fire faces=[2]")
    assert t.st.last_action.result == "attack nullified" and t.ch("blacksmith").wounds == 0
    assert t.ch("blacksmith").divine == rage + 1
    assert t.st.pending is not None and t.st.pending.retaliation
    assert (t.st.pending.attacker, t.st.pending.targets) == ("blacksmith", ("black-wolf",))


def test_enrage_heals_or_gives_rage():
    """p.24: Enrage removes two wounds, or for a rage user grants one more rage."""
    t = at("weaponsmith", hero_stats={"assassin": {"race": "elf", "attack_type": "slashing"}})
    t.do('dg-use who=weaponsmith targets=["trapper"]', "roll die=dg-slashing faces=[1]")
    assert t.ch("weaponsmith").divine == 1 + 1 + 1  # start 1, +1 base attack, +1 Enrage
    t = at("assassin", hero_stats={"assassin": {"race": "elf", "attack_type": "slashing"}})
    t.do("dg-wound who=assassin amount=5", 'dg-use who=assassin targets=["trapper"]', "roll die=dg-slashing faces=[2]")
    assert t.ch("assassin").wounds == 3


def test_friendly_fire_changes_no_divine_power():
    """p.23: 'you cannot gain Rage nor lose Focus from friendly fire'."""
    t = at("weaponsmith", board={"cols": 6, "rows": 6})
    t.do("dg-place who=weaponsmith cell=[2,3] facing=0", "dg-place who=knight cell=[2,2] facing=0")
    t.st.chars["knight"]  # noqa: B018 - exists
    with pytest.raises(Refused, match="is an ally"):
        t.do('dg-use who=weaponsmith targets=["knight"]')


def test_attack_link_reroll():
    """p.12: linked heroes may reroll one die; the new result must be used."""
    t = at("pegasus-knight")
    assert t.ch("pegasus-knight").rerolls == 1  # piercing next to the piercing Trapper
    t.do('dg-use who=pegasus-knight targets=["knight"] side=["back"]', "roll die=dg-piercing faces=[6]")
    assert t.st.pending is not None and t.ch("knight").wounds == 0
    t.do("dg-reroll index=0", "roll die=dg-piercing faces=[3]")
    assert t.st.pending is None
    assert t.st.last_action.lines[-1] == "Knight: 6 + 2 = 8 - physical defense 4 = 4 wounds"
    with pytest.raises(Refused, match="no attack to re-roll"):
        t.do("dg-reroll index=0")


def test_links_are_worked_out_again_when_a_hero_dies():
    """p.12/p.30: a death breaks links and can create new ones."""
    stats = {"assassin": {"race": "elf"}, "gunner": {"race": "dwarf"}}
    t = Table(lineup_options(hero_stats=stats))
    assert (t.ch("blacksmith").link_morale, t.ch("gunner").link_morale) == (1, 1)
    t.do("dg-wound who=blacksmith amount=40")
    assert t.ch("gunner").link_morale == 0
    assert t.ch("trapper").rerolls == 2 - 1 + 1  # Pegasus Knight and now the Gunner, both piercing


def test_morale_is_clamped_to_three():
    t = at("knight").do("dg-condition who=knight name=Rally buff=true stat=morale amount=5",
                        'dg-use who=knight targets=["blacksmith"]', "roll die=dg-bludgeoning faces=[5]",
                        "roll die=dg-piercing faces=[6]")  # the Blacksmith's Master Armor die
    assert t.st.last_action.lines[-1] == "Blacksmith: 6 + 1 + 3 morale = 10 - physical defense 3 = 7 wounds"


def test_demigod_restrictions():
    t = at("warlord")
    with pytest.raises(Refused, match="first round Demigods may only enter and move"):
        t.do('dg-use who=warlord use=elemental-sword targets=["trapper"]')
    t.until("blacksmith").until("warlord").do("dg-place who=warlord", "dg-place who=protector")
    with pytest.raises(Refused, match="Demigods cannot attack"):
        t.do('dg-use who=warlord use=elemental-sword targets=["protector"]')
    t.do("dg-move who=warlord ap=1")
    with pytest.raises(Refused, match="before any action point is spent"):
        t.do('dg-use who=warlord use=enraged targets=["weaponsmith"]')


def test_enraged_gives_rage_to_an_allied_tank_or_warrior():
    t = at("warlord").until("blacksmith").until("warlord").do("dg-place who=warlord")
    rage = t.ch("weaponsmith").divine
    with pytest.raises(Refused, match="targets a tank or warrior"):
        t.do('dg-use who=warlord use=enraged targets=["black-wolf"]')
    t.do('dg-use who=warlord use=enraged targets=["weaponsmith"]')
    assert t.ch("weaponsmith").divine == rage + 1 and t.st.acting == "warlord"
    with pytest.raises(Refused, match="already used this turn"):
        t.do('dg-use who=warlord use=enraged targets=["knight"]')


@pytest.mark.parametrize("line,reason", [
    ('dg-use who=assassin targets=["trapper"]', "it is knight's turn"),
    ('dg-use who=knight use=star-strike targets=["trapper"]', "costs 3 rage, Knight has 1"),
    ('dg-use who=knight targets=["trapper","blacksmith"]', "strikes one target"),
    ("roll die=dg-fire faces=[2]", "no attack is waiting"),
    ("roll die=dg-lightning faces=[2]", "Demigods Evolution uses no 'dg-lightning' die; its dice: dg-demigod"),
    ("dg-move who=knight", "give the AP spent"),
    ("dg-move who=knight ap=9", "9 AP asked, Knight has 7"),
])
def test_illegal_events_say_why(line, reason):
    t = at("knight")
    with pytest.raises(Refused, match=reason.replace("[", r"\[")):
        t.do(line)


def test_divine_die_read_by_the_camera_is_cross_checked():
    from arena_table.rules import table_view
    t = at("knight").do("dg-divine-read who=trapper value=3", "dg-divine-read who=knight value=4")
    order = {e["id"]: e for e in table_view(t.ts)["view"]["order"]}
    assert "read_mismatch" not in order["trapper"]
    assert order["knight"]["read_mismatch"] == {"read": 4, "engine": 1}
    assert t.ts.log[-1].text == "Camera reads Knight's divine die: 4 (engine: 1, mismatch)"
    # the one tap that takes the die's value (offers.py) reads as words in the log and the Undo card
    t = t.do("dg-divine who=knight value=4")
    assert t.ts.log[-1].text == "Knight's rage set to 4 (was 1)"


def test_a_divine_die_read_otherwise_is_one_tap_to_take():
    """The control page offers the die's value for a mismatched hero only; taking it settles the
    mismatch (the view's flag goes), and a die turned back to the game's value offers nothing."""
    from arena_table.rules import find_game, table_view
    t = at("knight").do("dg-divine-read who=trapper value=3", "dg-divine-read who=knight value=4")
    offers = [a for a in find_game("demigods").actions(t.st) if a.kind == "dg-divine"]
    assert [(a.label, a.player, str(a.event([]))) for a in offers] == [
        ("Knight: rage 4, as the die shows (the game has 1)", "Ann", "dg-divine who=knight value=4")]
    t.do(str(offers[0].event([])))
    assert t.ch("knight").divine == 4 and "read_mismatch" not in {
        e["id"]: e for e in table_view(t.ts)["view"]["order"]}["knight"]
    assert not [a for a in find_game("demigods").actions(t.st) if a.kind == "dg-divine"]
    t.do("dg-divine-read who=trapper value=2", "dg-divine-read who=trapper value=3")
    assert not [a for a in find_game("demigods").actions(t.st) if a.kind == "dg-divine"]


def test_fatality_gives_two_rage_on_a_kill():
    """p.13 Fatality (warrior trait, read from the cards' icons): +2 rage when killing an opposing character."""
    t = at("weaponsmith").do("dg-wound who=trapper amount=25", 'dg-use who=weaponsmith targets=["trapper"]',
                             "roll die=dg-slashing faces=[4]")
    assert not t.ch("trapper").alive
    assert t.ch("weaponsmith").divine == 1 + 1 + 2  # start, base attack, Fatality


def test_global_tokens_act_on_the_whole_side_and_flip_in_the_preparation_phase():
    """p.25: global buffs/debuffs affect an entire team and are flipped in the Preparation Phase."""
    t = at("knight").do("dg-condition who=trapper name=Curse stat=physical_defense amount=-1 scope=global")
    t.do('dg-use who=knight targets=["blacksmith"]', "roll die=dg-bludgeoning faces=[5]", "roll die=dg-piercing faces=[6]")
    assert t.st.last_action.lines[-1] == ("Blacksmith: 6 + 1 = 7 - (physical defense 3 - physical defense tokens 1 "
                                          "= 2) = 5 wounds")
    t.do("roll die=dg-bludgeoning faces=[5]")  # the Blacksmith's Retaliation
    t.until("warlord")
    assert t.st.global_conditions["Bo"][0].turns == 1
    t.do("dg-end-turn").until("warlord")
    assert t.st.global_conditions == {}


def test_warlords_scythe_does_not_trigger_retaliation():
    """p.19: 'Warlord's Scythe (Primary Item, A1) - Does not trigger Retaliation.'"""
    t = at("warlord").until("blacksmith").until("warlord").do("dg-place who=warlord")
    t.do('dg-use who=warlord use=warlords-scythe targets=["blacksmith"]', "roll die=dg-slashing faces=[4]",
         "roll die=dg-piercing faces=[6]")
    assert t.st.pending is None and t.ch("blacksmith").wounds == 8 + 2 - 3
    assert t.ch("warlord").cooldowns == () and t.st.acting != "warlord"  # no cooldown, ends the turn


def test_on_critical_item_effects():
    """p.18-19: Frost Staff On Critical Immobilize; Swordmaster's Gauntlet On Critical Knockdown on a hero."""
    lineup = {"Ann": {"demigod": "warlord", "heroes": ["knight", "assassin", "black-wolf", "weaponsmith"]},
              "Bo": {"demigod": "protector", "heroes": ["pegasus-knight", "trapper", "blacksmith", "gunner"],
                     "items": ["frost-staff", "", "swordmasters-gauntlet"]}}
    t = Table(lineup_options(lineup=lineup)).until("protector").until("blacksmith").until("protector")
    t.do("dg-place who=protector", "dg-place who=black-wolf",
         'dg-use who=protector use=frost-staff targets=["black-wolf"] distance=3', "roll die=dg-ice faces=[3]")
    assert {c.stat for c in t.ch("black-wolf").conditions} == {"immobilize", "knockdown"}
    assert all(c.turns == 1 for c in t.ch("black-wolf").conditions if c.stat == "immobilize")  # from a Demigod
    assert dict(t.ch("protector").cooldowns) == {"frost-staff": 2}


def test_enrage_on_a_retaliation_gives_no_rage():
    """p.13 Retaliation: 'This hero does not gain rage from retaliation.' The Enrage result's extra
    rage (p.24) is rage from the retaliation too: the Weaponsmith's rage stays where being attacked
    put it (a new user's audit)."""
    t = Table({"players": ["Ann", "Bo"], "lineup": {
        "Ann": {"demigod": "warlord", "heroes": ["knight", "black-wolf", "weaponsmith"]},
        "Bo": {"demigod": "protector", "heroes": ["pegasus-knight", "trapper", "blacksmith"]}}})
    t.do("roll die=dg-demigod faces=[2,3]", "dg-end-turn", "dg-end-turn", "dg-enter who=knight", "dg-end-turn",
         "roll die=dg-demigod faces=[5,2]", "dg-enter who=black-wolf", "dg-end-turn",
         "dg-enter who=pegasus-knight", "dg-end-turn", "roll die=dg-demigod faces=[2,5]",
         "dg-enter who=trapper", "dg-end-turn", "dg-enter who=weaponsmith", "dg-end-turn",
         "dg-enter who=blacksmith", "dg-end-turn", "roll die=dg-demigod faces=[6,1]",
         "dg-end-turn", "dg-end-turn", "dg-end-turn", "roll die=dg-demigod faces=[2,5]")
    rage = t.ch("weaponsmith").divine
    t.do('dg-use who=pegasus-knight targets=["weaponsmith"] side=["front"] distance=1',
         "roll die=dg-piercing faces=[4]", "dg-resolve")
    assert t.st.pending.retaliation and t.ch("weaponsmith").divine == rage + 1  # +1 for being attacked
    t.do("roll die=dg-slashing faces=[1]")  # Enrage, rolled by the retaliating warrior
    assert t.ch("weaponsmith").divine == rage + 1
