"""Starting a new game over a board game: asked about (409) while any of its events stands, ended
unasked once they were all undone (``rules.in_progress``)."""

from __future__ import annotations

from pathlib import Path


def _theosis_lines() -> list[str]:
    """``examples/theosis-pvp-12.txt`` as notation lines (its start first, then ``th-place``...)."""
    return [ln for ln in (Path(__file__).parents[2] / "examples" / "theosis-pvp-12.txt").read_text().splitlines()
            if ln.strip() and not ln.startswith("#")]


def test_a_start_over_a_board_game_names_it(ctl, table):
    lines = _theosis_lines()
    assert ctl("/api/events", {"notation": lines[0]}).status_code == 201  # start game=theosis ...
    assert ctl("/api/start", {"game": "dice-tray"}).status_code == 201  # no event after its start yet
    assert ctl("/api/events", {"notation": lines[0]}).status_code == 201
    assert ctl("/api/events", {"notation": lines[1]}).status_code == 201  # th-place hero=rochon ...
    r = ctl("/api/start", {"game": "dice-tray"})
    assert (r.status_code, r.get_json().get("in_progress")) == (409, f"the running Theosis (event {table.state.seq})"), \
        r.get_json()
    # a page behind the table asked about the dice tray it showed (started 0): no yes to that ends Theosis
    r = ctl("/api/start", {"game": "dice-tray", "confirm": 0})
    assert r.status_code == 409 and r.get_json()["started"] == table.state.started_seq > 0


def test_a_board_game_whose_moves_were_all_undone_ends_unasked(ctl, client, table):
    """A review: the question came after a game's only move was undone, though nothing was lost;
    a trial: moves that cancel out, or a note, must still be asked about."""
    lines = _theosis_lines()
    assert ctl("/api/events", {"notation": lines[0]}).status_code == 201  # start game=theosis ...
    assert ctl("/api/events", {"notation": lines[1]}).status_code == 201  # th-place hero=rochon ...
    assert ctl("/api/events", {"notation": "note text=table"}).status_code == 201
    assert ctl("/api/start", {"game": "dice-tray"}).status_code == 409  # the placement would be lost
    assert ctl("/api/undo", {"seq": client.get("/api/undo").get_json()["seq"]}).status_code == 200  # the note
    assert ctl("/api/start", {"game": "dice-tray"}).status_code == 409  # the placement still would be
    assert ctl("/api/undo", {"seq": client.get("/api/undo").get_json()["seq"]}).status_code == 200
    assert table.state.seq > table.state.started_seq  # events after the start, none of them standing
    assert ctl("/api/start", {"game": "dice-tray"}).status_code == 201


def test_a_lone_note_on_a_board_game_is_asked_about(ctl, table):
    assert ctl("/api/events", {"notation": _theosis_lines()[0]}).status_code == 201
    assert ctl("/api/events", {"notation": "note text=hello"}).status_code == 201
    assert ctl("/api/start", {"game": "dice-tray"}).status_code == 409
