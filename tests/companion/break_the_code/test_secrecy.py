"""The secret (the central tiles, or the racks with 2 players) never shows before the end:
not in a repr, an error message, a log line or the replay result."""

from __future__ import annotations

import json
import logging
import random

import pytest

from companion.break_the_code.cards import CARD_IDS
from companion.break_the_code.game import (
    Ask,
    GameState,
    Guess,
    apply,
    deal_tiles,
    new_game,
)
from companion.break_the_code.rules import RULES
from companion.break_the_code.tiles import Code
from companion.errors import IllegalMoveError
from companion.record import parse_record
from companion.replay import replay


def _secrets(state: GameState) -> list[str]:
    assert state.racks is not None
    found = [str(r) for r in state.racks]
    if state.central is not None:
        found.append(str(state.central))
    return found


def _leaks(text: str, secrets: list[str]) -> list[str]:
    return [s for s in secrets if s in text]


def _probe(state: GameState) -> list[str]:
    """Everything the outside world may see of ``state``, including refused moves."""
    seen = [repr(state), str(state), json.dumps(RULES.result(state, complete=False))]
    assert state.racks is not None
    player = state.current_player or state.players[0]
    other = state.players[(state.seat_of(player) + 1) % len(state.players)]
    secret_like = state.central if state.central is not None else state.racks[1]
    attempts: list[Ask | Guess] = [
        Ask(other, "Q19"),                                   # out of turn
        Ask(player, "Q02", 7),                               # bad number
        Guess(other, secret_like),                           # right code, wrong turn
        Guess(player, Code(secret_like.tiles[:-1])),         # too short
    ]
    if state.asked:
        attempts.append(Ask(player, state.asked[0], None))
    for move in attempts:
        seen.append(repr(move))
        try:
            apply(state, move)
        except IllegalMoveError as exc:
            seen.append(str(exc))
    return seen


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_nothing_shows_the_secret_until_the_end(
    players: int, seed: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    rng = random.Random(seed)
    names = ["Ana", "Ben", "Cleo", "Dan"][:players]
    deal = deal_tiles(players, rng)
    state = new_game(names)
    state = apply(state, deal)
    secrets = _secrets(state)
    assert not _leaks(repr(deal), secrets)
    cards = list(CARD_IDS)
    rng.shuffle(cards)
    while not state.over:
        assert not _leaks("\n".join(_probe(state)), secrets), state
        player = state.current_player
        assert player is not None
        if state.last_chance or rng.random() < 0.25:
            # a guess: sometimes the real secret, mostly a wrong one
            target = state.central if players > 2 else state.racks[1 - state.turn]  # type: ignore[index]
            assert target is not None
            code = target if rng.random() < 0.3 else deal_tiles(players, rng).racks[0]
            state = apply(state, Guess(player, code))
        else:
            card = next(c for c in cards if c not in state.asked)
            number = {"Q02": 2, "Q03": 4, "Q05": 6, "Q06": 8}.get(card)
            state = apply(state, Ask(player, card, number))
    assert not _leaks(caplog.text, secrets)
    # over: now the racks may be shown
    assert any(s in repr(state) for s in secrets)


def test_replay_errors_do_not_show_the_secret() -> None:
    racks = {"Ana": "0b 1w 5g 5g 9b", "Ben": "2b 3w 4b 6w 8b"}
    record = parse_record({
        "format": "tabletop-companion/record/1", "game": "break-the-code",
        "players": ["Ana", "Ben"],
        "events": [
            {"type": "deal", "racks": racks},
            {"type": "ask", "player": "Ana", "card": "Q19"},
            {"type": "guess", "player": "Ana", "code": racks["Ben"]},  # out of turn
        ],
    })
    outcome = replay(record)
    assert outcome.exit_code == 3
    assert outcome.error is not None and "Ben's turn" in outcome.error
    text = outcome.error + json.dumps(outcome.result)
    assert not _leaks(text, list(racks.values()))
