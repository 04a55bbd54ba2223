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

from arena_table.table.log import DEFAULT_DB  # the sub-commands' default --db


class CommandParser(argparse.ArgumentParser):
    """The parser of a sub-command: an argument it does not know is its own usage error.

    Plain argparse hands a sub-command's unknown arguments back up to the top-level parser,
    which then shows the top-level usage for ``arena-table run --camrea sim``. This parser
    refuses them itself, printing its own usage line and the error and exiting 2, as argparse
    does for every other mistake (a missing argument, a bad value). Give it as
    ``add_subparsers(parser_class=CommandParser)``; the sub-commands' own sub-commands
    (``dice eval``, ``tags enroll``) inherit it.

    >>> import contextlib, io
    >>> top = argparse.ArgumentParser(prog="arena-table")
    >>> run = top.add_subparsers(dest="cmd", parser_class=CommandParser).add_parser("run")
    >>> _ = run.add_argument("--camera")
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err), contextlib.suppress(SystemExit):
    ...     top.parse_args(["run", "--camrea", "sim"])
    >>> print(err.getvalue(), end="")
    usage: arena-table run [-h] [--camera CAMERA]
    arena-table run: error: unrecognized arguments: --camrea sim
    """

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return namespace, extras


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
    return subcommand_group(sub, "bench", "benchmarks that print figures (accuracy, speed, memory)")


def subcommand_group(sub, name: str, help: str) -> argparse._SubParsersAction:
    """The subparsers of command ``name`` (``log``, ``tags``...) under ``sub``, created on first use.

    >>> import argparse
    >>> sub = argparse.ArgumentParser().add_subparsers(dest="cmd")
    >>> subcommand_group(sub, "log", "the log") is subcommand_group(sub, "log", "the log")
    True
    """
    parser = sub.choices.get(name)
    if parser is None:
        parser = sub.add_parser(name, help=help)
    existing = _subparsers_of(parser)
    if existing is not None:
        return existing
    return parser.add_subparsers(dest=f"{name}_cmd", metavar="WHAT" if name == "bench" else "ACTION", required=True)


def at_least(low: float, kind: type = int):
    """An argparse ``type`` accepting a ``kind`` number >= ``low`` (a benchmark of 0 frames or -5 s
    measures nothing: refused with the usage line, not a traceback or a NaN figure)."""
    def check(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a {'whole ' if kind is int else ''}number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{text} is below {low:g}")
        return value
    return check


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on now (for a benchmark's or a test's own server,
    so one already on the default port 8000, such as ``make run``, does not get in its way)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
