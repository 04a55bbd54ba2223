"""``arena_table/bench/dice_stages.py``: the stage breakdown adds up and leaves the reader as it found it."""

import importlib.util
import os
import re
from pathlib import Path

import cv2
import pytest

from arena_table.vision import dice, nets
from arena_table.vision.size_search import read_dice_any_size
from arena_table.vision.dice import DiceConfig

SCRIPT = Path(__file__).resolve().parents[2] / "arena_table" / "bench" / "dice_stages.py"


def _load():
    spec = importlib.util.spec_from_file_location("dice_stages", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_stages_add_up_to_the_whole_and_the_wrappers_are_undone(capsys):
    stages = _load()
    before = (nets._forward, dice.find_candidates, dice._crops, dice.inspect_faces)
    threads, cpus = cv2.getNumThreads(), os.sched_getaffinity(0)
    assert stages.main(["--frames", "2", "--rounds", "1"]) == 0
    assert (nets._forward, dice.find_candidates, dice._crops, dice.inspect_faces) == before
    assert (cv2.getNumThreads(), os.sched_getaffinity(0)) == (threads, cpus)  # given back after timing
    out = capsys.readouterr().out
    figures = dict(re.findall(r"^\s*(.+?)\s{2,}(-?\d+\.\d+) ms/frame", out, re.M))
    whole = float(figures.pop("reader, whole"))
    assert {"detector 416x240 (ONNX Runtime)", "detector 168x96 (ONNX Runtime)", "classifier (ONNX Runtime)",
            "pip check", "classifier crops", "detector stage, around the runs"} <= set(figures)
    parts = [float(v) for v in figures.values()]
    # "the rest" is what the stages leave; each figure is printed rounded to 0.01 ms
    assert abs(sum(parts) - whole) <= 0.005 * (len(parts) + 1) + 1e-9 and min(parts) > 0.0
    # the crops a frame are the classifier's batch rows: 10 dice, some candidates more
    crops = float(re.search(r"(\d+\.\d) crops/frame", out).group(1))
    assert 10.0 <= crops <= 40.0
    # one 416x240 detector run a frame (the yardstick timed after each frame is not a detector run)
    assert re.search(r"detector 416x240 \(ONNX Runtime\)\s+[\d.]+ ms/frame\s+1\.0 calls/frame", out)


def test_a_wrapper_that_cannot_be_put_leaves_nothing_wrapped(monkeypatch):
    stages = _load()
    forward = nets._forward
    monkeypatch.delattr(dice, "_crops")  # as if renamed since
    with pytest.raises(AttributeError):
        stages.Stages()
    assert nets._forward is forward and dice.find_candidates.__module__ == "arena_table.vision.candidates"


def test_the_timed_frames_are_bench_dice_s_and_read_the_same():
    stages = _load()
    frames = stages.frames(2)
    assert frames[0].shape == (720, 1280, 3)
    first = read_dice_any_size(DiceConfig(), frames[0])
    timed = stages.Stages()
    try:
        again = read_dice_any_size(DiceConfig(), frames[0])
    finally:
        timed.close()
    assert again == first and len(first.values) >= 8
    assert timed.calls["pip check"] >= 1 and timed.crops >= len(first.dice)
