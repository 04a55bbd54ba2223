"""Errors raised by the rules kernel and the games.

Every error of this package derives from :class:`RulesError`; specific errors
also inherit the builtin a caller would naturally catch (STYLE.md §5).
"""

from __future__ import annotations


class RulesError(Exception):
    """Base of every error raised by :mod:`arena_table.rules`."""


class NotationError(RulesError, ValueError):
    """A line of event notation (or its JSON form) could not be parsed.

    The message names the offending text and what was wrong with it.
    """


class UnknownGame(RulesError, LookupError):
    """``find_game`` was given a name or alias that no registered game has."""


def _without_time(event: object) -> object:
    """``event`` without its time stamp (``at=1796035143.69`` says nothing to a player; the log keeps it)."""
    import dataclasses

    if dataclasses.is_dataclass(event) and not isinstance(event, type) and getattr(event, "at", None) is not None:
        try:
            return dataclasses.replace(event, at=None)
        except (TypeError, ValueError):
            return event
    return event


class IllegalEvent(RulesError, ValueError):
    """An event that the rules do not allow in the current state.

    Attributes:
        event: the rejected event.
        reason: a short, human-readable reason (no trailing period).
        summary: a one-line summary of the state it was rejected in.
    """

    def __init__(self, event: object, reason: str, summary: str = "") -> None:
        self.event = event
        self.reason = reason
        self.summary = summary
        text = f"illegal event {_without_time(event)}: {reason}"
        if summary:
            text += f" [{summary}]"
        super().__init__(text)


class NothingToUndo(RulesError, LookupError):
    """Undo was asked for but no undoable event is left in the log."""


class UndoTargetMoved(NothingToUndo):
    """Undo was asked for event ``expected`` (as previewed) but the last undoable event is now ``seq``
    (another event or undo came first); nothing was taken back."""

    def __init__(self, seq: int, event: object, expected: int) -> None:
        self.seq, self.event, self.expected = seq, event, expected
        super().__init__(f"the last event is now #{seq} ({event}), not #{expected}: look again before undoing")
