"""load_image: typed one-line errors for every way a file can be bad."""

import cv2
import numpy as np
import pytest

from arena_table.vision.dice_io import load_image
from arena_table.vision.errors import UnreadableImage, VisionError


@pytest.fixture
def jpeg_bytes():
    img = np.zeros((60, 80, 3), np.uint8)
    cv2.circle(img, (40, 30), 20, (0, 0, 255), -1)
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    return buf.tobytes()


def test_reads_a_good_jpeg_as_bgr(tmp_path, jpeg_bytes):
    p = tmp_path / "ok.jpg"
    p.write_bytes(jpeg_bytes)
    img = load_image(p)
    assert img.shape == (60, 80, 3) and img.dtype == np.uint8
    assert img[30, 40, 2] > 200 and img[30, 40, 0] < 60  # red stays in the R channel


def test_grey_png_becomes_three_channels(tmp_path):
    p = tmp_path / "grey.png"
    cv2.imwrite(str(p), np.full((10, 12), 77, np.uint8))
    assert load_image(p).shape == (10, 12, 3)


@pytest.mark.parametrize("dtype, red", [(np.float32, 1.0), (np.uint32, 2**32 - 1), (np.uint16, 65535)])
def test_a_tiff_of_float_or_wide_integer_samples_is_read(tmp_path, dtype, red):
    """A new user's trial: a valid 32-bit float TIFF was "corrupt or truncated tiff"."""
    img = np.zeros((60, 80, 3), dtype)
    img[10:30, 20:50, 2] = red  # a red patch (BGR)
    img[40:, :, :] = red / 2 if dtype == np.float32 else red // 2
    path = tmp_path / "frame.tiff"
    assert cv2.imwrite(str(path), img)
    out = load_image(path)
    assert out.shape == (60, 80, 3) and out.dtype == np.uint8
    assert out[20, 30].tolist() == [0, 0, 255] and out[0, 0].tolist() == [0, 0, 0]
    assert out[50, 10].tolist() == [128, 128, 128] or out[50, 10].tolist() == [127, 127, 127]


@pytest.mark.parametrize("make, words", [
    (lambda p, j: None, "missing"),
    (lambda p, j: p.write_bytes(b""), "empty"),
    (lambda p, j: p.write_text("not a picture at all"), "not an image"),
    (lambda p, j: p.write_bytes(j[: len(j) // 2]), "truncated"),
    (lambda p, j: p.write_bytes(j[:-2]), "truncated"),
    (lambda p, j: p.write_bytes(j[:20] + b"\x00" * 300), "corrupt"),
])
def test_bad_files_raise_one_line_naming_the_file(tmp_path, jpeg_bytes, make, words):
    p = tmp_path / "photo.jpg"
    make(p, jpeg_bytes)
    with pytest.raises(UnreadableImage) as err:
        load_image(p)
    msg = str(err.value)
    assert msg.startswith(f"{p}: ") and words in msg and "\n" not in msg
    assert isinstance(err.value, ValueError) and isinstance(err.value, VisionError)


def test_directory_is_not_an_image(tmp_path):
    with pytest.raises(UnreadableImage, match="directory"):
        load_image(tmp_path)


def test_header_sizes_of_jpeg_and_png(tmp_path, jpeg_bytes):
    from arena_table.vision.dice_io import _dimensions

    ok, png = cv2.imencode(".png", np.zeros((33, 71, 3), np.uint8))
    assert _dimensions("jpeg", jpeg_bytes) == (80, 60) and _dimensions("png", png.tobytes()) == (71, 33)


def test_a_decompression_bomb_is_refused_before_decoding(tmp_path):
    """A new user's audit: a 937 KB PNG of 30000x30000 pixels made the reader allocate 2.7 GB."""
    import zlib

    width = height = 30000
    raw = zlib.compress(b"".join(b"\x00" + bytes(width) for _ in range(64)), 9)  # a few rows suffice
    def chunk(kind, body):
        return len(body).to_bytes(4, "big") + kind + body + zlib.crc32(kind + body).to_bytes(4, "big")
    ihdr = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 0, 0, 0, 0])
    p = tmp_path / "bomb.png"
    p.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", raw) + chunk(b"IEND", b""))
    with pytest.raises(UnreadableImage, match="30000x30000 is too large to decode"):
        load_image(p)


def test_a_device_is_not_read():
    """``/dev/zero`` never ends: refused at once, not read into memory."""
    with pytest.raises(UnreadableImage, match="not a regular file"):
        load_image("/dev/zero")
