"""``companion replay`` on the Second Chance corpus, and the ``companion sheet`` commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ui.cli import main

DATA = Path(__file__).resolve().parents[2] / "data" / "second_chance"
RECORDS = sorted(p for p in DATA.glob("*.json") if not p.name.endswith(".expected.json"))


def test_the_corpus_is_there() -> None:
    assert len(RECORDS) >= 10


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_replay_corpus(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    code = main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert code == expected["exit"], err
    if expected["result"] is None:
        assert out == ""
    else:
        assert json.loads(out) == expected["result"]
    if "stderr" in expected:
        assert expected["stderr"] in err


def test_replay_as_a_real_process() -> None:
    path = DATA / "tie_broken_by_the_1.json"
    done = subprocess.run([sys.executable, "-m", "ui.cli", "replay", "-"], input=path.read_text(),
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["game"] == "second-chance" and result["winners"] == ["Ana"]


GRID = ["#########"] * 8 + ["1.......#"]


@pytest.mark.parametrize(
    ("shape", "fits", "count"),
    [("####", True, 4), ("#/#/#/#", True, 4), ("#######", True, 1), ("########", False, 0),
     ("##/##", False, 0), ("#", True, 7)],
)
def test_sheet_fits(tmp_path: Path, capsys: pytest.CaptureFixture[str], shape: str, fits: bool,
                    count: int) -> None:
    grid = tmp_path / "grid.txt"
    grid.write_text("\n".join(GRID) + "\n")
    assert main(["sheet", "fits", "--grid", str(grid), "--shape", shape]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["fits"] is fits and data["placements"] == count
    if fits:
        assert all(GRID[r][c] == "." for r, c in data["placement"])
        assert len(data["placement"]) == shape.count("#")
    else:
        assert data["placement"] is None


@pytest.mark.parametrize(
    ("grid_text", "shape", "words"),
    [("#########\n" * 8, "#", "got 8 rows"), ("\n".join(GRID), "#.#", "not connected"),
     ("\n".join(GRID), "#?", "only '#' and '.'")],
)
def test_sheet_fits_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      grid_text: str, shape: str, words: str) -> None:
    grid = tmp_path / "grid.txt"
    grid.write_text(grid_text)
    assert main(["sheet", "fits", "--grid", str(grid), "--shape", shape]) == 2
    assert words in capsys.readouterr().err
    assert main(["sheet", "fits", "--grid", str(tmp_path / "nope"), "--shape", "#"]) == 2


def test_sheet_check_shape_and_deck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grid = tmp_path / "grid.txt"
    rows = ["........."] * 9
    rows[4] = ".########"
    rows[0] = "##......1"
    grid.write_text("\n".join(rows))
    assert main(["sheet", "check", "--grid", str(grid)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["empty"] == 81 - 11 and data["bonus"] == [0, 8]
    assert [s["shape"] for s in data["shapes"]] == ["##", "########"]
    assert main(["sheet", "shape", "#./#./##"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["shape"] == "###/#.." and len(data["orientations"]) == 8 and data["legal_card"]
    assert main(["sheet", "deck"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["demo"] is True and data["puzzle_cards"] == 40 and data["start_tiles"] == 13


def test_sheet_simulate_writes_a_replayable_record(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.json"
    assert main(["sheet", "simulate", "--players", "Ana,Ben,Cleo", "--seed", "3",
                 "-o", str(out)]) == 0
    assert main(["replay", str(out)]) == 0
    assert json.loads(capsys.readouterr().out)["over"] is True
