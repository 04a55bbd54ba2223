"""Scripted throws of the simulated table through a real Table and CameraLoop: which dice each
settle counts (the reader answers from the sim's ground truth, so this tests the loop and the
settle detector, not the dice reader)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from camera_kit import EndingSim, truth_reader_for

from arena_table.rules import DiceRolled
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, DiceSettings, TableConfig
from arena_table.table.camera_loop import CameraLoop
from arena_table.vision.dice import DiceReading
from arena_table.vision.settle import SettleConfig
from arena_table.vision.sim import SimTable


def test_simulated_throws_become_rolls_of_the_thrown_dice(tmp_path):
    sim = SimTable(seed=1, size=(320, 240), p_hand=0.4, p_keep=0.4)
    src = EndingSim(sim, 30.0)
    read_at: list[float] = []
    truth_reader = truth_reader_for(sim, src, read_at)

    with Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"))) as table:
        loop = CameraLoop(table.ports("camera"), "sim", settle=SettleConfig(mode="moved"), reader=truth_reader,
                          source_factory=lambda spec, **kw: src)
        loop.start()
        loop.join(120)
        loop.close()
        throws = [th for th in sim.throws_until(30.0) if th.settled + 0.6 < 30.0]
        rolls = table.state.tray.rolls
        assert any(th.kept for th in throws) and any(th.hand for th in throws)
        assert [sorted(r.faces) for r in rolls] == [sorted(th.values) for th in throws]  # kept dice not again
        assert all(r.source == "sim" for r in rolls)
        for t in read_at:  # the reader never saw a moving die or a hand
            dice, hand = sim.state_at(t)
            assert hand is None and all(u >= 1.0 for _, u in dice)
        assert table.status()["camera"]["rolls"] == len(throws)


def test_same_value_thrown_twice_gives_two_roll_events(tmp_path):
    from arena_table.vision.sim import SimDie, SimThrow

    four_a = SimDie(4, (100.0, 120.0), 10.0, 0, start=(-30.0, 60.0), spin=400.0)
    four_b = SimDie(4, (220.0, 100.0), 35.0, 1, start=(350.0, 200.0), spin=500.0)
    sim = SimTable(seed=0, size=(320, 240), throws=[SimThrow(1.0, 2.0, (four_a,)), SimThrow(4.5, 5.5, (four_b,))])
    src = EndingSim(sim, 8.0)
    with Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"))) as table:
        with CameraLoop(table.ports("camera"), "sim", reader=truth_reader_for(sim, src), source_factory=lambda spec, **kw: src) as loop:
            loop.join(60)
        assert [r.faces for r in table.state.tray.rolls] == [(4,), (4,)]
        assert [row.event.faces for row in table.rows() if isinstance(row.event, DiceRolled)] == [(4,), (4,)]


@pytest.mark.parametrize("first, again", [(2, 3), (5, 4)])
def test_a_die_thrown_again_onto_its_own_spot_with_another_face_counts(tmp_path, first, again):
    # Mode "moved": the second throw takes die A up and it lands where it lay, turned the same way,
    # showing a face that differs from the first by its centre pip alone; die B lies untouched.
    # Less than moved_overlap of A's box changed, but the face read there changed: A moved.
    from arena_table.vision.sim import SimDie, SimThrow

    a1 = SimDie(first, (160.0, 120.0), 0.0, 0, start=(-40.0, 60.0), spin=300.0)
    b = SimDie(6, (460.0, 300.0), 0.0, 1, start=(700.0, 400.0), spin=200.0)
    a2 = replace(a1, value=again, start=(-40.0, 300.0))
    sim = SimTable(seed=0, size=(640, 480), throws=[SimThrow(1.0, 2.0, (a1, b)),
                                                     SimThrow(4.5, 5.5, (a2,), kept=(b,))])
    src = EndingSim(sim, 8.0)
    with Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"))) as table:
        with CameraLoop(table.ports("camera"), "sim", settle=SettleConfig(mode="moved"), reader=truth_reader_for(sim, src),
                        source_factory=lambda spec, **kw: src) as loop:
            loop.join(60)
        assert [sorted(r.faces) for r in table.state.tray.rolls] == [sorted((first, 6)), [again]]


def test_the_first_rethrow_after_the_camera_starts_is_told_by_its_face(tmp_path):
    # Dice lying in the tray when the camera starts are its baseline, not a roll (read_initial
    # false), but they are read: die A thrown again onto its own spot as another face then counts.
    from arena_table.vision.sim import SimDie, SimThrow

    a1 = SimDie(2, (160.0, 120.0), 0.0, 0, start=(-40.0, 60.0), spin=300.0)
    b = SimDie(6, (460.0, 300.0), 0.0, 1, start=(700.0, 400.0), spin=200.0)
    a2 = replace(a1, value=3, start=(-40.0, 300.0))
    sim = SimTable(seed=0, size=(640, 480), throws=[SimThrow(-2.0, -1.0, (a1, b)), SimThrow(3.0, 4.0, (a2,), kept=(b,))])
    src = EndingSim(sim, 6.5)
    with Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"))) as table:
        with CameraLoop(table.ports("camera"), "sim", settle=SettleConfig(mode="moved"), reader=truth_reader_for(sim, src),
                        source_factory=lambda spec, **kw: src) as loop:
            loop.join(60)
        assert [r.faces for r in table.state.tray.rolls] == [(3,)]


@pytest.mark.parametrize("partial, again", [(False, "b"), (True, "b"), (False, "c")])
def test_rerolling_the_refused_die_completes_the_held_roll(tmp_path, partial, again):
    # Two dice thrown, one refused: no roll is recorded and the status asks to re-roll it. The player
    # re-rolls that die alone; the die that was read did not move, yet it belongs to that roll: the
    # roll recorded is both dice (before: the re-rolled die alone, a wrong total). With
    # partial_rolls the read die is recorded at once and the re-roll is a roll of its own. A player
    # who leaves the refused die lying and throws another die (c) starts a roll of its own.
    from arena_table.vision.sim import SimDie, SimThrow

    a = SimDie(3, (160.0, 120.0), 0.0, 0, start=(-40.0, 60.0), spin=300.0)
    b1 = SimDie(2, (460.0, 300.0), 20.0, 1, start=(700.0, 400.0), spin=200.0)
    b2 = replace(b1, value=5, center=(420.0, 260.0), start=(700.0, 100.0))
    c = SimDie(5, (300.0, 380.0), 40.0, 2, start=(-40.0, 400.0), spin=250.0)
    second = SimThrow(4.5, 5.5, (b2,), kept=(a,)) if again == "b" else SimThrow(4.5, 5.5, (c,), kept=(a, b1))
    sim = SimTable(seed=0, size=(640, 480), throws=[SimThrow(1.0, 2.0, (a, b1)), second])
    src = EndingSim(sim, 8.0)
    truth = truth_reader_for(sim, src)
    refused = []

    def read(image):  # the first throw's b reads as unreadable
        r = truth(image)
        if not refused and any(d.value == 2 for d in r.dice):
            refused.append(r)
            r = DiceReading(tuple(replace(d, value=None, status="unreadable", reason="glare")
                                  if d.value == 2 else d for d in r.dice), r.width, r.height)
        return r

    with Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"))) as table:
        with CameraLoop(table.ports("camera"), "sim", settle=SettleConfig(mode="moved"), reader=read, dice=DiceSettings(partial_rolls=partial),
                        source_factory=lambda spec, **kw: src) as loop:
            loop.join(60)
        want = [[3], [5]] if partial else [[3, 5]] if again == "b" else [[5]]
        assert [sorted(r.faces) for r in table.state.tray.rolls] == want
