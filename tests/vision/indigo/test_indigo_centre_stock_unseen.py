"""The centre stock when the camera sees little of the heap: the rules alone leave one count
(issue 20, session 26's census in bench/figures/indigo_centre_s26.txt); none of it seen is
still asked."""

from __future__ import annotations

import pytest

from companion.indigo import CENTRE, CENTRE_STOCK, Gem, Tile
from companion.indigo.gems import Ending, path_end
from companion.indigo.geometry import Cell, EdgePoint, neighbour
from vision.indigo.centre_rules import centre_least, centre_most, settle_centre
from vision.indigo.read_types import CellRead, GemSpot
from vision.indigo.settings import DEFAULT_SETTINGS

MIN = DEFAULT_SETTINGS.min_confidence


def _around(tiles: int) -> dict[Cell, CellRead]:
    """The six cells round the centre read surely, the first ``tiles`` of them laid."""
    cells = {}
    for e in range(6):
        cell = neighbour(CENTRE, e)
        cells[cell] = CellRead(cell, Tile(1, 0) if e < tiles else None, 1.0, ())
    return cells


def _rest_points(cells: dict[Cell, CellRead]) -> list[EdgePoint]:
    """Where the gems the laid tiles took from the centre come to rest."""
    laid = {cell: r.tile for cell, r in cells.items() if r.tile is not None}
    starts = [(CENTRE, e) for e in range(6) if neighbour(CENTRE, e) in laid]
    ends = [path_end(start, laid, starts) for start in starts]
    assert all(end is not None and end[1] is Ending.REST for end in ends)
    return [end[0] for end in ends if end is not None]


def _centre(spots: list[GemSpot]) -> list[GemSpot]:
    return [s for s in spots if s.point is None]


@pytest.mark.parametrize("tiles", [1, 2, 3])
def test_a_heap_seen_in_part_is_the_rules_count_when_each_taken_gem_is_seen(
        tiles: int) -> None:
    cells = _around(tiles)
    gone = [GemSpot(Gem.EMERALD, point, 0.97) for point in _rest_points(cells)]
    part = [GemSpot(Gem.EMERALD, None, 1.0, (1, 1))]
    centre = _centre(settle_centre(gone + part, cells, MIN))
    assert [s.gem for s in centre] == list(CENTRE_STOCK[tiles:])
    assert all(s.confidence >= MIN for s in centre)


@pytest.mark.parametrize("tiles", [1, 2, 3])
def test_a_heap_seen_not_at_all_is_asked_though_the_rules_leave_one_count(tiles: int) -> None:
    """Issue 20: a count of zero on a centre that should hold gems is never silent; the
    rules' count with nothing of the heap seen would be no reading of it."""
    cells = _around(tiles)
    gone = [GemSpot(Gem.EMERALD, point, 0.97) for point in _rest_points(cells)]
    away = [GemSpot(Gem.EMERALD, ((2, -3), e), 1.0) for e in range(tiles)]
    for edges in (gone, away):
        assert all(s.confidence < MIN for s in _centre(settle_centre(edges, cells, MIN)))


@pytest.mark.parametrize("tiles", [1, 2, 3])
def test_a_count_the_rules_bound_from_both_sides_is_sure(tiles: int) -> None:
    # as many emeralds lie surely on the edges as tiles took gems, though not where the paths
    # the camera read end (a cell on the way read wrong): the centre holds the rest, whatever
    # little of the heap the camera sees
    cells = _around(tiles)
    away = [GemSpot(Gem.EMERALD, ((2, -3), e), 1.0) for e in range(tiles)]
    seen = [GemSpot(Gem.EMERALD, None, 1.0, (1, 1))]
    assert centre_least(cells) == centre_most(away, MIN) == 6 - tiles
    centre = _centre(settle_centre(away + seen, cells, MIN))
    assert [s.gem for s in centre] == list(CENTRE_STOCK[tiles:])
    assert all(s.confidence >= MIN for s in centre)


def test_more_than_the_rules_leave_or_a_gem_unaccounted_for_is_still_asked() -> None:
    cells = _around(2)
    away = [GemSpot(Gem.EMERALD, ((2, -3), e), 1.0) for e in range(2)]
    # the camera sees five emeralds where the rules leave four: a move not finished?
    more = [GemSpot(Gem.EMERALD, None, 1.0, (5, 5)) for _ in range(5)]
    assert all(s.confidence < MIN for s in _centre(settle_centre(away + more, cells, MIN)))
    # one of the two gems the tiles took is seen nowhere: it may still lie on the centre
    centre = _centre(settle_centre(away[:1], cells, MIN))
    assert centre and all(s.confidence < MIN for s in centre)
