"""The ``arena-table`` command line.

Sub-commands live in the modules of this package named in :data:`PLUGINS`, each exposing
``register(subparsers)``; every leaf parser sets ``func`` to a handler
``(args) -> int`` (exit code).

Ctrl-C ends any command quietly with exit status 130 (``run``, once it serves, takes it as
its stop and exits 0). That holds while the modules are still importing too: loading this
module imports nothing but ``sys``, and :func:`main` makes every other import inside its
``KeyboardInterrupt`` guard.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only (see the module docstring)
    import argparse
    from collections.abc import Sequence

PLUGINS = ("run", "config", "doctor", "pin", "dice", "tags", "markers", "calibrate", "counters", "bench", "hub")
"""Modules of this package that add sub-commands (a missing one is skipped)."""


def _cmd_replay(args: argparse.Namespace) -> int:
    import json

    from arena_table.rules import GameStarted, Refused, UnknownGame, digest, find_game, new_table, replay, table_view
    from arena_table.rules.kernel.mechanics.dice import FAIRNESS_MIN_DICE

    from arena_table.table.log import LogError, read_jsonl

    lines: dict[int, int] = {}
    try:
        with open(args.file, encoding="utf-8") as fp:
            records = read_jsonl(fp, source=args.file, lines_out=lines)
        if not records:  # "0 events" would pass for a replay of a log that was not exported, or a wrong file
            print(f"error: {args.file}: no events (an empty log or transcript)", file=sys.stderr)
            return 1
        game = args.game
        if game is not None:
            find_game(game)  # an unknown --game is named even where the file starts a game of its own
            if isinstance(records[0][1], GameStarted):
                game = None  # no event runs before the file's first start, so no game need be set up
            else:
                try:
                    new_table(game)
                except ValueError as exc:  # a game with no default set-up (Euthia, Sword & Sorcery)
                    print(f"error: --game {game}: cannot be set up without options ({exc}); begin {args.file} "
                          f"with a line `start game={game} options={{...}}` instead", file=sys.stderr)
                    return 1
        state = replay(records, game)
    except OSError as exc:
        print(f"error: {args.file}: {exc.strerror}", file=sys.stderr)
        return 1
    except UnicodeDecodeError as exc:
        print(f"error: {args.file}: not a text file (byte {exc.start} is not UTF-8)", file=sys.stderr)
        return 1
    except Refused as exc:
        where = next((f"{args.file}:{lines[s]}" for s, e in records if e is exc.event and s in lines), args.file)
        print(f"error: {where}: {exc}", file=sys.stderr)
        return 1
    except (LogError, UnknownGame) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    view = table_view(state)
    view["digest"] = digest(state)
    if args.json:
        print(json.dumps(view, indent=2, sort_keys=True))
    else:
        print(f"{view['title']}: {len(records)} events, last seq {state.seq}, digest {view['digest'][:16]}")
        for line in view["log"][-20:]:
            print(f"  {line['seq']:>5}  {line['text']}")
        for die, s in (view.get("tray") or {}).get("stats", {}).items():  # the tray's figures, every game
            fair = (f", chi² {s['chi2']:.2f}, p {s['p_value']:.3f}" if s.get("chi2") is not None
                    else f", fairness from {FAIRNESS_MIN_DICE} dice")
            counts = " ".join(f"{face}:{n}" for face, n in s["counts"].items())
            print(f"{die}: {s['dice']} dice in {s['rolls']} rolls, total {s['total']}, mean {s['mean']:.2f}, "
                  f"counts {counts}{fair}")
        out = view["outcome"]
        if out:
            who = ", ".join(out.get("winners") or ()) or "nobody"
            print(f"outcome: {'draw' if out.get('draw') else 'won by ' + who}"
                  + (f" ({out['reason']})" if out.get("reason") else ""))
    return 0


def _cmd_log_export(args: argparse.Namespace) -> int:
    """``log export``: the log at ``--db`` (default :data:`~arena_table.table.log.DEFAULT_DB`) as JSON lines on standard
    output or ``-o FILE``; exit 1 with one ``error:`` line if the log is missing or unreadable (a missing
    log is not created) or the output cannot be written."""
    from pathlib import Path

    from arena_table.table.log import EventLog, LogError

    if not Path(args.db).is_file():
        print(f"error: {args.db}: no such event log (give --db PATH, the log `arena-table run` writes)",
              file=sys.stderr)
        return 1
    try:
        with EventLog(args.db, readonly=True) as log:
            if args.output in (None, "-"):
                log.export_jsonl(sys.stdout, include_rejected=not args.applied_only)
            else:
                with open(args.output, "w", encoding="utf-8") as fp:
                    n = log.export_jsonl(fp, include_rejected=not args.applied_only)
                print(f"wrote {n} events to {args.output}", file=sys.stderr)
    except LogError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        raise  # the reader closed standard output (`| head`): main() ends quietly
    except OSError as exc:
        print(f"error: {args.output}: cannot write ({exc.strerror or exc})", file=sys.stderr)
        return 1
    return 0


def build_parser() -> argparse.ArgumentParser:
    import argparse
    import importlib

    from .common import DEFAULT_DB, CommandParser, subcommand_group

    parser = argparse.ArgumentParser(prog="arena-table", description=__doc__.splitlines()[0].replace("``", ""))
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="cmd", required=True, metavar="COMMAND", parser_class=CommandParser)

    p = sub.add_parser("replay", help="replay a JSON-lines log or notation transcript and print the final state")
    p.add_argument("file", help="JSON lines from `log export`, or one event in notation a line")
    p.add_argument("--game", default="dice-tray", help="game running before the first start event")
    p.add_argument("--json", action="store_true", help="print the final state as JSON")
    p.set_defaults(func=_cmd_replay)

    logs = subcommand_group(sub, "log", "the durable event log")
    p = logs.add_parser("export", help="write the log as JSON lines")
    p.add_argument("--db", default=str(DEFAULT_DB), help=f"the table's SQLite log file (default: {DEFAULT_DB})")
    p.add_argument("-o", "--output", help="output file (default: standard output)")
    p.add_argument("--applied-only", action="store_true", help="leave out rejected events")
    p.set_defaults(func=_cmd_log_export)

    for name in PLUGINS:
        try:
            mod = importlib.import_module(f"arena_table.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"arena_table.cli.{name}":
                continue
            raise
        mod.register(sub)
    return parser


def expand_home(args: argparse.Namespace) -> argparse.Namespace:
    """``args`` with ``~`` or ``~user`` at the start of any text argument expanded
    (``os.path.expanduser``).

    The shell expands a bare ``~/x`` but not ``--db=~/x`` or a quoted ``'~/x'``, which would make a
    folder named ``~`` in the current one. (A configuration file's paths are expanded when read.)

    >>> from argparse import Namespace
    >>> import os.path
    >>> args = expand_home(Namespace(db="~/t.db", n=3, game="dice", dirs=["~", "a~/b"]))
    >>> args.db == os.path.expanduser("~/t.db"), args.dirs == [os.path.expanduser("~"), "a~/b"], args.game
    (True, True, 'dice')
    """
    import os.path

    def expand(value):
        return os.path.expanduser(value) if isinstance(value, str) and value.startswith("~") else value

    for name, value in vars(args).items():
        setattr(args, name, [expand(v) for v in value] if isinstance(value, list) else expand(value))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns its exit status (argparse exits 2 itself on a usage error)."""
    try:
        import logging

        args = expand_home(build_parser().parse_args(argv))
        logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader closed standard output (`| head`): end quietly
        # what is still buffered would fail again when Python flushes at exit (Python docs,
        # "Note on SIGPIPE"): standard output goes to /dev/null from here on
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
