"""Demigods Evolution events (kinds prefixed ``dg-``), in notation and JSON like every event.

Dice are not events of this module: attack dice arrive as kernel
``roll die=dg-<attack type> faces=[i,...]`` (face *indices* 1..6, see
``data/dice.json``) and Demigod dice as ``roll die=dg-demigod faces=[...]``,
one die per contending player in seat order.

>>> from arena_table.rules import parse
>>> str(Use(who="warlord", use="elemental-sword", targets=("blacksmith", "trapper")))
'dg-use who=warlord use=elemental-sword targets=["blacksmith","trapper"]'
>>> parse(str(Move(who="knight", to=(3, 4), facing=1))) == Move(who="knight", to=(3, 4), facing=1)
True
"""

from __future__ import annotations

from arena_table.rules.kernel.events import Event, event


# --- setup: selection, Demigods, items, formation ('Heroes', 'Demigods', pp.10-19) -------------

@event("dg-pick")
class Pick(Event):
    """``player`` takes hero ``hero`` (Chieftain, Divine Mirror deal or Free Pick, p.11)."""

    player: str
    hero: str


@event("dg-demigod")
class ChooseDemigod(Event):
    """``player`` fields the Demigod ``demigod`` (p.17)."""

    player: str
    demigod: str


@event("dg-equip")
class Equip(Event):
    """``player`` puts ``item`` in equipment slot ``slot`` (0-based) of their Demigod (p.18).

    ``hero`` names the hero an item binds at setup (Commander's Armor).
    """

    player: str
    item: str
    slot: int
    hero: str = ""


@event("dg-formation")
class Formation(Event):
    """``player``'s hero cards left to right (highest initiative first; the player orders ties, p.12)."""

    player: str
    heroes: tuple[str, ...]


@event("dg-begin")
class Begin(Event):
    """Selection is finished: the first round starts (p.26)."""


# --- play ------------------------------------------------------------------------------------

@event("dg-activate")
class Activate(Event):
    """Declares the next character to act where the rules leave a choice (teammates' ties, p.30)."""

    who: str


@event("dg-enter")
class Enter(Event):
    """``who`` enters the battlefield for 1 AP on a field at its player's edge (p.26)."""

    who: str
    cell: tuple[int, int] | None = None
    facing: int | None = None


@event("dg-move")
class Move(Event):
    """The acting character moves/rotates to ``to`` facing ``facing`` ('Movement', p.21).

    With positions known the AP cost is the cheapest legal path for the class
    (1 a field or 90° turn, +1 entering high ground); without, give ``ap``.
    """

    who: str
    to: tuple[int, int] | None = None
    facing: int | None = None
    ap: int | None = None


@event("dg-place")
class Place(Event):
    """Where a figure is now, from the board markers or the control page (costs nothing).

    Without ``cell`` the figure is on the battlefield at an unknown field;
    ``off=true`` takes it off the board.
    """

    who: str
    cell: tuple[int, int] | None = None
    facing: int | None = None
    off: bool = False


@event("dg-use")
class Use(Event):
    """The acting character uses ``use`` on ``targets``: ``attack`` (base attack), a skill, an
    item or a special ability. Costs are paid now; attacks then wait for their dice.

    Where figure positions are not known, the control page supplies the geometry:
    ``side`` (per target, as seen from the target: ``front``, ``side``, ``back``),
    ``distance`` in fields (0: melee for range-1 actions, ranged otherwise),
    ``high_ground`` (attacker on high ground) and ``engaged`` (an opposing figure
    in the attacker's melee range, for Archery).
    """

    who: str
    use: str = "attack"
    targets: tuple[str, ...] = ()
    side: tuple[str, ...] = ()
    distance: int = 0
    high_ground: bool = False
    engaged: bool = False


@event("dg-reroll")
class Reroll(Event):
    """Attack link: re-roll die ``index`` (0-based, attack order) of the pending attack (p.12)."""

    index: int


@event("dg-resolve")
class Resolve(Event):
    """Keep the rolled dice: the pending attack is resolved (only needed while rerolls are left)."""


@event("dg-end-turn")
class EndTurn(Event):
    """The acting character (or player, in the minion phase) ends its turn."""

    who: str = ""


@event("dg-divine-read")
class DivineRead(Event):
    """The camera read ``who``'s divine die showing ``value``; compared with the engine's value."""

    who: str
    value: int


# --- minions (Advanced Tactics, p.20) --------------------------------------------------------

@event("dg-minion-enter")
class MinionEnter(Event):
    """``player`` enters a minion (two in round 1, one per round after)."""

    player: str
    cell: tuple[int, int] | None = None


@event("dg-minion-exit")
class MinionExit(Event):
    """Minion ``who`` reached the opponent's side: removed, one tactical point to its side."""

    who: str


# --- corrections from the control page -------------------------------------------------------

@event("dg-wound")
class Wound(Event):
    """Adds ``amount`` wounds to ``who`` (negative heals) outside an attack: obstacles, card effects."""

    who: str
    amount: int
    reason: str = ""


@event("dg-divine")
class SetDivine(Event):
    """Sets ``who``'s divine power to ``value`` (0..6): a card effect the engine does not model."""

    who: str
    value: int


@event("dg-condition")
class AddCondition(Event):
    """Puts a buff/debuff token on ``who`` (or on ``who``'s side with ``scope=global``)."""

    who: str
    name: str
    buff: bool = False
    """A buff (true) or a debuff (false); not called ``kind``, which names the event in JSON."""
    stat: str = ""
    amount: int = 0
    turns: int = 2
    passive: bool = False
    scope: str = "character"
    wounds: int = 0
    text: str = ""


@event("dg-clear")
class ClearCondition(Event):
    """Removes the token ``name`` from ``who`` (a skill or item that says so)."""

    who: str
    name: str
