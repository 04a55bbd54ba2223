"""The roll the rules wait for, in words and as die kinds (game-agnostic, from ``Game.awaits``).

A game says which dice it waits for now (``Game.awaits(state) -> {kind name: count}``: a Demigods
attack's open dice ``{"dg-ice": 1, "dg-fire": 1, "dg-slashing": 1}``, a Theosis Thieves' Guild d6
``{"theosis-thieves-d6": 1, "d6": 1}``). This module turns that into what the table needs:

- :func:`awaited_dice`: each awaited die kind once, with its catalogue kind and count, the plain
  stand-ins (a kind no game owns, such as ``d6``, awaited beside a game's own kind as often) folded
  into the kind they stand in for;
- :func:`expected_words`: "1 Ice attack die, 1 Fire attack die and 1 Slashing attack die";
- :func:`kinds_to_read`: whether the awaited dice are dice a pip reader cannot read (symbol
  faces, a d4), so the camera reads die kinds, not pips;
- :func:`refusal`: the notice for a camera throw the game did not take while it waited: what was
  expected and what was seen (the throw itself stays the tray's: nothing recorded is lost).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .events import DiceRolled
from .mechanics import dice as tray_record
from .mechanics.die_kinds import DieKind, die_kinds


@dataclass(frozen=True)
class AwaitedDie:
    """Dice of one kind the game waits for."""

    name: str
    """The kind name the game awaits (``dg-ice``; an id or alias of the catalogue, or a taught kind)."""
    count: int
    """At most this many in one roll."""
    kind: DieKind | None
    """The catalogue's kind (``None``: a kind the catalogue does not know)."""
    stand_ins: tuple[str, ...] = ()
    """Plain kinds a table may throw instead (``d6`` for a Demigod die)."""

    @property
    def title(self) -> str:
        return self.kind.title if self.kind is not None else self.name


@dataclass(frozen=True)
class RollRefusal:
    """A camera throw the running game did not take while it waited for another roll."""

    seq: int
    """The throw's event (recorded as the tray's)."""
    expected: str
    """What the game waits for, in words (:func:`expected_words`)."""
    seen: str
    """What the throw was, in words."""

    @property
    def message(self) -> str:
        return f"not the roll the game waits for: expected {self.expected}; the camera saw {self.seen}"


def thrown_kinds(game: str) -> tuple[DieKind, ...]:
    """The catalogue's kinds ``game`` throws (its die kinds less the counters, which are set, not thrown)."""
    return tuple(k for k in die_kinds(game) if not k.counter)


def awaited_dice(game: Any, state: Any) -> tuple[AwaitedDie, ...]:
    """The dice ``game`` (a :class:`~.game.Game`) waits for in ``state``, one entry per kind, in the
    order the game names them; ``()`` when it waits for none or has no ``awaits``.

    >>> import arena_table.rules
    >>> class G: awaits = staticmethod(lambda s: {"dg-demigod": 2, "d6": 2})
    >>> [(a.title, a.count, a.stand_ins) for a in awaited_dice(G, None)]
    [('Demigod die', 2, ('d6',))]
    """
    if getattr(game, "awaits", None) is None:
        return ()
    wanted = {name: n for name, n in dict(game.awaits(state) or {}).items() if n > 0}
    entries: dict[str, AwaitedDie] = {}
    plain: list[tuple[str, int]] = []
    for name, n in wanted.items():
        kind = tray_record.known_kind(name)
        key = kind.id if kind is not None else name
        if kind is not None and not kind.games:
            plain.append((name, n))
        elif key not in entries:
            entries[key] = AwaitedDie(name, n, kind)
    for name, n in plain:  # a plain die beside a game's own kind, as many: it stands in for it
        twin = next((k for k, a in entries.items() if a.count == n and a.kind is not None and a.kind.sides
                     == tray_record.known_kind(name).sides), None)
        if twin is not None:
            a = entries[twin]
            entries[twin] = AwaitedDie(a.name, a.count, a.kind, a.stand_ins + (name,))
        else:
            entries.setdefault(name, AwaitedDie(name, n, tray_record.known_kind(name)))
    return tuple(entries.values())


def _dice(n: int, title: str) -> str:
    """``n`` dice of a kind titled ``title``: "1 Ice attack die", "2 Demigod dice", "2 × d6 with pips".

    >>> _dice(2, "Demigod die"), _dice(2, "d6 with pips"), _dice(1, "d6 with pips")
    ('2 Demigod dice', '2 × d6 with pips', '1 d6 with pips')
    """
    if n == 1:
        return f"1 {title}"
    return f"{n} {title[:-3]}dice" if title.endswith(" die") else f"{n} × {title}"


def _and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def expected_words(awaited: tuple[AwaitedDie, ...]) -> str:
    """The awaited dice in words ("" when none).

    >>> import arena_table.rules
    >>> from arena_table.rules.kernel.mechanics.die_kinds import find_kind
    >>> expected_words((AwaitedDie("dg-ice", 1, find_kind("dg-ice")), AwaitedDie("dg-fire", 2, find_kind("dg-fire")),
    ...                 AwaitedDie("dg-demigod", 2, find_kind("dg-demigod"), ("d6",))))
    '1 Ice attack die, 2 Fire attack dice and 2 Demigod dice (or 2 d6)'
    """
    if not awaited:
        return ""
    return _and([_dice(a.count, a.title) + (f" (or {a.count} {' or '.join(a.stand_ins)})" if a.stand_ins else "")
                 for a in awaited])


def _pips(name: str) -> bool:
    kind = tray_record.known_kind(name)
    return kind is not None and kind.look.marks == "pips"


def _unread_by_pips(kind: DieKind) -> bool:
    """Whether a pip reader cannot read ``kind``: a face shows a symbol (``burn``, ``critical``), or
    the result is not on an upper face (a d4's :data:`~.mechanics.die_kinds.D4_STYLES`)."""
    return bool(kind.look.style) or any(not f.symbol.lstrip("-").isdigit() for f in kind.faces)


def kinds_to_read(game: Any, state: Any) -> tuple[DieKind, ...]:
    """The kinds the camera should tell apart now: the kinds ``game`` throws, when it waits for a die
    of one of them that a pip reader cannot read (symbol faces, a d4) and no pip die stands in for
    (a plain ``d6`` for the Thieves' Guild die). ``()`` otherwise: the pip reader reads the roll
    (or no roll is awaited).

    >>> import arena_table.rules
    >>> class G: name, awaits = "demigods", staticmethod(lambda s: {"dg-ice": 1, "dg-fire": 1})
    >>> "demigods-demigod" in [k.id for k in kinds_to_read(G, None)]
    True
    >>> class T: name, awaits = "theosis", staticmethod(lambda s: {"theosis-thieves-d6": 1, "d6": 1})
    >>> kinds_to_read(T, None)
    ()
    >>> class M: name, awaits = "theosis", staticmethod(lambda s: {"d4": 1, "theosis-d4": 1})
    >>> [k.id for k in kinds_to_read(M, None)][0]
    'theosis-d4'
    """
    own = thrown_kinds(game.name)
    ids = {k.id for k in own}
    for a in awaited_dice(game, state):
        if a.kind is None or a.kind.id not in ids or _pips(a.name) or any(map(_pips, a.stand_ins)):
            continue
        if _unread_by_pips(a.kind):
            return own
    return ()


def seen_words(event: DiceRolled) -> str:
    """A throw in words: "2 Demigod dice (5, 3)", "1 Ice attack die (failure) and 1 d6 (4)", "3d6 (3, 5, 1)".

    >>> import arena_table.rules
    >>> seen_words(DiceRolled(kinds=("demigods-demigod",), faces=(5, 3)))
    '2 Demigod dice (5, 3)'
    >>> seen_words(DiceRolled(die="d6", faces=(3, 5, 1)))
    '3d6 (3, 5, 1)'
    """
    if not event.kinds:
        return f"{len(event.faces)}{event.die if event.die.startswith('d') else ' × ' + event.die} " \
               f"({', '.join(map(str, event.faces))})"
    groups: dict[str, list[str]] = {}
    for name, face in zip(tray_record.roll_kinds(event), event.faces):
        kind = tray_record.known_kind(name)
        groups.setdefault(kind.title if kind is not None else name, []).append(str(face))
    return _and([f"{_dice(len(faces), title)} ({', '.join(faces)})" for title, faces in groups.items()])


def refusal(game: Any, state: Any, event: Any, seq: int) -> RollRefusal | None:
    """The notice for ``event``, a camera throw ``game`` did not take (:func:`~.table.is_awaited`),
    when the game waits for a roll; ``None`` when it waits for none (a free throw is the tray's)."""
    awaited = awaited_dice(game, state)
    if not awaited or not isinstance(event, DiceRolled):
        return None
    return RollRefusal(seq, expected_words(awaited), seen_words(event))
