"""``arena-table bench markers``: the keys it prints and that it times the path it says (its
figures are in docs/figures.md; no time is asserted here)."""

from __future__ import annotations

import json

import pytest

from arena_table.cli import main


def test_bench_markers_prints_the_path_against_the_bare_detector(capsys):
    assert main(["bench", "markers", "--frames", "2", "--repeats", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["frame"] == [1280, 720] and out["figures_per_frame"] == 20
    assert out["markers_found_per_frame"] == 24.0  # 20 figures and the 4 corner markers, every one found
    assert out["moves_per_frame"] == 20.0          # each figure placed: the event path ran for all
    # the ratio is of the unrounded times, the printed ms are rounded to 3 places
    assert out["overhead_ratio"] == pytest.approx(out["median_ms"] / out["detect_only_ms"], abs=0.002)
    assert out["detect_only_ms"] > 0 and out["reference_ms"] > 0
