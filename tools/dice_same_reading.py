"""Do the shared dice sets read the same on another CPU? (issue 26, item 4)

The table runs on a Raspberry Pi's ARM cores, and the 8-bit classifier's integer dot products are
exact with VNNI (x86) or on ARM but may saturate on x86 without VNNI. This tool reads the shared
labelled photos (``../shared/data/dice/*``) with the reader that ``dice eval`` runs
(``read_dice_any_size``) and writes every die's value, status and confidence, here and under user-mode
emulation of another CPU, then compares the two:

    python tools/dice_same_reading.py compare --cpu nehalem --every 10
    python tools/dice_same_reading.py compare --cpu aarch64 --every 10 --aarch64-root /opt/arm64

``--cpu nehalem`` runs this machine's own Python under ``qemu-x86_64-static -cpu Nehalem`` (SSE4.2:
no AVX, no VNNI; Debian's ``qemu-user-static``). ``--cpu aarch64`` runs an aarch64 Python as a Raspberry Pi 4's Cortex-A72 (root: a mount namespace
shows it a Pi's ``/proc/cpuinfo``)
(``--aarch64-root``: a root holding Debian's arm64 ``python3`` and, in ``site-packages`` below it,
the aarch64 wheels of numpy, opencv-python-headless and onnxruntime; ``tools/aarch64_root.sh``
makes one) under ``qemu-aarch64-static``. Emulation is 30-60 times slower than this CPU, so
``--every N`` reads every N-th photo of each set. ``--float`` runs the float classifier
(``nets.USE_INT8 = False``) on both sides.

``dump`` writes one side's readings (JSON); ``diff A B`` compares two dumps. ``compare`` prints
the images and dice compared, those whose value or status differ (the acceptance line: none) and the
largest confidence difference, and exits 1 when any die differs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SETS = ("byler_d6", "matteo_d6", "rune55_d6")


def dump(sets: list[str], every: int, use_float: bool) -> dict:
    """Every die of every ``every``-th photo of ``sets``: ``{"images": {set/image: [[value, status,
    confidence], ...]}, "machine", "models", "seconds"}``."""
    sys.path.insert(0, str(REPO))
    from arena_table.vision import nets
    from arena_table.vision.dice import DiceConfig
    from arena_table.vision.dice_io import load_image
    from arena_table.vision.labels import dice_set_dir, load_set
    from arena_table.vision.size_search import read_dice_any_size

    if use_float:
        nets.USE_INT8 = False
    t0 = time.perf_counter()
    images = {}
    for name in sets:
        d = dice_set_dir(name)
        if not (d / "labels.csv").is_file():
            raise SystemExit(f"error: {d}: no labels.csv (clone the repo beside ../shared)")
        for item in load_set(d)[::every]:
            reading = read_dice_any_size(DiceConfig(), load_image(item.path))
            images[f"{name}/{item.path.name}"] = [[d.value, d.status, round(float(d.confidence), 6)] for d in reading.dice]
    return {"machine": platform.machine(), "images": images, "seconds": time.perf_counter() - t0,
            "models": {n: nets.loaded_path(n).name for n in nets.MODEL_NAMES}}


def diff(a: dict, b: dict) -> dict:
    """Compare two dumps: counts of images and dice, the dice whose value or status differ (a die
    missing on one side counts), and the largest confidence difference of dice that pair up."""
    if set(a["images"]) != set(b["images"]):
        raise SystemExit("error: the two dumps read different photos")
    dice = differ = 0
    worst = 0.0
    where = []
    for key in sorted(a["images"]):
        da, db = a["images"][key], b["images"][key]
        dice += max(len(da), len(db))
        bad = abs(len(da) - len(db)) + sum(x[:2] != y[:2] for x, y in zip(da, db))
        worst = max([worst] + [abs(x[2] - y[2]) for x, y in zip(da, db)])
        if bad:
            differ += bad
            where.append({"image": key, "here": da, "there": db})
    return {"images": len(a["images"]), "dice": dice, "dice_differing": differ, "max_confidence_delta": worst,
            "differences": where, "machines": [a["machine"], b["machine"]], "models": [a["models"], b["models"]],
            "seconds": [round(a["seconds"], 1), round(b["seconds"], 1)]}


def emulated(cpu: str, args: argparse.Namespace, tmp: Path) -> list[str]:
    """The command that runs this script's ``dump`` under emulation of ``cpu`` (files it needs go in ``tmp``)."""
    me = [str(Path(__file__).resolve()), "dump", "--every", str(args.every), "--sets", *args.sets]
    if args.float:
        me.append("--float")
    if cpu == "nehalem":
        return ["qemu-x86_64-static", "-cpu", "Nehalem", sys.executable, *me]
    root = Path(args.aarch64_root or "")
    pythons = sorted(root.glob("usr/bin/python3.[0-9]*"))
    if not args.aarch64_root or not pythons:
        raise SystemExit(f"error: --aarch64-root {args.aarch64_root!r} holds no usr/bin/python3.X "
                         "(make one with tools/aarch64_root.sh)")
    # ONNX Runtime's cpuinfo parses /proc/cpuinfo, which qemu-user leaves as this x86 host's (it
    # crashes on it): a private mount namespace shows it a Raspberry Pi 4's (Cortex-A72) instead
    fake = Path(tmp) / "cpuinfo"
    fake.write_text(PI4_CPUINFO)
    return ["unshare", "-m", "sh", "-c", 'mount --bind "$0" /proc/cpuinfo && exec "$@"', str(fake),
            "qemu-aarch64-static", "-cpu", "cortex-a72", "-L", str(root), str(pythons[0]), *me]


PI4_CPUINFO = "".join(f"processor\t: {i}\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm crc32 cpuid\n"
                      "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd08\n"
                      "CPU revision\t: 3\n\n" for i in range(4)) + "Hardware\t: BCM2835\nModel\t\t: Raspberry Pi 4 Model B\n"
"""/proc/cpuinfo of a Raspberry Pi 4 (four Cortex-A72 cores), shown to the emulated aarch64 Python."""


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("dump", "compare"):
        s = sub.add_parser(name)
        s.add_argument("--every", type=int, default=1, help="read every N-th photo of each set (default 1)")
        s.add_argument("--sets", nargs="+", default=list(SETS))
        s.add_argument("--float", action="store_true", help="run the float classifier, not the 8-bit one")
        s.add_argument("--out", help="also write the result (JSON) here")
    sub.choices["compare"].add_argument("--cpu", choices=("nehalem", "aarch64"), required=True)
    sub.choices["compare"].add_argument("--aarch64-root", help="root of an aarch64 Python (see the docstring)")
    d = sub.add_parser("diff")
    d.add_argument("a")
    d.add_argument("b")
    args = p.parse_args(argv)
    if args.cmd == "dump":
        out = dump(args.sets, max(1, args.every), args.float)
    elif args.cmd == "diff":
        out = diff(*(json.loads(Path(f).read_text()) for f in (args.a, args.b)))
    else:
        here = dump(args.sets, max(1, args.every), args.float)
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, PYTHONPATH=str(REPO))
            if args.cpu == "aarch64":
                env["PYTHONPATH"] += os.pathsep + ":".join(str(s) for s in Path(args.aarch64_root).glob("site-packages"))
            run = subprocess.run([*emulated(args.cpu, args, Path(tmp)), "--out", f"{tmp}/there.json"], env=env,
                                 stdout=subprocess.DEVNULL)
            if run.returncode:
                print(f"error: the emulated run failed (exit {run.returncode})", file=sys.stderr)
                return 1
            out = diff(here, json.loads(Path(f"{tmp}/there.json").read_text()))
        out["cpu"] = args.cpu
    text = json.dumps(out, indent=1)
    if getattr(args, "out", None):
        Path(args.out).write_text(text)
    print(text)
    return 1 if out.get("dice_differing") else 0


if __name__ == "__main__":
    sys.exit(main())
