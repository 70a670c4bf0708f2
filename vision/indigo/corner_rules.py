"""What the rules say about the corners' ambers, checked against what the camera saw.

Each corner treasure tile starts with an amber on its arrow edge, and the amber leaves only
when a route tile is laid on the cell the arrow faces; no other gem can come to rest there
(the corner's U-turn joins its two other sides). So while that cell is read empty, the
amber lies on the arrow point: a corner read without it, or with another colour there, is
against the rules and asked, with the amber the rules put there (a small gem on the board's
far edge, under a hand's shadow or blurred by motion, is easily lost).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from companion.indigo import CORNERS, Gem
from companion.indigo.geometry import Cell, EdgePoint, neighbour, opposite
from vision.indigo.board import cell_xy, point_xy
from vision.indigo.discs import MIN_SAMPLE_PX, disc_pixels
from vision.indigo.model import GREY_CHROMA, PackModel, to_canonical
from vision.indigo.read_types import CellRead, GemRead, GemSpot

#: the confidence of a corner amber the camera missed or saw in another colour, where the
#: rules say it lies (below min_confidence: asked)
AMBER_BY_RULES = 0.45


#: the disc sampled on an amber point, in gem radii (a gem's body, inside its rim)
AMBER_DISC = 0.7
#: the disc a cell's empty print is sampled in round its centre, in cell radii
PRINT_DISC = 0.5


#: how far off its edge point the camera may see a corner's amber, in cell radii: the stone
#: stands above the board, so a tilted camera sees its body displaced from the point it rests
#: on, and a hand lays it a little off the point too
AMBER_REACH = 0.3
#: the rings the amber is looked for on within that reach: (radius in cell radii, spots
#: round it), outward from the point
AMBER_RINGS = ((AMBER_REACH / 3, 8), (2 * AMBER_REACH / 3, 16), (AMBER_REACH, 16))


def amber_lean(lab: np.ndarray, model: PackModel, gem_size: float, point: EdgePoint,
               cell: Cell) -> tuple[float, float]:
    """How far the colour on edge ``point``, or round it within :data:`AMBER_REACH`, lies
    toward the pack's amber, in chromaticity (a shade and a lamp's level leave it): the share
    of the way from the empty print of ``cell`` (read empty, beside it) toward the amber (0
    the print, 1 the amber), or from grey where that is less, and how far off the print's way
    it lies, in the same shares. Of the spots looked at, the one furthest toward the amber
    among those on the print's way (off it by at most :data:`AMBER_TINT_ACROSS`), else the
    point's own; the point's own alone where it is tinted already.

    From grey too: on a dark board (the real board's navy) the light-blue corner tile, its
    white arrow and a lamp's white all lie on the way from the print toward the amber, and
    none of them lies past grey toward it."""
    cell_px = model.cell_px
    paper = np.median(disc_pixels(lab, to_canonical(cell_xy(cell), cell_px),
                                  PRINT_DISC * cell_px), axis=0)[:2]
    amber = model.gem_lab[Gem.AMBER.value][:2]
    grey = np.full(2, GREY_CHROMA, np.float32)
    radius = max(MIN_SAMPLE_PX, AMBER_DISC * gem_size * cell_px)
    spot = np.median(disc_pixels(lab, to_canonical(point_xy(point), cell_px), radius),
                     axis=0)[:2]
    along, across = share_toward(spot, paper, amber)
    lean = (min(along, share_toward(spot, grey, amber)[0]), across)
    if is_amber_tinted(lean):
        return lean
    # the search only where the point itself falls short: most ambers lie on their points
    spots = _disc_medians(lab, _amber_search_spots(point, cell_px), radius)
    alongs, acrosses = shares_toward(spots, paper, amber)
    alongs = np.minimum(alongs, shares_toward(spots, grey, amber)[0])
    on_way = acrosses <= AMBER_TINT_ACROSS
    if not on_way.any():
        return lean
    best = int(np.argmax(np.where(on_way, alongs, -np.inf)))
    if lean[1] <= AMBER_TINT_ACROSS and lean[0] >= alongs[best]:
        return lean
    return float(alongs[best]), float(acrosses[best])


def _amber_search_spots(point: EdgePoint, cell_px: int) -> np.ndarray:
    """The whole canonical pixels (x, y) :func:`amber_lean` samples round ``point``, ring by
    ring (n, 2)."""
    px, py = point_xy(point)
    spots = []
    for radius, count in AMBER_RINGS:
        for k in range(count):
            angle = 2 * math.pi * k / count
            spots.append(to_canonical((px + radius * math.cos(angle),
                                       py + radius * math.sin(angle)), cell_px))
    whole: np.ndarray = np.rint(np.array(spots)).astype(int)
    return whole


def _disc_medians(lab: np.ndarray, centres: np.ndarray, radius: float) -> np.ndarray:
    """The median chromaticity (n, 2) of ``lab`` in a disc of ``radius`` round each whole
    pixel of ``centres`` (n, 2: x, y), all in one call (the discs of :func:`disc_pixels`
    round a whole pixel, clipped to the board)."""
    r = int(math.ceil(radius))
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
    inside = xx**2 + yy**2 <= radius**2
    ys = np.clip(centres[:, 1:2] + yy[inside], 0, lab.shape[0] - 1)
    xs = np.clip(centres[:, 0:1] + xx[inside], 0, lab.shape[1] - 1)
    medians: np.ndarray = np.median(lab[ys, xs, :2], axis=1)
    return medians


def shares_toward(colours: np.ndarray, start: np.ndarray,
                  target: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`share_toward` for many colours (n, 2) at once."""
    way = target - start
    steps = colours - start
    length2 = max(float(np.dot(way, way)), 1e-6)
    return (steps @ way) / length2, np.abs(way[0] * steps[:, 1] - way[1] * steps[:, 0]) / length2


def share_toward(colour: np.ndarray, start: np.ndarray,
                 target: np.ndarray) -> tuple[float, float]:
    """Where ``colour`` lies on the way from ``start`` to ``target`` (2-vectors): the share
    of the way along it, and the distance off it in the same shares."""
    way = target - start
    step = colour - start
    length2 = max(float(np.dot(way, way)), 1e-6)
    return (float(np.dot(step, way)) / length2,
            abs(float(way[0] * step[1] - way[1] * step[0])) / length2)


#: the share of the way toward the pack's amber (:func:`amber_lean`) the colour on a
#: corner's amber point lies at the least, and the most it lies off the print's way, for the
#: amber the rules put there to count as seen where the gem colours found none
AMBER_TINT_ALONG = 0.3
AMBER_TINT_ACROSS = 0.1


def is_amber_tinted(lean: tuple[float, float] | None) -> bool:
    """Whether a corner's amber point, measured by :func:`amber_lean`, is tinted toward the
    amber past anything the print beside it shows there."""
    return lean is not None and lean[0] >= AMBER_TINT_ALONG and lean[1] <= AMBER_TINT_ACROSS


def same_spot(a: EdgePoint, b: EdgePoint) -> bool:
    """Whether two edge points name the same physical spot (from either cell)."""
    return a == b or a == (neighbour(*b), opposite(b[1]))


def amber_leans(lab: np.ndarray, model: PackModel, gem_size: float,
                cells: dict[Cell, CellRead]) -> dict[Cell, tuple[float, float]]:
    """Per corner whose arrow cell is read empty: :func:`amber_lean` on its amber point
    against that cell's print (``lab``: the colour features of the board at the tiles'
    scale)."""
    return {corner.cell: amber_lean(lab, model, gem_size, corner.amber_point,
                                    corner.arrow_neighbour)
            for corner in CORNERS
            if (facing := cells.get(corner.arrow_neighbour)) is not None and facing.tile is None}


def settle_corners(spots: list[GemSpot], cells: dict[Cell, CellRead], *,
                   min_confidence: float,
                   leans: dict[Cell, tuple[float, float]] | None = None) -> list[GemSpot]:
    """The gem spots with each corner's amber held against the rules: where the arrow's cell
    is read empty, the amber point holds an amber (asked when the camera did not see one).

    Where that cell is read empty surely (at ``min_confidence`` or more) and the camera saw
    an amber on the point, however faintly, the two agree: the amber is as sure as the empty
    cell. Nothing but a tile on that cell moves the amber, so it can be wrong only with that
    cell's read (a real amber's faceted body is darker than a pack's flat amber and fills
    too little of its disc: on independent tuning boards 1000-1019 harsh, demo look, 59 of
    78 corner ambers were asked, every one of them right). Where the camera found no gem
    colour on the point but the point is tinted toward the amber (:func:`is_amber_tinted`,
    of the ``leans`` :func:`amber_leans` measured), it saw the stone the rules put there,
    too pale or too dark for the pack's amber, or seen off its point through the camera's
    tilt: as sure as the empty cell too (tuning boards 1000-1045 harsh, both demo looks: 45
    such ambers asked, 7 of them tinted at the point; the same boards drawn with every
    corner amber left off: at most 0.19 of the way at the point)."""
    out = list(spots)
    for corner in CORNERS:
        facing = cells.get(corner.arrow_neighbour)
        if facing is None or facing.tile is not None:
            continue
        seen = [i for i, s in enumerate(out)
                if s.point is not None and same_spot(s.point, corner.amber_point)]
        if not seen:
            out.append(GemSpot(Gem.AMBER, corner.amber_point,
                               facing.confidence if facing.confidence >= min_confidence
                               and is_amber_tinted((leans or {}).get(corner.cell))
                               else AMBER_BY_RULES))
        elif out[seen[0]].gem is not Gem.AMBER:
            out[seen[0]] = GemSpot(Gem.AMBER, out[seen[0]].point, AMBER_BY_RULES)
        elif facing.confidence >= min_confidence and facing.confidence > out[seen[0]].confidence:
            # as sure as the empty cell, even when the camera's own reading was barely sure:
            # a faint amber sure at min_confidence alone would fall below it under a picture's
            # confidence factor, and be asked where the rules settle it
            out[seen[0]] = replace(out[seen[0]], confidence=facing.confidence)
    return out


def corner_questions(gems: list[GemRead], cells: dict[Cell, CellRead],
                     min_confidence: float) -> list[str]:
    """A question for each corner whose arrow cell holds a tile read below ``min_confidence``
    and where no gem is seen on the amber point: that tile may be no tile (an empty cell under
    glare read as a pattern at 0.06-0.14), and the unmoved amber, lost in the same glare, still
    there (independent tuning seeds 1013 and 1017 harsh: asked by nobody). Asked by the
    corner's name, with no amber read: most such tiles are tiles, and their amber is gone."""
    seen = [gem.point for gem in gems if gem.point is not None]
    out = []
    for corner in CORNERS:
        facing = cells.get(corner.arrow_neighbour)
        if facing is None or facing.tile is None or facing.confidence >= min_confidence:
            continue
        if any(same_spot(point, corner.amber_point) for point in seen):
            continue
        q, r = corner.cell
        out.append(f"corner ({q},{r}): the tile beside its arrow is in doubt; is its amber "
                   "still there?")
    return out
