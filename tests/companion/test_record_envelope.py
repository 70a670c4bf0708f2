"""The record envelope and the replay exit codes that do not depend on a game."""

from __future__ import annotations

import json

import pytest

from companion.errors import RecordError
from companion.record import FORMAT, loads_record, parse_record, require
from companion.replay import EXIT_NOT_A_RECORD, replay


def _doc(**over: object) -> dict[str, object]:
    doc: dict[str, object] = {
        "format": FORMAT, "game": "indigo", "players": ["Ana", "Ben"], "events": []
    }
    doc.update(over)
    return doc


@pytest.mark.parametrize(
    ("doc", "words"),
    [
        ([], "JSON object"),
        (_doc(format="other/1"), "unknown format"),
        (_doc(game="chess"), "unknown game 'chess'"),
        (_doc(players=["Ana", "Ana"]), "unique, repeated: Ana"),
        (_doc(players=["Ana", ""]), "player 2"),
        (_doc(events={}), "'events' must be a list"),
        (_doc(events=[3]), "event 1: must be a JSON object"),
        (_doc(events=[{"kind": "x"}]), "event 1: missing field 'type'"),
        (_doc(options=[]), "'options' must be an object"),
    ],
)
def test_bad_envelopes_name_the_problem(doc: object, words: str) -> None:
    with pytest.raises(RecordError, match=words):
        parse_record(doc)


def test_bad_json_names_line_and_column() -> None:
    with pytest.raises(RecordError, match="line 1, column"):
        loads_record("{nope")


def test_options_may_be_absent() -> None:
    assert parse_record(_doc()).options == {}


def test_json_booleans_are_not_integers() -> None:
    with pytest.raises(RecordError, match="must be an integer, got true/false"):
        require({"n": True}, "n", int, where="event 1")
    assert require({"n": 3}, "n", int, where="event 1") == 3


def test_player_count_outside_range_is_exit_2() -> None:
    record = loads_record(json.dumps(_doc(players=["Solo"])))
    outcome = replay(record)
    assert outcome.exit_code == EXIT_NOT_A_RECORD
