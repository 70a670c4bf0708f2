"""``companion code answer``, ``code check`` and ``code solve``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ui.cli import main

DATA = Path(__file__).resolve().parents[2] / "data" / "break_the_code"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, object, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--rack", "0b 1w 5g 5g 9b", "--card", "Q08"], {"card": "Q08", "answer": [["C", "D"]]}),
        (["--rack", "0b 1w 5g 5g 9b", "--card", "Q02", "--number", "1"],
         {"card": "Q02", "number": 1, "answer": ["B"]}),
        (["--rack", "0b 2b 4b 6b 8b", "--card", "Q18"], {"card": "Q18", "answer": 0}),
        (["--rack", "0b 1w 5g 9b", "--card", "Q16"], {"card": "Q16", "answer": 6}),
        (["--rack", "0b 1w 5g 9b", "--card", "Q15", "--players", "4"],
         {"card": "Q15", "answer": 15}),
        (["--rack", "0b 2b 4b 6b 8b", "--card", "Q20", "--players", "3"],
         {"card": "Q20", "answer": False}),
    ],
)
def test_code_answer(args: list[str], expected: object,
                     capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["code", "answer", *args], capsys)[:2] == (0, expected)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rack", "0b 1w 5b 5g 9b", "--card", "Q08"], "no tile 5b"),
        (["--rack", "0b 1w 5g 5g 9b", "--card", "Q02", "--number", "3"], "not 3"),
        (["--rack", "0b 1w 5g 5g 9b", "--card", "Q15", "--players", "4"], "4 tiles"),
        (["--rack", "1w 0b 5g 5g 9b", "--card", "Q15"], "rack order"),
    ],
)
def test_code_answer_errors(args: list[str], message: str,
                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["code", "answer", *args], capsys)
    assert code == 1 and out is None and message in err


def test_code_check(capsys: pytest.CaptureFixture[str]) -> None:
    secret = "0b 1w 5g 5g 9b"
    assert run(["code", "check", "--secret", secret, "--guess", secret], capsys)[:2] == (
        0, {"correct": True})
    assert run(["code", "check", "--secret", secret, "--guess", "0w 1w 5g 5g 9b"],
               capsys)[:2] == (0, {"correct": False})
    code, out, err = run(["code", "check", "--secret", secret, "--guess", "0b 1w 5g 5g"], capsys)
    assert code == 1 and out is None and "expected 5" in err


def test_code_solve_from_one_players_view(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["code", "solve", str(DATA / "2p_second_player_wins.json"), "--as",
                        "Ana", "--top", "1000"], capsys)
    assert code == 0 and isinstance(out, dict)
    assert out["target"] == "Ben" and 1 < out["candidates"] == len(out["likeliest"])
    codes = {c["code"] for c in out["likeliest"]}
    assert "2b 3w 4b 6w 8b" in codes          # Ben's real rack is still possible
    assert "2b 3w 4b 6w 9b" not in codes      # Ana's wrong guess is gone
    assert set(out["suggest"]) == {"ask"} and out["questions"][0] == out["suggest"]["ask"]


def test_code_solve_three_players(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["code", "solve", str(DATA / "4p_everyone_answers.json"), "--as",
                        "Ben"], capsys)
    assert code == 0 and isinstance(out, dict) and out["target"] == "central"
    assert out["candidates"] >= 1


def test_code_solve_errors(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(DATA / "2p_second_player_wins.json")
    assert run(["code", "solve", path, "--as", "Zed"], capsys)[0] == 1
    assert run(["code", "solve", str(DATA / "err_unknown_event.json"), "--as", "Ana"],
               capsys)[0] == 2
    assert run(["code", "solve", str(DATA / "err_out_of_turn.json"), "--as", "Ana"],
               capsys)[0] == 3


def test_code_solve_unreadable_or_other_game_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    binary = tmp_path / "garbage.json"
    binary.write_bytes(bytes(range(128, 256)))
    other = Path(__file__).resolve().parents[2] / "data" / "indigo" / "full_2p_seed1.json"
    for path, words in ((binary, "is not UTF-8 text"), (tmp_path, "cannot read"),
                        (other, "is a record of indigo, not of break-the-code")):
        code = main(["code", "solve", str(path), "--as", "Ana"])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and words in err, err
