"""Roll assembly (arena_table/vision/roll.py) on arrays: which dice of a settle make the roll, held
and refused dice, re-roll of a refused die."""

from __future__ import annotations

import numpy as np

from arena_table.vision.dice import DiceReading, DieReading
from arena_table.vision.roll import RollMemory, decide
from arena_table.vision.settle import Settle

W, H = 200, 100


def die(value, status, x, y=40):
    """A 20 px die whose box starts at (x, y)."""
    return DieReading(value if status == "ok" else None, status, "" if status == "ok" else "test", 0.9,
                      (x + 10.0, y + 10.0), (x, y, 20, 20))


def reading(*dice):
    return DiceReading(tuple(dice), W, H)


def settle(*moved_boxes, first=False):
    """A ``moved`` settle (frame scale 1) in which only ``moved_boxes`` (x, y, w, h) changed."""
    if first:
        return Settle(None, 0.0, 0.0, None, 1.0, "moved", 0.15, 0.0)
    changed = np.zeros((H, W), bool)
    for x, y, w, h in moved_boxes:
        changed[y:y + h, x:x + w] = True
    return Settle(None, 0.0, 0.0, changed, 1.0, "moved", 0.15, 0.0)


def test_a_first_settle_counts_every_die_and_remembers_them():
    d = decide(settle(first=True), reading(die(2, "ok", 10), die(5, "ok", 60)), RollMemory())
    assert d.faces == (2, 5) and d.records and not d.held_back and not d.had_dice
    assert d.memory.before == (((20.0, 50.0), 2), ((70.0, 50.0), 5)) and d.memory.held == ()


def test_only_the_moved_die_counts():
    memory = RollMemory(before=(((20.0, 50.0), 2), ((70.0, 50.0), 5)))
    d = decide(settle((60, 40, 20, 20)), reading(die(2, "ok", 10), die(6, "ok", 60)), memory)
    assert d.faces == (6,) and d.records and d.had_dice
    assert d.memory.before == (((20.0, 50.0), 2), ((70.0, 50.0), 6))


def test_a_refused_die_holds_the_roll_then_the_reroll_completes_it():
    d1 = decide(settle(first=True), reading(die(3, "ok", 10), die(None, "cocked", 60)), RollMemory())
    assert d1.faces == (3,) and d1.held_back and not d1.records
    assert [r.status for r in d1.refused] == ["cocked"]
    assert d1.memory.held == (((20.0, 50.0), 3),) and d1.memory.held_refused == ((60, 40, 20, 20),)
    # the cocked die is taken up and thrown again; the 3 lay still, yet belongs to the roll
    d2 = decide(settle((60, 40, 20, 20)), reading(die(3, "ok", 10), die(4, "ok", 60)), d1.memory)
    assert d2.faces == (3, 4) and d2.records and d2.memory.held == ()


def test_a_held_roll_left_lying_does_not_carry_into_a_new_throw():
    d1 = decide(settle(first=True), reading(die(3, "ok", 10), die(None, "unreadable", 60)), RollMemory())
    # the refused die stays where it was; a new die is thrown at x=140
    d2 = decide(settle((140, 40, 20, 20)), reading(die(3, "ok", 10), die(None, "unreadable", 60), die(1, "ok", 140)),
                d1.memory)
    assert d2.faces == (1,) and d2.records and d2.memory.held == ()


def test_partial_rolls_record_the_dice_read():
    d = decide(settle(first=True), reading(die(3, "ok", 10), die(None, "partial", 60)), RollMemory(), partial_rolls=True)
    assert d.faces == (3,) and d.records and not d.held_back and d.memory.held == ()


def test_nothing_counted_keeps_the_held_roll_and_says_whether_dice_lay_there():
    d1 = decide(settle(first=True), reading(die(3, "ok", 10), die(None, "cocked", 60)), RollMemory())
    d2 = decide(settle((150, 0, 10, 10)), reading(die(3, "ok", 10), die(None, "cocked", 60)), d1.memory)
    assert d2.dice == () and not d2.records and d2.had_dice
    assert d2.memory.held == d1.memory.held and d2.memory.held_refused == d1.memory.held_refused
    empty = decide(settle((150, 0, 10, 10)), reading(), RollMemory())
    assert empty.dice == () and not empty.had_dice and empty.memory.before == ()


def test_a_forgotten_tray_counts_a_moved_die_only_on_a_large_change():
    memory = RollMemory(before=(((20.0, 50.0), 2),)).forget()
    assert memory.before is None
    d = decide(settle((10, 40, 20, 20)), reading(die(2, "ok", 10)), memory)
    assert d.faces == (2,)  # moved, and the 20x20 change is not a small one (small_change False)
