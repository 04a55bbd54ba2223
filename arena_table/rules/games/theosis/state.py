"""Frozen state of a Theosis game (STYLE.md §1): players, heroes, monsters, phase.

Everything players would otherwise track on mats and boards lives here:
gold, Health, Mana gems, Power hands and discard piles, items, Blessing and
Curse tokens, the Alignment tracks, the Initiative Marker, the Hero Ranking,
the turn marker and the monsters' Stamina piles.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from arena_table.rules.kernel.table import LATER_OPTION

MAX_HEALTH = 9
"""p.6 Hero Mats: the Health cube starts on 9."""
START_GOLD = 3
"""FAQ / errata p.6: every player starts with three gold."""
PREP_TURNS = 6
"""p.10: six turns in Hierapolis."""
ARENA_TURNS = 9
"""p.14: combat in the Arena consists of nine turns."""
CENTRE = (0, 0)
"""The centre hex in axial coordinates (p.5 Winning the Game)."""
ARENA_RADIUS = 5
"""Hexes from the centre to the Arena's edge (91 hexes). The rulebook text does not print the
Arena's size: 5 is a documented default (the Ranged and Line reach, p.14, and the smallest radius
holding every starting dot the golden transcripts use); the ``arena_radius`` setup option changes it."""


ALL_ITEMS = "all"
"""``Hero.items_off`` entry: every item is face down."""


@dataclass(frozen=True)
class Config:
    """The setup options that stay fixed for the whole game."""

    mode: str = "pvp"
    """pvp, blitz, team, solo, coop, light (semi co-op) or heavy (semi co-op)."""
    fast: bool = False
    """Fast Action Preparation (Game Modes) instead of six turns in Hierapolis."""
    expansion: bool = False
    """Expansion Power cards in play (pp.46-47, errata p.4)."""
    attacker_pad: int = 1
    defender_pad: int = 2
    speeds: dict[str, int] = field(default_factory=dict)
    alignments: dict[str, str] = field(default_factory=dict)
    power_values: dict[str, tuple[int, int]] = field(default_factory=dict)
    damage_types: dict[str, str] = field(default_factory=dict)
    items: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Item tokens entered by the table (the book prints only its examples' items)."""
    thieves_faces: dict[str, str] = field(default_factory=dict)
    arena_radius: int = ARENA_RADIUS
    """Hexes from the centre to the edge of the Arena board (option ``arena_radius``)."""
    self_bless: bool = field(default=False, metadata=LATER_OPTION)
    """Option ``self_bless``: a hero may place a Blessing on itself. The book's Blessings (Valor, Aegis,
    Rejuvenation) "target an allied Hero", and the FAQ answers that what targets an "Allied Hero"
    does not target the hero using it (asked of Skills); so by default a hero cannot. A table that
    reads "All Powers and Skills that affect Allied Heroes, affect all Heroes of a team" (Team
    Play) as including the user sets it; the engine allowed it before this option."""


@dataclass(frozen=True)
class Player:
    id: str
    team: str
    heroes: tuple[str, ...]
    gold: int = START_GOLD
    hand: tuple[str, ...] = ()
    """Power cards in hand (face down to everybody else)."""
    discard: tuple[str, ...] = ()
    """Discard pile, oldest first; the last card stays when the hand is refilled (Power Management)."""
    rituals: tuple[tuple[str, int], ...] = ()
    """Prepared Rituals face down with their turn tokens (p.12 Mage Tower)."""
    cast: tuple[str, ...] = ()
    """Rituals already cast in the Arena."""
    bid: int | None = None
    bid_hero: str = ""
    allocated: bool = False
    stamina_taken: int = 0
    """Stamina Tokens this player's heroes removed (Light Semi Co-op MVP, p.20)."""
    spell_ward: bool = False


@dataclass(frozen=True)
class Hero:
    id: str
    player: str
    archetype: str
    health: int = MAX_HEALTH
    mana: tuple[str, ...] = ()
    """Skills holding a Mana gem (each Skill holds one, p.6)."""
    gold: int = 0
    """Gold on the Hero mat after the Alignment bonus and allocation (p.13)."""
    items: tuple[str, ...] = ()
    alive: bool = True
    flipped: bool = False
    """Ranking token face down: skips its next activation (Paralyze, Blackout, Earth's Grab)."""
    cell: tuple[int, int] | None = None
    placed: str = ""
    """Hierapolis location this preparation turn, or empty."""
    no_resurrect: bool = False
    items_off: tuple[str, ...] = ()
    """Item kinds flipped face down until the next turn: ``weapon`` (Sunder Weapon), ``armor`` and
    ``shield`` (Sunder Armor) (Appendix Skills), or :data:`ALL_ITEMS` for every item (Flesh and
    Blood, pp.46-47)."""
    stealth: bool = False
    on_start: bool = True
    """Still on the starting triad: safe from area effects on turn 1 (errata p.14)."""
    facing: int | None = field(default=None, metadata=LATER_OPTION)
    """The hex side the miniature faces as the camera last saw it (0..5, E NE NW W SW SE); the
    rules give facing no effect, the screens draw it."""


@dataclass(frozen=True)
class StaminaToken:
    threshold: int
    """Damage one attack must deal to remove the token."""
    resist: tuple[str, ...] = ()
    protect: tuple[str, ...] = ()


@dataclass(frozen=True)
class Monster:
    id: str
    kind: str
    tokens: int
    """Stamina Tokens still in the pile, the top one included."""
    top: StaminaToken | None = None
    """The revealed top token, or None until the table enters it."""
    cell: tuple[int, int] | None = None
    guard: tuple[str, ...] = ()
    """Effects lasting until the monster acts again (Thick Hide, Feel No Pain ...)."""
    hidden: bool = False
    """Diamond Skin: the top token is face down; a successful attack only flips it up (Kotronas)."""
    taken: int = 0
    """Stamina Tokens removed so far (Evolving Skin can put one back)."""
    fiery_purge: bool = False
    """Fiery Purge on a monster adds one damage to the next successful attack (p.24)."""

    @property
    def alive(self) -> bool:
        return self.tokens > 0


@dataclass(frozen=True)
class Pending:
    """What the table waits for before play goes on (a die, a target)."""

    kind: str
    """``thieves-d6``, ``mercenary-d4``, ``defence-d4``, ``skull``, ``monster-attack-d4``."""
    actor: str = ""
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ThState:
    config: Config
    players: tuple[Player, ...]
    """Seated clockwise; the first chose the first Hero and holds the Initiative Marker (p.10)."""
    heroes: dict[str, Hero]
    monsters: tuple[Monster, ...] = ()
    phase: str = "preparation"
    """preparation, fast, ranking, combat, monsters, over."""
    prep_turn: int = 1
    initiative: str = ""
    """Player holding the Initiative Marker now."""
    initiative_next: str = ""
    """Player who gained the Marker this turn; it moves at the start of the next turn (Hierapolis Locations)."""
    alignment: dict[str, int] = field(default_factory=lambda: {"warmonger": 0, "deceitful": 0, "vengeful": 0})
    """Track position, keyed by the track's first alignment; positive leans to it (p.4)."""
    golden: tuple[str, ...] = ()
    """Quests whose golden slot is taken this preparation turn."""
    pile_taken: dict[str, int] = field(default_factory=dict)
    """Alignment -> cards taken from its Power pile so far."""
    removed_powers: tuple[str, ...] = ()
    artifact: str = ""
    """The Artifact revealed for bidding this preparation turn."""
    ranking: tuple[str, ...] = ()
    """Hero ids, Ranking 1 first (p.13 Step 3)."""
    turn: int = 0
    """Arena turn 1..9 (0 before the Arena)."""
    acting: int = 0
    """Index into ``ranking`` (phase combat) or ``monsters`` (phase monsters)."""
    acted: tuple[str, ...] = ()
    conditions: dict[str, str] = field(default_factory=dict)
    """Blessing/Curse token (power id) -> hero or monster it lies on (Power Management: one target at a time)."""
    ritual_cells: dict[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    pending: Pending | None = None
    pad_powers: dict[str, str] = field(default_factory=dict)
    """Power cards lying on the attacker/defender pads: role -> power id."""
    last_action: dict[str, Any] | None = None
    moved: int = 0
    """Hexes the acting Hero has moved this activation (speed check, p.14 Movement)."""
    follow_up: str = ""
    """Hero owed a second attack (Northern Twin Strike) or an additional turn (Celerity)."""
    competitive: bool = False
    """Heavy Semi Co-op: the competitive game has begun after the monsters fell (p.20)."""
    result: tuple[tuple[str, ...], str, bool] | None = None
    """(winners, reason, draw) once the game is over."""

    # --- lookups -----------------------------------------------------------------------
    def player(self, pid: str) -> Player:
        for p in self.players:
            if p.id == pid:
                return p
        raise KeyError(pid)

    def monster(self, mid: str) -> Monster:
        for m in self.monsters:
            if m.id == mid:
                return m
        raise KeyError(mid)

    def team_of(self, hero_id: str) -> str:
        return self.player(self.heroes[hero_id].player).team

    def rank_of(self, hero_id: str) -> int:
        """1-based Ranking position; heroes outrank monsters (Monster Defense), unranked heroes rank last."""
        return self.ranking.index(hero_id) + 1 if hero_id in self.ranking else 99

    def initiative_order(self) -> tuple[str, ...]:
        """Players clockwise from the Initiative Marker holder (p.10)."""
        ids = [p.id for p in self.players]
        i = ids.index(self.initiative) if self.initiative in ids else 0
        return tuple(ids[i:] + ids[:i])

    def acting_hero(self) -> str | None:
        if self.phase == "combat" and self.pending is None and 0 <= self.acting < len(self.ranking):
            return self.ranking[self.acting]
        return None

    def summary(self) -> str:
        where = f"prep turn {self.prep_turn}/6" if self.phase in ("preparation", "fast") else f"turn {self.turn}/9"
        return f"theosis {self.phase}, {where}" + (f", waiting for {self.pending.kind}" if self.pending else "")


def replace_hero(state: ThState, hero: Hero) -> ThState:
    heroes = dict(state.heroes)
    heroes[hero.id] = hero
    return dataclasses.replace(state, heroes=heroes)


def replace_player(state: ThState, player: Player) -> ThState:
    return dataclasses.replace(state, players=tuple(player if p.id == player.id else p for p in state.players))


def replace_monster(state: ThState, monster: Monster) -> ThState:
    return dataclasses.replace(state, monsters=tuple(monster if m.id == monster.id else m for m in state.monsters))
