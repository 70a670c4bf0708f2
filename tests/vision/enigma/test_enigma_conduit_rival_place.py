"""The card search's half-pixel placement keeps its close rivals (issue #26): at half a pixel
a mm a conduit card's paper margin is two pixels wide and its pieces cover its middle, so on
a light table a square of table beside the card can place above the card there and below it
at 1 px a mm; each close rival is made again at 1 px a mm and the best is the card."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from tests.vision.scene_stack import SCENES_AS_FOUND
from vision.enigma.pack import load_enigma_pack
from vision.enigma.puzzles.card_find import TRIANGLE_SEEN, triangle_contrasts
from vision.enigma.puzzles.view import view_card

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.puzzle_judge import check_frame  # noqa: E402
from independent_scenes.puzzle_scene import puzzle_scene, scene_cards  # noqa: E402


def test_a_conduit_card_on_a_light_grey_table_is_found_where_it_lies() -> None:
    """Independent puzzle scenes, conduit moderate seed 11, the right build on grey painted
    wood: the half-pixel placement put the card on the table above it (0.459 against the
    card's 0.416; at 1 px a mm the card scores 0.473) and every stub was 'not shown'."""
    card_id = scene_cards("conduit")[11 % len(scene_cards("conduit"))]
    scene = puzzle_scene("conduit", card_id, True, 11, "moderate")
    verdict, reason, _ms = check_frame(scene.frame, "conduit", card_id)
    if SCENES_AS_FOUND:
        assert verdict == "solved", reason
    else:  # another build's pixels: what holds on any pixels
        assert verdict != "not solved", reason
        assert "shows no stub at N of [0, 0] and W of [0, 0] and N of [1, 0]" not in reason


def test_of_rivals_the_card_is_the_square_showing_its_triangle() -> None:
    """Independent puzzle scenes, conduit moderate seed 6 on a checked cloth: a square of the
    lamp's glare on the cloth ties the card's score at both scales (0.602 and 0.602 at half a
    pixel a mm, 0.671 against the card's 0.670 at 1 px a mm); of the rivals, the square
    whose corner shows the card's dark triangle is the card, cut out with it top left."""
    card_id = scene_cards("conduit")[6 % len(scene_cards("conduit"))]
    scene = puzzle_scene("conduit", card_id, True, 6, "moderate")
    view = view_card(scene.frame, load_enigma_pack())
    a, b = view.margin_px, view.margin_px + view.side_px
    corners = np.array([[a, a], [b, a], [b, b], [a, b]], np.float64)
    contrasts = triangle_contrasts(view.image, corners)
    assert contrasts[0] is not None and contrasts[0] >= TRIANGLE_SEEN, contrasts
