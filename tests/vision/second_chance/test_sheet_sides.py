"""Strokes along the cell sides (vision.second_chance.sides), faint marks inside the cells
(cells.stroke_marks) and what the reader makes of them (border_decisions.check_by_sides)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.second_chance.border_decisions import (
    INK_OVER_FILL,
    SIDES_SURE,
    BorderEvidence,
    check_by_sides,
    check_ink_over_fill,
)
from vision.second_chance.cells import PAD, marks_spread, stroke_marks
from vision.second_chance.geometry import CANON_CELL
from vision.second_chance.sides import side_coverage

N = 9
SIZE = N * CANON_CELL + 2 * PAD
PRINTED = 0.4        # darkness of the printed grid line (one pixel)
PEN_BESIDE = 0.3     # a pen lighter than the print (the independent sheets' outlines)
INSET = int(round(CANON_CELL * 0.16))
EVERY = np.ones((N, N), bool)      # every cell read empty


def _printed_grid() -> np.ndarray:
    darkness = np.zeros((SIZE, SIZE), np.float32)
    for i in range(N + 1):
        darkness[:, PAD + i * CANON_CELL] = PRINTED
        darkness[PAD + i * CANON_CELL, :] = PRINTED
    return darkness


def _empty(*filled: tuple[int, int]) -> np.ndarray:
    empty = np.ones((N, N), bool)
    for cell in filled:
        empty[cell] = False
    return empty


def test_an_outline_along_a_side_covers_it_and_the_printed_line_does_not() -> None:
    darkness = _printed_grid()
    x = PAD + 4 * CANON_CELL                      # the line between (2, 3) and (2, 4)
    y0, y1 = PAD + 2 * CANON_CELL, PAD + 3 * CANON_CELL
    darkness[y0:y1, x - 1:x + 2] = 0.8             # a drawn stroke, a little wider
    coverage = side_coverage(darkness, _empty((2, 3), (2, 4)))
    assert coverage.of((2, 3), (2, 4)) > 0.9
    assert coverage.of((5, 3), (5, 4)) == 0.0
    # the stroke ends on the line below (3, 3) empty: beside that line it widens the band for
    # the length of the along-line average at the corner, a few positions of the side
    # (the third darkest column, sides.WIDE_RANK; 0.09 here)
    assert coverage.of((2, 3), (3, 3)) < 0.1


def test_a_lighter_stroke_on_the_printed_lines_shoulders_covers_the_side() -> None:
    """An outline drawn beside the printed line, on its shoulders (1-3 px from it), in an ink
    lighter than the print: the line's darkest point is the print's own, its third darkest
    column tells the stroke (the independent photos' outlines; sides.WIDE_RANK)."""
    darkness = _printed_grid()
    x = PAD + 4 * CANON_CELL                      # the line between (2, 3) and (2, 4)
    y0 = PAD + 2 * CANON_CELL
    rows = slice(y0, y0 + CANON_CELL)
    darkness[rows, x - 3:x - 1] = PEN_BESIDE   # drawn just inside (2, 3), two pixels wide
    coverage = side_coverage(darkness, _empty((2, 3)))
    assert coverage.of((2, 3), (2, 4)) > 0.9
    assert coverage.of((5, 3), (5, 4)) == 0.0
    # the strokes end on the line below: across it they darken a position or two at its end
    assert coverage.of((2, 3), (3, 3)) < 0.1


def test_hatching_across_the_line_does_not_cover_the_side() -> None:
    darkness = _printed_grid()
    x = PAD + 4 * CANON_CELL                      # the line between (2, 3) and (2, 4)
    y0 = PAD + 2 * CANON_CELL
    for start in range(-CANON_CELL, CANON_CELL, 6):   # 45 degree hatching across the line
        for t in range(CANON_CELL):
            if x - CANON_CELL <= x + start + t < x + CANON_CELL:
                darkness[y0 + t, x + start + t] = PEN_BESIDE
    coverage = side_coverage(darkness, _empty((2, 3)))     # a tile's side on an empty cell
    assert coverage.of((2, 3), (2, 4)) == 0.0


def _light_fill_with_an_outline_on_the_shoulders() -> np.ndarray:
    """Cells (2, 3), (2, 4), (3, 3) and (3, 4) under one light translucent fill, and a
    lighter outline on the shoulders of the line between (2, 3) and (2, 4) only."""
    light = 1 - _printed_grid()
    light[_cell_box((2, 3))[0].start:_cell_box((3, 4))[0].stop,
          _cell_box((2, 3))[1].start:_cell_box((3, 4))[1].stop] *= 0.85
    x = PAD + 4 * CANON_CELL
    y0 = PAD + 2 * CANON_CELL
    light[y0:y0 + CANON_CELL, x - 3:x - 1] *= 1 - PEN_BESIDE
    return 1 - light


def test_an_outline_on_the_shoulders_between_two_even_fills_holds_a_cut() -> None:
    """Between two filled cells the line's width counts in the coverage a cut is held
    against where the fills are not strokes with paper between (``stroked``): the
    independent photos' outlines between two tiles' light fills (tuning sheets 9, 25, 32 and
    38 read without the cards, session 30). Alone it asks no join (``of``): a marker's
    strokes overlapping on the line widen it inside a tile too."""
    darkness = _light_fill_with_an_outline_on_the_shoulders()
    filled = _empty((2, 3), (2, 4), (3, 3), (3, 4))
    coverage = side_coverage(darkness, filled, stroked=np.zeros((N, N), bool))
    assert coverage.of_cut((2, 3), (2, 4)) > 0.9
    assert coverage.of((2, 3), (2, 4)) < 0.1
    assert coverage.by_border(for_cuts=True)[((2, 3), (2, 4))] > 0.9
    assert coverage.of_cut((3, 3), (3, 4)) < 0.1   # the printed line under the same fill


def test_the_lines_width_between_two_stroked_fills_holds_no_cut() -> None:
    """Between two cells both filled with strokes the width is not measured: the bottoms of
    a row of loops, or hatch strokes along the line, widen it as such an outline does (the
    project's own loops, ballpoint-mild 5 (0, 3) | (0, 4), which the learned model takes for
    an outline)."""
    darkness = _light_fill_with_an_outline_on_the_shoulders()
    filled = _empty((2, 3), (2, 4), (3, 3), (3, 4))
    stroked = ~filled
    assert side_coverage(darkness, filled, stroked=stroked).of_cut((2, 3), (2, 4)) < 0.1
    assert side_coverage(darkness, filled).of_cut((2, 3), (2, 4)) < 0.1   # None: all
    stroked[2, 4] = False                                # one of them an even fill
    assert side_coverage(darkness, filled, stroked=stroked).of_cut((2, 3), (2, 4)) > 0.9


def test_the_printed_line_through_a_translucent_fill_is_no_outline() -> None:
    darkness = _printed_grid()
    light = 1 - darkness
    box = (slice(PAD + 2 * CANON_CELL, PAD + 3 * CANON_CELL),
           slice(PAD + 3 * CANON_CELL, PAD + 5 * CANON_CELL))
    light[box] *= 0.5                              # a marker over two cells: light halved
    coverage = side_coverage(1 - light, _empty((2, 3), (2, 4)))
    assert coverage.of((2, 3), (2, 4)) < 0.1


def _dense_fill(light: np.ndarray, rows: range, cols: range, rng: np.random.Generator
                ) -> None:
    """A dense dark fill over the cells ``rows`` x ``cols`` (in place): ink over ink takes
    more of the printed line's light than of the paper's (the line shows through darker than
    a translucent fill would let it), with a seeded grain."""
    box = (slice(PAD + rows.start * CANON_CELL, PAD + rows.stop * CANON_CELL),
           slice(PAD + cols.start * CANON_CELL, PAD + cols.stop * CANON_CELL))
    printed = light[box] < 1.0
    fill = rng.uniform(0.30, 0.36, light[box].shape).astype(np.float32)
    light[box] = np.where(printed, fill * 0.45, fill)


def test_the_printed_line_under_a_dense_fill_is_held_against_its_own_profile() -> None:
    rng = np.random.default_rng(22)
    light = 1 - _printed_grid()
    _dense_fill(light, range(2, 4), range(3, 6), rng)   # one tile of six squares
    empty = _empty(*[(r, c) for r in range(2, 4) for c in range(3, 6)])
    x = PAD + 5 * CANON_CELL                            # an outline under the same fill, on
    y0, y1 = PAD + 3 * CANON_CELL, PAD + 4 * CANON_CELL  # the side (3, 4) | (3, 5)
    light[y0:y1, x - 1:x + 2] *= 0.4
    inside = frozenset({((2, 3), (2, 4)), ((2, 4), (2, 5)), ((2, 3), (3, 3)),
                        ((2, 4), (3, 4)), ((2, 5), (3, 5))})
    against_bare = side_coverage(1 - light, empty)
    assert against_bare.of((3, 3), (3, 4)) > 0.9        # the line alone looks stroked
    coverage = side_coverage(1 - light, empty, inside)
    assert coverage.of((3, 3), (3, 4)) < 0.1
    assert coverage.of((2, 3), (2, 4)) < 0.1
    assert coverage.of((3, 4), (3, 5)) > 0.9
    assert coverage.of((5, 3), (5, 4)) == 0.0


def test_a_faint_outline_under_a_light_fill_is_not_held_against_a_dense_fill() -> None:
    rng = np.random.default_rng(23)
    light = 1 - _printed_grid()
    _dense_fill(light, range(2, 4), range(3, 6), rng)
    box = (slice(PAD + 6 * CANON_CELL, PAD + 7 * CANON_CELL),
           slice(PAD + 1 * CANON_CELL, PAD + 5 * CANON_CELL))
    light[box] *= 0.8                                   # a light translucent fill, two tiles
    x = PAD + 3 * CANON_CELL                            # a faint outline (6, 2) | (6, 3)
    y0, y1 = PAD + 6 * CANON_CELL, PAD + 7 * CANON_CELL
    light[y0:y1, x - 1:x + 2] *= 0.8
    filled = [(r, c) for r in range(2, 4) for c in range(3, 6)] + [(6, c) for c in range(1, 5)]
    inside = frozenset({((2, 3), (2, 4)), ((2, 4), (2, 5)), ((2, 3), (3, 3)),
                        ((2, 4), (3, 4)), ((2, 5), (3, 5)), ((6, 1), (6, 2))})
    coverage = side_coverage(1 - light, _empty(*filled), inside)
    assert coverage.of((6, 2), (6, 3)) > 0.9
    assert coverage.of((6, 1), (6, 2)) < 0.1
    assert coverage.of((3, 3), (3, 4)) < 0.1


def test_hatch_strokes_crossing_a_side_do_not_cover_it() -> None:
    darkness = _printed_grid()
    y0, x0 = PAD + 2 * CANON_CELL, PAD + 3 * CANON_CELL
    for offset in range(-2 * CANON_CELL, 2 * CANON_CELL, 6):   # 45 degree hatching
        for t in range(2 * CANON_CELL):
            y, x = y0 + t, x0 + t + offset
            if y0 <= y < y0 + CANON_CELL and x0 <= x < x0 + 2 * CANON_CELL:
                darkness[y, x] = 0.8
    coverage = side_coverage(darkness, _empty((2, 3), (2, 4)))
    assert coverage.of((2, 3), (2, 4)) < 0.3


def _cell_box(cell: tuple[int, int]) -> tuple[slice, slice]:
    r, c = cell
    return (slice(PAD + r * CANON_CELL, PAD + (r + 1) * CANON_CELL),
            slice(PAD + c * CANON_CELL, PAD + (c + 1) * CANON_CELL))


def test_faint_strokes_that_run_one_way_are_a_mark_and_noise_is_not() -> None:
    rng = np.random.default_rng(3)
    darkness = np.abs(rng.normal(0, 0.01, (SIZE, SIZE))).astype(np.float32)
    box = _cell_box((1, 1))
    hatch = np.zeros((CANON_CELL, CANON_CELL), np.float32)
    hatch[:, ::5] = 0.08                           # light vertical hatching
    darkness[box] += hatch
    marks = stroke_marks(darkness, INSET, CANON_CELL - INSET, EVERY)
    assert marks[1, 1]
    assert marks.sum() == 1


def test_the_strokes_directions_measured_before_give_the_same_marks() -> None:
    # the reader passes the cell features' own directions (4.5 ms a read, measured twice
    # before): the same marks as measured here
    from vision.second_chance.cells import stroke_directions

    rng = np.random.default_rng(4)
    darkness = np.abs(rng.normal(0, 0.01, (SIZE, SIZE))).astype(np.float32)
    hatch = np.zeros((CANON_CELL, CANON_CELL), np.float32)
    hatch[:, ::5] = 0.03
    for cell in ((1, 1), (1, 2), (6, 6)):
        darkness[_cell_box(cell)] += hatch if cell != (6, 6) else hatch.T
    lo, hi = INSET, CANON_CELL - INSET
    directions = stroke_directions(darkness, lo, hi)
    alone = stroke_marks(darkness, lo, hi, EVERY)
    assert alone[1, 1] and alone[1, 2]
    assert (stroke_marks(darkness, lo, hi, EVERY, directions=directions) == alone).all()


def test_a_lone_faint_trace_is_no_mark_but_a_faint_fill_over_two_cells_is() -> None:
    darkness = np.zeros((SIZE, SIZE), np.float32)
    hatch = np.zeros((CANON_CELL, CANON_CELL), np.float32)
    hatch[:, ::5] = 0.025                          # fainter: a rubber's trace or a light fill
    darkness[_cell_box((4, 4))] += hatch
    assert not stroke_marks(darkness, INSET, CANON_CELL - INSET, EVERY).any()
    darkness[_cell_box((4, 5))] += hatch
    assert stroke_marks(darkness, INSET, CANON_CELL - INSET, EVERY)[4, 4:6].all()
    # ... but not when the other cell is read filled (its strokes are its tile's)
    filled_beside = EVERY.copy()
    filled_beside[4, 5] = False
    assert not stroke_marks(darkness, INSET, CANON_CELL - INSET, filled_beside).any()


def test_a_smooth_smudge_is_not_a_mark() -> None:
    darkness = np.zeros((SIZE, SIZE), np.float32)
    yy, xx = np.mgrid[0:CANON_CELL, 0:CANON_CELL]
    darkness[_cell_box((6, 2))] = 0.1 * np.exp(-((yy - 20) ** 2 + (xx - 20) ** 2) / 150)
    assert not stroke_marks(darkness, INSET, CANON_CELL - INSET, EVERY).any()


def test_strokes_over_a_cell_are_spread_and_a_spill_along_one_side_is_not() -> None:
    darkness = np.zeros((SIZE, SIZE), np.float32)
    hatch = np.zeros((CANON_CELL, CANON_CELL), np.float32)
    hatch[:, ::5] = 0.05                           # light hatching over the whole cell
    darkness[_cell_box((2, 2))] += hatch
    spill = np.zeros((CANON_CELL, CANON_CELL), np.float32)
    spill[-INSET - 5:, ::5] = 0.05                 # the strokes of the square below, over the line
    darkness[_cell_box((2, 6))] += spill
    spread = marks_spread(darkness, INSET, CANON_CELL - INSET)
    assert spread[2, 2]
    assert not spread[2, 6]


def _evidence(*, chance: float | None = 0.99, along: bool = False, sure: float = 0.5
              ) -> BorderEvidence:
    return BorderEvidence(score=0.2, hue=0.0, strong_hue=False, sure=sure, distance=0.5,
                          chance=chance, hatched_along=along, verdict=None)


@pytest.mark.parametrize(("kind", "by", "coverage", "grid_hatched", "expected"), [
    # hatching along the grid, no stroke along most of the line: asked
    ("cut", "model", 0.6, True, "unsure"),
    ("cut", "drawing", 0.6, True, "unsure"),
    ("cut", "drawing", 0.95, True, "cut"),
    ("cut", "colour", 0.0, True, "cut"),    # a change of colour needs no stroke
    ("cut", "drawing", 0.6, False, "cut"),  # diagonal shading: the cut stands
    ("cut", "model", 0.6, False, "unsure"),  # the learned model alone: asked
    ("cut", "model", 0.9, False, "unsure"),  # ... unless a stroke follows all the line
    ("cut", "model", 1.0, False, "cut"),
    ("unsure", "asked", 0.05, False, "unsure"),  # nothing: maybe an outline skipped
    ("unsure", "asked", 1.0, False, "cut"),     # a stroke all along it
    ("unsure", "asked", 1.0, True, "unsure"),   # ... which may be the hatching's
    ("unsure", "asked", 0.6, False, "unsure"),
])
def test_the_strokes_along_a_border_check_and_settle_its_verdict(
        kind: str, by: str, coverage: float, grid_hatched: bool, expected: str) -> None:
    outline = (None if kind == "unsure" else kind == "cut", 0.6, by)
    decided, entry = check_by_sides(kind, outline, _evidence(), coverage, grid_hatched)
    assert decided == expected
    if expected != kind:
        assert entry[1] <= SIDES_SURE


@pytest.mark.parametrize(("by", "coverage", "chance", "sure", "expected"), [
    ("drawing", 1.0, 0.99, 1.0, "cut"),      # drawn, and the model agrees
    ("drawing", 0.6, 0.99, 1.0, "unsure"),   # a hatch stroke following the line a while
    ("drawing", 1.0, 0.5, 1.0, "unsure"),    # loops along the line: the model doubts it
    ("drawing", 1.0, 0.99, 0.6, "unsure"),   # barely drawn: an outline's overshoot
    ("model", 1.0, 0.99, 0.5, "cut"),        # a stroke all along, the model sure
    ("model", 0.9, 0.99, 0.5, "unsure"),
    ("colour", 0.0, 0.1, 0.5, "cut"),        # a change of colour needs no stroke
])
def test_a_cut_between_two_stroked_fills_needs_the_drawing_and_the_model(
        by: str, coverage: float, chance: float, sure: float, expected: str) -> None:
    decided, _ = check_by_sides("cut", (True, sure, by), _evidence(chance=chance, sure=sure),
                                coverage, stroked=True, cut_chance=0.9)
    assert decided == expected


def test_a_cut_the_model_doubts_needs_a_stroke_along_most_of_the_line() -> None:
    """The printed line showing through a dense fill or a translucent marker scores like an
    outline; the model doubts it and no stroke follows the line."""
    doubted = _evidence(chance=0.6, sure=1.0)
    assert check_by_sides("cut", (True, 1.0, "drawing"), doubted, 0.5, cut_chance=0.9)[0] \
        == "unsure"
    assert check_by_sides("cut", (True, 1.0, "drawing"), doubted, 0.95, cut_chance=0.9)[0] \
        == "cut"


@pytest.mark.parametrize(("coverage", "expected"), [
    (0.0, "unsure"),    # the printed line under a dense fill: no stroke along it at all
    (0.38, "unsure"),   # a stroke along a third of it
    (0.69, "cut"),      # most of the side: a drawn outline with gaps stands
    (1.0, "cut"),
])
def test_a_cut_no_stroke_follows_over_most_of_the_side_is_asked_though_the_model_is_sure(
        coverage: float, expected: str) -> None:
    """The printed line darkened by a dense fill or a translucent marker scores like an
    outline, and the learned model takes it for one too (tuning mixed harsh 13,
    ballpoint harsh 14 without the cards: cut at 1.0 inside one tile); a drawn outline
    follows the line over most of the side."""
    sure_line = _evidence(chance=0.97, sure=1.0)
    decided, _ = check_by_sides("cut", (True, 1.0, "drawing"), sure_line, coverage,
                                cut_chance=0.9)
    assert decided == expected
    # a faint outline the learned model is all but certain of stands (own pencil renders)
    certain = _evidence(chance=0.999, sure=1.0)
    assert check_by_sides("cut", (True, 1.0, "drawing"), certain, coverage,
                          cut_chance=0.9)[0] == "cut"
    # a change of colour is an outline with or without a stroke along it
    assert check_by_sides("cut", (True, 1.0, "colour"), sure_line, coverage,
                          cut_chance=0.9)[0] == "cut"


def test_a_stroke_all_along_settles_nothing_between_stroked_fills_the_model_doubts() -> None:
    decided, _ = check_by_sides("unsure", (None, 0.5, "asked"), _evidence(chance=0.6), 1.0,
                                stroked=True, cut_chance=0.9)
    assert decided == "unsure"


def test_the_model_alone_cuts_nothing_between_cells_hatched_alike_along_the_line() -> None:
    decided, _ = check_by_sides("cut", (True, 0.6, "model"), _evidence(along=True), 1.0)
    assert decided == "unsure"
    decided, _ = check_by_sides("cut", (True, 0.6, "model"), _evidence(along=False), 1.0)
    assert decided == "cut"


def test_a_stroke_all_along_a_border_read_joined_makes_it_a_question() -> None:
    """An outline hidden under a dense fill in the same ink: no line is seen, but a stroke
    follows all of the border; hatching along the border is no such evidence."""
    joined = (False, 1.0, "drawing")
    assert check_by_sides("join", joined, _evidence(chance=0.05), 1.0)[0] == "unsure"
    assert check_by_sides("join", joined, _evidence(chance=0.05), 0.5)[0] == "join"
    assert check_by_sides("join", joined, _evidence(chance=0.05, along=True), 1.0)[0] == "join"
    assert check_by_sides("join", joined, _evidence(chance=0.05), 1.0, True)[0] == "join"


def test_an_outline_on_the_shoulders_between_fills_holds_and_settles_cuts_only() -> None:
    """The coverage a cut is held against (``cut_coverage``: the line's width between two
    even fills too) lets a cut the model made stand, cuts an undecided border the model leans
    to an outline on and asks a join the model is not sure of; a join the model is sure of
    stays a join (a marker's strokes overlapping on the line inside a tile, the project's
    own mixed scan 5)."""
    by_model = (True, 0.6, "model")
    assert check_by_sides("cut", by_model, _evidence(chance=0.95), 0.0)[0] == "unsure"
    assert check_by_sides("cut", by_model, _evidence(chance=0.95), 0.0,
                          cut_coverage=1.0)[0] == "cut"
    undecided = (None, 0.5, "asked")
    assert check_by_sides("unsure", undecided, _evidence(chance=0.95), 0.0,
                          cut_coverage=1.0)[0] == "cut"
    assert check_by_sides("unsure", undecided, _evidence(chance=0.3), 0.0,
                          cut_coverage=1.0)[0] == "unsure"
    joined = (False, 1.0, "drawing")
    assert check_by_sides("join", joined, _evidence(chance=0.02), 0.0, cut_coverage=1.0,
                          join_chance=0.08)[0] == "join"
    assert check_by_sides("join", joined, _evidence(chance=0.4), 0.0, cut_coverage=1.0,
                          join_chance=0.08)[0] == "unsure"


def test_hatching_along_the_line_settles_nothing() -> None:
    decided, _ = check_by_sides("unsure", (None, 0.5, "asked"), _evidence(along=True), 1.0)
    assert decided == "unsure"


@pytest.mark.parametrize(("coverage", "expected"), [
    (0.2, "join"),      # the printed line through a dense fill: no stroke follows it
    (1.0, "unsure"),    # a stroke all along: maybe an outline after all, asked
    (None, "unsure"),   # not measured: asked, as before
])
def test_a_line_only_the_score_sees_is_joined_where_no_stroke_follows_it(
        coverage: float | None, expected: str) -> None:
    from dataclasses import replace

    from vision.second_chance.border_decisions import BorderRule, decide_border
    from vision.second_chance.settings import DEFAULT_SETTINGS

    rule = BorderRule(DEFAULT_SETTINGS, (0.38, 0.25), (0.9, 0.08))
    evidence = replace(_evidence(chance=0.01), score=0.39, coverage=coverage)
    assert decide_border(evidence, rule)[0] == expected


def test_a_light_fill_spans_cells_and_a_lone_trace_or_a_faint_smear_does_not() -> None:
    from vision.second_chance.cell_reading import light_fills

    darkness = np.zeros((SIZE, SIZE), np.float32)
    hatch = np.zeros((CANON_CELL, CANON_CELL), np.float32)
    hatch[:, ::5] = 0.1                            # light hatching, clear strokes
    for cell in ((2, 2), (2, 3), (6, 6)):          # a two-cell light tile, a lone trace
        darkness[_cell_box(cell)] += hatch
    smear = hatch * 0.3                            # two faint traces side by side
    darkness[_cell_box((7, 1))] += smear
    darkness[_cell_box((7, 2))] += smear
    marks = stroke_marks(darkness, INSET, CANON_CELL - INSET, EVERY)
    assert marks[7, 1:3].all() and marks[6, 6]    # every one of them is a mark, asked about
    fills = light_fills(darkness, marks, INSET)
    assert {tuple(map(int, x)) for x in np.argwhere(fills)} == {(2, 2), (2, 3)}


def _hatched_pair(*, outline: bool) -> np.ndarray:
    """Cells (2, 3) and (2, 4) hatched with vertical strokes (light multiplied, ink over ink),
    one of them lying on the printed line between the two; an outline drawn over that line
    or not."""
    light = 1 - _printed_grid()
    x = PAD + 4 * CANON_CELL
    rows = slice(PAD + 2 * CANON_CELL, PAD + 3 * CANON_CELL)
    for k in range(-6, 7):
        light[rows, x + 6 * k] *= 0.3                 # a hatch stroke, a pixel wide
    if outline:
        light[rows, x - 1:x + 2] *= 0.25              # a drawn outline over it all
    return 1 - light


@pytest.mark.parametrize("outline", [False, True])
def test_a_hatch_stroke_on_the_printed_line_adds_no_ink_over_the_fill_an_outline_does(
        outline: bool) -> None:
    darkness = _hatched_pair(outline=outline)
    over = side_coverage(darkness, _empty((2, 3), (2, 4))).over_fill((2, 3), (2, 4))
    assert over is not None
    assert (over >= INK_OVER_FILL) == outline


def test_a_cut_with_no_ink_over_the_fill_is_asked_without_the_cards_only() -> None:
    cut = ("cut", (True, 1.0, "drawing"))
    assert check_ink_over_fill(*cut, 0.1, 0.5, cards=False)[0] == "unsure"
    assert check_ink_over_fill(*cut, 0.1, 0.5, cards=True) == cut
    assert check_ink_over_fill(*cut, 0.3, 0.5, cards=False) == cut
    assert check_ink_over_fill(*cut, 0.1, 1.0, cards=False) == cut   # followed all along
    assert check_ink_over_fill(*cut, 0.1, 0.5, cards=False, chance=0.999) == cut
    colour = ("cut", (True, 1.0, "colour"))
    assert check_ink_over_fill(*colour, 0.0, 0.0, cards=False) == colour
