"""The campaign quests' numbers (section 5): Gods of the Arena (Quests I, II, IV, V) and Lords of
Endless Pain (the Survival Quests III and VI), pure bookkeeping beside the table.

Per quest: its ACT, Venture card, standalone starting values (Soul Points per Hero, Crowns,
Treasures), the Event deck's stack order (groups shuffled within, stacked in order), the Shadows
Reserve by Heroes and the Quest-fail condition. For the Survival Quests: the three Waves' Enemy
decks by number of Heroes, the end of a Wave ("no Enemies in play AND the Enemy deck is empty"),
the Story Event it brings at the next Event Phase, the Hero-Turn spawn roll and the Event Phases
(each card discarded after resolution; Day and Night stay in play and reshuffle the deck).
The Book of Secrets' paragraphs are not in the text, so Gods of the Arena stops at these numbers.

>>> wave_deck(3, 1, heroes=4)
{'green': 7, 'red': 1}
>>> s = start_survival(3, heroes=2)
>>> s = kill(spawn(s, 5), 5)
>>> wave_over(s), s.deck
(True, 0)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .dice import count


@dataclass(frozen=True)
class CampaignQuest:
    number: int
    title: str
    mode: str
    """``gods`` (Gods of the Arena) or ``survival`` (Lords of Endless Pain)."""
    act: int
    venture: str
    soul_points_per_hero: int
    crowns: int
    treasures: str
    events: tuple[tuple[str, ...], ...]
    """The Event deck: groups in stack order, each shuffled on its own."""
    shadows: dict
    """Shadows Reserve: ``"2-3"``/``"4-5"`` Heroes -> counts by kind."""
    fail_on_last_event: bool = True
    """"The Quest fails if the last Event card is discarded OR all Heroes are Ghost Souls"; the
    Survival Quests fail only when all Heroes are Ghost Souls."""
    final_red: str = ""
    """The Red Enemy that joins Wave III (Survival)."""


SURVIVAL_EVENTS = (("8", "9"), ("7", "11"), ("6", "19"), ("13", "17"), ("4", "5"))
QUESTS: dict[int, CampaignQuest] = {
    1: CampaignQuest(1, "Another Glorious Day in the Arena", "gods", 1, "IV", 9, 125, "3",
                     (("18", "19"), ("4", "7"), ("8", "10", "17"), ("15", "20")),
                     {"2-3": {"citizen": 1, "enemy": 1, "2 enemies": 1, "champion": 1},
                      "4-5": {"citizen": 1, "enemy": 2, "2 enemies": 1, "champion": 3}}),
    2: CampaignQuest(2, "In the Wolf's Den", "gods", 1, "V", 15, 250, "6",
                     (("5",), ("14",), ("19", "20"), ("S2",), ("12",), ("S1",), ("10", "15")), {}),
    3: CampaignQuest(3, "Survival Prologue", "survival", 1, "VI", 32, 375, "9", SURVIVAL_EVENTS,
                     {"2-3": {"enemy": 1, "2 enemies": 1, "champion": 1}, "4-5": {"enemy": 2, "2 enemies": 1, "champion": 2}},
                     fail_on_last_event=False, final_red="Nemean Lion"),
    4: CampaignQuest(4, "Lupus Mutat Pilum, Non Mentem", "gods", 2, "VII", 44, 500, "13",
                     (("S1",), ("4", "8"), ("10",), ("S2",), ("12",), ("5", "18"), ("6", "19")),
                     {"2-3": {"enemy": 1, "2 enemies": 1, "champion": 1}, "4-5": {"enemy": 2, "2 enemies": 1, "champion": 2}}),
    5: CampaignQuest(5, "Kings of the Arena", "gods", 2, "VIII", 75, 600, "19 + 1 Soul Weapon",
                     (("5", "19"), ("6",), ("14",), ("S1",), ("4",), ("15", "17")),
                     {"2-3": {"2 enemies": 1, "champion": 0}, "4-5": {"2 enemies": 1, "champion": 1}}),
    6: CampaignQuest(6, "Survival Epilogue", "survival", 2, "IX", 90, 900, "20 + 2 Soul Weapons", SURVIVAL_EVENTS,
                     {"2-3": {"enemy": 2, "2 enemies": 1, "champion": 2}, "4-5": {"enemy": 2, "2 enemies": 2, "champion": 3}},
                     fail_on_last_event=False, final_red="Cerberus"),
}
"""The six campaign quests as printed (Quest II prints no Shadows Reserve)."""

WAVES = {
    1: {"green": (4, 5, 7, 8), "red": (1, 1, 1, 1)},
    2: {"blue": (4, 5, 7, 8), "red": (1, 1, 2, 2)},
    3: {"green": (2, 3, 5, 6), "blue": (2, 3, 5, 6), "final": (1, 1, 1, 1)},
}
"""Enemy cards each Wave takes by 2-3-4-5 Heroes (Wave I, Story Events 1 and 2); ``final`` is the
quest's Red Nemean Lion or Cerberus."""


def starting_values(quest: int, heroes: int) -> dict:
    """A standalone quest's starting values: Soul Points (per Hero x Heroes), Crowns, Treasures."""
    q = QUESTS[quest]
    return {"soul_points": q.soul_points_per_hero * heroes, "crowns": q.crowns, "treasures": q.treasures}


def shadows(quest: int, heroes: int) -> dict:
    """The Shadows Reserve for ``heroes`` (2-5) Heroes."""
    return dict(QUESTS[quest].shadows.get("2-3" if heroes <= 3 else "4-5", {}))


def wave_deck(quest: int, wave: int, heroes: int) -> dict[str, int]:
    """Enemy cards of Wave ``wave`` for 2-5 Heroes.

    Raises:
        ValueError: not a Survival Quest, no such Wave, or Heroes outside 2-5.
    """
    if QUESTS[quest].mode != "survival" or wave not in WAVES or not 2 <= heroes <= 5:
        raise ValueError(f"Survival Quests III and VI have Waves 1-3 for 2-5 Heroes (quest {quest}, wave {wave}, "
                         f"{heroes} Heroes)")
    return {k: v[heroes - 2] for k, v in WAVES[wave].items()}


@dataclass(frozen=True)
class Survival:
    """A Lords of Endless Pain quest's Wave bookkeeping."""

    quest: int
    heroes: int
    wave: int = 1
    deck: int = 0
    """Enemy cards left in this Wave's deck."""
    in_play: int = 0
    discard: int = 0
    kept: tuple[int, ...] = ()
    """Each cleared Wave's Enemy discard pile, kept aside ("Wave I Enemy discard pile")."""
    story_due: int = 0
    """The Story Event (1-3) the next Event Phase brings in place of a standard Event."""
    done: bool = False


def start_survival(quest: int, heroes: int) -> Survival:
    return Survival(quest, heroes, deck=sum(wave_deck(quest, 1, heroes).values()))


def spawn(s: Survival, n: int = 1) -> Survival:
    """``n`` Enemies spawn from the deck; "further Enemy spawns are ignored once the Enemy deck is empty"."""
    n = min(n, s.deck)
    return dataclasses.replace(s, deck=s.deck - n, in_play=s.in_play + n)


def kill(s: Survival, n: int = 1) -> Survival:
    """``n`` Enemies in play are killed (to the discard pile, never reshuffled); a cleared Wave
    makes its Story Event due at the next Event Phase."""
    if n > s.in_play:
        raise ValueError(f"only {s.in_play} Enemies are in play")
    s = dataclasses.replace(s, in_play=s.in_play - n, discard=s.discard + n)
    if wave_over(s) and not s.story_due:
        s = dataclasses.replace(s, story_due=s.wave)
    return s


def wave_over(s: Survival) -> bool:
    """"Each Wave ends if there are no Enemies in play AND the Enemy deck is empty"."""
    return s.in_play == 0 and s.deck == 0


def story_event(s: Survival) -> Survival:
    """The Event Phase brings the due Story Event: the next Wave's deck (its discard pile kept aside),
    or, after Wave III, the quest's end."""
    if not s.story_due:
        raise ValueError("no Story Event is due: the Wave is not cleared")
    if s.wave == 3:
        return dataclasses.replace(s, story_due=0, done=True, kept=s.kept + (s.discard,), discard=0)
    nxt = s.wave + 1
    return dataclasses.replace(s, wave=nxt, deck=sum(wave_deck(s.quest, nxt, s.heroes).values()), story_due=0,
                               kept=s.kept + (s.discard,), discard=0)


def hero_turn_spawns(face: str) -> int:
    """Spawns at the end of a Hero Turn: 1 Enemy per spawn icon on the die rolled (a Blue Die for
    NOVICE, a Red Die for VETERAN)."""
    return count((face,), "spawn")


def red_gremlin(faces: tuple[str, ...], in_play: bool) -> bool:
    """Three creature icons in a single roll spawn the Red Gremlin, unless it is in play already."""
    return count(faces, "creature") >= 3 and not in_play


def event_phase(deck: tuple[str, ...], discard: tuple[str, ...], in_play: tuple[str, ...]) -> tuple:
    """A Survival Event Phase: the top card is drawn and resolved, then discarded, except Day
    (Event 4) and Night (Event 5), which stay in play and shuffle the deck with its discard pile
    (including the other of the two, if in play). Returns ``(card, deck, discard, in_play,
    reshuffle)``; ``reshuffle`` says the deck is now ``deck + discard`` to be shuffled (chance stays
    at the table: the next draw comes as an event)."""
    if not deck:
        raise ValueError("the Event deck is empty")
    card, deck = deck[0], deck[1:]
    if card in ("4", "5"):
        other = "5" if card == "4" else "4"
        back = tuple(c for c in in_play if c == other)
        return card, deck + discard + back, (), tuple(c for c in in_play if c != other) + (card,), True
    return card, deck, discard + (card,), in_play, False


def quest_failed(quest: int, *, all_ghosts: bool, last_event_discarded: bool = False) -> bool:
    """The Quest fails when every Hero is a Ghost Soul, or (Gods of the Arena) the last Event card
    is discarded."""
    return all_ghosts or (QUESTS[quest].fail_on_last_event and last_event_discarded)


def cerberus_enters(flames: tuple[str, ...], area: str, blessed: bool) -> tuple[tuple[str, ...], bool]:
    """Cerberus moving into an Infernal Flame's area (4.6): it obtains the Infernal Blessing Quest card
    "(if it does not have it already) by discarding the Infernal Flame token". Returns the Flames left
    and whether it now has the Blessing (which it loses at the end of its next Enemy Turn)."""
    if area in flames and not blessed:
        left = list(flames)
        left.remove(area)
        return tuple(left), True
    return flames, blessed
