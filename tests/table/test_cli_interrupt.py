"""Ctrl-C at any moment of a command: exit status 130 and no traceback, the event log intact.

``run`` once it serves takes Ctrl-C as its stop (``arena-table: stopped``, exit 0), as its
docstring says. Each case starts the real ``arena-table`` script in a process group of its own
and sends SIGINT to the whole group, as a terminal's Ctrl-C does.

The moments are read from the child itself, so a slow or busy machine hits them too: with
``PYTHONPROFILEIMPORTTIME`` Python writes a line to stderr as each import completes, and the
test presses Ctrl-C a given time after a given module is imported (or after a given line on
stdout; ``importlib.import_module`` imports go unreported, so the markers are modules that those
import with plain ``import`` statements). The earliest moment is ``main()``'s first import of its
own (``cli.common``). Before it come the interpreter's start-up and the console script's import of
the CLI module, where no code of the program can catch a Ctrl-C; the last test keeps that import
as short as it can be.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest
from arena_table.cli.common import free_port

from arena_table.rules import parse
from arena_table.table.engine import Engine
from arena_table.table.log import EventLog

SCRIPT = Path(sys.executable).with_name("arena-table")
ARENA_TABLE = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "arena_table.cli"]
"""The console script users run (its wrapper imports the CLI before ``main`` starts)."""

IMPORT_LINE = "import time:"


class Interrupted:
    """``arena-table ARGS`` run to a moment, then Ctrl-C; its exit status and output."""

    def __init__(self, args: list[str], moment: str, delay: float, timeout: float = 120.0) -> None:
        env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1", "PYTHONUNBUFFERED": "1"}
        proc = subprocess.Popen(ARENA_TABLE + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=env, start_new_session=True, preexec_fn=_default_sigint)
        out: list[str] = []
        err: list[str] = []
        reached = threading.Event()

        def read(stream, lines: list[str], is_moment) -> None:
            for line in stream:
                lines.append(line)
                if is_moment(line):
                    reached.set()

        imported = lambda line: line.startswith(IMPORT_LINE) and line.rsplit("|", 1)[-1].strip() == moment
        printed = lambda line: moment.startswith("out:") and moment[4:] in line
        readers = [threading.Thread(target=read, args=(proc.stdout, out, printed), daemon=True),
                   threading.Thread(target=read, args=(proc.stderr, err, imported), daemon=True)]
        for r in readers:
            r.start()
        try:
            deadline = time.monotonic() + timeout
            while not reached.wait(0.05) and proc.poll() is None and time.monotonic() < deadline:
                pass
            assert reached.is_set(), f"never reached {moment!r}; stderr:\n{self._plain(err)}"
            time.sleep(delay)
            self.children = psutil.Process(proc.pid).children(recursive=True) if proc.poll() is None else []
            os.killpg(proc.pid, signal.SIGINT)
            self.status = proc.wait(timeout)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        for r in readers:
            r.join(10)
        self.out = "".join(out)
        self.err = self._plain(err)

    @staticmethod
    def _plain(lines: list[str]) -> str:
        return "".join(line for line in lines if not line.startswith(IMPORT_LINE))

    def assert_quiet(self, status: int = 130) -> None:
        assert "Traceback" not in self.err and "KeyboardInterrupt" not in self.err, self.err
        assert len(self.err.splitlines()) <= 1, self.err
        assert self.status == status, (self.status, self.out, self.err)
        _, alive = psutil.wait_procs(self.children, timeout=10)
        assert not [p for p in alive if _running(p)], "a child process outlived the command"


def _default_sigint() -> None:
    """In the child before it runs: Ctrl-C back to its default. A suite started from a
    non-interactive shell (``cmd &``, cron, some CI runners) inherits SIGINT ignored, and Python
    only turns SIGINT into ``KeyboardInterrupt`` when it starts with the default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _running(proc: psutil.Process) -> bool:
    try:
        return proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _recorded_log(db: Path) -> str:
    """A log with a few rolls (committed by the engine, as a running table does); its export."""
    with EventLog(db) as log:
        engine = Engine(log).start()
        for faces in ("[3,5,6]", "[1,1]", "[6]"):
            engine.submit(parse(f"roll faces={faces} source=sim"))
        engine.close()
    return _export(db)


def _export(db: Path) -> str:
    buf = io.StringIO()
    with EventLog(db, readonly=True) as log:
        log.export_jsonl(buf)
    return buf.getvalue()


RUN_MOMENTS = [
    ("arena_table.cli.common", 0.0),  # main() is importing the sub-command modules
    ("arena_table.cli.common", 0.05),
    ("arena_table.cli.common", 0.2),
    ("arena_table.rules", 0.0),  # between two sub-command modules (cli.tags is importing)
    ("arena_table.webui.app", 0.0),  # run's own imports
    ("waitress", 0.0),  # the log is open, the engine runs, the web server is being made
]


@pytest.mark.parametrize("moment, delay", RUN_MOMENTS, ids=[f"{m}+{d}s" for m, d in RUN_MOMENTS])
def test_ctrl_c_while_run_starts_exits_130_quietly_and_keeps_the_log(tmp_path, moment, delay):
    db = tmp_path / "t.db"
    before = _recorded_log(db)
    run = Interrupted(["run", "--db", str(db), "--port", str(free_port()), "--camera", "none",
                       "--tokens", "none"], moment, delay)
    # a moment late in the start-up may fall after the server is up: then it is run's normal stop
    run.assert_quiet(0 if "arena-table: stopped" in run.out else 130)
    assert _export(db) == before
    EventLog(db).close()  # the writer's lock was released


def test_ctrl_c_while_run_starts_closes_what_it_opened(tmp_path, monkeypatch):
    from arena_table.cli import main
    from arena_table.webui import server

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(server, "make_server", interrupted)
    threads = set(threading.enumerate())
    assert main(["run", "--port", str(free_port()),
                 "--db", str(tmp_path / "t.db"), "--camera", "sim", "--tokens", "sim"]) == 130
    EventLog(tmp_path / "t.db").close()  # the table closed its log: the writer's lock is free
    left = [t.name for t in set(threading.enumerate()) - threads if t.is_alive()]
    assert not left, f"threads still running: {left}"


def test_ctrl_c_once_run_serves_is_its_clean_stop(tmp_path):
    db = tmp_path / "t.db"
    before = _recorded_log(db)
    run = Interrupted(["run", "--db", str(db), "--port", str(free_port()), "--camera", "none",
                       "--tokens", "none"], "out:control page", 0.0)
    run.assert_quiet(0)
    assert run.out.splitlines()[-1] == "arena-table: stopped"
    assert _export(db) == before
    assert [json.loads(line)["event"]["faces"] for line in before.splitlines()] == [[3, 5, 6], [1, 1], [6]]


def test_ctrl_c_in_other_commands_exits_130_quietly(tmp_path):
    db = tmp_path / "t.db"
    _recorded_log(db)
    Interrupted(["log", "export", "--db", str(db)], "arena_table.cli.common", 0.05).assert_quiet()
    Interrupted(["replay", str(Path(__file__).parents[2] / "examples" / "theosis-pvp-12.txt")],
                "arena_table.hardware.registry", 0.0).assert_quiet()
    Interrupted(["bench", "dice"], "arena_table.bench.dice", 0.5).assert_quiet()


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.0, 1.0])
def test_ctrl_c_in_bench_tokens_ends_its_simulated_reader_quietly(delay):
    # the simulated firmware is a child process: it must not print its own traceback, nor outlive the bench
    Interrupted(["bench", "tokens", "--json"], "arena_table.hardware.reader", delay).assert_quiet()


@pytest.mark.slow
def test_ctrl_c_in_bench_web_ends_its_server_and_spectators_quietly():
    Interrupted(["bench", "web", "--clients", "5", "--events", "50"], "out:posting", 0.5).assert_quiet()


def test_loading_the_cli_imports_nothing_else():
    # Ctrl-C while a module loads outside main()'s guard would print a traceback: the console
    # script's own import of the CLI must stay as short as it can be
    code = ("import json, sys; before = set(sys.modules); import arena_table.cli; "
            "print(json.dumps(sorted(set(sys.modules) - before)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == ["arena_table", "arena_table.cli"]

