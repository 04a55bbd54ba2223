"""The campaign quests' numbers (section 5): starting values, Shadows, Survival Waves, Event
Phases and Quest-fail conditions, hand-computed from the Quest pages."""

import pytest

from arena_table.rules.games.sword_and_sorcery import campaign as c


def test_standalone_values_scale_soul_points_by_heroes():
    assert c.starting_values(1, 4) == {"soul_points": 36, "crowns": 125, "treasures": "3"}
    assert c.starting_values(6, 3) == {"soul_points": 270, "crowns": 900, "treasures": "20 + 2 Soul Weapons"}
    assert c.shadows(1, 5) == {"citizen": 1, "enemy": 2, "2 enemies": 1, "champion": 3}
    assert c.shadows(5, 2) == {"2 enemies": 1, "champion": 0}


def test_survival_waves_take_cards_by_heroes():
    assert c.wave_deck(3, 1, 2) == {"green": 4, "red": 1}
    assert c.wave_deck(6, 2, 5) == {"blue": 8, "red": 2}
    assert c.wave_deck(3, 3, 3) == {"green": 3, "blue": 3, "final": 1}
    assert c.QUESTS[3].final_red == "Nemean Lion" and c.QUESTS[6].final_red == "Cerberus"
    with pytest.raises(ValueError):
        c.wave_deck(1, 1, 3)  # Gods of the Arena has no Waves


def test_a_survival_quest_runs_its_three_waves():
    s = c.start_survival(3, heroes=3)             # Wave I: 5 green + 1 red
    assert s.deck == 6
    s = c.spawn(s, 4)
    s = c.kill(s, 4)
    assert not c.wave_over(s) and s.story_due == 0
    s = c.spawn(s, 5)                              # only 2 left: the others are ignored
    assert (s.deck, s.in_play) == (0, 2)
    s = c.kill(s, 2)
    assert c.wave_over(s) and s.story_due == 1
    s = c.story_event(s)                           # Story Event 1: Wave II, 5 blue + 1 red
    assert (s.wave, s.deck, s.kept) == (2, 6, (6,))
    s = c.story_event(c.kill(c.spawn(s, 6), 6))
    assert (s.wave, s.deck) == (3, 7)              # 3 green + 3 blue + the Nemean Lion
    s = c.story_event(c.kill(c.spawn(s, 7), 7))
    assert s.done and s.kept == (6, 6, 7)
    with pytest.raises(ValueError, match="no Story Event is due"):
        c.story_event(c.start_survival(3, 2))


def test_survival_event_phases_discard_and_day_night_reshuffle():
    card, deck, discard, in_play, reshuffle = c.event_phase(("9", "8", "4"), (), ())
    assert (card, discard, reshuffle) == ("9", ("9",), False)
    card, deck, discard, in_play, reshuffle = c.event_phase(("4", "7"), ("9", "8"), ("5",))
    assert card == "4" and in_play == ("4",) and reshuffle and sorted(deck) == ["5", "7", "8", "9"] and discard == ()


def test_spawn_rolls_and_the_red_gremlin():
    assert c.hero_turn_spawns("spawn") == 1 and c.hero_turn_spawns("shield") == 0
    assert c.red_gremlin(("creature", "creature", "creature+hit"), in_play=False)
    assert not c.red_gremlin(("creature", "creature", "creature"), in_play=True)


def test_quest_fail_conditions():
    assert c.quest_failed(1, all_ghosts=False, last_event_discarded=True)
    assert not c.quest_failed(3, all_ghosts=False, last_event_discarded=True)  # Survival: only Ghost Souls
    assert c.quest_failed(6, all_ghosts=True)


def test_cerberus_takes_the_infernal_blessing_from_a_flame_once():
    flames, blessed = c.cerberus_enters(("c3", "d4"), "c3", blessed=False)
    assert (flames, blessed) == (("d4",), True)
    assert c.cerberus_enters(flames, "d4", blessed=True) == (("d4",), True)  # already blessed: the Flame stays
