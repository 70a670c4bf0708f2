"""The journal: games, events appended one transaction each, undo, finish, meta, records, and
what happens to a file that is not a usable database."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.errors import JournalError, RecordError
from companion.journal import GameFinishedError, GameNotFoundError, GameSummary, Journal
from companion.record import FORMAT, Record, parse_record

PLACE = {"type": "place", "player": "Ana", "cell": [1, -3], "tile": 3, "rotation": 2}


class Clock:
    """A clock that moves one second per reading."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "j.sqlite3", clock=Clock()) as j:
        yield j


def test_events_round_trip_in_order(journal: Journal) -> None:
    gid = journal.new_game("indigo", ["Ana", "Ben"], {"layout": "2p"})
    events = [dict(PLACE, tile=t, name="Zoë ✓") for t in range(5)]
    seqs = [journal.append(gid, e) for e in events]
    assert seqs == [1, 2, 3, 4, 5]
    assert journal.events(gid) == events


def test_games_are_kept_apart(journal: Journal) -> None:
    a = journal.new_game("indigo", ["Ana", "Ben"], {})
    b = journal.new_game("enigma", ["Cleo", "Dan"], {"target": 12})
    journal.append(a, PLACE)
    journal.append(b, {"type": "round"})
    journal.append(b, {"type": "round", "n": 2})
    assert journal.events(a) == [PLACE]
    assert [e.get("n") for e in journal.events(b)] == [None, 2]
    assert journal.append(a, PLACE) == 2


def test_summary_fields(journal: Journal) -> None:
    gid = journal.new_game("enigma", ("Ana", "Ben", "Cleo"), {"target": 12})
    journal.append(gid, {"type": "round"})
    summary = journal.game(gid)
    assert isinstance(summary, GameSummary)
    assert summary.id == gid and summary.game == "enigma"
    assert summary.players == ("Ana", "Ben", "Cleo")
    assert summary.options == {"target": 12}
    assert summary.event_count == 1
    assert summary.started == datetime(2026, 1, 2, 3, 4, 6, tzinfo=UTC)
    assert summary.updated == datetime(2026, 1, 2, 3, 4, 7, tzinfo=UTC)
    assert summary.finished is None and summary.result is None and not summary.is_finished


def test_undo_drops_only_the_last_event(journal: Journal) -> None:
    gid = journal.new_game("indigo", ["Ana", "Ben"], {})
    assert journal.undo(gid) is None
    journal.append(gid, {"type": "a"})
    journal.append(gid, {"type": "b"})
    assert journal.undo(gid) == {"type": "b"}
    assert journal.events(gid) == [{"type": "a"}]
    assert journal.append(gid, {"type": "c"}) == 2  # the sequence stays dense
    assert journal.events(gid) == [{"type": "a"}, {"type": "c"}]
    assert journal.undo(gid) == {"type": "c"}
    assert journal.undo(gid) == {"type": "a"}
    assert journal.undo(gid) is None
    assert journal.events(gid) == []


def test_finish_keeps_history_and_freezes_events(journal: Journal) -> None:
    gid = journal.new_game("indigo", ["Ana", "Ben"], {})
    journal.append(gid, PLACE)
    result = {"game": "indigo", "over": True, "winners": ["Ana"], "scores": {"Ana": 3, "Ben": 1}}
    journal.finish(gid, result)
    summary = journal.game(gid)
    assert summary.is_finished and summary.result == result
    assert journal.events(gid) == [PLACE]
    with pytest.raises(GameFinishedError, match=f"game {gid} is finished"):
        journal.append(gid, PLACE)
    with pytest.raises(GameFinishedError):
        journal.undo(gid)
    with pytest.raises(GameFinishedError):
        journal.finish(gid, result)
    assert journal.events(gid) == [PLACE]


def test_listing_games_and_latest_unfinished(journal: Journal) -> None:
    assert journal.games() == [] and journal.latest_unfinished() is None
    first = journal.new_game("indigo", ["Ana", "Ben"], {})
    second = journal.new_game("enigma", ["Ana", "Ben"], {})
    third = journal.new_game("second-chance", ["Ana"], {})
    journal.finish(third, {"over": True})
    assert [g.id for g in journal.games()] == [third, second, first]  # newest first
    assert [g.id for g in journal.games(finished=True)] == [third]
    assert [g.id for g in journal.games(finished=False)] == [second, first]
    latest = journal.latest_unfinished()
    assert latest is not None and latest.id == second
    journal.finish(second, {})
    latest = journal.latest_unfinished()
    assert latest is not None and latest.id == first


def test_unknown_game_ids(journal: Journal) -> None:
    for call in (lambda: journal.game(99), lambda: journal.events(99),
                 lambda: journal.append(99, PLACE), lambda: journal.undo(99),
                 lambda: journal.finish(99, {}), lambda: journal.record(99),
                 lambda: journal.set_meta(99, "screen", "x")):
        with pytest.raises(GameNotFoundError, match="no game 99 in the journal"):
            call()
    assert issubclass(GameNotFoundError, LookupError)
    assert issubclass(GameNotFoundError, JournalError)


def test_meta(journal: Journal) -> None:
    gid = journal.new_game("indigo", ["Ana", "Ben"], {})
    assert journal.get_meta(gid, "screen") is None
    assert journal.get_meta(gid, "screen", "home") == "home"
    journal.set_meta(gid, "screen", "timer")
    journal.set_meta(gid, "a.b[0]", {"nested": [1, 2]})
    assert journal.get_meta(gid, "screen") == "timer"
    assert journal.get_meta(gid, "a.b[0]") == {"nested": [1, 2]}
    journal.set_meta(gid, "screen", None)
    assert journal.get_meta(gid, "screen", "gone") == "gone"
    assert journal.game(gid).meta == {"a.b[0]": {"nested": [1, 2]}}
    journal.finish(gid, {})
    journal.set_meta(gid, "screen", "summary")  # allowed on a finished game
    assert journal.get_meta(gid, "screen") == "summary"


def test_record_is_a_valid_envelope(journal: Journal) -> None:
    gid = journal.new_game("indigo", ["Ana", "Ben"], {"layout": "2p"})
    journal.append(gid, PLACE)
    record = journal.record(gid)
    assert record == Record(game="indigo", players=("Ana", "Ben"), options={"layout": "2p"},
                            events=(PLACE,))
    data = json.loads(json.dumps(record.to_json()))
    assert data["format"] == FORMAT
    assert parse_record(data) == record


@pytest.mark.parametrize("bad", [
    {"no_type": 1}, {"type": 3}, ["type", "place"], {"type": "x", "when": datetime.now()},
    {"type": "x", "score": float("nan")},
])
def test_bad_events_are_refused_and_not_stored(journal: Journal, bad: object) -> None:
    gid = journal.new_game("indigo", ["Ana", "Ben"], {})
    with pytest.raises(RecordError):
        journal.append(gid, bad)  # type: ignore[arg-type]
    assert journal.events(gid) == []


def test_data_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "j.sqlite3"  # missing directories are made
    with Journal(path) as j:
        gid = j.new_game("indigo", ["Ana", "Ben"], {})
        j.append(gid, PLACE)
        j.set_meta(gid, "screen", "board")
    with Journal(path) as j:
        assert j.events(gid) == [PLACE]
        assert j.get_meta(gid, "screen") == "board"
        assert j.integrity_check() == ["ok"]


def test_pragmas(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as j:
        conn = j._conn
        assert conn is not None
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_appended_events_are_visible_to_another_connection_at_once(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal(path) as j:
        gid = j.new_game("indigo", ["Ana", "Ben"], {})
        j.append(gid, PLACE)
        other = sqlite3.connect(path)
        try:
            assert other.execute("SELECT count(*) FROM events").fetchone()[0] == 1
        finally:
            other.close()


def test_closed_journal(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite3")
    j.close()
    j.close()
    with pytest.raises(JournalError, match="is closed"):
        j.games()


def test_create_false_refuses_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="no journal at"):
        Journal(tmp_path / "absent.sqlite3", create=False)
    assert not (tmp_path / "absent.sqlite3").exists()


# --- files that are not usable databases --------------------------------------------------------

def _moved_aside(tmp_path: Path, name: str = "j.sqlite3") -> list[Path]:
    return sorted(tmp_path.glob(f"{name}.corrupt-*"))


def test_a_non_database_file_is_moved_aside_not_emptied(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    content = b"my shopping list: eggs, milk\n" * 100
    path.write_bytes(content)
    with pytest.raises(JournalError) as caught:
        Journal(path, clock=Clock())
    moved = _moved_aside(tmp_path)
    assert [m.name for m in moved] == ["j.sqlite3.corrupt-20260102T030406Z"]
    assert moved[0].read_bytes() == content
    message = str(caught.value)
    assert "not an SQLite database" in message and str(moved[0]) in message
    assert not path.exists()
    with Journal(path) as j:  # opening again starts afresh
        assert j.games() == []


def test_a_corrupt_database_is_moved_aside_with_its_content(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal(path) as j:
        gid = j.new_game("indigo", ["Ana", "Ben"], {})
        for n in range(300):
            j.append(gid, {"type": "tick", "n": n, "pad": "x" * 50})
    data = bytearray(path.read_bytes())
    assert len(data) > 5 * 4096
    garbage = bytes((n * 37 + 11) % 256 for n in range(400))
    data[3 * 4096: 3 * 4096 + 400] = garbage  # a b-tree page of the events table
    path.write_bytes(bytes(data))
    with pytest.raises(JournalError, match="cannot be used: .*moved aside to"):
        Journal(path)
    moved = _moved_aside(tmp_path)
    assert len(moved) == 1 and moved[0].read_bytes() == bytes(data)
    assert not path.exists()


def test_a_truncated_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal(path) as j:
        gid = j.new_game("indigo", ["Ana", "Ben"], {})
        for n in range(300):
            j.append(gid, {"type": "tick", "n": n, "pad": "x" * 50})
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(JournalError, match="moved aside"):
        Journal(path)
    assert _moved_aside(tmp_path)[0].read_bytes() == data[: len(data) // 2]


def test_moving_aside_twice_keeps_both_files(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    clock = Clock()
    for text in (b"first junk", b"second junk"):
        path.write_bytes(text)
        clock.now = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)  # the same second both times
        with pytest.raises(JournalError):
            Journal(path, clock=clock)
    assert sorted(p.read_bytes() for p in _moved_aside(tmp_path)) == [b"first junk",
                                                                      b"second junk"]


def test_a_wal_file_moves_with_its_database(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    path.write_bytes(b"not a database at all")
    (tmp_path / "j.sqlite3-wal").write_bytes(b"wal bytes")
    with pytest.raises(JournalError):
        Journal(path)
    moved = _moved_aside(tmp_path, "j.sqlite3")
    names = sorted(p.name for p in moved)
    assert len(names) == 2 and names[1] == names[0] + "-wal"
    assert not (tmp_path / "j.sqlite3-wal").exists()


def test_a_newer_schema_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version=99")
    conn.commit()
    conn.close()
    with pytest.raises(JournalError, match="newer version"):
        Journal(path)
    assert path.exists() and not _moved_aside(tmp_path)


def test_another_apps_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "photos.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE photos (name TEXT)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(JournalError, match="database of something else"):
        Journal(path)
    assert path.read_bytes() == before and not _moved_aside(tmp_path, "photos.db")


def test_a_directory_in_the_way(tmp_path: Path) -> None:
    (tmp_path / "j.sqlite3").mkdir()
    with pytest.raises(JournalError, match="is a directory"):
        Journal(tmp_path / "j.sqlite3")
    assert (tmp_path / "j.sqlite3").is_dir()


def test_a_parent_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    with pytest.raises(JournalError, match="cannot create the journal's directory"):
        Journal(tmp_path / "plain" / "j.sqlite3")


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs Linux /proc")
def test_an_unwritable_directory_even_for_root() -> None:
    # /proc accepts no new files, even from root
    with pytest.raises(JournalError, match="cannot open the journal /proc/j.sqlite3"):
        Journal("/proc/j.sqlite3")


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
def test_an_unwritable_directory(tmp_path: Path) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        with pytest.raises(JournalError, match="cannot open the journal"):
            Journal(ro / "j.sqlite3")
    finally:
        ro.chmod(0o700)
