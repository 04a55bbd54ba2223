"""The rules kernel: events and their notation, the ``Game`` declaration, the registry, the table
state machine (replay, undo, digest) and the shared mechanics. It imports no game."""

from .errors import LaterEventRefused, NotationError, NothingToUndo, Refused, RulesError, UndoTargetMoved, UnknownGame
from .events import (DiceRolled, DieCorrected, Dropped, Event, GameStarted, Note, TagPlaced, TagRemoved, Undone,
                     event, event_types, from_json, parse, to_json, to_notation)
from .game import Flow, Game, Outcome, Phase
from .registry import event_game, fallback_game, find_game, register_game, registered_games
from .view import View
from .table import (LogLine, Record, TableState, apply, correct, digest, in_progress, is_legal, new_table, replay,
                    replay_steps, summarize, table_view, to_jsonable, undo_target, undone_seqs)

__all__ = [
    "LaterEventRefused", "NotationError", "NothingToUndo", "Refused", "RulesError", "UndoTargetMoved", "UnknownGame",
    "DiceRolled", "DieCorrected", "Dropped", "Event", "GameStarted", "Note", "TagPlaced", "TagRemoved", "Undone",
    "event", "event_types", "from_json", "parse", "to_json", "to_notation",
    "Flow", "Game", "Outcome", "Phase", "View",
    "event_game", "fallback_game", "find_game", "register_game", "registered_games",
    "LogLine", "Record", "TableState", "apply", "correct", "digest", "in_progress", "is_legal", "new_table", "replay",
    "replay_steps", "summarize", "table_view", "to_jsonable", "undo_target", "undone_seqs",
]
