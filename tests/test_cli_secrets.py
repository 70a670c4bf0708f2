"""A Break the Code game in play keeps its secrets on every output of the command line.

A game is played into a journal; then ``games``, ``export`` (stdout and file), ``replay`` of
that export, each at ``--debug``, and the files they leave are searched for the racks, the
central code and the right guess.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.break_the_code.cards import get_card
from companion.break_the_code.game import deal_tiles
from companion.export import COVERED
from companion.journal import Journal
from companion.record import loads_record
from companion.session import Session
from ui.cli import main

PLAYERS = ["Ana", "Ben", "Cleo"]


def _play(db: Path, *, finish: bool = False) -> list[str]:
    """Deal, one question per player and a right guess of the central code; the secrets."""
    deal = deal_tiles(3, random.Random(24))
    assert deal.central is not None
    secrets = [str(r) for r in deal.racks] + [str(deal.central)]
    with Journal(db) as journal:
        session = Session.start(journal, "break-the-code", PLAYERS)
        session.apply({"type": "deal", "central": secrets[3],
                       "racks": dict(zip(PLAYERS, secrets[:3], strict=True))})
        for _ in PLAYERS:
            state = session.state
            card = next(c for c in state.askable_cards if not get_card(c).is_choice)
            session.apply({"type": "ask", "player": state.current_player, "card": card})
        session.apply({"type": "guess", "player": session.state.current_player,
                       "code": secrets[3]})
        assert not session.is_over
        if finish:
            session.finish()
    return secrets


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.run([sys.executable, "-m", "ui.cli", "--debug", *args], input=stdin,
                          capture_output=True, text=True, env=env, timeout=60, check=False)


def test_no_output_of_a_game_in_play_shows_its_secrets(tmp_path: Path) -> None:
    db = tmp_path / "journal.sqlite3"
    secrets = _play(db)
    exported = tmp_path / "game.json"
    runs = [
        _run("games", "--db", str(db)),
        _run("games", "--json", "--db", str(db)),
        _run("export", "1", "--db", str(db)),
        _run("export", "1", "--db", str(db), "-o", str(exported)),
        _run("replay", str(exported)),
        _run("replay", "-", stdin=exported.read_text(encoding="utf-8")),
        _run("export", "1", "--reveal", "--db", str(db)),  # no terminal, no --yes: refused
    ]
    seen = [run.stdout + run.stderr for run in runs]
    seen += [p.read_bytes().decode("utf-8", "replace") for p in tmp_path.iterdir()
             if p.is_file() and not p.name.startswith("journal.sqlite3")]
    for text in seen:
        assert not [s for s in secrets if s in text], text
    assert "still in play" in runs[2].stderr and "covered" in runs[2].stderr
    assert runs[2].returncode == 0 and runs[6].returncode == 1 and runs[6].stdout == ""
    assert "--yes" in runs[6].stderr
    assert runs[4].returncode == 3 and "secrets are covered" in runs[4].stderr
    record = loads_record(runs[2].stdout)
    assert record.events[0]["racks"] == dict.fromkeys(PLAYERS, COVERED)
    assert record.events[0]["central"] == COVERED and record.events[-1]["code"] == COVERED


def test_reveal_with_yes_exports_the_whole_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "journal.sqlite3"
    secrets = _play(db)
    assert main(["export", "1", "--reveal", "--yes", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert all(s in out for s in secrets)


def test_reveal_asks_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "journal.sqlite3"
    secrets = _play(db)

    class Terminal:
        def __init__(self, answer: str) -> None:
            self.answer = answer

        def isatty(self) -> bool:
            return True

        def readline(self) -> str:
            return self.answer

    monkeypatch.setattr(sys, "stdin", Terminal("n\n"))
    assert main(["export", "1", "--reveal", "--db", str(db)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "[y/N]" in err
    monkeypatch.setattr(sys, "stdin", Terminal("y\n"))
    assert main(["export", "1", "--reveal", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert all(s in out for s in secrets)


def test_a_finished_game_exports_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "journal.sqlite3"
    secrets = _play(db, finish=True)
    assert main(["export", "1", "--db", str(db)]) == 0
    out, err = capsys.readouterr()
    assert all(s in out for s in secrets) and err == ""
