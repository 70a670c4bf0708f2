"""The replay corpus in tests/data/break_the_code, run through the ``companion`` CLI.

Each ``NAME.json`` is a record; ``expected.json`` holds its exit status, result and a piece of
the error message. The answers in the corpus were checked by hand against the card rules.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ui.cli import main

DATA = Path(__file__).resolve().parents[2] / "data" / "break_the_code"
EXPECTED: dict[str, dict[str, object]] = json.loads((DATA / "expected.json").read_text())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_replay(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    expected = EXPECTED[name]
    code = main(["replay", str(DATA / f"{name}.json")])
    out, err = capsys.readouterr()
    assert code == expected["exit"], err
    if expected["result"] is None:
        assert out.strip() == ""
    else:
        assert json.loads(out) == expected["result"]
        assert list(json.loads(out))[:4] == ["game", "over", "winners", "scores"]
    if "stderr" in expected:
        assert str(expected["stderr"]) in err
    else:
        assert err == ""


def test_the_corpus_covers_every_exit_status_and_player_count() -> None:
    assert {e["exit"] for e in EXPECTED.values()} == {0, 2, 3}
    records = [json.loads((DATA / f"{n}.json").read_text()) for n in EXPECTED]
    assert {len(r["players"]) for r in records} >= {2, 3, 4, 5}


def test_replay_reads_standard_input_in_a_real_process() -> None:
    text = (DATA / "3p_round_completed.json").read_text()
    proc = subprocess.run([sys.executable, "-m", "ui.cli", "replay", "-"], input=text,
                          capture_output=True, text=True, check=False, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == EXPECTED["3p_round_completed"]["result"]
