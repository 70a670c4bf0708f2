"""An empty cell beside a lamp's reflection or across a shade's edge: round the clipped core
the print brightens toward the lamp (and darkens into a shade), and that slope of light fitted
a tile's paths part-way, so the cell, read empty and right, was asked (session 30's census:
the largest kind of cell question asked where the read was right, on the harsh tuning boards
of the independent generator). With the light's level and slope taken out, what is left
rules every tile out: read empty and sure. A tile read empty under glare whose remnant still
shows its paths stays asked."""

from __future__ import annotations

import pytest
from indigo_scenes import read_independent_board

from tests.vision.scene_stack import SCENES_AS_FOUND
from vision.indigo.settings import DEFAULT_SETTINGS

SURE = DEFAULT_SETTINGS.min_confidence


def _asked(out: dict, cell: tuple[int, int]) -> bool:
    return any(q.startswith(f"cell ({cell[0]},{cell[1]})") for q in out["questions"])


@pytest.mark.parametrize(("seed", "cell"), [(1025, (1, 3)), (1009, (4, -1)), (1008, (0, 2))])
def test_an_empty_cell_in_a_slope_of_light_is_sure(seed: int, cell: tuple[int, int]) -> None:
    """1025 (1,3) has 0.45 of its disc left outside the glare, 1009 (4,-1) 0.88, 1008 (0,2)
    lies in a shade with no glare: on e7c15fb each was read empty and asked ("empty or T4
    rot 1?", "empty or T4 rot 0?", "empty or T3 rot 3?"): for too little left, because only
    its shifted comparison was sure, for its margin. Now each is read empty and sure, and no
    question names it. On another build's pixels: never a tile read there with no
    question."""
    truth, out = read_independent_board(seed)
    assert truth.tiles.get(cell) is None
    tiles = [t for t in out["tiles"] if tuple(t["cell"]) == cell]
    assert not tiles or tiles[0]["confidence"] < SURE
    if SCENES_AS_FOUND:
        assert not tiles
        assert not _asked(out, cell)


def test_a_tile_under_glare_whose_paths_show_past_the_slope_stays_asked() -> None:
    """Tuning board 1027 (-1,-2): a tile a fifth left outside the glare, read empty in the
    print's colour and flat, whose remnant still correlates 0.63 with a pattern once the
    light's slope is out: never a sure empty cell."""
    truth, out = read_independent_board(1027)
    assert truth.tiles.get((-1, -2)) is not None
    empty = [e for e in out.get("empty_cells", []) if tuple(e["cell"]) == (-1, -2)]
    assert not empty or empty[0]["confidence"] < SURE
    if SCENES_AS_FOUND:
        assert _asked(out, (-1, -2))
