"""The sheet commands end to end: print, render, read (JSON, exit codes)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from ui.cli import main


def test_render_then_read(record_file: Path, tmp_path: Path,
                          capsys: pytest.CaptureFixture[str]) -> None:
    frame, truth = tmp_path / "ben.png", tmp_path / "truth.json"
    assert main(["render", "sheet", str(record_file), "--player", "Ben", "-o", str(frame),
                 "--style", "pen", "--seed", "4", "--truth", str(truth)]) == 0
    capsys.readouterr()
    assert main(["read", "sheet", str(frame)]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = json.loads(truth.read_text())
    assert data["grid"] == expected["grid"]
    assert data["bonus"] == expected["bonus"] and data["empty"] == expected["empty"]
    assert len(data["grid"]) == 9 and all(len(row) == 9 for row in data["grid"])
    assert isinstance(data["questions"], list) and isinstance(data["problems"], list)


def test_render_sheet_refuses_an_unknown_player(record_file: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", "sheet", str(record_file), "--player", "Zed",
                 "-o", str(tmp_path / "x.png")]) == 2
    assert "no player 'Zed'" in capsys.readouterr().err


def test_refused_and_unreadable_frames(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blank = tmp_path / "table.png"
    cv2.imwrite(str(blank), np.full((300, 400, 3), 90, np.uint8))
    assert main(["read", "sheet", str(blank)]) == 4
    assert "no Second Chance grid" in capsys.readouterr().err
    assert main(["read", "sheet", str(tmp_path / "missing.png")]) == 2
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8\xff\xe0garbage")
    assert main(["read", "sheet", str(broken)]) == 2


def test_print_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sheet.pdf"
    assert main(["print", "sheet", "-o", str(out), "--dpi", "100", "--page", "A4"]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    assert "210 x 297 mm" in capsys.readouterr().out
    assert main(["print", "sheet", "-o", str(out), "--page", "B7"]) == 2
    assert main(["print", "sheet", "-o", str(tmp_path / "x.txt"), "--dpi", "100"]) == 2
