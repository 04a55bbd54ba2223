"""``arena-table doctor``: is this table ready to play? One line each, pass, warn or fail.

The checks are :mod:`arena_table.table.doctor`'s. Exit status 1 when one fails, else 0 (warnings
leave a table that plays without its camera, readers or lights). On a Pi installed with
``make install-pi`` it reads ``/etc/arena-table/config.toml``, so plain ``arena-table doctor``
looks at the service's own files.
"""

from __future__ import annotations

import argparse
import platform
import sys
from pathlib import Path

from .common import DEFAULT_DB

INSTALLED_CONFIG = Path("/etc/arena-table/config.toml")
"""The configuration ``make install-pi`` writes; doctor reads it when no ``--config`` is given."""


def _version(dist: str) -> str:
    try:
        from importlib.metadata import version

        return version(dist)
    except Exception:
        return "not installed"


def _cpu_flags() -> set[str]:
    """The CPU's feature flags from /proc/cpuinfo (Linux), or an empty set."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("flags", "Features")):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def _int8_numerics(machine: str, flags: set[str]) -> str:
    """How ONNX Runtime runs the dice classifier's 8-bit model on this CPU (docs/vision.md, "Figures
    and known limits": its u8 x s8 kernels on x86 without VNNI use VPMADDUBSW, whose 16-bit sums can
    saturate).

    >>> _int8_numerics("x86_64", {"avx2", "avx512_vnni"}), _int8_numerics("aarch64", set())
    ('exact integer dot products (VNNI)', 'exact integer dot products (ARM)')
    >>> _int8_numerics("x86_64", {"avx2"})
    'no VNNI: 16-bit sums may saturate, a few dice may read differently (docs/vision.md)'
    """
    if machine.lower() in ("aarch64", "arm64") or machine.lower().startswith("arm"):
        return "exact integer dot products (ARM)"
    if flags & {"avx512_vnni", "avx_vnni"}:
        return "exact integer dot products (VNNI)"
    return "no VNNI: 16-bit sums may saturate, a few dice may read differently (docs/vision.md)"


def config_and_overrides(args: argparse.Namespace) -> tuple[Path | None, dict[str, tuple[str, str]]]:
    """The configuration file a command reads (``--config``, else the installed one if present, else
    none) and the flags that override its keys (``--db``, ``--data-dir``), as ``config.load``
    takes them: ``{key: (value, flag)}``."""
    config_file = Path(args.config) if args.config else (INSTALLED_CONFIG if INSTALLED_CONFIG.is_file() else None)
    overrides = {}
    if args.db != str(DEFAULT_DB):
        overrides["data.db"] = (args.db, "--db")
    if args.data_dir:
        overrides["data.dir"] = (args.data_dir, "--data-dir")
    return config_file, overrides


def setup_from(args: argparse.Namespace):
    """The :class:`~arena_table.table.doctor.Setup` that ``args`` and the configuration file describe
    (``run``'s precedence: flags over the file over the defaults); a file ``run --config`` would
    refuse is the configuration's failure, named by its key, and the rest is checked on the defaults."""
    from arena_table.table.config import ConfigError, load
    from arena_table.table.doctor import Setup

    config_file, overrides = config_and_overrides(args)
    problem = ""
    try:
        loaded = load(config_file, overrides)
    except ConfigError as exc:
        problem = str(exc)
        loaded = load(None, overrides)
    cfg = loaded.config
    named = {"default": "the folder of --db", "flag --data-dir": "--data-dir"}.get(
        loaded.origin["data.dir"], f"{config_file}'s data.dir")
    return Setup(db=cfg.data.db_path, data_dir=cfg.data.dir_path, data_dir_from=named, config_file=config_file,
                 config_problem=problem, camera=cfg.camera.source, tokens=cfg.tokens.device(),
                 leds=cfg.leds.device())


def cmd_doctor(args: argparse.Namespace) -> int:
    """Print every finding; 1 when one fails."""
    from arena_table.table.doctor import diagnose

    setup = setup_from(args)
    print(f"arena-table doctor: data folder {setup.data_dir.resolve()}, event log {setup.db}")
    findings = diagnose(setup)
    for f in findings:
        print(f.line())
    dists = ("arena-table", "flask", "waitress", "numpy", "opencv-python-headless", "onnxruntime", "pyserial",
             "gpiozero")
    print(f"      software      python {platform.python_version()} on {platform.machine()}; "
          + ", ".join(f"{d} {_version(d)}" for d in dists)
          + f"; 8-bit model: {_int8_numerics(platform.machine(), _cpu_flags())}")
    failed = [f.check for f in findings if f.level == "fail"]
    warned = [f.check for f in findings if f.level == "warn"]
    if failed:
        print(f"arena-table doctor: {len(failed)} failed ({', '.join(failed)}): see above", file=sys.stderr)
        return 1
    print(f"ready{' with warnings: ' + ', '.join(warned) if warned else ''}")
    return 0


def register(sub) -> None:
    p = sub.add_parser("doctor", help="check camera, readers, lights, disk, configuration, clock, log, PIN and "
                       "the dice model: one pass/warn/fail line each")
    p.add_argument("--config", help=f"the configuration file (default: {INSTALLED_CONFIG} where it exists)")
    p.add_argument("--db", default=str(DEFAULT_DB),
                   help=f"the event log (default: the config file's data.db, else {DEFAULT_DB})")
    p.add_argument("--data-dir", help="the table's media and PIN folder, as given to run (default: the folder "
                   "of --db)")
    p.set_defaults(func=cmd_doctor)
