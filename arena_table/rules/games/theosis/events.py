"""Theosis events (kinds prefixed ``th-``), each one decision the table cannot sense.

Dice reach the game as the kernel's ``roll`` events and tokens as ``tag-on``;
everything else a player decides (where a Hero goes, which Power is played,
the target, the Skill) is one of these, entered at the control page or built
from tags on the attacker/defender pads. Section references are to the
Theosis rulebook.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from arena_table.rules.kernel.events import Event, event


@event("th-place")
class Place(Event):
    """A Hero is assigned to a Hierapolis location (p.10 Assigning Heroes to Locations).

    >>> str(Place(hero="rochon", location="warmonger", golden=True, target="rac"))
    'th-place hero=rochon location=warmonger golden=true target=rac'
    """

    hero: str
    location: str
    """A quest alignment (``warmonger`` ... ``merciful``) or a location (``tavern``, ``cathedral``,
    ``thieves-guild``, ``mercenary-camp``, ``market``, ``mage-tower``)."""
    golden: bool = False
    """On the quest's golden slot: gains the Power, the quest reward and moves the track."""
    target: str = ""
    """Enemy hero (Warmonger damage, Thieves' Guild) or player (Deceitful steal)."""
    amount: int = -1
    """Gold to steal (Deceitful: up to 3); -1 = as much as allowed."""
    power: str = ""
    """Expansion choice: the expansion card instead of the basic one (errata p.4)."""
    item: str = ""
    """Item taken (Righteous pouch draw, Vengeful/Market steal)."""
    equip: str = ""
    """Hero equipping ``item`` (default: the placed hero)."""
    mana: tuple[str, ...] = ()
    """Mana gems gained, each ``hero`` or ``hero:skill`` (Merciful quest, Cathedral)."""
    heal: str = ""
    """Hero fully healed at the Cathedral."""
    ritual: str = ""
    """Ritual prepared at the Mage Tower (face down)."""
    ritual_turn: int = 0


@event("th-artifact")
class ArtifactRevealed(Event):
    """The turn's face-down Artifact is revealed for bidding (p.12 Artifacts)."""

    artifact: str


@event("th-bid")
class Bid(Event):
    """A player's sealed bid (0 = not bidding); all bids resolve together (p.12)."""

    PRIVATE_FIELDS = ("amount", "hero")  # sealed: the view shows bids once all are revealed

    player: str
    amount: int
    hero: str = ""
    """Hero who equips the Artifact if this bid wins."""


@event("th-next")
class Next(Event):
    """Ends the Hierapolis turn (all Heroes placed, bidding done) or Fast Action Preparation."""


@event("th-allocate")
class Allocate(Event):
    """A player puts gold on their Heroes' mats (p.13 Step 2)."""

    player: str
    gold: dict[str, int] = field(default_factory=dict)


@event("th-rank")
class SetRanking(Event):
    """Co-operating players set their Hero Ranking as they prefer (Setting Up the Arena, Monster Modes)."""

    order: tuple[str, ...]


@event("th-draft")
class Draft(Event):
    """Fast Action Preparation: a player drafts a Power card (Game Modes)."""

    player: str
    power: str


@event("th-equip")
class Equip(Event):
    """A Hero equips an item (fast preparation offers, won Artifact, corrections)."""

    hero: str
    item: str
    drop: str = ""
    """Item discarded to the pouch to make room."""


@event("th-gem")
class Gem(Event):
    """A Mana gem placed in a Skill outside an action (fast preparation, Ritual, corrections)."""

    hero: str
    skill: str = ""


@event("th-move")
class Move(Event):
    """A Hero stands on a hex (entering the Arena, moving, pushed or pulled), axial ``[q, r]``."""

    hero: str
    cell: tuple[int, int]
    placed: bool = False
    """A placement a player confirmed at the table (``figure-confirm``): not counted or checked as
    the acting Hero's own move."""
    facing: int | None = None
    """The side the miniature faces, 0..5 (E, NE, NW, W, SW, SE) as the camera saw it; shown only."""


@event("th-stamina")
class Stamina(Event):
    """The top Stamina Token of a monster is revealed: damage needed and defences (Monster Stamina)."""

    monster: str
    threshold: int
    resist: tuple[str, ...] = ()
    protect: tuple[str, ...] = ()


@event("th-ritual")
class CastRitual(Event):
    """A player casts the Ritual whose turn marker matches the turn (p.14, pp.44-45)."""

    player: str
    target: tuple[str, ...] = ()
    cells: tuple[tuple[int, int], ...] = ()
    mana: tuple[str, ...] = ()


@event("th-pass")
class Pass(Event):
    """Actions 1-2 (p.14): discard a Power face down; with ``skill``, also place a Mana gem
    in that Skill and take one Damage."""

    hero: str
    power: str = ""
    skill: str = ""


@event("th-bless")
class Bless(Event):
    """Action 3 (p.14): a Blessing Power face up on an allied Hero (Power Management)."""

    hero: str
    power: str
    target: str


@event("th-attack")
class Attack(Event):
    """Actions 4-6 (p.14): attack with a Power face down, a Skill, or a Spell face up.

    ``defend`` lists one Power per target in the same order (area attacks: each a
    different card of that player, p.16). Against monsters the defence d4 is read
    from the next ``roll``.
    """

    hero: str
    target: tuple[str, ...] = ()
    power: str = ""
    defend: tuple[str, ...] = ()
    skill: str = ""
    spell: bool = False
    defense_skill: tuple[str, ...] = ()
    """Defence Skill per target ('' for none), same order as ``target``."""
    choice: dict[str, Any] = field(default_factory=dict)
    """Optional texts taken: ``bloodthirst``, ``remainder`` (dual wield type), ``raise`` (Raise the
    Dead card; the defender's: ``defender_raise``, or ``raise`` when the attacker plays no Raise the
    Dead), ``discard`` (Blind/Neutralize), ``banner`` (the attacker stands on the Banner of Victory:
    refused unless the Banner is in the Arena under the Hero, p.45). Fortifications' +1 Defense is
    read from the defender's hex (p.45), not entered."""


@event("th-skill")
class UseSkill(Event):
    """Action 6 with a Skill that does not attack (heals, automatic damage, Mana)."""

    hero: str
    skill: str
    power: str = ""
    target: tuple[str, ...] = ()
    choice: dict[str, Any] = field(default_factory=dict)
    """Optional texts taken: ``curse`` maps each hero to the Curse Catharsis removes from it ('' keeps
    them all); a hero with a single Curse needs no entry (Appendix Skills: Catharsis)."""


@event("th-monster")
class MonsterAction(Event):
    """Targets and defence Powers for the monster action the skullduggery die picked (Monster Defense)."""

    monster: str
    target: tuple[str, ...] = ()
    defend: tuple[str, ...] = ()


@event("th-adjust")
class Adjust(Event):
    """A correction from the control page for a card text the engine leaves to the table."""

    target: str
    health: int = 0
    mana: int = 0
    gold: int = 0
    reason: str = ""


THEOSIS_EVENTS = (Place, ArtifactRevealed, Bid, Next, Allocate, SetRanking, Draft, Equip, Gem, Move, Stamina,
                  CastRitual, Pass, Bless, Attack, UseSkill, MonsterAction, Adjust)


@event("th-enter")
class Enter(Event):
    """A value printed on a component but not in the rulebook text, entered at the table: a hero's
    ``speed`` or ``alignment`` (key: hero), a ``power``'s values and damage icon (key: power;
    value ``{"values": [a, d], "damage_type": t}``), the ``thieves-faces`` (value: face -> result),
    a new ``item`` token (key: its id; value: its fields, as the ``items`` option's).

    >>> str(Enter(what="speed", key="rochon", value=4))
    'th-enter what=speed key=rochon value=4'
    """

    what: str
    key: str
    value: Any = None
