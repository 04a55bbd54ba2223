"""``arena-table bench dice|tokens|web``: the benchmarks the installed command runs.

The benchmarks themselves live in :mod:`arena_table.bench` (with the scripts run as
``python -m arena_table.bench.NAME``); this module holds their flags and prints their figures.
"""

from __future__ import annotations

import argparse
import json
import sys

from .common import at_least, bench_subparsers
from .dice import _models_flag


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``bench dice``, ``bench tokens`` and ``bench web`` to the top-level subparsers."""
    bench = bench_subparsers(sub)
    p = bench.add_parser("dice", help="dice reader accuracy, speed and memory")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--stress-frames", type=at_least(1), default=20, help="rendered frames per stress set")
    p.add_argument("--timing-frames", type=at_least(1), default=40, help="1280x720 frames timed")
    p.add_argument("--kinds", action="store_true",
                   help="instead: the die-kind reader on rendered scenes of every game's dice (bench/kinds.py)")
    p.add_argument("--kind-frames", type=at_least(1), default=30, help="with --kinds: rendered frames per scene")
    _models_flag(p)
    p.set_defaults(func=_cmd_dice)
    p = bench.add_parser("tokens", help="soak the token reader: firmware sim -> pty -> driver -> engine")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--seconds", type=at_least(1.0, float), default=60.0, help="length of the soak (default 60)")
    p.add_argument("--pads", type=at_least(1), default=4, help="reader pads driven at once (default 4)")
    p.add_argument("--rate", type=at_least(0.1, float), default=20.0,
                   help="tag changes per second on each pad (default 20)")
    p.add_argument("--db", default=":memory:", help="event log file (default: in memory)")
    p.add_argument("--place-samples", type=int, default=50,
                   help="place() -> applied samples on a --tokens sim table (0: skip)")
    p.set_defaults(func=_cmd_tokens)
    p = bench.add_parser("web", help="SSE spectators on loopback: event latency, /api/state latency, reaping, "
                                     "memory")
    p.add_argument("--clients", type=at_least(1), default=200, help="SSE streams to hold (default 200)")
    p.add_argument("--events", type=at_least(1), default=100, help="events to post (default 100)")
    p.add_argument("--kill", type=at_least(0), default=5, help="extra streams killed abruptly (default 5)")
    p.add_argument("--interval", type=at_least(0.0, float), default=0.05,
                   help="seconds between posted events (default 0.05)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_web)
    p = bench.add_parser("hub", help="spectators on the convention hub (via the broker) against a table's own SSE")
    p.add_argument("--clients", type=at_least(1), default=1000, help="streams on the hub (default 1000)")
    p.add_argument("--table-clients", type=at_least(1), default=200,
                   help="streams on the table's own SSE, for comparison (default 200)")
    p.add_argument("--events", type=at_least(1), default=100, help="events to post (default 100)")
    p.add_argument("--interval", type=at_least(0.0, float), default=0.05,
                   help="seconds between posted events (default 0.05)")
    p.add_argument("--phase-timeout", type=at_least(1.0, float), default=120.0,
                   help="seconds each step of a phase may take before the bench stops with an error (default 120)")
    p.add_argument("--no-ws", action="store_true",
                   help="leave out the spectators on the broker's websockets listener (\"ws\", bench/hub_ws.py)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_hub)


def _cmd_dice(args: argparse.Namespace) -> int:
    """Run the dice benchmark."""
    from arena_table.bench.dice import run_bench
    from arena_table.vision.errors import VisionError
    from arena_table.vision.evaluate import format_calibration, format_metrics

    from .dice import _quiet_opencv, _use_models

    _quiet_opencv()
    if args.kinds:
        return _cmd_dice_kinds(args)
    if not _use_models(args):
        return 2
    try:
        out = run_bench(stress_frames=args.stress_frames, timing_frames=args.timing_frames)
    except VisionError as exc:  # e.g. the shipped models are missing
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    for name, m in out["sets"].items():
        print(format_metrics(name, m))
    for reason in out["skipped"]:
        print(f"skipped {reason}")
    print(f"speed: median {out['median_ms']:.1f} ms, p95 {out['p95_ms']:.1f} ms wall "
          f"(CPU median {out['cpu_median_ms']:.1f}, p95 {out['cpu_p95_ms']:.1f}) per "
          f"{out['frame'][0]}x{out['frame'][1]} frame with {out['dice_per_frame']} dice, one core; "
          f"peak RSS {out['rss_mb']:.0f} MB")
    cal = out["calibrated"]
    print(f"calibrated (die side {cal['die_side_px']:.0f} px): median {cal['median_ms']:.1f} ms, "
          f"p95 {cal['p95_ms']:.1f} ms wall")
    print(f"speed ratio: median_ratio {out['median_ratio']:.2f} (the reader's median over the yardstick, "
          f"GaussianBlur + Canny on a 1280x720 frame, {out['reference_ms']:.2f} ms in this run); "
          f"calibrated {cal['median_ratio']:.2f}")
    small = out["small_dice"]
    print(f"small dice ({small['die_side_px'][0]:.0f}-{small['die_side_px'][1]:.0f} px, no calibration): median "
          f"{small['median_ms']:.1f} ms, median_ratio {small['median_ratio']:.2f}")
    if out["calibration"]:
        print(f"shared sets (trained on: not held out): {format_calibration(out['calibration'])}")
    return 0


def _cmd_dice_kinds(args: argparse.Namespace) -> int:
    """Run the die-kind benchmark (``bench dice --kinds``)."""
    from arena_table.bench.kinds import run_bench
    from arena_table.vision.errors import VisionError

    try:
        out = run_bench(frames=args.kind_frames)
    except VisionError as exc:  # the kind face model is missing
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    for name, s in out["scenes"].items():
        print(f"{name}: {s['dice']} dice, per-die {s['per_die_accuracy']}, kind {s['kind_accuracy']} "
              f"(missed {s['missed']}, abstained {s['abstained']}, false {s['false_dice']})")
        for a, b, shared in s["together"]:
            print(f"  {a} and {b} share a look: judged together on {', '.join(shared)}")
        if s["left_out"]:
            print(f"  distractors left out (twins of kinds read in this game): "
                  f"{', '.join(f'{a} ~ {b}' for a, b in s['left_out'])}")
    print(f"all: {out['dice']} dice, per-die accuracy {out['per_die_accuracy']}, kind accuracy "
          f"{out['kind_accuracy']} ({out['data']})")
    for reader, r in out["by_reader"].items():
        by = f"read by vision/{reader}.py" + (" (d8-d20)" if reader == "poly" else "")
        print(f"  {by}: {r['dice']} dice, per-die {r['per_die_accuracy']}, kind {r['kind_accuracy']}")
    print(f"not rendered (no figures): {', '.join(out['not_rendered']) or '-'}")
    print(f"speed: median {out['median_ms']:.1f} ms per 640x480 frame of 10 dice, one core; median_ratio "
          f"{out['median_ratio']:.2f} (over the bench dice yardstick, {out['reference_ms']:.2f} ms in this run)")
    return 0


def _cmd_tokens(args: argparse.Namespace) -> int:
    from arena_table.bench import tokens

    figures = tokens.soak(args.pads, args.rate, args.seconds, args.db)
    if args.place_samples:
        figures.update(tokens.place_to_applied(args.place_samples))
    figures["targets"] = tokens.check_targets(figures)
    figures["targets_met"] = all(t["pass"] for t in figures["targets"].values())
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        for key, value in figures.items():
            if key not in ("targets", "targets_met"):
                print(f"{key:>28}: {value}")
        print("\n".join(tokens.format_targets(figures["targets"])))
    return 0 if figures["targets_met"] else 1


def _cmd_hub(args: argparse.Namespace) -> int:
    from arena_table.bench import hub, hub_ws

    log = (lambda m: None) if args.json else (lambda m: print(f"bench hub: {m}", flush=True))
    try:
        result = hub.run_bench(args.clients, args.table_clients, args.events, args.interval, log=log,
                               phase_timeout=args.phase_timeout)
        if not args.no_ws:
            hub_ws.add_ws_path(result, args.clients, args.events, args.interval, log=log,
                              phase_timeout=args.phase_timeout)
    except RuntimeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(result, indent=2))
    return 0


def _cmd_web(args: argparse.Namespace) -> int:
    from arena_table.bench import web

    quiet = args.json
    result = web.run_bench(args.clients, args.events, args.kill, args.interval,
                           log=(lambda m: None) if quiet else (lambda m: print(f"bench web: {m}", flush=True)))
    ok = (result["event_latency_p99_ms"] is not None and result["event_latency_p99_ms"] <= web.TARGET_EVENT_P99_MS
          and result["state_latency_p99_ms"] is not None and result["state_latency_p99_ms"] <= web.TARGET_STATE_P99_MS
          and result["reaped"] >= args.kill and result["reap_s"] <= web.REAP_LIMIT_S
          and result["clients"] == args.clients and result["missed"] == 0)
    result["within_targets"] = ok
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for k, v in result.items():
            print(f"{k:24} {v}")
    return 0
