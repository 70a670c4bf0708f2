"""A faint gem the camera saw where the rules put one: at the end of the chain of paths from a
start, in the one colour that start can give.

Each gem in play rests at the far end of the chain of paths from where it started (see
:mod:`vision.indigo.path_rules`): a corner's arrow edge gives its amber, the centre gives
emeralds while fewer than six tiles lie round it (the sapphire leaves last, with the sixth).
Where that chain ends before an empty cell and every cell deciding so is read sure, a gem lies
on that very point; when the camera sees a gem of the start's colour there, however faintly,
the two agree, and the gem is as sure as those cells (as :func:`~vision.indigo.corner_rules.
settle_corners` does for an unmoved amber). The camera's share of gem colour has no margin
of its own there: a real faceted gem fills little of its disc under glare or a hand's shadow.

Nothing is made sure that the camera did not see, nor in another colour than the start's:
a sapphire (its start unknown among six), a gem of the wrong colour, an end facing a doubtful
cell, or a gem where no chain ends stay as the camera read them.

The end must hold a gem only where the position does. Two gems that meet on one chain are both
removed (rules digest §7; the seed text: "si dos gemas se encuentran en la misma ruta, ambas se
eliminan del juego"): their chain then joins two starts and has no end to rest on, so
:func:`~companion.indigo.gems.trace_path` gives ``COLLIDED`` and nothing is settled there (in
2800 positions of seeded games, 264 of them after collisions, the chains' resting ends were
exactly the moved gems' points). A move not finished breaks that: a tile laid and its gems not
yet moved (or two colliding gems not yet taken off) leaves the chain's gem short of its end,
so no gem is settled on a chain that the camera sees a gem on before its end, or whose
corner still shows its amber on the arrow.
"""

from __future__ import annotations

from dataclasses import replace

from companion.indigo import CENTRE, CORNER_BY_CELL, Gem
from companion.indigo.gems import Ending, trace_path
from companion.indigo.geometry import Cell, EdgePoint, across, neighbour
from companion.indigo.tiles import Tile
from vision.indigo.centre_rules import around_centre_sure
from vision.indigo.corner_rules import same_spot
from vision.indigo.path_rules import gem_starts
from vision.indigo.read_types import CellRead, GemSpot

__all__ = ["settle_chain_ends"]


def _centre_gives(cells: dict[Cell, CellRead], min_confidence: float) -> Gem | None:
    """The one colour every gem the centre gave has: emerald while fewer than six tiles lie
    round it, read surely; None when the sapphire may have left too (or the count is in
    doubt)."""
    if not around_centre_sure(cells, min_confidence):
        return None
    around = sum(1 for e in range(6) if cells[neighbour(CENTRE, e)].tile is not None)
    return Gem.EMERALD if around < 6 else None


def _sure_rest_chain(start: EdgePoint, tiles: dict[Cell, Tile], starts: list[EdgePoint],
                     cells: dict[Cell, CellRead], min_confidence: float
                     ) -> tuple[tuple[EdgePoint, ...], float] | None:
    """The points the chain from ``start`` passes, the last the one it rests on, and how sure
    the cells deciding so are (every tile of the chain and the empty cell the end faces), or
    None when it does not rest or one of those cells is doubtful."""
    traced = trace_path(start, tiles, starts)
    if traced is None or traced[1] is not Ending.REST or not traced[0]:
        return None
    chain = traced[0]
    deciding = {cell for cell, _ in chain} | {across(chain[-1])[0]}
    reads = [cells.get(cell) for cell in deciding if cell not in CORNER_BY_CELL]
    if any(r is None for r in reads):
        return None
    sure = min(r.confidence for r in reads if r is not None)
    return (chain, sure) if sure >= min_confidence else None


def _move_unfinished(start: EdgePoint, chain: tuple[EdgePoint, ...],
                     seen: list[EdgePoint]) -> bool:
    """Whether a gem is seen on the chain from ``start`` before its end (the start
    included): a tile laid and its gems not yet moved along it."""
    return any(same_spot(point, other) for point in (start, *chain[:-1]) for other in seen)


def settle_chain_ends(spots: list[GemSpot], cells: dict[Cell, CellRead],
                      min_confidence: float) -> list[GemSpot]:
    """The gem spots with each gem seen at a sure chain's end, in its start's colour, as sure
    as the cells that put it there (never less sure than the camera made it); not on a chain
    whose move the camera shows unfinished."""
    tiles = {cell: r.tile for cell, r in cells.items() if r.tile is not None}
    starts = gem_starts(cells)
    points = [point for point, _ in starts]
    centre_gem = _centre_gives(cells, min_confidence)
    seen = [spot.point for spot in spots if spot.point is not None]
    out = list(spots)
    for start, gem in starts:
        colour = gem if gem is not None else centre_gem
        rest = _sure_rest_chain(start, tiles, points, cells, min_confidence) if colour else None
        if rest is None or _move_unfinished(start, rest[0], seen):
            continue
        end = rest[0][-1], rest[1]
        for i, spot in enumerate(out):
            if (spot.point is not None and spot.gem is colour and spot.confidence < end[1]
                    and same_spot(spot.point, end[0])):
                out[i] = replace(spot, confidence=end[1])
    return out
