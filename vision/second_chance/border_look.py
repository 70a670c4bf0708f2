"""Sheet reader stages 6-7 applied to a sheet: every border between filled cells measured, scored,
profiled and looked at by the learned model; a light shading beside a tile taken in; the tiles
segmented; and the tiles drawn without an outline asked about. See
:mod:`vision.second_chance.reader` for the whole pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from companion.second_chance.drawn import TileChoices
from companion.second_chance.shapes import Cell
from config.schema import SheetReaderSettings
from vision.second_chance.border_decisions import MODEL_CERTAIN, MODEL_DOUBT
from vision.second_chance.border_light import (
    border_light_levels,
    outline_scores,
    outline_thresholds,
    printed_line_level,
)
from vision.second_chance.borders import (
    FEATURES,
    SheetBorderLevels,
    border_features,
    load_border_model,
    load_side_model,
    side_features,
)
from vision.second_chance.cell_reading import CellsRead
from vision.second_chance.cells import EVEN_FILL
from vision.second_chance.layout import GRID_CELLS
from vision.second_chance.outlines import Segmentation, segment
from vision.second_chance.profiles import border_profiles, profile_verdicts
from vision.second_chance.sides import SideCoverage, over_printed_line
from vision.second_chance.unoutlined import unoutlined_tiles

N = GRID_CELLS


#: a cell whose darkness varies this much inside (its std) is hatched, not shaded solid
#: (solid pencil shading measures 0.03-0.07, hatching and cross-hatching 0.1-0.18)
HATCHED_TEXTURE = 0.1


#: two cells are hatched alike along their border when their strokes' mean direction along it
#: (vision.second_chance.borders' strokes_along: 1 all along, -1 all across) is at least this,
#: and their directions differ (strokes_apart) by at most this (pencil hatching along the
#: border darkens the printed line like an outline: about 0.94 and 0.02)
HATCH_ALONG = 0.8


HATCH_ALIKE = 0.2


#: the percentiles of the light along a border: the light through it, and its low end (how
#: evenly dark the border is)
THROUGH_PERCENTILE = 70.0


LOW_PERCENTILE = 30.0


#: the light beside a border is never taken below this (a ratio's denominator)
MIN_BESIDE = 1e-3


@dataclass(frozen=True)
class BorderLook:
    """What the reader makes of the borders between filled cells (see
    :func:`look_at_borders`)."""

    thresholds: tuple[float, float]  # (cut, join) outline scores of this sheet
    calibrated: bool  # the sheet's outlines stand out from its insides (two groups)
    verdicts: dict[tuple[Cell, Cell], bool]  # the profile's say on undecided borders
    levels: SheetBorderLevels
    borders: list[tuple[Cell, Cell]]
    features: np.ndarray  # a row of vision.second_chance.borders.FEATURES per border
    probability: dict[tuple[Cell, Cell], float]  # the learned chance of an outline
    extra_probability: dict[tuple[Cell, Cell], float]  # ... on the extra borders asked for


def look_at_borders(tiles: set[Cell], measured: SheetBorderLevels,
                    settings: SheetReaderSettings,
                    extra: list[tuple[Cell, Cell]] | None = None) -> BorderLook:
    """Score, profile and the learned model on every border between two of ``tiles``, and
    on the ``extra`` borders (a cell beside a tile, taken as filled: measured against the
    same sheet, left out of its thresholds)."""
    right, below = measured.right, measured.below
    scores: dict[tuple[Cell, Cell], float] = {}
    for r, c in tiles:
        if (r, c + 1) in tiles:
            scores[((r, c), (r, c + 1))] = float(right[r, c])
        if (r + 1, c) in tiles:
            scores[((r, c), (r + 1, c))] = float(below[r, c])
    thresholds = outline_thresholds(np.asarray(list(scores.values())), settings)
    # the rules may settle an undecided border only on a sheet whose outlines stand out from
    # the rest (two clear groups): where none are drawn, a legal split is still a guess
    calibrated = thresholds != (settings.cut, settings.join)
    verdicts = {}
    cut_at, join_at = thresholds
    profile_r, profile_b = measured.profile_right, measured.profile_below
    if calibrated and any(join_at < s <= cut_at for s in scores.values()):
        # a second look at the undecided borders: their profile against the sheet's own
        # sure insides and sure outlines (soft pencil outlines over dark shading)
        profiles = {(a, b): profile_r[a] if a[0] == b[0] else profile_b[a] for a, b in scores}
        verdicts = profile_verdicts(profiles, scores, thresholds)
        # between two hatched cells a stroke of the hatching along the printed line has the
        # profile of an outline (cross-hatching): the profile cuts nothing there
        texture = measured.texture
        verdicts = {border: cut for border, cut in verdicts.items()
                    if not (cut and min(texture[border[0]], texture[border[1]])
                            >= HATCHED_TEXTURE)}
    # the learned look at every border (see vision.second_chance.borders)
    borders = sorted(scores)
    levels = replace(measured, thresholds=thresholds, calibrated=calibrated)
    extra = list(extra or [])
    features = border_features(borders + extra, levels)
    model = load_border_model()
    chances = (model.probabilities(features).tolist() if model is not None
               else [0.5] * len(features))
    return BorderLook(thresholds, calibrated, verdicts, levels, borders,
                      features[:len(borders)],
                      dict(zip(borders, chances[:len(borders)], strict=True))
                      if model is not None else {},
                      dict(zip(extra, chances[len(borders):], strict=True)))


def _borders_beside(cells: list[Cell], tiles: set[Cell]) -> list[tuple[Cell, Cell]]:
    """The borders between each of ``cells`` and the tile cells beside it."""
    return [(min(cell, other), max(cell, other)) for cell in cells
            for other in ((cell[0], cell[1] + 1), (cell[0] + 1, cell[1]),
                          (cell[0], cell[1] - 1), (cell[0] - 1, cell[1]))
            if other in tiles]


def _inside_a_tile(cells: list[Cell], look: BorderLook, tiles: set[Cell]) -> set[Cell]:
    """The ``cells`` (doubtful, read empty) beside a tile with surely no outline between, where
    the tile's own outline would run if the cell were outside it: shading of that tile (a
    light coloured pencil)."""
    model = load_border_model()
    if model is None:
        return set()
    return {cell for cell in cells
            if any(look.extra_probability[border] <= model.join_below
                   for border in _borders_beside([cell], tiles))}


def measure_borders(settings: SheetReaderSettings, cells: CellsRead) -> SheetBorderLevels:
    """Stage 6: the light through and beside every border, the printed line's level, and each
    border's outline score and profile."""
    (levels_r, beside_r), (levels_b, beside_b) = border_light_levels(
        cells.darkness, percentiles=(THROUGH_PERCENTILE, LOW_PERCENTILE))
    (through_r, low_r), (through_b, low_b) = levels_r, levels_b
    ratio_r = through_r / np.maximum(beside_r, MIN_BESIDE)
    ratio_b = through_b / np.maximum(beside_b, MIN_BESIDE)
    printed = printed_line_level(ratio_r, ratio_b, cells.state == 1, settings)
    right = outline_scores(through_r, beside_r, printed, settings)
    below = outline_scores(through_b, beside_b, printed, settings)
    f = cells.features
    return SheetBorderLevels(
        right, below, through_r, through_b, low_r, low_b, beside_r, beside_b,
        *border_profiles(cells.darkness), printed, (settings.cut, settings.join), False,
        f.colour, f.darkness, f.texture, f.strokes)


def take_in_shading(settings: SheetReaderSettings, measured: SheetBorderLevels,
                    doubtful: list[Cell], filled: set[Cell], tiles: set[Cell]) -> BorderLook:
    """The look at the borders between ``tiles``; a doubtful cell read empty that no outline
    parts from a tile beside it is shading of that tile (a light coloured pencil): it joins
    ``filled`` and ``tiles`` (in place) meanwhile, and is still asked about."""
    leaning_empty = [cell for cell in doubtful if cell not in filled]
    look = look_at_borders(tiles, measured, settings, _borders_beside(leaning_empty, tiles))
    inside = _inside_a_tile(leaning_empty, look, tiles)
    if inside:
        filled |= inside
        tiles |= inside
        look = look_at_borders(tiles, measured, settings)
    return look


def segment_tiles(settings: SheetReaderSettings, tiles: set[Cell], look: BorderLook,
                  colour: np.ndarray, sides: SideCoverage | None = None,
                  choices: TileChoices | None = None) -> Segmentation:
    """Stage 7: the tiles, from the look at their borders (see
    :func:`~vision.second_chance.outlines.segment`), how much of each a drawn stroke follows
    (``sides``) and the cards the player drew (``choices``)."""
    model = load_border_model()
    along = look.features[:, FEATURES.index("strokes_along")]
    apart = look.features[:, FEATURES.index("strokes_apart")]
    hatched_along = {border for border, a, b in zip(look.borders, along, apart, strict=True)
                     if a >= HATCH_ALONG and b <= HATCH_ALIKE}
    levels = look.levels
    return segment(tiles, levels.right, levels.below, colour, settings,
                   thresholds=look.thresholds,
                   settle_by_rules=look.calibrated, profile_verdicts=look.verdicts,
                   border_probability=look.probability,
                   sure_probability=((model.cut_above, model.join_below) if model is not None
                                     else (1.0, 0.0)),
                   hatched_along=hatched_along,
                   coverage=({border: sides.of(*border) for border in look.borders}
                             if sides is not None else None),
                   grid_hatched=hatched_with_the_grid(look.borders, look.levels.strokes),
                   stroked=stroked_alike(look.borders, look.levels.texture),
                   choices=choices,
                   paper_between=paper_between_fills(look.borders, look.levels),
                   over_fill=({border: sides.over_fill(*border) for border in look.borders}
                              if sides is not None else None),
                   over_printed=(_over_printed(look, sides) if choices is not None
                                 and sides is not None else None),
                   cut_coverage=({border: sides.of_cut(*border) for border in look.borders}
                                 if sides is not None else None))


def _over_printed(look: BorderLook, sides: SideCoverage) -> dict[tuple[Cell, Cell], float]:
    """The ink over the printed line under the same fill (see
    :func:`~vision.second_chance.sides.over_printed_line`) of the borders that may be cut
    short of certain (see :func:`_short_of_certain`): only those can be doubted by it."""
    return over_printed_line(sides, _short_of_certain(look), surely_inside(look),
                             look.levels.darkness)


def _short_of_certain(look: BorderLook) -> list[tuple[Cell, Cell]]:
    """The borders the learned model leans to an outline on (past even odds,
    :data:`~vision.second_chance.border_decisions.MODEL_DOUBT`) without being all but
    certain (:data:`~vision.second_chance.border_decisions.MODEL_CERTAIN`): no other border
    is cut but by a change of colour (the drawing's cuts the model doubts are asked, see
    :func:`~vision.second_chance.border_decisions.decide_border`; the sides cut from even
    odds)."""
    return [border for border in look.borders
            if MODEL_DOUBT <= look.probability.get(border, 0.0) < MODEL_CERTAIN]


def has_cuts_short_of_certain(look: BorderLook) -> bool:
    """Whether a border may be cut short of certain (see :func:`_short_of_certain`): only
    then does a read with the cards measure the ink over the fill (3 ms a read here)."""
    return bool(_short_of_certain(look))


def surely_inside(look: BorderLook) -> frozenset[tuple[Cell, Cell]]:
    """The borders between two filled cells the learned model is sure no outline parts: the
    printed line there shows how it looks under the sheet's fills (see
    :func:`~vision.second_chance.sides.side_coverage`)."""
    model = load_border_model()
    if model is None:
        return frozenset()
    return frozenset(border for border, chance in look.probability.items()
                     if chance <= model.join_below)


#: a border between two even fills (both smoother inside than
#: :data:`~vision.second_chance.cells.EVEN_FILL`: solid shading, a marker's flat fill;
#: hatching leaves paper between its strokes) that lets through at least this many times the
#: light of the fills beside it shows paper between them: the fills stop at the line. Tuning
#: seeds 0-15 (scan, mild, harsh): of 3768 such borders inside a tile none reach 1.1 (the
#: printed line under the fill is as dark as the fill or darker), of 1789 between two tiles 10
#: do (dense ballpoint shading drawn a hair inside each tile's outline)
PAPER_GAP = 1.1


def paper_between_fills(borders: list[tuple[Cell, Cell]], levels: SheetBorderLevels
                        ) -> set[tuple[Cell, Cell]]:
    """The borders between two even fills that are lighter than the fills beside them by
    :data:`PAPER_GAP`: the two fills stop at the line, as two tiles shaded apart do (one
    tile's fill runs over its inner lines)."""
    found = set()
    for a, b in borders:
        if max(levels.texture[a], levels.texture[b]) >= EVEN_FILL:
            continue
        through, beside = ((levels.through_right, levels.beside_right) if a[0] == b[0]
                           else (levels.through_below, levels.beside_below))
        if through[a] >= PAPER_GAP * max(float(beside[a]), MIN_BESIDE):
            found.add((a, b))
    return found


#: two cells are hatched along the grid's directions when the mean of their strokes' cos 4a
#: (see vision.second_chance.cells.stroke_directions: 1 for strokes along the grid lines, -1
#: for diagonal ones) is at least this
GRID_HATCH = 0.4


def hatched_with_the_grid(borders: list[tuple[Cell, Cell]], strokes: np.ndarray | None
                          ) -> set[tuple[Cell, Cell]]:
    """The borders between two cells whose strokes run along the grid's lines (hatching or
    cross-hatching at 0 and 90 degrees): some of those strokes lie on the printed line."""
    if strokes is None:
        return set()
    return {(a, b) for a, b in borders
            if (strokes[a][2] + strokes[b][2]) / 2 >= GRID_HATCH}


def stroked_cells(texture: np.ndarray) -> np.ndarray:
    """(9, 9) bool: the cells filled with strokes and paper between them (hatching, scribbled
    loops: a texture of at least :data:`HATCHED_TEXTURE`)."""
    found: np.ndarray = texture >= HATCHED_TEXTURE
    return found


def stroked_alike(borders: list[tuple[Cell, Cell]], texture: np.ndarray
                  ) -> set[tuple[Cell, Cell]]:
    """The borders between two cells filled with strokes and paper between them (see
    :func:`stroked_cells`): whatever their direction, some of a tile's strokes cross the
    printed line or follow it a while (the bottoms of a row of loops lie along it), and darken
    it like an outline."""
    stroked = stroked_cells(texture)
    return {(a, b) for a, b in borders if stroked[a] and stroked[b]}


@dataclass(frozen=True)
class SidesLook:
    """The learned look at the sides of tiles on empty cells (see :func:`ask_unoutlined`)."""

    sides: list[tuple[Cell, Cell]]  # (tile cell, empty cell)
    features: np.ndarray  # a row of vision.second_chance.borders.SIDE_FEATURES per side
    drawn: dict[tuple[Cell, Cell], float]  # the learned chance the outline is drawn there


def ask_unoutlined(seg: Segmentation, levels: SheetBorderLevels, filled: set[Cell],
                   tiles: set[Cell], followed: dict[tuple[Cell, Cell], float] | None = None
                   ) -> tuple[Segmentation, SidesLook]:
    """Where the player drew no outline, the joins are no evidence: those tiles are asked
    about (see :func:`unoutlined_tiles`; ``followed``: the share of each inner border a drawn
    stroke follows)."""
    empty = {(r, c) for r in range(N) for c in range(N) if (r, c) not in filled}
    sides = [(cell, (cell[0] + dr, cell[1] + dc)) for cell in sorted(tiles)
             for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
             if (cell[0] + dr, cell[1] + dc) in empty]
    empty_borders = [(a, (a[0] + dr, a[1] + dc)) for a in sorted(empty)
                     for dr, dc in ((0, 1), (1, 0)) if (a[0] + dr, a[1] + dc) in empty]
    side_rows = side_features(sides, empty_borders, levels)
    side_model = load_side_model()
    side_drawn = (dict(zip(sides, side_model.probabilities(side_rows).tolist(), strict=True))
                  if side_model is not None else {})
    seg = unoutlined_tiles(seg, levels.through_right, levels.through_below, levels.printed,
                           empty, side_drawn=side_drawn,
                           surely_drawn=side_model.cut_above if side_model is not None
                           else 1.0,
                           surely_bare=side_model.join_below if side_model is not None
                           else 0.0, followed=followed)
    return seg, SidesLook(sides, side_rows, side_drawn)
