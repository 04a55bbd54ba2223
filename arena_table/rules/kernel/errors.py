"""Errors raised by the rules kernel and the games.

Every error of the rules derives from :class:`RulesError`; specific errors
also inherit the builtin a caller would naturally catch (STYLE.md §5).
"""

from __future__ import annotations

import dataclasses


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
    if dataclasses.is_dataclass(event) and not isinstance(event, type) and getattr(event, "at", None) is not None:
        try:
            return dataclasses.replace(event, at=None)
        except (TypeError, ValueError):
            return event
    return event


class Refused(RulesError, ValueError):
    """The rules refuse what an event asks: the one error every game's handler raises.

    A handler raises ``Refused(reason, rule)``; the kernel adds the event and a one-line state
    summary (:meth:`at`) before the error leaves :func:`arena_table.rules.kernel.table.apply`.

    Attributes:
        reason: a short, human-readable reason (no trailing period).
        rule: the rulebook section the refusal rests on (``"Theosis FAQ, Skills"``), or "" when
            the reason is not a rule (an unknown name, a malformed value).
        event: the refused event, once known (else ``None``).
        summary: a one-line summary of the state it was refused in, once known.

    >>> str(Refused("the game is over"))
    'the game is over'
    """

    def __init__(self, reason: str, rule: str = "", *, event: object = None, summary: str = "") -> None:
        self.reason, self.rule, self.event, self.summary = reason, rule, event, summary
        text = reason if event is None else f"illegal event {_without_time(event)}: {reason}"
        if summary:
            text += f" [{summary}]"
        super().__init__(text)

    def at(self, event: object, summary: str = "") -> "Refused":
        """This refusal naming ``event`` and ``summary`` (itself when it already names an event)."""
        if self.event is not None:
            return self
        return Refused(self.reason, self.rule, event=event, summary=summary)


class NothingToUndo(RulesError, LookupError):
    """Undo was asked for but no undoable event is left in the log."""


class UndoTargetMoved(NothingToUndo):
    """Undo was asked for event ``expected`` (as previewed) but the last undoable event is now ``seq``
    (another event or undo came first); nothing was taken back."""

    def __init__(self, seq: int, event: object, expected: int) -> None:
        self.seq, self.event, self.expected = seq, event, expected
        super().__init__(f"the last event is now #{seq} ({event}), not #{expected}: look again before undoing")


class LaterEventRefused(Refused):
    """A correction of an earlier roll would make a later event illegal: the correction is refused
    and nothing changes until the player drops that event (``drop``) with the correction.

    Attributes:
        later_seq: the sequence number of the first later event refused under the corrected roll.
        later_event: that event.
        later_reason: the rules' reason for refusing it (a :class:`Refused` reason).
    """

    def __init__(self, correction: object, later_seq: int, later_event: object, later_reason: str,
                 summary: str = "") -> None:
        self.later_seq, self.later_event, self.later_reason = later_seq, later_event, later_reason
        super().__init__(f"it makes event #{later_seq} ({_without_time(later_event)}) illegal: {later_reason}; "
                         "drop that event with the correction, or drop it and enter it again",
                         event=correction, summary=summary)

    def at(self, event: object, summary: str = "") -> "Refused":
        return self
