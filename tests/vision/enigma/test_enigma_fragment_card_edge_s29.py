"""The card finder scores a square against the table round it (issue #26): beyond the mat's
view nothing is seen, and that nothing was black, a band darker than any table with an
outline stepping up from it, so a square of a blue checked cloth at the mat's edge scored
over the card itself (independent scenes, fragment mild seed 5)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from vision.enigma.puzzles.card_find import beyond_view

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.puzzle_judge import check_frame  # noqa: E402
from independent_scenes.puzzle_scene import puzzle_scene, scene_cards  # noqa: E402


def test_a_search_inside_the_view_is_not_widened() -> None:
    allowed = np.zeros((150, 180), bool)
    allowed[70:80, 80:90] = True  # the fine search: round its find, far from the edge
    pad, within = beyond_view(allowed, 60, 78)
    assert pad == 0
    assert np.array_equal(within, allowed)


def test_squares_reaching_out_of_the_view_are_widened_for_or_left_out() -> None:
    allowed = np.zeros((150, 180), bool)
    allowed[:, :100] = True  # the coarse search: the mat's left part, edge to edge
    pad, within = beyond_view(allowed, 60, 78)
    # no card partly out of view: centres half a side in; the band (9 px) and the outline's
    # outer strip (2 px) of a square there fall on the widened image
    assert not within[:30].any() and not within[120:].any() and not within[:, :30].any()
    assert within[30:120, 30:100].all()
    assert pad == 39 + 2 + 2 - 30


def test_the_card_on_a_checked_cloth_is_found_over_a_square_at_the_mats_edge() -> None:
    card_id = scene_cards("fragment")[5 % len(scene_cards("fragment"))]
    scene = puzzle_scene("fragment", card_id, True, 5, "mild")
    assert scene.surface == "cloth"
    verdict, reason, _ = check_frame(scene.frame, "fragment", card_id)
    assert verdict != "not solved", reason
    # base: "a square of the table was taken for the card"; the card found, its outline's
    # step beside the cloth's white checks is still too weak to read (cannot tell, "the light
    # washes the table"): a step counted along the side read mild seed 0 (the same cloth)
    # "not solved", its pieces' shadow an overhang, and was taken back
    assert "a square of the table was taken for the card" not in reason
