"""Durable event log and engine: commit before ack, rejected inputs kept, replay == live, undo, export."""

import io
import json
import sqlite3
from pathlib import Path

import pytest
from logkit import open_elsewhere

from arena_table.rules import DiceRolled, DieCorrected, Refused, NothingToUndo, Undone, UndoTargetMoved, digest, replay
from arena_table.cli import main
from arena_table.cli.common import free_port
from arena_table.table.engine import Engine
from arena_table.table.log import EventLog, LogError, read_jsonl


class FakeClock:
    def __init__(self, t=1000.0):
        self.t = t

    def __call__(self):
        self.t += 1.0
        return self.t


def test_events_are_committed_before_ack_and_survive_reopen(tmp_path):
    db = tmp_path / "t.db"
    with EventLog(db) as log:
        eng = Engine(log, clock=FakeClock())
        assert eng.submit(DiceRolled(faces=(4, 2))) == 1
        # a second, independent connection sees the row as soon as submit returned
        other = sqlite3.connect(db)
        assert other.execute("SELECT text FROM events").fetchall() == [("roll faces=[4,2] at=1001.0",)]
        other.close()
    with EventLog(db) as log:
        eng = Engine(log)
        assert [r.faces for r in eng.state.tray.rolls] == [(4, 2)]
        assert eng.state.tray.rolls[0].at == 1001.0  # stamped by the injected clock


def test_rejected_event_is_recorded_not_applied():
    with EventLog(":memory:") as log:
        eng = Engine(log, clock=FakeClock())
        eng.submit(DiceRolled(faces=(1,)))
        with pytest.raises(Refused, match="impossible on a d6"):
            eng.submit(DiceRolled(faces=(9,)))
        assert eng.submit(DiceRolled(faces=(2,))) == 3
        rows = log.rows()
        assert [(r.seq, r.status) for r in rows] == [(1, "ok"), (2, "rejected"), (3, "ok")]
        assert "impossible" in rows[1].reason
        assert [r.seq for r in eng.state.tray.rolls] == [1, 3]
        assert digest(replay(log.records())) == digest(eng.state)


def test_engine_thread_replay_equals_live_and_undo():
    with EventLog(":memory:") as log, Engine(log, clock=FakeClock()) as eng:
        seen = []
        eng.subscribe(lambda ch: seen.append(ch.seq))
        eng.subscribe(lambda ch: 1 / 0)  # a broken subscriber must not stop the others
        for faces in [(1, 2), (3,), (6, 6, 6)]:
            eng.submit(DiceRolled(faces=faces))
        eng.submit(DieCorrected(roll=2, index=0, value=5))
        assert digest(replay(log.records())) == digest(eng.state)
        assert eng.undo_preview()[0] == 4
        assert eng.undo() == (4, DieCorrected(roll=2, index=0, value=5, at=1004.0))
        assert [r.faces for r in eng.state.tray.rolls] == [(1, 2), (3,), (6, 6, 6)]
        assert isinstance(log.records()[-1][1], Undone)
        assert digest(replay(log.records())) == digest(eng.state)
        assert seen == [1, 2, 3, 4, 5]
        with pytest.raises(Refused):
            eng.submit(Undone(seq=1))


def test_a_note_can_be_undone_and_leaves_the_spectators_log():
    """A new user's trial: a mistyped note showed on the TV for good, since undo skipped notes."""
    from arena_table.rules import Note

    with EventLog(":memory:") as log, Engine(log, clock=FakeClock()) as eng:
        eng.submit(DiceRolled(faces=(4,)))
        eng.submit(Note(text="OOPS wrong note"))
        assert any("OOPS" in line.text for line in eng.state.log)
        assert eng.undo_preview()[0] == 2
        assert eng.undo(expected=2)[0] == 2
        assert not any("OOPS" in line.text for line in eng.state.log)
        assert [r.faces for r in eng.state.tray.rolls] == [(4,)]  # the roll before it stays
        assert eng.undo_preview()[0] == 1


def test_two_confirmations_of_one_preview_undo_one_event():
    """Two control pages confirm the same preview at once: the writer checks the previewed seq in the
    same step as the undo, so the second is refused and the event before stays (a new user's audit:
    both got 200 and two events were taken back)."""
    import concurrent.futures

    with EventLog(":memory:") as log, Engine(log, clock=FakeClock()) as eng:
        for faces in [(1, 2), (3,), (6,)]:
            eng.submit(DiceRolled(faces=faces))
        seq = eng.undo_preview()[0]
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            futures = [pool.submit(eng.undo, expected=seq) for _ in range(2)]
        outcomes = sorted(type(f.exception()).__name__ if f.exception() else "undone" for f in futures)
        assert outcomes == ["UndoTargetMoved", "undone"]
        assert [r.faces for r in eng.state.tray.rolls] == [(1, 2), (3,)]
        with pytest.raises(UndoTargetMoved, match="the last event is now #2"):
            eng.undo(expected=seq)


def test_nothing_to_undo():
    with EventLog(":memory:") as log:
        with pytest.raises(NothingToUndo):
            Engine(log).undo()


def test_not_a_log_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "notes.db"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(LogError, match="not an arena-table event log"):
        EventLog(bad)


def test_engine_correction_replays_the_roll_and_survives_a_restart(tmp_path):
    """Theosis, Thieves' Guild (p.11): the d6 decides the steal. The engine's correction replays it
    (the gold moves as for the corrected face), and a restart replays the log to the same state."""
    from arena_table.rules import GameStarted, parse

    options = {"players": ["Ann", "Bo"], "heroes": {"Ann": ["rochon", "rac", "norn"], "Bo": ["aer", "lug", "edhel"]}}
    db = tmp_path / "t.db"
    with EventLog(db) as log:
        eng = Engine(log, clock=FakeClock())
        eng.submit(GameStarted(game="theosis", options=options))
        for line in ["th-place hero=rochon location=guardian golden=true", "th-place hero=aer location=righteous golden=true",
                     "th-place hero=rac location=thieves-guild target=lug", "roll faces=[3]"]:
            eng.submit(parse(line))
        gold = {p: eng.state.state.player(p).gold for p in ("Ann", "Bo")}
        seq = eng.correct(DieCorrected(roll=5, index=0, value=1))
        assert seq == 6 and [r.faces for r in eng.state.tray.rolls] == [(1,)]
        assert eng.state.state.player("Ann").gold != gold["Ann"] or eng.state.state.player("Bo").gold != gold["Bo"]
        assert digest(replay(log.records())) == digest(eng.state)
        state = eng.state
    with EventLog(db) as log:
        assert digest(Engine(log).state) == digest(state)


def test_engine_refused_correction_is_kept_as_rejected_and_a_drop_takes_the_event_out():
    lines = [ln for ln in open("examples/demigods-tactics.txt").read().splitlines() if ln and not ln.startswith("#")]
    k = lines.index("roll die=dg-demigod faces=[2,3]")
    with EventLog(":memory:") as log, Engine(log, clock=FakeClock()) as eng:
        from arena_table.rules import LaterEventRefused, parse
        for line in lines[:k + 6]:
            eng.submit(parse(line))
        before = eng.state
        fix = DieCorrected(roll=k + 1, index=0, value=5)
        with pytest.raises(LaterEventRefused) as exc:
            eng.correct(fix)
        assert exc.value.later_seq == k + 2 and eng.state == before
        assert log.rows()[-1].status == "rejected" and "illegal" in log.rows()[-1].reason
        drops = []
        while True:
            try:
                seq = eng.correct(fix, tuple(drops))
                break
            except LaterEventRefused as again:
                drops.append(again.later_seq)
        rows = log.rows(since=seq - len(drops) - 1)
        assert [str(r.event).split(" at=")[0] for r in rows] == [
            f"drop seq={d} reason=\"illegal once die #1 of roll {k + 1} is 5\"" for d in drops] + [str(fix)]
        assert digest(replay(log.records())) == digest(eng.state)
        with pytest.raises(Refused, match="a drop is made with the correction"):
            eng.submit(parse(f"drop seq={k + 2}"))


def test_export_then_replay_cli(tmp_path, capsys):
    db = tmp_path / "t.db"
    with EventLog(db) as log:
        eng = Engine(log, clock=FakeClock())
        for faces in [(1, 2), (3, 4)]:
            eng.submit(DiceRolled(faces=faces))
        with pytest.raises(Refused):
            eng.submit(DiceRolled(faces=(0,)))
        eng.undo()
    out = tmp_path / "log.jsonl"
    assert main(["log", "export", "--db", str(db), "-o", str(out)]) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["status"] for x in lines] == ["ok", "ok", "rejected", "ok"]
    assert lines[3]["text"].startswith("undo seq=2")
    capsys.readouterr()
    assert main(["replay", str(out), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["tray"]["rolls"] == 1 and state["tray"]["last"]["faces"] == [1, 2]
    assert state["seq"] == 4


def test_replay_cli_names_the_bad_line(tmp_path, capsys):
    f = tmp_path / "t.txt"
    f.write_text("roll faces=[1]\n# comment\nroll faces=[2,\n")
    assert main(["replay", str(f)]) == 1
    assert f"{f}:3:" in capsys.readouterr().err


@pytest.mark.parametrize("content", ["", "\n", "# a transcript with no events yet\n\n"])
def test_replay_cli_refuses_a_file_with_no_events(tmp_path, capsys, content):
    f = tmp_path / "empty.txt"
    f.write_text(content)
    assert main(["replay", str(f)]) == 1
    out, err = capsys.readouterr()
    assert err == f"error: {f}: no events (an empty log or transcript)\n" and out == ""


def test_read_jsonl_accepts_notation_and_bare_events():
    recs = read_jsonl(io.StringIO('roll faces=[1]\n{"kind": "roll", "faces": [2]}\n'))
    assert [(s, e.faces) for s, e in recs] == [(1, (1,)), (2, (2,))]


def test_one_writer_per_log_file(tmp_path):
    db = tmp_path / "t.db"
    with EventLog(db) as log:
        Engine(log).submit(DiceRolled(faces=(5,)))
        assert "already in use by another arena-table process (pid " in open_elsewhere(db)
        with pytest.raises(LogError, match=r"already open for writing in this process"):
            EventLog(db)
        with EventLog(db, readonly=True) as reader:  # export beside the running table
            assert [e.faces for _, e in reader.records()] == [(5,)]
    with EventLog(db) as again:  # the lock went with the first writer
        assert again.last_seq() == 1


def test_a_symlink_to_a_log_in_use_is_refused(tmp_path):
    """A new user's audit: the lock file was made beside the link, so two tables wrote one log."""
    db = tmp_path / "t.db"
    link = tmp_path / "link.db"
    with EventLog(db):
        link.symlink_to(db)
        assert "already in use by another arena-table process (pid " in open_elsewhere(link)
        with pytest.raises(LogError, match="already open for writing in this process"):
            EventLog(link)


def test_readonly_open_of_a_missing_log_is_clear(tmp_path):
    with pytest.raises(LogError, match="no such event log"):
        EventLog(tmp_path / "nope.db", readonly=True)


def test_non_finite_time_stamp_is_refused_and_the_log_stays_json():
    with EventLog(":memory:") as log:
        eng = Engine(log)
        with pytest.raises(Refused, match="not a finite number"):
            eng.submit(DiceRolled(faces=(1,), at=float("nan")))
        assert log.rows() == []


@pytest.mark.parametrize("content,needle", [
    (b"roll faces=[1]\nroll faces=[9]\n", ":2: illegal event roll faces=[9]: face(s) [9] impossible on a d6"),
    (b'{"event":{"kind":"roll","faces":[1]}}\n', ':1: a log row needs "seq" beside "event"'),
    (b"\xff\xfe\x00garbage", "not a text file (byte 0 is not UTF-8)"),
    (b'{"seq": 1, "bogus"\n', ":1: not a JSON object (Expecting ':' delimiter at column 19)"),
    (b'start game=theosis options={"mode":"pvp"\n',
     """bad value for options: not JSON (Expecting ',' delimiter at character 14 of the value)"""),
])
def test_replay_cli_errors_are_one_line(tmp_path, capsys, content, needle):
    f = tmp_path / "bad.jsonl"
    f.write_bytes(content)
    assert main(["replay", str(f)]) == 1
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1 and "Traceback" not in err


def test_cli_refuses_unknown_game_and_bad_port(tmp_path, capsys):
    f = tmp_path / "t.txt"
    f.write_text("roll faces=[1]\n")
    assert main(["replay", "--game", "nope", str(f)]) == 1
    said = capsys.readouterr().err  # every registered game is listed, so a new game adds a name
    assert said.startswith("error: unknown game 'nope'; known games: ")
    assert {"demigods", "dice-tray", "theosis"} <= set(said.rsplit(": ", 1)[1].strip().split(", ")), said
    assert main(["run", "--port", str(free_port()),
                 "--game", "nope", "--db", str(tmp_path / "t.db"), "--camera", "none"]) == 1
    assert "unknown game 'nope'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["run", "--port", "99999"])
    assert "99999 is not a port number (1-65535)" in capsys.readouterr().err


def test_export_to_a_missing_folder_is_one_line(tmp_path, capsys):
    db = tmp_path / "t.db"
    with EventLog(db) as log:
        Engine(log).submit(DiceRolled(faces=(2,)))
    out = tmp_path / "no" / "dir" / "x.jsonl"
    assert main(["log", "export", "--db", str(db), "-o", str(out)]) == 1
    assert capsys.readouterr().err.strip() == f"error: {out}: cannot write (No such file or directory)"


@pytest.mark.parametrize("argv, message", [
    (["bench", "dice", "--stress-frames", "0"], "argument --stress-frames: 0 is below 1"),
    (["bench", "dice", "--timing-frames", "-1"], "argument --timing-frames: -1 is below 1"),
    (["bench", "tokens", "--seconds", "-5"], "argument --seconds: -5 is below 1"),
    (["bench", "tokens", "--pads", "0"], "argument --pads: 0 is below 1"),
    (["bench", "web", "--clients", "0"], "argument --clients: 0 is below 1"),
    (["bench", "web", "--events", "x"], "argument --events: 'x' is not a whole number"),
])
def test_benchmarks_that_would_measure_nothing_are_refused(argv, message, capsys):
    """A new user's audit: 0 frames was a traceback, -5 s a NaN figure, 0 clients 'within targets'."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2 and message in capsys.readouterr().err


def test_run_refuses_a_camera_path_that_is_not_there(tmp_path, capsys):
    """A new user's audit: a mistyped --camera file started the table with the camera 'failed'."""
    assert main(["run", "--port", str(free_port()),
                 "--camera", str(tmp_path / "nosuch.mp4"), "--db", str(tmp_path / "t.db")]) == 2
    assert "no such file or folder" in capsys.readouterr().err


def test_replay_prints_the_trays_figures(tmp_path, capsys):
    """A new user's audit: plain `replay` left out the totals, counts and fairness test it promises.
    Hand check: counts 14, 9, 6, 14, 7, 10 of 60 dice against 10 each give chi² = (16+1+16+16+9+0)/10 = 5.8."""
    faces = [1] * 14 + [2] * 9 + [3] * 6 + [4] * 14 + [5] * 7 + [6] * 10
    path = tmp_path / "rolls.txt"
    path.write_text("".join("roll faces=[" + ",".join(map(str, faces[i:i + 5])) + "]\n" for i in range(0, 60, 5)))
    assert main(["replay", str(path)]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("d6: 60 dice in 12 rolls, total 201, mean 3.35, counts 1:14 2:9 3:6 4:14 5:7 6:10, chi² 5.80")


def test_replay_game_flag_with_a_game_that_needs_options(tmp_path, capsys):
    # Euthia has no default set-up: `--game euthia` before a file that starts its own game replays it,
    # and before a file with no start it is one clear error, not a traceback
    example = Path(__file__).resolve().parents[2] / "examples" / "euthia-fire-shadowbeast.txt"
    assert main(["replay", "--game", "euthia", str(example)]) == 0
    assert capsys.readouterr().out.rstrip().endswith("outcome: won by Áel (the scenario goal is reached)")
    f = tmp_path / "t.txt"
    f.write_text("roll faces=[1]\n")
    assert main(["replay", "--game", "euthia", str(f)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: --game euthia: cannot be set up without options (heroes: ") and "Traceback" not in err
    assert main(["replay", "--game", "chess", str(example)]) == 1
    assert "unknown game 'chess'" in capsys.readouterr().err
