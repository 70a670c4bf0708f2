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
