"""Time ``fits`` and ``placements`` for Second Chance cards on half-full grids.

Run: ``.venv/bin/python bench/second_chance_fits.py``. The aim (issue 5) is <= 0.2 ms for a
7-cell shape on a half-full grid; a Raspberry Pi 4 is about five times slower than a desktop.
"""

from __future__ import annotations

import random
import statistics
import time

from companion.second_chance import Grid, fits, free_polyominoes, placements
from companion.second_chance.grid import placement_masks


def half_full_grids(n: int, rng: random.Random) -> list[Grid]:
    cells = [(r, c) for r in range(9) for c in range(9)]
    return [Grid.from_cells(rng.sample(cells, 40)) for _ in range(n)]


def per_call_us(fn, grids, shapes, repeat: int = 5) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    calls = len(grids) * len(shapes)
    for _ in range(repeat):
        start = time.perf_counter()
        for g in grids:
            for s in shapes:
                fn(g, s)
        best = min(best, (time.perf_counter() - start) / calls)
    return best * 1e6


def main() -> None:
    rng = random.Random(2019)
    grids = half_full_grids(200, rng)
    sevens = list(free_polyominoes(7))
    for shape in sevens:  # warm the placement cache, as the app does when a card is revealed
        placement_masks(shape)
    worst_cold = 0.0
    for shape in sevens[:20]:
        placement_masks.cache_clear()
        t = time.perf_counter()
        placement_masks(shape)
        worst_cold = max(worst_cold, time.perf_counter() - t)
    for shape in sevens:
        placement_masks(shape)
    fitting = sum(fits(g, s) for g in grids for s in sevens) / (len(grids) * len(sevens))
    fits_us = per_call_us(fits, grids, sevens)
    # the worst case for fits: a grid where nothing fits, so every placement is tried
    chequer = [Grid.from_cells([(r, c) for r in range(9) for c in range(9) if (r + c) % 2])]
    worst_us = per_call_us(fits, chequer * 50, sevens)
    place_us = per_call_us(placements, grids[:50], sevens)
    print(f"fits, 7-cell shape, half-full grid: {fits_us:.1f} us per call "
          f"(aim <= 200 us; {fitting:.0%} of these fit)")
    print(f"fits, 7-cell shape, nothing fits (every placement tried): {worst_us:.1f} us per call")
    print(f"placements, 7-cell shape, half-full grid: {place_us:.1f} us per call")
    print(f"first sight of a shape (building its placement masks): {worst_cold * 1e3:.2f} ms worst")
    print(f"median placement masks per 7-cell shape: "
          f"{statistics.median(len(placement_masks(s)) for s in sevens):.0f}")


if __name__ == "__main__":
    main()
