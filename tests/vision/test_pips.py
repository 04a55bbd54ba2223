"""The classical pip check (``pips.inspect_face``) on small rendered dice: layout, rim blobs, shape."""

import numpy as np
import pytest

from arena_table.vision.pips import PipConfig, inspect_face, skew
from arena_table.vision.render import DieSpec, TableSpec, render_table

SIDE = 34.0
FELT = (70, 110, 60)


def one_die(angle=0.0, **kw):
    spec = TableSpec(160, 160, dice=(DieSpec(kw.pop("value", 5), (80.0, 80.0), SIDE, angle, **kw),), background=FELT)
    return render_table(spec, np.random.default_rng(0))[0]


@pytest.mark.parametrize("angle", [0.0, 30.0, 45.0])
@pytest.mark.parametrize("value", [4, 5, 6])
def test_flat_die_fits_its_layout_and_is_square(value, angle):
    # The detector reports the side of the die's axis-aligned box (x1.0..1.41 the die's own side):
    # the searched disc then reaches past the face onto the table; those blobs must not count.
    box_side = SIDE * (abs(np.cos(np.radians(angle))) + abs(np.sin(np.radians(angle))))
    check = inspect_face(PipConfig(), one_die(angle, value=value), 80.0, 80.0, box_side, value)
    assert (check.status, check.pips, check.grid) == ("ok", value, True)
    assert skew(check.shape) < 1.15


def test_wrong_value_does_not_fit():
    # Four clean pips in a square are no 3 (the classifier's guess is checked, not trusted).
    check = inspect_face(PipConfig(), one_die(value=4), 80.0, 80.0, SIDE, 3)
    assert check.status != "ok" or check.shape is None


def test_seven_clean_pips_are_not_a_face():
    q = 0.27
    seven = ((-q, -q), (q, -q), (-q, 0.0), (0.0, 0.0), (q, 0.0), (-q, q), (q, q))
    check = inspect_face(PipConfig(), one_die(value=6, pips=seven), 80.0, 80.0, SIDE, 6)
    assert check.status == "invalid" and check.pips == 7


def test_tilted_face_has_a_skewed_shape():
    # A face tilted 55 degrees away from the camera is foreshortened by cos(55) = 0.57.
    check = inspect_face(PipConfig(), one_die(value=5, tilt=55.0), 80.0, 80.0 - 0.0, SIDE, 5)
    assert check.shape is not None and skew(check.shape) > 1.45
