"""``arena-table tags``: enrol by UID and by tapping a simulated tag, list, forget, catalogue checks."""

from __future__ import annotations

import json

import pytest

from arena_table.cli import main
from arena_table.table.tokens import check_catalogue


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "table" / "log.db")


def test_enroll_by_uid_list_and_forget(capsys, db):
    assert run(capsys, "tags", "enroll", "--as", "dice-tray:die:red", "--uid", "04:a1:b2:c3", "--db", db) == \
        (0, "04A1B2C3 -> dice-tray:die:red\n", "")
    code, out, _ = run(capsys, "tags", "enroll", "--as", "dice-tray:die:blue", "--uid", "0x04A1B2C3D4", "--db", db)
    assert (code, out) == (0, "04A1B2C3 -> dice-tray:die:blue (was dice-tray:die:red)\n")
    code, out, _ = run(capsys, "tags", "list", "--json", "--db", db)
    assert [(r["uid"], r["object"]) for r in json.loads(out)] == [("04A1B2C3", "dice-tray:die:blue")]
    assert run(capsys, "tags", "forget", "04 A1 B2 C3", "--db", db)[:2] == (0, "forgot 04A1B2C3\n")
    code, _, err = run(capsys, "tags", "forget", "04A1B2C3", "--db", db)
    assert code == 1 and "not enrolled" in err
    assert run(capsys, "tags", "list", "--db", db)[:2] == (0, "no tags enrolled\n")


def test_enroll_by_tapping_a_simulated_tag(capsys, db):
    code, out, err = run(capsys, "tags", "enroll", "--as", "dice-tray:die:green", "--sim", "--uid", "04-11-22-33",
                         "--db", db, "--timeout", "10")
    assert (code, out) == (0, "04112233 -> dice-tray:die:green\n"), err


def test_bad_input_is_named(capsys, db):
    code, _, err = run(capsys, "tags", "enroll", "--as", "dice-tray:die:red", "--uid", "04A1B2", "--db", db)
    assert code == 2 and "3 bytes" in err
    code, _, err = run(capsys, "tags", "enroll", "--as", "Red Die", "--uid", "04A1B2C3", "--db", db)
    assert code == 2 and "lower-case words" in err
    code, _, err = run(capsys, "tags", "enroll", "--as", "nosuchgame:hero:x", "--uid", "04A1B2C3", "--db", db)
    assert code == 2 and "unknown game 'nosuchgame'" in err and "--force" in err
    code, _, err = run(capsys, "tags", "enroll", "--as", "dice-tray:die:red", "--db", db)
    assert code == 2 and "--uid" in err


class CatalogueGame:
    name, aliases, title = "catalogued", (), "Catalogued"

    def objects(self):
        return ["catalogued:hero:rochon", "catalogued:hero:roland", "catalogued:power:fiery-purge"]


def test_catalogue_offers_close_matches(monkeypatch):
    import arena_table.table.tokens as tokens

    monkeypatch.setattr(tokens, "find_game", lambda name: CatalogueGame())
    assert check_catalogue("catalogued:hero:rochon") is None
    why = check_catalogue("catalogued:hero:rochn")
    assert why.startswith("'catalogued:hero:rochn' is not in the catalogued catalogue; did you mean "
                          "catalogued:hero:rochon")
    assert "tags objects catalogued` (3 objects)" in check_catalogue("catalogued:zzz:qqq")


def test_a_game_without_catalogue_accepts_any_wellformed_name():
    assert check_catalogue("dice-tray:die:anything") is None


@pytest.mark.parametrize("uid,why", [("", "error: empty UID ''\n"), ("zz", "error: UID 'zz' is not hex\n"),
                                     ("04A1B2", "error: UID '04A1B2' is 3 bytes; tags have 4, 7 or 10\n")])
def test_enroll_sim_refuses_an_empty_or_bad_uid_instead_of_making_one_up(capsys, db, tmp_path, uid, why):
    assert run(capsys, "tags", "enroll", "--as", "dice-tray:die:red", "--sim", "--uid", uid, "--db", db) == (2, "", why)
    assert not (tmp_path / "table").exists()


def test_enroll_on_a_missing_port_fails_at_once(capsys, db, monkeypatch):
    import arena_table.hardware.reader as reader

    def never(*a, **k):
        raise AssertionError("the reader was opened (and the tap awaited) for a port that does not exist")

    monkeypatch.setattr(reader, "SerialTokenReader", never)
    code, out, err = run(capsys, "tags", "enroll", "--as", "dice-tray:die:red", "--port", "/dev/nonexistent",
                         "--db", db, "--timeout", "30")
    assert (code, out, err) == (2, "", "error: no such port /dev/nonexistent (is the token reader plugged in?)\n")
    code, _, err = run(capsys, "tags", "enroll", "--as", "dice-tray:die:red", "--port", "usb:zz:1", "--db", db)
    assert (code, err) == (2, "error: port spec 'usb:zz:1': want usb:VID:PID[:SERIAL] with hex ids\n")


def test_reading_the_registry_creates_no_file(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "tags", "list") == (0, "no tags enrolled yet (no registry at var/tags.db)\n", "")
    assert run(capsys, "tags", "list", "--json") == (0, "[]\n", "")
    assert run(capsys, "tags", "forget", "04:a1:b2:c3") == (
        1, "", "error: 04A1B2C3 is not enrolled: no tags enrolled yet (no registry at var/tags.db)\n")
    assert list(tmp_path.iterdir()) == []


def test_a_second_uid_for_one_object_is_noted(capsys, db):
    """A new user's audit: four UIDs came to stand for one hero without a word."""
    assert run(capsys, "tags", "enroll", "--as", "dice-tray:die:red", "--uid", "04A1B2C3", "--db", db)[0] == 0
    code, out, err = run(capsys, "tags", "enroll", "--as", "dice-tray:die:red", "--uid", "04A1B2C4", "--db", db)
    assert (code, out) == (0, "04A1B2C4 -> dice-tray:die:red\n")
    assert err == ("note: dice-tray:die:red is also bound to 04A1B2C3; if that tag is gone: "
                   "arena-table tags forget 04A1B2C3\n")
