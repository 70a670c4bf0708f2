"""What the rules say about the corners' ambers, checked against what the camera saw.

Each corner treasure tile starts with an amber on its arrow edge, and the amber leaves only
when a route tile is laid on the cell the arrow faces; no other gem can come to rest there
(the corner's U-turn joins its two other sides). So while that cell is read empty, the
amber lies on the arrow point: a corner read without it, or with another colour there, is
against the rules and asked, with the amber the rules put there (a small gem on the board's
far edge, under a hand's shadow or blurred by motion, is easily lost).
"""

from __future__ import annotations

from dataclasses import replace

from companion.indigo import CORNERS, Gem
from companion.indigo.geometry import Cell, EdgePoint, neighbour, opposite
from vision.indigo.read_types import CellRead, GemRead, GemSpot

#: the confidence of a corner amber the camera missed or saw in another colour, where the
#: rules say it lies (below min_confidence: asked)
AMBER_BY_RULES = 0.45


def same_spot(a: EdgePoint, b: EdgePoint) -> bool:
    """Whether two edge points name the same physical spot (from either cell)."""
    return a == b or a == (neighbour(*b), opposite(b[1]))


def settle_corners(spots: list[GemSpot], cells: dict[Cell, CellRead], *,
                   min_confidence: float) -> list[GemSpot]:
    """The gem spots with each corner's amber held against the rules: where the arrow's cell
    is read empty, the amber point holds an amber (asked when the camera did not see one).

    Where that cell is read empty surely (at ``min_confidence`` or more) and the camera saw
    an amber on the point, however faintly, the two agree: the amber is as sure as the empty
    cell. Nothing but a tile on that cell moves the amber, so it can be wrong only with that
    cell's read (a real amber's faceted body is darker than a pack's flat amber and fills
    too little of its disc: on independent tuning boards 1000-1019 harsh, demo look, 59 of
    78 corner ambers were asked, every one of them right)."""
    out = list(spots)
    for corner in CORNERS:
        facing = cells.get(corner.arrow_neighbour)
        if facing is None or facing.tile is not None:
            continue
        seen = [i for i, s in enumerate(out)
                if s.point is not None and same_spot(s.point, corner.amber_point)]
        if not seen:
            out.append(GemSpot(Gem.AMBER, corner.amber_point, AMBER_BY_RULES))
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
