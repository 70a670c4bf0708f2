"""A square of table taken for the card gives no wrong fragment verdict (issue #26): on a blue
checked cloth the card finder took a square of its checks for the card, and the pieces on the
real card beside it read "a piece lies beside the card", a right build "not solved"
(independent scenes, fragment mild seeds 5 and 6, moderate seed 5). Since session 33 the
finder looks past a place that does not show the card's corner triangle
(test_enigma_card_past_checks.py), and moderate seed 5's card is found and read."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.puzzle_judge import check_frame  # noqa: E402
from independent_scenes.puzzle_scene import puzzle_scene, scene_cards  # noqa: E402


@pytest.mark.parametrize(("seed", "condition"), [(5, "moderate")])
def test_the_card_beside_a_square_of_checked_cloth_is_found_and_read(seed: int,
                                                                      condition: str) -> None:
    # (mild seed 5's square lay at the mat's edge: the card is found since session 29,
    # test_enigma_fragment_card_edge_s29.py; mild seed 6's square is a close rival the card
    # beats by its corner triangle since session 29, below). Before session 33 moderate 5's
    # right build was "cannot tell: a square of the table was taken for the card"
    card_id = scene_cards("fragment")[seed % len(scene_cards("fragment"))]
    for right, expected in ((True, "solved"), (False, "not solved")):
        scene = puzzle_scene("fragment", card_id, right, seed, condition)
        verdict, reason, _ = check_frame(scene.frame, "fragment", card_id)
        assert verdict == expected or (not right and verdict == "cannot tell"), reason
        assert "a square of the table was taken for the card" not in reason


def test_a_card_found_on_the_same_cloth_is_read() -> None:
    # mild seed 2: the card on a checked cloth too (gingham), found right and solved
    card_id = scene_cards("fragment")[2 % len(scene_cards("fragment"))]
    scene = puzzle_scene("fragment", card_id, True, 2, "mild")
    assert scene.surface == "cloth"
    verdict, reason, _ = check_frame(scene.frame, "fragment", card_id)
    assert verdict == "solved", reason


def test_a_rival_square_of_checked_cloth_loses_to_the_card_s_triangle() -> None:
    # mild seed 6: a square of the cloth scored a little over the card in the coarse search;
    # among the close rivals searched again the card shows its dark corner triangle. The
    # card found, its step beside the cloth's white checks is still too weak to read
    # ("the light washes the table", cannot tell), never "not solved"
    card_id = scene_cards("fragment")[6 % len(scene_cards("fragment"))]
    scene = puzzle_scene("fragment", card_id, True, 6, "mild")
    verdict, reason, _ = check_frame(scene.frame, "fragment", card_id)
    assert verdict != "not solved", reason
    assert "a square of the table was taken for the card" not in reason
