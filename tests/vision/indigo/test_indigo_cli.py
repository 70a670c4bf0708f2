"""The Indigo camera commands: render, read (with --after), calibrate, teach; exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from ui.cli import main

RECORD = {
    "format": "tabletop-companion/record/1",
    "game": "indigo",
    "players": ["Ana", "Ben"],
    "options": {},
    "events": [
        {"type": "place", "player": "Ana", "cell": [0, -1], "tile": 1, "rotation": 0},
        {"type": "place", "player": "Ben", "cell": [1, -3], "tile": 3, "rotation": 2},
        {"type": "place", "player": "Ana", "cell": [2, -2], "tile": 0, "rotation": 1},
    ],
}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("indigo-cli")
    record = d / "game.json"
    record.write_text(json.dumps(RECORD))
    before = d / "before.json"
    before.write_text(json.dumps({**RECORD, "events": RECORD["events"][:2]}))
    frame, truth = d / "frame.jpg", d / "truth.json"
    code = main(
        [
            "render",
            "indigo",
            str(record),
            "-o",
            str(frame),
            "--seed",
            "3",
            "--truth",
            str(truth),
            "--effects",
            "default",
        ]
    )
    assert code == 0
    return {"record": record, "before": before, "frame": frame, "truth": truth, "dir": d}


def test_render_writes_frame_and_truth(files: dict[str, Path]) -> None:
    image = cv2.imread(str(files["frame"]))
    assert image.shape == (720, 1280, 3)
    truth = json.loads(files["truth"].read_text())
    assert {tuple(t["cell"]) for t in truth["tiles"]} == {(0, -1), (1, -3), (2, -2)}
    assert truth["game"] == "indigo" and truth["questions"] == []


def test_read_prints_the_truth(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["read", "indigo", str(files["frame"])]) == 0
    out = json.loads(capsys.readouterr().out)
    truth = json.loads(files["truth"].read_text())
    assert [(t["cell"], t["paths"]) for t in out["tiles"]] == [
        (t["cell"], t["paths"]) for t in truth["tiles"]
    ]
    assert sorted(g["gem"] for g in out["gems"]) == sorted(g["gem"] for g in truth["gems"])


def test_read_after_names_the_placement(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["read", "indigo", str(files["frame"]), "--after", str(files["before"])]) == 0
    out = json.loads(capsys.readouterr().out)
    if out["after"]["consistent"]:
        assert out["after"]["placement"] == {"cell": [2, -2], "tile": 0, "rotation": 1}
    else:  # a low-confidence gem may be asked about, never silently accepted
        assert out["questions"]


def test_read_after_a_truth_document(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    # the read of the same frame is consistent with itself: nothing new
    assert main(["read", "indigo", str(files["frame"]), "--after", str(files["truth"])]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["after"]["placement"] is None


def test_truncated_jpeg_exits_2(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    cut = files["dir"] / "cut.jpg"
    data = files["frame"].read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    assert main(["read", "indigo", str(cut)]) == 2
    assert "truncated" in capsys.readouterr().err


def test_missing_and_non_image_files_exit_2(files: dict[str, Path]) -> None:
    assert main(["read", "indigo", str(files["dir"] / "nope.png")]) == 2
    assert main(["read", "indigo", str(files["record"])]) == 2


def test_refused_frame_exits_4_with_one_line(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    noise = files["dir"] / "noise.png"
    cv2.imwrite(str(noise), np.random.default_rng(1).integers(0, 256, (480, 640, 3), np.uint8))
    assert main(["read", "indigo", str(noise)]) == 4
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert err.startswith("companion: error: frame refused: ")  # the one standard line


def test_render_rejects_bad_input(files: dict[str, Path]) -> None:
    out = str(files["dir"] / "x.png")
    assert main(["render", "indigo", str(files["dir"] / "nope.json"), "-o", out]) == 2
    bad = files["dir"] / "bad.json"
    bad.write_text(
        json.dumps(
            {
                **RECORD,
                "events": [
                    {"type": "place", "player": "Ana", "cell": [0, 0], "tile": 1, "rotation": 0}
                ],
            }
        )
    )
    assert main(["render", "indigo", str(bad), "-o", out]) == 3
    assert main(["render", "indigo", str(files["record"]), "-o", out, "--effects", "sparkle"]) == 2


def test_calibrate_prints_the_config_lines(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["calibrate", "indigo", str(files["frame"])]) == 0
    text = capsys.readouterr().out
    assert text.startswith("[vision.indigo]\nboard_center_mm = [")
    import tomllib

    values = tomllib.loads(text)["vision"]["indigo"]
    assert abs(values["board_radius_mm"] - 250.0) < 12
    assert all(abs(v) < 6 for v in values["board_center_mm"])
    assert abs(values["rotation_deg"]) < 2


def test_print_sheets(files: dict[str, Path]) -> None:
    assert main(["print", "markers", "-o", str(files["dir"] / "m.png"), "--dpi", "100"]) == 0
    assert main(["print", "teach-sheet", "-o", str(files["dir"] / "t.pdf"), "--dpi", "60"]) == 0
    assert (files["dir"] / "t.pdf").read_bytes().startswith(b"%PDF")


def test_calibrate_write_keeps_the_rest_of_the_config(files: dict[str, Path]) -> None:
    import tomllib

    from config import load_config

    override = files["dir"] / "override.toml"
    override.write_text(
        "# mine\n[timer]\nduration_s = 45\n\n[vision.indigo]\nrotation_deg = 30.0\n"
    )
    assert main(["calibrate", "indigo", str(files["frame"]), "--write", str(override)]) == 0
    data = tomllib.loads(override.read_text())
    assert data["timer"]["duration_s"] == 45
    assert abs(data["vision"]["indigo"]["rotation_deg"]) < 2
    assert override.read_text().startswith("# mine")
    cfg = load_config(override)  # the file stays a valid config
    assert abs(cfg.vision.indigo.board_radius_mm - 250.0) < 12


def test_render_reads_the_record_from_standard_input(
    files: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    out = files["dir"] / "stdin.png"
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(RECORD)))
    assert main(["render", "indigo", "-", "-o", str(out), "--seed", "3"]) == 0
    assert cv2.imread(str(out)).shape == (720, 1280, 3)
    monkeypatch.setattr("sys.stdin", io.StringIO("{"))
    assert main(["render", "indigo", "-", "-o", str(out)]) == 2


@pytest.mark.parametrize(
    "name,code,said",
    [
        ("nonexist/x.png", 1, "the folder"),  # names the missing folder
        ("x.txt", 2, "cannot write a .txt file; use .png or .jpg"),
    ],
)
def test_render_output_errors_are_one_line(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str], name: str, code: int, said: str
) -> None:
    out = files["dir"] / name
    assert main(["render", "indigo", str(files["record"]), "-o", str(out)]) == code
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("companion: error: ")
    assert said in err and "OpenCV" not in err and "use .png or .jpg)" not in err
    if code == 1:
        assert f"{files['dir'] / 'nonexist'} does not exist" in err
