"""Writes arena_table/table/selftest.jpg, the photo ``arena-table doctor`` reads to test the dice model:
five d6 drawn by vision/render.py from a fixed seed (not a camera's photo), 1280x720, JPEG quality 90.

    python tools/make_selftest_photo.py   # prints the faces drawn (doctor.SELFTEST_FACES)
"""

import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT))

from arena_table.vision.render import random_table, render_table  # noqa: E402

SEED = 0


def main() -> int:
    rng = np.random.default_rng(SEED)
    image, dice = render_table(random_table(rng, width=1280, height=720, n_dice=5), rng)
    out = ROOT / "arena_table" / "table" / "selftest.jpg"
    cv2.imwrite(str(out), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    print(out, sorted(d.value for d in dice))
    return 0


if __name__ == "__main__":
    sys.exit(main())
