"""Frozen, JSON-ready state of a Demigods Evolution game.

Everything the table used to keep by hand lives here: wounds, AP left, divine
power dice, morale from racial links, rerolls from attack links, buff/debuff
tokens with their turns left, item cooldown tokens, positions and facing,
tactical points, the round, this round's rolls and who has activated.
"Who is next" is *derived* from these (``rounds.py``), never stored twice.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Mapping

from arena_table.rules.kernel.table import LATER_OPTION

from . import data

MODES = ("slayer", "tactics", "advanced-tactics")
"""Victory conditions, 'Achieving Victory' (p.4)."""
DIVINE_MAX = 6
"""'only six divine power can be stored by a hero at any given time' (p.12)."""
MORALE_RANGE = (-3, 3)
"""'A hero's morale can range from -3 to +3' (p.12)."""


@dataclass(frozen=True)
class Condition:
    """A buff/debuff token on a character (or on a side, ``scope="global"``); 'Buffs & Debuffs' (p.25)."""

    name: str
    kind: str = "debuff"
    """``buff`` or ``debuff``."""
    stat: str = ""
    """What it changes: ``damage``, ``physical_defense``, ``magical_defense``, ``defense``, ``morale``,
    ``initiative``, ``ap``; or a state: ``knockdown``, ``burn``, ``freeze``, ``immobilize``, ``banish``;
    empty for a reminder whose effect the players apply."""
    amount: int = 0
    turns: int = 2
    """The token side showing: 2, then 1, then removed (0 for passive tokens)."""
    passive: bool = False
    """'P' tokens never flip or expire."""
    scope: str = "character"
    """``character`` or ``global`` (flipped in the Preparation Phase)."""
    wounds: int = 0
    """Damage token (Bleed, Burn): wounds dealt each time the token is flipped or removed."""
    icon: str = ""
    text: str = ""
    source: str = ""
    """Id of the character that applied it."""


@dataclass(frozen=True)
class Character:
    """A Demigod, hero or minion on (or off) the battlefield."""

    id: str
    name: str
    player: str
    kind: str
    """``hero``, ``demigod`` or ``minion``."""
    klass: str
    """``tank``, ``warrior``, ``archer``, ``rogue``, ``mage``, ``demigod`` or ``minion``."""
    health: int
    ap_max: int
    physical_defense: int = 0
    magical_defense: int = 0
    initiative: int = 0
    attack: int = 0
    attack_type: str = ""
    race: str = ""
    power: str = ""
    """Divine power type: ``rage``, ``focus``, ``mana`` or empty (Demigods, minions)."""
    traits: tuple[str, ...] = ()
    skills: tuple[Mapping[str, Any], ...] = ()
    """Skill definitions (heroes), special abilities (Demigods), as in the data files."""
    items: tuple[str, ...] = ()
    """Equipped item ids, slot order (Demigods); the primary item is not listed."""
    card: str = ""
    """Id of the card in the data files when it differs from ``id`` (a Demigod fielded twice)."""
    wounds: int = 0
    ap: int = 0
    """Action points left this turn."""
    divine: int = 0
    """Rage, focus or mana held (0..6)."""
    link_morale: int = 0
    """Morale from racial links in the formation (p.12)."""
    rerolls: int = 0
    """Attack-link rerolls per attack (p.12): 1, or 2 for the middle of three."""
    conditions: tuple[Condition, ...] = ()
    cooldowns: tuple[tuple[str, int], ...] = ()
    """``(item id, cooldown tokens)`` for items on cooldown."""
    used: tuple[str, ...] = ()
    """Items and abilities used during the current turn."""
    on_board: bool = False
    cell: tuple[int, int] | None = None
    facing: int | None = None
    """0 north (towards row 0), 1 east, 2 south, 3 west; None when unknown."""
    out: str = ""
    """Why the character left: ``slain``, ``scattered``, ``left in shame``, ``scored``; empty while in play."""

    @property
    def card_id(self) -> str:
        return self.card or self.id

    @property
    def alive(self) -> bool:
        return not self.out

    @property
    def health_left(self) -> int:
        return self.health - self.wounds


@dataclass(frozen=True)
class Board:
    """The battlefield: ``cols`` x ``rows`` fields and the obstacles on them ('Battlefield', p.8-9)."""

    cols: int
    rows: int
    obstacles: tuple[tuple[int, int, str], ...] = ()
    """``(col, row, kind)``: boulder, pitfall, spike-pit, high-ground, magma, portal, flash-freeze, stone."""
    entry_inset: int = 0
    """Rows between the edge and the entry row: 1 in the Arena of the God of War, whose edge is
    pitfalls ('enter one field further in', p.8)."""
    stone_owners: tuple[tuple[int, int, str], ...] = ()
    """``(col, row, player)``: whose Demigod each Ascending Stone belongs to (p.9); a stone without
    an owner blocks everyone like a boulder."""
    id: str = dataclasses.field(default="", metadata=LATER_OPTION)
    """The shipped battlefield it was made from (``data/boards.json``), or "" for one entered field by field."""

    def own_stones(self, player: str) -> set[tuple[int, int]]:
        """Fields of the Ascending Stones of ``player``'s Demigod."""
        return {(c, r) for c, r, p in self.stone_owners if p == player}

    def entry_row(self, team: int) -> int:
        """The row a team enters on: the first team at the south edge (row ``rows - 1``), the second
        at the north edge (row 0), both moved ``entry_inset`` rows in."""
        return self.rows - 1 - self.entry_inset if team == 0 else self.entry_inset

    def obstacle(self, cell: tuple[int, int] | None) -> str:
        if cell is None:
            return ""
        for c, r, kind in self.obstacles:
            if (c, r) == tuple(cell):
                return kind
        return ""


@dataclass(frozen=True)
class DieSlot:
    """One die an attack waits for."""

    owner: str
    """``attack`` for the attacker's dice, else the id of the defender rolling (Master Armor)."""
    type: str
    face: int = 0
    """Face index 1..6 read, 0 while not rolled."""


@dataclass(frozen=True)
class Pending:
    """An attack declared and paid for, waiting for its dice (then resolved)."""

    attacker: str
    use: str
    """``attack`` (base attack), a skill id or an item id."""
    targets: tuple[str, ...]
    dice: tuple[DieSlot, ...]
    sides: tuple[str, ...] = ()
    """Per target: ``front``, ``side`` or ``back`` as seen from the target."""
    distance: int = 1
    high_ground: bool = False
    engaged: bool = False
    """Archery: an opposing figure is in the attacker's melee range."""
    retaliation: bool = False
    rerolls_left: int = 0
    confirmed: bool = False
    follow: tuple[tuple[str, str], ...] = ()
    """Retaliations still owed after this attack: ``(retaliator, its target)``."""
    ends_turn: bool = True
    """Whether the action that started this exchange ends the acting character's turn."""


@dataclass(frozen=True)
class LastAction:
    """The last attack's arithmetic, as the view shows it."""

    title: str
    lines: tuple[str, ...]
    result: str


@dataclass(frozen=True)
class DemigodsState:
    """The whole game."""

    mode: str
    players: tuple[str, ...]
    teams: tuple[tuple[str, ...], ...]
    team_names: tuple[str, ...]
    heroes_per_player: int
    selection: str = "free-pick"
    first: str = ""
    """Chieftain: the player/team choosing first."""
    stage: str = "select"
    """``select`` (heroes, Demigods, items, formation), ``play`` or ``over``."""
    picks: tuple[tuple[str, str], ...] = ()
    hero_stats: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    demigod_stats: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Demigod card values copied from the cards (``demigod_stats`` option, :func:`.data.demigod`)."""
    item_stats: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Item card values copied from the cards (``item_stats`` option, :func:`.data.item`)."""
    dice: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    chars: Mapping[str, Character] = field(default_factory=dict)
    formations: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    bound: Mapping[str, str] = field(default_factory=dict)
    """Commander's Armor and similar: ``item@player -> hero`` chosen at setup."""
    round: int = 0
    phase: str = ""
    """``demigod``, ``hero`` or ``minion`` (the Preparation Phase is instantaneous)."""
    rolls: Mapping[str, tuple[tuple[int, ...], ...]] = field(default_factory=dict)
    """This round's Demigod dice: ``demigods`` or ``init:<n>`` -> successive rolls, contenders in seat order."""
    contenders: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """The players of each roll key's first roll, seat order."""
    activated: tuple[str, ...] = ()
    acting: str | None = None
    pending: Pending | None = None
    points: Mapping[str, int] = field(default_factory=dict)
    minions_entered: Mapping[str, int] = field(default_factory=dict)
    """Minions each player entered this round."""
    minions_scored: Mapping[str, int] = field(default_factory=dict)
    last_action: LastAction | None = None
    reads: Mapping[str, int] = field(default_factory=dict)
    """Divine die values read by the camera (id -> value), cross-checked in the view."""
    board: Board | None = None
    global_conditions: Mapping[str, tuple[Condition, ...]] = field(default_factory=dict)
    notices: tuple[str, ...] = ()
    """Things the players must do by hand (leave a pitfall, place a pushed figure...)."""
    result: tuple[tuple[str, ...], str] | None = None
    """``(winners, reason)`` once the game is over."""

    def __repr__(self) -> str:
        return (f"<Demigods {self.mode} round {self.round} {self.phase or self.stage} "
                f"acting={self.acting} points={dict(self.points)}>")


def demigod_card(state: "DemigodsState", demigod_id: str) -> dict[str, Any]:
    """The Demigod card with this game's ``demigod_stats`` (see :func:`.data.demigod`)."""
    return data.demigod(demigod_id, state.demigod_stats)


def item_card(state: "DemigodsState", item_id: str) -> dict[str, Any]:
    """The item card with this game's ``item_stats`` / ``demigod_stats`` (see :func:`.data.item`)."""
    return data.item(item_id, state.item_stats, state.demigod_stats)


def char(state: DemigodsState, cid: str) -> Character:
    """The character ``cid``. Raises KeyError naming the known ids."""
    try:
        return state.chars[cid]
    except KeyError:
        raise KeyError(f"no character {cid!r}; known: {', '.join(state.chars)}") from None


def put(state: DemigodsState, *chars: Character) -> DemigodsState:
    """``state`` with ``chars`` replaced (matched by id)."""
    new = dict(state.chars)
    for c in chars:
        new[c.id] = c
    return dataclasses.replace(state, chars=new)


def update(state: DemigodsState, cid: str, **changes: Any) -> DemigodsState:
    return put(state, dataclasses.replace(state.chars[cid], **changes))


def team_index(state: DemigodsState, player: str) -> int:
    for i, team in enumerate(state.teams):
        if player in team:
            return i
    raise KeyError(f"no player {player!r}; players: {', '.join(state.players)}")


def side_name(state: DemigodsState, player: str) -> str:
    """The side (player in 2-player games, team in 4-player games) ``player`` belongs to."""
    return state.team_names[team_index(state, player)]


def are_opponents(state: DemigodsState, a: Character, b: Character) -> bool:
    return team_index(state, a.player) != team_index(state, b.player)


def demigod_of(state: DemigodsState, player: str) -> Character | None:
    for c in state.chars.values():
        if c.kind == "demigod" and c.player == player:
            return c
    return None


def heroes_of(state: DemigodsState, player: str, alive_only: bool = True) -> list[Character]:
    """``player``'s heroes in formation order (left to right)."""
    order = state.formations.get(player, ())
    out = [state.chars[h] for h in order if h in state.chars]
    return [h for h in out if h.alive] if alive_only else out


def add_notice(state: DemigodsState, text: str) -> DemigodsState:
    return dataclasses.replace(state, notices=(state.notices + (text,))[-8:])
