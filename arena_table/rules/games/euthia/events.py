"""Euthia events (kinds prefixed ``eu-``): the decisions and readings the table cannot sense.

Dice arrive as the kernel's ``roll`` events: ``eu-monster`` (the two Monster dice, or the one
die a Gaar re-roll asks for), ``eu-combat`` (the Combat die, a face 1-6 whose symbols are the
``combat_die`` values; ``eu-combat-face`` gives the same die by its symbols), ``eu-attack`` (the Monster dice and the Combat die of one throw) and
``eu-hero`` (a Hero's two dice). Cards revealed from the caches are ``eu-reveal`` or a
``euthia:card:<type>`` tag laid on a pad.

>>> str(MonsterAttack(enemy=1, target="ael"))
'eu-monster-attack enemy=1 target=ael'
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from arena_table.rules.kernel.events import Event, event


@event("eu-combat")
class StartCombat(Event):
    """A Combat is set up (Combat Setup, l.946-957): the Monster cards left to right, the Heroes."""

    enemies: tuple[str, ...]
    heroes: tuple[str, ...]
    power: str = ""
    """Elemental Power on the hex: ``air``, ``earth``, ``corrupted`` (l.805-807)."""
    familiar: str = ""
    """Hawk Spirit's Power used for this Combat: ``air`` or ``earth`` (l.317-320)."""


@event("eu-combat-face")
class CombatFace(Event):
    """The Combat die read by its symbols, as a reader that knows the die's faces reports it
    (Playing with Fire, step B): ``symbols=["chaos","chaos"]``; a blank face is ``symbols=["blank"]``.
    The face is the one of the ``combat_die`` values with the same symbols, in any order."""

    symbols: tuple[str, ...] = ()


@event("eu-monster-attack")
class MonsterAttack(Event):
    """An Enemy's Monster Attack begins (left to right, l.943); players choose the Hero attacked."""

    enemy: int = 0
    target: str = ""


@event("eu-reveal")
class Reveal(Event):
    """The top card of a cache revealed by a Chaos Action (l.824-827)."""

    card: str


@event("eu-tile")
class UseTile(Event):
    """A Hero tile, Familiar ability, Scroll or token with numbers (``data/tiles.json``)."""

    hero: str
    tile: str
    choice: str = ""
    value: int = 0
    """The value shown on the component, for those that say so."""
    die: int = 0
    """Monster die re-rolled (0 or 1) by a one-die re-roll."""


@event("eu-modify")
class Modify(Event):
    """Any other effect on this Monster Attack: Combat Value and/or Injuries on ``hero``."""

    hero: str
    cv: int = 0
    injuries: int = 0
    reason: str = ""


@event("eu-reroll")
class HeroReroll(Event):
    """In the response the Hero has Monster dice re-rolled (a Gaar token, l.823); ``gaar`` spends one."""

    hero: str
    dice: tuple[int, ...] = (0,)
    gaar: bool = True
    reason: str = ""


@event("eu-done")
class Done(Event):
    """The Hero's response is over (the attack resolves), or a non-attack Hero Roll takes effect."""


@event("eu-hero-roll")
class StartHeroRoll(Event):
    """A Hero Roll is about to be made: whose, what for, against what and with which weapon bands."""

    hero: str
    purpose: str = "attack"
    target: str = ""
    weapon: str = ""
    """A weapon id (``elven-sword``) or bands like ``2-5/6-8/9+``."""
    revealed: tuple[int, ...] = ()
    """Bird/Deer: directions 1-6 where the Map is revealed."""


@event("eu-damage")
class Damage(Event):
    """Damage a Hero deals in a Hero Attack (or First Strike): the amount the tile shows."""

    hero: str
    amount: int
    target: str = ""
    """``""`` (the Monster fought), an Enemy's index, ``rotting-fly`` or ``rotting-worm``."""


@event("eu-hope")
class Hope(Event):
    """The Die of Hope changes: points spent (negative) or added."""

    hero: str
    change: int


@event("eu-injure")
class Injure(Event):
    """Injuries suffered (positive) or healed (negative) outside a Monster Attack."""

    hero: str
    amount: int
    reason: str = ""


@event("eu-death")
class Death(Event):
    """A Hero dies outside of Combat (Fellowship: 1 Reputation lost, l.964)."""

    hero: str


@event("eu-round")
class NewRound(Event):
    """A Fellowship round begins: its card's values (``fellowship.CARD_KEYS``) and, in round 1, the Leader."""

    card: dict[str, Any] = field(default_factory=dict)
    leader: str = ""


@event("eu-exchange")
class Exchange(Event):
    """A Hero gives Items to Heroes on the hex: recipient -> total selling price (l.894-898)."""

    giver: str
    gifts: dict[str, int] = field(default_factory=dict)


@event("eu-move-token")
class TakeMoveToken(Event):
    """A Hero takes a Move token from beside the Fellowship card (l.886)."""

    hero: str


@event("eu-quest")
class Quest(Event):
    """A Hero fulfils their Personal Quest (l.889-891)."""

    hero: str


@event("eu-object")
class PlaceObject(Event):
    """Map Secrets: an Object token carried to its Location goes beside the Hero board (l.617-620),
    or one taken directly (``from_sack=false``)."""

    hero: str
    object: str
    from_sack: bool = True


@event("eu-beast")
class Beast(Event):
    """Map Secrets: a Wolf or Bear attacked (First Strike and Hero Attack Damage, l.638-667)."""

    hero: str
    beast: str
    damage: tuple[int, ...] = ()
    injuries: int = 0
    """Injuries the beast's token showed when flipped."""


@event("eu-draw")
class Draw(Event):
    """A Hero draws Silver / Gold cards (each also joins the cache, l.916; ``cache=false`` for the
    exceptions: a Gold card for 4 Silver, Charm, Raklor's Forge)."""

    hero: str
    silver: int = 0
    gold: int = 0
    cache: bool = True


@event("eu-familiar")
class FamiliarAction(Event):
    """Eltrea's Familiar: ``summon`` (``familiar``), ``move`` (``steps`` hexes), ``recall``, or ``turn``
    (her turn begins: the Familiar board's Hero tokens come back, its Move points refill)."""

    hero: str = "eltrea"
    action: str = "move"
    familiar: str = ""
    steps: int = 0
    slot: str = "lower"


@event("eu-stand")
class Stand(Event):
    """A figure stands on a Map hex as the table shows it (the camera's ``figure-moved``, taken by
    :mod:`.sensed`): a Hero or Eltrea's active Familiar on ``cell`` ``[q, r]``, or off the Map
    (``cell`` None: the Familiar back on its card). ``placed``: a player confirmed the table, so
    nothing is checked or spent."""

    figure: str
    cell: tuple[int, int] | None = None
    placed: bool = False


@event("eu-odd")
class OddRewards(Event):
    """Joint Combat: the players' choice of the Hero taking each odd reward value (l.967)."""

    odd: dict[str, str] = field(default_factory=dict)


@event("eu-end")
class EndGame(Event):
    """The scenario ends: won or lost as the Scenario Book says; Map Secrets scores (not in Fellowship)."""

    won: bool = True
    reason: str = ""
