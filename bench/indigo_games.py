"""Full random Indigo games per second (a figure to watch, not a timed test).

Plays seeded random legal games to the end with dealt hands, in every layout, and prints games
per second and placements per second; then the same through ``companion replay`` (record
export + replay). Run: ``.venv/bin/python bench/indigo_games.py [--games N]``.
"""

from __future__ import annotations

import argparse
import random
import time

from companion.indigo import (
    IndigoState,
    all_legal_placements,
    apply,
    legal_placements,
    new_game,
    to_record,
)
from companion.record import parse_record
from companion.replay import replay

LAYOUTS = (("2p", 2), ("3p", 3), ("3p-alt", 3), ("4p", 4))


def play_random(seed: int) -> tuple[int, IndigoState]:
    rng = random.Random(seed)
    layout, players = LAYOUTS[seed % len(LAYOUTS)]
    state = new_game(players, layout=layout, rng=rng, hand_size=1 + seed % 2)
    placements = 0
    while not state.is_over:
        hand = state.hand(state.turn) or ()
        kind = rng.choice(hand)
        state = apply(state, rng.choice(legal_placements(state, kind)))
        placements += 1
    return placements, state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    args = parser.parse_args()

    start = time.perf_counter()
    total = 0
    finals: list[IndigoState] = []
    for seed in range(args.games):
        placements, state = play_random(seed)
        total += placements
        finals.append(state)
    spent = time.perf_counter() - start
    print(f"indigo: {args.games} full random games in {spent:.2f} s: "
          f"{args.games / spent:.0f} games/s, {total / spent:.0f} placements/s "
          f"({total / args.games:.1f} placements per game)")

    records = [parse_record(to_record(["A", "B", "C", "D"][: s.players], s)) for s in finals]
    start = time.perf_counter()
    for record in records:
        assert replay(record).exit_code == 0
    spent = time.perf_counter() - start
    print(f"indigo: replayed {len(records)} records in {spent:.2f} s: "
          f"{len(records) / spent:.0f} games/s")

    state = new_game(4)
    start = time.perf_counter()
    rounds = 200
    for _ in range(rounds):
        all_legal_placements(state)
    spent = time.perf_counter() - start
    print(f"indigo: all_legal_placements on an empty board: {1000 * spent / rounds:.2f} ms")


if __name__ == "__main__":
    main()
