"""The reader's size search (arena_table/vision/size_search.py): dice smaller than the automatic range.

Rendered frames are hand-made tables of known dice; the mosaic case needs the byler photos of
../shared/data/dice (BSD-3-Clause, Nell Byler; see that set's LICENSE and SOURCE.md) and is skipped without them.
"""

import json
from collections import Counter

import cv2
import numpy as np
import pytest
from cli_kit import run_cli

from arena_table.table.camera_settings import default_reader
from arena_table.vision import size_search
from arena_table.vision.size_search import LearningReader, needs_search, read_dice_any_size
from arena_table.vision.size_search import sized_config
from arena_table.vision.dice import DiceConfig, read_dice
from arena_table.vision.dice_io import load_image
from arena_table.vision.labels import dice_set_dir, load_set
from arena_table.vision.render import DieSpec, TableSpec, random_table, render_table


def _row_of_dice(side: float, faces=(1, 2, 3, 4, 5, 6)) -> np.ndarray:
    """``faces`` in a row 160 px apart (wider apart for dice over 120 px), ``side`` px each, on a
    plain 1280x720 table."""
    step = 160.0 if side <= 120 else 1280.0 / len(faces)
    first = 310.0 if side <= 120 else step / 2
    spec = TableSpec(1280, 720, dice=tuple(DieSpec(v, (first + step * k, 300.0), side) for k, v in enumerate(faces)))
    return render_table(spec, np.random.default_rng(0))[0]


def _searches(monkeypatch) -> list:
    """Record every size search the reader starts."""
    calls = []
    real = size_search.search_die_side

    def spy(frame, cfg):
        calls.append(frame.shape)
        return real(frame, cfg)

    monkeypatch.setattr(size_search, "search_die_side", spy)
    return calls


def test_dice_below_the_automatic_range_are_read_beside_it_without_a_search(monkeypatch):
    """16 px dice at 1280x720 are read in one pass beside the automatic range (``read_beside_range``),
    not through the size search of every scale (0.2-0.7 s a frame)."""
    frame = _row_of_dice(16.0)  # 1.25 % of the long side: the automatic range starts at 3 %
    assert len(read_dice(DiceConfig(), frame).values) == 4
    searches = _searches(monkeypatch)
    assert sorted(read_dice_any_size(DiceConfig(), frame).values) == [1, 2, 3, 4, 5, 6]
    assert searches == []


def test_dice_inside_the_range_are_read_once_without_a_search(monkeypatch):
    rng = np.random.default_rng(4)
    frame, truth = render_table(random_table(rng, 1280, 720, n_dice=10), rng)
    searches = _searches(monkeypatch)
    reading = read_dice_any_size(DiceConfig(), frame)
    assert searches == []
    assert reading == read_dice(DiceConfig(), frame)
    assert sorted(reading.values) == sorted(t.value for t in truth)


def test_a_configured_die_size_is_trusted_and_never_searched(monkeypatch):
    frame = _row_of_dice(16.0)
    searches = _searches(monkeypatch)
    cfg = sized_config(60.0)  # wrong on purpose: what a calibration says is what is read
    assert read_dice_any_size(cfg, frame) == read_dice(cfg, frame)
    assert searches == []


def test_an_empty_table_is_searched_and_still_reads_no_dice(monkeypatch):
    frame = render_table(TableSpec(1280, 720, dice=()), np.random.default_rng(0))[0]
    searches = _searches(monkeypatch)
    reading = read_dice_any_size(DiceConfig(), frame)
    assert reading.dice == () and len(searches) == 1


def test_needs_search_at_either_end_of_the_range():
    small, middle = (read_dice(DiceConfig(), _row_of_dice(s)) for s in (24.0, 64.0))
    large = read_dice(DiceConfig(), _row_of_dice(200.0, faces=(2, 5, 6)))
    # the automatic range at 1280x720 is 38.4-256 px; the reader's boxes (top face, visible sides
    # and shadow) measured: 24 px dice about 45 px (within 1.3x of 38.4), 200 px dice about 220 px
    # (within 1.3x of 256), 64 px dice about 85 px
    assert needs_search(DiceConfig(), small) and needs_search(DiceConfig(), large)
    assert not needs_search(DiceConfig(), middle)
    assert not needs_search(sized_config(42.0), small)


@pytest.mark.parametrize("side", [200.0, 220.0])
def test_close_up_dice_at_the_top_of_the_range_are_read_after_a_search(side):
    """Dice of 200-220 px at 1280x720 (a close-up; the range ends at 256 px): the plain read
    finds two of three (measured), the searched one all three."""
    frame = _row_of_dice(side, faces=(1, 3, 4))
    assert len(read_dice(DiceConfig(), frame).values) < 3
    assert sorted(read_dice_any_size(DiceConfig(), frame).values) == [1, 3, 4]


def test_a_big_and_a_small_die_in_one_frame_are_both_kept():
    """A helper's case: a 240 px die and a 24 px die. The plain read finds the small one only (its
    sure die at the lower end starts the search); the search reads at the big die's size and
    found only that one, which replaced the first reading. The two readings are merged now."""
    frame = render_table(TableSpec(1280, 720, dice=(DieSpec(4, (300.0, 300.0), 240.0), DieSpec(2, (900.0, 500.0), 24.0))),
                         np.random.default_rng(0))[0]
    assert read_dice(DiceConfig(), frame).values == (2,)
    assert sorted(read_dice_any_size(DiceConfig(), frame).values) == [2, 4]


def test_the_camera_and_cli_readers_search_too(tmp_path, capsys):
    """The live camera's reader without a calibration, and ``dice read``/``dice eval`` without
    ``--die-size``, are the searching one."""
    frame = _row_of_dice(16.0)
    assert sorted(default_reader()(frame).values) == [1, 2, 3, 4, 5, 6]
    assert len(default_reader(60.0)(frame).values) < 6  # a calibration is trusted
    cv2.imwrite(str(tmp_path / "wide.png"), frame)
    (tmp_path / "labels.csv").write_text("image,values\nwide.png,1 2 3 4 5 6\n")
    assert run_cli(["dice", "read", str(tmp_path / "wide.png"), "--json"]) == 0
    assert sorted(json.loads(capsys.readouterr().out)[0]["values"]) == [1, 2, 3, 4, 5, 6]
    assert run_cli(["dice", "eval", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["per_die_accuracy"] == 1.0


@pytest.mark.shared
@pytest.mark.slow
@pytest.mark.parametrize("first", [0, 4])
def test_a_wide_view_of_four_real_photos_reads_what_each_photo_reads(first):
    """Four byler photos (640x640) side by side in a 1280x1280 mosaic: the dice are 2-3.8 % of the
    long side. The automatic range alone reads about two thirds of them; after the search the
    mosaic reads the same faces as the four photos read one by one (measured: 87 of 88 labelled
    dice right for photos 0-3, all 58 for photos 4-7, none wrong that a photo alone reads right)."""
    d = dice_set_dir("byler_d6")
    if not (d / "labels.csv").is_file():
        pytest.skip(f"labelled photos not found at {d} (clone the repo beside ../shared)")
    items = load_set(d)[first:first + 4]
    tiles = [load_image(it.path) for it in items]
    mosaic = np.vstack([np.hstack(tiles[:2]), np.hstack(tiles[2:])])
    labels = Counter(v for it in items for v in it.values)
    alone = Counter(v for t in tiles for v in read_dice(DiceConfig(), t).values)
    searched = Counter(read_dice_any_size(DiceConfig(), mosaic).values)
    plain = Counter(read_dice(DiceConfig(), mosaic).values)
    assert searched == alone
    assert sum((searched & labels).values()) >= sum(labels.values()) - 1
    assert sum((plain & labels).values()) < 0.75 * sum(labels.values())


class _Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def test_the_camera_reader_learns_the_side_a_search_found(monkeypatch):
    """A camera over a whole table (16 px dice at 1280x720): the first roll is searched, the side
    found is kept, and the next rolls are read at it, without a search."""
    searches = _searches(monkeypatch)
    reader = LearningReader(DiceConfig(), clock=_Clock())
    assert sorted(reader(_row_of_dice(16.0)).values) == [1, 2, 3, 4, 5, 6]
    assert len(searches) == 1 and 18.0 <= reader.side <= 26.0  # a rendered die's box: about 1.25 sides
    assert sorted(reader(_row_of_dice(16.0, (6, 6, 2, 5, 1, 3))).values) == [1, 2, 3, 5, 6, 6]
    assert sorted(reader(_row_of_dice(17.0, (4, 4, 4))).values) == [4, 4, 4]
    assert len(searches) == 1
    # dice well inside the automatic range again (the camera was moved closer): read there, side dropped
    assert sorted(reader(_row_of_dice(80.0, (2, 3, 5))).values) == [2, 3, 5]
    assert reader.side is None and len(searches) == 1


def test_the_camera_reader_searches_an_empty_tray_with_a_growing_backoff(monkeypatch):
    """A frame with no sure die (an empty tray) is searched with a back-off that doubles after each
    search that finds nothing; dice at the learned side are read there without a search."""
    searches = _searches(monkeypatch)
    clock = _Clock()
    reader = LearningReader(DiceConfig(), backoff_s=30.0, max_backoff_s=100.0, clock=clock)
    empty = np.full((720, 1280, 3), 120, np.uint8)
    assert reader(empty).dice == () and len(searches) == 1  # nothing found: 30 s back-off
    clock.t += 29
    assert reader(empty).dice == () and len(searches) == 1
    small = _row_of_dice(12.0)  # 12 px dice: the automatic range reads none of them surely
    assert len(reader(small).values) <= 1 and len(searches) == 1  # still within the back-off
    clock.t += 2
    assert reader(empty).dice == () and len(searches) == 2  # searched again, nothing: 60 s now
    clock.t += 59
    assert len(reader(small).values) <= 1 and len(searches) == 2
    for _ in range(2):  # 100 s at most
        clock.t += 101
        assert reader(empty).dice == ()
    assert len(searches) == 4
    clock.t += 101
    assert sorted(reader(small).values) == [1, 2, 3, 4, 5, 6] and len(searches) == 5 and reader.side is not None
    side = reader.side
    clock.t += 1
    assert reader(empty).dice == () and len(searches) == 6  # a success resets the back-off...
    clock.t += 29
    assert reader(empty).dice == () and len(searches) == 6  # ...to 30 s
    assert reader.side == side  # a search that finds nothing keeps the learned side
    assert sorted(reader(small).values) == [1, 2, 3, 4, 5, 6] and len(searches) == 6  # read at it, no search


def test_a_learning_reader_refuses_a_configured_size():
    with pytest.raises(ValueError, match="die_size_px must be None"):
        LearningReader(DiceConfig(die_size_px=(10.0, 20.0)))


def test_the_camera_view_peeks_without_searching(monkeypatch):
    """The control page's live view is read every second: ``peek`` reads at the learned side or
    in the automatic range, never searches and never learns."""
    searches = _searches(monkeypatch)
    reader = LearningReader(DiceConfig(), clock=_Clock())
    small = _row_of_dice(12.0)
    assert len(reader.peek(small).values) <= 1 and reader.side is None and searches == []
    assert sorted(reader(small).values) == [1, 2, 3, 4, 5, 6] and len(searches) == 1
    assert sorted(reader.peek(small).values) == [1, 2, 3, 4, 5, 6] and len(searches) == 1


@pytest.mark.parametrize("learned, then", [(16.0, 40.0), (24.0, 64.0), (40.0, 16.0)])
def test_a_learned_side_never_reads_less_than_the_stateless_reader(learned, then):
    """A helper's cases: the camera zoomed in or out after a side was learned. A first version
    read at the learned side first and trusted it: 2 of 6 dice at 40 px after 16 px, 3-4 of 6 at
    64 px after 24 px, all ``ok``, a short roll recorded without a word. The learned side now
    stands in for a search only when the frame confirms it."""
    reader = LearningReader(DiceConfig(), clock=_Clock())
    assert sorted(reader(_row_of_dice(learned)).values) == [1, 2, 3, 4, 5, 6]
    faces = (6, 2, 5, 1, 3, 4)
    for _ in range(2):
        frame = _row_of_dice(then, faces)
        assert sorted(reader(frame).values) == sorted(read_dice_any_size(DiceConfig(), frame).values) == [1, 2, 3, 4, 5, 6]
