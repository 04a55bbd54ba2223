"""Pictures for the spectator screen, as SVG text: the board, dice histograms, health over time.

Pure functions of the view JSON (``docs/view-schema.md``); no I/O. Colours come from the
Okabe–Ito palette (safe for the common colour-vision deficiencies) and nothing is told by
colour alone: figures carry their initials and side, chart lines their names and dash
patterns, bars their counts.

Board geometry follows Red Blob Games' "Hexagonal Grids" (axial coordinates, pointy-top):
centre of hex ``(q, r)`` is ``(size·√3·(q + r/2), size·1.5·r)``; ``facing`` ``0..5`` is the
index of the neighbour direction E, NE, NW, W, SW, SE. On a square board ``cell`` is
``[col, row]`` and ``facing`` ``0..3`` is N, E, S, W.
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Mapping, Sequence
from xml.sax.saxutils import escape, quoteattr

from arena_table.rules.kernel.geometry import hexes

PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
"""Okabe & Ito (2008), "Color Universal Design": one colour per side, in order of appearance."""
DASHES = ("", "8 4", "2 4", "12 4 2 4", "4 4", "16 6")
"""Line patterns that tell chart series apart without colour."""
MIN_HEXES = 7
"""The hex board is drawn at least this many cells wide, however few cells the view lists."""
HEX_DIRECTIONS = hexes.DIRECTIONS
"""Axial neighbour directions E, NE, NW, W, SW, SE: ``facing`` indexes this (the rules' geometry)."""
COUNT_FONT = 20.0
"""Font size of a histogram bar's count."""
TEXT_BOX = (0.93, 0.24)
"""A line of text's box above and below its baseline, in font sizes (DejaVu Sans, the TV's font)."""
EXPECTED_STROKE = 3.0
"""Width of the histogram's dashed fair-die line."""
FACE_FONT = 22.0
"""Font size of a histogram's face labels and title."""
BOLD_EM = 0.65
"""A letter's mean advance in DejaVu Sans Bold, in font sizes: a bar is made as wide as its face's
label (``critical``, ``four-pips``), so labels never run into each other."""


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def initials(name: str) -> str:
    """Up to two letters for a figure's token.

    >>> initials("Rochon"), initials("Blood Hunter"), initials("")
    ('RO', 'BH', '?')
    """
    words = [w for w in name.replace("-", " ").split() if w]
    if not words:
        return "?"
    if len(words) == 1:
        return words[0][:2].upper()
    return (words[0][0] + words[1][0]).upper()


def side_colours(sides: Iterable[str]) -> dict[str, str]:
    """A palette colour per side, in order of first appearance."""
    out: dict[str, str] = {}
    for s in sides:
        if s not in out:
            out[s] = PALETTE[len(out) % len(PALETTE)]
    return out


def hex_cells(radius: int) -> list[tuple[int, int]]:
    """Every axial cell within ``radius`` of the centre (``3r² + 3r + 1`` cells).

    >>> len(hex_cells(0)), len(hex_cells(1)), len(hex_cells(4))
    (1, 7, 61)
    """
    return hexes.disc((0, 0), radius)


def hex_center(q: int, r: int, size: float) -> tuple[float, float]:
    """Pixel centre of axial hex ``(q, r)`` (pointy-top).

    >>> tuple(round(v, 2) for v in hex_center(1, 0, 10))
    (17.32, 0.0)
    """
    return hexes.HexLayout(size_mm=size).centre((q, r))


def board_svg(board: Mapping[str, Any], title: str = "Board") -> str:
    """The board of a view (``view["board"]``) as an SVG document.

    Raises:
        ValueError: an unknown ``kind`` (the message names it).
    """
    kind = board.get("kind", "hex")
    figures = list(board.get("figures") or [])
    # ``sides`` (seating order) keeps a side's colour when the figures on the board change
    colours = side_colours([str(s) for s in board.get("sides") or []] + [str(f.get("side", "")) for f in figures])
    if kind == "hex":
        return _hex_board(board, figures, colours, title)
    if kind == "square":
        return _square_board(board, figures, colours, title)
    if kind == "areas":
        return _area_board(board, figures, colours, title)
    raise ValueError(f"unknown board kind {kind!r} (expected hex, square or areas)")


def _svg(width: float, height: float, body: list[str], title: str, view_box: str | None = None) -> str:
    vb = view_box or f"0 0 {_num(width)} {_num(height)}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{vb}" role="img" '
            f'aria-label={quoteattr(title)} class="chart"><title>{escape(title)}</title>'
            + "".join(body) + "</svg>")


def _figure(x: float, y: float, size: float, fig: Mapping[str, Any], colour: str, direction: tuple[float, float] | None) -> str:
    name = str(fig.get("name") or fig.get("id") or "?")
    cell = fig.get("cell")
    where = ",".join(str(v) for v in cell) if isinstance(cell, (list, tuple)) else str(cell)
    facing = "" if fig.get("facing") is None else f' data-facing="{int(fig["facing"])}"'
    # data-cell / data-facing say what the token shows, for scripts reading the screen (tests)
    out = [f'<g class="figure" data-cell={quoteattr(where)}{facing}>'
           f'<title>{escape(name)} ({escape(str(fig.get("side", "")))})</title>']
    if direction is not None:
        dx, dy = direction
        tip = (x + dx * size * 0.95, y + dy * size * 0.95)
        px, py = -dy * size * 0.3, dx * size * 0.3
        base = (x + dx * size * 0.45, y + dy * size * 0.45)
        out.append(f'<polygon points="{_num(tip[0])},{_num(tip[1])} {_num(base[0] + px)},{_num(base[1] + py)} '
                   f'{_num(base[0] - px)},{_num(base[1] - py)}" fill="#111" stroke="#fff" stroke-width="1.5"/>')
    out.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(size * 0.55)}" fill="{colour}" '
               f'stroke="#111" stroke-width="2"/>')
    out.append(f'<text x="{_num(x)}" y="{_num(y + size * 0.2)}" text-anchor="middle" font-size="{_num(size * 0.55)}" '
               f'font-weight="700" fill="#fff" stroke="#000" stroke-width="0.6" paint-order="stroke">'
               f'{escape(initials(name))}</text>')
    out.append("</g>")
    return "".join(out)


def _hex_board(board: Mapping[str, Any], figures: list, colours: dict[str, str], title: str) -> str:
    size = 30.0
    cells = [tuple(c) for c in board.get("cells") or []] or hex_cells(int(board.get("radius", 3)))
    centres = {c: hex_center(c[0], c[1], size) for c in cells}
    xs = [p[0] for p in centres.values()] or [0.0]
    ys = [p[1] for p in centres.values()] or [0.0]
    pad = size * 1.2
    # never zoom in further than a board MIN_HEXES cells across: a few cells must not fill the screen
    span = MIN_HEXES * size * math.sqrt(3)
    w, h = max(max(xs) - min(xs) + 2 * pad, span), max(max(ys) - min(ys) + 2 * pad, span * 0.75)
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    vb = f"{_num(cx - w / 2)} {_num(cy - h / 2)} {_num(w)} {_num(h)}"
    body = []
    for (q, r), (x, y) in centres.items():
        pts = " ".join(f"{_num(x + size * math.cos(math.radians(60 * i - 30)))},"
                       f"{_num(y + size * math.sin(math.radians(60 * i - 30)))}" for i in range(6))
        body.append(f'<polygon class="cell" points="{pts}" fill="#f4f1e8" stroke="#6b6b6b" stroke-width="1.5">'
                    f'<title>{q},{r}</title></polygon>')
    for fig in figures:
        cell = tuple(fig.get("cell") or ())
        if len(cell) != 2:
            continue
        x, y = hex_center(cell[0], cell[1], size)
        direction = None
        if fig.get("facing") is not None:
            dq, dr = HEX_DIRECTIONS[int(fig["facing"]) % 6]
            nx, ny = hex_center(dq, dr, 1.0)
            norm = math.hypot(nx, ny)
            direction = (nx / norm, ny / norm)
        body.append(_figure(x, y, size, fig, colours.get(str(fig.get("side", ""))), direction))
    return _svg(0, 0, body, title, view_box=vb)


def _square_board(board: Mapping[str, Any], figures: list, colours: dict[str, str], title: str) -> str:
    size = 50.0
    cells = [tuple(c) for c in board.get("cells") or []]
    if not cells:
        cols, rows = int(board.get("cols", 8)), int(board.get("rows", 8))
        cells = [(c, r) for r in range(rows) for c in range(cols)]
    width = (max(c for c, _ in cells) + 1) * size
    height = (max(r for _, r in cells) + 1) * size
    body = [f'<rect class="cell" x="{_num(c * size)}" y="{_num(r * size)}" width="{_num(size)}" height="{_num(size)}" '
            f'fill="{"#f4f1e8" if (c + r) % 2 else "#e3ddcb"}" stroke="#6b6b6b"><title>{c},{r}</title></rect>'
            for c, r in cells]
    dirs = ((0, -1), (1, 0), (0, 1), (-1, 0))
    for fig in figures:
        cell = tuple(fig.get("cell") or ())
        if len(cell) != 2:
            continue
        direction = dirs[int(fig["facing"]) % 4] if fig.get("facing") is not None else None
        body.append(_figure((cell[0] + 0.5) * size, (cell[1] + 0.5) * size, size * 0.7, fig,
                            colours.get(str(fig.get("side", ""))), direction))
    return _svg(width, height, body, title)


def _area_board(board: Mapping[str, Any], figures: list, colours: dict[str, str], title: str) -> str:
    """Areas as cards, ``columns`` a row (default up to 4), each with its figures and an optional
    ``labels[area]`` (who controls or dominates it)."""
    areas = [str(a) for a in board.get("cells") or board.get("areas") or []]
    for fig in figures:
        if str(fig.get("cell")) not in areas:
            areas.append(str(fig.get("cell")))
    per_row = int(board.get("columns") or max(1, min(4, len(areas))))
    labels = {str(k): str(v) for k, v in (board.get("labels") or {}).items()}
    w, h = 220.0, 150.0
    body = []
    for i, area in enumerate(areas):
        x, y = (i % per_row) * w, (i // per_row) * h
        note = labels.get(area, "")
        # a note that would run past the card (about 0.6 em a letter) takes a line of its own
        apart = note and (len(area) * 20 + len(note) * 16 + 16) * 0.6 > w - 28
        body.append(f'<rect x="{_num(x + 4)}" y="{_num(y + 4)}" width="{_num(w - 8)}" height="{_num(h - 8)}" rx="10" '
                    f'fill="#f4f1e8" stroke="#6b6b6b" stroke-width="2"/>'
                    f'<text x="{_num(x + 14)}" y="{_num(y + 30)}" font-size="20" fill="#222">{escape(area)}'
                    + (f'<tspan font-size="16" fill="#444"{f" x={chr(34)}{_num(x + 14)}{chr(34)} dy={chr(34)}20{chr(34)}" if apart else ""}>'
                       f'{"" if apart else " "}{escape(note)}</tspan>' if note else "") + "</text>")
        here = [f for f in figures if str(f.get("cell")) == area]
        for j, fig in enumerate(here):
            body.append(_figure(x + 40 + (j % 4) * 48, y + (82 if apart else 70) + (j // 4) * 44, 36, fig,
                                colours.get(str(fig.get("side", ""))), None))
    rows = (len(areas) + per_row - 1) // per_row
    return _svg(per_row * w, max(1, rows) * h, body, title)


TRACK_CELL = 50.0
"""Width of one position of a track."""
TRACK_END = 150.0
"""Width of a track's end names, left and right of its positions."""


def tracks_svg(tracks: Sequence[Mapping[str, Any]], title: str = "Tracks") -> str:
    """The view's ``tracks`` (docs/view-schema.md): a row each, ``ends[0]`` left, ``ends[1]`` right,
    the positions ``min..max`` between them numbered by their distance from the middle, the
    marker a filled square with a thick outline on its position (told by shape, not colour), and
    each end's ``notes`` under it.

    >>> s = tracks_svg([{"name": "W / G", "ends": ["Guardian", "Warmonger"], "min": -3, "max": 3, "value": 2,
    ...                  "notes": ["Lug (Cy)", "Norn (Ann)"]}])
    >>> s.count('class="pos"'), s.count('class="marker"'), "Warmonger +2" in s, "Norn (Ann)" in s
    (6, 1, True, True)
    """
    row_h, font, note_font = 84.0, 22.0, 18.0
    width = 2 * TRACK_END + 7 * TRACK_CELL
    body = []
    for i, t in enumerate(tracks):
        lo, hi, value = int(t["min"]), int(t["max"]), int(t["value"])
        ends = [str(e) for e in t.get("ends") or ("", "")]
        n = hi - lo + 1
        cell = 7 * TRACK_CELL / max(n, 1)
        y = i * row_h + 6
        lean = "level" if value == 0 else f"{ends[1] if value > 0 else ends[0]} +{abs(value)}"
        body.append(f'<g class="track"><title>{escape(str(t.get("name", "")))}: {escape(lean)}</title>')
        body.append(f'<text x="{_num(TRACK_END - 8)}" y="{_num(y + 30)}" text-anchor="end" font-size="{_num(font)}" '
                    f'font-weight="700" fill="currentColor">{escape(ends[0])}</text>')
        body.append(f'<text x="{_num(width - TRACK_END + 8)}" y="{_num(y + 30)}" font-size="{_num(font)}" '
                    f'font-weight="700" fill="currentColor">{escape(ends[1])}</text>')
        middle = -lo
        for k in range(n):
            x = TRACK_END + k * cell
            here = lo + k == value
            body.append(f'<rect class="{"marker" if here else "pos"}" x="{_num(x + 3)}" y="{_num(y + 4)}" '
                        f'width="{_num(cell - 6)}" height="38" rx="6" '
                        + ('fill="#f3f3f1" stroke="#000" stroke-width="4"/>' if here else
                           'fill="none" stroke="currentColor" stroke-width="1.5" opacity=".8"/>'))
            body.append(f'<text x="{_num(x + cell / 2)}" y="{_num(y + 31)}" text-anchor="middle" font-size="{_num(font)}" '
                        f'font-weight="{800 if here else 400}" fill="{"#000" if here else "currentColor"}">'
                        f'{abs(k - middle)}</text>')
        if value:
            body.append(f'<text x="{_num(width / 2)}" y="{_num(y + 64)}" text-anchor="middle" '
                        f'font-size="{_num(note_font)}" font-weight="700" fill="currentColor">{escape(lean)}</text>')
        notes = [str(x) for x in (t.get("notes") or ())][:2]
        room = width / 2 - (60 if value else 10)
        for j, note in enumerate(notes):
            if not note:
                continue
            fit = f' textLength="{_num(room)}" lengthAdjust="spacingAndGlyphs"' if len(note) * note_font * 0.6 > room else ""
            x, anchor = (4, "start") if j == 0 else (width - 4, "end")
            body.append(f'<text x="{_num(x)}" y="{_num(y + 64)}" text-anchor="{anchor}" font-size="{_num(note_font)}" '
                        f'fill="currentColor"{fit}>{escape(note)}</text>')
        body.append("</g>")
    return _svg(width, max(1, len(tracks)) * row_h, body, title)


def histogram_svg(die: str, counts: Mapping[str, int], chi2: float | None = None,
                  p_value: float | None = None, shares: Mapping[str, float] | None = None) -> str:
    """Per-face counts of one die kind as a bar chart, with the fair-die expectation dashed: one
    line across, or with ``shares`` (face -> share of a fair die's throws, for a face printed twice)
    a dash over each bar at its own expectation.

    >>> s = histogram_svg("d6", {"1": 2, "2": 0, "3": 1, "4": 0, "5": 0, "6": 3})
    >>> s.count('class="bar"'), ">3</text>" in s
    (6, True)
    """
    faces = list(counts.items())
    total = sum(counts.values())
    peak = max([c for _, c in faces] + [1])
    expected = total / len(faces) if faces else 0
    each = {f: total * shares.get(f, 0.0) for f, _ in faces} if shares else {f: expected for f, _ in faces}
    peak = max([peak, *each.values()])
    gap, height, top, bottom, left = 10.0, 240.0, 60.0, 44.0, 10.0
    # a bar as wide as the widest face label (a symbol face's name), 44 px at least
    bar_w = max([44.0] + [len(str(f)) * FACE_FONT * BOLD_EM + 6 - gap for f, _ in faces])
    label = f"{die}: {total} dice"
    if chi2 is not None and p_value is not None:
        label += f" · χ² {chi2:.2f}, p {p_value:.3f}"
    width = left * 2 + len(faces) * (bar_w + gap)
    plot_h = height - top - bottom
    body = [f'<text x="{_num(left)}" y="26" font-size="{_num(FACE_FONT)}" fill="currentColor">{escape(label)}</text>']
    ey = top + plot_h - plot_h * expected / peak
    dash = f'stroke="{PALETTE[5]}" stroke-width="{_num(EXPECTED_STROKE)}" stroke-dasharray="8 6"'
    if total and not shares:  # drawn first: a count label lies over it, never under it
        body.append(f'<line x1="{_num(left)}" x2="{_num(width - left)}" y1="{_num(ey)}" y2="{_num(ey)}" '
                    f'{dash}><title>fair die: {expected:.1f} a face</title></line>')
    if total and shares:
        for i, (face, _) in enumerate(faces):
            x, fy = left + i * (bar_w + gap), top + plot_h - plot_h * each[face] / peak
            body.append(f'<line x1="{_num(x)}" x2="{_num(x + bar_w + gap)}" y1="{_num(fy)}" y2="{_num(fy)}" '
                        f'{dash}><title>fair die: {each[face]:.1f} {escape(str(face))}</title></line>')
    for i, (face, count) in enumerate(faces):
        x = left + i * (bar_w + gap) + gap / 2
        h = plot_h * count / peak if peak else 0
        y = top + plot_h - h
        ey = top + plot_h - plot_h * each[face] / peak
        body.append(f'<rect class="bar" x="{_num(x)}" y="{_num(y)}" width="{_num(bar_w)}" height="{_num(h)}" '
                    f'fill="{PALETTE[0]}"><title>face {escape(str(face))}: {count}</title></rect>')
        body.append(f'<text x="{_num(x + bar_w / 2)}" y="{_num(_count_baseline(y, ey if total else None))}" '
                    f'text-anchor="middle" font-size="{_num(COUNT_FONT)}" fill="currentColor">{count}</text>')
        body.append(f'<text x="{_num(x + bar_w / 2)}" y="{_num(height - 14)}" text-anchor="middle" font-size="{_num(FACE_FONT)}" '
                    f'font-weight="700" fill="currentColor">{escape(str(face))}</text>')
    return _svg(width, height, body, f"Per-face counts, {label}")


def _count_baseline(bar_top: float, line_y: float | None) -> float:
    """Where a bar's count sits: just above the bar, or just above the fair-die line where
    that line would run through it (a bar a little shorter than the expectation).

    >>> _count_baseline(150, None), _count_baseline(150, 100), _count_baseline(150, 140)
    (144, 144, 132.7)
    """
    base = bar_top - 6
    above, below = TEXT_BOX[0] * COUNT_FONT, TEXT_BOX[1] * COUNT_FONT
    if line_y is None or base + below < line_y - EXPECTED_STROKE / 2 or base - above > line_y + EXPECTED_STROKE / 2:
        return base
    return round(line_y - EXPECTED_STROKE / 2 - below - 1, 1)


def health_svg(series: Mapping[str, Sequence[tuple[int, int]]], maxima: Mapping[str, int] | None = None,
               title: str = "Health over the game") -> str:
    """One line per hero: ``series[name] = [(step, health), ...]`` with ``step`` 0, 1, 2...

    Lines differ by dash pattern and carry their name at the end, not colour alone; end
    labels are pushed apart so that heroes ending on the same health stay legible.

    >>> s = health_svg({"Rochon": [(0, 9), (1, 7), (2, 7)], "Salazar": [(0, 9), (2, 3)]})
    >>> s.count("<polyline"), "Salazar 3" in s
    (2, True)
    """
    width, height, left, right, top, bottom, font = 560.0, 300.0, 44.0, 170.0, 16.0, 36.0, 26
    steps = max([s for pts in series.values() for s, _ in pts] + [1])
    hmax = max([h for pts in series.values() for _, h in pts] + list((maxima or {}).values()) + [1])
    pw, ph = width - left - right, height - top - bottom

    def xy(step: int, health: float) -> tuple[float, float]:
        return left + pw * step / steps, top + ph * (1 - health / hmax)

    body = [f'<line x1="{_num(left)}" y1="{_num(top + ph)}" x2="{_num(left + pw)}" y2="{_num(top + ph)}" stroke="currentColor"/>',
            f'<line x1="{_num(left)}" y1="{_num(top)}" x2="{_num(left)}" y2="{_num(top + ph)}" stroke="currentColor"/>',
            f'<text x="{_num(left - 6)}" y="{_num(top + font * 0.7)}" text-anchor="end" font-size="{font}" '
            f'fill="currentColor">{hmax}</text>',
            f'<text x="{_num(left - 6)}" y="{_num(top + ph)}" text-anchor="end" font-size="{font}" fill="currentColor">0</text>',
            f'<text x="{_num(left + pw / 2)}" y="{_num(height - 6)}" text-anchor="middle" font-size="{font}" '
            f'fill="currentColor">events →</text>']
    labels = []
    for i, (name, pts) in enumerate(series.items()):
        if not pts:
            continue
        colour, dash = PALETTE[i % len(PALETTE)], DASHES[i % len(DASHES)]
        coords = " ".join(f"{_num(x)},{_num(y)}" for x, y in (xy(s, h) for s, h in pts))
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        body.append(f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="4"{dash_attr}>'
                    f'<title>{escape(name)}</title></polyline>')
        labels.append([xy(*pts[-1])[1] + font * 0.35, f"{name} {pts[-1][1]}", colour])
    labels.sort(key=lambda lab: lab[0])
    for j in range(1, len(labels)):  # push apart labels that would overlap
        labels[j][0] = max(labels[j][0], labels[j - 1][0] + font)
    for y, text, colour in labels:
        body.append(f'<text x="{_num(left + pw + 8)}" y="{_num(y)}" font-size="{font}" fill="currentColor">'
                    f'{escape(text)}</text>')
    return _svg(width, max(height, labels[-1][0] + 4 if labels else height), body, title)
