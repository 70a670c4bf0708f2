"""Benchmark the Enigma engine: placements per second on a 100-tile layout, and puzzle solves.

Run: ``.venv/bin/python bench/enigma_engine.py``. Prints numbers only; nothing is asserted.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from companion.enigma import puzzle_angular as angular
from companion.enigma import puzzle_conduit as conduit
from companion.enigma import puzzle_fragment as fragment
from companion.enigma import puzzle_weight as weight
from companion.enigma.catalogue import load_catalogue
from companion.enigma.game import EnigmaOptions, EnigmaState, PlaceMove, RoundMove, apply, new_game
from companion.enigma.puzzles import load_puzzles
from companion.record import parse_record
from companion.replay import replay


def timed(fn: Callable[[], object], *, repeat: int) -> float:
    """Best mean seconds per call over 3 runs of ``repeat`` calls."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best


def build_layout(tiles: int, seed: int = 1) -> EnigmaState:
    """A game state with ``tiles`` puzzle tiles placed legally (edge matching on)."""
    catalogue = load_catalogue()
    rng = random.Random(seed)
    players = ["Ana", "Ben", "Cleo", "Dan"]
    state = new_game(players, EnigmaOptions(target=10_000))
    choices = dict(zip(players, ["weight", "conduit", "fragment", "angular"], strict=True))
    placed = 0
    while placed < tiles:
        state = apply(state, RoundMove.make(choices, players))
        for player in state.pending:
            if placed >= tiles:
                break
            entry = rng.choice(catalogue.tiles)
            options = state.legal_placements(entry.conduit)
            if not options:
                continue
            choice = rng.choice(options)
            cells = state.networker_choices(player, entry.conduit, choice.at, choice.rotation)
            state = apply(state, PlaceMove(player, entry.conduit, choice.at, choice.rotation,
                                           rng.choice([None, *cells])))
            placed += 1
    return state


def main() -> None:
    state = build_layout(100)
    board = state.board
    open_count, closed_count = board.system_counts()
    print(f"layout: {len(board.tiles)} tiles, {len(board.systems)} systems "
          f"({open_count} open, {closed_count} closed)")
    catalogue = load_catalogue()
    candidates = []
    for entry in catalogue.tiles:
        for p in board.legal_placements(entry.conduit):
            candidates.append((entry.conduit, p.at, p.rotation))
    print(f"legal (tile, square, rotation) candidates on it: {len(candidates)}")

    def place_all() -> None:
        for tile, at, rotation in candidates[:500]:
            board.place(tile, at, rotation)

    per = timed(place_all, repeat=3) / min(500, len(candidates))
    print(f"Board.place on the 100-tile layout: {1 / per:,.0f} placements/s ({per * 1e6:.1f} us)")
    tile, at, rotation = candidates[0]
    state_ready = state
    player = state_ready.pending[0] if state_ready.pending else None
    if player is None:
        state_ready = apply(state_ready, RoundMove.make(dict(state_ready.choices),
                                                        list(state_ready.players)))
        player = state_ready.pending[0]
    move = PlaceMove(player, tile, at, rotation, None)
    per = timed(lambda: apply(state_ready, move), repeat=500)
    print(f"full rules step (place + score) on it: {1 / per:,.0f} moves/s ({per * 1e6:.1f} us)")
    entry = catalogue.tiles[0]
    per = timed(lambda: board.legal_placements(entry.conduit), repeat=50)
    print(f"legal_placements for one tile on it: {per * 1e3:.2f} ms")
    record = parse_record({"format": "tabletop-companion/record/1", "game": "enigma",
                           "players": ["Ana", "Ben"], "events": []})
    per = timed(lambda: replay(record), repeat=200)
    print(f"empty replay: {per * 1e6:.0f} us")
    puzzle_solvers()


def puzzle_solvers() -> None:
    """The time of each puzzle kind's solver or check on the box's cards."""
    box = load_puzzles()
    seed_card = box.weight.cards["weight-demo-1"]
    per = timed(lambda: weight.solve(seed_card), repeat=2000)
    print(f"weight solve, seed 001 card (4 cups, 5 weights): {per * 1e6:.1f} us")
    big = weight.WeightCard(left=(3, 5, 7), right=(2, 4, 11), count=6)
    per = timed(lambda: weight.solve(big), repeat=200)
    print(f"weight solve, 6 cups and 6 weights ({len(weight.solve(big))} solutions): "
          f"{per * 1e6:.1f} us")
    for card_id, card in sorted(box.conduit.cards.items()):
        n = len(conduit.solve(card, box.conduit.pieces))
        per = timed(lambda card=card: conduit.solve(card, box.conduit.pieces), repeat=20)
        first = timed(lambda card=card: conduit.solve(card, box.conduit.pieces, limit=1),
                      repeat=20)
        print(f"conduit solve {card_id} (excluded {sorted(card.excluded)}): all {n} in "
              f"{per * 1e3:.2f} ms, first in {first * 1e3:.2f} ms")
    for card_id, card in sorted(box.fragment.cards.items()):
        sol = box.fragment.solutions[card_id]
        per = timed(lambda card=card, sol=sol: fragment.check(card, box.fragment.pieces, sol),
                    repeat=50)
        print(f"fragment check {card_id}: {per * 1e3:.2f} ms")
    for card_id, card in sorted(box.angular.cards.items()):
        start = time.perf_counter()
        n = len(angular.solve(card, box.angular.pieces))
        print(f"angular solve {card_id}: {n} solutions in "
              f"{(time.perf_counter() - start) * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
