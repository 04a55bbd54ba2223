"""Helpers shared by the ``arena-table`` sub-command modules (``cli_*.py``)."""

from __future__ import annotations

import argparse


def bench_subparsers(sub: argparse._SubParsersAction) -> argparse._SubParsersAction:
    """The ``bench`` command's sub-parsers, created on first use so several modules can add to it."""
    existing = getattr(sub, "_arena_bench", None)
    if existing is None:
        bench = sub.add_parser("bench", help="benchmarks that print figures (dice, tokens, web)")
        existing = bench.add_subparsers(dest="bench_cmd", required=True, metavar="WHAT")
        sub._arena_bench = existing  # type: ignore[attr-defined]
    return existing


def subcommand_group(sub: argparse._SubParsersAction, name: str, help: str) -> argparse._SubParsersAction:
    """Create-or-return the sub-parsers of command ``name`` (e.g. ``log``, ``tags``)."""
    key = f"_arena_group_{name}"
    existing = getattr(sub, key, None)
    if existing is None:
        parser = sub.add_parser(name, help=help)
        existing = parser.add_subparsers(dest=f"{name}_cmd", required=True, metavar="ACTION")
        setattr(sub, key, existing)
    return existing
