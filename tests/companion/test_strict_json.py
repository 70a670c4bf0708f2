"""``companion replay`` reads records strictly: what ``json`` lets through is exit 2, one line
naming the path in the record, quoting at most 80 characters of the input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.record import FORMAT
from ui.cli import main

PLACE = {"type": "place", "player": "Ana", "cell": [1, -3], "tile": 3, "rotation": 2}
ILLEGAL = dict(PLACE, player="Ben")  # Ben out of turn


def _head(game: str = "indigo", players: str = '["Ana", "Ben"]') -> str:
    return f'"format": "{FORMAT}", "game": "{game}", "players": {players}'


def _replay(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    code = main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert err.count("\n") == (0 if code == 0 else 1) and "Traceback" not in err, err
    return code, err


@pytest.mark.parametrize(("body", "where"), [
    # an illegal event list hidden behind a second, empty one
    (f'"events": [{json.dumps(ILLEGAL)}], "events": []', 'record: the key "events" appears twice'),
    ('"events": [{"type": "place", "type": "place", "player": "Ana"}]',
     'events[0]: the key "type" appears twice'),
    ('"events": [{"type": "place", "tile": NaN}]', "events[0].tile: NaN is not a JSON number"),
    ('"events": [{"type": "place", "rotation": -Infinity}]', "events[0].rotation: -Infinity"),
    ('"events": [{"type": "place", "rotation": 1e400}]', "events[0].rotation: the number"),
    ('"events": [], "options": null', "record: field 'options' must be an object, got null"),
])
def test_refused_with_the_path(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               body: str, where: str) -> None:
    code, err = _replay(tmp_path, "{" + _head() + ", " + body + "}", capsys)
    assert code == 2
    assert err.startswith(f"companion: error: {where}"), err


def test_deep_nesting_is_exit_2_not_a_recursion_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for depth in (65, 1000, 100_000):
        text = "{" + _head() + ', "events": [{"type": "place", "tile": ' + "[" * depth
        text += "]" * depth + "}]}"
        code, err = _replay(tmp_path, text, capsys)
        assert code == 2 and "events[0].tile[0][0]" in err and "deeper than 64 levels" in err
    code, _ = _replay(tmp_path, "{" + _head() + ', "events": [], "options": {"x": '
                      + "[" * 62 + "]" * 62 + "}}", capsys)
    assert code == 0  # 64 levels are allowed


def test_huge_integers_and_strings_are_quoted_short(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = _replay(tmp_path, "{" + _head() + ', "events": [{"type": "place", "tile": '
                        + "7" * 5000 + "}]}", capsys)
    assert code == 2 and "events[0].tile: an integer of 5000 digits, more than 100" in err
    assert "7" * 81 not in err
    name = "N" * 50_000
    code, err = _replay(tmp_path, "{" + _head(players=f'["Ana", "{name}"]')
                        + ', "events": []}', capsys)
    assert code == 2 and "players[1]: a string of 50000 characters" in err
    assert "N" * 81 not in err and len(err) < 300


def test_engine_messages_quote_at_most_80_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stranger = "S" * 9000  # within the strict reader's limit, unknown to the game
    event = dict(PLACE, player=stranger)
    code, err = _replay(tmp_path, "{" + _head() + f', "events": [{json.dumps(event)}]}}',
                        capsys)
    assert code == 3 and "S" * 81 not in err


ENIGMA_TILE = {"cells": {"a": "red"}, "links": [["N", "a"]]}


@pytest.mark.parametrize("event", [
    {"type": "round", "choices": {"Ana": 3, "Ben": "conduit"}, "solved": []},
    {"type": "round", "choices": {"Ana": "weight", "Ben": "conduit"}, "solved": [1]},
    {"type": "place", "player": "Ana", "at": [1, 0], "rotation": 0,
     "tile": dict(ENIGMA_TILE, cells={"a": 5})},
    {"type": "place", "player": "Ana", "at": [1, 0], "rotation": 0,
     "tile": dict(ENIGMA_TILE, cells=["a"])},
    {"type": "place", "player": "Ana", "at": [1, 0], "rotation": 0,
     "tile": dict(ENIGMA_TILE, links=[["N", 2]])},
    {"type": "place", "player": "Ana", "at": [1, 0], "rotation": 0,
     "tile": dict(ENIGMA_TILE, links={"N": "a"})},
])
def test_a_wrong_json_type_inside_an_enigma_event_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], event: dict[str, object]
) -> None:
    code, err = _replay(tmp_path, "{" + _head("enigma") + f', "events": [{json.dumps(event)}]}}',
                        capsys)
    assert code == 2 and "must be a" in err, err


def test_envelope_messages_quote_at_most_80_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # found by tests/test_fuzz_inputs.py: the format was quoted whole
    text = '{"format": "' + FORMAT + "9" * 500 + '", "game": "indigo", "players": [], "events": []}'
    code, err = _replay(tmp_path, text, capsys)
    assert code == 2 and "unknown format" in err and "9" * 81 not in err
