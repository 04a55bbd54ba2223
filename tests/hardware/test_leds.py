"""The lights as a pure projection of each game's view: seats, the status LED, the cues."""

from pathlib import Path

import pytest

from arena_table.hardware.leds import (MAX_SEATS, STATUS_COLOURS, Cue, LedConfig, find_cue, render_leds, seat_lights,
                                       seat_names, table_status)
from arena_table.rules import DiceRolled, GameStarted, apply, new_table, parse, replay, table_view

GOLDEN = Path(__file__).parents[1] / "rules"
CFG = LedConfig()


def views(path: Path, upto: int | None = None):
    """``(seq, view)`` after each event of a golden transcript (one event a line, ``#`` comments)."""
    ts, seq = new_table(), 0
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        seq += 1
        ts = apply(ts, parse(line), seq)
        yield seq, table_view(ts)
        if upto and seq >= upto:
            return


def at(path: Path, seq: int) -> dict:
    return next(v for s, v in views(path, seq) if s == seq)


BLITZ = GOLDEN / "theosis" / "golden" / "blitz-2p.txt"
TACTICS = GOLDEN / "demigods" / "golden" / "tactics.txt"
FELLOWSHIP = GOLDEN / "euthia" / "golden" / "fellowship-3p.txt"
SHADOWBEAST = GOLDEN / "euthia" / "golden" / "fire-shadowbeast.txt"
FIRST_BLOOD = GOLDEN / "sword_and_sorcery" / "golden" / "pvp2-first-blood.txt"


# -- seats ---------------------------------------------------------------------------------------------
def test_theosis_combat_lights_the_acting_hero_and_blinks_the_next():
    # event 24: gold allocated, Hero Ranking 1. Rochon (Ann), 2. Rac (Bo): Rochon acts, Rac is next
    assert render_leds(at(BLITZ, 24), CFG, seats=["Ann", "Bo"]).seats == ("on", "blink", "off", "off", "off", "off")
    # event 30: Norn has attacked; Rac (Bo) acts and Aer (Bo) follows: Bo's seat lit, not blinking
    assert seat_lights(at(BLITZ, 30), ["Ann", "Bo"]) == ("off", "on")


def test_theosis_preparation_lights_the_player_who_must_act():
    # event 22: Preparation over, Bo allocates gold first (no hero acts: acting_side)
    assert seat_lights(at(BLITZ, 22), ["Ann", "Bo"]) == ("off", "on")


def test_demigods_lights_the_activation_order():
    # event 16: the Demigod dice 2 vs 3 give Bo's Protector the first activation, Ann's Warlord next
    assert seat_lights(at(TACTICS, 16), ["Ann", "Bo"]) == ("blink", "on")
    # event 15: the round has begun and nobody has rolled: Ann's Warlord heads the order
    assert seat_lights(at(TACTICS, 15), ["Ann", "Bo"]) == ("blink", "off")


def test_euthia_lights_the_hero_under_attack_or_rolling():
    """Fellowship: heroes Ael (Ann), Dral (Bo), Maeldur (Cy); the view lists no sides, so the seats
    are the order's sides as first seen."""
    seats = seat_names(at(FELLOWSHIP, 6))
    assert seats == ["Ann", "Bo", "Cy"]
    assert seat_lights(at(FELLOWSHIP, 6), seats) == ("off", "on", "off")  # the Gecko attacks Dral
    assert seat_lights(at(FELLOWSHIP, 11), seats) == ("on", "off", "off")  # the Goblin Archer attacks Ael
    assert seat_lights(at(FELLOWSHIP, 10), seats) == ("off", "off", "off")  # between attacks nobody acts


def test_sword_and_sorcery_lights_the_team_that_activates():
    """PvP 2 "First Blood": teams purple and red (setup order); the Tiebreaker puts red first."""
    seats = seat_names(at(FIRST_BLOOD, 15))
    assert seats == ["purple", "red"]
    assert seat_lights(at(FIRST_BLOOD, 15), seats) == ("off", "on")  # red activates a Hero
    assert seat_lights(at(FIRST_BLOOD, 16), seats) == ("off", "on")  # Thorgren's Hero Turn
    assert seat_lights(at(FIRST_BLOOD, 18), seats) == ("on", "off")  # then purple
    assert table_status(at(FIRST_BLOOD, 3)) == "waiting"  # "purple, red roll 4 red dice"
    assert table_status(at(FIRST_BLOOD, 24)) == "waiting"  # "Artemis: roll 2 red and 1 blue dice (HIT)"
    assert cues(FIRST_BLOOD) == {27: "kill"}  # "Artemis attacks Shae: Shae 3 → 0 (Ghost Soul)"


def test_outcome_lights_the_winners_only():
    last = list(views(BLITZ))[-1][1]
    assert last["outcome"]["winners"] == ["Ann"]
    assert seat_lights(last, ["Ann", "Bo"]) == ("on", "off")


def test_dice_tray_has_no_seats_to_light():
    ts = replay([DiceRolled(faces=(3, 5))])
    frame = render_leds(table_view(ts), LedConfig(seat_pins=(17, 27)), seats=[])
    assert frame.seats == ("off", "off")


def test_seats_follow_setup_order_and_keep_a_player_in_place():
    assert seat_names(at(TACTICS, 16)) == ["Ann", "Bo"]  # sides: setup order, though Bo acts first
    order_only = {"view": {"order": [{"side": "Bo"}, {"side": "Ann"}]}}
    assert seat_names(order_only, seen=["Ann"]) == ["Ann", "Bo"]
    assert seat_names(order_only, configured=["Cy", "Ann", "Bo"]) == ["Cy", "Ann", "Bo"]


def test_seats_beyond_the_wired_leds_are_not_shown():
    v = {"view": {"acting_side": "F", "order": []}}
    six = ["A", "B", "C", "D", "E", "F", "G"][:MAX_SEATS]
    assert render_leds(v, LedConfig(seat_pins=(17, 27, 22)), seats=six).seats == ("off", "off", "off")
    assert render_leds(v, CFG, seats=six).seats[-1] == "on"


# -- status LED ----------------------------------------------------------------------------------------
def test_status_waits_for_a_roll_the_rules_ask_for():
    assert (at(TACTICS, 24)["view"]["prompt"], table_status(at(TACTICS, 24))) == ("Roll bludgeoning", "waiting")
    assert table_status(at(TACTICS, 15)) == "waiting"  # "Roll the Demigod dice: Ann, Bo"
    # "may re-roll 1 die or resolve" is a choice, not a roll asked for; the roll was just taken
    assert table_status(at(TACTICS, 27)) == "accepted"


def test_euthia_asks_for_rolls_and_re_rolls():
    assert table_status(at(FELLOWSHIP, 6)) == "waiting"  # "roll the two Monster dice and the Combat die"
    assert table_status(at(FELLOWSHIP, 8)) == "waiting"  # "re-roll Monster die 1 (3): ..." (Gaar re-roll)
    assert table_status(at(FELLOWSHIP, 16)) == "accepted"  # the Hero dice read; "enter the Damage dealt"
    assert table_status(at(FELLOWSHIP, 17)) == "ready"


def test_status_after_a_roll_is_accepted_then_ready():
    assert table_status(at(TACTICS, 16)) == "accepted"  # the Demigod dice were read
    assert table_status(at(TACTICS, 17)) == "ready"  # Protector enters: nothing asked


def test_status_waits_while_the_dice_settle_and_faults_on_a_failing_device():
    v = at(BLITZ, 24)
    assert table_status(v, {"camera": {"state": "ok", "settle": "moving"}}) == "waiting"
    assert table_status(v, {"camera": {"state": "ok", "settle": "idle"}}) == "ready"
    assert table_status(v, {"camera": {"state": "ok"}, "tokens": {"state": "down"}}) == "fault"
    assert table_status(v, {"camera": {"state": "failed", "settle": "moving"}}) == "fault"


def test_status_colour_is_scaled_by_the_configured_brightness():
    dim = LedConfig(status_brightness=0.25)
    assert render_leds(at(BLITZ, 24), dim).status_colour == (0.0, 0.25, 0.0)
    assert render_leds(at(TACTICS, 24), dim).status_colour == (0.25, 0.125, 0.0)  # amber
    assert set(STATUS_COLOURS) == {"ready", "waiting", "accepted", "fault"}


# -- cues ----------------------------------------------------------------------------------------------
def cues(path: Path) -> dict[int, str]:
    found, before = {}, None
    for seq, v in views(path):
        cue = find_cue(before, v)
        if cue:
            assert cue.seq == seq
            found[seq] = cue.kind
        before = v
    return found


def test_demigods_cues_kills_and_criticals():
    found = cues(TACTICS)
    assert found[25] == "critical"  # "6 + 4 Critical": the bludgeoning die's 3
    assert found[35] == "kill"  # Trapper's resolved attack: Black Wolf out
    assert found[38] == "kill"  # High Elder's arcane die: Assassin out
    assert 28 not in found  # dg-resolve is no roll: the Critical sounded with the die (27)
    assert found[27] == "critical"


def test_theosis_cues_the_last_turn_and_the_kills():
    found = cues(BLITZ)
    last = [s for s, k in found.items() if k == "last-turn"]
    assert len(last) == 1 and at(BLITZ, last[0])["view"]["round"] == 9 == at(BLITZ, last[0])["view"]["round_max"]
    kills = [s for s, k in found.items() if k == "kill"]
    assert len(kills) == 2  # Rac, then Aer (the game ends with Bo's two heroes out)
    assert "critical" not in found.values()  # Theosis has no Critical


def test_euthia_cues_monsters_defeated_and_a_hero_who_dies():
    found = cues(FELLOWSHIP)
    assert found == {17: "kill", 27: "kill", 30: "kill"}  # the Gecko, the Goblin Archer; Maeldur dies
    assert cues(SHADOWBEAST) == {25: "kill"}  # "Shadowbeast: Damage 4 → 8 of 8 — defeated"


def test_the_last_fellowship_round_is_cued():
    before = {"seq": 40, "view": {"round": 19, "round_max": 20}}
    assert find_cue(before, {"seq": 41, "view": {"round": 20, "round_max": 20}}) == Cue("last-turn", 41)
    assert find_cue(before, {"seq": 41, "view": {"round": 19, "round_max": 20}}) is None


def test_a_refused_move_is_cued_and_nothing_else_is_on_the_first_view():
    v = at(BLITZ, 24)
    assert find_cue(None, v) is None
    assert find_cue(v, v, rejected=31) == Cue("rejected", 31)
    assert find_cue(v, v) is None


def test_a_new_game_is_no_kill():
    before = at(BLITZ, 61)
    after = table_view(apply(replay([]), GameStarted(game="dice-tray"), 70))
    assert find_cue(before, after) is None


def test_frame_carries_the_cue():
    frame = render_leds(at(BLITZ, 24), CFG, seats=["Ann", "Bo"], cue=Cue("kill", 24))
    assert frame.cue == Cue("kill", 24)


# -- configuration -------------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, words", [
    ({"seat_pins": (17, "27")}, "LED pin '27'"),
    ({"seat_pins": (17, 17)}, "used twice"),
    ({"seat_pins": tuple(range(2, 9))}, "at most 6 seats"),
    ({"buzzer_pin": 40}, "LED pin 40"),
    ({"status_brightness": 1.5}, "status_brightness 1.5"),
    ({"blink_on": 0}, "blink_on 0"),
])
def test_a_bad_wiring_is_named(kwargs, words):
    with pytest.raises(ValueError, match=words):
        LedConfig(**kwargs)
