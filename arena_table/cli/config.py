"""``arena-table config show`` and ``arena-table config check FILE``.

``show`` prints the configuration ``run`` would start with, given the same ``--config`` and
flags, as a TOML file with where each value came from (``default``, ``file PATH`` or
``flag --NAME``). ``check`` reads a file alone and names its first bad section, key or value
(exit 1), or says it is fine (exit 0). The keys: ``examples/config.toml``, docs/configuration.md.
"""

from __future__ import annotations

import argparse
import sys

from .common import subcommand_group


def cmd_show(args: argparse.Namespace) -> int:
    from arena_table.table.config import ConfigError, show

    from .run import load_flags

    try:
        loaded = load_flags(args)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(show(loaded), end="")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from arena_table.rules import UnknownGame, find_game
    from arena_table.table.config import ConfigError, load

    try:
        config = load(args.file).config
        if config.game.name:
            find_game(config.game.name)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except UnknownGame as exc:
        print(f"error: {args.file}: game.name: {exc}", file=sys.stderr)
        return 1
    print(f"{args.file}: every key and value is one `arena-table run` takes")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    from .run import add_config_flags

    group = subcommand_group(sub, "config", "the table's configuration file")
    p = group.add_parser("show", help="print the values in force and where each came from (default, file, flag)")
    add_config_flags(p)
    p.set_defaults(func=cmd_show)
    p = group.add_parser("check", help="check a configuration file: names a bad key or value, exits 1")
    p.add_argument("file", metavar="FILE", help="a TOML file (examples/config.toml lists every key)")
    p.set_defaults(func=cmd_check)
