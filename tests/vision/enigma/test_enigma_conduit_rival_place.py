"""The card search's half-pixel placement keeps its close rivals (issue #26): at half a pixel
a mm a conduit card's paper margin is two pixels wide and its pieces cover its middle, so on
a light table a square of table beside the card can place above the card there and below it
at 1 px a mm; each close rival is made again at 1 px a mm and the best is the card."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.vision.scene_stack import SCENES_AS_FOUND

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
