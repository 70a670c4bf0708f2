"""Journal.delete_unfinished: an unfinished game goes with its events; history stays."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.journal import GameFinishedError, GameNotFoundError, Journal


def test_an_unfinished_game_is_deleted_with_its_events_and_a_finished_one_is_kept(
        tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        kept = journal.new_game("indigo", ["Ana", "Ben"])
        journal.append(kept, {"type": "place", "player": "Ana"})
        thrown = journal.new_game("enigma", ["Ana", "Ben"])
        journal.append(thrown, {"type": "round"})
        journal.delete_unfinished(thrown)
        assert [g.id for g in journal.games()] == [kept]
        with pytest.raises(GameNotFoundError):
            journal.events(thrown)
        journal.finish(kept, {"over": True})
        with pytest.raises(GameFinishedError):
            journal.delete_unfinished(kept)
        assert journal.events(kept) == [{"type": "place", "player": "Ana"}]
