"""The centre stock held against the rules: the camera's count of the heap never settles it
alone (issue 20, census of session 24 in bench/figures/indigo_centre_s24.txt)."""

from __future__ import annotations

from companion.indigo import CENTRE, Gem, Tile
from companion.indigo.geometry import Cell, neighbour
from vision.indigo.centre_rules import around_centre_sure, centre_least, settle_centre
from vision.indigo.read_types import CellRead, GemSpot
from vision.indigo.settings import DEFAULT_SETTINGS

MIN = DEFAULT_SETTINGS.min_confidence


def _around(tiles: int, doubtful: int | None = None) -> dict[Cell, CellRead]:
    """The six cells round the centre, the first ``tiles`` of them laid; the one at
    ``doubtful`` read with a confidence below the floor."""
    cells = {}
    for e in range(6):
        cell = neighbour(CENTRE, e)
        confidence = MIN / 2 if e == doubtful else 1.0
        cells[cell] = CellRead(cell, Tile(1, 0) if e < tiles else None, confidence, ())
    return cells


def _heap(emeralds: int) -> list[GemSpot]:
    """What the camera counts on the centre: ``emeralds`` emeralds (peaks and discs agree)
    and the sapphire, each sure by the count alone."""
    seen = (emeralds, emeralds)
    return ([GemSpot(Gem.EMERALD, None, 1.0, seen) for _ in range(emeralds)]
            + [GemSpot(Gem.SAPPHIRE, None, 1.0)])


def _centre(spots: list[GemSpot]) -> list[GemSpot]:
    return [s for s in spots if s.point is None]


def test_the_rules_count_agreed_by_the_camera_is_sure_when_the_cells_round_it_are() -> None:
    cells = _around(3)
    assert around_centre_sure(cells, MIN)
    centre = _centre(settle_centre(_heap(2), cells, MIN))
    assert len(centre) == centre_least(cells) == 3
    assert all(s.confidence >= MIN for s in centre)


def test_a_doubtful_cell_round_the_centre_leaves_the_count_asked_though_the_camera_agrees(
) -> None:
    # a tile read (doubtfully) where none may lie: the rules leave 3, the camera sees 3, and 4
    # may lie there (scans 1007 harsh, a tuning board); nothing but the cell says which
    for doubtful in range(6):
        cells = _around(3, doubtful)
        assert not around_centre_sure(cells, MIN)
        centre = _centre(settle_centre(_heap(2), cells, MIN))
        assert centre, "the count the camera believes is kept, to be asked"
        assert all(s.confidence < MIN for s in centre)


def test_a_sure_edge_sapphire_beside_another_sure_sapphire_is_asked() -> None:
    # one sapphire in the game: a second one read surely is the print (own table render,
    # mild, demo pack taught, tuning seed 11: a phantom on cell (2,-3) edge 1 at 0.85 or more
    # beside the centre's sapphire, silent)
    from vision.indigo.centre_rules import one_sapphire

    cells = _around(3)
    centre = settle_centre(_heap(2), cells, MIN)
    assert any(s.gem is Gem.SAPPHIRE and s.confidence >= MIN for s in centre)
    edge = GemSpot(Gem.SAPPHIRE, ((2, -3), 1), 0.95)
    emerald = GemSpot(Gem.EMERALD, ((1, -3), 1), 0.95)
    after = one_sapphire(centre + [edge, emerald], MIN)
    assert [s.confidence < MIN for s in after if s.point == edge.point] == [True]
    assert [s for s in after if s.point is None] == centre, "the centre is not changed"
    assert emerald in after
    # the sapphire alone on an edge (none left on the centre) stays as sure as it was
    empty = settle_centre([], _around(6), MIN)
    assert one_sapphire(empty + [edge, emerald], MIN) == empty + [edge, emerald]
    # two sure sapphires on the edges: both asked, neither is chosen
    other = GemSpot(Gem.SAPPHIRE, ((-1, 3), 5), 1.0)
    assert all(s.confidence < MIN for s in one_sapphire([edge, other], MIN))
