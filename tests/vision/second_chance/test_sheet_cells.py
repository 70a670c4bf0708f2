"""The paper model of the sheet reader (vision.second_chance.cells) on drawn canonical images: solid
shading is lifted to the paper around it, paper in a shadow beside it is not. And the cell
classes: a hole among filled cells with marks in it is asked about; and the bonus 1."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.second_chance.cell_reading import (
    CellsRead,
    cell_questions,
    clear_light_fills,
    filled_cells,
    find_bonus,
    read_cells,
)
from vision.second_chance.cells import (
    CENTRE_CIRCLE,
    PAD,
    CellFeatures,
    classify_cells,
    looks_like_paper_beside,
    paper_and_unsure,
    stroke_directions,
)
from vision.second_chance.geometry import CANON_CELL, CANON_MARGIN, CANON_SIZE
from vision.second_chance.settings import DEFAULT_SETTINGS

#: the grid cells of the drawings: a block of solid shading down column 4 from row 3, and the
#: empty cell left of its foot, in the soft shadow over the bottom left of the sheet
BLOCK_COLUMN, BLOCK_TOP = 4, 3
BESIDE = (8, 3)


def _box(cell: tuple[int, int]) -> tuple[slice, slice]:
    r, c = cell
    y, x = CANON_MARGIN + r * CANON_CELL, CANON_MARGIN + c * CANON_CELL
    return slice(y, y + CANON_CELL), slice(x, x + CANON_CELL)


def _sheet(block_bgr: tuple[float, float, float]) -> np.ndarray:
    """Grey paper in a soft shadow (a few percent a half-cell, down to half the light) over
    the bottom left, bright elsewhere; the block's channels are shares of the paper under it."""
    y = np.arange(CANON_SIZE, dtype=np.float32)[:, None]
    x = np.arange(CANON_SIZE, dtype=np.float32)[None, :]
    left = np.clip((300 - x) / 100, 0, 1)
    low = np.clip((y - 200) / 100, 0, 1)
    light = 1.0 - 0.5 * left * low
    image = np.repeat((210 * light)[:, :, None], 3, axis=2)
    for r in range(BLOCK_TOP, 9):
        ys, xs = _box((r, BLOCK_COLUMN))
        image[ys, xs] = image[ys, xs] * np.asarray(block_bgr, np.float32)
    return np.clip(image, 0, 255).astype(np.uint8)


def _not_ink(brightness: float) -> float:
    """The paper brightness up to which ``brightness`` is not yet ink."""
    return brightness / (1.0 - DEFAULT_SETTINGS.ink_darkness)


def _at(paper: np.ndarray, cell: tuple[int, int]) -> float:
    return float(np.median(paper[_box(cell)]))


def test_paper_in_a_shadow_beside_a_grey_block_stays_the_paper_it_is() -> None:
    image = _sheet((0.5, 0.5, 0.5))
    gray = image.mean(axis=2).astype(np.float32)
    paper, unsure = paper_and_unsure(gray, colour=image)
    beside = float(np.median(gray[_box(BESIDE)]))
    # the block is measured against the paper, not against itself
    foot = (8, BLOCK_COLUMN)
    assert _at(paper, foot) > 1.5 * float(np.median(gray[_box(foot)]))
    # the shadowed paper beside the block's foot is not ink against the paper model there
    assert _at(paper, BESIDE) < _not_ink(beside)
    # and, so much darker than the lifted block next to it, its cell is unsure
    assert unsure[BESIDE]


def test_paper_in_a_shadow_as_dark_as_a_colour_block_beside_it_stays_paper() -> None:
    # a light green pencil block about as dark in grey as the shadowed paper beside it: only
    # its colour tells it apart
    image = _sheet((0.65, 0.95, 0.65))
    gray = image.mean(axis=2).astype(np.float32)
    paper = paper_and_unsure(gray, colour=image)[0]
    beside = float(np.median(gray[_box(BESIDE)]))
    assert _at(paper, BESIDE) < _not_ink(beside)


def _features(scores: np.ndarray) -> CellFeatures:
    """Cell features with these fill scores; filled-looking cells have a pencil's grain."""
    shape = (9, 9)
    return CellFeatures(ink=np.zeros(shape), score=scores, texture=np.full(shape, 0.05),
                        spread_x=np.zeros(shape), spread_y=np.zeros(shape),
                        colour=np.zeros(shape + (3,)), darkness=np.where(scores > 1, 0.6, 0.02))


def test_a_hole_with_marks_among_filled_cells_is_asked_about() -> None:
    empty_score = DEFAULT_SETTINGS.empty_score
    scores = np.full((9, 9), 3.0)
    scores[4, 4] = empty_score * 0.95  # a light fill just under the empty threshold
    scores[0, 0] = empty_score * 0.95  # in the corner: its two neighbours are filled
    scores[8, 4] = 0.05  # a clean hole: the player left it empty
    state, confidence, _ = classify_cells(_features(scores), DEFAULT_SETTINGS)
    assert state[4, 4] == -1 and confidence[4, 4] < DEFAULT_SETTINGS.doubtful_below
    assert state[0, 0] == -1
    assert state[8, 4] == 0


def test_a_hole_among_doubtful_neighbours_is_asked_about_too() -> None:
    # a light tile: its cells doubtful, one just under the empty threshold among them (11891)
    empty_score = DEFAULT_SETTINGS.empty_score
    scores = np.full((9, 9), 3.0)
    scores[4, 4] = empty_score * 0.95
    scores[3, 4] = scores[4, 3] = (empty_score + DEFAULT_SETTINGS.filled_score) / 2
    state, _, _ = classify_cells(_features(scores), DEFAULT_SETTINGS)
    assert state[3, 4] == -1 and state[4, 3] == -1
    assert state[4, 4] == -1


def test_a_faint_cell_with_an_empty_neighbour_is_not_a_hole() -> None:
    scores = np.full((9, 9), 3.0)
    scores[4, 4] = DEFAULT_SETTINGS.empty_score * 0.95
    scores[4, 5] = 0.05
    state, _, _ = classify_cells(_features(scores), DEFAULT_SETTINGS)
    assert state[4, 4] == 0 and state[4, 5] == 0


def _hatched(direction: str) -> np.ndarray:
    """A cropped darkness map (the grid and PAD around it) with every cell hatched alike:
    soft strokes 6 px apart, ``|`` vertical, ``-`` horizontal, ``/`` diagonal, ``x`` both
    diagonals, ``+`` vertical and horizontal."""
    size = 9 * CANON_CELL + 2 * PAD
    y, x = np.mgrid[0:size, 0:size].astype(np.float32)
    d1, d2 = (x + y) / np.sqrt(2), (x - y) / np.sqrt(2)
    strokes = {"|": [x], "-": [y], "/": [d1], "x": [d1, d2], "+": [x, y]}[direction]
    dark = np.zeros((size, size), np.float32)
    for across in strokes:
        dark += 0.4 * (1 + np.cos(2 * np.pi * across / 6.0)) / len(strokes)
    return dark


def _strokes(direction: str) -> np.ndarray:
    lo = int(round(CANON_CELL * DEFAULT_SETTINGS.inset))
    strokes = stroke_directions(_hatched(direction), lo, CANON_CELL - lo)
    assert strokes.shape == (9, 9, 4)
    # hatched alike: nearly the same in every cell (the strokes cross each cell at another
    # phase)
    assert np.allclose(strokes, strokes[4, 4], atol=0.2)
    return strokes[4, 4]


@pytest.mark.parametrize(("direction", "cos2", "sin2"), [
    ("|", 1.0, 0.0), ("-", -1.0, 0.0), ("/", 0.0, 1.0), ("x", 0.0, 0.0), ("+", 0.0, 0.0),
])
def test_the_direction_of_the_strokes_in_each_cell_is_measured(
        direction: str, cos2: float, sin2: float) -> None:
    # cos 2a is 1 for strokes that run up and down (the gradient across them is along x)
    cos2_measured, sin2_measured, _, _ = _strokes(direction)
    assert cos2_measured == pytest.approx(cos2, abs=0.1)
    assert abs(sin2_measured) == pytest.approx(abs(sin2), abs=0.1)


def test_a_light_fill_in_the_centre_cell_runs_its_way_past_the_printed_ring() -> None:
    # the printed circle's edges are far stronger than a light fill's strokes; with the grid
    # found two pixels off they lay beside the ring measured for it, and the fill in the
    # centre cell measured no direction (the cell was read empty for sure)
    dark = 0.12 * _hatched("/")
    size = dark.shape[0]
    y, x = np.mgrid[0:size, 0:size].astype(np.float32)
    middle = PAD + 4.5 * CANON_CELL + 2.0  # the ring two pixels right of where it is looked for
    radius = np.hypot(x - middle, y - PAD - 4.5 * CANON_CELL)
    ring = np.abs(radius - CENTRE_CIRCLE * CANON_CELL) <= 1.0
    dark[ring] = 0.7
    lo = int(round(CANON_CELL * DEFAULT_SETTINGS.inset))
    cos2, sin2, _, _ = stroke_directions(dark, lo, CANON_CELL - lo)[4, 4]
    assert abs(sin2) > 0.6 and abs(cos2) < 0.3


def _lightly_hatched(cells: dict[tuple[int, int], str]) -> np.ndarray:
    """A cropped darkness map of paper with a little noise (seeded), the ``cells`` hatched
    lightly in their direction (see :func:`_hatched`): strokes a tenth as dark."""
    rng = np.random.default_rng(5)
    dark = rng.normal(0.02, 0.004, _hatched("|").shape).astype(np.float32)
    for (r, c), direction in cells.items():
        ys = slice(PAD + r * CANON_CELL, PAD + (r + 1) * CANON_CELL)
        xs = slice(PAD + c * CANON_CELL, PAD + (c + 1) * CANON_CELL)
        dark[ys, xs] += 0.1 * _hatched(direction)[ys, xs]
    return dark


def test_a_light_fill_is_clear_where_its_strokes_run_as_a_neighbours_do() -> None:
    # a tile's two squares hatched one way; a lone square (a rubber's traces leave one) and
    # two squares side by side hatched across each other are no clear fill: asked, as before
    hatched = {(2, 2): "/", (2, 3): "/", (6, 6): "/", (6, 2): "|", (6, 3): "-"}
    dark = _lightly_hatched(hatched)
    state = np.zeros((9, 9), int)
    for cell in hatched:
        state[cell] = -1
    lo = int(round(CANON_CELL * DEFAULT_SETTINGS.inset))
    clear = clear_light_fills(dark, state, stroke_directions(dark, lo, CANON_CELL - lo), lo)
    assert {(int(r), int(c)) for r, c in zip(*np.nonzero(clear), strict=True)} == {
        (2, 2), (2, 3)}
    # the same strokes on a sheet whose every empty square is as busy (a noisy picture, a
    # grainy paper) stand out of nothing: no fill is clear
    busy = dark + 0.1 * _hatched("x")
    clear = clear_light_fills(busy, state, stroke_directions(busy, lo, CANON_CELL - lo), lo)
    assert not clear.any()


def test_two_ways_of_cross_hatching_are_told_apart() -> None:
    # no one direction in either (2a cancels), but the 4a harmonic differs: a square grid of
    # strokes against a diagonal one
    assert abs(_strokes("x")[2] - _strokes("+")[2]) > 0.5
    # and a single direction differs from both
    assert all(np.linalg.norm(_strokes("/")[:2] - _strokes(c)[:2]) > 0.8 for c in "x+")


def test_an_even_fill_that_looks_like_the_paper_beside_it_is_found() -> None:
    size = 9 * CANON_CELL + 2 * PAD
    state = np.zeros((9, 9), int)
    state[4, 4] = 1  # read filled, its right neighbour empty
    texture = np.full((9, 9), 0.02)

    def found(fill: float, beside: float, fill_texture: float = 0.02) -> bool:
        grid = np.full((size, size, 3), beside, np.uint8)
        ys, xs = (slice(PAD + 4 * CANON_CELL, PAD + 5 * CANON_CELL),) * 2
        grid[ys, xs] = fill
        texture[4, 4] = fill_texture
        return bool(looks_like_paper_beside(grid, state, texture, DEFAULT_SETTINGS)[4, 4])

    assert found(139, 138)  # paper in a shadow, like the empty paper beside it (11592)
    assert not found(110, 138)  # shading: far darker than that paper
    assert not found(139, 138, fill_texture=0.06)  # grain of drawn shading
    assert not looks_like_paper_beside(
        np.full((size, size, 3), 138, np.uint8), np.ones((9, 9), int), texture,
        DEFAULT_SETTINGS).any()  # no empty cell beside: nothing to compare with


def _hatched_sheet_in_a_corner_shadow() -> np.ndarray:
    """Every grid cell hatched but the top right three (0, 7), (0, 8), (1, 8), which a hand's
    soft shadow (down to 0.55 of the light, falling off over a cell) covers with the margin
    beyond them; grey paper 210 with the printed grid lines, the hatching's strokes half the
    paper's light."""
    y = np.arange(CANON_SIZE, dtype=np.float32)[:, None]
    x = np.arange(CANON_SIZE, dtype=np.float32)[None, :]
    paper = np.full((CANON_SIZE, CANON_SIZE), 210.0, np.float32)
    grid = slice(CANON_MARGIN - 1, CANON_MARGIN + 9 * CANON_CELL + 1)
    for i in range(10):  # the printed lines: half the paper's light, 2 px wide
        at = CANON_MARGIN + i * CANON_CELL
        paper[grid, at - 1:at + 1] *= 0.5
        paper[at - 1:at + 1, grid] *= 0.5
    hatching = np.where(np.cos(2 * np.pi * (x + y) / 7.0) > 0.3, 0.5, 1.0)
    for r in range(9):
        for c in range(9):
            if (r, c) not in ((0, 7), (0, 8), (1, 8)):
                ys, xs = _box((r, c))
                paper[ys, xs] *= hatching[ys, xs]
    edge = CANON_CELL
    right = np.clip((x - (CANON_MARGIN + 6 * CANON_CELL)) / edge, 0, 1)
    top = np.clip(((CANON_MARGIN + 2.5 * CANON_CELL) - y) / edge, 0, 1)
    image = np.repeat((paper * (1.0 - 0.45 * right * top))[:, :, None], 3, axis=2)
    return np.clip(image, 0, 255).astype(np.uint8)


def test_empty_paper_under_a_shadow_is_paper_beside_hatched_cells_in_the_light() -> None:
    # harsh photos (tuning coloured/harsh seed 6; the held-apart class of marks/harsh 70007):
    # a soft shadow's edge falls off over a cell, a step the paper model took for the edge of a
    # solid block; lifted to the paper in the light, the shadowed empty cells read filled with
    # full confidence
    image = _hatched_sheet_in_a_corner_shadow()
    gray = image.mean(axis=2).astype(np.float32)
    paper = paper_and_unsure(gray, colour=image)[0]
    for cell in [(0, 7), (0, 8), (1, 8)]:
        inside = float(np.median(gray[_box(cell)]))
        assert _at(paper, cell) < _not_ink(inside), cell


def _with_a_heavy_mark_like_a_one(cell: tuple[int, int]) -> CellsRead:
    """Cells read: one filled square whose ink looks a little like a 1, heavier than a written
    1 has (a pen's fill stroke), every other square empty."""
    scores = np.zeros((9, 9))
    scores[cell] = 3.0
    f = _features(scores)
    ink = np.zeros((9, 9))
    ink[cell] = DEFAULT_SETTINGS.one_max_ink * 1.2
    f = replace(f, ink=ink)
    state = np.where(scores > 1, 1, 0)
    return CellsRead(ink=np.zeros((380, 380), bool), darkness=np.zeros((380, 380)),
                     features=f, state=state, confidence=np.ones((9, 9)), ones=[cell],
                     unsure_paper=np.zeros((9, 9), bool))


def test_a_heavy_mark_like_a_one_is_never_the_one_where_none_can_be() -> None:
    # tuning seeds 0-15 (ballpoint scan 4, marker scan 11 and 12, mixed scan 8, ballpoint mild
    # 4, marker mild 14, ballpoint and marker harsh 4 and 14): a tile's square with a pen
    # stroke like a 1 in it was taken for the 1 of a player who cannot have written one,
    # cutting its tile short: the tile then matched no card, and the sheet was asked about
    cells = _with_a_heavy_mark_like_a_one((6, 7))
    bonus, _, questions = find_bonus(DEFAULT_SETTINGS, cells)
    assert bonus == (6, 7) and questions  # a 1 possible: the 1 meanwhile, asked
    bonus, _, questions = find_bonus(DEFAULT_SETTINGS, cells, one_possible=False)
    assert bonus is None  # none possible: the tile's square it is read as
    assert [q["cells"] for q in questions] == [[[6, 7]]]  # still asked, unless the cards settle it
    assert (6, 7) in filled_cells(cells, bonus)


def _sheet_with_light_marks(marks: dict[tuple[int, int], tuple[float, float, float]]
                            ) -> np.ndarray:
    """Grey paper 215 with a little seeded noise and the printed grid lines; the ``marks``
    cells' insides shaded evenly, their channels (B, G, R) the given shares of the paper."""
    rng = np.random.default_rng(11)
    image = np.full((CANON_SIZE, CANON_SIZE, 3), 215.0, np.float32)
    image += rng.normal(0.0, 2.0, image.shape).astype(np.float32)
    grid = slice(CANON_MARGIN - 1, CANON_MARGIN + 9 * CANON_CELL + 1)
    for i in range(10):
        at = CANON_MARGIN + i * CANON_CELL
        image[grid, at - 1:at + 1] *= 0.5
        image[at - 1:at + 1, grid] *= 0.5
    for cell, shares in marks.items():
        ys, xs = _box(cell)
        inside = (slice(ys.start + 3, ys.stop - 3), slice(xs.start + 3, xs.stop - 3))
        image[inside] *= np.asarray(shares, np.float32)
    return np.clip(image, 0, 255).astype(np.uint8)


def test_a_light_coloured_fill_is_a_mark_a_grey_smudge_as_light_is_not() -> None:
    # tuning coloured/mild seeds 3-6 and marker/mild 8: light coloured-pencil fills and a felt
    # marker's flat fills were asked about square by square (a sheet asked, 20-48 squares);
    # an erased smudge or a shadow, as light in grey, has no colour
    # (B, G, R) shares of the paper: a light yellow doubtful by its darkness, a paler one read
    # empty by it, and a grey shade as smooth as paper in a shadow (doubtful)
    yellow, pale_yellow, smudge = (0.93, 0.995, 1.0), (0.96, 0.995, 1.0), (0.8, 0.8, 0.8)
    marks = {(2, 2): yellow, (2, 3): yellow, (3, 3): yellow, (6, 6): pale_yellow,
             (6, 7): pale_yellow, (7, 1): smudge}
    cells = read_cells(DEFAULT_SETTINGS, _sheet_with_light_marks(marks))
    assert [int(cells.state[c]) for c in [(2, 2), (2, 3), (3, 3)]] == [1, 1, 1]
    assert all(cells.confidence[c] >= DEFAULT_SETTINGS.doubtful_below
               for c in [(2, 2), (2, 3), (3, 3)])
    # fainter still (read empty by its darkness): asked about, and filled meanwhile
    assert [int(cells.state[c]) for c in [(6, 6), (6, 7)]] == [-1, -1]
    assert {(6, 6), (6, 7)} <= filled_cells(cells, None)
    # the grey shade: asked about as before, not taken for a coloured fill
    assert cells.state[7, 1] == -1


def test_squares_read_by_their_colour_alone_still_count_as_unclear_for_the_empty_ones() -> None:
    # tuning mixed/scan seed 7: 7 doubtful squares read filled by their colour left too few
    # doubtful ones to ask about the squares read empty, and three squares of a paler
    # coloured fill, read empty, were wrong with no question
    scores = np.zeros((9, 9))
    state = np.zeros((9, 9), int)
    coloured = np.zeros((9, 9), bool)
    for c in range(7):
        state[0, c], scores[0, c], coloured[0, c] = 1, 1.0, True
    state[1, 0] = state[1, 1] = -1
    cells = CellsRead(ink=np.zeros((380, 380), bool), darkness=np.zeros((380, 380)),
                      features=_features(scores), state=state, confidence=np.ones((9, 9)),
                      ones=[], unsure_paper=np.zeros((9, 9), bool), coloured=coloured)
    about_empty = [q for q in cell_questions(DEFAULT_SETTINGS, cells) if len(q["cells"]) > 1]
    assert about_empty and [8, 8] in about_empty[0]["cells"]
    # without the colour reads, two doubtful squares alone ask about no empty one
    plain = replace(cells, coloured=None)
    assert not [q for q in cell_questions(DEFAULT_SETTINGS, plain) if len(q["cells"]) > 1]



def test_a_coloured_smudge_is_asked_about_a_fill_running_on_into_its_tile_is_read() -> None:
    # own render (pen, seed 1, camera effects): an empty square under a tinted smudge of ink,
    # as light as a light fill and as coloured, beside a tile of another colour, was read
    # filled with no question by its colour alone (session 19's colour read); a fill runs on
    # into its tile's squares in the same tool and colour, a smudge does not
    yellow, teal, red = (0.90, 0.99, 1.0), (1.0, 0.97, 0.90), (0.45, 0.45, 0.9)
    faint_yellow = (0.97, 0.997, 1.0)  # a quarter of the yellow fill's colour: not its tool
    cells = read_cells(DEFAULT_SETTINGS, _sheet_with_light_marks({
        (2, 2): yellow, (2, 3): yellow, (3, 3): yellow,  # a light fill across its tile
        (3, 2): faint_yellow,  # beside it, a smudge of its colour far fainter
        (5, 4): red, (5, 5): red, (6, 5): red,  # a red tile, and beside it a teal smudge
        (6, 4): teal,
    }))
    for cell in [(2, 2), (2, 3), (3, 3)]:
        assert cells.state[cell] == 1
        assert cells.confidence[cell] >= DEFAULT_SETTINGS.doubtful_below
    for cell in [(6, 4), (3, 2)]:
        assert cells.state[cell] == -1, cell  # asked about
        assert cells.confidence[cell] < DEFAULT_SETTINGS.doubtful_below
    # the faint one, read empty by its darkness, is not filled meanwhile for its colour
    assert (3, 2) not in filled_cells(cells, None)
