"""Time Demigods ``view(state, viewer)`` and ``apply`` over the story transcripts (target: a view in
well under 5 ms, so the spectator page can update within 200 ms of an event).

Replays examples/demigods-*.txt and times the view of the state after every event
(spectator and control) and the table-level apply (describe included), printing ms per call.

    python -m arena_table.bench.demigods_view
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from arena_table.rules import apply, find_game, new_table, parse, table_view

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("demigods-*.txt"))


def main() -> int:
    game = find_game("demigods")
    for path in EXAMPLES:
        events = [parse(ln) for ln in path.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
        ts, states = new_table(), []
        t0 = time.perf_counter()
        for seq, ev in enumerate(events, 1):
            ts = apply(ts, ev, seq)
            states.append(ts)
        per_event = (time.perf_counter() - t0) * 1000 / len(events)
        states = [s for s in states if s.game == "demigods"]
        for viewer in ("spectator", "control"):
            times = []
            for s in states:
                t0 = time.perf_counter()
                for _ in range(20):
                    game.view(s.state, viewer)
                times.append((time.perf_counter() - t0) / 20 * 1000)
            print(f"{path.stem} view ({viewer}, {len(states)} states): mean {statistics.mean(times):.3f} ms, "
                  f"worst {max(times):.3f} ms")
        t0 = time.perf_counter()
        for s in states:
            table_view(s)
        print(f"{path.stem} table_view: {(time.perf_counter() - t0) * 1000 / len(states):.3f} ms; "
              f"apply: {per_event:.3f} ms an event ({len(events)} events)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
