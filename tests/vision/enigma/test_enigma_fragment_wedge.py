"""The fragment check sees the thin wedges of card a piece turned a quarter leaves inside the
silhouette (issue #26): they are no blur of the outline, and a wrong build with them is
never "solved" (independent scenes, fragment mild seed 7: S2 turned, called "solved")."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

from vision.enigma.puzzles.fragment_inner import INNER_MAX, beyond_blur

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.puzzle_judge import check_frame  # noqa: E402
from independent_scenes.puzzle_scene import puzzle_scene, scene_cards  # noqa: E402

#: the check's outline sliver (pixels of the card view): 0.12 of a 6.5 mm unit at 8 px a mm
OUTLINE_PX = 6


def _silhouette() -> np.ndarray:
    """A 240 x 300 pixel silhouette, a pentagon as a card prints."""
    target = np.zeros((320, 380), np.uint8)
    cv2.fillPoly(target, [np.array([[40, 40], [340, 40], [340, 280], [190, 280], [40, 200]],
                                   np.int32)], 1)
    return target.astype(bool)


def _shares(uncovered: np.ndarray, target: np.ndarray) -> tuple[float, float]:
    seen, inside = beyond_blur(uncovered, target, OUTLINE_PX)
    return float(seen.sum()) / target.sum(), float(inside.sum()) / target.sum()


def test_blur_along_a_covered_outline_is_no_gap() -> None:
    target = _silhouette()
    # the pieces read 5 pixels short of the outline all round: the camera's blur
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (11, 11))
    covered = cv2.erode(target.astype(np.uint8), k) > 0
    assert _shares(target & ~covered, target) == (0.0, 0.0)


def test_a_thin_wedge_inside_the_silhouette_counts() -> None:
    target = _silhouette()
    wedge = np.zeros(target.shape, np.uint8)
    # a right triangle of legs 22 and 11 pixels, as S2 turned leaves between thick pieces:
    # its inscribed circle (8 px) is narrower than the outline's sliver opening (13 px)
    cv2.fillPoly(wedge, [np.array([[180, 150], [202, 150], [202, 139]], np.int32)], 1)
    whole, inside = _shares(wedge.astype(bool), target)
    assert inside > INNER_MAX
    assert whole >= inside


def test_a_thin_long_gap_between_pieces_counts() -> None:
    target = _silhouette()
    gap = np.zeros(target.shape, bool)
    gap[100:220, 150:156] = True  # 6 pixels wide, 120 long: two pieces pushed apart
    assert _shares(gap, target)[1] > INNER_MAX


def test_a_quarter_turned_small_triangle_is_not_solved() -> None:
    # independent scenes, fragment mild seed 7 (tuning): S2 turned a quarter in its place,
    # its two wedges shaded by the thick pieces round them; base called it "solved"
    card_id = scene_cards("fragment")[7 % len(scene_cards("fragment"))]
    scene = puzzle_scene("fragment", card_id, False, 7, "mild")
    assert "turned" in scene.build.mistake
    verdict, reason, _ = check_frame(scene.frame, "fragment", card_id)
    assert verdict != "solved", reason


def test_the_same_card_built_right_is_solved() -> None:
    card_id = scene_cards("fragment")[7 % len(scene_cards("fragment"))]
    scene = puzzle_scene("fragment", card_id, True, 7, "mild")
    verdict, reason, _ = check_frame(scene.frame, "fragment", card_id)
    assert verdict == "solved", reason
