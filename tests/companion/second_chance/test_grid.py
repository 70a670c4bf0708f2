"""The grid: notation, placements and fits, checked against brute force."""

from __future__ import annotations

import random
import tracemalloc

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.second_chance import Grid, ShapeError, fits, free_polyominoes, placements
from companion.second_chance.grid import (
    cells_of,
    first_placement,
    is_placement_of,
    placement_masks,
)

ALL_SHAPES = [s for n in range(1, 8) for s in free_polyominoes(n)]


Cells = tuple[tuple[int, int], ...]


def _brute_force(grid: Grid, shape_cells: list[tuple[int, int]]) -> set[Cells]:
    """Every placement by trying all 8 transforms at every offset, no bitmasks."""
    found = set()
    for k in range(4):
        for mirror in (False, True):
            cells = shape_cells
            for _ in range(k):
                cells = [(c, -r) for r, c in cells]
            if mirror:
                cells = [(r, -c) for r, c in cells]
            for dr in range(-10, 10):
                for dc in range(-10, 10):
                    moved = [(r + dr, c + dc) for r, c in cells]
                    if all(0 <= r < 9 and 0 <= c < 9 and not grid.is_filled((r, c))
                           for r, c in moved):
                        found.add(tuple(sorted(moved)))
    return found


@given(seed=st.integers(0, 10**6), density=st.floats(0.3, 0.95),
       index=st.integers(0, len(ALL_SHAPES) - 1))
def test_fits_and_placements_agree_with_brute_force(seed: int, density: float, index: int) -> None:
    rng = random.Random(seed)
    grid = Grid.from_cells([(r, c) for r in range(9) for c in range(9) if rng.random() < density])
    shape = ALL_SHAPES[index]
    expected = _brute_force(grid, list(shape.cells))
    assert set(placements(grid, shape)) == expected
    assert fits(grid, shape) == bool(expected)
    assert fits(grid, shape.text) == bool(expected)
    first = first_placement(grid, shape)
    assert (first is None) == (not expected)
    if first is not None:
        assert first in expected and is_placement_of(first, shape)


def test_empty_grid_counts() -> None:
    assert len(placements(Grid(), "#")) == 81
    assert len(placements(Grid(), "##")) == 2 * 72
    assert len(placements(Grid(), "##/##")) == 64
    assert len(placements(Grid(), "#########")) == 18


def test_grid_notation_round_trips_with_the_bonus() -> None:
    rows = ["#........", ".........", "....1....", ".........", "....#....",
            ".........", ".........", ".........", "########."]
    grid = Grid.parse("\n".join(rows))
    assert grid.rows() == rows
    assert grid.bonus == (2, 4)
    assert grid.empty_count == 81 - 11
    assert Grid.parse("/".join(rows)) == grid


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("#########\n" * 8, "got 8 rows"),
        ("#########\n" * 8 + "########", "has 8 characters"),
        ("#########\n" * 8 + "#######x#", "'x' is not"),
        ("#########\n" * 7 + "1........\n1........", "at most one bonus"),
    ],
)
def test_malformed_grids_say_why(text: str, words: str) -> None:
    with pytest.raises(ShapeError, match=words):
        Grid.parse(text)


def test_with_cells_refuses_overlap_and_outside() -> None:
    grid = Grid.from_cells([(0, 0)])
    with pytest.raises(ShapeError, match="already filled"):
        grid.with_cells([(0, 0), (0, 1)])
    with pytest.raises(ShapeError, match="outside the 9x9 grid"):
        grid.with_cells([(9, 0)])
    assert grid.with_cells([(0, 1)]).filled_cells == ((0, 0), (0, 1))


def test_a_full_grid_fits_nothing() -> None:
    full = Grid.from_cells([(r, c) for r in range(9) for c in range(9)])
    assert full.is_full and full.empty_count == 0
    assert not fits(full, "#")


def test_the_placements_of_every_card_are_kept_in_little_memory() -> None:
    # the app keeps every card's placements all evening: with each placement's cells as
    # tuples beside its mask, a game's 34 cards held 4.5 MB
    sevens = list(free_polyominoes(7))[:34]
    placement_masks.cache_clear()
    tracemalloc.start()
    try:
        for shape in sevens:
            placement_masks(shape.canonical())
        held, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        placement_masks.cache_clear()
    assert held < 1_000_000
    # the same placements, in the same order, as the cells they cover
    shape = sevens[0]
    assert placements(Grid(), shape) == [cells_of(m) for m in placement_masks(shape.canonical())]
    assert placements(Grid(), shape) == sorted(placements(Grid(), shape))
