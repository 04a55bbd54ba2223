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


def test_demigods_roll_is_correctable_and_replays_the_game(ctl, client, table):
    lines = [ln for ln in DEMIGODS.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    for line in lines[:2]:  # start, then "roll die=dg-demigod faces=[2,3]"
        assert ctl("/api/events", {"notation": line}).status_code == 201
    last = control_last(client)
    assert last["die"] == "dg-demigod" and last["correctable"] is True and "correct_refused" not in last
    r = ctl("/api/correct", {"roll": 2, "index": 0, "value": 4})
    assert r.status_code == 201 and r.get_json()["event"] == "correct roll=2 index=0 value=4"
    last = control_last(client)
    assert last["faces"] == [4, 3] and last["sensed"] == [2, 3]
    right = [lines[0], "roll die=dg-demigod faces=[4,3]"]
    from arena_table.rules import parse, replay
    assert table.state.state == replay([parse(x) for x in right]).state


def test_a_correction_that_makes_a_later_event_illegal_names_it_and_drops_it_on_request(ctl, client, table):
    """Demigods tactics: the Demigod dice decide who acts first. Corrected five events later, the
    activation that followed is illegal: a 409 names it in plain words; the correction sent again
    with it in ``drop`` is recorded with a ``drop`` event, the dropped event kept in the log."""
    tactics = DEMIGODS.with_name("tactics.txt")
    lines = [ln for ln in tactics.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    k = lines.index("roll die=dg-demigod faces=[2,3]")
    for line in lines[:k + 6]:
        assert ctl("/api/events", {"notation": line}).status_code == 201
    before = table.state
    body = {"roll": k + 1, "index": 0, "value": 5}
    r = ctl("/api/correct", body)
    assert r.status_code == 409
    later = r.get_json()["later"]
    assert later["seq"] == k + 2 and later["event"] == lines[k + 1] and later["reason"] in r.get_json()["error"]
    assert later["text"] and "=" not in later["text"]  # in plain words
    assert table.state == before  # refused: nothing changed
    drops = []
    while r.status_code == 409:
        drops.append(r.get_json()["later"]["seq"])
        r = ctl("/api/correct", {**body, "drop": drops})
    assert r.status_code == 201 and r.get_json()["dropped"] == drops
    rows = table.rows(since=k + 6)
    kinds = [(row.event.KIND, row.status) for row in rows]
    assert ("correct", "rejected") in kinds and kinds[-1] == ("correct", "ok")
    assert [row.event.seq for row in rows if row.event.KIND == "drop"] == drops
    from arena_table.rules import replay
    assert replay(table.engine.log.records()).state == table.state.state
    r = ctl("/api/correct", {**body, "value": 6, "drop": [1]})
    assert r.status_code == 422 and "event #1 comes before roll" in r.get_json()["error"]


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


def test_a_roll_by_die_kinds_offers_its_faces_by_symbol_and_takes_one(ctl, client, table):
    """A Demigods attack die rolled by kind: the control view lists its faces by the book's symbols,
    and a correction names one (``"value": "critical"``)."""
    tactics = DEMIGODS.with_name("tactics.txt")
    lines = [ln for ln in tactics.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    k = lines.index("roll die=dg-bludgeoning faces=[3]")
    for line in lines[:k] + ["roll kinds=[demigods-bludgeoning] faces=[1]"]:
        assert ctl("/api/events", {"notation": line}).status_code == 201
    last = control_last(client)
    assert last["face_choices"] == [["knockdown", "push", "critical", "2", "1", "-1"]]
    assert last["correctable"] is True
    r = ctl("/api/correct", {"roll": k + 1, "index": 0, "value": "critical"})
    assert r.status_code == 201 and r.get_json()["event"] == f"correct roll={k + 1} index=0 value=critical"
    assert control_last(client)["faces"] == ["critical"] and control_last(client)["sensed"] == [1]
    r = ctl("/api/correct", {"roll": k + 1, "index": 0, "value": "banana"})
    assert r.status_code == 422 and "has no face" in r.get_json()["error"]
