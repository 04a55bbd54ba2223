"""The dice and bench commands of the CLI run in-process for the vision tests."""

from __future__ import annotations

import argparse

from arena_table.cli import bench as cli_bench
from arena_table.cli import dice as cli_dice
from arena_table.cli.common import bench_subparsers


def run_cli(argv: list[str]) -> int:
    """``arena-table dice ...`` / ``bench ...`` with ``argv``; its exit status. A ``bench other``
    leaf from another module is registered too, to show ``bench`` is shared between modules."""
    p = argparse.ArgumentParser(prog="arena-table")
    s = p.add_subparsers(dest="cmd")
    cli_dice.register(s)
    cli_bench.register(s)
    bench_subparsers(s).add_parser("other").set_defaults(func=lambda a: 7)  # another module's leaf
    a = p.parse_args(argv)
    return a.func(a)
