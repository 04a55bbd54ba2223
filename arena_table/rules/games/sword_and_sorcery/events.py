"""Sword & Sorcery (Clash of the Heroes) events, kinds prefixed ``sns-``, in notation and JSON.

Dice come as faces by symbol name (:mod:`.dice`): ``sns-roll team=red red=["tiebreaker","hit",
"blank","tiebreaker+gate2"]`` for a Tiebreaker roll, ``sns-roll red=["hit+hit"] blue=["shield"]``
for an attack's HIT dice, ``sns-roll blue=["shield","blank"]`` for a defender's DEF dice. The
kernel's ``roll die=sns-red faces=[...]`` (face indices) is read through the die kinds.

>>> from arena_table.rules import parse
>>> e = parse('sns-attack who=artemis target=shae weapon=bow bonus={"Focus":1}')
>>> e.bonus, str(e)
({'Focus': 1}, 'sns-attack who=artemis target=shae weapon=bow bonus={"Focus":1}')
"""

from __future__ import annotations

from typing import Mapping

from arena_table.rules.kernel.events import Event, event

# --- Preparation and deployment (6.3, 6.4) ---------------------------------------------------


@event("sns-visit")
class Visit(Event):
    """One Preparation run: each Team's chosen Building, all at the same time (6.3)."""

    visits: Mapping[str, str]


@event("sns-ready")
class Ready(Event):
    """Every Team agrees to conclude the Preparation (6.3)."""


@event("sns-claim")
class Claim(Event):
    """Shrine claims made at the same time, ``team -> Shrine area`` (6.4)."""

    claims: Mapping[str, str]


@event("sns-place")
class Place(Event):
    """Deployment: ``hero`` placed on ``area``, within 2 areas of its Team's Shrine (6.4)."""

    hero: str
    area: str


# --- dice, saves, tiebreaks ------------------------------------------------------------------


@event("sns-roll")
class Roll(Event):
    """Dice thrown, as faces by symbol name: a Tiebreaker roll (``team``, 4 red), an attack's HIT
    dice or a defender's DEF dice (``blue``, with ``shields`` by source enhancing the defence)."""

    team: str = ""
    red: tuple[str, ...] = ()
    blue: tuple[str, ...] = ()
    shields: Mapping[str, int] = None  # type: ignore[assignment]


@event("sns-reroll")
class Reroll(Event):
    """One die of the pending attack rolled again (``die`` = ``red``, ``blue`` or ``def``; at most once)."""

    die: str
    index: int
    face: str


@event("sns-save")
class Save(Event):
    """A Save awaited for ``hero`` succeeded (``ok``) or failed: Trap (4.3), Poison (Time Phase)."""

    hero: str
    ok: bool


@event("sns-holy")
class Holy(Event):
    """The Blue Die ``hero`` rolls on the Holy Pitfall (4.2 III)."""

    hero: str
    face: str


@event("sns-simultaneous")
class Simultaneous(Event):
    """Items or powers of several Teams activated at the same time: a Tiebreaker Procedure sets
    their order (6.5), e.g. ``what="Guard vs Protection Sphere"``."""

    teams: tuple[str, ...]
    what: str = ""


# --- rounds ----------------------------------------------------------------------------------


@event("sns-battle")
class Battle(Event):
    """The Time Phase is over: the Battle Phase begins with a Tiebreaker Procedure (6.5)."""


@event("sns-resurrect")
class Resurrect(Event):
    """Time Phase: ``hero``'s Team spends a Resurrection token to bring it back (6.2, 6.5)."""

    hero: str


@event("sns-activate")
class Activate(Event):
    """The Team to play activates ``hero`` for its Hero Turn (6.5; the Hero Bookmark)."""

    hero: str


@event("sns-end-turn")
class EndTurn(Event):
    """The active Hero's Turn ends (Health Conditions go, the Blades turn)."""


@event("sns-move")
class Move(Event):
    """The active Hero moves one area, to adjacent ``to`` (Movement Activity; Evade first if due).

    ``blind_save``: the Save a Blinded Hero makes before each Activity."""

    hero: str
    to: str
    blind_save: bool | None = None


@event("sns-recall")
class Recall(Event):
    """A Ghost Soul's Recall: it moves to a Shrine's area."""

    hero: str
    to: str


@event("sns-stand")
class Stand(Event):
    """A K.O. Hero stands up with 1 point of movement (``sns-action name=dash`` is the Dash way)."""

    hero: str
    blind_save: bool | None = None


@event("sns-action")
class Action(Event):
    """An Action Activity of the active Hero: ``dash``, ``focus`` (+1 to its next attack), ``pray``,
    ``search``, ``open``, ``reorganize``, ``exchange`` or any other by name."""

    hero: str
    name: str
    blind_save: bool | None = None


@event("sns-summon")
class Summon(Event):
    """``hero`` summons a Companion figure (``id``, ``name``, ``hp``) into ``area``."""

    hero: str
    id: str
    area: str
    name: str = ""
    hp: int = 1


@event("sns-attack")
class Attack(Event):
    """``who`` attacks ``target`` (Combat System).

    ``mode``: ``attack`` (a Combat Activity of the active Hero), ``reaction`` (an Evade's Reaction
    Attack, equipped weapon only), ``power`` (an out-of-turn power or item, e.g. Guard).
    ``bonus``/``reduce``: extra hits / hits cut by source; ``effects``: conditions the attack
    inflicts; ``aoe``: AoE x; ``bash``: the areas the defender is pushed through (the attacker
    chooses, 6.5); ``breaks``, ``drain``, ``lethal``: Break tokens, Drain value, extra Lethal hits."""

    who: str
    target: str
    weapon: str = ""
    mode: str = "attack"
    power: str = ""
    bonus: Mapping[str, int] = None  # type: ignore[assignment]
    reduce: Mapping[str, int] = None  # type: ignore[assignment]
    effects: tuple[str, ...] = ()
    aoe: int | None = None
    bash: tuple[str, ...] = ()
    breaks: int = 0
    drain: int = 0
    lethal: int = 0
    blind_save: bool | None = None


@event("sns-resolve")
class Resolve(Event):
    """Every die of the pending attack is in: the defenders suffer the damage (DEF stage 6)."""


@event("sns-pass")
class Pass(Event):
    """``who`` makes no Reaction Attack in the pending Evade."""

    who: str


# --- tokens and hand entries -----------------------------------------------------------------


@event("sns-pitfall")
class PlacePitfall(Event):
    """Pitfall ``number`` (I-X) placed on Location ``location`` (A-E), open unless ``closed``."""

    number: str
    location: str
    closed: bool = False


@event("sns-pitfall-activate")
class ActivatePitfall(Event):
    """The Pitfall on ``location`` is activated (its effect applied as on placement, 4.2.2)."""

    location: str


@event("sns-pitfall-flip")
class FlipPitfall(Event):
    """The Pitfall on ``location`` is opened or closed."""

    location: str
    open: bool


@event("sns-token")
class Token(Event):
    """A ``trap``, ``lava`` or ``flame`` token placed on ``area``; ``lava-off``/``lava-on`` turn its Lava
    token to the inactive grey side or back (4.5)."""

    token: str
    area: str


@event("sns-condition")
class Condition(Event):
    """``hero`` suffers Body Condition ``name`` from a power or card (``by``: the Hero responsible)."""

    hero: str
    name: str
    by: str = ""


@event("sns-clear")
class Clear(Event):
    """``hero`` loses Body Condition ``name`` (a power, an item, a Waypoint)."""

    hero: str
    name: str


@event("sns-hp")
class Hp(Event):
    """``hero`` loses (``amount`` > 0) or heals (< 0) HP by a power or card; ``by`` takes a kill."""

    hero: str
    amount: int
    by: str = ""


@event("sns-power")
class Power(Event):
    """``hero`` uses the power ``name``: a power with the refresh icon is flipped (``cooldown=0``) and
    comes back at the next Time Phase; one with a cooldown is rotated and comes back after
    ``cooldown`` quarter turns, one each Time Phase (Game Sequence, Time Phase). Cooldowns are
    printed on the power cards, not in this book (entered here)."""

    hero: str
    name: str
    cooldown: int = 0


@event("sns-soul-points")
class SoulPoints(Event):
    """A power or effect that gains (``points`` > 0) or spends (< 0) Soul Points: in Clash of the
    Heroes it is HP gained or lost by the owner instead (6.5)."""

    hero: str
    points: int


@event("sns-magic-shield")
class MagicShield(Event):
    """``hero`` gains ``count`` Magic Shield tokens."""

    hero: str
    count: int = 1


@event("sns-teleport")
class Teleport(Event):
    """PvP III Spawn Gates Teleport: ``hero`` on a Spawn Gate rolls a Blue Die (``face``) and goes to
    the Gate it names; opponents there suffer Soulrank HP."""

    hero: str
    face: str
