"""Sword & Sorcery: Myths of the Arena — Clash of the Heroes (rulebook:
``../shared/rulebooks/sword-and-sorcery-myths-of-the-arena.txt``, section 6 and the Rules Reference
Sheet; sections 4.1-4.6 for the arena's hazards).

Modules: ``quests`` (the PvP setup grids), ``setup``, ``readings`` (the book's ambiguities as
options), ``tiebreak`` (6.1), ``flow`` (Preparation, claims, deployment, the Rounds' phases,
victory), ``play`` (the Hero Turn, Evade, attacks), ``combat`` (HIT/DEF arithmetic),
``conditions``, ``harm`` (damage and death), ``hazards`` (Pitfalls, Traps, Lava, Flames),
``areas`` (adjacency, control, domination), ``dice`` (faces by symbol name), ``view``, ``form``.

>>> from arena_table.rules import find_game
>>> find_game("sns").title
'Sword & Sorcery: Myths of the Arena'
"""

from __future__ import annotations

from typing import Any, Mapping

from arena_table.rules.errors import IllegalEvent
from arena_table.rules.events import Event
from arena_table.rules.game import Outcome, register_game

from . import dice, form, rules, setup
from . import events as _events  # noqa: F401 - registers the sns-* event kinds
from .errors import Illegal
from .state import SnsState
from .view import describe as _describe
from .view import phase_line
from .view import view as _view


class SwordAndSorcery:
    """The ``sword-and-sorcery`` game (``Game`` protocol of :mod:`arena_table.rules.game`)."""

    name = "sword-and-sorcery"
    aliases = ("sns", "sword & sorcery", "myths-of-the-arena")
    title = "Sword & Sorcery: Myths of the Arena"

    def setup(self, options: Mapping[str, Any]) -> SnsState:
        """The state before the Preparation (see :mod:`.setup`).

        Raises:
            ValueError: the quest grid refuses a field (the message names it).
        """
        return setup.new_game(form.to_options(options))

    def setup_form(self) -> list[dict[str, Any]]:
        return form.setup_form()

    def dice(self, state: SnsState) -> dict[str, int]:
        """The red and blue dice, read by index through the die kinds (:mod:`.dice`)."""
        return {k: len(v["faces"]) for k, v in dice.DIE_KINDS.items()}

    def apply(self, state: SnsState, event: Event) -> SnsState:
        """The state after ``event``.

        Raises:
            IllegalEvent: the rules forbid it now; the reason says why.
        """
        try:
            return rules.apply(state, event)
        except Illegal as exc:
            raise IllegalEvent(event, str(exc), self.summary(state)) from None
        except (KeyError, ValueError) as exc:
            raise IllegalEvent(event, str(exc.args[0] if exc.args else exc), self.summary(state)) from None

    def outcome(self, state: SnsState) -> Outcome | None:
        if state.result is None:
            return None
        winners, reason = state.result
        return Outcome(winners=tuple(winners), reason=reason, draw=not winners)

    def view(self, state: SnsState, viewer: str = "spectator") -> dict[str, Any]:
        return _view(state, viewer)

    def describe(self, state: SnsState, event: Event) -> str:
        try:
            after = rules.apply(state, event)
        except (Illegal, KeyError, ValueError):
            after = None
        return _describe(state, after, event)

    def objects(self) -> list[str]:
        """Taggable objects: none fixed (Heroes come from the setup options)."""
        return []

    @staticmethod
    def summary(state: SnsState) -> str:
        return f"sword-and-sorcery {phase_line(state)}"


SWORD_AND_SORCERY = register_game(SwordAndSorcery())
