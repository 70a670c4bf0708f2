"""Images as cameras and phones write them: trailing data, odd sizes, EXIF orientation.

Through ``ui.cli.images.read_image_file``, the one door every command's image goes through.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageOps

from ui.cli.images import read_image_file
from vision.errors import UnreadableImageError
from vision.image_io import MAX_SIDE, MIN_SIDE, png_chunks

REPO = Path(__file__).resolve().parents[3]


def _scene(height: int, width: int, seed: int = 3) -> np.ndarray:
    """Smooth blocks (they survive JPEG) that differ in every quarter, so turns show."""
    rng = np.random.default_rng(seed)
    blocks = rng.integers(0, 256, (4, 4, 3), dtype=np.uint8)
    return cv2.resize(blocks, (width, height), interpolation=cv2.INTER_NEAREST)


def _encoded(image: np.ndarray, suffix: str) -> bytes:
    ok, data = cv2.imencode(suffix, image)
    assert ok
    return bytes(data.tobytes())


def _read(tmp_path: Path, data: bytes, name: str) -> np.ndarray:
    path = tmp_path / name
    path.write_bytes(data)
    return np.asarray(read_image_file(str(path)))


@pytest.mark.parametrize("suffix", [".jpg", ".png"])
def test_trailing_data_is_ignored_and_truncation_still_refused(tmp_path: Path,
                                                               suffix: str) -> None:
    data = _encoded(_scene(120, 160), suffix)
    whole = _read(tmp_path, data, f"whole{suffix}")
    # a motion photo appends a video; an appended thumbnail holds its own end marker
    thumbnail = _encoded(_scene(40, 40, seed=9), ".jpg")
    for tail in (b"\x00" * 3, b"ftypmp42" + bytes(range(256)) * 400, thumbnail, b"IEND" * 9):
        assert np.array_equal(_read(tmp_path, data + tail, f"tail{suffix}"), whole)
    for cut in (len(data) - 2, len(data) - 12, len(data) // 2, 40):
        with pytest.raises(UnreadableImageError, match="truncated"):
            _read(tmp_path, data[:cut], f"cut{suffix}")


@pytest.mark.parametrize(("height", "width"), [(1, 400), (400, 1), (31, 64), (2, 2)])
def test_images_under_32_pixels_are_refused_in_one_line(tmp_path: Path, height: int,
                                                        width: int) -> None:
    data = _encoded(_scene(height, width), ".png")
    with pytest.raises(UnreadableImageError) as refused:
        _read(tmp_path, data, "tiny.png")
    message = str(refused.value)
    assert f"{width}x{height} pixels" in message and f"at least {MIN_SIDE}" in message
    assert "\n" not in message
    assert _read(tmp_path, _encoded(_scene(32, 32), ".png"), "ok.png").shape == (32, 32, 3)


@pytest.mark.parametrize("suffix", [".jpg", ".png"])
def test_large_images_are_reduced_at_load(tmp_path: Path, suffix: str) -> None:
    image = _scene(1200, 2 * MAX_SIDE + 40)
    frame = _read(tmp_path, _encoded(image, suffix), f"large{suffix}")
    assert max(frame.shape[:2]) <= MAX_SIDE
    assert frame.shape[1] / frame.shape[0] == pytest.approx(image.shape[1] / image.shape[0],
                                                            rel=0.01)
    small = cv2.resize(image, (frame.shape[1], frame.shape[0]), interpolation=cv2.INTER_AREA)
    assert np.abs(frame.astype(int) - small.astype(int)).mean() < 6


def test_a_header_of_a_gigantic_image_is_refused_before_decoding(tmp_path: Path) -> None:
    header = _encoded(_scene(40, 40), ".png")
    giant = bytearray(header)
    giant[16:24] = (30_000).to_bytes(4, "big") * 2  # IHDR width and height
    with pytest.raises(UnreadableImageError, match="30000x30000 pixels, more than"):
        _read(tmp_path, bytes(giant), "giant.png")


def _with_orientation(image: np.ndarray, orientation: int, fmt: str) -> bytes:
    exif = Image.Exif()
    exif[0x0112] = orientation
    out = io.BytesIO()
    Image.fromarray(image[:, :, ::-1]).save(out, fmt, exif=exif.tobytes(), quality=95)
    return out.getvalue()


@pytest.mark.parametrize("orientation", range(1, 9))
def test_exif_orientation_is_honoured_also_when_reduced(tmp_path: Path,
                                                        orientation: int) -> None:
    # a phone photo taken sideways, larger than MAX_SIDE: it is read reduced *and* upright
    image = _scene(700, MAX_SIDE + 600)
    data = _with_orientation(image, orientation, "JPEG")
    expected = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(data))))[:, :, ::-1]
    frame = _read(tmp_path, data, "phone.jpg")
    assert max(frame.shape[:2]) <= MAX_SIDE
    assert (frame.shape[0] > frame.shape[1]) == (expected.shape[0] > expected.shape[1])
    expected = cv2.resize(expected, (frame.shape[1], frame.shape[0]),
                          interpolation=cv2.INTER_AREA)
    assert np.abs(frame.astype(int) - expected.astype(int)).mean() < 6


def test_a_one_pixel_image_is_exit_2_for_a_reader(tmp_path: Path) -> None:
    path = tmp_path / "line.png"
    path.write_bytes(_encoded(_scene(1, 300), ".png"))
    done = subprocess.run([sys.executable, "-m", "ui.cli", "read", "indigo", str(path)],
                          cwd=REPO, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "300x1 pixels" in done.stderr


def test_a_png_file_is_checked_from_its_chunk_headers_alone(tmp_path: Path) -> None:
    # a huge PNG must not be held in memory as bytes beside its pixels: the check for a
    # complete file reads each chunk's header and nothing of its data
    data = _encoded(np.random.default_rng(5).integers(0, 256, (600, 800, 3), np.uint8), ".png")
    asked: list[int] = []

    def read_at(offset: int, count: int) -> bytes:
        asked.append(count)
        return data[offset:offset + count]

    end, size, has_exif = png_chunks(read_at)
    assert (end, size, has_exif) == (len(data), (800, 600), False)
    assert sum(asked) < len(data) // 100
    assert png_chunks(lambda offset, count: data[:-3][offset:offset + count])[0] == 0


@pytest.mark.parametrize("orientation", [3, 6, 8])
def test_exif_orientation_of_a_png_file_is_honoured(tmp_path: Path, orientation: int) -> None:
    image = _scene(90, 160)
    data = _with_orientation(image, orientation, "PNG")
    expected = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(data))))[:, :, ::-1]
    assert np.array_equal(_read(tmp_path, data, "phone.png"), expected)
