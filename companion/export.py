"""What ``companion export`` may show of a game: secrets stay covered until the end.

A Break the Code game still in play holds secrets: every rack, the central code, and the
guesses (a right guess *is* the secret it guessed). Anyone at the table can run the export,
so those fields are replaced by :data:`COVERED` until the game is over. Questions asked and
answered stay: they were said aloud at the table.

>>> rec = Record("break-the-code", ("Ana", "Ben"),
...              events=({"type": "deal", "racks": {"Ana": "0b 1w 2b 3w 4b",
...                                                 "Ben": "5g 5g 6b 7w 8b"}},))
>>> cover_secrets(rec).events[0]["racks"]
{'Ana': 'covered', 'Ben': 'covered'}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.record import Record

#: the placeholder that stands where a secret was left out
COVERED = "covered"

#: games whose records hold secrets while in play
GAMES_WITH_SECRETS = ("break-the-code",)


def has_secrets(record: Record) -> bool:
    """True when ``record`` is of a game whose events carry secrets while it is in play."""
    return record.game in GAMES_WITH_SECRETS


def _covered_event(event: Mapping[str, Any]) -> dict[str, Any]:
    covered = dict(event)
    kind = event.get("type")
    if kind == "deal":
        racks = event.get("racks")
        if isinstance(racks, Mapping):
            covered["racks"] = {name: COVERED for name in racks}
        elif "racks" in event:
            covered["racks"] = COVERED
        if event.get("central") is not None:
            covered["central"] = COVERED
    elif kind == "guess" and "code" in event:
        covered["code"] = COVERED
    return covered


def cover_secrets(record: Record) -> Record:
    """``record`` with every secret of a game in play replaced by :data:`COVERED`."""
    if not has_secrets(record):
        return record
    return Record(
        game=record.game,
        players=record.players,
        options=record.options,
        events=tuple(_covered_event(e) for e in record.events),
    )


def is_covered(event: Mapping[str, Any]) -> bool:
    """True when ``event`` had its secrets replaced by :data:`COVERED` on export."""
    racks = event.get("racks")
    values = list(racks.values()) if isinstance(racks, Mapping) else [racks]
    return COVERED in (*values, event.get("central"), event.get("code"))
