"""Time Theosis ``view(state, viewer)`` for a 12-hero game (target: under 5 ms a call).

Replays examples/theosis-pvp-12.txt and times the view of the state after every Arena event
(spectator and control), printing the mean and the worst per call.

    python -m arena_table.bench.theosis_view
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from arena_table.rules import apply, find_game, new_table, parse

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "theosis-pvp-12.txt"


def main() -> int:
    game = find_game("theosis")
    events = [parse(ln) for ln in EXAMPLE.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    ts = new_table()
    states = []
    for seq, ev in enumerate(events, 1):
        ts = apply(ts, ev, seq)
        if ts.state.turn:
            states.append(ts.state)
    for viewer in ("spectator", "control"):
        times = []
        for s in states:
            t0 = time.perf_counter()
            for _ in range(20):
                game.view(s, viewer)
            times.append((time.perf_counter() - t0) / 20 * 1000)
        print(f"theosis view ({viewer}, {len(states)} Arena states, 12 heroes): "
              f"mean {statistics.mean(times):.3f} ms, worst {max(times):.3f} ms (target < 5 ms)")
    t0 = time.perf_counter()
    ts = new_table()
    for seq, ev in enumerate(events, 1):
        ts = apply(ts, ev, seq)
    print(f"replay of {len(events)} events: {(time.perf_counter() - t0) * 1000:.1f} ms "
          f"({(time.perf_counter() - t0) * 1000 / len(events):.2f} ms an event, describe included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
