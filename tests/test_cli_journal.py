"""``companion export GAME_ID`` and ``companion games``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.record import FORMAT, loads_record
from ui.cli import main

PLACE = {"type": "place", "player": "Ana", "cell": [1, -3], "tile": 3, "rotation": 2}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        first = journal.new_game("indigo", ["Ana", "Ben", "Cléo"], {"layout": "3p"})
        journal.append(first, PLACE)
        journal.append(first, dict(PLACE, player="Ben", cell=[0, -3]))
        second = journal.new_game("enigma", ["Ana", "Ben"], {})
        journal.finish(second, {"game": "enigma", "over": True, "winners": ["Ben"],
                                "scores": {}})
    return path


def test_export_to_stdout(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "1", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    data = json.loads(out)
    assert data == {"format": FORMAT, "game": "indigo", "players": ["Ana", "Ben", "Cléo"],
                    "options": {"layout": "3p"},
                    "events": [PLACE, dict(PLACE, player="Ben", cell=[0, -3])]}
    assert loads_record(out).players == ("Ana", "Ben", "Cléo")
    assert out.count("\n") == 10  # one event per line


def test_export_to_a_file(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "game.json"
    assert main(["export", "2", "--db", str(db), "-o", str(target)]) == 0
    assert capsys.readouterr().out == ""
    data = json.loads(target.read_text(encoding="utf-8"))
    assert data["game"] == "enigma" and data["events"] == []


def test_export_an_unknown_game(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "7", "--db", str(db)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == f"companion: error: no game 7 in the journal {db}\n"


def test_export_without_a_journal_creates_none(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none.sqlite3"
    assert main(["export", "1", "--db", str(missing)]) == 1
    assert capsys.readouterr().err == f"companion: error: no journal at {missing}\n"
    assert not missing.exists()


def test_the_default_db_comes_from_the_config(db: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[app]\ndata_dir = "{db.parent}"\n', encoding="utf-8")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "nothing"))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    assert main(["export", "1", "--config", str(cfg)]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == "indigo"
    monkeypatch.setenv("COMPANION_CONFIG", str(cfg))
    assert main(["games"]) == 0
    assert "indigo" in capsys.readouterr().out


def test_games_lists_newest_first(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert lines[0].split()[:2] == ["2", "enigma"] and "won by Ben" in lines[0]
    assert lines[1].split()[:2] == ["1", "indigo"] and "in play" in lines[1]
    assert "2 events" in lines[1] and "Ana, Ben, Cléo" in lines[1]


def test_games_filters_and_json(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--db", str(db), "--unfinished", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["id"], r["game"], r["events"], r["finished"]) for r in rows] == [
        (1, "indigo", 2, None)]
    assert main(["games", "--db", str(db), "--finished", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["id"] for r in rows] == [2] and rows[0]["result"]["winners"] == ["Ben"]


@pytest.mark.parametrize("command", [["export", "1"], ["games"]])
def test_a_file_that_is_not_a_journal_is_left_where_it_is(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a mistyped --db must never get the named file renamed by a command that only reads
    record = tmp_path / "record.json"
    record.write_text('{"format": "tabletop-companion/record/1"}\n', encoding="utf-8")
    before = record.read_bytes()
    assert main([*command, "--db", str(record)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not an SQLite database" in err and "left as it is" in err
    assert record.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["record.json"]


@pytest.mark.parametrize("command", [["export", "1"], ["games"]])
def test_a_bad_config_file_is_refused_even_with_db(
    command: list[str], db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[timer]\nbogus = 1\n", encoding="utf-8")
    assert main([*command, "--db", str(db), "--config", str(bad)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "timer.bogus" in captured.err
