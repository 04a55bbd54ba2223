"""bench dice --kinds (arena_table/bench/kinds.py) on a few rendered frames."""

import json

import arena_table.rules  # noqa: F401 - loads the games' kinds
from arena_table.bench.kinds import run_bench, score_scene
from arena_table.cli import main


def test_a_scene_is_scored_per_kind_and_distractors_apart():
    s = score_scene("sword-and-sorcery", 2)
    assert s["dice"] == 20 and set(s["kinds"]) <= {"sns-red", "sns-blue"}
    assert sum(v["dice"] for v in s["kinds"].values()) == 16
    assert sum(v["dice"] for v in s["distractors"].values()) == 4
    assert s["per_die_accuracy"] == 1.0  # measured 20/20 on these two frames


def test_bench_prints_accuracy_by_reader_and_speed_as_a_ratio_to_the_yardstick(capsys):
    out = run_bench(frames=1, timing_frames=2)
    assert out["dice"] == 48  # four game scenes of 10 dice, the tray's 8
    assert set(out["by_reader"]) == {"kinds", "d4", "poly"}
    assert sum(r["dice"] for r in out["by_reader"].values()) == 48
    assert out["not_rendered"] == []
    assert out["median_ratio"] == out["median_ms"] / out["reference_ms"] > 0
    assert main(["bench", "dice", "--kinds", "--kind-frames", "1", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["frames_per_scene"] == 1 and "median_ratio" in printed
