"""Printable sheets of markers (``arena-table markers print``): a PDF, or PNG pages.

Each marker is drawn at its printed size with a white quiet zone around its black border (the
detector finds a marker by that black square against white: a marker cut flush or printed against
a dark background is not found) and its id printed beside it, right of the quiet zone. Sheets are
A4 portrait with a 10 mm margin; as many markers as fit go on a page, in id order.

The PDF draws every black module as a filled vector rectangle (through fpdf2), so a printer gives
sharp edges at any resolution; a PNG page is a raster at ``dpi``. Print at 100 % ("actual size"):
``size_mm`` is the side of the black square.

>>> layout = sheet_layout(list(range(50)), 12.0)
>>> len(layout.pages), len(layout.pages[0]), layout.quiet_mm
(1, 50, 4.0)
>>> parse_ids("0-3,7,10-11")
[0, 1, 2, 3, 7, 10, 11]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .errors import BadConfig
from .markers import dictionary_size, marker_image, marker_modules

PAGE_MM = (210.0, 297.0)
"""A4 portrait (width, height)."""
MARGIN_MM = 10.0
LABEL_MM = 12.0
"""Room right of each quiet zone for the printed id."""
GAP_MM = 2.0
QUIET_MODULES = 2
"""Width of the white quiet zone around a marker, in modules (OpenCV's ``generateImageMarker``
tutorial asks for at least one; two leave room for a cut that is not exact)."""
MIN_QUIET_MM = 3.0


def parse_ids(text: str) -> list[int]:
    """Marker ids from ``0-49`` / ``1,4,7`` / ``0-9,20-24``, sorted and without repeats.

    Raises:
        BadConfig: a part is not a number nor a range ``a-b`` with ``a <= b``.
    """
    ids: set[int] = set()
    for part in text.split(","):
        m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if not m or (m.group(2) is not None and int(m.group(2)) < int(m.group(1))):
            raise BadConfig(f"--ids {text!r}: {part.strip()!r} is not an id nor a range like 0-49")
        lo = int(m.group(1))
        ids.update(range(lo, int(m.group(2) or lo) + 1))
    return sorted(ids)


@dataclass(frozen=True)
class SheetLayout:
    """Where each marker goes: ``pages[p]`` lists ``(id, x_mm, y_mm)``, the top-left corner of the
    marker's black square, from the page's top-left."""

    size_mm: float
    quiet_mm: float
    pages: tuple[tuple[tuple[int, float, float], ...], ...]


def sheet_layout(ids: list[int], size_mm: float, modules: int = 6) -> SheetLayout:
    """Lay ``ids`` out on A4 pages, row by row.

    Raises:
        BadConfig: no ids, or ``size_mm`` outside 4-150 mm (too small to print and read, or more
            than a page).
    """
    if not ids:
        raise BadConfig("no marker ids to print")
    if not 4.0 <= size_mm <= 150.0:
        raise BadConfig(f"--size-mm {size_mm:g}: want 4-150 mm")
    quiet = max(MIN_QUIET_MM, QUIET_MODULES * size_mm / modules)
    cell_w = size_mm + 2 * quiet + LABEL_MM + GAP_MM
    cell_h = size_mm + 2 * quiet + GAP_MM
    cols = max(1, int((PAGE_MM[0] - 2 * MARGIN_MM + GAP_MM) // cell_w))
    rows = max(1, int((PAGE_MM[1] - 2 * MARGIN_MM + GAP_MM) // cell_h))
    per_page = cols * rows
    pages = []
    for start in range(0, len(ids), per_page):
        page = []
        for k, marker_id in enumerate(ids[start:start + per_page]):
            r, c = divmod(k, cols)
            page.append((marker_id, MARGIN_MM + c * cell_w + quiet, MARGIN_MM + r * cell_h + quiet))
        pages.append(tuple(page))
    return SheetLayout(size_mm, round(quiet, 3), tuple(pages))


def _footer(dictionary: str, size_mm: float) -> str:
    return f"{Path(dictionary).name}, black square {size_mm:g} mm: print at actual size (100 %)"


def _check_ids(ids: list[int], dictionary: str) -> None:
    n = dictionary_size(dictionary)
    bad = [i for i in ids if i >= n]
    if bad:
        raise BadConfig(f"marker id {bad[0]}: {dictionary} has ids 0-{n - 1}")


def _runs(bits: np.ndarray):
    """(row, col, length) of each horizontal run of black modules in a 0/255 module image."""
    for r, row in enumerate(bits):
        c = 0
        while c < len(row):
            if row[c] == 0:
                start = c
                while c < len(row) and row[c] == 0:
                    c += 1
                yield r, start, c - start
            else:
                c += 1


def write_pdf(path: str | Path, ids: list[int], size_mm: float, dictionary: str) -> SheetLayout:
    """Write the sheet as a PDF (vector modules, ids in Helvetica); returns its layout.

    Raises:
        BadConfig: as :func:`sheet_layout`, or an id outside ``dictionary``.
        OSError: ``path`` cannot be written.
    """
    from fpdf import FPDF

    _check_ids(ids, dictionary)
    n = marker_modules(dictionary)
    layout = sheet_layout(ids, size_mm, n)
    pdf = FPDF(unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_title(f"arena-table markers {dictionary} {size_mm:g} mm")
    pdf.set_creator("arena-table markers print")
    module = size_mm / n
    font_pt = min(14.0, max(6.0, size_mm * 1.2))
    for page in layout.pages:
        pdf.add_page()
        pdf.set_fill_color(0, 0, 0)
        pdf.set_font("Helvetica", size=font_pt)
        for marker_id, x, y in page:
            for r, c, length in _runs(marker_image(dictionary, marker_id, n)):
                pdf.rect(x + c * module, y + r * module, length * module, module, style="F")
            pdf.text(x + size_mm + layout.quiet_mm + 1.0, y + size_mm / 2 + font_pt * 0.35 / 2, str(marker_id))
        pdf.set_font("Helvetica", size=7)
        pdf.text(MARGIN_MM, PAGE_MM[1] - MARGIN_MM / 2, _footer(dictionary, size_mm))
    pdf.output(str(path))
    return layout


def page_images(ids: list[int], size_mm: float, dictionary: str, dpi: float = 300.0) -> list[np.ndarray]:
    """The sheet's pages as grey uint8 rasters at ``dpi`` (white paper, black modules, ids).

    Raises:
        BadConfig: as :func:`sheet_layout`, an id outside ``dictionary``, or ``dpi`` outside 72-1200.
    """
    if not 72 <= dpi <= 1200:
        raise BadConfig(f"--dpi {dpi:g}: want 72-1200")
    _check_ids(ids, dictionary)
    layout = sheet_layout(ids, size_mm, marker_modules(dictionary))
    px = dpi / 25.4
    w, h = round(PAGE_MM[0] * px), round(PAGE_MM[1] * px)
    side = max(marker_modules(dictionary), round(size_mm * px))
    # ids have at most 3 digits (DICT_4X4_1000): "888" fits in LABEL_MM less 2 mm, and in the marker's height
    (tw, th), _ = cv2.getTextSize("888", cv2.FONT_HERSHEY_SIMPLEX, 1.0, 2)
    scale = min((LABEL_MM - 2.0) * px / tw, 0.6 * size_mm * px / th)
    out = []
    for page in layout.pages:
        img = np.full((h, w), 255, np.uint8)
        for marker_id, x, y in page:
            x0, y0 = round(x * px), round(y * px)
            img[y0:y0 + side, x0:x0 + side] = marker_image(dictionary, marker_id, side)
            label_x = round((x + size_mm + layout.quiet_mm + 1.0) * px)
            cv2.putText(img, str(marker_id), (label_x, y0 + (side + round(th * scale)) // 2),
                        cv2.FONT_HERSHEY_SIMPLEX, scale, 0, max(1, round(2 * scale)), cv2.LINE_AA)
        cv2.putText(img, _footer(dictionary, size_mm), (round(MARGIN_MM * px), round((PAGE_MM[1] - MARGIN_MM / 2) * px)),
                    cv2.FONT_HERSHEY_SIMPLEX, px / 12, 0, 1, cv2.LINE_AA)
        out.append(img)
    return out


def write_png(path: str | Path, ids: list[int], size_mm: float, dictionary: str,
              dpi: float = 300.0) -> list[Path]:
    """Write the sheet as PNG pages: ``path`` for the first, ``<stem>-2.png``... for more; returns
    the files written. The PNG records ``dpi`` so a print dialog sizes it right.

    Raises:
        BadConfig: as :func:`page_images`.
        OSError: a page cannot be written.
    """
    path = Path(path)
    written = []
    for k, img in enumerate(page_images(ids, size_mm, dictionary, dpi)):
        target = path if k == 0 else path.with_name(f"{path.stem}-{k + 1}{path.suffix}")
        ok, data = cv2.imencode(".png", img)
        if not ok:
            raise OSError(f"{target}: cannot encode PNG")
        target.write_bytes(_with_dpi(data.tobytes(), dpi))
        written.append(target)
    return written


def _with_dpi(png: bytes, dpi: float) -> bytes:
    """``png`` with a pHYs chunk (pixels per metre) after IHDR."""
    import struct
    import zlib

    ppm = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    end_ihdr = 8 + 4 + 4 + 13 + 4
    return png[:end_ihdr] + chunk + png[end_ihdr:]
