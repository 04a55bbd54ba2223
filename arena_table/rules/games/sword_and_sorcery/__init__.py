"""Sword & Sorcery: Myths of the Arena — Clash of the Heroes (rulebook:
``../shared/rulebooks/sword-and-sorcery-myths-of-the-arena.txt``, section 6 and the Rules Reference
Sheet; sections 4.1-4.6 for the arena's hazards).

Modules: ``quests`` (the PvP setup grids), ``setup``, ``readings`` (the book's ambiguities as
options), ``tiebreak`` (6.1), ``flow`` (the phase table: Preparation, claims, deployment, the
Rounds' phases, victory), ``rules`` (the handlers), ``play`` (the Hero Turn, Evade, attacks),
``combat`` (HIT/DEF arithmetic), ``conditions``, ``harm`` (damage and death), ``hazards``
(Pitfalls, Traps, Lava, Flames), ``areas`` (adjacency, control, domination), ``dice`` (faces by
symbol name), ``view``, ``form``.

An attack in notation::

    sns-attack who=artemis target=shae weapon=bow
    sns-roll red=["hit+hit","hit+hit"] blue=["hit"]     # HIT dice: 5 hits
    sns-roll blue=["blank","hit"]                       # Shae's DEF dice: 0 shields
    sns-resolve

>>> from arena_table.rules import find_game
>>> find_game("sns").title
'Sword & Sorcery: Myths of the Arena'
"""

from __future__ import annotations

from typing import Any, Mapping

from arena_table.rules.kernel.events import Event
from arena_table.rules.kernel.game import Game, Outcome
from arena_table.rules.kernel.view import View

from . import areas, dice, form, offers, sensed, setup
from . import events as _events  # noqa: F401 - registers the sns-* event kinds
from .flow import FLOW
from .rules import HANDLERS, guard
from .state import SnsState
from .view import describe as _describe
from .view import phase_line
from .view import view as _view


def _setup(options: Mapping[str, Any]) -> SnsState:
    """The state before the Preparation (see :mod:`.setup`); raises ``ValueError`` naming the field."""
    return setup.new_game(form.to_options(options))


def explain(exc: Exception) -> str:
    """An id naming nothing, or a value out of range, refused in the error's own words."""
    return str(exc.args[0] if exc.args else exc)


def outcome(state: SnsState) -> Outcome | None:
    if state.result is None:
        return None
    winners, reason = state.result
    return Outcome(winners=tuple(winners), reason=reason, draw=not winners)


def describe(state: SnsState, event: Event) -> str:
    """The log line of ``event`` (:func:`.view.describe`), from the state before and after it."""
    try:
        after = GAME.apply(state, event)
    except (ValueError, KeyError):
        after = None
    return _describe(state, after, event)


def view(state: SnsState, viewer: str = "spectator") -> View:
    """What the screens show (:func:`.view.view`, typed after ``docs/view-schema.md``)."""
    return View.from_json(_view(state, viewer))


def dice_kinds(state: SnsState) -> dict[str, int]:
    """The red and blue dice, read by face index through the die kinds (:mod:`.dice`)."""
    return {k: len(v["faces"]) for k, v in dice.DIE_KINDS.items()}


GAME = Game(
    name="sword-and-sorcery", title="Sword & Sorcery: Myths of the Arena",
    aliases=("sns", "sword & sorcery", "myths-of-the-arena"),
    setup=_setup, handlers=HANDLERS, flow=FLOW, guard=guard, explain=explain, outcome=outcome, view=view,
    describe=describe, dice=dice_kinds, setup_form=form.setup_form,
    summary=lambda state: f"sword-and-sorcery {phase_line(state)}",
    actions=lambda state: offers.actions(state, GAME.apply),
    board=areas.board, figures=sensed.FIGURES,
)
