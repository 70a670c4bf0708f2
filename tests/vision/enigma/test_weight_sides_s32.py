"""The weight check on the independent puzzle scenes' tall weights, whose camera pose is not
known (its principal point lies off the frame's middle): a weight's side, darker than its
rim, and its lamp shadow beside it were read as a weight partly under it ("a weight does not
show whole"), so right builds were asked about. The side lies within the weight's lean of
its top face; a weight partly under another shows its rim beyond (:data:`SIDE_REACH`)."""

from __future__ import annotations

import pytest

from tests.vision.enigma.independent_puzzle_frames import independent_verdict
from vision.enigma.pack import EnigmaPack


def _verdict(demo_pack: EnigmaPack, condition: str, seed: int, right: bool) -> dict[str, str]:
    return independent_verdict(demo_pack, "weight", condition, seed, right)


@pytest.mark.parametrize("seed", [1, 6, 9])
def test_tall_weights_sides_and_shadows_are_no_weight_under_them(demo_pack: EnigmaPack,
                                                                   seed: int) -> None:
    """Tuning seeds 1, 6 and 9 (mild), right builds: their sides and shadows reached 0.81 to
    0.93 of the way from the card to a weight's rim, read as a weight's rim; beyond the
    sides they do not."""
    result = _verdict(demo_pack, "mild", seed, True)
    assert result["verdict"] == "solved", (seed, result["reason"])


@pytest.mark.parametrize("seed", [1, 6, 9])
def test_their_wrong_builds_are_still_not_solved(demo_pack: EnigmaPack, seed: int) -> None:
    """The same frames' wrong builds (a weight moved to another cup) are never solved."""
    assert _verdict(demo_pack, "mild", seed, False)["verdict"] != "solved"
