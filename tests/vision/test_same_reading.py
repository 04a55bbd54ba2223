"""tools/dice_same_reading.py: the comparison of two CPUs' readings, die by die (the emulated runs
themselves take minutes a photo and are run by hand; docs/figures.md quotes them)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "tools" / "dice_same_reading.py"
_spec = importlib.util.spec_from_file_location("dice_same_reading", _PATH)
same = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(same)


def _dump(machine, images):
    return {"machine": machine, "images": images, "seconds": 1.0, "models": {"dice_face.onnx": "dice_face.int8.onnx"}}


def test_identical_readings_differ_nowhere_and_report_the_confidence_gap():
    a = _dump("x86_64", {"s/a.jpg": [[4, "ok", 0.97], [None, "cocked", 0.4]], "s/b.jpg": []})
    b = _dump("aarch64", {"s/a.jpg": [[4, "ok", 0.9716], [None, "cocked", 0.4]], "s/b.jpg": []})
    out = same.diff(a, b)
    assert (out["images"], out["dice"], out["dice_differing"], out["differences"]) == (2, 2, 0, [])
    assert out["max_confidence_delta"] == pytest.approx(0.0016)
    assert out["machines"] == ["x86_64", "aarch64"]


def test_a_value_a_status_or_a_missing_die_is_a_difference():
    a = _dump("x86_64", {"s/a.jpg": [[4, "ok", 0.9], [2, "ok", 0.9]], "s/b.jpg": [[5, "ok", 0.8]]})
    b = _dump("aarch64", {"s/a.jpg": [[5, "ok", 0.9], [None, "unreadable", 0.4]], "s/b.jpg": []})
    out = same.diff(a, b)
    assert out["dice_differing"] == 3 and [d["image"] for d in out["differences"]] == ["s/a.jpg", "s/b.jpg"]


def test_dumps_of_different_photos_are_refused():
    with pytest.raises(SystemExit, match="different photos"):
        same.diff(_dump("x86_64", {"s/a.jpg": []}), _dump("aarch64", {"s/b.jpg": []}))


def test_the_aarch64_run_needs_a_root_with_a_python(tmp_path):
    args = same.argparse.Namespace(every=10, sets=["matteo_d6"], float=False, aarch64_root=str(tmp_path))
    with pytest.raises(SystemExit, match="holds no usr/bin/python3"):
        same.emulated("aarch64", args, tmp_path)
    (tmp_path / "usr" / "bin").mkdir(parents=True)
    (tmp_path / "usr" / "bin" / "python3.11").write_text("")
    cmd = same.emulated("aarch64", args, tmp_path)
    assert cmd[:2] == ["unshare", "-m"] and "qemu-aarch64-static" in cmd and cmd[-4:] == ["--every", "10", "--sets", "matteo_d6"]
    assert same.emulated("nehalem", args, tmp_path)[:3] == ["qemu-x86_64-static", "-cpu", "Nehalem"]
