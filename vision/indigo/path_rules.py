"""Where the rules put the gems in play, checked against the gems the camera saw.

Every gem on the board's edges left the centre (one for each tile laid next to it) or a
corner (its amber, when a tile is laid on the cell its arrow faces), and ran along the paths
until it left by a gateway, met another gem running towards it (both are removed), or came to
rest before an empty cell; a tile laid on that cell later sends it on along the same chain of
paths. So each gem in play rests at the far end of the chain of paths from where it started,
and a chain that ends before an empty cell holds its gem unless the two gems at its ends met.

:func:`path_questions` asks about each such end where the camera saw no gem: a gem there is
missed, never silently (a small dark amber in a hand's shadow, an emerald under a lamp's
glare; independent tuning seeds 1000-1019 harsh: such gems were missed at 0.00-0.17 of a gem's
colour on their spot). The read tiles decide the chains, so a tile read wrong can ask about a
place where nothing lies; that is a question, never a wrong read.

The other way round, :func:`without_ruled_out` drops a doubtful gem lying where no chain from a
start ends, when every cell that decides so is read sure: the print beside a path's end (the
navy of a tile's path, the deep-blue printed cells) taken for a sapphire, asked about on every
frame (independent tuning seeds 1000-1039 harsh: 31 of 36 phantom gems were doubtful sapphires
on such places, the tiles round them read at 1.00).
"""

from __future__ import annotations

from companion.indigo.gems import Ending, path_end, trace_path
from companion.indigo.geometry import (
    CENTRE,
    CORNER_BY_CELL,
    CORNERS,
    Cell,
    EdgePoint,
    across,
    neighbour,
)
from companion.indigo.pieces import Gem
from companion.indigo.tiles import Tile
from vision.indigo.corner_rules import same_spot
from vision.indigo.read_types import CellRead, GemRead, GemSpot
from vision.indigo.view import gem_place


def gem_starts(cells: dict[Cell, CellRead]) -> list[tuple[EdgePoint, Gem | None]]:
    """The points gems in play set off from, with the gem when the rules name it: the
    centre's edges that face a tile (an emerald, or the sapphire last) and the arrow edges of
    the corners whose arrow cell holds a tile (an amber)."""
    filled = {cell for cell, read in cells.items() if read.tile is not None}
    starts: list[tuple[EdgePoint, Gem | None]] = [
        ((CENTRE, edge), None) for edge in range(6) if neighbour(CENTRE, edge) in filled]
    starts.extend(((corner.cell, corner.arrow_edge), Gem.AMBER) for corner in CORNERS
                  if corner.arrow_neighbour in filled)
    return starts


def path_questions(gems: list[GemRead], cells: dict[Cell, CellRead]) -> list[str]:
    """A question for each point where the chain of paths from a gem's start ends before an
    empty cell and no gem was seen."""
    tiles = {cell: read.tile for cell, read in cells.items() if read.tile is not None}
    starts = gem_starts(cells)
    seen = [gem.point for gem in gems if gem.point is not None]
    questions = []
    for start, gem in starts:
        end = path_end(start, tiles, [point for point, _ in starts])
        if end is None or end[1] is not Ending.REST:
            continue
        point = end[0]
        if any(same_spot(point, other) for other in seen):
            continue
        what = "an amber" if gem is Gem.AMBER else "an emerald or the sapphire"
        # the question names only the place the gem rests on: naming the empty cell beside
        # it or the gem's origin would put other places in doubt too
        questions.append(f"{gem_place(point)}: a gem's paths end here and no gem is seen: "
                         f"is there {what}?")
    return questions


def without_ruled_out(spots: list[GemSpot], cells: dict[Cell, CellRead],
                      min_confidence: float) -> list[GemSpot]:
    """The gem spots without the doubtful ones (below ``min_confidence``) that the sure tiles
    rule out: the chain of paths through the spot, followed back from it, reaches no start."""
    tiles = {cell: read.tile for cell, read in cells.items() if read.tile is not None}
    sure = {cell for cell, read in cells.items() if read.confidence >= min_confidence}
    starts = [point for point, _ in gem_starts(cells)]
    return [spot for spot in spots if spot.point is None or spot.confidence >= min_confidence
            or not _ruled_out(spot.point, tiles, sure, starts)]


def _ruled_out(point: EdgePoint, tiles: dict[Cell, Tile], sure: set[Cell],
               starts: list[EdgePoint]) -> bool:
    """Whether no gem can rest on ``point`` by the sure tiles: one side holds a tile and the
    other is empty, and the paths back from it through that tile reach no start (they leave
    by a gateway or end before another empty cell), every cell that decides so read sure."""
    if point[0] in tiles and across(point)[0] in tiles:
        return _no_chain_through(point, tiles, sure, starts)
    for side in (point, across(point)):
        holder, beyond = side[0], across(side)[0]
        if holder not in tiles or beyond in tiles or beyond in CORNER_BY_CELL:
            continue
        traced = trace_path(across(side), tiles, starts)
        if traced is None or traced[1] is Ending.COLLIDED:
            return False  # a start's paths end here (or paths no board has)
        points, ending = traced
        deciding = {cell for cell, _ in points} | {beyond}
        if ending is Ending.REST:
            deciding.add(across(points[-1])[0])
        return {cell for cell in deciding if cell not in CORNER_BY_CELL} <= sure
    return False


def _no_chain_through(point: EdgePoint, tiles: dict[Cell, Tile], sure: set[Cell],
                      starts: list[EdgePoint]) -> bool:
    """Whether no gem can lie on ``point`` between two tiles, even in the middle of a move:
    a gem stops between two tiles only on its way along a chain of paths from a start, so
    the chain through the point, followed back into each tile, must reach a start; it is
    ruled out when both ways leave by a gateway or end before an empty cell, every cell that
    decides so read sure.

    Faint sapphires between two sure tiles are the real board's deep-blue print seen
    through a path's gap (the project's own table renders, mild, demo pack taught, tuning
    seeds 0-23: asked in 13 of 24 frames, at 0.01-0.13 of a gem's confidence)."""
    deciding = {point[0], across(point)[0]}
    for side in (point, across(point)):
        traced = trace_path(across(side), tiles, starts)
        if traced is None or traced[1] is Ending.COLLIDED:
            return False  # a start's chain comes through here: a move may be unfinished
        points, ending = traced
        deciding |= {cell for cell, _ in points}
        if ending is Ending.REST:
            deciding.add(across(points[-1])[0])
    return {cell for cell in deciding if cell not in CORNER_BY_CELL} <= sure

