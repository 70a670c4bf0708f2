"""``companion replay`` for Enigma: record events <-> moves, and the result object.

Exit 2 (RecordError) for the structure of the event itself: an unknown ``type``, a missing
field, a top-level field of the wrong JSON type. Exit 3 (IllegalMoveError) for everything
inside well-typed fields (an unknown player or category, a malformed tile) and every rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.enigma.errors import EnigmaIllegalMoveError, TileFormatError
from companion.enigma.game import (
    DEFAULT_TARGET,
    EnigmaOptions,
    EnigmaState,
    PlaceMove,
    RoundMove,
    apply,
    new_game,
)
from companion.enigma.tiles import CROSSROADS, format_tile, parse_tile
from companion.errors import RecordError
from companion.record import (
    describe_json_type,
    event_where,
    optional,
    require,
    require_int_pair,
)

EVENT_TYPES = ("round", "place")


def parse_options(options: Mapping[str, Any]) -> EnigmaOptions:
    """Record options; a bad value raises RecordError (exit 2), unknown keys are ignored."""
    where = "record options"
    target = optional(options, "target", int, DEFAULT_TARGET, where=where)
    if target < 1:
        raise RecordError(f"{where}: 'target' must be at least 1, got {target}")
    edge = optional(options, "require_edge_match", bool, True, where=where)
    start = CROSSROADS
    if options.get("start") is not None:
        raw = require(options, "start", dict, where=where)
        try:
            start = parse_tile(raw, where=f"{where}: 'start'")
        except TileFormatError as exc:
            raise RecordError(str(exc)) from exc
    rule = optional(options, "networker_rule", str, "any", where=where)
    if rule not in ("any", "others"):
        raise RecordError(f"{where}: 'networker_rule' must be 'any' or 'others', got {rule!r}")
    return EnigmaOptions(
        target=target, require_edge_match=edge, start=start, networker_rule=rule
    )


def _check_tile_types(raw_tile: Mapping[str, Any], *, where: str) -> None:
    """Raise RecordError for a tile field of the wrong JSON type (records.md: exit 2).

    Only the types: an unknown colour, a link end that is not a port, a link that is not a
    pair are about content, for :func:`parse_tile` and the rules (exit 3).
    """
    cells = raw_tile.get("cells", {})
    links = raw_tile.get("links", [])
    if not isinstance(cells, dict):
        raise RecordError(f"{where}: tile.cells must be an object, got {describe_json_type(cells)}")
    if not isinstance(links, list):
        raise RecordError(f"{where}: tile.links must be a list, got {describe_json_type(links)}")
    _require_strings(((f"tile.cells.{cell_id}", colour) for cell_id, colour in cells.items()),
                     " (a colour)", where=where)
    for number, link in enumerate(links):
        if not isinstance(link, list):
            raise RecordError(f"{where}: tile.links[{number}] must be a list, "
                              f"got {describe_json_type(link)}")
        _require_strings(((f"tile.links[{number}][{end}]", value)
                          for end, value in enumerate(link)), "", where=where)


def _require_strings(items: Iterable[tuple[str, Any]], meaning: str, *, where: str) -> None:
    """Each ``(path, value)`` must hold a JSON string (``meaning`` says what it names): a wrong
    JSON type is a malformed record (exit 2), not a broken rule."""
    for path, value in items:
        if not isinstance(value, str):
            raise RecordError(f"{where}: {path} must be a string{meaning}, "
                              f"got {describe_json_type(value)}")


def parse_event(event: Mapping[str, Any], *, index: int) -> RoundMove | PlaceMove:
    """The move an event stands for (structure only; the rules judge the content)."""
    where = event_where(index, event)
    kind = require(event, "type", str, where=where)
    if kind == "round":
        choices = require(event, "choices", dict, where=where)
        solved = require(event, "solved", list, where=where)
        _require_strings(((f"choices.{player}", category) for player, category in choices.items()),
                         " (a category name)", where=where)
        _require_strings(((f"solved[{number}]", player) for number, player in enumerate(solved)),
                         " (a player name)", where=where)
        return RoundMove(tuple(choices.items()), tuple(solved))
    if kind == "place":
        player = require(event, "player", str, where=where)
        raw_tile = require(event, "tile", dict, where=where)
        at = require_int_pair(event, "at", where=where)
        rotation = require(event, "rotation", int, where=where)
        networker: str | None = None
        if event.get("networker") is not None:
            networker = require(event, "networker", str, where=where)
        _check_tile_types(raw_tile, where=where)
        try:
            tile = parse_tile(raw_tile, where="tile")
        except TileFormatError as exc:
            raise EnigmaIllegalMoveError(f"rule 'tile schema': {exc}") from exc
        if not 0 <= rotation <= 3:
            raise EnigmaIllegalMoveError(
                f"rule 'rotation': rotation must be 0..3 clockwise quarter turns, got {rotation}"
            )
        return PlaceMove(player, tile, at, rotation, networker)
    raise RecordError(f"{where}: unknown event type {kind!r}; Enigma has {', '.join(EVENT_TYPES)}")


def format_move(move: RoundMove | PlaceMove) -> dict[str, object]:
    """The record event for a move (the inverse of :func:`parse_event`)."""
    if isinstance(move, RoundMove):
        return {"type": "round", "choices": dict(move.choices), "solved": list(move.solved)}
    return {
        "type": "place",
        "player": move.player,
        "tile": format_tile(move.tile),
        "at": list(move.at),
        "rotation": move.rotation,
        "networker": move.networker,
    }


def result_of(state: EnigmaState, *, complete: bool) -> dict[str, Any]:
    """The replay result of records.md, Enigma section."""
    over = state.is_over(record_ended=complete)
    open_count, closed_count = state.board.system_counts()
    return {
        "game": "enigma",
        "over": over,
        "winners": list(state.winners()) if over else [],
        "scores": dict(zip(state.players, state.scores, strict=True)),
        "networkers": {p: state.board.networkers_of(p) for p in state.players},
        "systems": {"open": open_count, "closed": closed_count},
    }


class EnigmaRules:
    """The :class:`companion.engine.GameRules` implementation for Enigma."""

    game = "enigma"
    min_players = 2
    max_players = 4

    def new_game(self, players: Sequence[str], options: Mapping[str, Any]) -> EnigmaState:
        return new_game(players, parse_options(options))

    def apply_event(
        self, state: EnigmaState, event: Mapping[str, Any], *, index: int
    ) -> EnigmaState:
        return apply(state, parse_event(event, index=index))

    def result(self, state: EnigmaState, *, complete: bool) -> dict[str, Any]:
        return result_of(state, complete=complete)


RULES = EnigmaRules()

__all__ = ["EVENT_TYPES", "EnigmaRules", "RULES", "format_move", "parse_event", "parse_options",
           "result_of"]
