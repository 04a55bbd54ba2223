"""Helpers shared by the ``arena-table`` sub-command modules.

Several modules add leaves under one ``bench`` command (``bench dice``,
``bench tokens``...); :func:`bench_subparsers` creates that command the first
time and returns the same subparsers afterwards.

>>> import argparse
>>> sub = argparse.ArgumentParser().add_subparsers(dest="cmd")
>>> bench_subparsers(sub) is bench_subparsers(sub)
True
"""

from __future__ import annotations

import argparse


def _subparsers_of(parser: argparse.ArgumentParser):
    for action in parser._actions:  # argparse keeps no public handle on a parser's subparsers
        if isinstance(action, argparse._SubParsersAction):
            return action
    return None


def bench_subparsers(sub) -> argparse._SubParsersAction:
    """The subparsers of the ``bench`` command under ``sub``, created on first use.

    Args:
        sub: the top-level ``arena-table`` subparsers (``add_subparsers()`` result).

    Returns:
        The ``bench`` command's subparsers; add one leaf per benchmark.
    """
    parser = sub.choices.get("bench")
    if parser is None:
        parser = sub.add_parser("bench", help="benchmarks (accuracy, speed, memory)")
    existing = _subparsers_of(parser)
    if existing is not None:
        return existing
    return parser.add_subparsers(dest="bench_cmd", metavar="WHAT", required=True)
