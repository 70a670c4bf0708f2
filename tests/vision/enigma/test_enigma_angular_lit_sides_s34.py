"""The angular check on the independent puzzle scenes, whose lamp (40-75 degrees up) faces
some cubes' sides squarely: such a side is lit at 0.9 of its top and more, as bright as a top
to the tall read, which explained lit pixels only by its columns' top squares, so a right
structure seen from the side left thousands of lit pixels unexplained and asked ("the tops of
the cubes cannot all be seen"). The lit pixels of a column's colour on the sides it shows (the
hull of its base cell and its top square) are now its own."""

from __future__ import annotations

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
