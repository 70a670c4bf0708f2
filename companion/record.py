"""The game-record envelope of ``shared/records.md`` and typed access to its fields.

A record is one JSON document: ``format``, ``game``, ``players``, ``options`` and ``events``.
Structural problems (bad JSON, a missing field, a field of the wrong JSON type) raise
:class:`RecordError` (exit 2 in ``companion replay``); everything about the *content* of
well-typed fields is for the rules engines (exit 3).

>>> rec = parse_record({"format": FORMAT, "game": "indigo", "players": ["Ana", "Ben"],
...                     "events": []})
>>> rec.players
('Ana', 'Ben')
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from companion.errors import RecordError
from companion.strict_json import loads_strict

FORMAT = "tabletop-companion/record/1"
GAMES = ("enigma", "indigo", "second-chance", "break-the-code")

T = TypeVar("T")

_JSON_NAMES: dict[type, str] = {
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "true or false",
    list: "a list",
    dict: "an object",
}


@dataclass(frozen=True)
class Record:
    """A parsed, envelope-checked game record. Events are still raw JSON objects."""

    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    events: tuple[Mapping[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready object, in the ``shared/records.md`` format."""
        return {
            "format": FORMAT,
            "game": self.game,
            "players": list(self.players),
            "options": dict(self.options),
            "events": [dict(e) for e in self.events],
        }


def describe_json_type(value: object) -> str:
    """A JSON-flavoured name for a value's type, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    for kind, name in _JSON_NAMES.items():
        if type(value) is kind:
            return name.split(" ", 1)[1]
    return type(value).__name__


def _is_kind(value: object, kind: type) -> bool:
    # JSON has no separate bool/int: True must not pass as an integer, nor 3 as a bool.
    if kind is bool:
        return isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, kind)


def require(obj: Mapping[str, Any], key: str, kind: type[T], *, where: str) -> T:
    """Return ``obj[key]``, which must exist and be of JSON type ``kind``.

    ``where`` names the place for the message, e.g. ``"event 3 (place)"``.
    """
    if key not in obj:
        raise RecordError(f"{where}: missing field {key!r}")
    value = obj[key]
    if not _is_kind(value, kind):
        raise RecordError(
            f"{where}: field {key!r} must be {_JSON_NAMES.get(kind, kind.__name__)}, "
            f"got {describe_json_type(value)} {json.dumps(value)[:60]}"
        )
    return value  # type: ignore[no-any-return]


def optional(
    obj: Mapping[str, Any], key: str, kind: type[T], default: T, *, where: str
) -> T:
    """Like :func:`require`, but an absent key (or JSON null) gives ``default``."""
    if obj.get(key) is None:
        return default
    return require(obj, key, kind, where=where)


def require_int_pair(obj: Mapping[str, Any], key: str, *, where: str) -> tuple[int, int]:
    """A field that must be a list of exactly two integers, such as a cell ``[q, r]``."""
    value = require(obj, key, list, where=where)
    if len(value) != 2 or not all(_is_kind(v, int) for v in value):
        raise RecordError(f"{where}: field {key!r} must be a list of two integers, got {value!r}")
    return (value[0], value[1])


def parse_record(data: object) -> Record:
    """Check the envelope of a decoded JSON document and return a :class:`Record`."""
    if not isinstance(data, dict):
        raise RecordError(f"a record must be a JSON object, got {describe_json_type(data)}")
    where = "record"
    fmt = require(data, "format", str, where=where)
    if fmt != FORMAT:
        raise RecordError(f"record: unknown format {fmt!r}, expected {FORMAT!r}")
    game = require(data, "game", str, where=where)
    if game not in GAMES:
        raise RecordError(f"record: unknown game {game!r}; known games: {', '.join(GAMES)}")
    players = require(data, "players", list, where=where)
    for i, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            raise RecordError(f"record: player {i + 1} must be a non-empty name, got {name!r}")
    if len(set(players)) != len(players):
        dupes = sorted({p for p in players if players.count(p) > 1})
        raise RecordError(f"record: player names must be unique, repeated: {', '.join(dupes)}")
    # absent options are the defaults; null is not an object (records.md: exit 2)
    options = require(data, "options", dict, where=where) if "options" in data else {}
    events = require(data, "events", list, where=where)
    for i, event in enumerate(events, start=1):
        if not isinstance(event, dict):
            raise RecordError(f"event {i}: must be a JSON object, got {describe_json_type(event)}")
        require(event, "type", str, where=f"event {i}")
    return Record(game=game, players=tuple(players), options=options, events=tuple(events))


def loads_record(text: str) -> Record:
    """Parse a record from JSON text with the strict reader (:mod:`companion.strict_json`):
    a duplicated key, NaN, deep nesting, a huge number or string is a :class:`RecordError`."""
    return parse_record(loads_strict(text))


def check_player_count(record: Record, lowest: int, highest: int) -> None:
    """Raise :class:`RecordError` when the record's player count is outside a game's range."""
    n = len(record.players)
    if not lowest <= n <= highest:
        raise RecordError(
            f"record: {record.game} takes {lowest}-{highest} players, the record has {n}"
        )


def event_where(index: int, event: Mapping[str, Any]) -> str:
    """The standard way to name an event in messages: ``event 3 (place)``, 1-based."""
    return f"event {index} ({event.get('type', '?')})"

