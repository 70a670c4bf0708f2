"""The fast assistant gives exactly what today's reference assistant gives: the same candidate
weights, the same question ranking with the same floats, the same joint assignments in the same
order, on seeded games for every player count and several points of a game."""

from __future__ import annotations

import random

import pytest

from companion.break_the_code import reference_solver as reference
from companion.break_the_code import solver
from companion.break_the_code.cards import CARD_IDS, answer
from companion.break_the_code.game import (
    AnswerEntry,
    Ask,
    GameState,
    Guess,
    apply,
    deal_tiles,
    new_game,
)

CHOICE = {"Q02": (1, 2), "Q03": (3, 4), "Q05": (6, 7), "Q06": (8, 9)}
NAMES = ("Ana", "Ben", "Cleo", "Dan")
#: the numbers of questions asked at which the views are compared
POINTS = (0, 1, 2, 5, 10)


def _games(players: int, seed: int) -> list[tuple[int, GameState]]:
    """A game with random questions (and, with 3-4 players, an odd wrong guess), at each
    point of :data:`POINTS`; odd seeds play with a face-up row."""
    rng = random.Random(seed)
    deck = list(CARD_IDS)
    rng.shuffle(deck)
    state = apply(new_game(NAMES[:players], deck=deck if seed % 2 else None),
                  deal_tiles(players, rng))
    out = []
    while not state.over and len(state.asked) <= max(POINTS):
        if len(state.asked) in POINTS and (not out or out[-1][0] != len(state.asked)):
            out.append((len(state.asked), state))
        player = state.current_player
        assert player is not None
        if players > 2 and rng.random() < 0.1:
            wrong = deal_tiles(players, rng).racks[0]
            if wrong != state.central:
                state = apply(state, Guess(player, wrong))
                continue
        card = rng.choice(state.askable_cards)
        state = apply(state, Ask(player, card, rng.choice(CHOICE[card]) if card in CHOICE
                                 else None))
    return out


def _check_same(view: solver.View, *, every_question: bool = True) -> None:
    old, new = reference.suggest(view), solver.suggest(view)
    assert dict(new.candidates.weights) == dict(old.candidates.weights)
    assert new.candidates.ranked() == old.candidates.ranked()
    assert (new.question, new.guess, new.probability, new.twins) == (
        old.question, old.guess, old.probability, old.twins)
    if not every_question:
        return
    assert solver.rank_questions(view) == reference.rank_questions(view)
    if len(view.players) > 2:
        old_joint = reference.joint_assignments(view)
        new_joint = solver.joint_assignments(view)
        assert (new_joint is None) == (old_joint is None)
        if old_joint is not None and new_joint is not None:
            assert list(new_joint.items()) == list(old_joint.items())


@pytest.mark.parametrize("players, seed", [(2, 1), (2, 2), (3, 3), (3, 4), (4, 5), (4, 6)])
def test_the_assistant_equals_the_reference(players: int, seed: int) -> None:
    for asked, state in _games(players, seed):
        # the first turn of a 4-player game takes the reference a second: check it once
        if players == 4 and asked == 0 and seed != 5:
            continue
        # early in a 3-4 player game the reference is slow: its whole ranking is compared from
        # the second question on (the suggestion, at every point)
        _check_same(solver.view_of(state, NAMES[(asked + seed) % players]),
                    every_question=players == 2 or asked >= 2)


def test_the_assistant_equals_the_reference_late_in_the_game() -> None:
    # a handful of codes left: twins and guesses
    for players, seed in ((2, 7), (3, 8), (4, 9)):
        rng = random.Random(seed)
        state = apply(new_game(NAMES[:players]), deal_tiles(players, rng))
        for card in CARD_IDS:
            if state.over:
                break
            player = state.current_player
            assert player is not None
            state = apply(state, Ask(player, card, CHOICE[card][0] if card in CHOICE else None))
            if len(state.asked) in (14, 18):
                _check_same(solver.view_of(state, NAMES[len(state.asked) % players]))


def test_the_assistant_equals_the_reference_with_a_rack_that_answered_nothing() -> None:
    # Ben has answered five questions, Cleo none: few enough joint assignments for the exact
    # information, with Cleo's rack any tile set of the rest
    rng = random.Random(12)
    deal = deal_tiles(3, rng)
    answers = tuple(
        AnswerEntry(i, card, None, "Ben", answer(card, deal.racks[1]))
        for i, card in enumerate(("Q19", "Q14", "Q07", "Q11", "Q16"))
    )
    view = solver.View(players=NAMES[:3], me="Ana", own_rack=deal.racks[0], answers=answers)
    assert solver.joint_assignments(view) is not None
    _check_same(view)
