"""Sheet reader stage 7, after the segmentation: the tiles read without an outline drawn around
them (a player who skips outlines), asked about. See :mod:`vision.second_chance.outlines`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from companion.second_chance.shapes import Cell
from vision.second_chance.border_decisions import SIDE_CUT_NEEDS
from vision.second_chance.layout import GRID_CELLS
from vision.second_chance.outlines import Segmentation, sheet_question

N = GRID_CELLS


#: a border between a filled and an empty cell shows a drawn outline when it lets through at
#: most this share of the light a printed line lets through (drawn: 0.3-0.7, bare: 0.85-1.1,
#: in every style)
BARE_LINE = 0.8


#: ... and a side this light (as light as the printed line) is surely bare
SURELY_BARE = 0.95


#: on a sheet with missing outlines, a cut the drawing decided less surely than this is asked
WEAK_CUT = 0.7


#: ... and its confidence is then at most this (below 0.5: undecided)
WEAK_CUT_ASKED = 0.45


#: ... but not a cut a drawn stroke follows over this share of its side (the coverage, held
#: against the printed line's own profile, see :mod:`vision.second_chance.sides`), on a sheet
#: where the sheet's sure outlines are followed as far (their median) and no join is followed
#: over :data:`SIDE_CUT_NEEDS` (tuning seeds 0-15, the 44 reads asked so, with and without
#: the cards: every cut followed this far a true outline; the sure cuts' 10th percentile
#: 0.82-1.0, the joins' largest 0.84 on one sheet, 0.78 on the others; the cuts asked 0.75-1.0)
FOLLOWED_ALL_ALONG = 0.9


#: a side of a tile on an empty cell that lets through as much light as a bare line is still
#: drawn where a stroke follows it this far (the same :data:`FOLLOWED_ALL_ALONG`) and another
#: stroke of the tile's outline, followed as far, meets it at a corner (a light pencil or a
#: coloured outline: a stroke drawn beside the printed line, or too light for the light
#: through the border to show it). Tuning seeds 0-15 with the cards: of the 77 outlined sides
#: that look bare (40 reads), 54 are followed this far, 52 of them joined so; the sides of
#: tiles drawn with no outline (own renders, seeds 0-59, outlines left out with p 0.3): 409,
#: followed 0.72 at most (99th percentile 0.44); the printed line between two empty cells on
#: the tuning sheets: 99th percentile 0.25
TRACED_SIDE = FOLLOWED_ALL_ALONG


#: the confidence of a join inside a tile read without an outline around it (asked)
UNOUTLINED_JOIN = 0.25


def unoutlined_tiles(
    seg: Segmentation,
    through_right: np.ndarray,
    through_below: np.ndarray,
    printed: float,
    empty: set[Cell],
    *,
    side_drawn: dict[tuple[Cell, Cell], float] | None = None,
    surely_drawn: float = 1.0,
    surely_bare: float = 0.0,
    followed: dict[tuple[Cell, Cell], float] | None = None,
) -> Segmentation:
    """Ask about every tile of two or more cells read without an outline around it.

    The borders inside a tile are joined because no line is seen there; that is evidence only
    where the player draws outlines. Where the sides of a tile facing empty cells show no drawn
    line (at least half of them let through as much light as the printed line,
    :data:`BARE_LINE`), the player skipped the outline, and two touching tiles drawn that way
    look like one: which it is, only the players know (the rules allow both, colours did not
    split it). (An outline in a light coloured pencil can look bare too: asked, which is
    safe; the colour of the line does not tell them apart, a camera's colour cast tints bare
    printed lines as much.) On a sheet with such a tile, a tile with no side on an empty cell
    is asked about too (its sides are its neighbours' outlines), and so is a cut only just
    decided (:data:`WEAK_CUT`, the profile, a closed gap). The start on the centre (8 cells) is
    not asked: no split of it is legal. The question names the cells; its joins become asked
    borders.

    ``side_drawn`` (see :mod:`vision.second_chance.borders`) is the learned chance that the outline
    is drawn on each side ``(tile cell, empty cell)``: a side it gives at least ``surely_drawn``
    counts as drawn whatever its light (a light coloured pencil's outline), but only on a sheet
    where it is sure of every side that looks bare. Where one tile's outline is skipped, a faint
    outline elsewhere is as doubtful as before: the outline it draws between two tiles can be missed
    as easily (a light pencil tile joined to an unoutlined one), and only the question about its
    tile catches that. A side it gives at most ``surely_bare`` is surely bare: a tile whose bare
    sides all are shows that the player skips outlines as surely as a side that lets through all the
    printed line's light. ``followed`` is the share of each inner border a drawn stroke follows
    (:mod:`vision.second_chance.sides`): a side on an empty cell traced all along and joined to
    the tile's other outline strokes at a corner is drawn, however light (:data:`TRACED_SIDE`,
    :func:`_traced_sides`); a cut followed all along is not asked as weak where the sheet's
    joins show that the measure tells them apart (:func:`_clearly_followed`).
    """
    light = _SideLight(through_right, through_below, printed, empty)
    sides, skips = _tiles_sides(seg, light, side_drawn or {}, surely_drawn, surely_bare,
                                followed or {})
    questions = list(seg.questions)
    outlines = dict(seg.outlines)
    asked = {(q["kind"], str(q["cells"])) for q in questions}
    if skips:
        _ask_weak_cuts(seg, questions, outlines, _clearly_followed(seg, followed or {}))
    centre = (N // 2, N // 2)
    for shape in seg.shapes:
        bare, drawn = sides[shape]
        if len(shape) < 2 or (centre in shape and len(shape) == 8):
            continue  # nothing to split; the start on the centre has 8 cells, no fewer
        if (bare > 0 and bare >= drawn) or (skips and bare + drawn == 0):
            _ask_unverified(shape, seg, asked, questions, outlines)
    unique = {(q["kind"], str(q["cells"])): q for q in reversed(questions)}
    kept = [q for q in questions if unique[(q["kind"], str(q["cells"]))] is q]
    return Segmentation(seg.shapes, tuple(kept), outlines)


@dataclass(frozen=True)
class _SideLight:
    """The light through the sides of tiles on empty cells."""

    through_right: np.ndarray
    through_below: np.ndarray
    printed: float
    empty: set[Cell]

    def sides(self, shape: tuple[Cell, ...]) -> list[tuple[Cell, Cell]]:
        """The sides ``(tile cell, empty cell)`` of a tile, cell by cell."""
        return [((r, c), (nr, nc)) for r, c in shape
                for nr, nc in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c))
                if (nr, nc) in self.empty]

    def through(self, side: tuple[Cell, Cell]) -> float:
        (r, c), (nr, nc) = side
        a = min((r, c), (nr, nc))
        # the array's own number type, as the thresholds were compared with it
        return cast(float, self.through_right[a] if r == nr else self.through_below[a])

    def count(self, shape: tuple[Cell, ...], learned: dict[tuple[Cell, Cell], float],
              chances: dict[tuple[Cell, Cell], float], surely_drawn: float,
              surely_bare: float, traced: set[tuple[Cell, Cell]]
              ) -> tuple[int, int, int, float]:
        """A tile's sides on empty cells: (bare, drawn, surely bare by the model, the
        lightest's light relative to the printed line's); a ``traced`` side is drawn."""
        bare = drawn = certain = 0
        lightest = 0.0
        for side in self.sides(shape):
            through = self.through(side)
            if learned.get(side, 0.0) >= surely_drawn or side in traced:
                drawn += 1
                continue
            lightest = max(lightest, through / max(self.printed, 1e-3))
            if through > BARE_LINE * self.printed:
                bare += 1
                certain += chances.get(side, 1.0) <= surely_bare
            else:
                drawn += 1
        return bare, drawn, certain, lightest


def _tiles_sides(seg: Segmentation, light: _SideLight, chances: dict[tuple[Cell, Cell], float],
                 surely_drawn: float, surely_bare: float,
                 followed: dict[tuple[Cell, Cell], float]
                 ) -> tuple[dict[tuple[Cell, ...], tuple[int, int]], bool]:
    """Each tile's (bare, drawn) sides on empty cells, and whether the player surely skipped
    an outline somewhere (the arguments as :func:`unoutlined_tiles`'s)."""
    traced = {side for shape in seg.shapes
              for side in _traced_sides(shape, light.sides(shape), followed)}
    looks_bare = [side for shape in seg.shapes for side in light.sides(shape)
                  if light.through(side) > BARE_LINE * light.printed and side not in traced]
    # the model counts only on a sheet where it is sure of every side that looks bare
    learned = ({} if any(chances.get(side, 0.0) < surely_drawn for side in looks_bare)
               else chances)
    sides: dict[tuple[Cell, ...], tuple[int, int]] = {}
    skips = False
    for shape in seg.shapes:
        bare, drawn, certain, lightest = light.count(shape, learned, chances, surely_drawn,
                                                     surely_bare, traced)
        sides[shape] = (bare, drawn)
        # a player who surely skipped one outline may have skipped others: then a tile with no
        # side on an empty cell (all its sides are other tiles' outlines) tells nothing of its
        # own (a light coloured pencil's outline can look bare by a little, not by this much)
        skips = skips or (bare > 0 and bare >= drawn
                          and (lightest >= SURELY_BARE or certain == bare))
    return sides, skips


def _traced_sides(shape: tuple[Cell, ...], sides: list[tuple[Cell, Cell]],
                  followed: dict[tuple[Cell, Cell], float]) -> list[tuple[Cell, Cell]]:
    """The ``sides`` ``(tile cell, empty cell)`` of a tile a drawn stroke follows all along
    (:data:`TRACED_SIDE`, against the printed line's own profile) that meet another stroke
    of the tile's outline, followed as far, at one of their two corners: an outline drawn
    round the tile, not a lone stroke (a line of the fill, a smudge) lying on one side."""
    cells = set(shape)

    def along(a: Cell, b: Cell) -> float:
        return followed.get((min(a, b), max(a, b)), 0.0)

    traced = []
    for cell, empty in sides:
        if along(cell, empty) < TRACED_SIDE:
            continue
        # the tile's other outline sides at either corner of this one (a side of the grid's
        # rim has no coverage: it tells nothing)
        others = [side for corner in _corners(cell, empty) for side in _sides_at(corner)
                  if (side[0] in cells) != (side[1] in cells)
                  and {side[0], side[1]} != {cell, empty}]
        if any(along(*side) >= TRACED_SIDE for side in others):
            traced.append((cell, empty))
    return traced


def _corners(a: Cell, b: Cell) -> tuple[Cell, Cell]:
    """The two grid points (row, column of the lines) at the ends of the side between
    neighbours ``a`` and ``b``."""
    (r, c), (r2, c2) = min(a, b), max(a, b)
    if r == r2:
        return (r, c2), (r + 1, c2)
    return (r2, c), (r2, c + 1)


def _sides_at(corner: Cell) -> list[tuple[Cell, Cell]]:
    """The four sides that meet at a grid point, each as the pair of cells it parts."""
    i, j = corner
    return [((i - 1, j - 1), (i - 1, j)), ((i, j - 1), (i, j)),
            ((i - 1, j - 1), (i, j - 1)), ((i - 1, j), (i, j))]


def _clearly_followed(seg: Segmentation, followed: dict[tuple[Cell, Cell], float]
                      ) -> set[tuple[Cell, Cell]]:
    """The cuts a drawn stroke follows all along (:data:`FOLLOWED_ALL_ALONG`), on a sheet where
    the measure tells outlines from joins: its sure outlines (a drawing's sure cut) are
    followed as far, and its joins over less than :data:`SIDE_CUT_NEEDS` of the side (the
    printed line under the fills does not look drawn). There a cut followed all along is an
    outline drawn as the sheet's others are, however the scores of a sheet with bare borders
    decided it. (A hatch stroke lying on the printed line looks followed too: where a join
    shows one, no cut is spared.)"""
    def along(border: tuple[Cell, Cell]) -> float:
        return followed.get(border, 0.0)

    cuts = [border for border, (outline, _, _) in seg.outlines.items() if outline]
    sure = [along(border) for border in cuts
            if seg.outlines[border][2] == "drawing" and seg.outlines[border][1] >= WEAK_CUT]
    joins = [border for border, (outline, _, _) in seg.outlines.items() if outline is False]
    if (not sure or float(np.median(sure)) < FOLLOWED_ALL_ALONG
            or any(followed.get(border, 1.0) >= SIDE_CUT_NEEDS for border in joins)):
        return set()
    return {border for border in cuts if along(border) >= FOLLOWED_ALL_ALONG}


def _ask_weak_cuts(seg: Segmentation, questions: list[dict[str, Any]],
                   outlines: dict[tuple[Cell, Cell], tuple[bool | None, float, str]],
                   clear: set[tuple[Cell, Cell]]) -> None:
    """Where a player skips outlines, the sheet's two groups of scores are mixed with bare
    borders: a cut only just decided (the profile, a closed gap, a score near the middle) is
    asked too, unless a drawn stroke follows it all along (``clear``, see
    :func:`_clearly_followed`) (``questions`` and ``outlines`` updated in place)."""
    for border, (outline, sure, by) in seg.outlines.items():
        if not outline or (by == "drawing" and sure >= WEAK_CUT) or by not in (
                "drawing", "profile", "closure", "model") or border in clear:
            continue
        a, b = border
        both = [x for t in seg.shapes if a in t or b in t for x in t]
        questions.append(sheet_question(
            "split", both,
            f"is there an outline between {list(a)} and {list(b)}? the drawing does not "
            "show it clearly",
        ))
        outlines[border] = (None, min(sure, WEAK_CUT_ASKED), "asked")


def _ask_unverified(shape: tuple[Cell, ...], seg: Segmentation, asked: set[tuple[str, str]],
                    questions: list[dict[str, Any]],
                    outlines: dict[tuple[Cell, Cell], tuple[bool | None, float, str]]) -> None:
    """Ask whether a tile read without an outline around it is one tile or several; its joins
    become asked borders (``questions`` and ``outlines`` updated in place)."""
    cells = set(shape)
    # a cut inside the tile only the profile or a closed gap made is as doubtful as the
    # joins: the tile beyond it is part of the question
    near = set(shape)
    for (a, b), (outline, _, by) in seg.outlines.items():
        if outline and by in ("profile", "closure", "model") and (a in cells) != (b in cells):
            other = b if a in cells else a
            near.update(next(t for t in seg.shapes if other in t))
    question = sheet_question(
        "split", list(near),
        f"no outline is drawn around these {len(shape)} cells: are they one tile or "
        "several?",
    )
    if ("split", str(question["cells"])) not in asked:
        questions.append(question)
    for border, (outline, _, _) in outlines.items():
        if outline is False and border[0] in cells and border[1] in cells:
            outlines[border] = (None, UNOUTLINED_JOIN, "asked")
