"""Break the Code behind the :class:`~companion.engine.GameRules` protocol (``companion replay``).

Record events (``shared/records.md``)::

    {"type": "deal", "racks": {"Ana": "0b 1w 3b 5g 8w", ...}, "central": "..."}
    {"type": "ask", "player": "Ana", "card": "Q02", "number": 1}
    {"type": "guess", "player": "Ana", "code": "1w 2b 4b 7w 9w"}

A field of the wrong JSON type, a missing field (``central`` with 3-4 players, ``number`` on a
choose-one card) or an unknown event type is a :class:`RecordError` (exit 2); a tile that does
not exist, an unknown player or card and every rule is an :class:`IllegalMoveError` (exit 3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.break_the_code.cards import get_card
from companion.break_the_code.game import (
    Ask,
    Deal,
    GameState,
    Guess,
    apply,
    check_deck,
    new_game,
    result_json,
)
from companion.break_the_code.tiles import Code, parse_code
from companion.errors import IllegalMoveError, RecordError
from companion.record import event_where, optional, require

GAME = "break-the-code"


def parse_deal(state: GameState, event: Mapping[str, Any], *, where: str) -> Deal:
    """The ``deal`` event as a :class:`Deal` (racks in seat order)."""
    racks_json = require(event, "racks", dict, where=where)
    for name, text in racks_json.items():
        if not isinstance(text, str):
            raise RecordError(f"{where}: the rack of {name!r} must be a string of tiles")
    unknown = [name for name in racks_json if name not in state.players]
    if unknown:
        raise IllegalMoveError(
            f"the deal has a rack for {', '.join(map(repr, unknown))}, who does not play; "
            f"players: {', '.join(state.players)}"
        )
    missing = [p for p in state.players if p not in racks_json]
    if missing:
        raise IllegalMoveError(f"the deal has no rack for {', '.join(missing)}")
    racks: list[Code] = []
    for name in state.players:
        try:
            racks.append(parse_code(racks_json[name], canonical=True))
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"{name}'s rack: {exc}") from None
    central: Code | None = None
    if len(state.players) > 2:
        text = require(event, "central", str, where=where)
        try:
            central = parse_code(text, canonical=True)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"the central tiles: {exc}") from None
    elif event.get("central") is not None:
        raise IllegalMoveError("a 2-player game has no central tiles")
    return Deal(tuple(racks), central)


def parse_ask(event: Mapping[str, Any], *, where: str) -> Ask:
    player = require(event, "player", str, where=where)
    card_id = require(event, "card", str, where=where)
    number = optional(event, "number", int, None, where=where)
    card = get_card(card_id)
    if card.is_choice and number is None:
        raise RecordError(f"{where}: missing field 'number' (card {card.id} is a choose-one card)")
    return Ask(player, card.id, number)


def parse_guess(state: GameState, event: Mapping[str, Any], *, where: str) -> Guess:
    player = require(event, "player", str, where=where)
    text = require(event, "code", str, where=where)
    state.seat_of(player)  # an unknown player is named before the code is looked at
    # A guess must be a well-formed code in rack order, like a rack; the message repeats only
    # what the guesser wrote.
    code = parse_code(text, length=state.rack_size, canonical=True)
    return Guess(player, code)


class BreakTheCodeRules:
    """The Break the Code rules engine for ``companion replay`` and the session."""

    game = GAME
    min_players = 2
    max_players = 4

    def new_game(self, players: Sequence[str], options: Mapping[str, Any]) -> GameState:
        deck = options.get("deck")
        if deck is None:
            return new_game(players)
        if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
            raise RecordError("option 'deck' must be a list of card ids Q01..Q21")
        try:
            check_deck(deck)
        except IllegalMoveError as exc:
            raise RecordError(f"option 'deck': {exc}") from None
        return new_game(players, deck=deck)

    def apply_event(
        self, state: GameState, event: Mapping[str, Any], *, index: int
    ) -> GameState:
        where = event_where(index, event)
        kind = event.get("type")
        if kind == "deal":
            return apply(state, parse_deal(state, event, where=where), index=index)
        if kind == "ask":
            return apply(state, parse_ask(event, where=where), index=index)
        if kind == "guess":
            if state.over:
                raise IllegalMoveError("the game is over; no more moves")
            return apply(state, parse_guess(state, event, where=where), index=index)
        raise RecordError(f"{where}: unknown event type {kind!r}; Break the Code has deal, ask "
                          "and guess")

    def result(self, state: GameState, *, complete: bool) -> dict[str, Any]:
        return {
            "game": GAME,
            "over": state.over,
            "winners": list(state.winners),
            "scores": {},
            **result_json(state),
        }


RULES = BreakTheCodeRules()
