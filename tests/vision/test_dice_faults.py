"""One test per fault kind, each on a small rendered frame: the right value or the right refusal.

Tests marked ``xfail(strict=True)`` are known failures of the current models: they assert the
wanted behaviour and will fail loudly once it works, so the mark must then be removed.
"""

import numpy as np
import pytest

from arena_table.vision.dice import DiceConfig, read_dice
from arena_table.vision.render import DieSpec, TableSpec, render_table

W, H, SIDE = 640, 480, 34.0
WHITE, BLACK, RED = (235, 240, 240), (25, 25, 25), (40, 40, 200)
FELT = (70, 110, 60)


def frame_of(*dice, seed=0, **table):
    spec = TableSpec(W, H, dice=tuple(dice), background=table.pop("background", FELT), **table)
    return render_table(spec, np.random.default_rng(seed))[0]


def die(value, x=320.0, y=240.0, angle=17.0, **kw):
    return DieSpec(value, (x, y), SIDE, angle, **kw)


def read(frame, **cfg):
    return read_dice(DiceConfig(**cfg), frame)


def only(reading):
    assert len(reading.dice) == 1, reading
    return reading.dice[0]


@pytest.mark.parametrize("value", range(1, 7))
def test_each_face_white_on_black(value):
    d = only(read(frame_of(die(value, body=BLACK, pip=(240, 240, 240)))))
    assert (d.status, d.value) == ("ok", value)
    assert abs(d.center[0] - 320) < 5 and abs(d.center[1] - 240) < 5


def test_glare_on_a_pip_keeps_the_value():
    # A specular highlight sitting on one pip of a 5: the pip must still count.
    d = only(read(frame_of(die(5, body=WHITE, pip=BLACK, glare=(0.27, 0.27, 0.22)))))
    assert (d.status, d.value) == ("ok", 5)


@pytest.mark.xfail(strict=True, reason="known limitation: the classifier reads a glare spot in the middle of a red 4 as the centre pip of a 5")
def test_glare_on_a_red_face_adds_no_pip():
    # On a red die with white pips a glare spot looks like one more pip.
    d = only(read(frame_of(die(4, body=RED, pip=(245, 245, 245), glare=(0.0, 0.0, 0.2)))))
    assert (d.status, d.value) == ("ok", 4)


def test_two_touching_dice_2_and_5():
    a = die(2, x=302.0, angle=0.0)
    b = die(5, x=302.0 + SIDE * 1.01, angle=0.0)
    r = read(frame_of(a, b))
    assert sorted(r.values) == [2, 5] and len(r.dice) == 2


def test_six_with_nearly_merged_rows():
    d = only(read(frame_of(die(6, body=WHITE, pip=BLACK, pip_offset=0.24, pip_radius=0.105))))
    assert (d.status, d.value) == ("ok", 6)


def test_white_pips_on_red():
    assert read(frame_of(die(3, body=RED, pip=(245, 245, 245)))).values == (3,)


def test_red_pips_on_white():
    assert read(frame_of(die(4, body=WHITE, pip=RED), background=(40, 40, 40))).values == (4,)


@pytest.mark.parametrize("exposure", [0.6, 1.4])
def test_forty_percent_darker_or_brighter(exposure):
    dice = [die(v, x=120.0 + 80 * i, y=240.0 + (i % 2) * 50, angle=13.0 * i, body=b, pip=p)
            for i, (v, b, p) in enumerate([(1, WHITE, BLACK), (2, RED, WHITE), (3, BLACK, WHITE),
                                           (4, (60, 160, 40), WHITE), (5, (40, 200, 230), BLACK),
                                           (6, WHITE, RED)])]
    assert sorted(read(frame_of(*dice, exposure=exposure)).values) == [1, 2, 3, 4, 5, 6]


def test_colour_cast():
    dice = [die(5, x=220.0, body=WHITE, pip=BLACK), die(2, x=420.0, body=RED, pip=WHITE)]
    assert sorted(read(frame_of(*dice, cast=(1.35, 1.0, 0.65))).values) == [2, 5]


def test_cocked_die_is_refused():
    # A die leaning at 50 degrees among flat dice: its top face is foreshortened against theirs.
    flat = [die(v, x=x, y=y, angle=a, body=WHITE, pip=BLACK)
            for v, x, y, a in [(4, 160.0, 160.0, 10.0), (5, 480.0, 160.0, 35.0), (6, 160.0, 340.0, 60.0)]]
    r = read(frame_of(*flat, die(5, x=440.0, y=330.0, tilt=50.0, body=WHITE, pip=BLACK)))
    leaning = min(r.dice, key=lambda d: abs(d.center[0] - 440) + abs(d.center[1] - 330))
    assert leaning.status == "cocked" and leaning.value is None and "square" in leaning.reason
    assert sorted(r.values) == [4, 5, 6]


def test_die_cut_by_the_border_is_partial():
    d = only(read(frame_of(die(4, x=W - 8.0, angle=0.0))))
    assert d.status == "partial" and d.value is None


@pytest.mark.parametrize("gap", [3.0, 6.0])
def test_die_just_inside_the_border_is_read(gap):
    # The whole die is in the frame, a few pixels from its edge: nothing is cut, so it is read.
    # (At 1 px the detector's box is pulled across the edge and the die is called partial.)
    d = only(read(frame_of(die(4, x=W - SIDE / 2 - gap, angle=0.0))))
    assert (d.status, d.value) == ("ok", 4)


def test_seven_pips_is_not_a_face():
    q = 0.27
    seven = ((-q, -q), (q, -q), (-q, 0.0), (0.0, 0.0), (q, 0.0), (-q, q), (q, q))
    d = only(read(frame_of(die(6, pips=seven, angle=0.0, body=WHITE, pip=BLACK))))
    assert d.status == "unreadable" and d.value is None


def test_low_confidence_becomes_unreadable():
    f = frame_of(die(3, body=WHITE, pip=BLACK))
    assert read(f).dice[0].status == "ok"
    d = only(read(f, min_confidence=1.01))
    assert d.status == "unreadable" and d.value is None and d.confidence <= 1.0


def test_empty_table_reads_nothing():
    assert read(frame_of()).dice == ()


def test_bad_frame_is_rejected():
    with pytest.raises(ValueError):
        read_dice(DiceConfig(), np.zeros((10, 10), np.uint8))


def test_reading_is_pure():
    f = frame_of(die(2), die(6, x=100.0))
    before = f.copy()
    assert read(f) == read(f)
    assert np.array_equal(f, before)


def test_logo_face_is_unreadable_unless_configured():
    # A maker's logo instead of pips: one big mark in the middle of the face.
    f = frame_of(die(1, pips=((0.0, 0.0),), pip_radius=0.26, body=WHITE, pip=RED))
    d = only(read(f))
    assert d.status == "unreadable" and "logo" in d.reason
    d = only(read(f, logo_faces={"logo": 1}))
    assert (d.status, d.value) == ("ok", 1)



def test_simulated_table_reads_its_throws():
    # The make-run sim (touching dice, glare, red pips on white): at the small-dice scale a single
    # red pip on white looks like a logo die and must lose to the die around it (before: 70 of
    # 218 dice refused as "logo face", accuracy 0.78; measured after: 9 such refusals, 0.91).
    from collections import Counter

    from arena_table.vision.sim import SimTable

    total = matched = wrong = 0
    reasons = Counter()
    for seed in range(3):
        sim = SimTable(seed=seed)
        for throw in sim.throws_until(120)[:-1]:
            t = throw.settled + 0.5
            truth = [d.value for d, _ in sim.state_at(t)[0]]
            r = read(sim.render(t))
            hit = sum((Counter(truth) & Counter(r.values)).values())
            total, matched, wrong = total + len(truth), matched + hit, wrong + len(r.values) - hit
            reasons.update(d.reason.split(" (")[0] for d in r.dice if d.status != "ok")
    assert total > 150
    assert reasons["logo face"] <= 0.06 * total, reasons
    assert matched / total >= 0.88 and wrong / total <= 0.04, (matched, wrong, total, reasons)


def test_part_of_a_large_clear_die_is_not_a_die_of_its_own():
    # Hand-made candidates (score, cx, cy, side, parent): a 60 px die read as a clear 3, a 30 px
    # peak at its centre (half of its face, which looks like a 2) and a 30 px die beside it.
    from arena_table.vision.candidates import inside_larger

    def probs(face, p):
        out = np.full(8, (1.0 - p) / 7, np.float32)
        out[face] = p
        return out

    cands = [(0.9, 100.0, 100.0, 60.0, -1), (0.95, 104.0, 98.0, 30.0, -1), (0.9, 160.0, 100.0, 30.0, -1)]
    cfg = DiceConfig()
    assert inside_larger(cfg, cands, [probs(3, 0.97), probs(2, 0.97), probs(5, 0.97)]) == {1}
    # an unsure large reading does not overrule the small one
    assert inside_larger(cfg, cands, [probs(3, 0.7), probs(2, 0.97), probs(5, 0.97)]) == set()


def test_die_far_off_the_typical_size_is_read_again_at_it():
    # Three 34 px dice, two read sure; two hand-made unsure candidates: a 12 px "die" on the bare
    # felt (a side face or pip group seen at too small a scale) and the 4 at (420, 240) sized 80 px.
    # Read again from a crop at the typical side (34 px), the first is no die and is refused, the
    # second reads 4; both keep their own side. Candidates within size_check_ratio are untouched.
    from arena_table.vision import nets
    from arena_table.vision.dice import _crops, _size_check
    from arena_table.vision.nets import face_probs as _face_probs

    frame = frame_of(die(2, x=220.0), die(6, x=320.0), die(4, x=420.0))
    sure = [(0.9, x, 240.0, SIDE) for x in (220.0, 320.0)]
    probs = list(nets.classify(_crops(frame, sure)))
    assert [_face_probs(p)[:1] for p in probs] == [(2,), (6,)] and min(_face_probs(p)[1] for p in probs) >= 0.9
    unsure = np.full(8, 0.1, np.float32)
    unsure[4] = 0.3
    kept = list(zip(sure, probs)) + [((0.5, 320.0, 380.0, 12.0), unsure), ((0.5, 420.0, 240.0, 80.0), unsure)]
    out, refused = _size_check(DiceConfig(), frame, kept)
    assert [c for c, _ in out] == [c for c, _ in kept] and refused == {2}
    assert _face_probs(out[3][1])[0] == 4 and out[3][1][0] < 0.5
    assert _size_check(DiceConfig(size_check_ratio=0), frame, kept) == (kept, set())
    near = [((0.5, 420.0, 240.0, 1.5 * SIDE), unsure)]  # within the ratio: left as it is
    assert _size_check(DiceConfig(), frame, kept[:2] + near) == (kept[:2] + near, set())


def test_unsure_die_of_another_size_is_refused_not_dropped():
    # A mixed set: three 34 px dice read sure and a 100 px die with a glare streak over its face
    # that the classifier is unsure of (best face about 0.65). The size check reads it again at the
    # small dice' side, where its centre is no die, and refuses it (the roll is held back); it never
    # drops it (a wrong total recorded) and never reads it wrong.
    # The refusal turns on the average of the two readings' "no die" (0.53 in float and in 8 bits
    # with exact integer dot products, VNNI or ARM; see docs/vision.md on 8-bit numerics), so a die
    # read right instead passes too; the refusal itself is pinned with hand-made probabilities in
    # test_die_far_off_the_typical_size_is_read_again_at_it.
    dice = [die(v, x=120.0 + 110 * i, y=120.0) for i, v in enumerate((3, 5, 6))]
    big = DieSpec(6, (320.0, 330.0), 100.0, 10.0, body=(60, 140, 60), pip=WHITE, glare=(-0.05, 0.05, 0.35))
    frame = frame_of(*dice, big)
    r = read(frame)
    assert len(r.dice) == 4, r
    assert sorted(d.value for d in r.dice if abs(d.center[1] - 120) < 30) == [3, 5, 6], r
    at_big = [d for d in r.dice if abs(d.center[1] - 330) < 40]
    assert [(d.status, d.reason.split(" (")[0]) for d in at_big] in (
        [("unreadable", "size unlike the other dice")], [("ok", "")]), r
    assert at_big[0].value in (None, 6)
    # without the size check the big die is read (6 at about 0.65): for a mixed set, set it to 0
    assert sorted(read(frame, size_check_ratio=0).values) == [3, 5, 6, 6]


def test_seam_peaks_keep_a_die_no_other_candidate_explains():
    # Hand-made peaks (score, cx, cy, side, parent) just outside their pass's size range: the one
    # at (300, 200) has no kept candidate near it and is kept (the stronger of its two passes'
    # peaks); the one at (100, 100) lies on a kept die and is dropped.
    from arena_table.vision.candidates import seam_peaks

    kept = [(0.9, 102.0, 101.0, 40.0, -1)]
    seam = [(0.8, 100.0, 100.0, 55.0, -1), (0.95, 300.0, 200.0, 55.0, -1), (0.7, 301.0, 199.0, 44.5, -1)]
    assert seam_peaks(DiceConfig(), kept, seam) == [seam[1]]
    assert seam_peaks(DiceConfig(), [], seam[2:]) == [seam[2]]


@pytest.mark.parametrize("cell", [8, 32])
def test_dice_on_a_strongly_textured_table(cell):
    # Blotches of +-35 grey levels on the cloth, 8 px (pip-sized) or 32 px (die-sized) wide.
    dice = [die(v, x=160.0 + 150 * i, y=240.0, angle=20.0 * i, body=b, pip=p)
            for i, (v, b, p) in enumerate([(2, WHITE, BLACK), (5, RED, WHITE), (6, BLACK, WHITE)])]
    for seed in range(3):
        r = read(frame_of(*dice, seed=seed, texture=35.0, texture_cell=cell))
        assert sorted(r.values) == [2, 5, 6] and len(r.dice) == 3, (seed, r)


def test_strongly_textured_empty_table_adds_few_dice():
    # 20 empty 640x480 tables per blotch size. Measured with n_face14: 5 / 0 / 0 false dice for
    # 8 / 16 / 32 px blotches; the classifier before it (trained on tables textured up to 20 grey
    # levels in 32 px blotches): 59 / 38 / 16. Pip-sized blotches of +-35 grey levels still
    # make a few "dice" (they look like pips); die-sized ones none.
    false = {}
    for cell in (8, 16, 32):
        false[cell] = sum(d.status == "ok"
                          for seed in range(20)
                          for d in read(frame_of(seed=seed, texture=35.0, texture_cell=cell,
                                                 background=[(120, 90, 60), (70, 110, 60), (200, 200, 200),
                                                             (40, 40, 40)][seed % 4])).dice)
    assert false[8] <= 8 and false[16] == 0 and false[32] == 0, false
