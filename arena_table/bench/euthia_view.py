"""Time Euthia's ``apply`` (describe included) and ``view`` over the example transcripts: the work
between a camera's dice event and the spectator page's new view (the issue's target: the die to
re-roll shown within 200 ms of the dice events; the engine's share should be a few ms).

Replays examples/euthia-*.txt and prints ms per event and per view, each beside the machine's
yardstick (:func:`arena_table.bench.dice.reference_ms`) measured in the same run.

    python -m arena_table.bench.euthia_view
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from arena_table.bench.dice import reference_ms
from arena_table.rules import apply, new_table, parse, table_view

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("euthia-*.txt"))
REPEAT = 20


def main() -> int:
    for path in EXAMPLES:
        events = [parse(ln) for ln in path.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
        applies, views, yard = [], [], []
        for _ in range(REPEAT):
            yard.append(reference_ms())
            ts = new_table()
            for seq, ev in enumerate(events, 1):
                t0 = time.perf_counter()
                ts = apply(ts, ev, seq)
                t1 = time.perf_counter()
                table_view(ts)
                t2 = time.perf_counter()
                applies.append((t1 - t0) * 1000)
                views.append((t2 - t1) * 1000)
        ref = statistics.median(yard)
        a, v = statistics.median(applies), statistics.median(views)
        print(f"{path.stem}: {len(events)} events; apply median {a:.3f} ms (p95 {statistics.quantiles(applies, n=20)[-1]:.3f}), "
              f"table_view median {v:.3f} ms (p95 {statistics.quantiles(views, n=20)[-1]:.3f}); "
              f"reference_ms {ref:.2f}; median_ratio apply {a / ref:.3f}, view {v / ref:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
