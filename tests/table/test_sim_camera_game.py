"""``make run`` with ``--game theosis`` on the simulated camera: for five minutes no camera roll enters
the game unless the game asked for one (issue 28, a test on the event log).

The table is built as ``arena-table run --game theosis --camera sim`` builds it (``Table``,
``record_game``, the camera device on the table's ports), and the simulated camera is driven frame by
frame on a simulated clock: five simulated minutes of throws (about 75), not five real ones. A
seeded player plays the offered actions meanwhile, mostly those after which the game waits for a
die (the Thieves' Guild, the Mercenary Camp), enters by hand the dice the camera cannot give (a d4,
the skullduggery die) and leaves the Thieves' Guild d6 to the camera for up to 40 s.
"""

from __future__ import annotations

import random

import pytest

from arena_table.rules import DiceRolled, apply, find_game, new_table
from arena_table.rules.kernel.table import is_sensed
from arena_table.table.app import Table, record_game
from arena_table.table.camera_loop import CameraLoop
from arena_table.table.config import CameraSettings, DataSettings, TableConfig
from arena_table.vision.capture import SimSource

TH = {"players": ["Ann", "Bo"], "heroes": {"Ann": ["rochon", "rac", "norn"], "Bo": ["aer", "lug", "edhel"]}}
MINUTES = 5
EPOCH = 1.8e9
"""The simulated clock's start (seconds since 1970)."""
PLAYER_EVERY_S = 6.0
"""Simulated seconds between two of the player's actions."""
CAMERA_WAIT_S = 40.0
"""How long the player leaves an awaited d6 to the camera before entering it by hand."""
THEOSIS = find_game("theosis")


def play(table: Table, rng: random.Random, waited: float) -> float:
    """One move of the seeded player; returns how long the game has waited for a d6 from the camera."""
    st = table.state.state
    awaited = dict(THEOSIS.awaits(st))
    if "d6" in awaited and waited < CAMERA_WAIT_S:
        return waited + PLAYER_EVERY_S  # the camera's turn
    if awaited:
        kind, count = next(iter(awaited.items()))
        sides = THEOSIS.dice(st)[kind]
        table.submit(DiceRolled(die=kind, faces=tuple(rng.randint(1, sides) for _ in range(count)), source="control"))
        return 0.0
    events = [a.event(picks) for a in THEOSIS.actions(st) if a.kind != "roll" for picks in a.completions()]
    dice = [ev for ev in events if THEOSIS.awaits(THEOSIS.apply(st, ev))]  # the Thieves' Guild, the Camp...
    if events:
        table.submit(rng.choice(dice if dice and rng.random() < 0.7 else events))
    return 0.0


@pytest.mark.slow
def test_five_minutes_of_simulated_throws_enter_theosis_only_when_it_asks(tmp_path):
    now = [EPOCH]
    table = Table(TableConfig(data=DataSettings(db=tmp_path / "table.db"), camera=CameraSettings(source="none")),
                  clock=lambda: now[0])
    try:
        record_game(table.engine, "theosis", TH)
        camera = CameraLoop(table.ports("camera"), "sim")  # as build_camera makes it for --camera sim
        source = SimSource(seed=0, realtime=False)
        rng = random.Random(28)
        waited, next_move = 0.0, PLAYER_EVERY_S
        while True:
            frame = source.read()
            if frame.t > MINUTES * 60:
                break
            now[0] = EPOCH + frame.t
            assert camera.feed(frame)
            if frame.t >= next_move:
                waited = play(table, rng, waited)
                next_move += PLAYER_EVERY_S
        records = table.log.records()
        final = table.state
    finally:
        table.close()

    ts = new_table()
    entered = tray = asked_then = 0
    for seq, ev in records:
        before = ts
        ts = apply(ts, ev, seq)
        if not is_sensed(ev):
            continue
        pending = before.state.pending if before.game == "theosis" else None
        asked = dict(THEOSIS.awaits(before.state)) if pending is not None else {}
        line = next(ln.text for ln in ts.log if ln.seq == seq)
        if ts.state != before.state:  # the camera roll changed the game: it must have been asked for
            assert pending is not None and 0 < len(ev.faces) <= asked.get(ev.die, 0), (seq, ev, pending)
            assert not line.startswith("Tray roll")
            entered += 1
        else:
            assert line.startswith("Tray roll"), (seq, line)  # shown and kept, the game unchanged
            tray += 1
            asked_then += bool(asked.get(ev.die))
    assert ts.state == final.state  # the log replays to the table's state
    at = [ev.at for _, ev in records]
    assert max(at) - min(at) >= MINUTES * 60 - 5  # five simulated minutes of the log
    assert entered >= 1, "no camera roll was asked for and taken: the test would prove nothing"
    assert tray >= 30 and asked_then >= 1  # throws of the wrong number of dice while the game waited
