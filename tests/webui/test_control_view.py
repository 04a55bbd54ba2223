"""What the control page is told: whether the last roll can be corrected, the undo question in
plain words with a human time, help texts without reStructuredText markup."""

from __future__ import annotations

import time
from pathlib import Path

DEMIGODS = Path(__file__).resolve().parents[1] / "rules" / "demigods" / "golden" / "advanced-tactics.txt"


def control_last(client):
    return client.get("/api/state?viewer=control").get_json()["state"]["tray"]["last"]


def test_dice_tray_roll_is_correctable(ctl, client):
    ctl("/api/events", {"notation": "roll faces=[6,2]"})
    last = control_last(client)
    assert last["faces"] == [6, 2] and last["correctable"] is True and "correct_refused" not in last


def test_demigods_roll_is_not_correctable_and_says_why(ctl, client):
    lines = [ln for ln in DEMIGODS.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    for line in lines[:2]:  # start, then "roll die=dg-demigod faces=[2,3]"
        assert ctl("/api/events", {"notation": line}).status_code == 201
    last = control_last(client)
    assert last["die"] == "dg-demigod" and last["correctable"] is False
    assert last["correct_refused"].startswith("Demigods uses each die the moment it is read, so roll 2 cannot be "
                                              "corrected afterwards")
    # the page's offer matches what the server does
    assert ctl("/api/correct", {"roll": 2, "index": 0, "value": 3}).status_code == 422
    # the face the die shows is no exception: the game's own reason, not "already shows"
    r = ctl("/api/correct", {"roll": 2, "index": 0, "value": 2})
    assert r.status_code == 422 and r.get_json()["reason"].startswith("Demigods uses each die the moment")


def test_undo_question_of_an_older_event_names_its_date(ctl, client):
    at = 1700000000.25  # 14 Nov 2023 (UTC), kept as the event's own time
    assert ctl("/api/events", {"notation": f"roll faces=[2,4,6] at={at}", "keep_time": True}).status_code == 201
    preview = client.get("/api/undo").get_json()
    stamp = time.strftime("on %d %b %Y at %H:%M:%S", time.localtime(at))
    assert preview["question"] == f"Undo event #1: Rolled 3d6: 2, 4, 6 (total 12), {stamp}?"
    assert "1700000000" not in preview["question"] and "faces=" not in preview["question"]
    r = ctl("/api/undo", {"seq": 1})
    assert r.get_json()["text"] == "Rolled 3d6: 2, 4, 6 (total 12)"


def test_help_texts_have_no_rst_markup(client):
    info = client.get("/api/games").get_json()
    docs = {k["kind"]: k["doc"] for k in info["event_kinds"]}
    assert docs["undo"] == "Takes back the earlier event with sequence number seq (kept in the log)."
    assert docs["dg-pick"] == "player takes hero hero (Chieftain, Divine Mirror deal or Free Pick, p.11)."
    texts = list(docs.values()) + [f.get(k) or "" for g in info["games"] for f in (g["form"] or [])
                                   for k in ("help", "label")]
    assert len(texts) > 50 and [t for t in texts if "``" in t or ":class:`" in t] == []


def test_what_happened_shows_only_the_running_game(ctl, client, table):
    ctl("/api/events", {"notation": "roll faces=[1,1]"})
    ctl("/api/start", {"game": "dice-tray", "confirm": True})
    ctl("/api/events", {"notation": "roll faces=[2,3]"})
    ctl("/api/start", {"game": "dice-tray", "confirm": True})
    ctl("/api/events", {"notation": "roll faces=[6]"})
    log = client.get("/api/state").get_json()["state"]["log"]
    assert [(line["seq"], line["text"]) for line in log] == [(4, "New game: Dice tray"), (5, "Rolled 1d6: 6 (total 6)")]
    assert table.state.started_seq == 4 and len(table.state.log) == 5  # the table keeps them; the view shows this game
