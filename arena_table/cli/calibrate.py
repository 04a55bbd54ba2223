"""``arena-table calibrate``: the board calibration (camera pixels -> board mm) from four corner markers.

From a photo (``calibrate PHOTO``) or one live frame (``calibrate --camera SPEC``). The corner
markers are known by id: ``--corner ID=X,Y`` four times (board mm of each marker's centre), or
``--board-mm W,H`` with ``--corner-ids TL,TR,BR,BL`` (default 46,47,48,49) for markers centred on
the board's corners. ``--reference ID=CELL`` with ``--grid`` checks that marker ``ID`` lands in
``CELL``; a calibration that misses is refused with by how many mm. The calibration is written to
``<data dir>/board-calibration.json`` (or ``--out``) with the camera resolution it holds for.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from .common import DEFAULT_DB

DEFAULT_CORNER_IDS = (46, 47, 48, 49)


def _point(text: str) -> tuple[float, float]:
    x, _, y = text.partition(",")
    return float(x), float(y)


def parse_corner(text: str) -> tuple[int, tuple[float, float]]:
    """``ID=X,Y`` -> (id, (x, y)); an argparse type."""
    m = re.fullmatch(r"\s*(\d+)\s*=\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*", text)
    if not m:
        raise argparse.ArgumentTypeError(f"{text!r}: want ID=X,Y (board mm of the marker's centre), e.g. 46=0,0")
    return int(m.group(1)), (float(m.group(2)), float(m.group(3)))


def parse_grid(text: str):
    """A grid from ``hex:SIZE[:flat][@X,Y]`` or ``square:SIZE:COLSxROWS[@X,Y]`` (mm; ``@`` the
    origin: hex (0, 0)'s centre, or the square grid's top-left corner); an argparse type."""
    from arena_table.rules.kernel.geometry import HexLayout, SquareLayout

    body, _, origin = text.partition("@")
    parts = body.split(":")
    try:
        at = _point(origin) if origin else (0.0, 0.0)
        if parts[0] == "hex" and len(parts) in (2, 3):
            return HexLayout(float(parts[1]), orientation=parts[2] if len(parts) == 3 else "pointy", origin_mm=at)
        if parts[0] == "square" and len(parts) == 3:
            cols, _, rows = parts[2].partition("x")
            return SquareLayout(float(parts[1]), int(cols), int(rows), origin_mm=at)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r}: {exc}") from None
    raise argparse.ArgumentTypeError(f"{text!r}: want hex:SIZE[:flat][@X,Y] or square:SIZE:COLSxROWS[@X,Y] (mm)")


def parse_reference(text: str) -> tuple[int, object]:
    """``ID=Q,R`` (a hex or square cell) or ``ID=AREA`` -> (id, cell); an argparse type."""
    marker, sep, cell = text.partition("=")
    if not sep or not marker.strip().isdigit() or not cell.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: want ID=Q,R (a cell) or ID=AREA, e.g. 10=3,-1")
    if re.fullmatch(r"\s*-?\d+\s*,\s*-?\d+\s*", cell):
        q, r = (int(v) for v in cell.split(","))
        return int(marker), (q, r)
    return int(marker), cell.strip()


def _frame(args: argparse.Namespace):
    """The image to calibrate from (photo or one live frame), or an error line."""
    if args.photo:
        from arena_table.vision.dice_io import load_image
        from arena_table.vision.errors import VisionError

        try:
            return load_image(args.photo), None
        except VisionError as exc:
            return None, str(exc)
    from arena_table.vision.capture import open_source
    from arena_table.vision.frames import CameraError

    try:
        source = open_source(args.camera, options={"realtime": False})
    except (ValueError, CameraError, OSError) as exc:
        return None, str(exc)
    try:
        if hasattr(source, "start"):
            source.start()
        return source.read(timeout=args.timeout).image, None
    except CameraError as exc:
        return None, f"camera {args.camera}: no frame ({exc})"
    finally:
        source.close()


def _cmd_calibrate(args: argparse.Namespace) -> int:
    from arena_table.vision.board_calib import CALIBRATION_FILE, CalibrationRefused, calibrate_board
    from arena_table.vision.errors import VisionError
    from arena_table.vision.markers import MarkerConfig, MarkerDetector

    from .dice import _quiet_opencv

    _quiet_opencv()
    if args.corner:
        corners = dict(args.corner)
        if len(args.corner) != 4 or len(corners) != 4:
            print("error: give --corner ID=X,Y for four distinct marker ids", file=sys.stderr)
            return 2
    elif args.board_mm:
        w, h = args.board_mm
        ids = args.corner_ids
        corners = dict(zip(ids, ((0.0, 0.0), (w, 0.0), (w, h), (0.0, h))))
        if len(corners) != 4:
            print(f"error: --corner-ids {','.join(map(str, ids))}: want four distinct ids (TL,TR,BR,BL)",
                  file=sys.stderr)
            return 2
    else:
        print("error: give the board's corners: --board-mm W,H (markers on its corners) or --corner ID=X,Y x4",
              file=sys.stderr)
        return 2
    if args.reference and args.grid is None:
        print("error: --reference needs --grid (the cells it is checked against)", file=sys.stderr)
        return 2
    try:
        detector = MarkerDetector(MarkerConfig(dictionary=args.dictionary))
    except VisionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    image, why = _frame(args)
    if image is None:
        print(f"error: {why}", file=sys.stderr)
        return 1
    h, w = image.shape[:2]
    grid = args.grid
    try:
        cal = calibrate_board(detector.detect(image), (w, h), corners, dictionary=args.dictionary,
                              reference=args.reference, cell_at=getattr(grid, "cell_at", None),
                              centre_of=getattr(grid, "centre", None))
    except CalibrationRefused as exc:
        print(f"error: calibration refused: {exc}", file=sys.stderr)
        return 1
    out = Path(args.out) if args.out else (Path(args.data_dir) if args.data_dir else Path(args.db).parent) / CALIBRATION_FILE
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        cal.save(out)
    except OSError as exc:
        print(f"error: {out}: cannot write ({exc.strerror or exc})", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(cal.to_json(), indent=1))
        return 0
    ref = cal.reference
    said = (f"; reference marker {ref.id} in {list(ref.cell) if isinstance(ref.cell, tuple) else ref.cell}, "
            f"{ref.offset_mm:.1f} mm from its centre" if ref else "")
    print(f"calibrated at {w}x{h} from corner markers {', '.join(map(str, corners))}{said}: {out}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("calibrate", help="board calibration from four corner markers (a photo or a live frame)")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("photo", nargs="?", metavar="PHOTO", help="a photo of the board from the table's camera")
    src.add_argument("--camera", metavar="SPEC", help="take one live frame: a device index, picamera2, sim, ...")
    p.add_argument("--board-mm", type=lambda t: _dims(t), metavar="W,H",
                   help="board width and height in mm; corner markers centred on its corners")
    p.add_argument("--corner-ids", type=_ids, default=DEFAULT_CORNER_IDS, metavar="TL,TR,BR,BL",
                   help="ids of the corner markers, top-left first, clockwise (default 46,47,48,49)")
    p.add_argument("--corner", type=parse_corner, action="append", metavar="ID=X,Y",
                   help="a corner marker and its centre in board mm (four times; instead of --board-mm)")
    p.add_argument("--reference", type=parse_reference, metavar="ID=CELL",
                   help="a marker that must land in CELL (Q,R or an area name), else the calibration is refused")
    p.add_argument("--grid", type=parse_grid, metavar="SPEC",
                   help="the cells for --reference: hex:SIZE[:flat][@X,Y] or square:SIZE:COLSxROWS[@X,Y] (mm)")
    p.add_argument("--dict", dest="dictionary", default="DICT_4X4_50", metavar="NAME", help="marker dictionary")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for a live frame (default 10)")
    p.add_argument("--out", help="calibration file (default: <data dir>/board-calibration.json)")
    p.add_argument("--db", default=str(DEFAULT_DB), help=f"the table's event log (default: {DEFAULT_DB})")
    p.add_argument("--data-dir", help="folder to store it in (default: the folder of --db)")
    p.add_argument("--json", action="store_true", help="print the calibration as JSON")
    p.set_defaults(func=_cmd_calibrate)


def _dims(text: str) -> tuple[float, float]:
    try:
        w, h = _point(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: want W,H in mm, e.g. 450,300") from None
    if w <= 0 or h <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: width and height must be above 0 mm")
    return w, h


def _ids(text: str) -> tuple[int, ...]:
    try:
        ids = tuple(int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: want four ids, e.g. 46,47,48,49") from None
    if len(ids) != 4:
        raise argparse.ArgumentTypeError(f"{text!r}: want four ids (top-left, top-right, bottom-right, bottom-left)")
    return ids
