"""A clock behind the log (a Pi booted without network time) never makes the log go back in time."""

import logging

from arena_table.rules import DiceRolled
from arena_table.table.engine import Engine
from arena_table.table.log import EventLog


def test_events_stamped_while_the_clock_is_behind_the_log_keep_its_last_time(tmp_path, caplog):
    with EventLog(tmp_path / "t.db") as log:
        log.append(DiceRolled(faces=(3,), at=1_800_000_000.0))
        now = [1_799_996_400.0]  # an hour behind: the time the Pi saved before it was switched off
        engine = Engine(log, clock=lambda: now[0])
        with caplog.at_level(logging.WARNING):
            engine.submit(DiceRolled(faces=(4,)))
            engine.submit(DiceRolled(faces=(5,)))
        now[0] = 1_800_000_100.0  # the network time arrives
        engine.submit(DiceRolled(faces=(6,)))
        engine.undo()
        ats = [ev.at for _, ev in log.records()]
    assert ats == [1_800_000_000.0, 1_800_000_000.0, 1_800_000_000.0, 1_800_000_100.0, 1_800_000_100.0]
    assert sum("behind the event log's last time stamp" in r.getMessage() for r in caplog.records) == 1
