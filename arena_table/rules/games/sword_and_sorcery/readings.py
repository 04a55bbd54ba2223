"""Where the book leaves a choice: each reading is an option with the default of ambiguities.md.

Options live under the ``readings`` key of the start options, e.g.
``{"readings": {"health_discard": "inflicted-turn"}}``. Each default below cites the lines it reads.

>>> read({}).control
'team-vs-all'
>>> read({"control": "largest"})
Traceback (most recent call last):
ValueError: readings.control: 'largest' is not one of team-vs-all, team-vs-each
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Mapping


@dataclass(frozen=True)
class Readings:
    """The readings in force."""

    tie_reroll: str = "until-broken"
    """6.1 "tied Teams roll again" against "Dice can only be rerolled once" (l.758, 941): a
    roll-again is a fresh roll, repeated until the tie breaks (``until-broken``);
    ``once-then-listing`` lets tied Teams roll again once and keeps a remaining tie in listing order."""
    control: str = "team-vs-all"
    """Control/domination with 3-4 Teams (l.1026-1027 vs l.822): a Team plus its allies against the
    sum of all opposing figures (``team-vs-all``), or against the largest single opposing Team
    (``team-vs-each``)."""
    health_discard: str = "own-turn"
    """Health Conditions go "at the end of the Hero Turn" (l.1060): at the end of the affected Hero's
    own next Hero Turn (``own-turn``), or of the Hero Turn in which they were gained (``inflicted-turn``)."""
    ko_forces_evade: bool = False
    """K.O. figures are "ignored by Characters" (l.1080): K.O. opponents count 0, make no reaction
    attack and alone force no Evade (false)."""
    ghost_targetable: bool = False
    """Ghost Souls (l.823-824): count 0, force no Evade, cannot be attacked (false)."""
    reaction_order: str = "tiebreak"
    """Several reaction attacks in one Evade (l.826-827): Tiebreaker Procedure between the reacting
    Teams, the owner's choice within a Team (``tiebreak``), or listing order (``listing``)."""
    hazard_kill_coins: bool = False
    """Kill Coins for deaths no attack dealt (l.920, 185): none for Time-Phase ticks and hazards."""
    teleport_kill_coins: bool = True
    """Spawn Gate teleport HP (l.925) that kills: a Kill Coin to the teleporting Hero."""
    resurrect_at_shrine: bool = True
    """Resurrection "using any of the available Shrines" (l.772, 824, 842, 848): the Ghost Soul must be
    in an open Shrine's area in the Time Phase."""
    resurrect_hp: int = 0
    """HP on return, a base-game value not in this book (config, *to enter*): 0 = full HP."""
    drop_defeated: bool = True
    """Defeated Teams (l.867) leave the Tiebreaker and the activation cycle (l.832-833)."""
    soul_point_hp: int = 1
    """Soul Points -> HP (l.825): 1 Soul Point = 1 HP."""
    flames_on_entry: bool = True
    """Infernal Flames are "standard Fire I tokens by Heroes" (l.224): a Hero moving into (or placed
    in) a Flame's area suffers Fire I, as with Lava (l.214-215); the Flame stays."""
    stunned_reacts: bool = False
    """A Stunned Hero makes no Reaction attack (Rank III, Enemies: "No Reaction attacks allowed",
    which 6.5 translates to opposing Heroes)."""
    break_after_damage: bool = True
    """Break tokens of an attack take effect after its damage (true), or before the armor step (false);
    the sheet does not say when."""


CHOICES = {
    "tie_reroll": ("until-broken", "once-then-listing"),
    "control": ("team-vs-all", "team-vs-each"),
    "health_discard": ("own-turn", "inflicted-turn"),
    "reaction_order": ("tiebreak", "listing"),
}


def read(options: Mapping[str, Any] | None) -> Readings:
    """The readings named in ``options`` over the defaults.

    Raises:
        ValueError: an unknown reading or a value of the wrong kind, naming it.
    """
    options = dict(options or {})
    defaults = Readings()
    values: dict[str, Any] = {}
    for key, value in options.items():
        if not hasattr(defaults, key):
            raise ValueError(f"readings.{key}: no such reading; readings: "
                             + ", ".join(f.name for f in dataclasses.fields(Readings)))
        default = getattr(defaults, key)
        if key in CHOICES and value not in CHOICES[key]:
            raise ValueError(f"readings.{key}: {value!r} is not one of {', '.join(CHOICES[key])}")
        if isinstance(default, bool) and not isinstance(value, bool):
            raise ValueError(f"readings.{key}: {value!r} must be true or false")
        if isinstance(default, int) and not isinstance(default, bool) and (
                isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise ValueError(f"readings.{key}: {value!r} must be a whole number, 0 or more")
        values[key] = value
    return dataclasses.replace(defaults, **values)
