"""The state of a Clash of the Heroes game: frozen dataclasses, JSON-serialisable.

Phases (6.2-6.5): ``preparation`` (Site Sheet building visits), ``claim`` (Shrine claims),
``deploy`` (alternating placement), each Round's ``time``, ``battle`` and ``event``, ``over``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from .tiebreak import Tiebreak


@dataclass(frozen=True)
class Weapon:
    """An equipped weapon's attack (hero and weapon stats are not in this book: config)."""

    red: int = 0
    blue: int = 1
    """Dice rolled in the HIT stage; a Hero without equipped Weapons rolls 1 Blue Die (HIT Stage)."""
    ranged: bool = False
    lethal: bool = False
    """Every hit of this weapon is Lethal."""
    critical: tuple[str, ...] = ()
    """Effects of each Critical icon rolled: condition names (``bleed1``, ``stun``...), ``hit``
    (+1 hit) or ``lethal`` (+1 Lethal hit); applied before the DEF stage."""


@dataclass(frozen=True)
class Hero:
    """A Hero (or Companion) figure of a Team."""

    id: str
    name: str
    team: str
    hp_max: int
    hp: int
    armor: int
    """Armor value before Break tokens."""
    defense: int
    """Most Blue Dice the Hero may roll in the DEF stage."""
    soulrank: int
    weapons: tuple[tuple[str, Weapon], ...] = ()
    area: str | None = None
    ghost: bool = False
    """In Ghost Soul Form (dead); keeps Soulrank and Items in PvP (6.5)."""
    ko: bool = False
    health: int = 0
    """Health Condition pyramid: 0 none, 1 Slowed, 2 Blinded, 3 Stunned."""
    health_since: int = 0
    """Number of the Hero Turn in which the Health Condition was gained (reading ``health_discard``)."""
    bleed: int = 0
    poison: int = 0
    fire: tuple[int, ...] = ()
    """Fire tokens, each Rank I or II; they stack (Body Conditions, Fire)."""
    afflicted_by: str = ""
    """The Hero who last inflicted Fire, Poison or Bleed on this one (reading ``hazard_kill_coins``)."""
    breaks: int = 0
    """Break tokens: each reduces the Armor value by 1 for good."""
    magic_shields: int = 0
    flying: bool = False
    resist: tuple[str, ...] = ()
    """Condition families the Character resists (``fire``, ``bleed``, ``poison``, ``slowed``...): DEF
    stage step 1 "Check for Resistances & Weaknesses"; the base game's card texts are not in this
    book (*to enter*), so a Resistance here ignores Conditions of its family and Weaknesses are
    left to the table (``bonus``/``reduce`` of the attack)."""
    companion_of: str = ""
    """The Hero a Companion belongs to ("" for a Hero)."""
    kill_coins: int = 0
    powers: tuple[tuple[str, int], ...] = ()
    """Powers used and not ready again: ``(name, quarter turns left)``; ``-1``: flipped, back at
    the next Time Phase's Powers Refresh (the refresh icon)."""
    items: tuple[str, ...] = ()
    activated: bool = False
    """Bookmark: activated in this Battle Phase."""

    @property
    def armor_now(self) -> int:
        """Armor after Breaks; 0 when K.O. (Body Conditions, K.O.)."""
        return 0 if self.ko else max(0, self.armor - self.breaks)

    @property
    def counts(self) -> bool:
        """Counts as a figure for control and domination: not K.O. (count 0), not a Ghost Soul."""
        return self.area is not None and not self.ko and not self.ghost

    def weapon(self, name: str) -> Weapon:
        """The equipped weapon ``name``, or the bare-handed 1 Blue Die when ``name`` is empty.

        Raises:
            KeyError: no such equipped weapon.
        """
        if not name:
            return Weapon()
        for n, w in self.weapons:
            if n == name:
                return w
        raise KeyError(f"{self.name} has no equipped weapon {name!r}"
                       f" (equipped: {', '.join(n for n, _ in self.weapons) or 'none'})")


@dataclass(frozen=True)
class Team:
    """A Team (Party) of Heroes."""

    name: str
    resurrections: int
    """Resurrection tokens left (-1: unlimited)."""
    crowns: int
    shrine: str = ""
    """The Shrine area claimed in deployment (6.4)."""
    allies: tuple[str, ...] = ()
    """Allied Team (PvP I Alliances with four Teams)."""
    building: str = ""
    """Building chosen in the current Preparation run."""


@dataclass(frozen=True)
class Pitfall:
    """A Pitfall overlay on a Location (4.2)."""

    number: int
    area: str
    open: bool = True
    blade: int = 0
    """Pitfalls IX and X: index of the Blade's area in the Location's ring (clockwise)."""


@dataclass(frozen=True)
class Board:
    """The arena's areas and what lies on them (4.1-4.6)."""

    adjacent: tuple[tuple[str, tuple[str, ...]], ...]
    shrines: tuple[str, ...]
    open_shrines: tuple[str, ...]
    locations: tuple[tuple[str, str], ...]
    """Pitfall Locations A-E -> area."""
    rings: tuple[tuple[str, tuple[str, ...]], ...]
    """Location area -> its four surrounding areas clockwise (where a Blade turns)."""
    gates: tuple[tuple[int, str], ...] = ()
    """Spawn Gate number -> area."""
    pitfalls: tuple[Pitfall, ...] = ()
    traps: tuple[str, ...] = ()
    lava: tuple[tuple[str, bool], ...] = ()
    """Lava tokens: area -> active."""
    flames: tuple[str, ...] = ()
    difficult: tuple[str, ...] = ()
    deadly: tuple[str, ...] = ()

    def neighbours(self, area: str) -> tuple[str, ...]:
        return dict(self.adjacent).get(area, ())

    def has(self, area: str) -> bool:
        return area in dict(self.adjacent)


@dataclass(frozen=True)
class Combat:
    """An attack in progress: HIT dice awaited, then DEF dice per defender (Combat System)."""

    attacker: str
    targets: tuple[str, ...]
    """Defenders in order (the primary target first, then AoE targets)."""
    weapon: str
    kind: str = "attack"
    """``attack`` (an Activity), ``reaction`` (Evade) or ``power`` (an out-of-turn power, e.g. Guard)."""
    bonus: tuple[tuple[str, int], ...] = ()
    reduce: tuple[tuple[str, int], ...] = ()
    effects: tuple[str, ...] = ()
    bash: tuple[str, ...] = ()
    breaks: int = 0
    drain: int = 0
    lethal: int = 0
    red: tuple[str, ...] = ()
    blue: tuple[str, ...] = ()
    rerolled: tuple[str, ...] = ()
    """Dice already rerolled, ``red:0`` / ``blue:2`` / ``def:1`` (each at most once)."""
    defense: tuple[tuple[str, tuple[str, ...], tuple[tuple[str, int], ...]], ...] = ()
    """DEF dice rolled so far: ``(defender, faces, extra shields by source)``; the hits each defender
    faces are computed from the dice (:func:`.play.plan`), never stored."""


@dataclass(frozen=True)
class Evade:
    """A Hero leaving an area it does not dominate: reaction attacks come first (6.5)."""

    hero: str
    to: str
    reactors: tuple[str, ...]
    """Opponents still to make their Reaction Attack (listing order)."""
    team_order: tuple[str, ...] = ()
    """Reacting Teams in Tiebreaker order (when more than one Team reacts)."""


@dataclass(frozen=True)
class Turn:
    """The Hero Turn under way (Rules Reference, Hero Turn)."""

    hero: str
    activities: int = 0
    moving: bool = False
    """A Movement Activity is under way (it cannot be split by Combat)."""
    moved: bool = False
    fought_since_move: bool = False
    dashed: bool = False
    focused: bool = False
    """Focus was used this Hero Turn (once per Round)."""
    focus: bool = False
    """A Focus waits to add +1 to the next attack."""


@dataclass(frozen=True)
class Line:
    """The last combat's arithmetic, for the view."""

    title: str
    lines: tuple[str, ...]
    result: str


@dataclass(frozen=True)
class SnsState:
    """A Clash of the Heroes game."""

    quest: Any
    """The checked :class:`.quests.Quest`."""
    options: Any
    """The checked :class:`.readings.Readings` (the ambiguities' options)."""
    teams: tuple[Team, ...]
    heroes: tuple[tuple[str, Hero], ...]
    board: Board
    phase: str = "preparation"
    """The phase of :data:`.flow.FLOW`: ``preparation``, ``claim``, ``deploy``, then each Round's
    ``time``, ``battle`` and ``event``, and ``over``."""
    round: int = 0
    ready: bool = False
    """Every Team agreed to conclude the Preparation (6.3)."""
    battle_called: bool = False
    """The table ended the Time Phase (``sns-battle``)."""
    day: bool = True
    """Which Day/Night card is in play (when the cycle is enabled): Day (Event 4) in Round 1."""
    order: tuple[str, ...] = ()
    """Teams in this Battle Phase's (or the deployment's) order, First first."""
    medals: tuple[tuple[str, int], ...] = ()
    next_team: int = 0
    """Index into ``order`` of the Team to play next."""
    tiebreak: Tiebreak | None = None
    tiebreaks: tuple[Tiebreak, ...] = ()
    """Finished procedures this game, oldest first."""
    turn: Turn | None = None
    combat: Combat | None = None
    evade: Evade | None = None
    saves: tuple[tuple[str, str], ...] = ()
    """Saves awaited: ``(hero, why)`` (Trap, Poison)."""
    claims: tuple[tuple[str, str], ...] = ()
    """Shrine claims awaiting a tiebreak ``(team, shrine)``."""
    queue: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Tiebreaker Procedures waiting behind the current one ``(purpose, teams)``."""
    turns: int = 0
    """Hero Turns begun this game (numbers :attr:`Hero.health_since`)."""
    runs: int = 0
    """Preparation runs done."""
    visits: tuple[tuple[str, str], ...] = ()
    """Building uses in the current run, in the order they happen ``(team, building)``."""
    last: Line | None = None
    result: tuple[tuple[str, ...], str] | None = None
    first_time: bool = True
    """The first Time Phase has not ended (PvP I places its Pitfalls then)."""
    pitfall_effects: tuple[tuple[int, tuple[str, ...]], ...] = ()
    """Pitfall effects given by the ``pitfall_effects`` option (VI-VIII are not printed)."""
    kill_log: tuple[tuple[str, str], ...] = ()
    """Every kill ``(killer, victim)``, oldest first (Kill Coins, First Blood)."""
    resurrected: tuple[str, ...] = ()
    """Heroes brought back in this Time Phase."""

    @property
    def stage(self) -> str:
        """``play`` during the Rounds, else the phase."""
        return "play" if self.phase in ("time", "battle", "event") else self.phase

    def hero(self, hid: str) -> Hero:
        """The Hero ``hid``.

        Raises:
            KeyError: no such Hero (the message lists them).
        """
        for k, h in self.heroes:
            if k == hid:
                return h
        raise KeyError(f"no Hero {hid!r}; heroes: {', '.join(k for k, _ in self.heroes)}")

    def team(self, name: str) -> Team:
        for t in self.teams:
            if t.name == name:
                return t
        raise KeyError(f"no Team {name!r}; teams: {', '.join(t.name for t in self.teams)}")

    def team_heroes(self, name: str, companions: bool = False) -> tuple[Hero, ...]:
        return tuple(h for _, h in self.heroes if h.team == name and (companions or not h.companion_of))


def put(state: SnsState, hero: Hero) -> SnsState:
    """``state`` with ``hero`` replaced (or added at the end)."""
    heroes = dict(state.heroes)
    heroes[hero.id] = hero
    return dataclasses.replace(state, heroes=tuple(heroes.items()))


def put_team(state: SnsState, team: Team) -> SnsState:
    return dataclasses.replace(state, teams=tuple(team if t.name == team.name else t for t in state.teams))


def is_ally(state: SnsState, a: str, b: str) -> bool:
    """Teams ``a`` and ``b`` are the same Team or allied (PvP I Alliances)."""
    return a == b or b in state.team(a).allies
