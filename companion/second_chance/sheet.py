"""Check a player's sheet as read from paper: empty cells, the start, the shapes, the bonus.

This is the logic behind the camera reader (``vision/second_chance/reader.py``) and the manual entry
screen: it takes the filled cells (and, when the drawn outlines told it, how they split into
tiles) and reports everything the rules say about a sheet, without deciding anything. The UI
turns every problem into a question for the players.

>>> from companion.second_chance.grid import Grid
>>> start = [(4, 4), (4, 5), (4, 6), (4, 7), (5, 4), (6, 4), (7, 4), (8, 4)]
>>> report = check_sheet(start + [(0, 0), (0, 1)])
>>> report.empty, report.start_covers_centre, [s.shape for s in report.shapes]
(71, True, ['##', '#####/#..../#..../#....'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.second_chance.deck import START_SIZE, Deck
from companion.second_chance.grid import CENTRE, SIZE, Grid, in_grid
from companion.second_chance.shapes import Cell, Shape, connected_groups, polyomino_problem

PUZZLE_SIZES = range(1, 8)
START_SIZES = range(START_SIZE, START_SIZE + 1)


def _cells_json(cells: Iterable[Cell]) -> list[list[int]]:
    return [[r, c] for r, c in cells]


@dataclass(frozen=True)
class FoundShape:
    """One tile on the sheet: its cells, its canonical shape and whether it is legal."""

    cells: tuple[Cell, ...]
    shape: str
    is_start: bool
    #: why this is not a legal tile, None when it is
    problem: str | None = None
    #: whether the deck has this card (None when no deck was given)
    in_deck: bool | None = None

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def is_legal(self) -> bool:
        return self.problem is None and self.in_deck is not False

    def to_json(self) -> dict[str, Any]:
        return {
            "cells": _cells_json(self.cells),
            "shape": self.shape,
            "size": self.size,
            "start": self.is_start,
            "legal": self.is_legal,
            "problem": self.problem,
            "in_deck": self.in_deck,
        }


@dataclass(frozen=True)
class SheetProblem:
    """Something on the sheet the rules do not allow, or that cannot be decided from it.

    ``code`` is one of: ``outside`` (cells beyond the grid), ``centre-empty``, ``start-size``,
    ``illegal-shape``, ``not-in-deck``, ``too-many-copies``, ``unsegmented`` (touching tiles
    that the outlines do not split), ``shape-cell-empty``, ``overlap``, ``unassigned``,
    ``bonus``.
    """

    code: str
    message: str
    cells: tuple[Cell, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "cells": _cells_json(self.cells)}


@dataclass(frozen=True)
class SheetCheck:
    """The report of :func:`check_sheet`. ``to_json()`` is what ``companion read sheet`` prints."""

    grid: Grid
    empty: int
    start_covers_centre: bool
    shapes: tuple[FoundShape, ...]
    #: filled groups that could not be split into tiles (too big to be one tile)
    unsegmented: tuple[tuple[Cell, ...], ...]
    bonus: Cell | None
    outside: tuple[Cell, ...]
    problems: tuple[SheetProblem, ...]

    @property
    def ok(self) -> bool:
        """True when nothing is wrong or undecided."""
        return not self.problems

    @property
    def is_segmented(self) -> bool:
        return not self.unsegmented

    @property
    def empty_cells(self) -> tuple[Cell, ...]:
        return self.grid.empty_cells

    def to_json(self) -> dict[str, Any]:
        return {
            "grid": self.grid.rows(),
            "empty": self.empty,
            "start_covers_centre": self.start_covers_centre,
            "shapes": [s.to_json() for s in self.shapes],
            "unsegmented": [_cells_json(g) for g in self.unsegmented],
            "bonus": list(self.bonus) if self.bonus is not None else None,
            "outside": _cells_json(self.outside),
            "problems": [p.to_json() for p in self.problems],
        }


def _describe(group: Sequence[Cell], *, is_start: bool, deck: Deck | None) -> FoundShape:
    shape = Shape.from_cells(group)
    canonical = shape.canonical()
    problem = polyomino_problem(shape, sizes=START_SIZES if is_start else PUZZLE_SIZES)
    in_deck: bool | None = None
    if deck is not None and problem is None:
        in_deck = (
            deck.start_tile_for(canonical) is not None if is_start
            else deck.copies_of(canonical) > 0
        )
    return FoundShape(tuple(sorted(group)), canonical.text, is_start, problem, in_deck)


def check_sheet(
    grid_cells: Iterable[Cell] | Grid,
    shapes: Sequence[Iterable[Cell]] | None = None,
    *,
    bonus: Cell | None = None,
    deck: Deck | None = None,
) -> SheetCheck:
    """Report on a sheet given its filled cells (the bonus cell may be among them or not).

    ``shapes``: how the filled cells split into tiles, when the outlines show it. Without it,
    each edge-connected group of filled cells is taken as one tile when it is small enough to be
    one (1-7 cells, or the 8-cell start on the centre); larger groups are reported as
    ``unsegmented`` and left to the players. ``deck``: also check every tile against the cards.
    """
    if isinstance(grid_cells, Grid):
        bonus = grid_cells.bonus if bonus is None else bonus
        raw = list(grid_cells.filled_cells)
    else:
        raw = [(int(r), int(c)) for r, c in grid_cells]
    problems: list[SheetProblem] = []
    outside = tuple(sorted({c for c in raw if not in_grid(c)}))
    if outside:
        problems.append(SheetProblem(
            "outside", f"{len(outside)} filled cell(s) lie outside the 9x9 grid", outside
        ))
    filled = {c for c in raw if in_grid(c)}
    bonus = _checked_bonus(bonus, problems)
    tiles = filled - {bonus} if bonus is not None else set(filled)
    grid = Grid.from_cells(tiles, bonus=bonus)
    unsegmented: list[tuple[Cell, ...]] = []
    if shapes is None:
        found = _shapes_of_groups(tiles, deck, problems, unsegmented)
    else:
        found = _shapes_as_drawn(shapes, tiles, deck, problems)
    found.sort(key=lambda s: s.cells)
    start_covers_centre = CENTRE in tiles
    if not start_covers_centre:
        problems.append(SheetProblem(
            "centre-empty", "the start tile must cover the centre square (the circle)", (CENTRE,)
        ))
    _shape_problems(found, deck, problems)
    return SheetCheck(
        grid=grid,
        empty=SIZE * SIZE - len(tiles) - (1 if bonus is not None else 0),
        start_covers_centre=start_covers_centre,
        shapes=tuple(found),
        unsegmented=tuple(unsegmented),
        bonus=bonus,
        outside=outside,
        problems=tuple(problems),
    )


def _checked_bonus(bonus: Cell | None, problems: list[SheetProblem]) -> Cell | None:
    """The bonus cell, or None when it is off the grid; a problem (appended) when it is off the
    grid or on the centre."""
    if bonus is not None:
        if not in_grid(bonus):
            problems.append(SheetProblem("bonus", f"the 1 at {list(bonus)} is off the grid",
                                         (bonus,)))
            return None
        if bonus == CENTRE:
            problems.append(SheetProblem("bonus", "the 1 is on the centre, where the start tile "
                                         "must be", (bonus,)))
    return bonus


def _shapes_of_groups(tiles: set[Cell], deck: Deck | None, problems: list[SheetProblem],
                      unsegmented: list[tuple[Cell, ...]]) -> list[FoundShape]:
    """Without drawn outlines: each edge-connected group of ``tiles`` small enough to be one
    tile; the larger ones go to ``unsegmented`` with a problem (both appended)."""
    found: list[FoundShape] = []
    for group in connected_groups(tiles):
        is_start = CENTRE in group
        limit = START_SIZE if is_start else max(PUZZLE_SIZES)
        if len(group) > limit:
            unsegmented.append(group)
            problems.append(SheetProblem(
                "unsegmented",
                f"{len(group)} touching filled cells: more than one tile, and no outline "
                "says how they split",
                group,
            ))
        else:
            found.append(_describe(group, is_start=is_start, deck=deck))
    return found


def _shapes_as_drawn(shapes: Sequence[Iterable[Cell]], tiles: set[Cell], deck: Deck | None,
                     problems: list[SheetProblem]) -> list[FoundShape]:
    """The tiles as the outlines split them; problems (appended) for outlines around empty
    cells, cells in two tiles and filled cells in none."""
    found: list[FoundShape] = []
    seen: Counter[Cell] = Counter()
    for raw_group in shapes:
        drawn = [(int(r), int(c)) for r, c in raw_group]
        inside = [c for c in drawn if in_grid(c)]
        if not inside:
            continue
        seen.update(set(inside))
        empty_here = [c for c in inside if c not in tiles]
        if empty_here:
            problems.append(SheetProblem(
                "shape-cell-empty", "a drawn outline encloses cells that are not filled",
                tuple(sorted(empty_here)),
            ))
        unique = tuple(sorted(set(inside)))
        found.append(_describe(unique, is_start=CENTRE in inside, deck=deck))
    twice = tuple(sorted(c for c, n in seen.items() if n > 1))
    if twice:
        problems.append(SheetProblem("overlap", "cells belong to two tiles at once", twice))
    loose = tuple(sorted(tiles - set(seen)))
    if loose:
        problems.append(SheetProblem(
            "unassigned", "filled cells that belong to no outlined tile", loose
        ))
    return found


def _shape_problems(found: list[FoundShape], deck: Deck | None,
                    problems: list[SheetProblem]) -> None:
    """The problems (appended) of the tiles found: illegal shapes, shapes the deck lacks, more
    copies of a card than the deck has."""
    for tile in found:
        if tile.problem is not None:
            code = "start-size" if tile.is_start else "illegal-shape"
            what = "the start tile" if tile.is_start else "a tile"
            problems.append(SheetProblem(
                code, f"{what} {tile.shape!r} {tile.problem}", tile.cells
            ))
        elif tile.in_deck is False:
            what = "start card" if tile.is_start else "card"
            problems.append(SheetProblem(
                "not-in-deck", f"no {what} of the deck has the shape {tile.shape!r}", tile.cells
            ))
    if deck is not None:
        counts = Counter(t.shape for t in found if not t.is_start and t.is_legal)
        for text, n in sorted(counts.items()):
            copies = deck.copies_of(text)
            if n > copies:
                cells = tuple(c for t in found if t.shape == text for c in t.cells)
                problems.append(SheetProblem(
                    "too-many-copies",
                    f"{n} tiles {text!r} drawn, the deck has {copies} such card(s)", cells,
                ))
