"""A cell read from a crescent beside a pawn that overlaps a cell read already is that cell,
its pawn seen from the side, never a third cell (session 29: independent tuning table 6032
harsh at 30-45 tiles, square [0, -1], read with a third yellow cell beside the two). The
verdict asserted on any pixels: the tile is read right, or asked (its confidence below the
threshold and a question naming its square); on the pixels the class was found on
(tests.vision.scene_stack.SCENES_AS_FOUND), the tile and its white pawn are read right."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.enigma_judge import read_key  # noqa: E402
from independent_scenes.enigma_table import enigma_scene, truth_of  # noqa: E402

from config import Config  # noqa: E402
from tests.vision.scene_stack import SCENES_AS_FOUND  # noqa: E402
from vision.enigma.reader import read_enigma  # noqa: E402
from vision.enigma.settings import ReaderSettings  # noqa: E402


def test_a_crescent_beside_a_cell_read_gives_that_cells_pawn(demo_pack):
    """Table 6032 (30-45 tiles), [0, -1]: a white pawn on a yellow cell, found by its dark
    rim 2.07 cell radii off the cell's middle, gave a third yellow cell from the crescent
    beside it (the cell's own blurred ring). Merged: two cells, the white pawn on one."""
    at = (0, -1)
    frame, table = enigma_scene(6032, "harsh", (30, 45))
    truth, truth_networkers = truth_of(table)
    settings = ReaderSettings.from_config(Config())
    read = read_enigma(frame, pack=demo_pack, settings=settings).to_json()
    tile = next(t for t in read["tiles"] if tuple(t["at"]) == at)
    if read_key(tile) != truth[at]:
        asked = [q for q in read["questions"] if q.startswith(f"tile [{at[0]}, {at[1]}]")]
        assert tile["confidence"] < settings.min_confidence, tile
        assert asked, tile
    if SCENES_AS_FOUND:
        assert read_key(tile) == truth[at], tile
        pawns = [(n["colour"], tile["cells"].get(n["cell"])) for n in read["networkers"]
                 if tuple(n["at"]) == at]
        assert pawns == [("white", "yellow")], pawns
        assert (at, "white", "yellow") in truth_networkers
