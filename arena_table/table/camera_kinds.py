"""The camera loop's dice by kind: which kinds to read now, the reading, and the roll it makes.

While the running game waits for dice that show symbols (a Demigods attack's dice;
:func:`~arena_table.rules.kernel.awaited.kinds_to_read`), the camera reads the dice of the kinds
that game throws (its ``data/die_kinds.json``) with the kind reader instead of the pip reader, and a
settled throw becomes one roll named by kinds, (kind, face) per die:
``roll kinds=[demigods-ice,demigods-fire] faces=[failure,critical]``. A die of no kind in play is
reported (``other-kind``), never forced into a kind. Nothing here names a game.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Sequence

import numpy as np

from arena_table.rules import find_game
from arena_table.rules.kernel.awaited import kinds_to_read
from arena_table.rules.kernel.mechanics.dice import face_symbol, known_kind
from arena_table.rules.kernel.mechanics.die_kinds import DieKind
from arena_table.vision.dice import DiceReading, DieReading
from arena_table.vision.kind_roll import KindCodes, as_dice_reading, read_throw
from arena_table.vision.kinds import KindReading

from .ports import Ports

log = logging.getLogger(__name__)

KindReader = Callable[[np.ndarray, tuple[DieKind, ...], "str | None"], Sequence[KindReading]]
"""``(BGR frame, kinds, game) -> [KindReading]``: :func:`default_kind_reader` or a test's."""


def default_kind_reader(image: np.ndarray, kinds: tuple[DieKind, ...], game: str | None) -> list[KindReading]:
    """The shipped reader of dice by kind (:func:`arena_table.vision.kind_roll.read_throw`: square
    dice by ``vision/kinds.py``, d4s by ``vision/d4.py``)."""
    return read_throw(image, kinds, game)


def kinds_now(ports: Ports) -> tuple[tuple[DieKind, ...], str]:
    """The kinds to read dice as now, and the running game's title; ``()`` reads pips (no game
    waits for symbol dice, or no state to tell)."""
    try:
        ts = ports.state()
        game = find_game(ts.game)
        return kinds_to_read(game, ts.state), game.title
    except Exception as exc:  # a port without a state (a tool's): pips, as without kinds
        log.debug("no game state for die kinds (%s)", exc)
        return (), ""


def read_by_kinds(reader: KindReader, image: np.ndarray, kinds: tuple[DieKind, ...]
                  ) -> tuple[DiceReading, KindCodes, tuple[KindReading, ...]]:
    """``image`` read by ``reader`` as ``kinds``: the reading for the roll assembly (faces as
    :class:`KindCodes`), the codes, and the dice of no kind in play."""
    codes = KindCodes(kinds)
    game = next((g for k in kinds for g in k.games), None)
    reading, others = as_dice_reading(reader(image, kinds, game), codes, image.shape)
    return reading, codes, others


def other_kind_words(others: Sequence[KindReading], title: str) -> str:
    """The warning for dice of no kind in play: "1 die of a kind Demigods Evolution does not throw
    (other-kind), not in the roll: at (470, 360)"."""
    where = "; ".join(f"({r.box[0] + r.box[2] / 2:.0f}, {r.box[1] + r.box[3] / 2:.0f})" for r in others)
    return (f"{len(others)} {'die' if len(others) == 1 else 'dice'} of a kind {title or 'the game'} does not throw "
            f"(other-kind), not in the roll: at {where}")


def roll_fields(codes: KindCodes, good: Sequence[DieReading]) -> dict[str, Any]:
    """The ``kinds`` and ``faces`` of the roll the dice ``good`` (read ok, faces as codes) make,
    each face as the catalogue records it (a numeral as its number)."""
    pairs = [codes.pair(int(d.value)) for d in good]
    return {"kinds": tuple(k for k, _ in pairs), "faces": tuple(face_symbol(k, f) for k, f in pairs)}


def as_unread(others: Sequence[KindReading]) -> tuple[DieReading, ...]:
    """Dice of no kind in play as unread dice, for the live view's overlay (drawn red, ``?``)."""
    return tuple(DieReading(None, "unreadable", "other-kind", r.confidence, (r.box[0] + r.box[2] / 2.0,
                                                                             r.box[1] + r.box[3] / 2.0), r.box)
                 for r in others)


def _short(kind_id: str) -> str:
    """A kind's id without its game's prefix (``demigods-ice`` -> ``ice``)."""
    kind = known_kind(kind_id)
    games = kind.games if kind is not None else ()
    return next((kind_id[len(g) + 1:] for g in games if kind_id.startswith(g + "-")), kind_id)


def roll_words(event: Any) -> str:
    """A roll's faces for the camera status: ``3, 5`` for pips, ``ice failure, fire critical`` by kinds.

    >>> import arena_table.rules
    >>> from arena_table.rules import DiceRolled
    >>> roll_words(DiceRolled(kinds=("demigods-ice", "demigods-demigod"), faces=("failure", 4)))
    'ice failure, demigod 4'
    """
    if not event.kinds:
        return ", ".join(map(str, event.faces))
    kinds = event.kinds * len(event.faces) if len(event.kinds) == 1 else event.kinds
    return ", ".join(f"{_short(k)} {f}" for k, f in zip(kinds, event.faces))


def label(codes: KindCodes, die: DieReading) -> str:
    """A die read ok as the overlay labels it: its kind without the game's prefix, and its face
    (``ice failure``).

    >>> import arena_table.rules
    >>> from arena_table.rules.kernel.mechanics.die_kinds import find_kind
    >>> codes = KindCodes([find_kind("demigods-ice")])
    >>> label(codes, DieReading(codes.code("demigods-ice", "failure"), "ok", "", 0.9, (0.0, 0.0), (0, 0, 9, 9)))
    'ice failure'
    """
    kind, face = codes.pair(int(die.value))
    return f"{_short(kind)} {face}"
