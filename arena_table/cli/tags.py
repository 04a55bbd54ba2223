"""``arena-table tags``: the tag registry (which token or card each NFC UID stands for).

``tags enroll --as OBJECT`` binds the next tag laid on a reader pad (``--port``,
``--sim``) or a UID given with ``--uid``; ``tags list`` and ``tags forget UID``
show and drop bindings; ``tags objects GAME`` lists a game's catalogue. The
registry is ``<data dir>/tags.db``, the data dir of ``arena-table run --db``;
only ``enroll`` creates it (``list`` and ``forget`` on a missing registry say so).
A ``--uid`` is checked as a canonical UID before anything else, and a ``--port``
that does not exist fails at once instead of waiting ``--timeout`` for a tap.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import sys
from datetime import datetime
from pathlib import Path

from arena_table.hardware.errors import BadUid, RegistryError
from arena_table.hardware.registry import TagRegistry
from arena_table.hardware.uid import canonical_uid
from arena_table.rules import UnknownGame

from .common import DEFAULT_DB, subcommand_group
from arena_table.table.tokens import catalogue, check_catalogue


def _registry_path(args: argparse.Namespace) -> Path:
    data_dir = Path(args.data_dir) if args.data_dir else Path(args.db).parent
    return data_dir / "tags.db"


def _registry(args: argparse.Namespace) -> TagRegistry:
    """The registry, created if missing (only the commands that write call this on a missing file)."""
    return TagRegistry(_registry_path(args))


def _no_registry(args: argparse.Namespace) -> str:
    """"" if the registry file exists, else the note that nothing is enrolled (reading creates no file)."""
    path = _registry_path(args)
    return "" if path.exists() else f"no tags enrolled yet (no registry at {path})"


def _check_port(spec: str) -> str:
    """"" if the reader's port exists now, else why not (``no such port ...``); a tap never comes otherwise."""
    from arena_table.hardware.errors import ReaderNotFound
    from arena_table.hardware.ports import PortLocator

    try:
        PortLocator(spec).find()
    except ValueError as exc:
        return str(exc)
    except ReaderNotFound:
        return f"no such port {spec} (is the token reader plugged in?)"
    return ""


def _wait_for_tap(args: argparse.Namespace) -> str | None:
    """Open the reader (or the simulator) and return the UID of the first tag laid down."""
    from arena_table.hardware.reader import SerialTokenReader

    taps: queue.Queue = queue.Queue()
    sim = None
    if args.sim:
        from arena_table.table.tokens_sim import SimFirmware

        sim = SimFirmware(pads=1).start()
        port = sim.port
    else:
        port = args.port

    def on_tag(change) -> None:
        if change.placed and not change.snapshot:
            taps.put(change.uid)
        elif change.placed:
            print(f"a tag ({change.uid}) already lies on pad {change.pad}: lift it and lay it down again",
                  file=sys.stderr)

    reader = SerialTokenReader(port, on_tag, settle=0.0 if sim else 0.2)
    try:
        reader.start()
        if sim:
            import time

            deadline = time.monotonic() + 5
            while reader.status.state != "up" and time.monotonic() < deadline:
                time.sleep(0.01)
            sim.place(0, args.uid if args.uid is not None else "04" + os.urandom(6).hex().upper())
        else:
            print(f"lay the tag for {args.object} on a reader pad ({port})...", file=sys.stderr)
        try:
            return taps.get(timeout=args.timeout)
        except queue.Empty:
            print(f"error: no tag laid on a pad within {args.timeout:g} s (reader: {reader.status.state}"
                  f"{', ' + reader.status.detail if reader.status.detail else ''})", file=sys.stderr)
            return None
    finally:
        reader.close()
        if sim:
            sim.close()


def _cmd_enroll(args: argparse.Namespace) -> int:
    why = None if args.force else check_catalogue(args.object)
    if why:
        print(f"error: {why} (--force binds it anyway)", file=sys.stderr)
        return 2
    if args.uid is not None:
        try:
            args.uid = canonical_uid(args.uid)
        except BadUid as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    if args.uid is not None and not args.sim:
        uid = args.uid
    elif args.port or args.sim:
        why = _check_port(args.port) if args.port else ""
        if why:
            print(f"error: {why}", file=sys.stderr)
            return 2
        uid = _wait_for_tap(args)
        if uid is None:
            return 1
    else:
        print("error: give --uid UID, or --port PORT / --sim to tap the tag", file=sys.stderr)
        return 2
    try:
        with _registry(args) as reg:
            old = reg.lookup(uid)
            binding = reg.bind(uid, args.object)
            others = [b.uid for b in reg.bindings() if b.object == binding.object and b.uid != binding.uid]
    except (BadUid, RegistryError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    note = f" (was {old})" if old and old != binding.object else ""
    print(f"{binding.uid} -> {binding.object}{note}")
    if others:  # a second copy of a token, or a replaced tag whose old UID still stands for the object
        print(f"note: {binding.object} is also bound to {', '.join(others)}; if that tag is gone: "
              f"arena-table tags forget {others[0]}", file=sys.stderr)
    return 0


def _cmd_list(args: argparse.Namespace) -> int:
    missing = _no_registry(args)
    if missing:
        print("[]" if args.json else missing)
        return 0
    try:
        with _registry(args) as reg:
            rows = reg.bindings()
    except RegistryError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps([{"uid": b.uid, "object": b.object, "enrolled": b.enrolled} for b in rows], indent=2))
        return 0
    if not rows:
        print("no tags enrolled")
    for b in rows:
        when = datetime.fromtimestamp(b.enrolled).strftime("%Y-%m-%d %H:%M")
        print(f"{b.uid:<20}  {b.object:<40}  {when}")
    return 0


def _cmd_forget(args: argparse.Namespace) -> int:
    missing = _no_registry(args)
    if missing:
        try:
            uid = canonical_uid(args.uid)
        except BadUid as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"error: {uid} is not enrolled: {missing}", file=sys.stderr)
        return 1
    try:
        with _registry(args) as reg:
            gone = reg.forget(args.uid)
    except (BadUid, RegistryError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not gone:
        print(f"error: {args.uid} is not enrolled", file=sys.stderr)
        return 1
    print(f"forgot {canonical_uid(args.uid)}")
    return 0


def _cmd_objects(args: argparse.Namespace) -> int:
    try:
        names = catalogue(args.game)
    except UnknownGame as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not names:
        print(f"{args.game} keeps no catalogue of taggable objects")
    for name in names:
        print(name)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    tags = subcommand_group(sub, "tags", "the tag registry: which token or card each NFC tag is")

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--db", default=str(DEFAULT_DB), help=f"the table's event log (default: {DEFAULT_DB})")
        p.add_argument("--data-dir", help="folder of tags.db (default: the folder of --db)")

    p = tags.add_parser("enroll", help="bind a tag to a game object (tap it on a pad, or give --uid)")
    p.add_argument("--as", dest="object", required=True, metavar="OBJECT",
                   help="game object, e.g. theosis:hero:rochon")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--port", help="the token reader: a serial port or usb:VID:PID[:SERIAL]")
    src.add_argument("--sim", action="store_true", help="tap a simulated tag (--uid, or a random one)")
    p.add_argument("--uid", help="the tag's UID in any spelling (04:a1:b2:c3, 0x04A1B2C3, ...)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for the tap (default 60)")
    p.add_argument("--force", action="store_true", help="bind even if the game's catalogue lacks OBJECT")
    common(p)
    p.set_defaults(func=_cmd_enroll)

    p = tags.add_parser("list", help="show every enrolled tag")
    p.add_argument("--json", action="store_true")
    common(p)
    p.set_defaults(func=_cmd_list)

    p = tags.add_parser("forget", help="drop a tag's binding")
    p.add_argument("uid", metavar="UID")
    common(p)
    p.set_defaults(func=_cmd_forget)

    p = tags.add_parser("objects", help="list a game's taggable objects")
    p.add_argument("game", metavar="GAME")
    p.set_defaults(func=_cmd_objects)
