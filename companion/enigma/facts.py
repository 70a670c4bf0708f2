"""The physical facts of Enigma that nobody here knows for sure, read from data.

``companion/data/enigma/facts.json`` holds each fact as ``{"value": ..., "status": "..."}`` so
the screen can say which values are DEMO guesses (rules/enigma.md sections 1 and 9). The app's
config may override the sand timer; this file is the documented default.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.enigma.catalogue import read_data_text
from companion.enigma.errors import CatalogueError

FACTS_FORMAT = "tabletop-companion/enigma-facts/1"


@dataclass(frozen=True)
class GameFacts:
    """Physical facts with their provenance (``statuses`` maps a fact to its status text)."""

    status: str
    cell_colours: tuple[str, ...]
    player_colours: tuple[str, ...]
    sand_timer_seconds: int
    weights_in_box: int
    conduit_pieces_in_box: int
    fragment_pieces_in_box: int
    angular_pieces_in_box: int
    statuses: Mapping[str, str]


def _value(data: Mapping[str, Any], key: str) -> Any:
    item = data.get(key)
    if not isinstance(item, Mapping) or "value" not in item:
        raise CatalogueError(f"facts: {key!r} must be an object with 'value' and 'status'")
    return item["value"]


def _names(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = _value(data, key)
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise CatalogueError(f"facts: {key!r} must be a list of names, got {value!r}")
    return tuple(value)


def _count(data: Mapping[str, Any], key: str) -> int:
    value = _value(data, key)
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise CatalogueError(f"facts: {key!r} must be a positive integer, got {value!r}")
    return value


def parse_facts(data: object) -> GameFacts:
    """Validate a decoded facts document."""
    if not isinstance(data, Mapping) or data.get("format") != FACTS_FORMAT:
        raise CatalogueError(f"facts: expected an object with format {FACTS_FORMAT!r}")
    statuses = {
        key: str(item.get("status", ""))
        for key, item in data.items()
        if isinstance(item, Mapping)
    }
    return GameFacts(
        status=str(data.get("status", "demo")),
        cell_colours=_names(data, "cell_colours"),
        player_colours=_names(data, "player_colours"),
        sand_timer_seconds=_count(data, "sand_timer_seconds"),
        weights_in_box=_count(data, "weights_in_box"),
        conduit_pieces_in_box=_count(data, "conduit_pieces_in_box"),
        fragment_pieces_in_box=_count(data, "fragment_pieces_in_box"),
        angular_pieces_in_box=_count(data, "angular_pieces_in_box"),
        statuses=statuses,
    )


def load_facts() -> GameFacts:
    """The facts shipped with the package (DEMO values where unknown)."""
    try:
        return parse_facts(json.loads(read_data_text("facts.json")))
    except json.JSONDecodeError as exc:
        raise CatalogueError(f"facts.json: not valid JSON: {exc.msg}") from exc


__all__ = ["FACTS_FORMAT", "GameFacts", "load_facts", "parse_facts"]
