"""First to ten: players take turns rolling a d6 and add the face to their score; the first to 10 wins.

The example game of ``docs/new-game.md``: the whole of a game for the table in one folder.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Mapping

from arena_table.rules.kernel.actions import Action, Choice, Param, legal
from arena_table.rules.kernel.errors import Refused
from arena_table.rules.kernel.events import DiceRolled, Event
from arena_table.rules.kernel.game import Flow, Game, Outcome, Phase
from arena_table.rules.kernel.mechanics.options import names
from arena_table.rules.kernel.view import Entry, Score, View

TARGET = 10


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    scores: tuple[int, ...]
    turn: int = 0
    """Index of the player who rolls next."""
    phase: str = "play"
    winner: str = ""


def setup(options: Mapping[str, Any]) -> State:
    players = tuple(names("players", options.get("players", ["Ann", "Bo"])))
    if len(players) < 2:
        raise ValueError("players: at least two")
    return State(players=players, scores=(0,) * len(players))


def guard(state: State, event: Event) -> None:
    if state.phase == "over" and isinstance(event, DiceRolled):
        raise Refused(f"the game is over: {state.winner} won", rule="first to 10")


def roll(state: State, event: DiceRolled) -> State:
    if len(event.faces) != 1:
        raise Refused(f"roll one d6, not {len(event.faces)}", rule="each turn a player rolls one d6")
    scores = list(state.scores)
    scores[state.turn] += event.faces[0]
    return dataclasses.replace(state, scores=tuple(scores), turn=(state.turn + 1) % len(state.players))


def winner(state: State) -> str:
    return next((p for p, s in zip(state.players, state.scores) if s >= TARGET), "")


FLOW = Flow(
    phases={"play": Phase(next=lambda s: "over", end_if=lambda s: bool(winner(s)),
                          on_end=lambda s: dataclasses.replace(s, winner=winner(s)))},
    phase_of=lambda s: s.phase, enter=lambda s, phase: dataclasses.replace(s, phase=phase))


def outcome(state: State) -> Outcome | None:
    return Outcome(winners=(state.winner,), reason=f"first to {TARGET} points") if state.winner else None


def view(state: State, viewer: str = "spectator") -> View:
    up = state.players[state.turn]
    return View(
        phase="Over" if state.winner else f"{up} rolls",
        order=tuple(Entry(id=p.lower(), name=p, side=p, acting=p == up and not state.winner)
                    for p in state.players),
        scores=tuple(Score(side=p, label="Points", value=s, max=TARGET) for p, s in zip(state.players, state.scores)),
        prompt="" if state.winner else f"{up}: roll the d6")


def actions(state: State) -> list[Action]:
    """What the player up can do now: roll the d6, each face a button (nothing once the game is won).
    ``legal`` keeps only the faces ``apply`` accepts, so the offer never says more than the rules."""
    if state.winner:
        return []
    faces = Param("faces", "Face rolled", tuple(Choice(str(f), {"faces": [f]}) for f in range(1, 7)))
    roll = legal(GAME.apply, state, "roll", "Roll the d6", state.players[state.turn],
                 {"die": "d6", "source": "control"}, (faces,))
    return [roll] if roll else []


def describe(state: State, event: Event) -> str:
    if isinstance(event, DiceRolled) and state.phase == "play" and len(event.faces) == 1:
        who = state.players[state.turn]
        return f"{who} rolls {event.faces[0]}: {state.scores[state.turn] + event.faces[0]} points"
    return ""


GAME = Game(
    name="first-to-ten", title="First to ten", aliases=("ft10",), setup=setup,
    handlers={DiceRolled: roll}, flow=FLOW, guard=guard, outcome=outcome, view=view, describe=describe,
    dice=lambda state: {"d6": 6}, actions=actions,
    setup_form=lambda: [{"name": "players", "label": "Players", "type": "list", "default": ["Ann", "Bo"]}],
    summary=lambda state: f"scores {dict(zip(state.players, state.scores))}",
)
