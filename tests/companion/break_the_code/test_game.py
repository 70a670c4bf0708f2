"""Turns, answers and the end of the game for 2, 3 and 4 players."""

from __future__ import annotations

import random

import pytest

from companion.break_the_code.cards import CARD_IDS
from companion.break_the_code.game import (
    Ask,
    Deal,
    GameState,
    Guess,
    apply,
    deal_tiles,
    new_game,
    result_json,
    shuffle_deck,
)
from companion.break_the_code.tiles import ALL_TILES, Code
from companion.errors import IllegalMoveError

TWO = {"Ana": "0b 1w 5g 5g 9b", "Ben": "2b 3w 4b 6w 8b"}
THREE = {"Ana": "0b 0w 1b 1w 2b", "Ben": "2w 3b 3w 4b 4w", "Cleo": "5g 5g 6b 6w 7b"}
THREE_CENTRAL = "7w 8b 8w 9b 9w"
FOUR = {"Ana": "0b 0w 1b 1w", "Ben": "2b 2w 3b 3w", "Cleo": "4b 4w 5g 5g", "Dan": "6b 6w 7b 7w"}
FOUR_CENTRAL = "8b 8w 9b 9w"


def dealt(racks: dict[str, str], central: str | None = None,
          deck: list[str] | None = None) -> GameState:
    state = new_game(list(racks), deck=deck)
    return apply(state, Deal(tuple(Code.parse(r) for r in racks.values()),
                             Code.parse(central) if central else None))


def play(state: GameState, *moves: Ask | Guess) -> GameState:
    for move in moves:
        state = apply(state, move)
    return state


def guess(player: str, code: str) -> Guess:
    return Guess(player, Code.parse(code))


# ------------------------------------------------------------------ setup


@pytest.mark.parametrize(("players", "size", "central"), [(2, 5, False), (3, 5, True),
                                                          (4, 4, True)])
def test_the_dealer_follows_the_setup_table(players: int, size: int, central: bool) -> None:
    deal = deal_tiles(players, random.Random(players))
    assert [len(r) for r in deal.racks] == [size] * players
    assert (deal.central is not None) == central
    tiles = sorted(t for r in deal.racks for t in r.tiles) + sorted(
        deal.central.tiles if deal.central else ())
    if central:
        assert sorted(tiles) == sorted(ALL_TILES)  # every tile is dealt
    assert deal_tiles(players, random.Random(players)) == deal  # seeded
    apply(new_game(["A", "B", "C", "D"][:players]), deal)  # and legal


def test_shuffle_deck_is_a_permutation() -> None:
    deck = shuffle_deck(random.Random(1))
    assert sorted(deck) == list(CARD_IDS) and deck != CARD_IDS


@pytest.mark.parametrize(
    ("racks", "central", "message"),
    [
        ({"Ana": "0b 1w 5g 5g 9b", "Ben": "0b 3w 4b 6w 8b"}, None, "tile 0b 2 times"),
        ({"Ana": "0b 1w 5g 5g 9b", "Ben": "2b 3w 4b 5g 8b"}, None, "tile 5g 3 times"),
        ({"Ana": "0b 1w 5g 9b", "Ben": "2b 3w 4b 6w 8b"}, None, "Ana's rack has 4 tiles"),
        (TWO, "7b 7w 8w 9b 9w", "no central"),
    ],
)
def test_bad_deals(racks: dict[str, str], central: str | None, message: str) -> None:
    with pytest.raises(IllegalMoveError, match=message):
        dealt(racks, central)


def test_moves_need_a_deal_and_only_one() -> None:
    with pytest.raises(IllegalMoveError, match="not been dealt"):
        apply(new_game(["Ana", "Ben"]), Ask("Ana", "Q19"))
    state = dealt(TWO)
    with pytest.raises(IllegalMoveError, match="already dealt"):
        apply(state, Deal(state.racks or ()))


# ------------------------------------------------------------------ asking


def test_two_players_the_opponent_answers_and_turns_alternate() -> None:
    state = play(dealt(TWO), Ask("Ana", "Q19"), Ask("Ben", "Q02", 1))
    assert result_json(state)["answers"] == [
        {"event": 2, "card": "Q19", "by": "Ben", "answer": 23},  # event 1 is the deal
        {"event": 3, "card": "Q02", "number": 1, "by": "Ana", "answer": ["B"]},
    ]
    assert state.current_player == "Ana"


def test_three_players_the_two_others_answer_clockwise_from_the_left() -> None:
    state = play(dealt(THREE, THREE_CENTRAL), Ask("Ana", "Q09"), Ask("Ben", "Q01"))
    assert [(a.by, a.answer) for a in state.answers] == [
        ("Ben", 2), ("Cleo", 3), ("Cleo", []), ("Ana", ["A", "B"])]


def test_four_players_everyone_answers_the_asker_last() -> None:
    state = play(dealt(FOUR, FOUR_CENTRAL), Ask("Ana", "Q16"), Ask("Ben", "Q15"))
    assert [(a.by, a.answer) for a in state.answers] == [
        ("Ben", 5), ("Cleo", 9), ("Dan", 13), ("Ana", 1),       # B+C
        ("Cleo", 14), ("Dan", 20), ("Ana", 2), ("Ben", 8),      # B+C+D
    ]


def test_each_card_is_asked_once_even_with_the_other_number() -> None:
    state = play(dealt(TWO), Ask("Ana", "Q02", 1))
    with pytest.raises(IllegalMoveError, match="already been asked"):
        apply(state, Ask("Ben", "Q02", 2))
    assert "Q02" not in state.askable_cards


def test_out_of_turn_and_unknown_players_are_refused() -> None:
    state = dealt(TWO)
    with pytest.raises(IllegalMoveError, match="Ana's turn, not Ben's"):
        apply(state, Ask("Ben", "Q19"))
    with pytest.raises(IllegalMoveError, match="'Zed' does not play"):
        apply(state, Ask("Zed", "Q19"))


def test_with_a_deck_only_the_six_face_up_cards_may_be_asked() -> None:
    deck = [f"Q{i:02d}" for i in range(21, 0, -1)]  # Q21 first
    state = dealt(TWO, deck=deck)
    assert state.askable_cards == ("Q21", "Q20", "Q19", "Q18", "Q17", "Q16")
    with pytest.raises(IllegalMoveError, match="not face up"):
        apply(state, Ask("Ana", "Q01"))
    state = apply(state, Ask("Ana", "Q19"))
    # the asked card's slot takes the next card of the deck
    assert state.askable_cards == ("Q21", "Q20", "Q15", "Q18", "Q17", "Q16")


def test_an_empty_deck_shrinks_the_row_and_the_last_card_ends_the_game() -> None:
    deck = list(CARD_IDS)
    state = dealt(TWO, deck=deck)
    players = ["Ana", "Ben"]
    for i in range(15):
        state = apply(state, Ask(players[i % 2], state.askable_cards[0],
                                 _choice(state.askable_cards[0])))
    assert len(state.askable_cards) == 6
    state = apply(state, Ask(players[15 % 2], state.askable_cards[-1],
                             _choice(state.askable_cards[-1])))
    assert len(state.askable_cards) == 5
    for i in range(16, 21):
        assert not state.over
        state = apply(state, Ask(players[i % 2], state.askable_cards[0],
                                 _choice(state.askable_cards[0])))
    assert state.over and state.winners == () and state.askable_cards == ()
    with pytest.raises(IllegalMoveError, match="over"):
        apply(state, guess("Ben", TWO["Ana"]))


def _choice(card: str) -> int | None:
    return {"Q02": 1, "Q03": 3, "Q05": 6, "Q06": 8}.get(card)


# ------------------------------------------------------------------ 2 players


def test_two_players_a_wrong_guess_costs_the_turn_only() -> None:
    state = play(dealt(TWO), guess("Ana", "2b 3w 4b 6w 9b"))
    assert state.current_player == "Ben" and not state.over and state.out == ()
    state = play(state, Ask("Ben", "Q19"), guess("Ana", TWO["Ben"]))
    # Ana is the start player: Ben gets one more turn
    assert not state.over and state.current_player == "Ben"


def test_two_players_the_second_player_wins_at_once() -> None:
    state = play(dealt(TWO), Ask("Ana", "Q19"), guess("Ben", TWO["Ana"]))
    assert state.over and state.winners == ("Ben",)


def test_two_players_last_chance_right_is_a_tie() -> None:
    state = play(dealt(TWO), guess("Ana", TWO["Ben"]))
    with pytest.raises(IllegalMoveError, match="only to guess"):
        apply(state, Ask("Ben", "Q19"))
    tie = apply(state, guess("Ben", TWO["Ana"]))
    assert tie.over and tie.winners == ("Ana", "Ben")
    lost = apply(state, guess("Ben", "0b 1w 5g 5g 9w"))
    assert lost.over and lost.winners == ("Ana",) and lost.out == ()


def test_a_malformed_guess_is_refused_not_judged() -> None:
    state = dealt(TWO)
    with pytest.raises(IllegalMoveError, match="5 tiles|has 4 tiles"):
        apply(state, guess("Ana", "2b 3w 4b 6w"))
    assert state.current_player == "Ana"


def test_a_guess_holding_your_own_tile_is_simply_wrong() -> None:
    state = play(dealt(TWO), guess("Ana", "0b 3w 4b 6w 8b"))
    assert not state.over and state.current_player == "Ben"


# ------------------------------------------------------------------ 3-4 players


def test_three_players_wrong_guess_is_out_but_still_answers() -> None:
    state = play(dealt(THREE, THREE_CENTRAL), guess("Ana", "6b 8b 8w 9b 9w"))
    assert state.out == ("Ana",) and state.current_player == "Ben"
    state = apply(state, Ask("Ben", "Q01"))
    assert [a.by for a in state.answers] == ["Cleo", "Ana"]
    with pytest.raises(IllegalMoveError, match="Ana is out"):
        apply(state, Ask("Ana", "Q19"))
    state = apply(state, Ask("Cleo", "Q19"))
    assert state.current_player == "Ben"  # Ana is skipped


def test_three_players_the_round_is_completed_after_a_right_guess() -> None:
    state = play(dealt(THREE, THREE_CENTRAL), Ask("Ana", "Q19"), guess("Ben", THREE_CENTRAL))
    assert not state.over and state.current_player == "Cleo"
    done = apply(state, Ask("Cleo", "Q20"))
    assert done.over and done.winners == ("Ben",)
    both = apply(state, guess("Cleo", THREE_CENTRAL))
    assert both.over and both.winners == ("Ben", "Cleo")
    wrong = apply(state, guess("Cleo", "7w 8b 8w 9b 6b"))
    assert wrong.over and wrong.winners == ("Ben",) and wrong.out == ("Cleo",)


def test_a_right_guess_by_the_last_seat_ends_the_game_at_once() -> None:
    state = play(dealt(THREE, THREE_CENTRAL), Ask("Ana", "Q19"), Ask("Ben", "Q18"),
                 guess("Cleo", THREE_CENTRAL))
    assert state.over and state.winners == ("Cleo",)


def test_a_right_guess_by_the_start_player_lets_the_others_play_once() -> None:
    state = play(dealt(FOUR, FOUR_CENTRAL), guess("Ana", FOUR_CENTRAL))
    assert state.current_player == "Ben" and state.cracked == ("Ana",)
    state = play(state, Ask("Ben", "Q19"), guess("Cleo", "6b 8b 9b 9w"))
    assert state.current_player == "Dan" and state.out == ("Cleo",)
    state = apply(state, guess("Dan", FOUR_CENTRAL))
    assert state.over and state.winners == ("Ana", "Dan")
    # the right guessers answered too
    assert [a.by for a in state.answers] == ["Cleo", "Dan", "Ana", "Ben"]


def test_everyone_out_means_no_winner() -> None:
    wrong = "7w 8b 8w 9b 6b"
    state = play(dealt(THREE, THREE_CENTRAL), guess("Ana", wrong), guess("Ben", wrong))
    assert not state.over and state.current_player == "Cleo"
    state = apply(state, Ask("Cleo", "Q19"))
    assert state.current_player == "Cleo"  # alone, Cleo plays on
    state = apply(state, guess("Cleo", wrong))
    assert state.over and state.winners == () and state.out == ("Ana", "Ben", "Cleo")


def test_out_players_are_skipped_at_the_start_of_a_round() -> None:
    state = play(dealt(FOUR, FOUR_CENTRAL), guess("Ana", "7b 8b 8w 9b"), Ask("Ben", "Q19"),
                 Ask("Cleo", "Q18"), Ask("Dan", "Q17"))
    assert state.current_player == "Ben"
    state = play(state, Ask("Ben", "Q16"), guess("Cleo", FOUR_CENTRAL))
    assert state.current_player == "Dan"
    state = apply(state, Ask("Dan", "Q15"))
    assert state.over and state.winners == ("Cleo",)


def test_running_out_of_questions_with_three_players() -> None:
    state = dealt(THREE, THREE_CENTRAL)
    order = ["Ana", "Ben", "Cleo"]
    for i, card in enumerate(CARD_IDS):
        state = apply(state, Ask(order[i % 3], card, _choice(card)))
    assert state.over and state.winners == ()


def test_running_out_of_questions_keeps_earlier_right_guessers() -> None:
    state = dealt(FOUR, FOUR_CENTRAL)
    order = ["Ana", "Ben", "Cleo", "Dan"]
    cards = list(CARD_IDS)
    for i, card in enumerate(cards[:20]):
        state = apply(state, Ask(order[i % 4], card, _choice(card)))
    # the 21st card is due from Ana (seat 0); Ana guesses right instead
    assert state.current_player == "Ana"
    state = apply(state, guess("Ana", FOUR_CENTRAL))
    state = apply(state, Ask("Ben", cards[20]))
    assert state.over and state.winners == ("Ana",)


def test_legal_asks_follow_the_row_and_the_turn() -> None:
    from companion.break_the_code.game import legal_asks

    assert legal_asks(new_game(["Ana", "Ben"])) == []
    state = dealt(TWO, deck=list(CARD_IDS))
    asks = legal_asks(state)
    assert {a.player for a in asks} == {"Ana"}
    assert [(a.card, a.number) for a in asks] == [
        ("Q01", None), ("Q02", 1), ("Q02", 2), ("Q03", 3), ("Q03", 4), ("Q04", None),
        ("Q05", 6), ("Q05", 7), ("Q06", 8), ("Q06", 9)]
    for ask in asks:
        apply(state, ask)  # every listed move is legal
    assert len(legal_asks(dealt(TWO))) == 25
    assert legal_asks(apply(dealt(TWO), guess("Ana", TWO["Ben"]))) == []  # last chance
