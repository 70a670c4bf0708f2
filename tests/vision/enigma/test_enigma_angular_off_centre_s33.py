"""The angular check on the independent puzzle scenes, whose camera's principal point lies
400-850 px off the frame's middle (a camera aimed off the mat, its picture cut to it): no
centred lens fits the mat's homography, so the tall structure's pose was not taken and its
columns' tops, leaning 0.4-0.5 cube a layer, were "cannot all be seen". The pose is now the
one the homography fixes for each lens (:mod:`vision.enigma.puzzles.off_centre_pose`)."""

from __future__ import annotations

import pytest

from tests.vision.enigma.independent_puzzle_frames import independent_verdict
from vision.enigma.pack import EnigmaPack


def _verdict(demo_pack: EnigmaPack, condition: str, seed: int, right: bool) -> dict[str, str]:
    return independent_verdict(demo_pack, "angular", condition, seed, right)


@pytest.mark.parametrize(("condition", "seed"), [("mild", 4), ("mild", 9), ("moderate", 5)])
def test_a_tall_structure_seen_by_an_off_centre_camera_is_read(demo_pack: EnigmaPack,
                                                               condition: str, seed: int
                                                               ) -> None:
    """Tuning seeds mild 4 and 9 and moderate 5, right builds: "cannot tell: the tops of
    the cubes cannot all be seen" before; read through the off-centre pose, solved."""
    result = _verdict(demo_pack, condition, seed, True)
    assert result["verdict"] == "solved", (condition, seed, result["reason"])


@pytest.mark.parametrize(("condition", "seed"), [("mild", 4), ("mild", 9), ("moderate", 5)])
def test_their_wrong_builds_are_never_solved(demo_pack: EnigmaPack, condition: str,
                                             seed: int) -> None:
    assert _verdict(demo_pack, condition, seed, False)["verdict"] != "solved"
