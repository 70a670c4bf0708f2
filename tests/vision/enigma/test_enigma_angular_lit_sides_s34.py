"""The angular check on the independent puzzle scenes, whose lamp (40-75 degrees up) faces
some cubes' sides squarely: such a side is lit at 0.9 of its top and more, as bright as a top
to the tall read, which explained lit pixels only by its columns' top squares, so a right
structure seen from the side left thousands of lit pixels unexplained and asked ("the tops of
the cubes cannot all be seen"). The lit pixels of a column's colour on the sides it shows (the
hull of its base cell and its top square) are now its own."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.enigma.independent_puzzle_frames import independent_verdict
from vision.enigma.pack import EnigmaPack

#: tuning seeds whose right builds asked before (44dcf66): "the tops of the cubes cannot all
#: be seen from here"
LIT_SIDES = [("moderate", 3), ("moderate", 4)]


@pytest.mark.parametrize(("condition", "seed"), LIT_SIDES)
def test_a_structure_whose_sides_face_the_lamp_is_read(demo_pack: EnigmaPack, condition: str,
                                                       seed: int) -> None:
    result = independent_verdict(demo_pack, "angular", condition, seed, True)
    assert result["verdict"] == "solved", (condition, seed, result["reason"])


@pytest.mark.parametrize(("condition", "seed"), LIT_SIDES)
def test_their_wrong_builds_are_never_solved(demo_pack: EnigmaPack, condition: str,
                                             seed: int) -> None:
    result = independent_verdict(demo_pack, "angular", condition, seed, False)
    assert result["verdict"] != "solved", (condition, seed, result["reason"])


def test_a_top_read_in_part_within_a_column_asks(demo_pack: EnigmaPack,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Tuning seed mild 0, right build, read through the scene camera's own eye: one blue
    square lies across two blue tops, and the strip of the nearer top it leaves out lies
    within the blue column's sides. Taken for a side, it let the read (a blue cube short of
    the card) say "not solved" to a right build (717215e); a read resting on lit sides asks."""
    from independent_scenes.puzzle_scene import puzzle_scene, scene_cards

    from companion.enigma.puzzles import load_puzzles
    from vision.enigma.puzzles import angular_tall
    from vision.enigma.puzzles.camera_pose import Eye
    from vision.enigma.puzzles.check import check_puzzle_frame

    card_id = scene_cards("angular")[0]
    scene = puzzle_scene("angular", card_id, True, 0, "mild")
    camera = scene.camera

    def own_eye(view_to_frame: np.ndarray, frame_size: tuple[int, int],
                lenses: object) -> list[Eye]:
        frame_to_mat = np.linalg.inv(view_to_frame)

        def on_mat(x: float, y: float) -> np.ndarray:
            p = frame_to_mat @ np.append(camera.project(np.array([[x, y, 0.0]]))[0], 1.0)
            return np.asarray(p[:2] / p[2])

        nadir = on_mat(camera.centre[0], camera.centre[1])
        px_mm = float(np.linalg.norm(on_mat(140.0, 75.0) - on_mat(100.0, 75.0))) / 40.0
        return [Eye((float(nadir[0]), float(nadir[1])), float(-camera.centre[2] * px_mm))]

    monkeypatch.setattr(angular_tall, "camera_eyes", own_eye)
    box = load_puzzles()
    result = check_puzzle_frame("angular", scene.frame, demo_pack,
                                card=box.angular.cards[card_id], box=box)
    assert result["verdict"] != "not solved", result["reason"]
