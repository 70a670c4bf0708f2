"""Polyominoes: the shape notation, the 8 orientations and the canonical form.

A shape is a set of ``(row, col)`` cells, kept normalised (translated so that the smallest row
and column are 0) and sorted. The text notation of ``shared/records.md`` writes its bounding box
row by row, rows joined by ``/``, ``#`` filled and ``.`` empty:

>>> parse_shape("#./#./##").canonical().text
'###/#..'
>>> parse_shape("##./.##").canonical().text
'##./.##'
>>> len(parse_shape("##/##").orientations())
1

The canonical form (rules digest section 11) is the orientation whose sorted cell list is
lexicographically smallest, so two cards are the same card exactly when their canonical texts
are equal, whichever way up they were written.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from companion.second_chance.errors import ShapeError

Cell = tuple[int, int]

#: Neighbours sharing a side.
_STEPS: tuple[Cell, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))


def _normalise(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    cell_list = list(cells)
    top = min(r for r, _ in cell_list)
    left = min(c for _, c in cell_list)
    return tuple(sorted((r - top, c - left) for r, c in cell_list))


@dataclass(frozen=True, order=True)
class Shape:
    """A normalised set of cells. Build one with :meth:`from_cells` or :func:`parse_shape`."""

    cells: tuple[Cell, ...]

    @classmethod
    def from_cells(cls, cells: Iterable[Cell]) -> Shape:
        """The shape of any non-empty set of distinct cells, wherever they lie."""
        cell_list = [(int(r), int(c)) for r, c in cells]
        if not cell_list:
            raise ShapeError("a shape needs at least one cell")
        if len(set(cell_list)) != len(cell_list):
            dupes = sorted({x for x in cell_list if cell_list.count(x) > 1})
            raise ShapeError(f"a shape lists a cell twice: {[list(d) for d in dupes]}")
        return cls(_normalise(cell_list))

    @property
    def size(self) -> int:
        """The number of cells."""
        return len(self.cells)

    @property
    def height(self) -> int:
        return max(r for r, _ in self.cells) + 1

    @property
    def width(self) -> int:
        return max(c for _, c in self.cells) + 1

    @property
    def text(self) -> str:
        """The ``#``/``.`` notation of this orientation (not necessarily canonical)."""
        filled = set(self.cells)
        return "/".join(
            "".join("#" if (r, c) in filled else "." for c in range(self.width))
            for r in range(self.height)
        )

    def is_connected(self) -> bool:
        """True when every cell can be reached from every other through shared sides."""
        return is_connected(self.cells)

    def orientations(self) -> tuple[Shape, ...]:
        """The distinct shapes among the 8 rotations and mirrorings (1, 2, 4 or 8), sorted."""
        return _orientations(self)

    def canonical(self) -> Shape:
        """The orientation with the lexicographically smallest sorted cell list."""
        return _orientations(self)[0]

    def is_same_card(self, other: Shape | str) -> bool:
        """True when ``other`` is this shape in some orientation."""
        return as_shape(other).canonical() == self.canonical()

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"parse_shape({self.text!r})"


@cache
def _orientations(shape: Shape) -> tuple[Shape, ...]:
    found: set[tuple[Cell, ...]] = set()
    cells = list(shape.cells)
    for _ in range(4):
        cells = [(c, -r) for r, c in cells]  # a quarter turn
        found.add(_normalise(cells))
        found.add(_normalise((r, -c) for r, c in cells))  # and its mirror image
    return _shapes_of(tuple(sorted(found)))


@cache
def _shapes_of(orientations: tuple[tuple[Cell, ...], ...]) -> tuple[Shape, ...]:
    """The shapes of one free shape's orientations, made once: the cache above is asked with
    a card in each way it was drawn, and each entry held 8 new shapes of its own (+108 to
    +132 live shapes a round of the app's scripted evening, bench/figures/app_memory_s21.txt)."""
    return tuple(Shape(cells) for cells in orientations)


def is_connected(cells: Iterable[Cell]) -> bool:
    """True when the cells form one edge-connected group (an empty set is not connected)."""
    remaining = set(cells)
    if not remaining:
        return False
    stack = [remaining.pop()]
    while stack:
        r, c = stack.pop()
        for dr, dc in _STEPS:
            nxt = (r + dr, c + dc)
            if nxt in remaining:
                remaining.remove(nxt)
                stack.append(nxt)
    return not remaining


def connected_groups(cells: Iterable[Cell]) -> list[tuple[Cell, ...]]:
    """Split cells into edge-connected groups, each sorted, groups ordered by first cell."""
    remaining = set(cells)
    groups: list[tuple[Cell, ...]] = []
    while remaining:
        start = min(remaining)
        remaining.remove(start)
        group = [start]
        stack = [start]
        while stack:
            r, c = stack.pop()
            for dr, dc in _STEPS:
                nxt = (r + dr, c + dc)
                if nxt in remaining:
                    remaining.remove(nxt)
                    group.append(nxt)
                    stack.append(nxt)
        groups.append(tuple(sorted(group)))
    groups.sort()
    return groups


def parse_shape(text: str) -> Shape:
    """Read the ``"##./.##"`` notation. Rows must be equally wide and hold only ``#`` and ``.``.

    Empty border rows or columns are tolerated and dropped; the result is normalised, not
    canonicalised (use :meth:`Shape.canonical`).
    """
    if not isinstance(text, str):
        raise ShapeError(f"a shape must be text like '##./.##', got {text!r}")
    rows = text.strip().split("/")
    if not rows or any(not row for row in rows):
        raise ShapeError(f"shape {text!r}: every row between '/' needs at least one character")
    widths = {len(row) for row in rows}
    if len(widths) != 1:
        raise ShapeError(f"shape {text!r}: rows must be equally wide, got widths {sorted(widths)}")
    bad = sorted({ch for row in rows for ch in row} - {"#", "."})
    if bad:
        raise ShapeError(f"shape {text!r}: only '#' and '.' are allowed, found {''.join(bad)!r}")
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"]
    if not cells:
        raise ShapeError(f"shape {text!r} has no filled cell '#'")
    return Shape(_normalise(cells))


def format_shape(shape: Shape, *, canonical: bool = False) -> str:
    """The text notation of ``shape``, optionally of its canonical orientation."""
    return (shape.canonical() if canonical else shape).text


def as_shape(value: Shape | str) -> Shape:
    """Accept a :class:`Shape` or its text notation."""
    return value if isinstance(value, Shape) else parse_shape(value)


def orientations(shape: Shape | str) -> tuple[Shape, ...]:
    """The distinct orientations of a shape (module-level form of :meth:`Shape.orientations`)."""
    return as_shape(shape).orientations()


def canonical_text(shape: Shape | str) -> str:
    """The canonical text of a shape given as a :class:`Shape` or as text."""
    return as_shape(shape).canonical().text


def polyomino_problem(shape: Shape, *, sizes: range = range(1, 8)) -> str | None:
    """Why ``shape`` is not a legal polyomino of one of ``sizes`` cells, or None when it is."""
    if shape.size not in sizes:
        wanted = f"{sizes.start}" if len(sizes) == 1 else f"{sizes.start}-{sizes.stop - 1}"
        return f"has {shape.size} cells, a tile has {wanted}"
    if not shape.is_connected():
        return "is not connected: every cell must share a side with another"
    return None


def check_polyomino(shape: Shape | str, *, sizes: range = range(1, 8)) -> Shape:
    """Parse and check a polyomino; raise ShapeError saying what is wrong. Returns the shape."""
    parsed = as_shape(shape)
    problem = polyomino_problem(parsed, sizes=sizes)
    if problem is not None:
        raise ShapeError(f"shape {parsed.text!r} {problem}")
    return parsed


@cache
def free_polyominoes(size: int) -> tuple[Shape, ...]:
    """Every free polyomino (rotations and mirror images identified) of ``size`` cells, canonical.

    Grown one cell at a time from the smaller ones: 1, 1, 2, 5, 12, 35, 108, 369 for sizes 1-8.
    """
    if size < 1:
        raise ShapeError(f"a polyomino has at least 1 cell, asked for {size}")
    if size == 1:
        return (Shape(((0, 0),)),)
    found: set[Shape] = set()
    for smaller in free_polyominoes(size - 1):
        cells = set(smaller.cells)
        for r, c in smaller.cells:
            for dr, dc in _STEPS:
                nxt = (r + dr, c + dc)
                if nxt not in cells:
                    found.add(Shape(_normalise([*cells, nxt])).canonical())
    return tuple(sorted(found))
