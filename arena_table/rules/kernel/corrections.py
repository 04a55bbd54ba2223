"""Correcting a die of an earlier roll: the log keeps the roll as read, replay applies it corrected.

A ``correct roll=N index=I value=V`` event does not patch the state it arrives in: replay
(:func:`arena_table.rules.kernel.table.replay`) substitutes ``V`` into roll ``N`` where roll ``N``
stands and applies every event after it again, so the game ends as if the die had been read right
the first time (the log is the truth, STYLE.md §2). What the camera read stays in the log and in
the tray (:attr:`~.mechanics.dice.Roll.sensed`). A later event the corrected value makes illegal
is named (:class:`~.errors.LaterEventRefused`); a ``drop seq=K`` recorded with the correction takes
it out of effect, as an undo would, and keeps it in the log. Any game that takes rolls gets this
from the kernel; no game handles ``correct`` itself.
"""

from __future__ import annotations

from typing import Iterable

from .errors import Refused
from .events import DiceRolled, DieCorrected, Dropped, Event, GameStarted, Undone
from .mechanics import dice as tray_record
from .registry import find_game

Record = tuple[int, Event]


def substitutions(records: Iterable[Record], skip: frozenset[int]) -> tuple[dict[int, tuple[int | str, ...]],
                                                                            dict[int, int | str]]:
    """The faces each corrected roll is replayed with, and what each correction changed.

    Corrections count in log order; one counts only when it names an earlier roll in effect (not in
    ``skip``, the undone and dropped events) of the same game, a die position that roll has and a
    face its die has (for a standard die or a die kind of the catalogue: its symbol is substituted).

    Returns:
        ``(faces, was)``: ``faces[roll seq]`` the corrected faces; ``was[correction seq]`` the value
        the die showed before that correction.

    >>> subs = substitutions([(1, DiceRolled(faces=(3, 5))), (2, DieCorrected(roll=1, index=1, value=2)),
    ...                       (3, DieCorrected(roll=1, index=1, value=4))], frozenset())
    >>> subs
    ({1: (3, 4)}, {2: 5, 3: 2})
    """
    rolls: dict[int, tuple[int, DiceRolled, tuple[int | str, ...]]] = {}  # seq -> (game number, roll, faces)
    changed: set[int] = set()
    was: dict[int, int] = {}
    game = 0
    for seq, ev in records:
        if seq in skip or isinstance(ev, (Undone, Dropped)):
            continue
        if isinstance(ev, GameStarted):
            game += 1
        elif isinstance(ev, DiceRolled):
            rolls[seq] = (game, ev, ev.faces)
        elif isinstance(ev, DieCorrected) and ev.roll < seq and ev.roll in rolls:
            of_game, roll, faces = rolls[ev.roll]
            value = _face(roll, ev.index, ev.value) if of_game == game and 0 <= ev.index < len(faces) else None
            if value is None:
                continue
            was[seq] = faces[ev.index]
            rolls[ev.roll] = (game, roll, faces[:ev.index] + (value,) + faces[ev.index + 1:])
            changed.add(ev.roll)
    return {seq: rolls[seq][2] for seq in changed}, was


def _face(roll: DiceRolled, index: int, value: int | str) -> int | str | None:
    """Face ``value`` of die ``index`` of ``roll`` as the roll records it (a kind's symbol, as the tray
    applies a correction), or ``None`` when that die has no such face."""
    if roll.kinds:
        try:
            return tray_record.face_symbol(tray_record.roll_kinds(roll)[index], value)
        except Refused:
            return None
    sides = tray_record.sides_of(roll.die)
    if not isinstance(value, int):
        return None
    return value if sides is None or 1 <= value <= sides else None


def check_correction(ts, event: DieCorrected) -> None:
    """Refuse a correction the running game cannot take, whatever follows the roll: a roll not of
    this game, a die position the roll lacks, or a face its die does not have.

    Raises:
        Refused: the reason names the roll, the die or the face.
    """
    game = find_game(ts.game)
    if game.dice is not None:
        wrong = tray_record.game_dice_error(game.title, game.dice(ts.state), ts.tray, event)
        if wrong:
            raise Refused(wrong, event=event)
    tray_record.apply_tray(ts.tray, event, ts.seq + 1)


def check_drops(records: list[Record], skip: frozenset[int], roll: int, drops: Iterable[Dropped]) -> None:
    """Refuse a ``drop`` of an event that is not a later event in effect of the running game: only an
    event after the corrected roll ``roll`` can become illegal through it.

    Raises:
        Refused: the drop names no such event.
    """
    by_seq = dict(records)
    for drop in drops:
        ev = by_seq.get(drop.seq)
        if ev is None or drop.seq in skip or isinstance(ev, (Undone, Dropped)):
            raise Refused(f"there is no event #{drop.seq} in effect to drop", event=drop)
        if drop.seq <= roll:
            raise Refused(f"event #{drop.seq} comes before roll {roll}: the correction cannot make it illegal",
                          event=drop)
        if isinstance(ev, GameStarted) or any(isinstance(e, GameStarted) and roll < s <= drop.seq and s not in skip
                                              for s, e in records):
            raise Refused(f"event #{drop.seq} belongs to another game than roll {roll}", event=drop)


def describe_correction(event: DieCorrected, was: int | None) -> str:
    """The log's words for a correction that changed a die from ``was``.

    >>> describe_correction(DieCorrected(roll=4, index=0, value=6), 2)
    'Corrected die #1 of roll 4 from 2 to 6'
    """
    frm = f" from {was}" if was is not None else ""
    return f"Corrected die #{event.index + 1} of roll {event.roll}{frm} to {event.value}"
