"""The Second Chance rules engine: start tiles, rounds, second chances, drop-out and scoring.

The state is frozen; :meth:`SecondChanceRules.apply_event` takes one record event
(``shared/records.md``, section *Second Chance*) and returns the next state, raising
:class:`~companion.errors.RecordError` for a malformed event and
:class:`~companion.errors.IllegalMoveError` naming the rule for a refused one.

A second chance is never taken on trust: the engine checks that neither revealed card fits the
player's grid, and a drop-out (``"cells": null``) is accepted only when the second-chance card
does not fit either.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import IllegalMoveError, RecordError
from companion.record import event_where, optional, require
from companion.second_chance.deck import PUZZLE_CARDS, START_SIZE, Deck
from companion.second_chance.errors import ShapeError
from companion.second_chance.grid import CENTRE, Grid, fits, in_grid
from companion.second_chance.shapes import Cell, Shape, check_polyomino, parse_shape

GAME = "second-chance"
MIN_PLAYERS = 1
MAX_PLAYERS = 6


@dataclass(frozen=True)
class PlayerState:
    """One player's sheet and standing."""

    name: str
    grid: Grid = Grid()
    started: bool = False
    #: the round (1-based) in which the player dropped out, None while in
    out_round: int | None = None
    #: the player has resolved the current round (drew, took a second chance, or dropped out)
    resolved: bool = False

    @property
    def is_out(self) -> bool:
        return self.out_round is not None


@dataclass(frozen=True)
class SecondChanceState:
    """Everything the rules need between events."""

    players: tuple[PlayerState, ...]
    deck_size: int
    cards_left: int
    #: 0 before the first reveal
    round: int = 0
    #: the two face-up cards of the current round (canonical), None before the first reveal
    revealed: tuple[Shape, Shape] | None = None
    #: players who need a second chance this round but find the deck short; nobody gets one
    shortage: bool = False
    #: the round of the first drop-out; players out in that round may write the 1
    first_out_round: int | None = None
    #: names in the order they dropped out
    out_order: tuple[str, ...] = ()
    over: bool = False
    #: "all-out", "grid-full", "deck-empty" or None while playing
    end_reason: str | None = None
    #: puzzle shapes still in the deck (canonical -> copies) when a deck catalogue is set
    catalogue: tuple[tuple[Shape, int], ...] | None = None
    #: start shapes still in the box when a deck catalogue is set
    starts_left: tuple[Shape, ...] | None = None

    @property
    def is_solo(self) -> bool:
        return len(self.players) == 1

    def player(self, name: str) -> PlayerState:
        for p in self.players:
            if p.name == name:
                return p
        names = ", ".join(p.name for p in self.players)
        raise IllegalMoveError(f"unknown player {name!r}; the players are {names}")

    @property
    def round_complete(self) -> bool:
        """Every player still in (or out this round) has resolved the current round."""
        if self.revealed is None:
            return True
        return all(p.resolved or p.is_out for p in self.players)

    def needs_second_chance(self, name: str) -> bool:
        """True when the player is in, has not resolved, and neither revealed card fits."""
        p = self.player(name)
        if self.revealed is None or p.is_out or p.resolved:
            return False
        return not any(fits(p.grid, card) for card in self.revealed)

    def may_write_bonus(self, name: str) -> bool:
        p = self.player(name)
        return (
            not self.is_solo
            and p.out_round is not None
            and p.out_round == self.first_out_round
            and p.grid.bonus is None
        )


def _replace_player(state: SecondChanceState, new: PlayerState) -> SecondChanceState:
    return replace(
        state, players=tuple(new if p.name == new.name else p for p in state.players)
    )


def _cells(event: Mapping[str, Any], key: str, *, where: str) -> list[Cell]:
    raw = require(event, key, list, where=where)
    cells: list[Cell] = []
    for item in raw:
        if (
            not isinstance(item, list)
            or len(item) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)
        ):
            raise RecordError(f"{where}: every cell of {key!r} must be [row, col], got {item!r}")
        cells.append((item[0], item[1]))
    return cells


def _check_cells_on_grid(cells: Sequence[Cell], grid: Grid, *, what: str) -> None:
    outside = [list(c) for c in cells if not in_grid(c)]
    if outside:
        raise IllegalMoveError(
            f"{what}: cells {outside} are off the 9x9 grid (rows and columns 0-8)"
        )
    if len(set(cells)) != len(cells):
        raise IllegalMoveError(f"{what}: a cell is listed twice in {[list(c) for c in cells]}")
    taken = [list(c) for c in cells if grid.is_filled(c)]
    if taken:
        raise IllegalMoveError(f"{what}: cells {taken} are already filled (no drawing over tiles)")


def _shape_text(value: str, *, what: str, sizes: range = range(1, 8)) -> Shape:
    try:
        return check_polyomino(parse_shape(value), sizes=sizes).canonical()
    except ShapeError as exc:
        raise IllegalMoveError(f"{what}: {exc}") from exc


class SecondChanceRules:
    """The Second Chance engine. ``RULES`` is the instance with no card catalogue.

    With ``deck`` set, start tiles must be the deck's start cards (each used once) and every
    revealed or second-chance card must still be in the deck.
    """

    game = GAME
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS

    def __init__(self, *, deck: Deck | None = None) -> None:
        self.deck = deck

    # -- the GameRules protocol ------------------------------------------------------------

    def new_game(self, players: Sequence[str], options: Mapping[str, Any]) -> SecondChanceState:
        default = self.deck.size if self.deck is not None else PUZZLE_CARDS
        deck_size = optional(options, "deck_size", int, default, where="options")
        if deck_size < 0:
            raise RecordError(f"options: 'deck_size' must be 0 or more, got {deck_size}")
        catalogue = None
        starts = None
        if self.deck is not None:
            catalogue = self.deck.puzzle
            starts = tuple(t.shape for t in self.deck.start_tiles)
        return SecondChanceState(
            players=tuple(PlayerState(name) for name in players),
            deck_size=deck_size,
            cards_left=deck_size,
            catalogue=catalogue,
            starts_left=starts,
        )

    def apply_event(
        self, state: SecondChanceState, event: Mapping[str, Any], *, index: int
    ) -> SecondChanceState:
        where = event_where(index, event)
        kind = require(event, "type", str, where=where)
        handler = self._handlers.get(kind)
        if handler is None:
            raise RecordError(
                f"{where}: unknown event type {kind!r}; Second Chance has "
                f"{', '.join(sorted(self._handlers))}"
            )
        if state.over and kind != "bonus":
            raise IllegalMoveError(
                f"{where}: the game is over ({state.end_reason}); no more events"
            )
        try:
            return handler(self, state, event, where)
        except IllegalMoveError as exc:
            if str(exc).startswith("event "):
                raise
            raise IllegalMoveError(f"{where}: {exc}") from exc

    def result(self, state: SecondChanceState, *, complete: bool) -> dict[str, Any]:
        empty = {p.name: p.grid.empty_count for p in state.players}
        return {
            "game": GAME,
            "over": state.over,
            "winners": winners(state) if state.over else [],
            "scores": {name: -n for name, n in empty.items()},
            "empty": empty,
            "out": list(state.out_order),
            "bonus": {p.name: list(p.grid.bonus) for p in state.players if p.grid.bonus},
            "round": state.round,
            "cards_left": state.cards_left,
            "end": state.end_reason,
        }

    # -- events ------------------------------------------------------------------------------

    def _start(
        self, state: SecondChanceState, event: Mapping[str, Any], where: str
    ) -> SecondChanceState:
        name = require(event, "player", str, where=where)
        cells = _cells(event, "cells", where=where)
        p = state.player(name)
        if state.round > 0:
            raise IllegalMoveError("every start tile is drawn before the first reveal")
        if p.started:
            raise IllegalMoveError(f"{name} has already drawn a start tile")
        _check_cells_on_grid(cells, p.grid, what=f"{name}'s start tile")
        if len(cells) != START_SIZE:
            raise IllegalMoveError(
                f"a start tile has {START_SIZE} cells, {name}'s has {len(cells)}"
            )
        shape = Shape.from_cells(cells)
        if not shape.is_connected():
            raise IllegalMoveError(f"{name}'s start tile {shape.text!r} is not connected")
        if CENTRE not in cells:
            raise IllegalMoveError(
                f"{name}'s start tile must cover the centre {list(CENTRE)} (the circle)"
            )
        starts_left = state.starts_left
        if starts_left is not None:
            canonical = shape.canonical()
            if canonical not in starts_left:
                raise IllegalMoveError(
                    f"{name}'s start tile {canonical.text!r} is not a start card of the deck, "
                    "or another player already has it"
                )
            remaining = list(starts_left)
            remaining.remove(canonical)
            starts_left = tuple(remaining)
        new = replace(p, grid=p.grid.with_cells(cells), started=True)
        return replace(_replace_player(state, new), starts_left=starts_left)

    def _reveal(
        self, state: SecondChanceState, event: Mapping[str, Any], where: str
    ) -> SecondChanceState:
        cards = require(event, "cards", list, where=where)
        if not all(isinstance(c, str) for c in cards):
            raise RecordError(f"{where}: 'cards' must be a list of shape texts, got {cards!r}")
        if len(cards) != 2:
            raise IllegalMoveError(f"a round reveals exactly 2 cards, got {len(cards)}: {cards}")
        waiting = [p.name for p in state.players if not p.started]
        if waiting:
            raise IllegalMoveError(f"still to draw a start tile: {', '.join(waiting)}")
        if state.shortage:
            raise IllegalMoveError(
                "the deck cannot supply the second chances due this round; only 'end' is legal"
            )
        if not state.round_complete:
            pending = [p.name for p in state.players if not (p.resolved or p.is_out)]
            raise IllegalMoveError(f"round {state.round} is not complete: {', '.join(pending)} "
                                   "must still draw or take a second chance")
        if state.cards_left < 2:
            raise IllegalMoveError(
                f"only {state.cards_left} card(s) left in the deck; the game ends with 'end'"
            )
        shapes = (
            _shape_text(cards[0], what="card 0"),
            _shape_text(cards[1], what="card 1"),
        )
        catalogue = _take_from_catalogue(state.catalogue, shapes)
        after = replace(
            state,
            round=state.round + 1,
            revealed=shapes,
            cards_left=state.cards_left - 2,
            players=tuple(replace(p, resolved=False) for p in state.players),
            catalogue=catalogue,
        )
        due = [p.name for p in after.players if after.needs_second_chance(p.name)]
        return replace(after, shortage=len(due) > after.cards_left)

    def _draw(
        self, state: SecondChanceState, event: Mapping[str, Any], where: str
    ) -> SecondChanceState:
        name = require(event, "player", str, where=where)
        card = require(event, "card", int, where=where)
        cells = _cells(event, "cells", where=where)
        p = self._ready_to_resolve(state, name)
        assert state.revealed is not None  # _ready_to_resolve checked it
        if card not in (0, 1):
            raise IllegalMoveError(f"'card' is 0 or 1 (the two revealed cards), got {card}")
        shape = state.revealed[card]
        return _draw_shape(state, p, cells, shape, what=f"card {card} {shape.text!r}",
                           grid_what=f"{name}'s draw")

    def _second_chance(
        self, state: SecondChanceState, event: Mapping[str, Any], where: str
    ) -> SecondChanceState:
        name = require(event, "player", str, where=where)
        card_text = require(event, "card", str, where=where)
        if "cells" not in event:
            raise RecordError(f"{where}: missing field 'cells' (a list of cells, or null)")
        cells = None if event["cells"] is None else _cells(event, "cells", where=where)
        p = self._ready_to_resolve(state, name)
        assert state.revealed is not None
        fitting = [i for i, c in enumerate(state.revealed) if fits(p.grid, c)]
        if fitting:
            card = state.revealed[fitting[0]]
            raise IllegalMoveError(
                f"second chance refused: revealed card {fitting[0]} {card.text!r} still fits "
                f"{name}'s grid, so {name} must draw it"
            )
        if state.shortage:
            raise IllegalMoveError(
                "the deck cannot supply every second chance due this round, so nobody gets one; "
                "only 'end' is legal once the others have drawn"
            )
        shape = _shape_text(card_text, what="second-chance card")
        catalogue = _take_from_catalogue(state.catalogue, (shape,))
        state = replace(state, cards_left=state.cards_left - 1, catalogue=catalogue)
        if cells is None:
            if fits(p.grid, shape):
                raise IllegalMoveError(
                    f"{name} cannot drop out: the second-chance card {shape.text!r} fits the grid "
                    "and must be drawn"
                )
            first = state.first_out_round if state.first_out_round is not None else state.round
            new = replace(p, out_round=state.round, resolved=True)
            state = replace(
                _replace_player(state, new),
                first_out_round=first,
                out_order=(*state.out_order, name),
            )
            return _close_round_if_done(state)
        return _draw_shape(state, p, cells, shape,
                           what=f"the second-chance card {shape.text!r}",
                           grid_what=f"{name}'s second chance")

    def _bonus(
        self, state: SecondChanceState, event: Mapping[str, Any], where: str
    ) -> SecondChanceState:
        name = require(event, "player", str, where=where)
        if "cell" not in event:
            raise RecordError(f"{where}: missing field 'cell'")
        raw = event["cell"]
        if (
            not isinstance(raw, list)
            or len(raw) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
        ):
            raise RecordError(f"{where}: field 'cell' must be [row, col], got {raw!r}")
        cell: Cell = (raw[0], raw[1])
        p = state.player(name)
        if state.is_solo:
            raise IllegalMoveError("there is no bonus 1 in solo play")
        if p.grid.bonus is not None:
            raise IllegalMoveError(f"{name} has already written the 1 at {list(p.grid.bonus)}")
        if not p.is_out:
            raise IllegalMoveError(f"{name} is still in; only the first players out write a 1")
        if p.out_round != state.first_out_round:
            raise IllegalMoveError(
                f"{name} dropped out in round {p.out_round}, but only those out first (round "
                f"{state.first_out_round}) write a 1"
            )
        if not in_grid(cell):
            raise IllegalMoveError(f"cell {list(cell)} is off the 9x9 grid")
        if p.grid.is_filled(cell):
            raise IllegalMoveError(f"the 1 goes in an empty square; {list(cell)} is filled")
        return _replace_player(state, replace(p, grid=p.grid.with_bonus(cell)))

    def _end(
        self, state: SecondChanceState, event: Mapping[str, Any], where: str
    ) -> SecondChanceState:
        if state.shortage:
            waiting = [
                p.name for p in state.players
                if not (p.resolved or p.is_out) and not state.needs_second_chance(p.name)
            ]
            if waiting:
                raise IllegalMoveError(
                    f"the deck is short of second chances, but {', '.join(waiting)} must still draw"
                )
        elif not state.round_complete:
            raise IllegalMoveError(
                f"the deck has not run out: round {state.round} is still being played"
            )
        elif state.cards_left >= 2:
            raise IllegalMoveError(
                f"the deck has not run out: {state.cards_left} cards are left for the next reveal"
            )
        finished = _finish(state, "deck-empty")
        return finished

    def _ready_to_resolve(self, state: SecondChanceState, name: str) -> PlayerState:
        p = state.player(name)
        if state.revealed is None:
            raise IllegalMoveError("no cards have been revealed yet")
        if p.is_out:
            raise IllegalMoveError(f"{name} has dropped out; the grid is frozen")
        if p.resolved:
            raise IllegalMoveError(f"{name} has already drawn this round (round {state.round})")
        return p

    _handlers = {
        "start": _start,
        "reveal": _reveal,
        "draw": _draw,
        "second-chance": _second_chance,
        "bonus": _bonus,
        "end": _end,
    }


def _take_from_catalogue(
    catalogue: tuple[tuple[Shape, int], ...] | None, shapes: Sequence[Shape]
) -> tuple[tuple[Shape, int], ...] | None:
    if catalogue is None:
        return None
    left = dict(catalogue)
    for shape in shapes:
        if left.get(shape, 0) < 1:
            raise IllegalMoveError(f"card {shape.text!r} is not (or no longer) in the deck")
        left[shape] -= 1
    return tuple(left.items())


def _finish(state: SecondChanceState, reason: str) -> SecondChanceState:
    return replace(state, over=True, end_reason=reason, shortage=False)


def _draw_shape(
    state: SecondChanceState,
    p: PlayerState,
    cells: list[Cell],
    shape: Shape,
    *,
    what: str,
    grid_what: str,
) -> SecondChanceState:
    """``p`` draws ``shape`` on ``cells`` (a card or a second chance), and is done this round."""
    _check_cells_on_grid(cells, p.grid, what=grid_what)
    if not cells or Shape.from_cells(cells).canonical() != shape:
        drawn = Shape.from_cells(cells).text if cells else "nothing"
        raise IllegalMoveError(
            f"{p.name} drew {drawn!r}, which is not {what} in any of its 8 orientations"
        )
    new = replace(p, grid=p.grid.with_cells(cells), resolved=True)
    return _close_round_if_done(_replace_player(state, new))


def _close_round_if_done(state: SecondChanceState) -> SecondChanceState:
    """At the end of a round: a full grid or everybody out ends the game."""
    if not state.round_complete or state.shortage:
        return state
    if any(p.grid.is_full for p in state.players):
        return _finish(state, "grid-full")
    if all(p.is_out for p in state.players):
        return _finish(state, "all-out")
    return state


def winners(state: SecondChanceState) -> list[str]:
    """The winners: full grids win outright; else fewest empty squares, ties to holders of a 1.

    If no tied player has a 1, they all win; if several do, those share it.
    """
    if not state.players:
        return []
    full = [p.name for p in state.players if p.grid.is_full]
    if full:
        return full
    best = min(p.grid.empty_count for p in state.players)
    tied = [p for p in state.players if p.grid.empty_count == best]
    with_one = [p.name for p in tied if p.grid.bonus is not None]
    return with_one or [p.name for p in tied]


RULES = SecondChanceRules()

__all__ = [
    "GAME",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RULES",
    "PlayerState",
    "SecondChanceRules",
    "SecondChanceState",
    "winners",
]
