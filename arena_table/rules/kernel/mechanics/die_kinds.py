"""Die kinds as data: each die a game throws, its faces by symbol name, its look and its games.

A die kind is an id (``demigods-fire``), its physical faces in order (each a *symbol* name, what
the face shows, and the *value* or effect a game gives it), its *look* (the body colour range, the
ink colour and the size a camera tells it by) and the games that throw it. Roll events name faces
by symbol (``roll kind=demigods-fire faces=[burn,2]``); :func:`face_index` turns a symbol into the
face's place on the die for the engines that count faces by position.

The definitions are JSON files in the ``die_kinds.json`` format (:data:`FORMAT`): the kernel's own
(standard and polyhedral dice, a licensed d6 with a logo) beside this module, and each game's in
its package's ``data/die_kinds.json`` (adding a game is adding its folder: nothing here names a
game). A face list the rulebook does not print is shipped as placeholders and marked ``to_enter``
(``"faces"``); teaching a die (``arena-table dice teach``) fills it in from photos.

>>> import arena_table.rules  # loads the games
>>> fire = find_kind("demigods-fire")
>>> [f.symbol for f in fire.faces], fire.games
(['burn', 'failure', 'critical', '2', '1', '-1'], ('demigods',))
>>> face_index(fire, "burn"), face_index(fire, 2), fire.value_of(-1)
(1, 4, -1)
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..registry import game_homes

FORMAT = 1
"""Version of the ``die_kinds.json`` format: ``{"format": 1, "kinds": [kind, ...]}``, a kind
``{"id", "title", "games", "faces", "look", "source", "to_enter", "aliases", "counter"}``, a look
``{"body", "colour", "ink", "marks", "size_mm", "style"}``; a face is
a value (its symbol the value's text) or ``{"symbol": name, "value": value}``."""
KIND_ID = re.compile(r"^[a-z][a-z0-9-]*$")
"""A kind id: a lower-case word, words joined by ``-`` (``demigods-fire``, ``d20``)."""
SYMBOL = re.compile(r"^(-?[0-9]+|[a-z][a-z0-9_+-]*)$")
"""A face symbol: a number (``2``, ``-1``) or a lower-case name, names joined by ``+`` for a face
with several icons (``hit+critical``, ``chaos+chaos``)."""
D4_STYLES = ("top-vertex", "bottom-edge")
"""Where a d4 shows its result: the numeral at the top vertex, or the numeral along the bottom edge
of each side (the two common styles; a d4 has no upper face)."""
MARKS = ("numerals", "pips")
"""How a die's number faces are printed: as numerals (``6`` and ``9`` underlined), or as pips."""


class DieKindError(ValueError):
    """A die kind definition is malformed, or no kind has the id asked for."""


@dataclass(frozen=True)
class Face:
    """One physical face of a die."""

    symbol: str
    """What the face shows, as a name (``burn``, ``2``, ``logo``, ``hit+gate1``)."""
    value: int | str | None
    """What the game makes of it: a number, an effect name, or ``None`` (a face with no result)."""


@dataclass(frozen=True)
class Look:
    """What the camera tells a kind by. Colours are OpenCV HSV (H 0-179, S and V 0-255)."""

    body: tuple[tuple[int, int, int], tuple[int, int, int]] = ((0, 0, 0), (179, 255, 255))
    """Body colour range, (low, high) HSV; a hue range that wraps (red) has low H > high H."""
    colour: tuple[int, int, int] | None = None
    """The body's usual colour, HSV (what a drawn die of the kind shows; ``None``: the range's centre)."""
    ink: str = ""
    """Colour of the faces' ink by name (``black``, ``white``, ``gold``)."""
    size_mm: float | None = None
    """Edge of the die in mm (``None``: not measured)."""
    style: str = ""
    """How the result is shown when not on the upper face: a d4's :data:`D4_STYLES`."""
    marks: str = "numerals"
    """How number faces are printed: one of :data:`MARKS`."""

    def holds(self, hsv: tuple[int, int, int]) -> bool:
        """Whether the HSV colour ``hsv`` lies in the body range (hue wrapping past 179).

        >>> Look(body=((170, 100, 50), (10, 255, 255))).holds((3, 200, 120))
        True
        """
        (h0, s0, v0), (h1, s1, v1) = self.body
        h, s, v = hsv
        hue = h0 <= h <= h1 if h0 <= h1 else (h >= h0 or h <= h1)
        return hue and s0 <= s <= s1 and v0 <= v <= v1


@dataclass(frozen=True)
class DieKind:
    """One kind of die: its faces in order, its look, its games."""

    id: str
    title: str
    faces: tuple[Face, ...]
    look: Look = field(default_factory=Look)
    games: tuple[str, ...] = ()
    """Names of the games that throw it (``()``: any table, the dice tray)."""
    source: str = ""
    """Where the faces come from (rulebook section, page)."""
    to_enter: tuple[str, ...] = ()
    """Fields the books do not print (``faces``, ``look``): placeholders until entered or taught."""
    aliases: tuple[str, ...] = ()
    """Older die names of roll events that mean this kind (``roll die=dg-fire``)."""
    counter: bool = False
    """The die is not thrown but set to a value (a Demigods divine die beside a hero card)."""

    @property
    def sides(self) -> int:
        return len(self.faces)

    @property
    def symbols(self) -> tuple[str, ...]:
        """The distinct face symbols in face order (a repeated face once)."""
        return tuple(dict.fromkeys(f.symbol for f in self.faces))

    def has_face(self, face: int | str) -> bool:
        """Whether a face of this kind shows ``face`` (see :func:`face_index`)."""
        return not isinstance(face, bool) and str(face).strip().lower() in self.symbols

    def value_of(self, face: int | str) -> int | str | None:
        """The game value of the face showing ``face`` (its symbol, or a number for a numeral face).

        Raises:
            DieKindError: no face of this kind shows ``face`` (the message lists its faces).
        """
        return self.faces[face_index(self, face) - 1].value


def face_index(kind: DieKind, face: int | str) -> int:
    """The place (1-based) of the first face of ``kind`` showing ``face``: a symbol name, or a
    number meaning the face whose symbol is that number.

    Raises:
        DieKindError: no face shows it; the message lists the kind's faces.
    """
    symbol = str(face).strip().lower() if not isinstance(face, bool) else ""
    for i, f in enumerate(kind.faces, 1):
        if f.symbol == symbol:
            return i
    raise DieKindError(f"a {kind.id} die has no face {face!r}; its faces: {', '.join(kind.symbols)}")


def _face(raw: Any, where: str) -> Face:
    if isinstance(raw, Mapping):
        if "symbol" not in raw:
            raise DieKindError(f"{where}: a face object needs a symbol")
        symbol, value = str(raw["symbol"]), raw.get("value")
    elif isinstance(raw, (int, str)) and not isinstance(raw, bool):
        symbol, value = str(raw), raw
    else:
        raise DieKindError(f"{where}: a face is a value or {{symbol, value}}, not {raw!r}")
    if not SYMBOL.match(symbol):
        raise DieKindError(f"{where}: face symbol {symbol!r} is not a number or lower-case name")
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, str))):
        raise DieKindError(f"{where}: face value {value!r} is not a number, a name or null")
    return Face(symbol, value)


def _hsv(raw: Any, where: str) -> tuple[int, int, int]:
    if not (isinstance(raw, (list, tuple)) and len(raw) == 3 and all(isinstance(v, int) for v in raw)):
        raise DieKindError(f"{where}: an HSV colour is three whole numbers, not {raw!r}")
    h, s, v = raw
    if not (0 <= h <= 179 and 0 <= s <= 255 and 0 <= v <= 255):
        raise DieKindError(f"{where}: HSV {list(raw)} outside H 0-179, S and V 0-255")
    return h, s, v


def _look(raw: Any, where: str) -> Look:
    if not isinstance(raw, Mapping):
        raise DieKindError(f"{where}: look must be an object")
    body = raw.get("body", Look().body)
    if not (isinstance(body, (list, tuple)) and len(body) == 2):
        raise DieKindError(f"{where}.body: (low, high) HSV colours")
    style = str(raw.get("style", ""))
    if style and style not in D4_STYLES:
        raise DieKindError(f"{where}.style: {style!r} is not one of {', '.join(D4_STYLES)}")
    marks = str(raw.get("marks", "numerals"))
    if marks not in MARKS:
        raise DieKindError(f"{where}.marks: {marks!r} is not one of {', '.join(MARKS)}")
    colour = raw.get("colour")
    size = raw.get("size_mm")
    if size is not None and (isinstance(size, bool) or not isinstance(size, (int, float)) or not 0 < size < 200):
        raise DieKindError(f"{where}.size_mm: an edge in mm, 0 to 200, not {size!r}")
    return Look(body=(_hsv(body[0], f"{where}.body"), _hsv(body[1], f"{where}.body")),
                colour=None if colour is None else _hsv(colour, f"{where}.colour"),
                ink=str(raw.get("ink", "")), size_mm=None if size is None else float(size), style=style, marks=marks)


def kind_from_json(raw: Mapping[str, Any], where: str = "die kind") -> DieKind:
    """One :class:`DieKind` from its JSON object (:data:`FORMAT`).

    >>> kind_from_json({"id": "coin", "title": "Coin", "faces": [{"symbol": "heads", "value": 1}, "tails"]}).symbols
    ('heads', 'tails')

    Raises:
        DieKindError: a missing or malformed field, named with ``where``.
    """
    if not isinstance(raw, Mapping):
        raise DieKindError(f"{where}: a die kind is an object")
    kid = raw.get("id")
    if not isinstance(kid, str) or not KIND_ID.match(kid):
        raise DieKindError(f"{where}: id {kid!r} is not a lower-case word (words joined by -)")
    where = f"{where} {kid}"
    faces = raw.get("faces")
    if not isinstance(faces, list) or not 2 <= len(faces) <= 100:
        raise DieKindError(f"{where}: faces must list 2 to 100 faces")
    unknown = set(raw) - {"id", "title", "faces", "look", "games", "source", "to_enter", "aliases", "counter", "_doc"}
    if unknown:
        raise DieKindError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")

    def words(name: str) -> tuple[str, ...]:
        value = raw.get(name, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise DieKindError(f"{where}: {name} must be a list of names")
        return tuple(value)

    return DieKind(id=kid, title=str(raw.get("title", kid)),
                   faces=tuple(_face(f, f"{where} face {i + 1}") for i, f in enumerate(faces)),
                   look=_look(raw.get("look", {}), f"{where}.look"), games=words("games"),
                   source=str(raw.get("source", "")), to_enter=words("to_enter"), aliases=words("aliases"),
                   counter=bool(raw.get("counter", False)))


def kinds_from_text(text: str, where: str) -> tuple[DieKind, ...]:
    """The kinds of one ``die_kinds.json`` text.

    Raises:
        DieKindError: not JSON, another format version, or a malformed kind (named with ``where``).
    """
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DieKindError(f"{where}: not JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(raw, Mapping) or raw.get("format") != FORMAT or not isinstance(raw.get("kinds"), list):
        raise DieKindError(f"{where}: not a die kinds file of format {FORMAT} "
                           '({"format": 1, "kinds": [...]})')
    return tuple(kind_from_json(k, where) for k in raw["kinds"])


def package_kinds(package: str) -> tuple[DieKind, ...]:
    """The kinds a game package ships in its ``data/die_kinds.json`` (``()`` when it has none).

    Raises:
        DieKindError: the file is malformed.
    """
    try:
        res = resources.files(package).joinpath("data", "die_kinds.json")
    except (ModuleNotFoundError, TypeError):
        return ()
    if not res.is_file():
        return ()
    return kinds_from_text(res.read_text(encoding="utf-8"), f"{package}/data/die_kinds.json")


@lru_cache(maxsize=None)
def _catalogue(homes: tuple[tuple[str, str], ...]) -> dict[str, DieKind]:
    own = Path(__file__).with_name("die_kinds.json")
    kinds = list(kinds_from_text(own.read_text(encoding="utf-8"), "kernel die_kinds.json"))
    for _, package in homes:
        kinds.extend(package_kinds(package))
    return _by_name(kinds)


def _by_name(kinds: Sequence[DieKind]) -> dict[str, DieKind]:
    """``kinds`` by id and by alias.

    Raises:
        DieKindError: a name claimed by two of ``kinds``.
    """
    out: dict[str, DieKind] = {}
    for k in kinds:
        for key in (k.id, *k.aliases):
            if key in out and out[key].id != k.id:
                raise DieKindError(f"die kind name {key!r} is claimed by {out[key].id} and {k.id}")
            out[key] = k
    return out


_TAUGHT: dict[str, DieKind] = {}
"""Kinds taught at the table (:func:`use_taught_kinds`), by id and alias, over the shipped ones."""


def use_taught_kinds(kinds: Sequence[DieKind]) -> None:
    """Read die kinds as ``kinds`` say from now on, over the shipped ones: a kind taught at the
    table (``arena-table dice teach``; the table loads its data folder's at start) with a shipped
    id replaces that kind (its faces filled in), one with a new id joins the kinds. ``()`` leaves
    the shipped kinds alone again. Like the game registry, this is the process's: one table runs
    in a process.

    Raises:
        DieKindError: a name claimed by two of ``kinds``.
    """
    out = _by_name(kinds)
    _TAUGHT.clear()
    _TAUGHT.update(out)


def _with_taught(cat: dict[str, DieKind]) -> dict[str, DieKind]:
    if not _TAUGHT:
        return cat
    out = {key: _TAUGHT.get(k.id, k) for key, k in cat.items()}
    out.update(_TAUGHT)
    return out


def die_kinds(game: str | None = None) -> tuple[DieKind, ...]:
    """Every die kind (each once, by id; the shipped ones and those taught, :func:`use_taught_kinds`),
    or those ``game`` throws (by game name).

    >>> import arena_table.rules
    >>> [k.id for k in die_kinds("theosis")]
    ['theosis-d4', 'theosis-thieves-d6', 'theosis-skullduggery']
    """
    cat = _with_taught(_catalogue(tuple(sorted(game_homes().items()))))
    seen = {k.id: k for k in cat.values()}
    kinds = sorted(seen.values(), key=lambda k: k.id)
    if game is None:
        return tuple(kinds)
    order = [k for k in cat.values() if game in k.games]
    return tuple(dict.fromkeys(order))


def find_kind(name: str, taught: bool = True) -> DieKind:
    """The kind with id or alias ``name``: a taught one over the shipped one
    (:func:`use_taught_kinds`), or with ``taught=False`` the shipped one alone.

    Raises:
        DieKindError: no such kind; the message lists the ids.
    """
    cat = _catalogue(tuple(sorted(game_homes().items())))
    cat = _with_taught(cat) if taught else cat
    kind = cat.get(name.strip().lower())
    if kind is None:
        raise DieKindError(f"unknown die kind {name!r}; kinds: {', '.join(k.id for k in die_kinds())}")
    return kind


def kind_json(kind: DieKind) -> dict[str, Any]:
    """``kind`` as its JSON object (:data:`FORMAT`), read back by :func:`kind_from_json`.

    >>> k = kind_from_json({"id": "coin", "title": "Coin", "faces": ["heads", "tails"]})
    >>> kind_from_json(kind_json(k)) == k
    True
    """
    look = kind.look
    return {"id": kind.id, "title": kind.title, "games": list(kind.games),
            "faces": [{"symbol": f.symbol, "value": f.value} for f in kind.faces],
            "look": {"body": [list(look.body[0]), list(look.body[1])], "ink": look.ink, "size_mm": look.size_mm,
                     "marks": look.marks, **({"colour": list(look.colour)} if look.colour else {}),
                     **({"style": look.style} if look.style else {})},
            "source": kind.source, "to_enter": list(kind.to_enter), "aliases": list(kind.aliases),
            "counter": kind.counter}
