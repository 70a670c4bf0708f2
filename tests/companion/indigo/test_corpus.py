"""The record corpus in tests/data/indigo through the real ``companion replay`` command.

Each file is a game record with an extra ``expected`` object (replay ignores unknown keys):
``exit`` (0, 2 or 3), ``result`` (the JSON printed on stdout, or null), and for exit 3 an
``error`` that stderr must contain. ``hand_*`` and ``illegal_*`` files were worked out by hand
(see their ``note``); ``full_*`` are random legal games kept as regression fixtures.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ui.cli import main

DATA = Path(__file__).resolve().parents[2] / "data" / "indigo"
RECORDS = sorted(p for p in DATA.glob("*.json") if p.name != "board.json")


def test_the_corpus_covers_every_exit_code() -> None:
    codes = [json.loads(p.read_text())["expected"]["exit"] for p in RECORDS]
    assert {0, 2, 3} <= set(codes) and len(RECORDS) >= 20


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_replay_matches_the_expected_result(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = json.loads(path.read_text())["expected"]
    code = main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert code == expected["exit"], err
    if expected["result"] is None:
        assert out == ""
        assert err.startswith("companion: error: ")
    else:
        assert json.loads(out) == expected["result"]
    if expected["exit"] == 3:
        assert expected["error"] in err
        assert "state before it" in err
    elif expected["exit"] == 0:
        assert err == ""


def test_the_installed_command_agrees() -> None:
    path = DATA / "hand_shared_gateway_4p.json"
    script = Path(sys.executable).with_name("companion")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "ui.cli"]
    done = subprocess.run(
        [*command, "replay", str(path)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(path.read_text())["expected"]["result"]


def test_replay_reads_standard_input() -> None:
    path = DATA / "illegal_blocking.json"
    script = Path(sys.executable).with_name("companion")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "ui.cli"]
    done = subprocess.run(
        [*command, "replay", "-"], input=path.read_text(), capture_output=True, text=True,
        timeout=60, check=False,
    )
    assert done.returncode == 3
    assert "event 1 (place): blocking rule" in done.stderr
