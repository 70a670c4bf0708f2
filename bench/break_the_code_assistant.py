"""Benchmark of the Break the Code deduction assistant. Prints its figures; asserts nothing.

    .venv/bin/python bench/break_the_code_assistant.py [--games N] [--reference-games N]
                                                       [--deals N]

* table build (cold): every 4- and 5-tile code with its answer to all 25 questions;
* a suggestion from the full 12,444 codes (no tile seen): every card askable, and a 6-card row;
* the suggestion (view -> advice) for the player to move, with 2, 3 and 4 players, at the first
  turn and after 2, 5 and 10 questions (random questions, every unasked card askable): median
  and p95 over seeded games, and the same views through today's reference assistant
  (``companion.break_the_code.reference_solver``) in the same run;
* the end-of-game analysis (a suggestion for every player) of 4-player games, new and reference;
* the average first-question information over random own racks (rules digest section 9);
* greedy play: one asker, 6-card row, guess at <= 2 candidates (digest: mean 5.11 turns).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import defaultdict

from companion.break_the_code import reference_solver
from companion.break_the_code.cards import CARD_IDS
from companion.break_the_code.game import (
    Ask,
    GameState,
    Guess,
    apply,
    deal_tiles,
    new_game,
    shuffle_deck,
)
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


NAMES = ("Ana", "Ben", "Cleo", "Dan")
CHOICE = {"Q02": (1, 2), "Q03": (3, 4), "Q05": (6, 7), "Q06": (8, 9)}
POINTS = (0, 2, 5, 10)


def game_points(players: int, seed: int) -> dict[int, GameState]:
    """One seeded game with random questions, at each number of questions of POINTS."""
    rng = random.Random(seed)
    state = apply(new_game(NAMES[:players]), deal_tiles(players, rng))
    out = {}
    while not state.over and len(state.asked) <= max(POINTS):
        if len(state.asked) in POINTS:
            out.setdefault(len(state.asked), state)
        card = rng.choice(state.askable_cards)
        state = apply(state, Ask(state.current_player or "", card,
                                 rng.choice(CHOICE[card]) if card in CHOICE else None))
    return out


def played_out(players: int, seed: int) -> GameState:
    """A seeded game asked to its end (every card asked)."""
    rng = random.Random(seed)
    state = apply(new_game(NAMES[:players]), deal_tiles(players, rng))
    while not state.over:
        card = rng.choice(state.askable_cards)
        state = apply(state, Ask(state.current_player or "", card,
                                 rng.choice(CHOICE[card]) if card in CHOICE else None))
    return state


def once(fn) -> float:  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    fn()
    return (time.perf_counter() - t) * 1000


def spread(ms: list[float]) -> str:
    if not ms:
        return "-"
    ordered = sorted(ms)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"median {statistics.median(ms):7.1f} ms, p95 {p95:7.1f} ms"


def suggestion_times(games: int, reference_games: int) -> None:
    print(f"suggestion for the player to move (new: {games} games, "
          f"reference: the first {reference_games} of them); aim: median <= 50, p95 <= 100 ms")
    for players in (2, 3, 4):
        views: dict[int, list[View]] = defaultdict(list)
        for seed in range(games):
            for asked, state in game_points(players, 1000 * players + seed).items():
                views[asked].append(view_of(state, state.current_player or ""))
        for asked in POINTS:
            new = [once(lambda v=v: suggest(v)) for v in views[asked]]  # type: ignore[misc]
            old = [once(lambda v=v: reference_solver.suggest(v))  # type: ignore[misc]
                   for v in views[asked][:reference_games]]
            print(f"  {players} players, after {asked:2d} questions: new {spread(new)} | "
                  f"reference {spread(old)}")


def analysis_times(games: int, reference_games: int) -> None:
    new, old = [], []
    for seed in range(games):
        state = played_out(4, 4000 + seed)
        views = [view_of(state, p) for p in state.players]
        new.append(once(lambda vs=views: [suggest(v) for v in vs]))  # type: ignore[misc]
        if seed < reference_games:
            old.append(once(lambda vs=views: [reference_solver.suggest(v)  # type: ignore[misc]
                                              for v in vs]))
    print(f"4-player end-of-game analysis, every player (aim <= 1 s): new {spread(new)} | "
          f"reference {spread(old)}")


def suggestion_from_the_full_table() -> None:
    """The code table's build, and one suggestion from all 12,444 codes."""
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


def first_question_information(deals: int, rng: random.Random) -> None:
    """Average first-question information, 2 players, over random own racks."""
    bits: dict[str, list[float]] = defaultdict(list)
    sizes = []
    for _ in range(deals // 3):
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


def greedy_play(deals: int, rng: random.Random) -> None:
    """Ana asks the best face-up question each turn; Ben only asks (never guesses)."""
    turns = []
    for _ in range(deals):
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
          f"over {len(turns)} of {deals} deals (digest: mean 5.11, median 5, 2-15)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--reference-games", type=int, default=5)
    args = parser.parse_args()
    # the machine is shared: the load says how far the figures stand above a quiet run's
    print("load average (1, 5, 15 min): " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))

    suggestion_from_the_full_table()
    suggestion_times(args.games, args.reference_games)
    analysis_times(max(3, args.games // 4), min(args.reference_games, 3))

    rng = random.Random(7)
    first_question_information(args.deals, rng)
    greedy_play(args.deals, rng)


if __name__ == "__main__":
    main()
