"""Euthia's state: frozen dataclasses derived with ``dataclasses.replace`` (STYLE.md §1).

One game is a Playing with Fire solo game (``mode="fire"``, Playing with Fire l.776-842) or a
Fellowship co-op game (``mode="fellowship"``, l.843-975). The state holds the Heroes, the Silver
and Gold caches, the Combat running (its Enemies, Combat Pool, Rotting creatures and the Monster
Attack being resolved) and, in Fellowship, the round with its card.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from arena_table.rules.kernel.errors import Refused
from arena_table.rules.kernel.table import LATER_OPTION

__all__ = ["Refused", "Config", "Hero", "Enemy", "Creature", "ChaosRun", "Attack", "HeroRoll", "Combat", "Round",
           "EuState", "Familiar", "put_hero", "put_enemy", "notice"]


@dataclass(frozen=True)
class Config:
    """Setup choices, ambiguity readings (ambiguities.md, Euthia) and the card data in play."""

    mode: str = "fire"
    """``fire`` (Playing with Fire, solo) or ``fellowship`` (co-op)."""
    difficulty: str = "normal"
    """Monster decks (Monster Cards, Setup): ``normal`` (base cards), ``hard`` (one of each Monster's
    two cards replaced), ``heroic`` (the expansion's decks)."""
    monsters: dict[str, Any] = field(default_factory=dict)
    """Monster cards by id (``data/monsters.json`` with the ``monsters`` option laid over)."""
    cards: dict[str, Any] = field(default_factory=dict)
    """Silver and Gold card types in play, ``{"silver": {...}, "gold": {...}}``."""
    combat_die: tuple[tuple[str, ...], ...] = ()
    """Symbols on Combat-die faces 1..6 (a base-game value, to enter)."""
    hero_health: int = 12
    die_of_hope_start: int = 1
    die_of_hope_max: int = 6
    entered: tuple[str, ...] = ()
    """Base values given as options (no longer to enter)."""
    earth: str = "monster"
    """Earth adds 2 to the ``monster``'s Combat Value (default) or to each ``hero`` roll (l.806)."""
    shii: str = "end"
    """Shii's Intervention (l.804) on the Monster dice as they stand when step C ends (``end``),
    on the first roll (``first``), or after every roll (``every``), once per Monster Attack each."""
    air_single: bool = False
    """Air also turns a one-die Gaar re-roll (l.805; default: only two-dice rolls)."""
    gaar_tests: str = "every"
    """The Gaar loop (l.821) checks all three conditions before every re-roll (``every``) or the
    1-3 test only on entering the loop (``entry``)."""
    creature_now: bool = False
    """Rotting Fly/Worm cards revealed in step C act at once (default: from the next Monster Attack)."""
    silver_bottom: str = "silver"
    """An other-type card revealed from the Silver cache goes to the bottom of the ``silver``
    cache (default) or the ``gold`` cache (l.826-827)."""
    silver_magic_any: bool = False
    """Silver Magic completes a stack for any Silver card (default: only Silver-Magic Monsters)."""
    convert_repeat: bool = True
    """Silver cache conversion repeats while 4 or more (default) or converts once per addition."""
    own_heal_token: bool = False
    """A Monster's own 'healed by the value shown' leaves a Monster Healing token (default: excess lost)."""
    familiars: dict[str, Any] = field(default_factory=dict)
    """Eltrea's Familiar cards (``data/familiars.json`` with the ``familiars`` option laid over)."""
    alignment: str = "leaf"
    """Eltrea's Familiar Alignment, ``leaf`` or ``moon`` (Setup, l.180)."""
    split_exchange: bool = True
    """One exchange a round may give to several Heroes on the hex (l.894-897)."""


@dataclass(frozen=True)
class Hero:
    """A Hero at the table."""

    id: str
    name: str
    player: str
    health: int
    """Maximum Health (base game, to enter: option ``hero_health``)."""
    injuries: int = 0
    reputation: int = 0
    gaar: int = 0
    purse: dict[str, int] = field(default_factory=dict)
    """Rewards taken: ``gold``, ``silver``, ``gold_cards``, ``potions``, ``gems``, ``trophies`` ..."""
    objects: tuple[str, ...] = ()
    """Map Secrets Object tokens next to the Hero board (fulfilled Tasks, l.620)."""
    sack: tuple[str, ...] = ()
    """Object tokens carried in a Sack (not yet scored)."""
    quests: tuple[str, ...] = ()
    """Personal Quests fulfilled, in order (``starting``, ``advanced``, ``elite``)."""
    deaths: int = 0


@dataclass(frozen=True)
class Enemy:
    """A Monster, Elite Monster or Minion in the line of Enemies (left to right)."""

    card: str
    name: str
    health: int
    """Card Health plus the Fellowship card's extra Health."""
    damage: int = 0
    healing: int = 0
    """Total of the Monster Healing tokens on the card (Card Effect Clarifications, l.836-840)."""
    defeated: bool = False


@dataclass(frozen=True)
class Creature:
    """A Rotting Fly (Silver) or Rotting Worm (Gold) in the play area (l.574-596)."""

    kind: str
    cache: str
    health: int
    damage: int = 0
    slot: int = 1
    """The effect box marked by the Chaos token (1..3)."""
    group: int = 1
    """The largest group of matching cards played this Combat."""
    since: int = 0
    """Number of the Monster Attack it was played in; it acts from the next one (or at once)."""


@dataclass(frozen=True)
class ChaosRun:
    """Chaos Actions being performed (Performing Chaos Actions, l.822-834)."""

    actions: int
    """Chaos Actions still to perform, counting the open stack."""
    cache: str = ""
    """Cache the open stack is revealed from (``gold``/``silver``), ``""`` once done."""
    stack: tuple[str, ...] = ()
    stacks: tuple[tuple[str, tuple[str, ...], bool], ...] = ()
    """Completed stacks: ``(cache, cards, by Silver Magic)``."""
    to_bottom: tuple[tuple[str, str], ...] = ()
    """Cards put on the bottom of a cache: ``(cache, type)``."""


@dataclass(frozen=True)
class Attack:
    """One Monster Attack (Monster Attack Phase, steps B and C, l.809-842)."""

    enemy: int
    targets: tuple[str, ...]
    number: int
    """This Combat's Monster Attacks so far, counting this one."""
    step: str = "roll"
    """``roll`` (step B), ``reveal`` (Chaos Actions), ``reroll`` (a die to re-roll), ``response``."""
    dice: tuple[int, ...] = ()
    combat: int = 0
    """Combat-die face read (1..6), 0 before."""
    one_die: bool = False
    gaar_spent: int = 0
    cv_mods: tuple[tuple[int, str], ...] = ()
    injury_mods: tuple[tuple[int, str], ...] = ()
    reroll: tuple[int, ...] = ()
    """Indices of the Monster dice whose re-roll is awaited."""
    reroll_why: str = ""
    chaos: ChaosRun | None = None
    silver_later: int = 0
    """Silver cards set aside, added to the Silver cache after the phase (l.815)."""
    lines: tuple[str, ...] = ()
    """The arithmetic spelled out, step by step."""
    looping: bool = False
    """Inside the Gaar loop (for ``gaar_tests="entry"``)."""
    first_dice: tuple[int, ...] = ()


@dataclass(frozen=True)
class HeroRoll:
    """A Hero Roll awaited or read: the sum of the Hero's two dice plus modifiers (l.611-672)."""

    hero: str
    purpose: str
    """``attack``, ``charm``, ``bird``, ``deer`` or ``other``."""
    target: str = ""
    bands: tuple[tuple[int, int | None], ...] = ()
    mods: tuple[tuple[int, str], ...] = ()
    dice: tuple[int, ...] = ()
    revealed: tuple[int, ...] = ()
    """Bird/Deer: directions 1..6 where the Map is revealed."""


@dataclass(frozen=True)
class Combat:
    """A Combat (Playing with Fire: one Hero; Fellowship: one or two Heroes, l.926-975)."""

    enemies: tuple[Enemy, ...]
    heroes: tuple[str, ...]
    power: str = ""
    """Elemental Power of the hex: ``air``, ``earth``, ``corrupted`` or ``""``."""
    familiar: str = ""
    """Hawk Spirit's Power in force: ``air`` or ``earth`` (l.317-320)."""
    gaar: int = 0
    chaos: int = 0
    """The Combat Pool's tokens (joint for every Enemy, l.952)."""
    creatures: tuple[Creature, ...] = ()
    round: int = 1
    attacked: tuple[int, ...] = ()
    """Enemies that attacked this Combat Round."""
    struck: tuple[str, ...] = ()
    """Heroes that attacked this Combat Round."""
    attacks: int = 0
    attack: Attack | None = None
    roll: HeroRoll | None = None
    hope: int = 1
    cv_next: tuple[tuple[int, str], ...] = ()
    injuries_next: dict[str, tuple[tuple[int, str], ...]] = field(default_factory=dict)
    hero_cv_next: dict[str, tuple[tuple[int, str], ...]] = field(default_factory=dict)
    damage_next: dict[str, tuple[tuple[int, str], ...]] = field(default_factory=dict)
    round_injuries: dict[str, int] = field(default_factory=dict)
    one_die: bool = False
    area: bool = False
    extra_injuries: int = 0
    extra_chaos: int = 0
    dead: tuple[str, ...] = ()
    odd: dict[str, str] = field(default_factory=dict)
    """Joint Combat: which Hero takes each odd reward value (players decide; else the Leader, l.866)."""
    first_struck: tuple[str, ...] = field(default=(), metadata=LATER_OPTION)
    """Heroes that made their First Strike, until the first Monster Attack ends that part of the
    fight (each Hero may perform one, l.927)."""
    over: str = ""
    """``""`` while fought; ``won`` or ``lost`` once over."""


@dataclass(frozen=True)
class Familiar:
    """Eltrea's active Familiar and her Familiar board's slots this turn (Familiars, l.190-216)."""

    active: str = "will-o-wisp"
    slots: tuple[str, ...] = ()
    """Familiar-board slots holding a Hero token this turn (``top``, ``lower``)."""
    moved: int = 0
    """Move points the Familiar spent this turn."""


@dataclass(frozen=True)
class Round:
    """A Fellowship round (Fellowship cards, l.872-887)."""

    number: int
    card: dict[str, Any]
    leader: str
    gave: tuple[str, ...] = ()
    """Heroes who gave Items this round (their Hero token beside the card)."""
    move_tokens: int = 0
    """Move tokens (2 Move points each) left beside the card (3-4 players)."""


@dataclass(frozen=True)
class EuState:
    """The whole Euthia game."""

    config: Config
    heroes: dict[str, Hero]
    order: tuple[str, ...]
    """Heroes clockwise (the Leader token moves this way)."""
    silver: int = 0
    gold: int = 0
    bottom: tuple[tuple[str, str], ...] = ()
    """Known cards at the bottom of the caches, top to bottom: ``(cache, type)``."""
    combat: Combat | None = None
    round: Round | None = None
    first_leader: str = ""
    familiar: Familiar | None = None
    """Eltrea's Familiar, when Eltrea plays."""
    last: dict[str, Any] = field(default_factory=dict)
    """The last Monster Attack or Hero Roll spelled out (view ``last_action``)."""
    notices: tuple[str, ...] = ()
    result: tuple[tuple[str, ...], str] | None = None
    stands: tuple[tuple[str, tuple[int, int]], ...] = field(default=(), metadata=LATER_OPTION)
    """Figures on the Map as the table shows them, ``(figure, hex)`` sorted (``eu-stand``); left
    out of the digest while empty, so games recorded before it keep theirs."""

    def hero(self, hid: str) -> Hero:
        """The Hero ``hid``.

        Raises:
            Refused: no such Hero.
        """
        if hid not in self.heroes:
            raise Refused(f"no Hero {hid!r}; Heroes: {', '.join(self.heroes)}")
        return self.heroes[hid]

    def summary(self) -> str:
        c = self.combat
        where = f"combat round {c.round} vs {', '.join(e.name for e in c.enemies)}" if c and not c.over else "no combat"
        rnd = f"round {self.round.number}/20, " if self.round else ""
        return f"euthia {self.config.mode}: {rnd}{where}"


def put_hero(state: EuState, hero: Hero) -> EuState:
    return dataclasses.replace(state, heroes={**state.heroes, hero.id: hero})


def put_enemy(combat: Combat, index: int, enemy: Enemy) -> Combat:
    enemies = list(combat.enemies)
    enemies[index] = enemy
    return dataclasses.replace(combat, enemies=tuple(enemies))


def notice(state: EuState, text: str) -> EuState:
    return dataclasses.replace(state, notices=(state.notices + (text,))[-6:])
