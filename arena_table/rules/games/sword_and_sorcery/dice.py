"""Sword & Sorcery's red and blue dice: faces by symbol name, and the counts the rules make.

The book prints no face list as text: hits, shields, the Tiebreaker icon (6.1), the spawn icon
(Quest III, Hero Turn) and the Spawn Gate number a blue die names (PvP III teleport) are icons
only. So the engine reads every die as a *face*: one or more symbol names joined by ``+``
(``hit``, ``hit+hit``, ``shield``, ``hit+critical``, ``tiebreaker+gate2``), and every count is
made from those names (issue: faces by symbol name, so the engine does not depend on how a face
was read). A die read by index (``roll die=sns-red faces=[3]``, 1-based) is turned into a face
through :data:`DIE_KINDS` (the die kinds of ``data/die_kinds.json``), whose face lists are marked *to enter*: the icons of the printed dice
were not in the text layer, so the shipped lists are placeholders to be replaced by the dice
issue's die kinds, never a reading of the book.

>>> count(("hit", "hit+hit", "shield"), "hit")
3
>>> face_of("sns-blue", 1)
'shield'
"""

from __future__ import annotations

from typing import Iterable

from arena_table.rules.kernel.mechanics.die_kinds import package_kinds

SYMBOLS = ("hit", "shield", "critical", "tiebreaker", "spawn", "star", "lightning", "creature", "blank",
           "gate1", "gate2", "gate3", "gate4")
"""Symbol names a face may carry. ``critical``: the Critical icon (Rules Reference Sheet, Special
Game Effects II); ``tiebreaker``: the icon 6.1 counts; ``spawn``: the spawn icon; ``star``,
``lightning``, ``creature``: the icons of the Pitfall of Fortune table (Quest III, Waypoint 3);
``gateN``: the Spawn Gate number a face names (PvP III Spawn Gates Teleport)."""

COLOURS = ("red", "blue")

DIE_KINDS: dict[str, dict] = {
    k.id: {"colour": k.id.removeprefix("sns-"), "to_enter": "faces" in k.to_enter,
           "faces": tuple(f.symbol for f in k.faces)}
    for k in package_kinds(__package__)}
"""Index reading of each die kind (face 1..6 -> symbols), from the die kinds ``sns-red`` and ``sns-blue``
of ``data/die_kinds.json``. ``to_enter``: placeholder faces, the printed dice's icons are not in the
book's text layer (ambiguities.md, "Not in the text layer")."""


def symbols(face: str) -> tuple[str, ...]:
    """The symbol names of one face (``"hit+critical"`` -> ``("hit", "critical")``).

    Raises:
        ValueError: an empty face or an unknown symbol, naming it and the known ones.
    """
    parts = tuple(p.strip().lower() for p in str(face).split("+"))
    for p in parts:
        if p not in SYMBOLS:
            raise ValueError(f"unknown die symbol {p!r} in face {face!r}; symbols: {', '.join(SYMBOLS)}")
    return parts


def check_faces(faces: Iterable[str]) -> tuple[str, ...]:
    """``faces`` normalised (lower case), each checked by :func:`symbols`."""
    return tuple("+".join(symbols(f)) for f in faces)


def count(faces: Iterable[str], symbol: str) -> int:
    """How many ``symbol`` icons the faces show together (``hit+hit`` counts 2 hits)."""
    return sum(symbols(f).count(symbol) for f in faces)


def gate(face: str) -> int | None:
    """The Spawn Gate number a face names (``gateN``), or ``None``."""
    for s in symbols(face):
        if s.startswith("gate"):
            return int(s[4:])
    return None


def face_of(kind: str, index: int) -> str:
    """Face ``index`` (1-based) of die kind ``kind`` (``sns-red``/``sns-blue``).

    Raises:
        ValueError: unknown kind or index out of range.
    """
    if kind not in DIE_KINDS:
        raise ValueError(f"unknown Sword & Sorcery die {kind!r}; dice: {', '.join(DIE_KINDS)}")
    faces = DIE_KINDS[kind]["faces"]
    if not 1 <= index <= len(faces):
        raise ValueError(f"{kind} faces are 1..{len(faces)}, got {index}")
    return faces[index - 1]
