"""``arena-table run --game/--options`` is recorded in the event log (issue found by a new user:
a game started from the flags vanished on a restart without them)."""

import pytest

from arena_table.rules import GameStarted, Refused
from arena_table.rules.kernel.events import parse as parse_event
from arena_table.table.app import Table, record_game
from arena_table.table.config import CameraSettings, DataSettings, TableConfig
from arena_table.cli import main
from arena_table.cli.common import free_port

PVP = {"mode": "pvp", "players": ["Ann", "Bo"], "heroes_1": ["rochon", "rac", "norn"],
       "heroes_2": ["aer", "lug", "edhel"]}


def _table(db):
    return Table(TableConfig(data=DataSettings(db=db), camera=CameraSettings(source="none")), clock=lambda: 1000.0)


def test_game_from_the_flags_survives_a_restart_without_them(tmp_path):
    db = tmp_path / "e.db"
    t = _table(db)
    assert record_game(t.engine, "Theosis", PVP) == 1
    t.engine.submit(parse_event("th-place hero=rochon location=guardian golden=true"))
    assert t.engine.state.game == "theosis"
    before = t.engine.state
    t.close()
    t = _table(db)  # no flags: the log says which game runs
    try:
        assert t.engine.state.game == "theosis" and t.engine.state.seq == before.seq
        assert t.engine.state.state == before.state
        records = t.log.records()
        assert [type(ev) for _, ev in records] == [GameStarted, type(records[1][1])]
        assert records[0][1].options == PVP
        # the same flags again: nothing new is recorded, the game goes on
        assert record_game(t.engine, "theosis", dict(PVP)) is None
        assert t.engine.state.seq == before.seq
        # other options: the user asked for a new game
        other = dict(PVP, players=["Cy", "Di"])
        assert record_game(t.engine, "theosis", other) == before.seq + 1
        assert t.engine.state.started_seq == before.seq + 1
    finally:
        t.close()


def test_the_default_game_needs_no_start_event(tmp_path):
    t = _table(tmp_path / "e.db")
    try:
        assert record_game(t.engine, "dice-tray", {}) is None
        assert t.log.records() == []
    finally:
        t.close()


def test_options_the_game_refuses_are_an_error_not_a_traceback(tmp_path, capsys):
    db = tmp_path / "e.db"
    code = main(["run", "--port", str(free_port()), "--db", str(db), "--camera", "none", "--game", "theosis",
                 "--options", '{"mode": "pvp", "players": ["Ann", "Bo"]}'])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --options: theosis refuses them: ") and "heroes" in err
    assert main(["run", "--port", str(free_port()), "--db", str(db), "--camera", "none", "--options", '{"x": 1}']) == 2
    assert "error: --options: dice-tray refuses them" in capsys.readouterr().err
    assert main(["run", "--port", str(free_port()), "--db", str(db), "--camera", "none", "--game", "chess"]) == 1
    assert "error: --game: unknown game 'chess'" in capsys.readouterr().err
    if db.exists():
        t = _table(db)
        assert t.log.records() == []
        t.close()


def test_refused_start_is_kept_as_rejected(tmp_path):
    t = _table(tmp_path / "e.db")
    try:
        with pytest.raises(Refused):
            record_game(t.engine, "theosis", {"mode": "pvp", "players": ["Ann"]})
        assert t.engine.state.game == "dice-tray"
    finally:
        t.close()


def test_flags_against_a_running_game(tmp_path):
    # A new user's second trial: `--options` alone used to target the dice tray (refusing the
    # running Theosis game's own options, or ending it with `{}`), and `--game theosis` alone
    # started an empty Theosis over the one in progress.
    from arena_table.table.service import GameInProgress, game_from_flags

    t = _table(tmp_path / "e.db")
    try:
        assert game_from_flags(t.engine, "theosis", dict(PVP)) == 1
        t.engine.submit(parse_event("th-place hero=rochon location=guardian golden=true"))
        seq = t.engine.state.seq
        assert game_from_flags(t.engine, None, None) is None            # no flags
        assert game_from_flags(t.engine, None, dict(PVP)) is None       # the same options, no --game
        assert game_from_flags(t.engine, "Theosis", None) is None       # the running game, no --options
        assert t.engine.state.seq == seq
        with pytest.raises(ValueError, match="^theosis refuses them: .*heroes"):
            game_from_flags(t.engine, None, {"mode": "pvp", "players": ["Ann", "Bo"]})
        assert t.engine.state.started_seq == 1 and t.engine.state.game == "theosis"
        # another game would end this one in progress: only with --new-game (a new user's trial: a
        # restart with the service's fixed `--game dice-tray` ended a Theosis game started from the page)
        with pytest.raises(GameInProgress, match=r"^--game dice-tray would end the running Theosis \(event 2\), and undo"):
            game_from_flags(t.engine, "dice-tray", None)
        with pytest.raises(GameInProgress, match=r"^--options would end the running Theosis"):
            game_from_flags(t.engine, None, dict(PVP, players=["Cy", "Di"]))
        assert t.engine.state.seq == seq and t.engine.state.game == "theosis"  # nothing recorded
        assert game_from_flags(t.engine, "dice-tray", None, new_game=True) == seq + 1  # the refusals wrote nothing
        assert t.engine.state.game == "dice-tray"
        # a dice tray with no rolls loses nothing: no --new-game needed; one with rolls does
        assert game_from_flags(t.engine, "theosis", dict(PVP)) == seq + 2
        assert game_from_flags(t.engine, "dice-tray", None, new_game=True) == seq + 3
        t.engine.submit(parse_event("roll faces=[2,5]"))
        with pytest.raises(GameInProgress, match=r"would end the dice tray's 1 roll"):
            game_from_flags(t.engine, "theosis", dict(PVP))
    finally:
        t.close()


def test_a_game_with_no_default_setup_needs_options_and_writes_nothing(tmp_path, capsys):
    # a new user's `run --game euthia`: one line naming what is missing, no log, PIN or key left behind
    folder = tmp_path / "t"
    code = main(["run", "--port", str(free_port()), "--db", str(folder / "a.db"), "--camera", "none",
                 "--game", "euthia"])
    assert code == 2
    err = capsys.readouterr().err
    assert err == ('error: --game euthia needs --options (its setup has no defaults): heroes: name the Heroes '
                   'at the table, e.g. ["ael"]\n')
    assert not folder.exists()
