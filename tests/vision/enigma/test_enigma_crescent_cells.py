"""A cell read from a crescent beside a pawn that overlaps a cell read already is that cell,
its pawn seen from the side, never a third cell (session 29: independent tuning table 6032
harsh at 30-45 tiles, square [0, -1], read with a third yellow cell beside the two). The
verdict asserted on any pixels: the tile is read right, or asked (its confidence below the
threshold and a question naming its square); on the pixels the class was found on
(tests.vision.scene_stack.SCENES_AS_FOUND), the tile and its white pawn are read right."""

from __future__ import annotations

from tests.vision.enigma.independent_tile_verdicts import read_harsh_table, right_or_asked
from tests.vision.scene_stack import SCENES_AS_FOUND


def test_a_crescent_beside_a_cell_read_gives_that_cells_pawn(demo_pack):
    """Table 6032 (30-45 tiles), [0, -1]: a white pawn on a yellow cell, found by its dark
    rim 2.07 cell radii off the cell's middle, gave a third yellow cell from the crescent
    beside it (the cell's own blurred ring). Merged: two cells, the white pawn on one."""
    at = (0, -1)
    read, truth, truth_networkers = read_harsh_table(demo_pack, 6032, (30, 45))
    tile, right, _ = right_or_asked(read, truth, at)
    if SCENES_AS_FOUND:
        assert right, tile
        pawns = [(n["colour"], tile["cells"].get(n["cell"])) for n in read["networkers"]
                 if tuple(n["at"]) == at]
        assert pawns == [("white", "yellow")], pawns
        assert (at, "white", "yellow") in truth_networkers
