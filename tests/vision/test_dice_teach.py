"""arena-table dice teach / dice eval --kind: taught kinds from YOLO folders and face folders,
stored in the data folder, refused when two faces look alike, read back by a new process."""

from __future__ import annotations

import base64
import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from cli_kit import run_cli

from arena_table.rules.kernel.mechanics.die_kinds import DieKind, Face
from arena_table.table import taught_kinds
from arena_table.vision.kind_render import render_frame
from arena_table.vision.labels import dice_set_dir
from arena_table.vision.teach_shots import teaching_photos, yolo_faces, yolo_photos

REPO = Path(__file__).resolve().parents[2]
MATTEO_CLASSES = "0=1,1=2,2=3,3=4,4=5,5=6"
"""matteo_d6's class map (its SOURCE.md: YOLO class k -> face k+1)."""


def _write_faces(root: Path, faces: list[str], seeds: range, n: int = 3) -> int:
    """A ``root/<face>/`` folder: one rendered tray photo per seed, every die of it showing the
    face (a kind whose only face is that symbol, drawn by kind_render); the number of dice drawn."""
    drawn = 0
    for face in faces:
        (root / face).mkdir(parents=True, exist_ok=True)
        only = DieKind("glyph-test", "glyph", (Face(face, face), Face(face, face)))
        for seed in seeds:
            frame, truth = render_frame([only], seed, n=n)
            cv2.imwrite(str(root / face / f"tray{seed:02d}.png"), frame)
            drawn += len(truth)
    return drawn


def test_teach_faces_on_rendered_photos_reads_new_renders(tmp_path, capsys):
    faces = ["lightning", "skull", "spade", "sword"]  # kind_icons' drawings, on a kind no other test uses
    _write_faces(tmp_path / "teach", faces, range(3))
    data = tmp_path / "data"
    assert run_cli(["dice", "teach", "glyph-test", "--faces", str(tmp_path / "teach"), "--data-dir", str(data),
                    "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["kind"] == "glyph-test" and rep["base"] is None and rep["faces"] == rep["kind_faces"] == faces
    assert sum(rep["shots"].values()) == rep["held_back"] == np.sum(rep["confusion"])
    assert rep["accuracy"] == pytest.approx(np.trace(rep["confusion"]) / rep["held_back"])
    assert (data / "taught-glyph-test.json").stat().st_mode & 0o777 == 0o600
    _write_faces(tmp_path / "new", faces, range(100, 106))
    assert run_cli(["dice", "eval", str(tmp_path / "new"), "--kind", "glyph-test", "--data-dir", str(data),
                    "--json"]) == 0
    m = json.loads(capsys.readouterr().out)
    assert m["images"] == 24
    assert m["dice_true"] >= 60  # of 72 drawn: the dice the locator finds are the faces folder's truth
    assert m["per_die_accuracy"] >= 0.98 and m["precision"] >= 0.98
    assert m["per_die_accuracy"] == m["matched"] / m["dice_true"]
    assert set(m["per_face_recall"]) >= set(faces)


def test_two_faces_that_look_alike_are_refused_by_name(tmp_path, capsys):
    # kind_icons draws "burn" and "flame" alike (a flame): nothing tells them apart
    _write_faces(tmp_path / "teach", ["burn", "flame", "sword"], range(3))
    code = run_cli(["dice", "teach", "twin-test", "--faces", str(tmp_path / "teach"), "--data-dir",
                    str(tmp_path / "data")])
    err = capsys.readouterr().err
    assert code == 1
    assert "faces 'burn' and 'flame' cannot be told apart" in err
    assert not (tmp_path / "data" / "taught-twin-test.json").exists()


def test_bad_teaching_input_is_named(tmp_path, capsys):
    _write_faces(tmp_path / "teach", ["logo", "sword"], range(2), n=2)
    assert run_cli(["dice", "teach", "d6", "--faces", str(tmp_path / "teach"), "--data-dir", str(tmp_path)]) == 1
    assert "a d6 die has no face logo, sword; its faces: 1, 2, 3, 4, 5, 6" in capsys.readouterr().err
    assert run_cli(["dice", "teach", "x-d6", "--yolo", str(tmp_path)]) == 1
    assert "--yolo needs --classes" in capsys.readouterr().err
    assert run_cli(["dice", "teach", "x-d6", "--yolo", str(tmp_path), "--classes", "0=1,0=2"]) == 1
    assert "class 0 is given twice" in capsys.readouterr().err
    assert run_cli(["dice", "eval", str(tmp_path / "teach"), "--kind", "never-taught", "--data-dir", str(tmp_path)]) == 1
    assert "no taught die kind 'never-taught' (taught kinds here: none)" in capsys.readouterr().err


def test_taught_kind_fills_in_a_shipped_kind_whose_faces_are_to_enter(tmp_path, capsys):
    _write_faces(tmp_path / "teach", ["2", "logo"], range(3))
    assert run_cli(["dice", "teach", "licensed-d6", "--faces", str(tmp_path / "teach"), "--data-dir",
                    str(tmp_path / "data"), "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["base"] == "licensed-d6" and rep["kind_faces"] == ["logo", "2", "3", "4", "5", "6"]
    assert rep["faces"] == ["2", "logo"]  # the faces the model reads (the confusion's order)
    kind = taught_kinds.load(tmp_path / "data", "licensed-d6").kind
    # the book's faces stay, the logo worth 1 as shipped; the model reads the two faces taught
    assert [(f.symbol, f.value) for f in kind.faces] == [("logo", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5), ("6", 6)]
    assert taught_kinds.load(tmp_path / "data", "licensed-d6").model.faces == ["2", "logo"]
    assert kind.to_enter == ()  # faces and look taught
    # the body colours of the shots: kind_render's ivory, lit as it draws it; not a dark or a blue die
    assert kind.look.holds(kind.look.colour) and 10 <= kind.look.colour[0] <= 30
    assert not kind.look.holds((20, 40, 60)) and not kind.look.holds((110, 200, 180))
    # faces that are not among the placeholders replace them
    other, base = taught_kinds.kind_for("licensed-d6", ["1", "2", "logo"])
    assert base == "licensed-d6" and [(f.symbol, f.value) for f in other.faces] == [("1", 1), ("2", 2), ("logo", 1)]


def test_stored_kind_survives_a_restart_and_an_unreadable_model(tmp_path, capsys, caplog):
    _write_faces(tmp_path / "teach", ["skull", "spade", "sword"], range(3))
    data = tmp_path / "data"
    assert run_cli(["dice", "teach", "glyph-test", "--faces", str(tmp_path / "teach"), "--data-dir", str(data)]) == 0
    capsys.readouterr()
    # a new process reads the stored kind and scores its own teaching photos with it
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-m", "arena_table.cli", "dice", "eval", str(tmp_path / "teach"),
                          "--kind", "glyph-test", "--data-dir", str(data), "--json"],
                         capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 1, out.stderr  # every photo was taught from: nothing left to score
    assert "no photo could be scored" in out.stderr
    left = json.loads(out.stdout)
    assert left["left_out_taught"] == 9
    assert left["left_out_taught_photos"] == sorted(f"{f}/tray{k:02d}.png" for f in ("skull", "spade", "sword")
                                                    for k in range(3))
    # an upgrade whose face model cannot read the stored one: taught again from the stored shots
    path = data / "taught-glyph-test.json"
    raw = json.loads(path.read_text())
    raw["model"] = base64.b64encode(b"a model of another version").decode()
    path.write_text(json.dumps(raw))
    again = taught_kinds.load(data, "glyph-test")
    assert f"taught again from its {len(raw['shots'])} shots" in caplog.text
    assert again.model.faces == ["skull", "spade", "sword"]
    assert again.report["confusion"] == raw["report"]["confusion"]  # the same shots, losslessly stored
    # ... and stored again, whole and private: the next load reads the model, teaching nothing
    stored = json.loads(path.read_text())
    assert stored["model"] != raw["model"] and stored["shots"] == raw["shots"]
    assert path.stat().st_mode & 0o777 == 0o600 and not (data / ".taught-glyph-test.json.tmp").exists()
    caplog.clear()
    assert taught_kinds.load(data, "glyph-test").model.to_bytes() == again.model.to_bytes()
    assert "taught again" not in caplog.text
    # a folder a running table holds is left to it (it stores the kind when it loads it)
    path.write_text(json.dumps(raw))
    holder = subprocess.Popen([sys.executable, "-c", "import time; from pathlib import Path\n"
                               "from arena_table.table.data_dir import take_lock\n"
                               f"lock = take_lock(Path({str(data / '.arena-table.lock')!r}), 'busy')\n"
                               "print('held', flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert holder.stdout.readline().strip() == "held"
        taught_kinds.load(data, "glyph-test")
        assert json.loads(path.read_text())["model"] == raw["model"]
    finally:
        holder.kill()
        holder.wait()
    # a file of a later format is refused with its number
    path.write_text(json.dumps(dict(raw, format=taught_kinds.FORMAT + 1)))
    kinds, problems = taught_kinds.load_all(data)
    assert kinds == [] and problems == [f"{path}: written in taught-kind format {taught_kinds.FORMAT + 1} by a "
                                        f"later arena-table; this one reads format {taught_kinds.FORMAT}"]


@pytest.mark.shared
@pytest.mark.slow
def test_teach_matteo_from_its_yolo_boxes_and_read_the_other_photos(tmp_path, capsys):
    root = dice_set_dir("matteo_d6")
    if not (root / "labels.csv").is_file():
        pytest.skip(f"labelled photos not found at {root} (clone the repo beside ../shared)")
    classes = {k: str(k + 1) for k in range(6)}
    photos = yolo_photos(root)
    chosen = teaching_photos([(str(p), yolo_faces(p, classes)) for p in photos], 5)
    boxes = {f: 0 for f in "123456"}
    for p in chosen:
        for line in Path(p.replace("/images/", "/labels_yolo/").rsplit(".", 1)[0] + ".txt").read_text().split("\n"):
            if line.strip():
                boxes[str(int(line.split()[0]) + 1)] += 1
    data = tmp_path / "data"
    assert run_cli(["dice", "teach", "matteo-ivory", "--yolo", str(root), "--classes", MATTEO_CLASSES,
                    "--photos-per-face", "5", "--data-dir", str(data), "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["photos"] == len(chosen) and rep["shots"] == boxes
    assert rep["held_back"] == sum(boxes.values()) == np.sum(rep["confusion"])
    assert np.sum(rep["confusion"], axis=1).tolist() == list(boxes.values())
    # read every 3rd photo of the others (the whole folder's figures: docs/figures.md), in a folder of its own
    with open(root / "labels.csv", newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if str(root / r["image"]) not in chosen][::3]
    sub = tmp_path / "held_out"
    (sub / "images").mkdir(parents=True)
    (sub / "labels_yolo").mkdir()
    for r in rows:
        stem = Path(r["image"]).stem
        (sub / r["image"]).symlink_to(root / r["image"])
        (sub / "labels_yolo" / f"{stem}.txt").symlink_to(root / "labels_yolo" / f"{stem}.txt")
    (sub / "labels.csv").write_text("image,values\n" + "".join(f"{r['image']},{r['values']}\n" for r in rows))
    assert run_cli(["dice", "eval", str(sub), "--kind", "matteo-ivory", "--data-dir", str(data), "--json"]) == 0
    m = json.loads(capsys.readouterr().out)
    assert m["left_out_taught"] == 0 and m["images"] == len(rows)
    assert m["dice_true"] == sum(len(r["values"].split()) for r in rows)
    assert sum(sum(row.values()) for row in m["confusion"].values()) == m["dice_true"]  # each box once
    assert m["boxes_ignored"] == []
    # the targets, as the table reads dice (the whole folder: 0.991 / 1.000, docs/figures.md)
    assert m["per_die_accuracy"] >= 0.98 and m["precision"] >= 0.995


def test_eval_reads_a_labels_csv_of_named_faces_with_yolo_boxes(tmp_path, capsys):
    faces = ["lightning", "skull", "spade", "sword"]
    _write_faces(tmp_path / "teach", faces, range(3))
    data = tmp_path / "data"
    assert run_cli(["dice", "teach", "glyph-test", "--faces", str(tmp_path / "teach"), "--data-dir", str(data)]) == 0
    capsys.readouterr()
    # a set as ../shared/data/dice lays it out: images/, labels.csv (faces by name), labels_yolo/ (class -> face)
    kind = DieKind("glyph-test", "glyph", tuple(Face(f, f) for f in faces))
    sub = tmp_path / "set"
    (sub / "images").mkdir(parents=True)
    (sub / "labels_yolo").mkdir()
    rows = []
    for seed in range(50, 56):
        frame, truth = render_frame([kind], seed, n=4)
        cv2.imwrite(str(sub / "images" / f"s{seed}.png"), frame)
        h, w = frame.shape[:2]
        (sub / "labels_yolo" / f"s{seed}.txt").write_text("".join(
            f"{faces.index(t.face)} {t.centre[0] / w} {t.centre[1] / h} {t.side / w} {t.side / h}\n" for t in truth))
        rows.append(f"images/s{seed}.png,{' '.join(t.face for t in truth)}\n")
    (sub / "labels.csv").write_text("image,values\n" + "".join(rows))
    classes = ",".join(f"{k}={f}" for k, f in enumerate(faces))
    assert run_cli(["dice", "eval", str(sub), "--kind", "glyph-test", "--classes", classes, "--data-dir", str(data),
                    "--json"]) == 0
    m = json.loads(capsys.readouterr().out)
    assert m["images"] == 6 and m["dice_true"] == 24 and m["boxes_ignored"] == []
    assert sorted(m["confusion"]) == faces and sum(sum(r.values()) for r in m["confusion"].values()) == 24
    assert m["per_die_accuracy"] >= 0.9 and m["precision"] >= 0.98
    # without --classes, class k is face k+1, and the boxes hold other faces than labels.csv
    assert run_cli(["dice", "eval", str(sub), "--kind", "glyph-test", "--data-dir", str(data), "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["boxes_ignored"]) == 6
