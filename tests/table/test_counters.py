"""Divine dice in the hero-card slots become dg-divine-read events the Demigods engine takes.

Readings are injected at the vision boundary (the kind reader's output shape); the slots are
hand-placed pixel boxes, the expected values hand-computed from which box centre lies where.
"""

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from arena_table.table.counters import CounterTracker, read_counters, slots_from_config

sys.path.insert(0, str(Path(__file__).parents[1] / "rules" / "demigods"))
from dg_helpers import at  # noqa: E402

SLOTS = slots_from_config({"knight": [0, 0, 100, 100], "trapper": [200, 0, 100, 100]})


def die(kind, face, x, y, status="ok"):
    return SimpleNamespace(kind=kind, face=face, box=(x, y, 40, 40), status=status, confidence=0.99)


def test_die_centre_decides_the_slot_and_an_empty_slot_reads_zero():
    # centre (90, 50) lies in the knight's slot although the box runs past it; the attack die is no counter
    reads = [die("demigods-divine-rage", "4", 70, 30), die("demigods-fire", "burn", 220, 20)]
    assert read_counters(reads, SLOTS) == {"knight": 4, "trapper": 0}


def test_an_abstained_or_doubled_slot_keeps_the_last_value():
    reads = [die("demigods-divine-focus", "2", 210, 10), die("demigods-divine-focus", "5", 250, 50),
             die("", "", 10, 10, status="abstain")]
    assert read_counters(reads, SLOTS) == {"knight": None, "trapper": None}


def test_only_changes_become_events_and_the_engine_takes_them():
    tracker = CounterTracker(SLOTS)
    first = tracker.update([die("demigods-divine-rage", "4", 10, 10), die("demigods-divine-focus", "3", 210, 10)])
    assert [str(e) for e in first] == ["dg-divine-read who=knight value=4", "dg-divine-read who=trapper value=3"]
    assert tracker.update([die("demigods-divine-rage", "4", 12, 14), die("demigods-divine-focus", "3", 210, 10)]) == []
    second = tracker.update([die("demigods-divine-rage", "4", 12, 14)])  # trapper's die taken away: 0
    assert [str(e) for e in second] == ["dg-divine-read who=trapper value=0"]
    t = at("knight").do(*(str(e) for e in first + second))
    assert t.ts.log[-1].text == "Camera reads Trapper's divine die: 0 (engine: 3, mismatch)"


def test_a_bad_slot_is_named():
    with pytest.raises(ValueError, match="counter slot of 'knight'"):
        slots_from_config({"knight": [0, 0, 0, 10]})
