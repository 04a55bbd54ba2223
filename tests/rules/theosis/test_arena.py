"""Arena rules with hand-computed numbers: ranking changes, tokens, power texts, hands, area attacks."""

from __future__ import annotations

import pytest

from arena_table.rules import Refused, find_game, parse
from arena_table.rules.kernel.events import TagPlaced

from th_helpers import ARENA, fast_blitz, play

GAME = find_game("theosis")
ANN = ["fiery-purge", "fireball", "bloodthirst", "tactics", "pain-spike", "blazing-sun"]
BO = ["warcraft", "nova", "despair", "valor", "lifeswap", "last-stand"]


def test_ranking_order_and_turn_marker():
    s = play(fast_blitz(ANN, BO), ARENA).state
    assert s.ranking == ("rac", "norn", "rochon", "aer")
    assert (s.phase, s.turn, s.acting_hero()) == ("combat", 1, "rac")
    v = GAME.view(s)
    assert v["phase"] == "Combat · turn 1/9"
    assert [(e["rank"], e["id"], e["acting"], e["next"]) for e in v["order"]] == [
        (1, "rac", True, False), (2, "norn", False, True), (3, "rochon", False, False), (4, "aer", False, False)]
    assert v["extra"]["initiative"] == "Ann"


def test_warcraft_swaps_the_target_with_the_hero_below_errata():
    """Errata p.38: 4 vs 3 (Pain Spike's 3): Rochon (3rd) and Aer (4th) switch places; Pain Spike
    returns half of 1 rounded down = 0."""
    s = play(fast_blitz(ANN, BO), ARENA,
             'th-attack hero=rac target=["rochon"] power=warcraft defend=["pain-spike"]').state
    assert s.ranking == ("rac", "norn", "aer", "rochon")
    assert s.heroes["rochon"].health == 8 and s.heroes["rac"].health == 9
    assert s.acting_hero() == "norn"


def test_last_stand_raises_the_defender_one_position():
    """p.41: Aer (4th) defends with Last Stand (0,4) against Tactics (1,1): 1 vs 4, the defence holds
    and Aer rises one position, switching with Rochon (3rd). With Nova instead nothing moves."""
    s = play(fast_blitz(ANN, BO), ARENA, "th-pass hero=rac power=warcraft", "th-pass hero=norn power=bloodthirst",
             'th-attack hero=rochon target=["aer"] power=tactics defend=["nova"]').state
    assert s.ranking == ("rac", "norn", "rochon", "aer")
    s = play(fast_blitz(ANN, BO), ARENA, "th-pass hero=rac power=warcraft", "th-pass hero=norn power=bloodthirst",
             'th-attack hero=rochon target=["aer"] power=tactics defend=["last-stand"]').state
    assert s.ranking == ("rac", "norn", "aer", "rochon")
    assert s.last_action["lines"] == ["1 vs 4", "defence holds", "no damage"]
    assert s.acting_hero() == "aer"  # Rochon has acted; Aer, now 3rd, is next


def test_despair_halves_after_mitigation_minimum_one():
    """p.42: Fiery Purge 4 vs Despair 2: 2 fire; halved by Despair → 1."""
    s = play(fast_blitz(ANN, BO), ARENA, "th-pass hero=rac power=warcraft", "th-pass hero=norn power=tactics",
             'th-attack hero=rochon target=["aer"] power=fiery-purge defend=["despair"]').state
    assert s.last_action["lines"] == ["4 vs 2", "2 fire", "halved by Despair → 1"]
    assert s.heroes["aer"].health == 8


def test_blazing_sun_protects_physical_but_the_loser_takes_one():
    """p.43: Warcraft 4 vs Blazing Sun 4 → tie won by Rac (1st); 0 physical negated; minimum 1."""
    s = play(fast_blitz(ANN, BO), ARENA, 'th-attack hero=rac target=["norn"] power=warcraft defend=["blazing-sun"]').state
    assert s.last_action["lines"] == ["4 vs 4", "tie won by Rac on Ranking", "0 physical", "minimum 1"]
    assert s.heroes["norn"].health == 8


def test_lifeswap_exchanges_health_before_damage():
    """p.40: Norn at 6 (three Bloodthirst self-damage) hits Rac at 9 who defends with Lifeswap:
    Bloodthirst makes the Attack 5; 5 vs 3 → 2 physical; Health swaps first (Norn 9, Rac 6), Rac 6 → 4."""
    s = play(fast_blitz(ANN, BO), ARENA, "th-pass hero=rac power=warcraft",
             'th-attack hero=norn target=["rac"] power=bloodthirst defend=["lifeswap"] choice={"bloodthirst":true}').state
    assert s.last_action["lines"] == ["5 vs 3", "2 physical"] + ["Lifeswap exchanges Health first"]
    assert (s.heroes["norn"].health, s.heroes["rac"].health) == (9, 4)


def test_rejuvenation_resolves_before_fiery_purge():
    """p.43: at full Health Rejuvenation heals nothing, then Fiery Purge takes one: 9 → 8."""
    ann = ["fiery-purge", "fireball", "bloodthirst", "tactics", "rejuvenation", "blazing-sun"]
    bo = ["warcraft", "nova", "despair", "valor", "lifeswap", "frigid-night"]
    s = play(fast_blitz(ann, bo), ARENA, "th-pass hero=rac power=warcraft",
             "th-bless hero=norn power=rejuvenation target=rochon",
             'th-attack hero=rochon target=["aer"] power=fiery-purge defend=["despair"]',
             "th-pass hero=aer power=nova").state
    assert s.conditions == {"rejuvenation": "rochon", "fiery-purge": "aer"}
    assert s.heroes["aer"].health == 7  # 9 - 1 (Despair halves 2) - 1 (Fiery Purge at the end of her turn)
    from arena_table.rules.games.theosis.arena import end_hero_turn
    import dataclasses
    both = dataclasses.replace(s, conditions={"rejuvenation": "aer", "fiery-purge": "aer"})
    both = dataclasses.replace(both, heroes={**both.heroes, "aer": dataclasses.replace(both.heroes["aer"], health=9)})
    assert end_hero_turn(both, "aer").heroes["aer"].health == 8
    both = dataclasses.replace(both, heroes={**both.heroes, "aer": dataclasses.replace(both.heroes["aer"], health=6)})
    assert end_hero_turn(both, "aer").heroes["aer"].health == 6


def test_hand_cycle_last_card_stays_in_discard():
    """Power Management: using the last Power takes the other five back; the last one stays in the discard pile."""
    s = play(fast_blitz(ANN, BO), ARENA).state
    moves = ["th-pass hero=rac power=warcraft", "th-pass hero=norn power=fiery-purge",
             "th-pass hero=rochon power=fireball", "th-pass hero=aer power=nova",
             "th-pass hero=rac power=despair", "th-pass hero=norn power=bloodthirst",
             "th-pass hero=rochon power=tactics", "th-pass hero=aer power=valor",
             "th-pass hero=rac power=lifeswap", "th-pass hero=norn power=pain-spike"]
    s = play(fast_blitz(ANN, BO), ARENA, *moves).state
    assert s.player("Ann").hand == ("blazing-sun",)
    s = play(fast_blitz(ANN, BO), ARENA, *moves, "th-pass hero=rochon power=blazing-sun").state
    ann = s.player("Ann")
    assert ann.discard == ("blazing-sun",)
    assert sorted(ann.hand) == sorted(ANN[:-1])


def test_area_attack_needs_a_different_power_per_defender():
    """p.16: Corona (Ring, +1, Light) on Aer and Rac: Bo must defend with two different Powers
    (Aer Despair 2, Rac Nova 1); resolved in Ranking order, Rac first."""
    start = fast_blitz(ANN, BO, archetypes={"rochon": "devotee-of-the-sun"})
    base = [start, "th-gem hero=rochon skill=corona", ARENA, "th-pass hero=rac power=warcraft",
            "th-pass hero=norn power=tactics", "th-pass hero=rochon power=bloodthirst",
            "th-pass hero=aer power=valor", "th-pass hero=rac power=lifeswap", "th-pass hero=norn power=pain-spike"]
    with pytest.raises(Refused, match="different Powers"):
        play(*base, 'th-attack hero=rochon target=["rac","aer"] power=fiery-purge skill=corona defend=["nova","nova"]')
    s = play(*base, 'th-attack hero=rochon target=["aer","rac"] power=fiery-purge skill=corona '
                    'defend=["despair","nova"]').state
    assert s.last_action["lines"] == ["Rac: 4 + 1 skill = 5 vs 1 → 4 light",
                                      "Aer: 4 + 1 skill = 5 vs 2 → 3 light → halved by Despair → 1"]
    assert (s.heroes["rac"].health, s.heroes["aer"].health) == (5, 8)
    assert "fiery-purge" not in s.conditions  # under a Skill the Curse text stays silent (p.19)
    assert "corona" not in s.heroes["rochon"].mana


def test_area_attacks_cannot_reach_starting_triads_on_turn_one():
    start = fast_blitz(ANN, BO, archetypes={"rochon": "devotee-of-the-sun"})
    with pytest.raises(Refused, match="starting triad"):
        play(start, "th-gem hero=rochon skill=corona", ARENA, "th-pass hero=rac power=warcraft",
             "th-pass hero=norn power=tactics",
             'th-attack hero=rochon target=["rac"] power=fiery-purge skill=corona defend=["nova"]')


def test_spell_boost_and_valor_blessing():
    """Nova used as a Spell on Aer's turn has Attack 4 (p.41); Valor gives +1 Attack (p.41)."""
    turns = [fast_blitz(ANN, BO), ARENA, "th-bless hero=rac power=valor target=aer",
             "th-pass hero=norn power=tactics", "th-pass hero=rochon power=bloodthirst", "th-pass hero=aer power=despair",
             "th-pass hero=rac power=lifeswap", "th-pass hero=norn power=pain-spike",
             "th-pass hero=rochon power=fiery-purge"]
    assert play(*turns).state.conditions == {"valor": "aer"}
    ts = play(*turns, 'th-attack hero=aer target=["rochon"] power=nova spell=true defend=["blazing-sun"]')
    assert ts.state.last_action["lines"][:2] == ["4 + 1 Valor = 5 vs 4", "1 physical"]
    assert ts.state.turn == 3


def test_a_hero_cannot_bless_itself():
    """Valor (../shared/rulebooks/theosis.txt, Powers): "you target an allied Hero"; FAQ: what targets
    an "Allied Hero" does not target the hero using it unless it says so."""
    with pytest.raises(Refused, match="Rac cannot bless itself") as err:
        play(fast_blitz(ANN, BO), ARENA, "th-bless hero=rac power=valor target=rac")
    assert "FAQ" in err.value.rule


def test_a_table_may_let_a_hero_bless_itself():
    """The option self_bless: the Team Play reading ("affect all Heroes of a team") as a house rule."""
    s = play(fast_blitz(ANN, BO, extra_options='"self_bless":true'), ARENA,
             "th-bless hero=rac power=valor target=rac").state
    assert s.conditions == {"valor": "rac"} and s.config.self_bless


def test_blackout_flips_a_token_and_the_hero_skips_once():
    """Errata p.34: Blackout flips a hero that has not acted; on its turn it flips back and does nothing."""
    start = fast_blitz(ANN, BO, archetypes={"rac": "son-of-erebus"})
    s = play(start, "th-gem hero=rac skill=blackout", ARENA,
             'th-skill hero=rac skill=blackout power=warcraft target=["norn"]').state
    assert s.acting_hero() == "rochon"
    assert s.heroes["norn"].flipped is False and "norn" in s.acted


def test_pacified_hero_cannot_attack():
    ann = ["fiery-purge", "fireball", "pacify", "tactics", "pain-spike", "blazing-sun"]
    with pytest.raises(Refused, match="Pacified"):
        play(fast_blitz(ann, BO), ARENA, "th-pass hero=rac power=warcraft",
             'th-attack hero=norn target=["aer"] power=pacify defend=["valor"]',
             'th-attack hero=rochon target=["rac"] power=tactics defend=["nova"]',
             'th-attack hero=aer target=["rochon"] power=despair defend=["fireball"]')


def test_tags_on_pads_are_the_powers_played():
    s = play(fast_blitz(ANN, BO), ARENA).state
    ts = play(fast_blitz(ANN, BO), ARENA)
    from arena_table.rules import apply
    ts = apply(ts, TagPlaced(pad=1, uid="04AA", object="theosis:power:warcraft"))
    ts = apply(ts, TagPlaced(pad=2, uid="04BB", object="theosis:power:pain-spike"))
    ts = apply(ts, TagPlaced(pad=3, uid="04CC", object="theosis:hero:rochon"))  # not used: ignored
    ts = apply(ts, TagPlaced(pad=2, uid="04DD", object="demigods:card:x"))  # another game's tag: ignored
    ts = apply(ts, parse('th-attack hero=rac target=["rochon"]'))
    assert ts.state.heroes["rochon"].health == 8 and ts.state.pad_powers == {}
    assert s.pad_powers == {}


def test_wrong_actor_and_missing_card_are_named():
    with pytest.raises(Refused, match="it is Rac's turn, not Norn's"):
        play(fast_blitz(ANN, BO), ARENA, "th-pass hero=norn power=tactics")
    with pytest.raises(Refused, match="Bo does not hold Fiery Purge"):
        play(fast_blitz(ANN, BO), ARENA, "th-pass hero=rac power=fiery-purge")


def test_spectator_view_hides_hands_and_control_sees_them():
    s = play(fast_blitz(ANN, BO), ARENA).state
    spec, ctrl = GAME.view(s, "spectator"), GAME.view(s, "control")
    assert "hand_cards" not in spec["extra"]["players"][0] and spec["extra"]["players"][0]["hand"] == 6
    assert ctrl["extra"]["players"][0]["hand_cards"] == ANN


def test_objects_catalogue():
    objs = GAME.objects()
    for o in ("theosis:hero:rochon", "theosis:power:fiery-purge", "theosis:artifact:artifact-sword",
              "theosis:armor:cloth-armor", "theosis:ritual:wall-of-fire", "theosis:monster:godslayer"):
        assert o in objs
    assert len([o for o in objs if o.startswith("theosis:hero:")]) == 12


def test_undo_takes_back_an_attack_and_replay_matches():
    from arena_table.rules import Undone, replay
    from th_helpers import lines_of
    evs = [parse(x) for t in (fast_blitz(ANN, BO), ARENA) for x in lines_of(t)]
    attack = parse('th-attack hero=rac target=["norn"] power=warcraft defend=["blazing-sun"]')
    undone = replay(evs + [attack, Undone(seq=len(evs) + 1)])
    assert undone.state == replay(evs).state


def test_log_lines_keep_face_down_information_out():
    ts = play(fast_blitz(ANN, BO), ARENA, "th-pass hero=rac power=warcraft")
    assert ts.log[-1].text == "Rac discards a Power face down"
    assert "warcraft" not in ts.log[-1].text.lower()


def _with_ritual(ritual: str, turn: int, player: str = "Ann"):
    import dataclasses
    s = play(fast_blitz(ANN, BO), ARENA).state
    return dataclasses.replace(s, players=tuple(dataclasses.replace(x, rituals=((ritual, turn),)) if x.id == player
                                                else x for x in s.players))


def _apply(s, *texts):
    for t in texts:
        s = GAME.apply(s, parse(t))
    return s


TURN_1 = ["th-pass hero=rac power=warcraft", "th-pass hero=norn power=tactics", "th-pass hero=rochon power=bloodthirst",
          "th-pass hero=aer power=valor"]


def test_ritual_fires_first_and_banner_of_victory_adds_one_on_its_hexes():
    """p.14: the Ritual whose turn marker matches is cast before any hero acts; Banner of Victory
    (p.45): +1 Attack on its hexes."""
    s = _apply(_with_ritual("banner-of-victory", 2), "th-move hero=rochon cell=[2,-1]", *TURN_1)
    assert s.turn == 2 and s.pending.kind == "ritual" and s.acting_hero() is None
    with pytest.raises(Refused, match="waiting for ritual"):
        _apply(s, "th-pass hero=rac power=nova")
    with pytest.raises(Refused, match="centre hex"):
        _apply(s, 'th-ritual player=Ann cells=[[0,0],[1,0],[1,-1]]')
    s = _apply(s, 'th-ritual player=Ann cells=[[2,-1],[2,-2],[3,-2]]', "th-pass hero=rac power=nova",
               "th-pass hero=norn power=pain-spike",
               'th-attack hero=rochon target=["aer"] power=fiery-purge defend=["despair"]')
    assert s.last_action["lines"][0] == "4 + 1 Banner of Victory = 5 vs 2"


def test_purification_heals_allies_and_lifts_curses():
    s = _apply(_with_ritual("purification", 2, "Bo"), "th-pass hero=rac power=warcraft",
               "th-pass hero=norn power=tactics",
               'th-attack hero=rochon target=["aer"] power=fiery-purge defend=["despair"]',
               "th-pass hero=aer power=valor")
    assert s.heroes["aer"].health == 7 and s.conditions == {"fiery-purge": "aer"}
    s = _apply(s, "th-ritual player=Bo")
    assert s.heroes["aer"].health == 9 and s.conditions == {}
    assert s.acting_hero() == "rac"


def test_moves_are_limited_by_speed_and_entangling_roots():
    """p.14 Movement: at most the speed in hexes (entered here as 3); Entangling Roots makes it 1 (p.43)."""
    start = fast_blitz(ANN, BO, extra_options='"speeds":{"rac":3,"norn":3,"rochon":3,"aer":3}')
    enter = ["th-move hero=rac cell=[4,-4]", "th-move hero=norn cell=[-4,4]"]
    s = play(start, ARENA, *enter, "th-move hero=rac cell=[3,-2]", "th-move hero=rac cell=[2,-1]").state
    assert s.heroes["rac"].cell == (2, -1) and s.moved == 3
    with pytest.raises(Refused, match="can move 3 hexes this turn, not 4"):
        play(start, ARENA, *enter, "th-move hero=rac cell=[3,-2]", "th-move hero=rac cell=[1,-1]")
    ann = ["entangling-roots", "fireball", "bloodthirst", "tactics", "pain-spike", "blazing-sun"]
    start = fast_blitz(ann, BO, extra_options='"speeds":{"rac":3,"norn":3,"rochon":3,"aer":3}')
    cursed = [start, ARENA, *enter, "th-pass hero=rac power=warcraft",
              'th-attack hero=norn target=["aer"] power=entangling-roots defend=["nova"]',
              "th-pass hero=rochon power=tactics"]
    s = play(*cursed).state
    assert s.conditions == {"entangling-roots": "aer"}
    with pytest.raises(Refused, match="can move 1 hex this turn, not 2"):
        play(*cursed, "th-move hero=aer cell=[0,0]", "th-move hero=aer cell=[1,0]", "th-move hero=aer cell=[2,0]")


@pytest.mark.parametrize("line,needle", [
    ('th-skill hero=rac skill=nobody-knows power=warcraft', "not a non-attacking skill"),
    ('th-skill hero=rac skill=vile-surge power=warcraft target=["zed"]', "holds no Mana gem"),
    ('th-adjust target=zed health=-1', "no hero, player or monster 'zed'"),
    ('th-attack hero=rac target=["ghost"] power=warcraft', "no hero or monster 'ghost' in this game"),
    ('th-bless hero=rac power=warcraft target=aer', "Warcraft is not a Blessing"),
])
def test_bad_names_are_rejected_with_a_reason(line, needle):
    with pytest.raises(Refused, match=needle):
        play(fast_blitz(ANN, BO), ARENA, line)


def test_unknown_player_is_an_illegal_event_not_a_crash():
    with pytest.raises(Refused, match="unknown name 'Zed'"):
        play(fast_blitz(ANN, BO).replace("th-draft player=Bo power=warcraft", "th-draft player=Zed power=warcraft"))
