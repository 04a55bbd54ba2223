"""The Silver and Gold caches and the Chaos Actions revealed from them.

Playing with Fire, Adding Silver and Gold Cards (l.799) and Fellowship, Silver and Gold Cards
(l.915-920): cards the Monster gains join the caches; whenever 4 or more Silver cards lie in the
Silver cache, 4 are discarded and 1 Gold card joins the Gold cache (repeated while 4 or more,
``convert_repeat``). The engine keeps the counts; the cards revealed are entered (``eu-reveal``
or a tag), and a card put on the bottom is remembered, so it must come up again in turn.

Performing Chaos Actions (l.822-834): Gold cache first, revealing until 3 cards of a type, a
card of another type (to the bottom, or the start of the next stack when more Chaos Actions
remain) or no cards; the Silver cache the same way to 2 of a type when the Gold cache is empty.
Silver Magic (l.562-569): a Silver card completes its stack at once, with its second box.

>>> gold, silver = 5, 0
>>> run = start(2, gold=gold, silver=silver)
>>> for c in ["power-strike"] * 4 + ["healing"]:
...     run, gold, silver, _ = reveal(run, c, gold=gold, silver=silver, bottom=(), silver_magic=False)
>>> [(s[0], len(s[1])) for s in run.stacks], run.to_bottom, gold
([('gold', 3), ('gold', 1)], (('gold', 'healing'),), 1)
"""

from __future__ import annotations

import dataclasses

from .state import ChaosRun, Refused

COMPLETE = {"gold": 3, "silver": 2}
"""A complete stack: 3 Gold or 2 Silver cards of the same type (l.829)."""
CONVERT = 4
"""4 Silver cards in the cache become 1 Gold card (l.799, l.917)."""


def add(silver: int, gold: int, add_silver: int = 0, add_gold: int = 0, repeat: bool = True) -> tuple[int, int, int]:
    """The caches after adding cards, then converting Silver to Gold: ``(silver, gold, conversions)``.

    >>> add(3, 0, add_silver=6)
    (1, 2, 2)
    >>> add(3, 0, add_silver=6, repeat=False)
    (5, 1, 1)
    """
    silver, gold, n = silver + add_silver, gold + add_gold, 0
    while silver >= CONVERT and (repeat or n == 0):
        silver, gold, n = silver - CONVERT, gold + 1, n + 1
    return silver, gold, n


def possible_actions(symbols: int, tokens: int, silver: int, gold: int) -> int:
    """How many Chaos Actions can start (Chaos Actions, l.817-819): one a symbol, each needing a
    Chaos token and a card in either cache (the cards are checked again before every stack).

    >>> possible_actions(2, 1, 3, 0), possible_actions(2, 2, 0, 1)
    (1, 1)
    """
    return max(0, min(symbols, tokens, silver + gold))


def start(actions: int, gold: int, silver: int) -> ChaosRun:
    """A run of ``actions`` Chaos Actions: the Gold cache first, else the Silver cache."""
    return _next_stack(ChaosRun(actions=actions), gold, silver)


def _next_stack(run: ChaosRun, gold: int, silver: int) -> ChaosRun:
    if run.actions <= 0 or gold + silver == 0:
        return dataclasses.replace(run, actions=0, cache="", stack=())
    return dataclasses.replace(run, cache="gold" if gold > 0 else "silver", stack=())


def _close(run: ChaosRun, magic: bool = False) -> ChaosRun:
    return dataclasses.replace(run, stacks=run.stacks + ((run.cache, run.stack, magic),),
                               actions=run.actions - 1, stack=())


def reveal(run: ChaosRun, card: str, *, gold: int, silver: int, bottom: tuple[tuple[str, str], ...],
           silver_magic: bool, silver_bottom: str = "silver") -> tuple[ChaosRun, int, int, tuple]:
    """The run and caches after the top card of the open stack's cache is revealed as ``card``.

    Returns ``(run, gold, silver, bottom)``; ``bottom`` lists known cards under the unknown ones,
    ``(cache, type)`` top to bottom.

    Raises:
        Refused: no stack is open, or ``card`` cannot be the top card (its cache holds only known
            cards and another one is on top).
    """
    if not run.cache:
        raise Refused("no Chaos Action is revealing cards now")
    cache = run.cache
    counts = {"gold": gold, "silver": silver}
    known = [b for b in bottom if b[0] == cache]
    if counts[cache] <= len(known) and known and known[0][1] != card:
        raise Refused(f"the top card of the {cache.title()} cache is the {known[0][1]} put on its bottom earlier, "
                      f"not {card}")
    if counts[cache] <= len(known) and known:
        i = bottom.index(known[0])
        bottom = bottom[:i] + bottom[i + 1:]
    counts[cache] -= 1
    if run.stack and card != run.stack[0]:
        if run.actions > 1:  # starts the next stack (2 or 3 Chaos Actions, l.831)
            run = dataclasses.replace(_close(run), stack=(card,))
        else:
            where = "gold" if cache == "gold" else silver_bottom
            counts[where] += 1
            bottom = bottom + ((where, card),)
            run = dataclasses.replace(_close(run), actions=0, cache="", to_bottom=run.to_bottom + ((where, card),))
            return run, counts["gold"], counts["silver"], bottom
    else:
        run = dataclasses.replace(run, stack=run.stack + (card,))
    if cache == "silver" and silver_magic:
        run = _close(run, magic=True)
        return _next_stack(run, counts["gold"], counts["silver"]), counts["gold"], counts["silver"], bottom
    if len(run.stack) >= COMPLETE[cache] or counts[cache] == 0:
        run = _next_stack(_close(run), counts["gold"], counts["silver"])
    return run, counts["gold"], counts["silver"], bottom
