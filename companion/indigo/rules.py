"""Indigo game records (``shared/records.md``, section *Indigo*): replay and export.

:data:`RULES` implements :class:`companion.engine.GameRules` for ``companion replay``:

* a malformed event (unknown ``type``, a missing field, a field of the wrong JSON type) or a bad
  ``layout`` option raises :class:`~companion.errors.RecordError` (exit 2);
* a well-typed event whose content breaks a rule (unknown player, a tile type that does not
  exist, an off-board cell, the blocking rule, ...) raises
  :class:`~companion.indigo.errors.PlacementError`, an ``IllegalMoveError`` (exit 3).

>>> game = RULES.new_game(["Ana", "Ben"], {})
>>> game = RULES.apply_event(game, {"type": "place", "player": "Ana", "cell": [0, -1],
...                                 "tile": 1, "rotation": 0}, index=1)
>>> RULES.result(game, complete=True)["gems_on_board"]
12
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import RecordError
from companion.indigo.errors import PlacementError, Rule, SetupError
from companion.indigo.geometry import LAYOUT_PLAYERS, LAYOUTS
from companion.indigo.pieces import GEM_ORDER
from companion.indigo.state import (
    IndigoState,
    Placement,
    PlacementReport,
    new_game,
    play,
    scores,
    winners,
)
from companion.indigo.tiles import Tile
from companion.record import FORMAT, event_where, optional, require, require_int_pair


@dataclass(frozen=True)
class IndigoGame:
    """A game with its players' names: what the session and replay carry between events."""

    names: tuple[str, ...]
    state: IndigoState
    last_report: PlacementReport | None = None

    def seat(self, name: str) -> int | None:
        return self.names.index(name) if name in self.names else None


def layout_option(options: Mapping[str, Any], players: int) -> str:
    """The ``layout`` option checked against the player count (RecordError when bad)."""
    layout = optional(options, "layout", str, "", where="options")
    if not layout:
        return f"{players}p"
    if layout not in LAYOUTS:
        raise RecordError(f"options: unknown layout {layout!r}; known: {', '.join(LAYOUTS)}")
    if LAYOUT_PLAYERS[layout] != players:
        raise RecordError(
            f"options: layout {layout!r} is for {LAYOUT_PLAYERS[layout]} players, "
            f"the record has {players}"
        )
    return layout


class IndigoRules:
    """The :class:`companion.engine.GameRules` of Indigo."""

    game = "indigo"
    min_players = 2
    max_players = 4

    def new_game(self, players: Sequence[str], options: Mapping[str, Any]) -> IndigoGame:
        names = tuple(players)
        layout = layout_option(options, len(names))
        try:
            state = new_game(len(names), layout=layout)
        except SetupError as exc:
            raise RecordError(f"record: {exc}") from exc
        return IndigoGame(names, state)

    def apply_event(self, state: Any, event: Mapping[str, Any], *, index: int) -> IndigoGame:
        game: IndigoGame = state
        where = event_where(index, event)
        kind = require(event, "type", str, where=where)
        if kind != "place":
            raise RecordError(f"{where}: unknown Indigo event type {kind!r}; expected 'place'")
        name = require(event, "player", str, where=where)
        cell = require_int_pair(event, "cell", where=where)
        tile_type = require(event, "tile", int, where=where)
        rotation = require(event, "rotation", int, where=where)
        current = game.state
        if current.is_over:
            raise PlacementError(
                Rule.GAME_OVER, "the game is over, no gem is left on the board", where=where
            )
        seat = game.seat(name)
        if seat is None:
            raise PlacementError(
                Rule.UNKNOWN_PLAYER,
                f"{name!r} is not a player; players: {', '.join(game.names)}",
                where=where,
            )
        if not 0 <= tile_type <= 4:
            raise PlacementError(
                Rule.NO_SUCH_TILE, f"tile type {tile_type} is not 0..4", where=where
            )
        if not 0 <= rotation <= 5:
            raise PlacementError(
                Rule.NO_SUCH_ROTATION, f"rotation {rotation} is not 0..5", where=where
            )
        placement = Placement(cell, Tile(tile_type, rotation))
        try:
            after, report = play(current, placement, player=seat)
        except PlacementError as exc:
            seats = ", ".join(f"P{i} {n}" for i, n in enumerate(game.names))
            raise PlacementError(
                exc.rule, f"{exc.detail} (seats: {seats})", where=where
            ) from exc
        return IndigoGame(game.names, after, report)

    def result(self, state: Any, *, complete: bool) -> dict[str, Any]:
        game: IndigoGame = state
        current = game.state
        points = scores(current)
        return {
            "game": self.game,
            "over": current.is_over,
            "winners": [game.names[i] for i in winners(current)],
            "scores": {name: points[i] for i, name in enumerate(game.names)},
            "gems": {
                name: {gem.value: current.hauls[i][gem.slot] for gem in GEM_ORDER}
                for i, name in enumerate(game.names)
            },
            "gems_on_board": current.gems_on_board,
            "gems_removed": current.gems_removed,
        }


RULES = IndigoRules()


def place_event(name: str, placement: Placement) -> dict[str, Any]:
    """The record event for ``placement`` by ``name``."""
    return {
        "type": "place",
        "player": name,
        "cell": [placement.cell[0], placement.cell[1]],
        "tile": placement.tile.kind,
        "rotation": placement.tile.rotation,
    }


def to_record(names: Sequence[str], state: IndigoState) -> dict[str, Any]:
    """The game record of ``state``'s placements (seat k % n placed the k-th tile)."""
    if len(names) != state.players:
        raise ValueError(f"{len(names)} names for a {state.players}-player game")
    options: dict[str, Any] = {}
    if state.layout != f"{state.players}p":
        options["layout"] = state.layout
    return {
        "format": FORMAT,
        "game": "indigo",
        "players": list(names),
        "options": options,
        "events": [
            place_event(names[k % state.players], placement)
            for k, placement in enumerate(state.history)
        ],
    }
