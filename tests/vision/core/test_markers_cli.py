"""`print markers` and `print teach-sheet`: pages, and one clear line for every bad option."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from ui.cli import main
from vision.errors import FrameRefusedError, ImageFormatError, ImageWriteError
from vision.image_io import page_paths, write_image, write_pages
from vision.markers import check_marker_ids, marker_sheets


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("companion: error: ")
    return lines[0]


def test_an_id_outside_the_dictionary_names_the_range(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.png"
    assert main(["print", "markers", "-o", str(out), "--ids", "0,999"]) == 2
    line = _one_line(capsys.readouterr().err)
    assert "999" in line and "0..49" in line and "OpenCV" not in line
    assert not out.exists() and not list(tmp_path.iterdir())
    with pytest.raises(ValueError, match="outside 0..49"):
        marker_sheets([-1], size_mm=40.0, dpi=60)
    check_marker_ids([0, 49])  # both ends allowed


def test_a_missing_folder_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "nonexist" / "d" / "m.png"
    assert main(["print", "markers", "-o", str(out)]) == 1
    line = _one_line(capsys.readouterr().err)
    assert "folder" in line and "does not exist" in line and "Errno" not in line
    assert main(["print", "teach-sheet", "-o", str(out)]) == 1
    assert "does not exist" in _one_line(capsys.readouterr().err)


def test_an_unknown_extension_is_a_bad_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["print", "markers", "-o", str(tmp_path / "m.txt")]) == 2
    assert ".pdf or .png" in _one_line(capsys.readouterr().err)


def test_teach_sheet_as_png_writes_one_file_per_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t.png"
    assert main(["print", "teach-sheet", "-o", str(out), "--dpi", "40"]) == 0
    said = capsys.readouterr().out
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == [f"t-{n}.png" for n in range(1, 7)]
    assert "t-1.png" in said and "t-6.png" in said and "6 pages" in said
    first = cv2.imread(str(tmp_path / "t-1.png"), cv2.IMREAD_GRAYSCALE)
    # an A4 page each (portrait, 210 x 297 mm at 40 dpi), not six stacked
    assert first.shape == pytest.approx((round(297 / 25.4 * 40), round(210 / 25.4 * 40)), abs=2)


def test_pdf_stays_one_multi_page_file(tmp_path: Path) -> None:
    pages = [np.full((50, 40), 255, np.uint8), np.zeros((50, 40), np.uint8)]
    written = write_pages(tmp_path / "s.pdf", pages, dpi=30)
    assert written == [tmp_path / "s.pdf"] and sorted(tmp_path.iterdir()) == written
    assert b"/Count 2" in written[0].read_bytes()  # two pages in the one PDF
    assert page_paths(tmp_path / "s.png", 1) == [tmp_path / "s.png"]


def test_write_image_errors_are_one_clear_sentence(tmp_path: Path) -> None:
    frame = np.zeros((8, 8, 3), np.uint8)
    with pytest.raises(ImageFormatError, match=r"x\.txt: cannot write a \.txt file"):
        write_image(tmp_path / "x.txt", frame)
    with pytest.raises(ImageWriteError, match="does not exist"):
        write_image(tmp_path / "no" / "x.png", frame)
    assert isinstance(ImageFormatError("x"), ValueError) and ImageFormatError.exit_code == 2
    assert isinstance(ImageWriteError("x"), OSError) and ImageWriteError.exit_code == 1
    path = write_image(tmp_path / "x.jpg", frame)
    assert cv2.imread(str(path)).shape == (8, 8, 3)


def test_a_refusal_renders_one_standard_line() -> None:
    exc = FrameRefusedError("no markers found", reason="no-markers")
    assert str(exc) == "frame refused: no markers found"
    assert (exc.reason, exc.message, exc.exit_code) == ("no-markers", "no markers found", 4)
    again = FrameRefusedError(str(exc), reason=exc.reason)  # re-raised: one prefix, not two
    assert str(again) == "frame refused: no markers found"
