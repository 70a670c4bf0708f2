"""Every `read` command refuses a JPEG with a damaged middle as unreadable (exit 2), in one
line, without libjpeg's warning and without reading the grey frame libjpeg hands back."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def damaged_jpeg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = np.random.default_rng(5)
    image = rng.integers(0, 255, (240, 320, 3), dtype=np.uint8)
    ok, encoded = cv2.imencode(".jpg", image)
    assert ok
    data = bytearray(encoded.tobytes())
    middle = len(data) // 2
    for i in range(middle, middle + 400):  # the end marker stays: only the middle is broken
        data[i] = 0x00 if i % 2 else 0xFF
    path = tmp_path_factory.mktemp("damaged") / "frame.jpg"
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("game", ["indigo", "enigma", "sheet", "code", "card"])
def test_read_refuses_a_damaged_jpeg_in_one_line(damaged_jpeg: Path, game: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ui.cli", "read", game, str(damaged_jpeg)],
        cwd=REPO, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "damaged image" in lines[0], lines
    assert done.stdout == ""
