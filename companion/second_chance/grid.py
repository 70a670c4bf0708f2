"""The 9x9 sheet as a bitmask, and where a shape can go on it.

Cell ``(row, col)`` is bit ``row * 9 + col`` of an integer. Every placement of a shape (each
orientation at each translation inside the grid) is precomputed once per shape as a mask, so
"does it fit?" is a loop of integer ANDs: well under a millisecond for any card.

>>> g = Grid.parse("#########/" * 8 + "........#")
>>> fits(g, "####"), fits(g, "#####/....#"), len(placements(g, "##"))
(True, False, 7)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from companion.second_chance.errors import ShapeError
from companion.second_chance.shapes import Cell, Shape, as_shape

SIZE = 9
CENTRE: Cell = (4, 4)
ALL_CELLS: tuple[Cell, ...] = tuple((r, c) for r in range(SIZE) for c in range(SIZE))
FULL_MASK = (1 << (SIZE * SIZE)) - 1

#: A placement: the cells a shape covers, sorted.
Placement = tuple[Cell, ...]


def in_grid(cell: Cell) -> bool:
    """True for a cell of the 9x9 grid."""
    return 0 <= cell[0] < SIZE and 0 <= cell[1] < SIZE


def bit(cell: Cell) -> int:
    """The mask of one grid cell."""
    if not in_grid(cell):
        raise ShapeError(f"cell {list(cell)} is outside the 9x9 grid (rows and columns 0-8)")
    return 1 << (cell[0] * SIZE + cell[1])


def mask_of(cells: Iterable[Cell]) -> int:
    """The mask of some grid cells."""
    mask = 0
    for cell in cells:
        mask |= bit(cell)
    return mask


def cells_of(mask: int) -> tuple[Cell, ...]:
    """The cells of a mask, in row-major order."""
    cells = []
    mask &= FULL_MASK
    while mask:  # from the lowest set bit up: a placement's few cells, not all 81 bits
        lowest = mask & -mask
        cells.append(divmod(lowest.bit_length() - 1, SIZE))
        mask ^= lowest
    return tuple(cells)


@dataclass(frozen=True)
class Grid:
    """One player's sheet: the filled cells (the bonus 1 included) and where the 1 is."""

    filled: int = 0
    bonus: Cell | None = None

    @classmethod
    def from_cells(cls, cells: Iterable[Cell], *, bonus: Cell | None = None) -> Grid:
        mask = mask_of(cells)
        if bonus is not None:
            mask |= bit(bonus)
        return cls(mask, bonus)

    @classmethod
    def parse(cls, text: str) -> Grid:
        """Read 9 rows of 9 characters (``.`` empty, ``#`` filled, ``1`` the bonus), the rows
        separated by newlines or ``/``."""
        rows = [row.strip() for row in text.replace("/", "\n").splitlines() if row.strip()]
        if len(rows) != SIZE:
            raise ShapeError(f"a grid has {SIZE} rows of {SIZE} characters, got {len(rows)} rows")
        filled: list[Cell] = []
        bonus: Cell | None = None
        for r, row in enumerate(rows):
            if len(row) != SIZE:
                raise ShapeError(f"grid row {r + 1} {row!r} has {len(row)} characters, not {SIZE}")
            for c, ch in enumerate(row):
                if ch == "#":
                    filled.append((r, c))
                elif ch == "1":
                    if bonus is not None:
                        raise ShapeError(f"a grid holds at most one bonus 1, found {[r, c]} too")
                    bonus = (r, c)
                elif ch != ".":
                    raise ShapeError(
                        f"grid row {r + 1} {row!r}: {ch!r} is not '.', '#' or '1'"
                    )
        return cls.from_cells(filled, bonus=bonus)

    def rows(self) -> list[str]:
        """The grid as 9 strings of 9 characters, the notation of :meth:`parse`."""
        return [
            "".join(
                "1" if (r, c) == self.bonus else "#" if self.filled >> (r * SIZE + c) & 1 else "."
                for c in range(SIZE)
            )
            for r in range(SIZE)
        ]

    def format(self) -> str:
        return "\n".join(self.rows())

    def is_filled(self, cell: Cell) -> bool:
        return bool(self.filled & bit(cell))

    @property
    def filled_cells(self) -> tuple[Cell, ...]:
        return cells_of(self.filled)

    @property
    def empty_cells(self) -> tuple[Cell, ...]:
        return cells_of(FULL_MASK & ~self.filled)

    @property
    def empty_count(self) -> int:
        return SIZE * SIZE - self.filled.bit_count()

    @property
    def is_full(self) -> bool:
        return self.filled == FULL_MASK

    def with_cells(self, cells: Iterable[Cell]) -> Grid:
        """A new grid with ``cells`` filled too; they must be inside and empty."""
        mask = mask_of(cells)
        if mask & self.filled:
            taken = [list(c) for c in cells_of(mask & self.filled)]
            raise ShapeError(f"cells {taken} are already filled")
        return Grid(self.filled | mask, self.bonus)

    def with_bonus(self, cell: Cell) -> Grid:
        """A new grid with the bonus 1 written in an empty cell."""
        if self.bonus is not None:
            raise ShapeError(f"the grid already has its 1 at {list(self.bonus)}")
        if self.filled & bit(cell):
            raise ShapeError(f"cell {list(cell)} is already filled")
        return Grid(self.filled | bit(cell), cell)


def _as_mask(grid: Grid | int) -> int:
    return grid.filled if isinstance(grid, Grid) else grid


@cache
def placement_masks(shape: Shape) -> tuple[int, ...]:
    """Every placement of a shape on an empty grid as its mask (orientation x translation),
    in the order of their cells (:func:`cells_of` gives them back).

    Cached per shape; the canonical orientation and any other give the same placements. Only
    the masks are kept: with each placement's cells as tuples too, the cache of a game's 34
    cards held 4.5 MB, all evening (tracemalloc).
    """
    found: dict[int, Placement] = {}
    for orient in shape.canonical().orientations():
        for top in range(SIZE - orient.height + 1):
            for left in range(SIZE - orient.width + 1):
                cells = tuple((r + top, c + left) for r, c in orient.cells)
                found.setdefault(mask_of(cells), cells)
    return tuple(mask for mask, _cells in sorted(found.items(), key=lambda item: item[1]))


def _masks(shape: Shape | str) -> tuple[int, ...]:
    return placement_masks(as_shape(shape).canonical())


def placements(grid: Grid | int, shape: Shape | str) -> list[Placement]:
    """Every legal placement: inside the grid, on empty cells, in any of the 8 orientations."""
    filled = _as_mask(grid)
    return [cells_of(mask) for mask in _masks(shape) if not mask & filled]


def first_placement(grid: Grid | int, shape: Shape | str) -> Placement | None:
    """One legal placement (the first in cell order), or None when the shape does not fit."""
    filled = _as_mask(grid)
    for mask in _masks(shape):
        if not mask & filled:
            return cells_of(mask)
    return None


def fits(grid: Grid | int, shape: Shape | str) -> bool:
    """True when the shape can be drawn somewhere on the grid."""
    filled = _as_mask(grid)
    parsed = as_shape(shape)
    if SIZE * SIZE - filled.bit_count() < parsed.size:
        return False
    for mask in _masks(parsed):
        if not mask & filled:
            return True
    return False


def is_placement_of(cells: Iterable[Cell], shape: Shape | str) -> bool:
    """True when ``cells`` are ``shape`` in one of its orientations (position ignored)."""
    cell_list = list(cells)
    if not cell_list or len(set(cell_list)) != len(cell_list):
        return False
    return Shape.from_cells(cell_list).canonical() == as_shape(shape).canonical()
