"""What the rules say about the centre stock, checked against what the camera counted.

The centre tile starts with the stock (emerald x5, sapphire) and gives one gem, in that
order, to each tile laid next to it; gems leave the board only through the gateways. So:

- it holds 6 minus the tiles next to it (:func:`centre_least`: each tile laid there takes
  exactly one while any are left; "least" because a gem not yet moved stays on the tile);
- it holds at most 6 minus the emeralds and sapphires resting on the board's edges;
- what it holds is always the last gems of the stock: the sapphire whenever any gem is left;
- more than 6 minus the tiles next to it only while a gem that should have left is not yet
  moved: such a count is asked, never sure.

:func:`settle_centre` holds the camera's counts against these: the count the rules leave is
sure when the camera's counts of the heap (its peaks, the gem discs laid over it) allow it
and spread over at most one gem; any other count is doubted and asked with the number the
camera believes (the nearest count the rules allow).
"""

from __future__ import annotations

from dataclasses import replace

from companion.indigo import CENTRE, CENTRE_STOCK, Gem
from companion.indigo.gems import Ending, path_end
from companion.indigo.geometry import Cell, neighbour
from vision.indigo.corner_rules import same_spot
from vision.indigo.path_rules import gem_starts
from vision.indigo.read_types import CellRead, GemSpot

#: the confidence of a centre count the rules contradict (below min_confidence: asked)
AGAINST_RULES = 0.45


def centre_least(cells: dict[Cell, CellRead]) -> int:
    """The fewest gems the centre tile can hold: each tile laid next to it took one away
    (0 when the cells round it were not read)."""
    around = [cells.get(neighbour(CENTRE, e)) for e in range(6)]
    if any(r is None for r in around):
        return 0
    return max(0, len(CENTRE_STOCK) - sum(1 for r in around if r is not None and r.tile))


def centre_most(spots: list[GemSpot], min_confidence: float) -> int:
    """The most gems the centre can hold: the stock less the emeralds and sapphires read
    surely on the board's edges."""
    away = sum(1 for s in spots if s.point is not None and s.gem is not Gem.AMBER
               and s.confidence >= min_confidence)
    return max(0, len(CENTRE_STOCK) - away)


#: the camera's counts of the centre's emeralds may spread over this many gems and still
#: confirm the count the rules leave (a heap of touching glass, blurred: its peaks, the discs
#: laid over it and its area disagree by one where the gems lean on each other)
CAMERA_SPREAD = 1


def camera_range(centre: list[GemSpot]) -> tuple[int, int] | None:
    """The fewest and most gems the camera's counts allow on the centre, or None when they
    cannot be one stock (an amber seen there).

    The stock always holds its last gems, the sapphire last of all: emeralds seen mean the
    sapphire lies there too (under them, or as dark as the tile's print), so the emeralds
    count the stock; with none seen, the sapphire seen or not decides between one and none.
    """
    if any(s.gem is Gem.AMBER for s in centre):
        return None
    emeralds = [s for s in centre if s.gem is Gem.EMERALD]
    # one sapphire in any stock: a second blob of its colour is the tile's dark print
    sapphires = min(1, sum(1 for s in centre if s.gem is Gem.SAPPHIRE))
    if not emeralds:
        return sapphires, sapphires
    lo, hi = emeralds[0].plausible or (len(emeralds), len(emeralds))
    return (lo + 1 if lo else sapphires), hi + 1


def around_centre_sure(cells: dict[Cell, CellRead], min_confidence: float) -> bool:
    """Whether the six cells round the centre are all read at ``min_confidence`` or more: only
    then is the count the rules leave (:func:`centre_least`) known; one doubtful cell there
    may be a tile read where none lies, or the other way, and the count is one off."""
    around = [cells.get(neighbour(CENTRE, e)) for e in range(6)]
    return all(r is not None and r.confidence >= min_confidence for r in around)


def rules_settle_centre(
    spots: list[GemSpot], cells: dict[Cell, CellRead], min_confidence: float
) -> float | None:
    """How sure the rules alone make the centre's count (six less the tiles next to it), or
    None when they do not settle it.

    The count is wrong only when a cell round the centre is read wrong, or when a move is not
    finished (a tile laid next to the centre, its gem not yet moved off). So it is settled
    when the six cells round the centre are read at ``min_confidence`` or more and each gem
    those tiles took is seen where its chain of paths comes to rest (an emerald or the
    sapphire on that very point); a gem that left by a gateway or met another cannot be seen
    gone, so such a start leaves the count unsettled. The count is then as sure as the least
    sure of those cells and gems.

    The camera cannot settle it: faceted glass heaped on the dark centre tile hides most of
    itself (independent tuning boards 1000-1019 harsh, demo look: the camera saw 0 to 4 of
    the 4 to 6 gems lying there in 14 of 18 frames, never more, and each count was asked).
    """
    if not around_centre_sure(cells, min_confidence):
        return None
    sure = min(cells[neighbour(CENTRE, e)].confidence for e in range(6))
    tiles = {cell: r.tile for cell, r in cells.items() if r.tile is not None}
    starts = gem_starts(cells)
    for start, _ in starts:
        if start[0] != CENTRE:
            continue
        end = path_end(start, tiles, [point for point, _ in starts])
        if end is None or end[1] is not Ending.REST:
            return None
        there = [s.confidence for s in spots if s.point is not None and s.gem is not Gem.AMBER
                 and same_spot(s.point, end[0])]
        if not there:
            return None
        sure = min(sure, max(there))
    return sure


def settle_centre(
    spots: list[GemSpot], cells: dict[Cell, CellRead], min_confidence: float
) -> list[GemSpot]:
    """The gem spots with the centre's confidences held against the rules.

    The count the rules leave (six less the tiles next to the centre) is sure when the six
    cells round the centre are sure and the camera's counts allow it, spread over at most
    :data:`CAMERA_SPREAD` gems, or see part of the heap and no more than the rules leave:
    when the rules leave one count only (the fewest equals the most, :func:`centre_most`) or
    every gem the tiles took is seen where its paths end (:func:`rules_settle_centre`).
    Otherwise (none of the heap seen included) the count is asked, with the number the
    camera believes (the nearest the rules allow).

    The camera's count alone never makes the centre sure: a heap's gems show 0 to 1.16 of a
    gem disc each in their colour on harsh tuning boards, so its area and peaks have no margin
    between 3, 4 and 5 emeralds. With a doubtful cell next to the centre, the camera allowed
    a wrong count of the rules in 4 of 28 such tuning frames (scans 1007 harsh: 3 seen, 3
    left by the rules with an empty cell read as a tile, 4 lying there).
    """
    edges = [s for s in spots if s.point is not None]
    centre = [s for s in spots if s.point is None]
    gems = sorted((s.gem for s in centre), key=lambda g: g is Gem.SAPPHIRE)
    in_order = gems == list(CENTRE_STOCK[len(CENTRE_STOCK) - len(gems):]) if gems else True
    least, most = centre_least(cells), centre_most(spots, min_confidence)
    seen = camera_range(centre)
    known = around_centre_sure(cells, min_confidence)
    if (known and seen is not None and seen[0] <= least <= seen[1]
            and seen[1] - seen[0] <= CAMERA_SPREAD and least <= most):
        # the camera allows the count the rules leave: the stock's last gems, surely
        return edges + [GemSpot(g, None, 1.0) for g in CENTRE_STOCK[len(CENTRE_STOCK) - least:]]
    settled = rules_settle_centre(spots, cells, min_confidence)
    if settled is not None and seen is not None and centre and seen[0] <= least <= most:
        # every gem taken from the heap is seen where its paths end, and the camera sees part
        # of the heap, no more than the rules leave: the count the rules leave, as sure as the
        # facts it rests on. None of the heap seen is asked (issue 20: a count of zero on a
        # centre that should hold gems is never silent; the rules' count would be no reading)
        return edges + [GemSpot(g, None, settled)
                        for g in CENTRE_STOCK[len(CENTRE_STOCK) - least:]]
    if known and seen is not None and centre and seen[0] <= least == most:
        # the rules leave one count: the tiles next to the centre took as many gems as the
        # emeralds and sapphires lying surely on the edges (no other gem of their colours is
        # in play), and the camera sees no more than that on the heap; as sure as those gems
        sure = min([s.confidence for s in edges if s.gem is not Gem.AMBER
                    and s.confidence >= min_confidence], default=1.0)
        return edges + [GemSpot(g, None, sure) for g in CENTRE_STOCK[len(CENTRE_STOCK) - least:]]
    n = len(centre)
    if not least <= n <= max(most, least) or not in_order:
        # asked, with the count the camera believes: the nearest the rules allow, in the
        # stock's order
        k = min(max(n, least), max(most, least))
        believed = [GemSpot(g, None, AGAINST_RULES)
                    for g in CENTRE_STOCK[len(CENTRE_STOCK) - k:]] if k else []
        return edges + believed
    if n > least or not known:
        # more than the tiles next to the centre leave: a gem not yet moved off, or the
        # print read as a gem (the scans' empty centre as a sapphire at 1.0); or a doubtful
        # cell round the centre leaves the rules' count unknown: never sure
        return edges + [replace(s, confidence=min(s.confidence, AGAINST_RULES)) for s in centre]
    return spots


def one_sapphire(spots: list[GemSpot], min_confidence: float) -> list[GemSpot]:
    """The gem spots with a sure sapphire on the edges doubted when another sapphire is sure
    too (on the centre or an edge): the game has one sapphire, so one of them is the print
    (the real board's deep-blue cells); which one the camera cannot say, so each edge one is
    asked (:data:`AGAINST_RULES`). Only confidences are lowered: nothing is made sure.

    The project's own table renders, mild, demo pack taught, tuning seed 11: a sapphire read
    at 0.85 or more on cell (2,-3) edge 1 beside the centre's sapphire, sure by the rules,
    where none lay, with no question.
    """
    sure = [s for s in spots if s.gem is Gem.SAPPHIRE and s.confidence >= min_confidence]
    if len(sure) <= 1:
        return spots
    return [replace(s, confidence=AGAINST_RULES) if s in sure and s.point is not None else s
            for s in spots]

