"""``arena-table counters PHOTO``: what the counters reader sees in one camera photo.

For setting up ``[counters]`` (docs/configuration.md): reads the configured slots on a photo taken
by the table's camera, as the running table would (the board calibration of the data folder for
``box_mm`` slots, else ``box_px``), and prints each hero's value, or why its slot was not read.
``--out FILE`` writes the photo with each slot's outline and value drawn over it. Without a game
running, a slot without ``power`` takes a divine die of any power. The configuration and the data
folder are found as ``run`` finds them (``--config``, else ``/etc/arena-table/config.toml`` where
installed; ``--db``, ``--data-dir``).
"""

from __future__ import annotations

import argparse
import json
import sys

from .common import DEFAULT_DB


def cmd_counters(args: argparse.Namespace) -> int:
    """Print (or ``--json``) each slot's value; 1 when the configuration, the photo, the board
    calibration or ``--out`` cannot be used, no slot is configured, or ``box_mm`` slots are set and
    the data folder does not exist."""
    import cv2

    from arena_table.rules.kernel.mechanics.die_kinds import find_kind
    from arena_table.table.config import ConfigError, load
    from arena_table.table.counter_slots import CounterSlot
    from arena_table.table.counters import DIVINE_KINDS, draw_slots, place, read_slots
    from arena_table.vision.board_calib import CALIBRATION_FILE, BoardCalibration, CalibrationRefused
    from arena_table.vision.dice_io import load_image
    from arena_table.vision.errors import VisionError

    from .doctor import config_and_overrides

    config_file, overrides = config_and_overrides(args)
    try:
        cfg = load(config_file, overrides).config
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if not cfg.counters.slots:
        print(f"error: {config_file or 'the configuration'} sets no counters.slots: nothing to read "
              "(docs/configuration.md, [counters])", file=sys.stderr)
        return 1
    try:
        image = load_image(args.photo)
    except VisionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    size = (image.shape[1], image.shape[0])
    cal_path = cfg.data.dir_path / CALIBRATION_FILE
    if not cfg.data.dir_path.is_dir() and any("box_mm" in s for s in cfg.counters.slots):
        # a mistyped folder would read as "no board calibration" and send the user to calibrate again
        print(f"error: {cfg.data.dir_path}: no such folder; the box_mm slots need the data folder's "
              f"{CALIBRATION_FILE} (--data-dir, as given to run)", file=sys.stderr)
        return 1
    board, notes = None, []
    if cal_path.is_file():
        try:
            board = BoardCalibration.load(cal_path)
        except (CalibrationRefused, OSError) as exc:
            print(f"error: {cal_path}: {exc}", file=sys.stderr)
            return 1
        if tuple(board.resolution) != size:
            notes.append(f"{cal_path} was made at {board.resolution[0]}x{board.resolution[1]}, the photo is "
                         f"{size[0]}x{size[1]}: box_mm slots not used")
            board = None
    placed, problems = place([CounterSlot.of(s) for s in cfg.counters.slots], size, board)
    kinds = [find_kind(k) for k in DIVINE_KINDS.values()]
    values, unread = read_slots(image, [(p, p.slot.power) for p in placed], kinds)
    if args.out:
        try:
            written = cv2.imwrite(str(args.out), draw_slots(image, placed, values))
        except cv2.error:  # a name OpenCV has no writer for (.txt, no extension)
            written = False
        if not written:
            print(f"error: {args.out}: cannot write the image (a .png or .jpg name in a folder that exists)",
                  file=sys.stderr)
            return 1
    if args.json:
        print(json.dumps({"photo": args.photo, "board_calibration": str(cal_path) if board is not None else None,
                          "slots": [{"hero": p.slot.hero, "value": values[p.slot.hero],
                                     "why": unread.get(p.slot.hero, ""), "placed_by": p.frame_of,
                                     "outline_px": [[round(x, 1), round(y, 1)] for x, y in p.outline]}
                                    for p in placed],
                          "problems": notes + problems}, indent=1))
        return 0
    where = f"board calibration {cal_path}" if board is not None else "no board calibration: box_px only"
    print(f"{args.photo}: {len(placed)} of {len(cfg.counters.slots)} slots ({where})")
    for p in placed:
        hero, value = p.slot.hero, values[p.slot.hero]
        said = f"not read: {unread[hero]}" if value is None else f"{value}" + (" (no die)" if value == 0 else "")
        print(f"  {hero:<16} {said}   [{p.frame_of}]")
    for line in notes + problems:
        print(f"  note: {line}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("counters", help="read the [counters] slots (Demigods divine dice) on one camera photo")
    p.add_argument("photo", metavar="PHOTO", help="a photo from the table's camera (the full frame)")
    p.add_argument("--config", help="the configuration file with [counters] (default: /etc/arena-table/config.toml "
                   "where it exists)")
    p.add_argument("--db", default=str(DEFAULT_DB),
                   help=f"the event log (default: the config file's data.db, else {DEFAULT_DB})")
    p.add_argument("--data-dir", help="the table's data folder with board-calibration.json, as given to run "
                   "(default: the folder of --db)")
    p.add_argument("--out", metavar="FILE", help="write the photo with each slot's outline and value drawn on it")
    p.add_argument("--json", action="store_true", help="print the slots as JSON")
    p.set_defaults(func=cmd_counters)
