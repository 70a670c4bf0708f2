"""Benchmark of the Break the Code deduction assistant. Prints its figures; asserts nothing.

    .venv/bin/python bench/break_the_code_assistant.py [--deals N]

* table build (cold): every 4- and 5-tile code with its answer to all 25 questions;
* a suggestion from the full 12,444 codes (no tile seen): every card askable, and a 6-card row;
* a 2-player first-turn suggestion (view -> candidates -> best question), and 3-4 players;
* the average first-question information over random own racks (rules digest section 9);
* greedy play: one asker, 6-card row, guess at <= 2 candidates (digest: mean 5.11 turns).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict

from companion.break_the_code.cards import CARD_IDS
from companion.break_the_code.game import Ask, Guess, apply, deal_tiles, new_game, shuffle_deck
from companion.break_the_code.solver import (
    View,
    codes_from,
    rank_for,
    suggest,
    target_candidates,
    view_of,
)
from companion.break_the_code.tables import ALL_MASK, code_table, twin_groups


def timed(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    """Median wall time of ``fn()`` in milliseconds."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=300)
    args = parser.parse_args()

    t = time.perf_counter()
    code_table(5)
    code_table(4)
    print(f"table build (cold, 5 and 4 tiles): {(time.perf_counter() - t) * 1000:.0f} ms")
    print(f"codes: {len(code_table(5).codes)} (5 tiles), {len(code_table(4).codes)} (4 tiles); "
          f"twin pairs: {len(twin_groups(5))} / {len(twin_groups(4))}")

    full = codes_from(ALL_MASK, 5)
    row = shuffle_deck(random.Random(1))[:6]

    def from_full(askable: tuple[str, ...]) -> None:
        rank_for(full, askable)

    def from_scratch() -> None:
        rank_for(codes_from(ALL_MASK, 5), CARD_IDS)

    print(f"suggestion from the full 12,444 codes, all 21 cards: "
          f"{timed(lambda: from_full(CARD_IDS), 20):.1f} ms (aim <= 50 ms)")
    print(f"suggestion from the full 12,444 codes, 6-card row:   "
          f"{timed(lambda: from_full(row), 20):.1f} ms")
    print(f"  including building the candidate list:            "
          f"{timed(from_scratch, 10):.1f} ms")

    rng = random.Random(7)
    for players in (2, 3, 4):
        names = ("Ana", "Ben", "Cleo", "Dan")[:players]
        states = [apply(new_game(names), deal_tiles(players, rng)) for _ in range(5)]
        ms = [timed(lambda s=s: suggest(view_of(s, "Ana")), 3) for s in states]  # type: ignore[misc]
        print(f"{players} players, first-turn suggestion (view -> advice): "
              f"median {statistics.median(ms):.1f} ms")

    for players in (3, 4):
        names = ("Ana", "Ben", "Cleo", "Dan")[:players]
        ms = []
        for _ in range(5):
            state = apply(new_game(names), deal_tiles(players, rng))
            for card in ("Q19", "Q14"):
                state = apply(state, Ask(state.current_player or "", card))
            ms.append(timed(lambda s=state: suggest(view_of(s, "Ana")), 3))  # type: ignore[misc]
        print(f"{players} players, after two questions (exact central information): "
              f"median {statistics.median(ms):.1f} ms")

    # Average first-question information, 2 players, over random own racks.
    bits: dict[str, list[float]] = defaultdict(list)
    sizes = []
    for _ in range(args.deals // 3):
        rack = deal_tiles(2, rng).racks[0]
        cands = target_candidates(View(players=("Ana", "Ben"), me="Ana", own_rack=rack))
        sizes.append(len(cands))
        for score in rank_for(cands, CARD_IDS):
            key = score.card + (f"({score.number})" if score.number is not None else "")
            bits[key].append(score.bits)
    print(f"2 players, candidate codes knowing your rack: mean {statistics.mean(sizes):.0f} "
          "(digest: 2,608)")
    best = sorted(bits.items(), key=lambda kv: -statistics.mean(kv[1]))
    print("first-question information (bits): " + ", ".join(
        f"{k} {statistics.mean(v):.2f}" for k, v in best[:6]) + " ... " + ", ".join(
        f"{k} {statistics.mean(v):.2f}" for k, v in best[-2:]))

    # Greedy play: Ana asks the best face-up question each turn; Ben only asks (never guesses).
    turns = []
    for _ in range(args.deals):
        deck = shuffle_deck(rng)
        state = apply(new_game(["Ana", "Ben"], deck=deck), deal_tiles(2, rng))
        own = 0
        while not state.over and not state.cracked:
            if state.current_player == "Ben":
                card = state.askable_cards[-1]
                number = {"Q02": 1, "Q03": 3, "Q05": 6, "Q06": 8}.get(card)
                state = apply(state, Ask("Ben", card, number))
                continue
            own += 1
            advice = suggest(view_of(state, "Ana"))
            if advice.guess is not None:
                state = apply(state, Guess("Ana", advice.guess))
            else:
                assert advice.question is not None
                state = apply(state, Ask("Ana", advice.question.card, advice.question.number))
        if state.cracked:
            turns.append(own)
    print(f"greedy play, one asker, 6-card row, guess at <= 2: mean {statistics.mean(turns):.2f} "
          f"turns, median {statistics.median(turns)}, range {min(turns)}-{max(turns)} "
          f"over {len(turns)} of {args.deals} deals (digest: mean 5.11, median 5, 2-15)")


if __name__ == "__main__":
    main()
