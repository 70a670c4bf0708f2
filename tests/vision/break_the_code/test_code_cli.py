"""``companion render code``, ``read code``, ``teach code`` and ``print code-mat``."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from ui.cli import main
from vision.break_the_code.synth.render import render_frame

ALL = "0b 0w 1b 1w 2b 2w 3b 3w 4b 4w 5g 5g 6b 6w 7b 7w 8b 8w 9b 9w"


def test_render_then_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    image, truth = tmp_path / "rack.png", tmp_path / "truth.json"
    assert main(["render", "code", "0b 1w 5g 5g 9b", "-o", str(image), "--seed", "3",
                 "--truth", str(truth)]) == 0
    assert json.loads(truth.read_text())["code"] == "0b 1w 5g 5g 9b"
    capsys.readouterr()
    assert main(["read", "code", str(image)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"code", "confidence"}
    assert out["code"] == "0b 1w 5g 5g 9b" and 0.5 <= out["confidence"] <= 1.0


def test_teach_then_read_with_the_pack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photo, pack, rack = tmp_path / "all.png", tmp_path / "pack", tmp_path / "rack.png"
    assert main(["render", "code", ALL, "--style", "ivory", "-o", str(photo), "--seed",
                 "2"]) == 0
    assert main(["teach", "code", str(photo), "-o", str(pack)]) == 0
    assert (pack / "manifest.json").exists() and (pack / "tile_5g.png").exists()
    assert main(["render", "code", "1b 3w 4w 6b", "--style", "ivory", "-o", str(rack)]) == 0
    capsys.readouterr()
    assert main(["read", "code", str(rack), "--pack", str(pack)]) == 0
    assert json.loads(capsys.readouterr().out)["code"] == "1b 3w 4w 6b"


def test_read_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.png"
    bad.write_text("not an image")
    assert main(["read", "code", str(bad)]) == 2
    blank = tmp_path / "mat.png"
    assert main(["print", "code-mat", "-o", str(blank), "--dpi", "100"]) == 0
    capsys.readouterr()
    # the printed file itself is no camera picture: its empty panel is one flat grey
    assert main(["read", "code", str(blank)]) == 4
    assert "too flat" in capsys.readouterr().err
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), render_frame([], seed=2)[0].image)
    assert main(["read", "code", str(empty)]) == 4
    assert "no tile" in capsys.readouterr().err
    assert main(["render", "code", "0b 0b", "-o", str(tmp_path / "x.png")]) == 1


def test_teach_names_the_empty_slot_in_whole_sentences(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    nineteen = ALL.rsplit(" ", 1)[0]  # the 9w of slot E4 left out
    photo = tmp_path / "nineteen.png"
    assert main(["render", "code", nineteen, "--style", "oak", "-o", str(photo), "--seed",
                 "2"]) == 0
    capsys.readouterr()
    assert main(["teach", "code", str(photo), "-o", str(tmp_path / "pack")]) == 4
    err = capsys.readouterr().err
    assert "lot E4: no tile seen; is the white 9 there?" in err
    assert err.rstrip().endswith("take the photo again.")
    assert not (tmp_path / "pack").exists()


def test_render_help_names_every_drawing_style() -> None:
    from ui.cli.code_render_cmd import STYLE_HELP
    from vision.break_the_code.synth.art import STYLES

    assert all(name in STYLE_HELP for name in STYLES), (STYLE_HELP, sorted(STYLES))
