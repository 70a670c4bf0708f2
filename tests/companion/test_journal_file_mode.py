"""The journal holds every game's secrets: it is created readable by its owner only."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from companion.journal import Journal


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.usefixtures("open_umask")
def test_a_new_journal_and_its_wal_files_are_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        game = journal.new_game("break-the-code", ["Ana", "Ben"], {})
        journal.append(game, {"type": "ask", "player": "Ana", "card": "Q13"})
        files = [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]
        assert all(f.exists() for f in files)
        assert {f.name: _mode(f) for f in files} == {f.name: 0o600 for f in files}


@pytest.mark.usefixtures("open_umask")
def test_an_existing_journal_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal(path):
        pass
    path.chmod(0o640)  # a group the admin chose, e.g. for a backup user
    with Journal(path):
        pass
    assert _mode(path) == 0o640
