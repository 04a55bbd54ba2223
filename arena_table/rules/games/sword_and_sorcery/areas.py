"""The arena's areas: adjacency (4.1), control and domination (Battlefield), Evade (6.5).

Areas are adjacent only when they share an edge (4.1); the board lists each area's neighbours,
so walls and unconnected tile edges are simply missing links. The printed tiles' areas are not in
the text layer, so the default board is a *schematic* 5x5 grid of rooms (rows a-e, columns 1-5;
``data/boards.json``, its adjacency worked out by the shared geometry from the rooms' edges), marked
*to enter*: corner rooms ``a1 a5 e1 e5`` hold the four Shrines, the Pitfall Locations A-D are the
stone pillars ``b2 b4 d4 d2`` and E is the centre ``c3``, the Spawn Gates 1-4 are ``a3 c5 e3 c1``.
A table with the real map gives its own ``board`` option (same keys).

Control: a faction controls an area with numerical superiority in figures; it dominates with at
least twice the opposing figures (Rules Reference, Battlefield). K.O. figures count 0 (K.O.),
Ghost Souls count 0 (ambiguities.md). With 3-4 Teams, a Team plus its allies stands against the sum
of all opposing figures (reading ``control``).

>>> b = default_board()
>>> b.neighbours("a1"), distance(b, "a1", "c3")
(('a2', 'b1'), 4)
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

from arena_table.rules.kernel.geometry.areas import graph_distance
from arena_table.rules.kernel.geometry.boards import Board as MapBoard, boards_from

from .state import Board, Hero, SnsState, is_ally

ROWS, COLS = "abcde", "12345"
"""Row and column names of the schematic board's areas (``a1`` .. ``e5``)."""


@lru_cache(maxsize=None)
def definition() -> MapBoard:
    """The schematic Arena of Aegis as a board definition (``data/boards.json``: 100 mm rooms, to enter)."""
    doc = json.loads(resources.files(__package__).joinpath("data", "boards.json").read_text(encoding="utf-8"))
    return boards_from(doc, "sword-and-sorcery data/boards.json")["aegis-schematic"]


def default_board() -> Board:
    """The schematic 5x5 board (*to enter*: the printed tiles' areas): adjacency by shared edges of
    the definition's rooms (4.1), the Shrines, Pitfall Locations and Spawn Gates its named places."""
    d = definition()
    adj = d.layout.adjacency()
    locations = tuple((k, d.feature(f"location-{k}")[0]) for k in "ABCDE")
    rings = tuple((area, _ring(d, area)) for _, area in locations)
    shrines = d.feature("shrine")
    return Board(adjacent=tuple((a, adj[a]) for a in sorted(adj)), shrines=shrines, open_shrines=shrines,
                 locations=locations, rings=rings, gates=tuple((n, d.feature(f"gate-{n}")[0]) for n in (1, 2, 3, 4)))


def board(state: SnsState) -> MapBoard | None:
    """The board in play as a definition (``Game.board``): the schematic one while the table plays
    on it; ``None`` for a ``board`` option given as adjacency only (no room outlines to map onto)."""
    d = definition()
    return d if dict(state.board.adjacent) == d.layout.adjacency() else None


def _ring(d: MapBoard, area: str) -> tuple[str, ...]:
    """The areas around ``area`` clockwise from north (where a Blade turns)."""
    x0, y0 = d.centre(area)

    def bearing(other: str) -> float:
        x, y = d.centre(other)
        return math.atan2(x - x0, -(y - y0)) % (2 * math.pi)

    return tuple(sorted(d.neighbours(area), key=bearing))


def board_from(spec: Mapping[str, Any] | None) -> Board:
    """A board from the ``board`` option, or the schematic default.

    Keys: ``adjacent`` (area -> neighbours; made symmetric), ``shrines``, ``open_shrines``
    (default: all), ``locations`` (``A``-``E`` -> area), ``rings`` (area -> four areas clockwise),
    ``gates`` (number -> area), and optional ``traps``, ``lava``, ``difficult``, ``deadly``.

    Raises:
        ValueError: a key names an area the board does not have.
    """
    if not spec:
        return default_board()
    adj: dict[str, set[str]] = {}
    for a, ns in dict(spec.get("adjacent", {})).items():
        adj.setdefault(str(a), set())
        for n in ns:
            adj[str(a)].add(str(n))
            adj.setdefault(str(n), set()).add(str(a))
    if not adj:
        raise ValueError("board.adjacent: an arena needs its areas and their neighbours")

    def area(key: str, a: Any) -> str:
        if str(a) not in adj:
            raise ValueError(f"board.{key}: {a!r} is not an area of the board")
        return str(a)

    shrines = tuple(area("shrines", a) for a in spec.get("shrines", ()))
    opened = tuple(area("open_shrines", a) for a in spec.get("open_shrines", shrines))
    locations = tuple((str(k), area("locations", v)) for k, v in dict(spec.get("locations", {})).items())
    rings = tuple((area("rings", k), tuple(area("rings", x) for x in v)) for k, v in dict(spec.get("rings", {})).items())
    gates = tuple((int(k), area("gates", v)) for k, v in dict(spec.get("gates", {})).items())
    return Board(adjacent=tuple((a, tuple(sorted(n))) for a, n in sorted(adj.items())), shrines=shrines,
                 open_shrines=opened, locations=locations, rings=rings, gates=gates,
                 traps=tuple(area("traps", a) for a in spec.get("traps", ())),
                 lava=tuple((area("lava", a), True) for a in spec.get("lava", ())),
                 difficult=tuple(area("difficult", a) for a in spec.get("difficult", ())),
                 deadly=tuple(area("deadly", a) for a in spec.get("deadly", ())))


def distance(board: Board, a: str, b: str) -> int | None:
    """Fewest steps from area ``a`` to ``b`` through adjacent areas (``None``: no path)."""
    return graph_distance(dict(board.adjacent), a, b)


def within(board: Board, area: str, steps: int) -> tuple[str, ...]:
    """Areas at most ``steps`` away from ``area`` by legal paths (AoE x; 0 = the area itself)."""
    return tuple(sorted(x for x, _ in board.adjacent if (d := distance(board, area, x)) is not None and d <= steps))


def figures(state: SnsState, area: str) -> tuple[Hero, ...]:
    """Every figure (Hero or Companion) standing in ``area``, K.O. and Ghost Souls included."""
    return tuple(h for _, h in state.heroes if h.area == area)


def strength(state: SnsState, area: str, team: str) -> tuple[int, int]:
    """``(own, opposing)`` figure counts in ``area`` for ``team`` (K.O. and Ghost Souls count 0)."""
    own, opp = 0, {}
    for h in figures(state, area):
        if not h.counts:
            continue
        if is_ally(state, team, h.team):
            own += 1
        else:
            opp[h.team] = opp.get(h.team, 0) + 1
    if state.options.control == "team-vs-each":
        return own, max(opp.values(), default=0)
    return own, sum(opp.values())


def controls(state: SnsState, area: str, team: str) -> bool:
    """Numerical superiority in figures over the opposing faction."""
    own, opp = strength(state, area, team)
    return own > opp


def dominates(state: SnsState, area: str, team: str) -> bool:
    """At least twice the opposing figures (and at least one figure); counts as control too."""
    own, opp = strength(state, area, team)
    return own > 0 and own >= 2 * opp


def is_threat(state: SnsState, hero: Hero, other: Hero) -> bool:
    """``other`` is an Opponent in ``hero``'s area that forces an Evade and makes a reaction attack."""
    if other.area != hero.area or other.id == hero.id or is_ally(state, hero.team, other.team):
        return False
    if other.ghost:
        return False
    if other.ko:
        return state.options.ko_forces_evade
    return True


def reactors(state: SnsState, hero: Hero) -> tuple[Hero, ...]:
    """Opponents whose Reaction Attack ``hero`` receives when it leaves its area (6.5 Evade).

    "Whenever a Hero moves through, or leaves, an area not dominated by his own Team and containing
    one or more Opponents, he must make an Evade": empty when the Team dominates the area, when no
    Opponent is there (K.O. and Ghost Souls aside), and for a Ghost Soul itself.
    """
    if hero.ghost or hero.area is None or dominates(state, hero.area, hero.team):
        return ()
    threats = tuple(o for _, o in state.heroes if is_threat(state, hero, o))
    return tuple(o for o in threats if not o.ko and (state.options.stunned_reacts or o.health != 3))
