"""Condition (buff/debuff) durations as turn-counting tokens, as pure helpers.

A token shows the turns it has left (2, then 1); at the end of its bearer's
turn it is flipped (2 -> 1) or removed (1 -> gone). Passive tokens never tick.
Works on any frozen dataclass with integer ``turns`` and boolean ``passive``.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class T:
...     name: str
...     turns: int
...     passive: bool = False
>>> kept, ticked = flip((T("a", 2), T("b", 1), T("p", 0, passive=True)))
>>> [(t.name, t.turns) for t in kept], [t.name for t in ticked]
([('a', 1), ('p', 0)], ['a', 'b'])
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Sequence, TypeVar

T = TypeVar("T")


def flip(tokens: Sequence[T], ticks: Callable[[T], bool] = lambda t: True) -> tuple[tuple[T, ...], tuple[T, ...]]:
    """Flip or remove every token for which ``ticks`` is true (passive tokens never tick).

    Returns:
        ``(kept, ticked)``: the tokens left (flipped ones with ``turns - 1``) and
        every token that was flipped or removed, as it was before (damage tokens
        deal their wounds for each of these).
    """
    kept, ticked = [], []
    for t in tokens:
        if getattr(t, "passive") or not ticks(t):
            kept.append(t)
            continue
        ticked.append(t)
        if getattr(t, "turns") > 1:
            kept.append(dataclasses.replace(t, turns=getattr(t, "turns") - 1))  # type: ignore[type-var]
    return tuple(kept), tuple(ticked)


def total(tokens: Sequence[T], stat: str) -> int:
    """Sum of ``amount`` over tokens whose ``stat`` is ``stat``."""
    return sum(getattr(t, "amount") for t in tokens if getattr(t, "stat") == stat)
