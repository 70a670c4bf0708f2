"""The replay corpus in tests/data/enigma, run through the real ``companion replay`` CLI.

Each ``NAME.json`` record has a ``NAME.expected.json``: the exit status, the result printed on
standard output (``null`` for exit 2) and words standard error must contain. The expected
results of the scenario records were worked out by hand (see scenarios.py); ``demo-game`` is a
regression record: a full seeded game with the demo catalogue.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "data" / "enigma"
CASES = sorted(p for p in DATA.glob("*.json") if not p.name.endswith(".expected.json"))


def test_the_corpus_is_there() -> None:
    assert len(CASES) >= 9


@pytest.mark.parametrize("record", CASES, ids=[p.stem for p in CASES])
def test_replay_cli(record: Path) -> None:
    expected = json.loads(record.with_name(record.stem + ".expected.json").read_text())
    proc = subprocess.run(
        [sys.executable, "-m", "ui.cli", "replay", str(record)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert proc.returncode == expected["exit"], proc.stderr
    if expected["result"] is None:
        assert proc.stdout == ""
    else:
        assert json.loads(proc.stdout) == expected["result"]
    for words in expected.get("stderr", []):
        assert words in proc.stderr
    if expected["exit"] == 0:
        assert proc.stderr == ""


def test_replay_reads_standard_input() -> None:
    text = (DATA / "seed-example.json").read_text()
    proc = subprocess.run(
        [sys.executable, "-m", "ui.cli", "replay", "-"],
        input=text, capture_output=True, text=True, timeout=60, check=False,
    )
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["scores"] == {"Black": 2, "White": 1, "Green": 0}
