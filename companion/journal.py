"""The journal: every accepted game event, kept in SQLite before the app acts on it.

One database holds many games. Each event is appended in its own transaction and is on disk
(WAL, ``synchronous=FULL``) when :meth:`Journal.append` returns, so a power cut or ``kill -9``
loses nothing that was acknowledged; the current game is rebuilt by replaying its events.
Undo drops the last event; finished games stay as history and export as records.

A file that is not a usable database is never emptied or replaced: it is renamed with a
timestamp suffix (with its ``-wal``/``-shm`` companions) and :class:`JournalError` says where
it went; opening the path again starts an empty journal.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as tmp, Journal(pathlib.Path(tmp) / "j.sqlite3") as j:
...     gid = j.new_game("indigo", ["Ana", "Ben"], {})
...     j.append(gid, {"type": "place", "player": "Ana", "cell": [1, -3], "tile": 3,
...                    "rotation": 2})
...     [e["player"] for e in j.events(gid)]
1
['Ana']
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.closing import Closing
from companion.errors import JournalError, RecordError
from companion.record import Record

#: PRAGMA user_version of the tables below; a newer file is refused, never altered
SCHEMA_VERSION = 1
SQLITE_MAGIC = b"SQLite format 3\x00"
#: the journal's file mode: owner read/write only, it holds the games' secrets
JOURNAL_MODE = 0o600
#: SQLite result codes meaning "this file is damaged or not a database"
_CORRUPT_CODES = {"SQLITE_CORRUPT", "SQLITE_NOTADB"}

# statements are split on ";", so no comment below may contain one
_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    game     TEXT NOT NULL,
    players  TEXT NOT NULL,             -- JSON list of names, seat order
    options  TEXT NOT NULL,             -- JSON object
    started  TEXT NOT NULL,             -- ISO 8601, UTC
    finished TEXT,                      -- ISO 8601, UTC, NULL while in play
    result   TEXT,                      -- JSON object, set by finish()
    meta     TEXT NOT NULL DEFAULT '{}' -- JSON object: the UI's own notes (current screen)
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,           -- 1, 2, 3... in the order they happened
    event   TEXT NOT NULL,              -- JSON object with a "type"
    time    TEXT NOT NULL,              -- ISO 8601, UTC
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
"""


class GameNotFoundError(JournalError, LookupError):
    """The journal has no game with that id."""


class GameFinishedError(JournalError, ValueError):
    """The game is finished; its events can no longer change."""


@dataclass(frozen=True)
class GameSummary:
    """One game of the journal, without its events."""

    id: int
    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any]
    started: datetime
    finished: datetime | None
    result: Mapping[str, Any] | None
    #: number of events kept
    event_count: int
    #: time of the last event, or ``started`` when there is none
    updated: datetime
    meta: Mapping[str, Any] = field(default_factory=dict)

    @property
    def is_finished(self) -> bool:
        return self.finished is not None


def _now() -> datetime:
    return datetime.now(UTC)


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def _to_json(value: object, *, what: str) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise RecordError(f"{what} cannot be stored as JSON: {exc}") from None


def _moved_aside_name(path: Path, moment: datetime) -> Path:
    stamp = moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    candidate = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    return candidate


class Journal(Closing):
    """A SQLite event store of games. A context manager; :meth:`close` when done.

    ``path`` is the database file; its directory is created when missing. With
    ``create=False`` a missing file raises :class:`JournalError` instead of starting an empty
    journal (for read-only tools such as ``companion export``). ``clock`` gives the time stamps
    (tests pass a fixed one). The methods may be called from any thread; they take a lock.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        create: bool = True,
        clock: Callable[[], datetime] = _now,
    ) -> None:
        self.path = Path(path)
        self._clock = clock
        self._create = create
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        if not create and not self.path.exists():
            raise JournalError(f"no journal at {self.path}")
        self._conn = self._open()

    # --- opening, checking, moving aside ------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(
                f"cannot create the journal's directory {self.path.parent}: {exc.strerror}"
            ) from None
        if self.path.is_dir():
            raise JournalError(f"cannot open the journal {self.path}: it is a directory")
        self._check_header()
        self._create_private()
        conn: sqlite3.Connection | None = None
        try:
            conn = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=10.0
            )
            # look before changing anything: a newer journal or another app's database is
            # left exactly as it is (even switching to WAL rewrites the file header)
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise JournalError(
                    f"the journal {self.path} was written by a newer version of the app "
                    f"(schema {version}, this one knows {SCHEMA_VERSION}); it was left as it is"
                )
            if version == 0 and conn.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
            ).fetchone()[0]:
                raise JournalError(
                    f"{self.path} is an SQLite database of something else, not a journal; "
                    "it was left as it is"
                )
            problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                conn.close()
                self._move_aside(f"it is damaged ({problems[0]})")
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise JournalError(f"cannot open the journal {self.path}: WAL mode refused")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            self._create_tables(conn)
            return conn
        except sqlite3.Error as exc:
            if conn is not None:
                conn.close()
            if getattr(exc, "sqlite_errorname", "") in _CORRUPT_CODES:
                self._move_aside(f"it is not a usable database ({exc})")
            raise JournalError(f"cannot open the journal {self.path}: {exc}") from None
        except BaseException:
            if conn is not None:
                conn.close()
            raise

    def _create_private(self) -> None:
        """Create a missing journal file readable by its owner only (0600), whatever the umask.

        The journal holds every game's secrets (Break the Code racks). SQLite would create it
        with the umask's mode, 0644 outside the service, and gives its -wal and -shm files the
        database file's mode, so creating the file first covers all three.
        """
        if not self._create:
            return
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, JOURNAL_MODE)
        except FileExistsError:
            return
        except OSError as exc:
            raise JournalError(f"cannot open the journal {self.path}: {exc.strerror}") from None
        os.fchmod(fd, JOURNAL_MODE)  # os.open's mode passes through the umask
        os.close(fd)

    def _check_header(self) -> None:
        # SQLite opens a non-database lazily and fails only on first read; checking the magic
        # first gives a clearer message. An empty file is a new database.
        try:
            with open(self.path, "rb") as handle:
                head = handle.read(len(SQLITE_MAGIC))
        except FileNotFoundError:
            return
        except OSError as exc:
            raise JournalError(f"cannot read the journal {self.path}: {exc.strerror}") from None
        if head and head != SQLITE_MAGIC:
            self._move_aside("it is not an SQLite database")

    def _move_aside(self, why: str) -> None:
        """Rename the damaged file (and its WAL and shared-memory files), then raise.

        A read-only opening (``create=False``: ``companion export``, ``companion games``)
        leaves the file exactly where it is: a mistyped ``--db`` naming some other file must
        not have that file renamed by a command that only reads.
        """
        if not self._create:
            raise JournalError(
                f"the journal {self.path} cannot be used: {why}; it was left as it is"
            )
        target = _moved_aside_name(self.path, self._clock())
        try:
            os.rename(self.path, target)
            for suffix in ("-wal", "-shm"):
                companion = self.path.with_name(self.path.name + suffix)
                if companion.exists():
                    os.rename(companion, target.with_name(target.name + suffix))
        except OSError as exc:
            raise JournalError(
                f"the journal {self.path} cannot be used: {why}; moving it aside to {target} "
                f"failed too ({exc.strerror}); move or repair it by hand"
            ) from None
        raise JournalError(
            f"the journal {self.path} cannot be used: {why}; it was moved aside to {target} "
            "and a new, empty journal will be started at the same place"
        )

    @staticmethod
    def _create_tables(conn: sqlite3.Connection) -> None:
        # one statement at a time: executescript() would commit our transaction first
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    # --- resource handling --------------------------------------------------------------------

    def close(self) -> None:
        """Close the database. Safe to call twice."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


    def __repr__(self) -> str:
        state = "closed" if self._conn is None else "open"
        return f"Journal({str(self.path)!r}) <{state}>"

    @contextmanager
    def _transaction(self, *, write: bool) -> Iterator[sqlite3.Connection]:
        """Run a block in one transaction; any SQLite failure becomes a JournalError."""
        with self._lock:
            conn = self._conn
            if conn is None:
                raise JournalError(f"the journal {self.path} is closed")
            try:
                conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:
                    yield conn
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise JournalError(f"journal {self.path}: {exc}") from None

    # --- games --------------------------------------------------------------------------------

    def new_game(
        self, game: str, players: Sequence[str], options: Mapping[str, Any] | None = None
    ) -> int:
        """Start a game and return its id. Nothing about the rules is checked here."""
        if isinstance(players, str):
            raise RecordError(f"players must be a list of names, got the string {players!r}")
        players_json = _to_json(list(players), what="the players")
        options_json = _to_json(dict(options or {}), what="the options")
        with self._transaction(write=True) as conn:
            cursor = conn.execute(
                "INSERT INTO games (game, players, options, started) VALUES (?, ?, ?, ?)",
                (game, players_json, options_json, _stamp(self._clock())),
            )
            game_id = cursor.lastrowid
        assert game_id is not None
        return game_id

    def _require_game(
        self, conn: sqlite3.Connection, game_id: int, *, open_only: bool = False
    ) -> None:
        row = conn.execute("SELECT finished FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFoundError(f"no game {game_id} in the journal {self.path}")
        if open_only and row[0] is not None:
            raise GameFinishedError(f"game {game_id} is finished; its events cannot change")

    def finish(self, game_id: int, result: Mapping[str, Any]) -> None:
        """Mark the game finished with its result; it stays in the journal as history."""
        result_json = _to_json(dict(result), what=f"the result of game {game_id}")
        with self._transaction(write=True) as conn:
            self._require_game(conn, game_id, open_only=True)
            conn.execute(
                "UPDATE games SET finished = ?, result = ? WHERE id = ?",
                (_stamp(self._clock()), result_json, game_id),
            )

    def delete_unfinished(self, game_id: int) -> None:
        """Remove an unfinished game and its events (the players threw it away).

        A finished game is history and stays: deleting one raises
        :class:`GameFinishedError`.
        """
        with self._transaction(write=True) as conn:
            self._require_game(conn, game_id, open_only=True)
            conn.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
            conn.execute("DELETE FROM games WHERE id = ?", (game_id,))

    def game(self, game_id: int) -> GameSummary:
        """The summary of one game; an unknown id raises :class:`GameNotFoundError`."""
        with self._transaction(write=False) as conn:
            rows = self._summaries(conn, "WHERE g.id = ?", (game_id,))
        if not rows:
            raise GameNotFoundError(f"no game {game_id} in the journal {self.path}")
        return rows[0]

    def games(self, *, finished: bool | None = None) -> list[GameSummary]:
        """Every game, newest first; ``finished=True``/``False`` keeps only those."""
        where = {None: "", True: "WHERE g.finished IS NOT NULL",
                 False: "WHERE g.finished IS NULL"}[finished]
        with self._transaction(write=False) as conn:
            return self._summaries(conn, where, ())

    def latest_unfinished(self) -> GameSummary | None:
        """The most recently started game still in play (the one to resume), if any."""
        with self._transaction(write=False) as conn:
            rows = self._summaries(conn, "WHERE g.finished IS NULL", (), limit=1)
        return rows[0] if rows else None

    @staticmethod
    def _summaries(
        conn: sqlite3.Connection, where: str, params: tuple[Any, ...], *, limit: int = -1
    ) -> list[GameSummary]:
        rows = conn.execute(
            "SELECT g.id, g.game, g.players, g.options, g.started, g.finished, g.result, g.meta,"
            " (SELECT count(*) FROM events e WHERE e.game_id = g.id),"
            " (SELECT max(e.time) FROM events e WHERE e.game_id = g.id)"
            f" FROM games g {where} ORDER BY g.id DESC LIMIT ?",
            (*params, limit),
        ).fetchall()
        summaries = []
        for gid, game, players, options, started, finished, result, meta, count, last in rows:
            started_at = datetime.fromisoformat(started)
            summaries.append(GameSummary(
                id=gid,
                game=game,
                players=tuple(json.loads(players)),
                options=json.loads(options),
                started=started_at,
                finished=None if finished is None else datetime.fromisoformat(finished),
                result=None if result is None else json.loads(result),
                event_count=count,
                updated=started_at if last is None else datetime.fromisoformat(last),
                meta=json.loads(meta),
            ))
        return summaries

    # --- events -------------------------------------------------------------------------------

    def append(self, game_id: int, event: Mapping[str, Any]) -> int:
        """Store ``event`` as the game's next one and return its 1-based sequence number.

        The event is on disk when this returns. It must be a JSON object with a string
        ``type``; a finished or unknown game raises.
        """
        if not isinstance(event, Mapping) or not isinstance(event.get("type"), str):
            raise RecordError(f"an event must be a JSON object with a string 'type', got {event!r}")
        event_json = _to_json(dict(event), what=f"event {event.get('type')!r}")
        with self._transaction(write=True) as conn:
            self._require_game(conn, game_id, open_only=True)
            seq: int = conn.execute(
                "SELECT coalesce(max(seq), 0) + 1 FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            conn.execute(
                "INSERT INTO events (game_id, seq, event, time) VALUES (?, ?, ?, ?)",
                (game_id, seq, event_json, _stamp(self._clock())),
            )
        return seq

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """The game's events in order, as JSON objects."""
        with self._transaction(write=False) as conn:
            self._require_game(conn, game_id)
            rows = conn.execute(
                "SELECT event FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return [json.loads(row[0]) for row in rows]

    def undo(self, game_id: int) -> dict[str, Any] | None:
        """Drop the game's last event and return it; ``None`` when there was none."""
        with self._transaction(write=True) as conn:
            self._require_game(conn, game_id, open_only=True)
            row = conn.execute(
                "SELECT seq, event FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            conn.execute("DELETE FROM events WHERE game_id = ? AND seq = ?", (game_id, row[0]))
        dropped: dict[str, Any] = json.loads(row[1])
        return dropped

    # --- the UI's notes -----------------------------------------------------------------------

    def set_meta(self, game_id: int, key: str, value: Any) -> None:
        """Keep a JSON value under ``key`` for the game (the UI's current screen, say).

        ``None`` removes the key. Works on finished games too.
        """
        if value is not None:
            _to_json(value, what=f"meta {key!r}")
        with self._transaction(write=True) as conn:
            self._require_game(conn, game_id)
            meta = json.loads(
                conn.execute("SELECT meta FROM games WHERE id = ?", (game_id,)).fetchone()[0]
            )
            if value is None:
                meta.pop(key, None)
            else:
                meta[key] = value
            conn.execute(
                "UPDATE games SET meta = ? WHERE id = ?",
                (_to_json(meta, what="meta"), game_id),
            )

    def get_meta(self, game_id: int, key: str, default: Any = None) -> Any:
        """The value kept under ``key``, or ``default``."""
        meta = self.game(game_id).meta
        return meta.get(key, default)

    # --- records ------------------------------------------------------------------------------

    def record(self, game_id: int) -> Record:
        """The game as a record of ``shared/records.md`` (``Record.to_json()`` for the JSON)."""
        with self._transaction(write=False) as conn:
            self._require_game(conn, game_id)
            game, players, options = conn.execute(
                "SELECT game, players, options FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            rows = conn.execute(
                "SELECT event FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return Record(
            game=game,
            players=tuple(json.loads(players)),
            options=json.loads(options),
            events=tuple(json.loads(row[0]) for row in rows),
        )

    def integrity_check(self) -> list[str]:
        """``PRAGMA integrity_check``: ``["ok"]`` for a sound database."""
        with self._transaction(write=False) as conn:
            return [str(row[0]) for row in conn.execute("PRAGMA integrity_check")]
