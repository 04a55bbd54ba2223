"""``arena-table bench tokens`` output: each target with its measured value and PASS/FAIL; ``--json`` keeps
``targets`` and ``targets_met``. The soak itself is replaced by fixed figures (it is a benchmark, not a test)."""

from __future__ import annotations

import json

import pytest

import arena_table.bench.tokens as cli_tokens
from arena_table.cli import main

FIGURES = {"pads": 4, "events": 4800, "lost": 0, "duplicated": 0, "cpu_percent": 4.25,
           "latency_p50_ms": 1.2, "latency_p99_ms": 31.5}


@pytest.fixture
def fixed_soak(monkeypatch):
    monkeypatch.setattr(cli_tokens, "soak", lambda *a: dict(FIGURES))
    monkeypatch.setattr(cli_tokens, "place_to_applied", lambda n: {"place_to_applied_p99_ms": 12.0})


def test_plain_output_names_each_target_and_the_failure(capsys, fixed_soak):
    assert main(["bench", "tokens"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[out.index("targets:") + 1:] == [
        "                        lost: 0          target == 0   PASS",
        "                  duplicated: 0          target == 0   PASS",
        "                 cpu_percent: 4.25       target < 10   PASS",
        "              latency_p99_ms: 31.5       target < 20   FAIL",
        "targets met: no (failed: latency_p99_ms = 31.5, target < 20)",
    ]
    assert "     place_to_applied_p99_ms: 12.0" in out


def test_json_keeps_targets_and_targets_met(capsys, fixed_soak, monkeypatch):
    monkeypatch.setitem(FIGURES, "latency_p99_ms", 9.0)
    assert main(["bench", "tokens", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["targets_met"] is True
    assert got["targets"] == {"lost": {"target": "== 0", "value": 0, "pass": True},
                              "duplicated": {"target": "== 0", "value": 0, "pass": True},
                              "cpu_percent": {"target": "< 10", "value": 4.25, "pass": True},
                              "latency_p99_ms": {"target": "< 20", "value": 9.0, "pass": True}}


def test_a_missing_or_nan_figure_fails_its_target():
    t = cli_tokens.check_targets({"lost": 0, "duplicated": 0, "cpu_percent": float("nan")})
    assert (t["cpu_percent"]["pass"], t["latency_p99_ms"]["pass"], t["lost"]["pass"]) == (False, False, True)
