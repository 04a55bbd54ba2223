"""Initiative ordering with tie-break dice, as pure helpers any game can use.

A tie between contenders is settled by each rolling a die, highest first; those
still tied roll again. Rolls are recorded as data (STYLE.md §3): each roll lists
the values of the contenders of the *first still-tied group*, in the order the
contenders were given (seat order).

>>> rank_by_rolls(["Ann", "Bo", "Cy"], [(4, 4, 2), (1, 6)])
(('Bo', 'Ann', 'Cy'), ())
>>> rank_by_rolls(["Ann", "Bo"], [(3, 3)])
((), ('Ann', 'Bo'))
"""

from __future__ import annotations

from typing import Hashable, Mapping, Sequence, TypeVar

T = TypeVar("T", bound=Hashable)


def rank_by_rolls(contenders: Sequence[T], rolls: Sequence[Sequence[int]]) -> tuple[tuple[T, ...], tuple[T, ...]]:
    """Order ``contenders`` by successive tie-break rolls, highest first.

    Args:
        contenders: the tied parties, in seat order.
        rolls: each roll gives one value per member of the first group still tied,
            in seat order (the first roll: one value per contender).

    Returns:
        ``(order, needs)``: the full order once every tie is settled and ``()``
        as ``needs``; otherwise ``order`` is ``()`` and ``needs`` is the group that
        must roll next (seat order).

    Raises:
        ValueError: a roll with the wrong number of values, or rolls after all ties are settled.
    """
    groups: list[list[T]] = [list(contenders)] if len(contenders) > 1 else [[c] for c in contenders]
    for n, roll in enumerate(rolls, start=1):
        i = next((k for k, g in enumerate(groups) if len(g) > 1), None)
        if i is None:
            raise ValueError(f"roll #{n} {tuple(roll)} comes after every tie was settled")
        group = groups[i]
        if len(roll) != len(group):
            raise ValueError(f"roll #{n} has {len(roll)} values for {len(group)} tied contenders {group}")
        by_value: dict[int, list[T]] = {}
        for who, value in zip(group, roll):
            by_value.setdefault(value, []).append(who)
        groups[i:i + 1] = [by_value[v] for v in sorted(by_value, reverse=True)]
    tied = next((g for g in groups if len(g) > 1), None)
    if tied is not None:
        return (), tuple(tied)
    return tuple(g[0] for g in groups), ()


def round_robin(queues: Mapping[T, Sequence[Hashable]], order: Sequence[T],
                done: Mapping[T, int] | None = None) -> list[Hashable]:
    """Interleave each party's queue one at a time in ``order``, skipping empty queues.

    ``done`` counts what each party already took from the same pool (it goes
    after parties that have taken fewer).

    >>> round_robin({"A": ["a1", "a2", "a3"], "B": ["b1"]}, ["B", "A"])
    ['b1', 'a1', 'a2', 'a3']
    >>> round_robin({"A": ["a2"], "B": ["b1"]}, ["A", "B"], done={"A": 1})
    ['b1', 'a2']
    """
    taken = {p: (done or {}).get(p, 0) for p in order}
    left = {p: list(queues.get(p, ())) for p in order}
    out: list[Hashable] = []
    while any(left.values()):
        p = min((p for p in order if left[p]), key=lambda p: (taken[p], order.index(p)))
        out.append(left[p].pop(0))
        taken[p] += 1
    return out
