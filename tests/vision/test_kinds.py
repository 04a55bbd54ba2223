"""Kind recognition on rendered die-kind frames (kind_icons, kind_render, kind_sets, kinds).

Figures are on rendered dice from test seeds (``kind_sets.TEST_SEED`` and above); the kind face
model was trained on seeds below 100 000.
"""

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

import arena_table.rules  # noqa: F401 - loads the games' kinds
from arena_table.rules.kernel.mechanics.die_kinds import die_kinds, find_kind
from arena_table.vision import kind_icons
from arena_table.vision.kind_render import body_bgr, face_image, place_die, render_frame, tray
from arena_table.vision.kind_sets import TEST_SEED, drawable, glyphs, scene_plan
from arena_table.vision.kinds import read_kinds
from arena_table.vision.poly_render import is_poly

ROOT = Path(__file__).resolve().parents[2]


def _match(readings, die):
    cx, cy = die.centre
    return [r for r in readings if r.box[0] <= cx <= r.box[0] + r.box[2] and r.box[1] <= cy <= r.box[1] + r.box[3]]


def test_every_drawable_kind_has_a_drawing_for_each_face_and_its_faces_differ():
    kinds = [k for k in die_kinds() if drawable(k) and not k.look.style and not is_poly(k)]
    assert len(kinds) == 20  # every shipped kind but the three d4s (vision/d4_render) and d8-d20 (poly_render)
    assert {k.id for k in die_kinds() if drawable(k) and k.look.style} == {"d4", "d4-edge", "theosis-d4"}
    assert {k.id for k in die_kinds() if drawable(k) and is_poly(k)} == {"d8", "d10", "d12", "d20"}
    for k in kinds:
        assert all(kind_icons.known(g) for g in glyphs(k)), k.id
        assert len(glyphs(k)) == len(k.symbols), k.id
    with pytest.raises(ValueError, match="no drawing for die face glyph 'unicorn'"):
        kind_icons.draw_glyph("unicorn", (0, 0, 0), (255, 255, 255), 32)


def test_a_game_s_scene_leaves_out_twins_and_the_tray_judges_the_two_pip_d6_together():
    dg = scene_plan("demigods")
    assert ("euthia-monster", "demigods-fire") in dg.left_out  # both red with numerals 2, 1, -1
    assert "sns-red" in [k.id for k in dg.others]  # red too, but its faces differ
    tray_plan = scene_plan(None)
    assert [k.id for k in tray_plan.kinds] == ["d10", "d12", "d20", "d4", "d4-edge", "d6", "d8", "licensed-d6"]
    # the d8-d20 share numerals with each other but not a shape: never judged together
    assert tray_plan.together == (("d6", "licensed-d6", ("pips-2", "pips-3", "pips-4", "pips-5", "pips-6")),)
    assert scene_plan(None).not_drawn == ()
    assert scene_plan("theosis").together == (("theosis-d4", "d4", tuple(f"top-vertex-{n}" for n in "1234")),)


def test_demigods_scene_dice_are_read_by_kind_and_face():
    every = die_kinds()
    kinds = list(die_kinds("demigods"))
    right = total = 0
    for seed in range(TEST_SEED + 7000, TEST_SEED + 7006):
        frame, truth = render_frame(kinds, seed, n=10)
        got = read_kinds(frame, every, game="demigods")
        for die in truth:
            m = _match(got, die)
            total += 1
            right += bool(m) and (m[0].kind, m[0].face) == (die.kind, die.face)
    assert total == 60
    assert right >= 59  # measured 60/60


def test_sns_red_and_blue_told_apart_and_read():
    kinds = [find_kind("sns-red"), find_kind("sns-blue")]
    right = total = 0
    for seed in range(TEST_SEED + 8000, TEST_SEED + 8006):
        frame, truth = render_frame(kinds, seed, n=8)
        got = read_kinds(frame, kinds, game="sword-and-sorcery")
        for die in truth:
            m = _match(got, die)
            total += 1
            right += bool(m) and (m[0].kind, m[0].face) == (die.kind, die.face)
    assert total == 48
    assert right >= 47  # measured 48/48


def test_die_of_a_kind_the_game_does_not_use_is_other_kind():
    # a Demigods fire die is red like the Sword & Sorcery red die, but its faces are not the red die's
    fire = find_kind("demigods-fire")
    statuses = []
    for seed in range(TEST_SEED + 9000, TEST_SEED + 9004):
        frame, _ = render_frame([fire], seed=seed, n=3)
        got = read_kinds(frame, die_kinds(), game="sword-and-sorcery")
        statuses += [r.status for r in got]
        assert all(r.kind is None for r in got)
    assert len(statuses) == 12
    assert set(statuses) == {"other-kind"}


@pytest.mark.parametrize("kind_id, symbol", [("euthia-hero", "6"), ("demigods-divine-mana", "4"),
                                             ("theosis-skullduggery", "sword"), ("sns-blue", "shield+gate1"),
                                             ("licensed-d6", "logo"), ("demigods-piercing", "-3")])
def test_a_face_reads_the_same_however_the_die_lies(kind_id, symbol):
    kind = find_kind(kind_id)
    rng = np.random.default_rng(5)
    reads = []
    for angle in range(0, 360, 30):
        frame = tray(rng, (200, 200), [body_bgr(kind)])
        place_die(frame, face_image(kind, symbol, 70), (100, 100), float(angle))
        reads += [(r.kind, r.face) for r in read_kinds(np.clip(frame, 0, 255).astype(np.uint8), die_kinds(),
                                                       game=(kind.games or (None,))[0])]
    assert reads == [(kind.id, symbol)] * 12


def test_render_script_writes_frames_and_labels(tmp_path):
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import render_die_kinds
    finally:
        sys.path.pop(0)
    assert render_die_kinds.main([str(tmp_path), "--frames", "1"]) == 0
    labels = json.loads((tmp_path / "labels.json").read_text())
    assert labels["seed"] == TEST_SEED and set(labels["scenes"]) == {
        "theosis", "demigods", "sword-and-sorcery", "euthia", "tray"}
    demigods = labels["scenes"]["demigods"]
    assert len(demigods["frames"]) == 1 and len(demigods["frames"][0]["dice"]) == 10
    assert sum(d["other"] for d in demigods["frames"][0]["dice"]) == 2
    frame = cv2.imread(str(tmp_path / demigods["frames"][0]["file"]))
    assert frame.shape == (480, 640, 3)


def test_bad_frame_is_refused():
    with pytest.raises(ValueError, match="HxWx3 uint8"):
        read_kinds(np.zeros((10, 10), np.uint8), [find_kind("d6")])


def test_a_grey_die_with_white_ink_is_no_ivory_die_with_black_ink():
    # Demigods' grey slashing die (white ink) is light enough for Euthia's ivory hero die's range
    # (both show numerals 2, 1): the ink, light on the grey die, tells it is no hero die
    slashing, hero = find_kind("demigods-slashing"), find_kind("euthia-hero")
    assert hero.look.holds(slashing.look.colour)
    statuses = []
    for seed in range(TEST_SEED + 9100, TEST_SEED + 9104):
        frame, truth = render_frame([slashing], seed, n=4)
        got = read_kinds(frame, die_kinds(), game="euthia")
        statuses += [r.status for r in got]
    assert statuses == ["other-kind"] * 16


def test_a_die_the_frame_cuts_and_a_small_blot_are_not_dice():
    kind = find_kind("sns-blue")
    rng = np.random.default_rng(3)
    frame = tray(rng, (240, 480), [body_bgr(kind)])
    for x in (60, 180, 300):
        place_die(frame, face_image(kind, "shield", 70), (x, 120), 20.0)
    place_die(frame, face_image(kind, "shield", 70), (470, 120), 0.0)  # half out of the frame
    place_die(frame, face_image(kind, "blank+gate1", 22), (400, 40), 0.0)  # a blot a tenth of a die's area
    got = read_kinds(np.clip(frame, 0, 255).astype(np.uint8), [kind])
    assert [(r.kind, r.face) for r in got] == [("sns-blue", "shield")] * 3
