"""``arena-table markers``: the figures' fiducial markers.

``markers read IMAGE...`` prints every marker found (id and its four corners in pixels, in the
detector's order: the marker's top-left, top-right, bottom-right, bottom-left); ``markers print``
makes a printable sheet (PDF or PNG); ``markers assign ID --as FIGURE``, ``markers list`` and
``markers remove ID`` edit the registry ``<data dir>/markers.db`` of which figure each id stands
for (the data dir of ``arena-table run --db``; only ``assign`` creates it).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .common import DEFAULT_DB, subcommand_group


def _dict_flag(p: argparse.ArgumentParser, default: str | None = "DICT_4X4_50") -> None:
    p.add_argument("--dict", dest="dictionary", default=default, metavar="NAME",
                   help="marker dictionary: DICT_4X4_50 (default), DICT_APRILTAG_36h11, ... or an OpenCV "
                        "dictionary file (.yml)" if default else
                        "marker dictionary of a new registry (default DICT_4X4_50)")


def _cmd_read(args: argparse.Namespace) -> int:
    from arena_table.vision.dice_io import load_image
    from arena_table.vision.errors import VisionError
    from arena_table.vision.markers import MarkerConfig, MarkerDetector

    from .dice import _quiet_opencv

    _quiet_opencv()
    try:
        detector = MarkerDetector(MarkerConfig(dictionary=args.dictionary))
    except VisionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    status, results = 0, []
    for image in args.images:
        try:
            frame = load_image(image)
        except VisionError as exc:
            print(f"error: {exc}", file=sys.stderr)
            status = 1
            continue
        found = detector.detect(frame)
        results.append({"image": image, "width": frame.shape[1], "height": frame.shape[0],
                        "markers": [m.to_json() for m in found]})
        if not args.json:
            print(f"{image}: {len(found)} marker{'s' if len(found) != 1 else ''} ({args.dictionary})")
            for m in found:
                corners = " ".join(f"({x:.1f},{y:.1f})" for x, y in m.corners)
                print(f"  id {m.id:>4}  {corners}")
    if args.json:
        print(json.dumps(results, indent=1))
    return status


def _cmd_print(args: argparse.Namespace) -> int:
    from arena_table.vision.errors import VisionError
    from arena_table.vision.marker_sheet import parse_ids, write_pdf, write_png

    out = Path(args.out)
    suffix = out.suffix.lower()
    if suffix not in (".pdf", ".png"):
        print(f"error: {args.out}: give a .pdf or .png file name", file=sys.stderr)
        return 2
    try:
        ids = parse_ids(args.ids)
        if suffix == ".pdf":
            layout = write_pdf(out, ids, args.size_mm, args.dictionary)
            files, pages = [out], len(layout.pages)
        else:
            files = write_png(out, ids, args.size_mm, args.dictionary, dpi=args.dpi)
            pages = len(files)
    except VisionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {args.out}: cannot write ({exc.strerror or exc})", file=sys.stderr)
        return 1
    print(f"wrote {len(ids)} {args.dictionary} markers of {args.size_mm:g} mm on {pages} page"
          f"{'s' if pages != 1 else ''}: {', '.join(map(str, files))} (print at actual size)")
    return 0


def _registry_path(args: argparse.Namespace) -> Path:
    data_dir = Path(args.data_dir) if args.data_dir else Path(args.db).parent
    return data_dir / "markers.db"


def _open(args: argparse.Namespace, create: bool):
    """The registry, or ``None`` (with the note printed) when it is missing and ``create`` is False."""
    from arena_table.vision.marker_registry import MarkerRegistry

    path = _registry_path(args)
    if not create and not path.exists():
        return None
    return MarkerRegistry(path, dictionary=args.dictionary or "DICT_4X4_50")


def _cmd_assign(args: argparse.Namespace) -> int:
    from arena_table.vision.errors import VisionError

    try:
        with _open(args, create=True) as reg:
            if args.dictionary and args.dictionary != reg.dictionary:
                print(f"error: {_registry_path(args)} holds {reg.dictionary} ids, not {args.dictionary}",
                      file=sys.stderr)
                return 2
            if args.size_mm is not None:
                reg.set_marker_mm(args.size_mm)
            old = reg.figures().get(args.id)
            row = reg.assign(args.id, args.figure, team=args.team or "")
            same = [m.id for m in reg.figures().values() if m.figure == row.figure and m.id != row.id]
    except VisionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    note = f" (was {old.figure}, {old.team})" if old and (old.figure, old.team) != (row.figure, row.team) else ""
    print(f"marker {row.id} -> {row.figure} ({row.team}){note}")
    if same:
        print(f"note: {row.figure} also carries marker {', '.join(map(str, same))}; two markers of one figure "
              f"are ignored as duplicates when both are seen (arena-table markers remove {same[0]})",
              file=sys.stderr)
    return 0


def _cmd_list(args: argparse.Namespace) -> int:
    from arena_table.vision.errors import VisionError

    try:
        reg = _open(args, create=False)
    except VisionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if reg is None:
        print("[]" if args.json else f"no markers assigned yet (no registry at {_registry_path(args)})")
        return 0
    with reg:
        rows = list(reg.figures().values())
        if args.json:
            print(json.dumps([{"id": m.id, "figure": m.figure, "team": m.team, "game": m.game, "kind": m.kind,
                               "dictionary": reg.dictionary, "marker_mm": reg.marker_mm} for m in rows], indent=1))
            return 0
        print(f"{reg.dictionary}, {reg.marker_mm:g} mm: {len(rows)} marker{'s' if len(rows) != 1 else ''} assigned")
    for m in rows:
        print(f"  {m.id:>4}  {m.figure:<40}  {m.team}")
    return 0


def _cmd_remove(args: argparse.Namespace) -> int:
    from arena_table.vision.errors import VisionError

    try:
        reg = _open(args, create=False)
        if reg is None:
            print(f"error: marker {args.id} is not assigned (no registry at {_registry_path(args)})",
                  file=sys.stderr)
            return 1
        with reg:
            gone = reg.remove(args.id)
    except VisionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if not gone:
        print(f"error: marker {args.id} is not assigned", file=sys.stderr)
        return 1
    print(f"removed marker {args.id}")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from arena_table.bench.markers import format_result, run_bench

    from .dice import _quiet_opencv

    _quiet_opencv()
    out = run_bench(frames=args.frames, repeats=args.repeats)
    print(json.dumps(out, indent=1) if args.json else format_result(out))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    from .common import at_least, bench_subparsers

    p = bench_subparsers(sub).add_parser("markers", help="figure markers: the whole locate -> cell -> event path "
                                                          "against the bare detector, 1280x720, 20 markers, one core")
    p.add_argument("--frames", type=at_least(1), default=12, help="rendered frames (default 12)")
    p.add_argument("--repeats", type=at_least(1), default=5, help="timings of each frame (default 5)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_bench)

    markers = subcommand_group(sub, "markers", "the figures' markers: read, print, and which figure each is")

    p = markers.add_parser("read", help="print every marker found in images (id and corners in pixels)")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    _dict_flag(p)
    p.add_argument("--json", action="store_true", help="one JSON list: per image its size and markers")
    p.set_defaults(func=_cmd_read)

    p = markers.add_parser("print", help="a printable sheet of markers (PDF or PNG) with each id beside it")
    p.add_argument("out", metavar="OUT.pdf|OUT.png")
    p.add_argument("--ids", default="0-49", help="ids and ranges, e.g. 0-49 or 0-9,20 (default 0-49)")
    p.add_argument("--size-mm", type=at_least(4.0, float), default=12.0,
                   help="side of a marker's black square in mm (default 12)")
    p.add_argument("--dpi", type=at_least(72.0, float), default=300.0, help="PNG resolution (default 300)")
    _dict_flag(p)
    p.set_defaults(func=_cmd_print)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--db", default=str(DEFAULT_DB), help=f"the table's event log (default: {DEFAULT_DB})")
        p.add_argument("--data-dir", help="folder of markers.db (default: the folder of --db)")

    p = markers.add_parser("assign", help="let a marker id stand for a figure")
    p.add_argument("id", type=at_least(0), metavar="ID")
    p.add_argument("--as", dest="figure", required=True, metavar="FIGURE",
                   help="game:kind:name, kind hero, monster or minion (e.g. theosis:hero:rochon)")
    p.add_argument("--team", help="the figure's side (default: the game's name)")
    p.add_argument("--size-mm", type=float, help="printed side of the markers (default: as recorded, first 12)")
    _dict_flag(p, default=None)
    common(p)
    p.set_defaults(func=_cmd_assign)

    p = markers.add_parser("list", help="show which figure each marker stands for")
    p.add_argument("--json", action="store_true")
    common(p)
    p.set_defaults(func=_cmd_list, dictionary=None)

    p = markers.add_parser("remove", help="drop a marker's figure")
    p.add_argument("id", type=at_least(0), metavar="ID")
    common(p)
    p.set_defaults(func=_cmd_remove, dictionary=None)
