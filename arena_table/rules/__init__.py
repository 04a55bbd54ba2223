"""Pure game logic: events, state, ``apply(state, event) -> state``, one module per game.

Imports nothing else of arena-table, no hardware, clocks, threads or ``random``.
"""

from .errors import IllegalEvent, NotationError, NothingToUndo, RulesError, UndoTargetMoved, UnknownGame
from .events import (DiceRolled, DieCorrected, Event, GameStarted, Note, TagPlaced, TagRemoved, Undone,
                     event, event_types, from_json, parse, to_json, to_notation)
from .game import (Game, LogLine, Outcome, Record, TableState, apply, digest, find_game, games, in_progress,
                   is_legal, new_table, register_game, replay, summarize, table_view, to_jsonable, undo_target,
                   undone_seqs)

__all__ = [
    "IllegalEvent", "NotationError", "NothingToUndo", "RulesError", "UndoTargetMoved", "UnknownGame",
    "DiceRolled", "DieCorrected", "Event", "GameStarted", "Note", "TagPlaced", "TagRemoved", "Undone",
    "event", "event_types", "from_json", "parse", "to_json", "to_notation",
    "Game", "LogLine", "Outcome", "Record", "TableState", "apply", "digest", "find_game", "games", "in_progress",
    "is_legal",
    "new_table", "register_game", "replay", "summarize", "table_view", "to_jsonable", "undo_target",
    "undone_seqs",
]
