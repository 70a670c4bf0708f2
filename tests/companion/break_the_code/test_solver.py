"""The deduction assistant: code tables, twins, candidates and suggestions."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

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
from companion.break_the_code.solver import (
    View,
    rank_questions,
    suggest,
    target_candidates,
    view_of,
)
from companion.break_the_code.tables import (
    QUESTIONS,
    code_table,
    decode_answer,
    encode_answer,
    twin_groups,
    twins_of,
)
from companion.break_the_code.tiles import Code

CHOICE = {"Q02": (1, 2), "Q03": (3, 4), "Q05": (6, 7), "Q06": (8, 9)}


def test_there_are_12444_five_tile_and_4029_four_tile_codes() -> None:
    assert len(code_table(5).codes) == 12_444
    assert len(code_table(4).codes) == 4_029


def test_the_tables_agree_with_the_cards() -> None:
    for size, stride in ((4, 1), (5, 3)):
        table = code_table(size)
        for i in range(0, len(table.codes), stride):
            code = table.codes[i]
            for q, (card, number) in enumerate(QUESTIONS):
                expected = answer(card, code, number=number)
                key = table.tables[q][i]
                assert decode_answer(q, key) == expected, (code, card, number)
                assert encode_answer(q, expected) == key


def test_28_colour_swapped_twin_pairs_no_question_separates() -> None:
    for size in (4, 5):
        groups = twin_groups(size)
        assert len(groups) == 28 and all(len(g) == 2 for g in groups)
        for a, b in groups:
            assert a.numbers == b.numbers and a.colours != b.colours
    a, b = Code.parse("0b 1w 2w 3b 5g"), Code.parse("0w 1b 2b 3w 5g")
    assert twins_of(a) == (b,) and twins_of(b) == (a,)
    assert twins_of(Code.parse("0b 1w 5g 5g 9b")) == ()


def test_two_players_candidates_and_green_weights() -> None:
    # no green 5 in my rack: both are unseen, so a code with one green 5 counts twice
    view = View(players=("Ana", "Ben"), me="Ana", own_rack=Code.parse("0b 1w 2b 3b 9w"))
    cands = target_candidates(view)
    assert cands.total == 3003  # C(15, 5) tile sets
    weights = {str(c): p * cands.total for c, p in cands.ranked()}
    assert round(weights["0w 1b 2w 5g 9b"]) == 2
    assert round(weights["0w 1b 5g 5g 9b"]) == 1
    assert round(weights["0w 1b 2w 4b 9b"]) == 1
    assert "0b 1b 2w 4b 9b" not in weights  # 0b is mine
    # both green 5s in my rack: every code is one tile set
    mine = View(players=("Ana", "Ben"), me="Ana", own_rack=Code.parse("0b 1w 5g 5g 9b"))
    assert len(target_candidates(mine)) == 3003


def _twin_view() -> tuple[View, Code, Code]:
    secret, twin = Code.parse("0b 1w 2w 3b 5g"), Code.parse("0w 1b 2b 3w 5g")
    answers = tuple(
        AnswerEntry(2 + i, card, number, "Ben", answer(card, secret, number=number))
        for i, (card, number) in enumerate(
            (c, CHOICE[c][0] if c in CHOICE else None) for c in CARD_IDS)
    )
    view = View(players=("Ana", "Ben"), me="Ana", own_rack=Code.parse("4b 4w 6b 7w 9b"),
                answers=answers, askable=())
    return view, secret, twin


def test_only_twins_left_means_guess() -> None:
    view, secret, twin = _twin_view()
    result = suggest(view)
    assert {c for c, _ in result.candidates.ranked()} == {secret, twin}
    assert result.twins and result.guess in (secret, twin) and result.question is None


def test_the_best_first_questions_are_the_sums() -> None:
    for rack in ("0b 3w 5g 7b 8w", "1b 2w 4b 6w 9w", "0w 5g 5g 6b 9b"):
        view = View(players=("Ana", "Ben"), me="Ana", own_rack=Code.parse(rack))
        ranked = rank_questions(view)
        assert ranked[0].card in ("Q17", "Q18", "Q19") and ranked[0].bits > 4
        assert ranked[-1].bits < 1.3
    only = View(players=("Ana", "Ben"), me="Ana", own_rack=view.own_rack,
                askable=("Q02", "Q20"))
    assert {(s.card, s.number) for s in rank_questions(only)} == {
        ("Q02", 1), ("Q02", 2), ("Q20", None)}
    assert suggest(only).question is not None


def _random_game(players: int, seed: int, moves: int) -> GameState:
    rng = random.Random(seed)
    names = ("Ana", "Ben", "Cleo", "Dan")[:players]
    state = apply(new_game(names), deal_tiles(players, rng))
    cards = list(CARD_IDS)
    rng.shuffle(cards)
    for _ in range(moves):
        if state.over:
            break
        player = state.current_player
        assert player is not None
        if state.last_chance or rng.random() < 0.15:
            wrong = deal_tiles(players, rng).racks[0]
            target = state.central if players > 2 else state.racks[1 - state.turn]  # type: ignore[index]
            if wrong != target:
                state = apply(state, Guess(player, wrong))
                continue
        card = next(c for c in cards if c not in state.asked)
        number = rng.choice(CHOICE[card]) if card in CHOICE else None
        state = apply(state, Ask(player, card, number))
    return state


def _check_true_code_kept(state: GameState) -> None:
    assert state.racks is not None
    for player in state.players:
        view = view_of(state, player)
        cands = target_candidates(view)
        truth = state.central if len(state.players) > 2 else state.racks[
            1 - state.seat_of(player)]
        assert truth in cands, (player, truth)


@settings(max_examples=25)
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 12))
def test_two_player_solver_never_drops_the_true_code(seed: int, moves: int) -> None:
    _check_true_code_kept(_random_game(2, seed, moves))


@settings(max_examples=6)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([3, 4]))
def test_three_four_player_solver_never_drops_the_true_code(seed: int, players: int) -> None:
    _check_true_code_kept(_random_game(players, seed, 8))


def test_a_solver_driven_game_finds_the_code() -> None:
    # One asker follows the suggestions against a fixed rack: it must end on the right code.
    rng = random.Random(7)
    deal = deal_tiles(2, rng)
    state = apply(new_game(["Ana", "Ben"]), deal)
    for _ in range(40):
        if state.over or state.last_chance:
            break
        if state.current_player == "Ben":
            state = apply(state, Ask("Ben", state.askable_cards[0],
                                     CHOICE.get(state.askable_cards[0], (None,))[0]))
            continue
        advice = suggest(view_of(state, "Ana"))
        if advice.guess is not None:
            state = apply(state, Guess("Ana", advice.guess))
        else:
            assert advice.question is not None
            state = apply(state, Ask("Ana", advice.question.card, advice.question.number))
    assert state.cracked == ("Ana",)


def test_three_player_central_weights_match_brute_force() -> None:
    from itertools import combinations

    from companion.break_the_code.tables import ALL_MASK, code_key, mask_to_code_key, tile_bits

    state = _random_game(3, 11, 6)
    assert len(state.answers) >= 4
    view = view_of(state, "Ana")
    cands = target_candidates(view)
    # brute force over physical tile sets: Ben's rack, Cleo's rack, the rest is central
    unseen = ALL_MASK & ~tile_bits(view.own_rack)
    bits = [1 << b for b in range(20) if unseen >> b & 1]
    table = code_table(5)

    def consistent(mask: int, player: str) -> bool:
        i = table.index[mask_to_code_key(mask)]
        return all(
            table.tables[QUESTIONS.index((a.card, a.number))][i]
            == encode_answer(QUESTIONS.index((a.card, a.number)), a.answer)
            for a in view.answers if a.by == player
        )

    expected: dict[int, int] = {}
    bens = [sum(c) for c in combinations(bits, 5) if consistent(sum(c), "Ben")]
    for ben in bens:
        rest = [b for b in bits if not b & ben]
        for cleo in combinations(rest, 5):
            cleo_mask = sum(cleo)
            if consistent(cleo_mask, "Cleo"):
                key = mask_to_code_key(unseen & ~ben & ~cleo_mask)
                expected[key] = expected.get(key, 0) + 1
    for code in view.wrong_codes:
        expected.pop(code_key(code), None)
    got = {table.keys[i]: w for i, w in cands.weights.items()}
    assert got == expected


def test_joint_assignments_agree_with_the_central_weights_and_bound_the_information() -> None:
    import math
    from collections import Counter

    from companion.break_the_code.solver import central_information, joint_assignments

    for players, seed in ((3, 11), (4, 5)):
        state = _random_game(players, seed, 10)
        view = view_of(state, state.players[0])
        joint = joint_assignments(view)
        assert joint is not None
        centres: Counter[int] = Counter()
        for (_, central), w in joint.items():
            centres[central] += w
        assert dict(centres) == dict(target_candidates(view).weights)
        total = sum(centres.values())
        entropy = -sum(w / total * math.log2(w / total) for w in centres.values())
        for q in range(len(QUESTIONS)):
            assert -1e-9 <= central_information(joint, q, view.size) <= entropy + 1e-9
        ranked = rank_questions(view)
        assert ranked == sorted(ranked, key=lambda s: -s.bits)
    assert joint_assignments(view_of(_random_game(3, 1, 0), "Ana"), limit=1000) is None
