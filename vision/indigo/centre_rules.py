"""What the rules say about the centre stock, checked against what the camera counted.

The centre tile starts with the stock (emerald x5, sapphire) and gives one gem, in that
order, to each tile laid next to it; gems leave the board only through the gateways. So:

- it holds at least 6 minus the tiles next to it (:func:`centre_least`);
- it holds at most 6 minus the emeralds and sapphires resting on the board's edges;
- what it holds is always the last gems of the stock.

:func:`settle_centre` holds the count read against these bounds: a count outside them is
doubted and asked with the number the camera believes (the nearest count the rules allow),
and a count the bounds fix exactly and the camera agrees with is sure even where the heap's
outline was hard to count.
"""

from __future__ import annotations

from dataclasses import replace

from companion.indigo import CENTRE, CENTRE_STOCK, Gem
from companion.indigo.geometry import Cell, neighbour
from vision.indigo.pieces import GemSpot
from vision.indigo.read_types import CellRead

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


def settle_centre(
    spots: list[GemSpot], cells: dict[Cell, CellRead], min_confidence: float
) -> list[GemSpot]:
    """The gem spots with the centre's confidences held against the rules' bounds."""
    centre = [s for s in spots if s.point is None]
    gems = sorted((s.gem for s in centre), key=lambda g: g is Gem.SAPPHIRE)
    in_order = gems == list(CENTRE_STOCK[len(CENTRE_STOCK) - len(gems):]) if gems else True
    least, most = centre_least(cells), centre_most(spots, min_confidence)
    n = len(centre)
    if not least <= n <= max(most, least) or not in_order:
        # asked, with the count the camera believes: the nearest the rules allow, in the
        # stock's order
        k = min(max(n, least), max(most, least))
        believed = [GemSpot(g, None, AGAINST_RULES)
                    for g in CENTRE_STOCK[len(CENTRE_STOCK) - k:]] if k else []
        return [s for s in spots if s.point is not None] + believed
    if least == most == n:
        # the rules leave no other count, and the camera counted it
        return [replace(s, confidence=1.0) if s.point is None else s for s in spots]
    return spots
