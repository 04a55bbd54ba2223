"""Hierapolis (pp.10-13): placement order, golden slots and the Power order, quest and location
rewards, dice, sealed bids, the Initiative Marker, Alignment tracks and the gold bonus."""

from __future__ import annotations

import pytest

from arena_table.rules import Refused, find_game, parse

from th_helpers import play

GAME = find_game("theosis")
START = ('start game=theosis options={"players":["Ann","Bo"],'
         '"heroes":{"Ann":["rochon","rac","norn"],"Bo":["aer","lug","edhel"]}}')
TURN1 = """
th-place hero=rochon location=warmonger golden=true target=aer
th-place hero=aer location=guardian golden=true
th-place hero=rac location=mercenary-camp
roll die=d4 faces=[3]
th-place hero=lug location=thieves-guild target=rochon
roll die=d6 faces=[2]
th-place hero=norn location=cathedral mana=["norn","rac:vile-surge"] heal=rochon
th-place hero=edhel location=deceitful
"""


def test_turn_one_rewards():
    s = play(START, TURN1).state
    ann, bo = s.player("Ann"), s.player("Bo")
    assert ann.hand == ("warcraft",) and bo.hand == ("blind",)  # the (4,0) cards of turn 1
    assert (ann.gold, bo.gold) == (3 + 4 + 3, 3 + 4)  # Warmonger 4 + Mercenary d4 3; Guardian 4
    assert s.heroes["aer"].health == 8  # Warmonger quest: one damage
    assert s.heroes["rochon"].health == 9  # 3 from the Thieves' Guild (face 2), then healed at the Cathedral
    assert s.heroes["norn"].mana == ("whirlwind",) and s.heroes["rac"].mana == ("vile-surge",)
    assert s.alignment == {"warmonger": 0, "deceitful": 1, "vengeful": 0}
    assert (s.initiative, s.initiative_next) == ("Ann", "Bo")  # the Marker moves at the next turn


def test_placement_order_and_golden_slots_are_enforced():
    with pytest.raises(Refused, match="first hero each turn goes to a golden quest slot"):
        play(START, "th-place hero=rochon location=tavern")
    with pytest.raises(Refused, match="it is Bo's turn to place a hero"):
        play(START, "th-place hero=rochon location=warmonger golden=true target=aer",
             "th-place hero=rac location=tavern")
    with pytest.raises(Refused, match="golden slot of the warmonger quest is taken"):
        play(START, "th-place hero=rochon location=warmonger golden=true target=aer",
             "th-place hero=aer location=warmonger golden=true target=rochon")
    with pytest.raises(Refused, match="one golden slot per player"):
        play(START, "th-place hero=rochon location=warmonger golden=true target=aer",
             "th-place hero=aer location=guardian golden=true", "th-place hero=rac location=merciful golden=true")
    with pytest.raises(Refused, match="waiting for mercenary-d4"):
        play(START, "th-place hero=rochon location=warmonger golden=true target=aer",
             "th-place hero=aer location=guardian golden=true", "th-place hero=rac location=mercenary-camp",
             "th-place hero=lug location=tavern")


def test_sealed_bids_tie_discards_and_everyone_pays():
    """p.12: bids are revealed together; a tie discards the Artifact; all gold bid is paid."""
    ts = play(START, TURN1, "th-artifact artifact=artifact-sword", "th-bid player=Ann amount=2 hero=rochon")
    spec = GAME.view(ts.state, "spectator")["extra"]["players"]
    assert spec[0]["bid"] is True and GAME.view(ts.state, "control")["extra"]["players"][0]["bid"] == 2
    assert ts.log[-1].text == "Ann bids (sealed)"
    ts = play(START, TURN1, "th-artifact artifact=artifact-sword", "th-bid player=Ann amount=2 hero=rochon",
              "th-bid player=Bo amount=2 hero=lug")
    s = ts.state
    assert (s.player("Ann").gold, s.player("Bo").gold) == (8, 5)
    assert [p["bid"] for p in GAME.view(s, "spectator")["extra"]["players"]] == [2, 2]  # revealed together
    assert "artifact-sword" not in s.heroes["rochon"].items + s.heroes["lug"].items
    assert "tie at 2 gold" in ts.log[-1].text


def test_highest_bid_wins_and_equips():
    s = play(START, TURN1, "th-artifact artifact=artifact-sword", "th-bid player=Ann amount=4 hero=rochon",
             "th-bid player=Bo amount=1 hero=lug").state
    assert s.heroes["rochon"].items == ("artifact-sword",)
    assert (s.player("Ann").gold, s.player("Bo").gold) == (6, 6)


def test_turn_two_initiative_and_three_one_cards():
    s = play(START, TURN1, "th-next",
             "th-place hero=lug location=righteous golden=true",
             "th-place hero=rochon location=deceitful golden=true target=Bo").state
    assert s.initiative == "Bo" and s.prep_turn == 2
    assert s.player("Bo").hand == ("blind", "nova") and s.player("Ann").hand == ("warcraft", "vortex")
    assert (s.player("Ann").gold, s.player("Bo").gold) == (10 + 3, 7 + 3 - 3)
    assert s.alignment["deceitful"] == 1 + 1 - 1


def test_next_needs_every_hero_placed():
    with pytest.raises(Refused, match="still has heroes to place"):
        play(START, "th-place hero=rochon location=warmonger golden=true target=aer", "th-next")


def test_expansion_card_choice_errata():
    """Errata p.4: the first hero on the quest takes the basic or the expansion card; turn 1 Warmonger
    offers Warcraft or Incinerating Fury."""
    start = START.replace('"players"', '"expansion":true,"players"')
    s = play(start, "th-place hero=rochon location=warmonger golden=true target=aer power=incinerating-fury").state
    assert s.player("Ann").hand == ("incinerating-fury",)
    with pytest.raises(Refused, match="not offered"):
        play(start, "th-place hero=rochon location=warmonger golden=true target=aer power=force-sunder")


def test_six_turns_then_alignment_bonus_and_ranking():
    """Six turns with one Deceitful and one Guardian placement each: the tracks stop at +3/-3 (p.13:
    10, 20 or 30 gold), so Rac and Raug's alignment, Deceitful, pays Rac 30; Guardian leads its track
    but no Guardian hero's alignment is printed. The last hero at the Tavern takes the Marker, so the
    first placer alternates Ann, Bo, Ann ..."""
    turn = """
th-place hero={a} location=deceitful golden=true target=Bo
th-place hero=aer location=guardian golden=true
th-place hero=rac location=tavern
th-place hero=lug location=tavern
th-place hero=norn location=tavern
th-place hero=edhel location=tavern
th-next
"""
    texts = []
    for i in range(6):
        t = turn.format(a="rochon")
        if i % 2 == 1:  # Bo holds the Marker after a Guardian turn: Bo places first
            t = "\n".join([t.strip().splitlines()[1], t.strip().splitlines()[0]] + t.strip().splitlines()[2:])
            t = t.replace("hero=rac location=tavern\nth-place hero=lug", "hero=lug location=tavern\nth-place hero=rac") \
                 .replace("hero=norn location=tavern\nth-place hero=edhel", "hero=edhel location=tavern\nth-place hero=norn")
        texts.append(t)
    s = play(START, *texts).state
    assert s.phase == "ranking"
    assert s.alignment["deceitful"] == 3 and s.alignment["warmonger"] == -3
    assert s.heroes["rac"].gold == 30  # Deceitful: 3 steps x 10
    assert s.heroes["lug"].gold == 0  # Lug's alignment is not printed in the text: nothing until entered
    assert s.heroes["aer"].gold == 0 and s.heroes["rochon"].gold == 0


def test_mage_tower_ritual_stays_face_down_for_spectators():
    ts = play(START, """
th-place hero=rochon location=warmonger golden=true target=aer
th-place hero=aer location=guardian golden=true
th-place hero=rac location=mage-tower ritual=wall-of-fire ritual_turn=3
""")
    assert ts.log[-1].text == "Rac goes to the Mage Tower"
    spec = GAME.view(ts.state, "spectator")["extra"]["players"][0]["rituals"]
    ctrl = GAME.view(ts.state, "control")["extra"]["players"][0]["rituals"]
    assert spec == [{"turn": 3, "cast": False}]
    assert ctrl == [{"turn": 3, "cast": False, "ritual": "wall-of-fire"}]


# --- Fast Action Preparation (Game Modes) ---------------------------------------------------------------

FAST_ITEMS = {"relic-mail": {"name": "Relic mail", "kind": "armor", "artifact": True, "defense": 1},
              "relic-blade": {"name": "Relic blade", "kind": "weapon", "artifact": True, "attack": 1, "damage": 3},
              "sword": {"name": "Sword", "kind": "weapon", "damage": 2},
              "buckler": {"name": "Buckler", "kind": "shield"},
              "jerkin": {"name": "Jerkin", "kind": "armor"}}


def _fast_drafted(**kw):
    """Both players drafted their six Powers; no Mana gem yet."""
    import json
    from th_helpers import drafts
    opts = {"mode": "blitz", "fast": True, "players": ["Ann", "Bo"],
            "heroes": {"Ann": ["rochon", "norn"], "Bo": ["rac", "aer"]}, "items": FAST_ITEMS}
    return "\n".join(["start game=theosis options=" + json.dumps(opts),
                      drafts("Ann", ["fiery-purge", "fireball", "bloodthirst", "tactics", "pain-spike", "spell-ward"]),
                      drafts("Bo", ["warcraft", "nova", "confusion", "valor", "lifeswap", "frigid-night"])])


def test_leaving_fast_preparation_names_the_heroes_without_their_mana_gem():
    """Game Modes, Fast Action Preparation: 'each Hero receives one Mana crystal and inserts it into a
    skill slot of their choice'. th-next names the Heroes still without one in its log line; it is not
    refused, so a log recorded before this was checked (no th-gem lines) still replays past it, and
    the gem can be placed afterwards. With all four gems every Hero enters with mana 1."""
    ts = play(_fast_drafted())
    assert GAME.describe(ts.state, parse("th-next")) == (
        "Preparation is over; allocate gold; no Mana gem yet (each Hero receives one, Game Modes: "
        "th-gem hero=... skill=...): Rochon (rochon), Norn (norn), Rac (rac), Aer (aer)")
    ts = play(_fast_drafted(), "th-gem hero=rochon", "th-gem hero=norn", "th-gem hero=aer")
    assert GAME.describe(ts.state, parse("th-next")).endswith("skill=...): Rac (rac)")
    late = play(_fast_drafted(), "th-next", "th-gem hero=rac").state
    assert late.phase == "ranking" and len(late.heroes["rac"].mana) == 1
    s = play(_fast_drafted(), "th-gem hero=rochon", "th-gem hero=norn", "th-gem hero=rac skill=profane-armor",
             "th-gem hero=aer", "th-next").state
    assert GAME.describe(play(_fast_drafted(), "th-gem hero=rochon", "th-gem hero=norn", "th-gem hero=rac",
                              "th-gem hero=aer").state, parse("th-next")) == "Preparation is over; allocate gold"
    assert s.phase == "ranking"
    assert {h: len(x.mana) for h, x in s.heroes.items()} == {"rochon": 1, "norn": 1, "rac": 1, "aer": 1}
    assert s.heroes["rac"].mana == ("profane-armor",)


def test_fast_preparation_offers_one_artifact_per_hero_and_two_items_per_hero():
    """Game Modes, Fast Action Preparation: 'one random Artifact per Hero (up to a maximum of six)' and
    'two random items per Hero': with four Heroes a fifth Artifact or a ninth item is refused."""
    heroes = ("rochon", "norn", "rac", "aer")
    arts = [f"th-equip hero={h} item=relic-mail" for h in heroes]
    s = play(_fast_drafted(), *arts).state
    assert [s.heroes[h].items for h in heroes] == [("relic-mail",)] * 4
    with pytest.raises(Refused) as info:
        play(_fast_drafted(), *arts, "th-equip hero=rochon item=relic-blade")
    assert info.value.reason == ("the Artifact offer holds one Artifact per Hero, at most six (4 here): "
                                 "Relic blade would be Artifact 5 (Fast Action Preparation)")
    items = [f"th-equip hero={h} item={i}" for h in heroes for i in ("sword", "buckler")]
    s = play(_fast_drafted(), *items).state
    assert sum(len(x.items) for x in s.heroes.values()) == 8
    with pytest.raises(Refused) as info:
        play(_fast_drafted(), *items, "th-equip hero=rochon item=jerkin")
    assert info.value.reason == ("the item offer holds two items per Hero (8 here): Jerkin would be item 9 "
                                 "(Fast Action Preparation)")
    # swapping a carried item for another keeps the count
    s = play(_fast_drafted(), *items, "th-equip hero=rochon item=jerkin drop=buckler").state
    assert s.heroes["rochon"].items == ("sword", "jerkin")


def test_a_fast_game_recorded_without_gems_still_replays_to_its_end():
    """A review of the gem check: the event log is the source of truth, and logs recorded before the
    gem was checked hold no th-gem lines. Refusing their th-next stopped the replay at the
    Preparation (phase "fast", turn 0); the game must still replay to its end."""
    from pathlib import Path

    from arena_table.rules import replay

    lines = [ln for ln in (Path(__file__).parent / "golden" / "blitz-2p.txt").read_text().splitlines()
             if ln.strip() and not ln.startswith("#") and not ln.startswith("th-gem")]
    ts = replay([(i + 1, parse(ln)) for i, ln in enumerate(lines)], "dice-tray", {})
    assert (ts.game, ts.state.phase, ts.state.turn) == ("theosis", "over", 9)
