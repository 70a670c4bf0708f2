"""The tall-weight check trusts the camera's pose only where the card's homography is a
centred camera's with a lens in range, and reads a card as flat weights first: a flat build
seen by a camera whose principal point is off the frame's middle reads as with the pose off;
a tall build the flat reading cannot tell is solved; its near miss is not."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np
import pytest

from companion.enigma.puzzles import load_puzzles
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.camera_pose import FIELD_OF_VIEW_RANGE_DEG, fitting_lenses
from vision.enigma.puzzles.check import check_puzzle_frame
from vision.enigma.synth.puzzle_table import TableCondition, render_table_frame
from vision.synth.effects import camera_homography
from vision.synth.pinhole import draw_pinhole

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
from puzzle_checks import cases  # noqa: E402

FRAME = (2304, 1296)


@pytest.mark.parametrize("seed", [1, 4, 5])
def test_a_tilted_pinhole_fits_a_lens_near_its_own(seed: int) -> None:
    """Tilted 12-24 degrees, the lenses that fit the homography lie within 2 degrees of the
    pinhole's own and narrow the range."""
    camera = draw_pinhole(np.random.default_rng(seed), FRAME, max_tilt_deg=25.0)
    assert camera.tilt_deg > 12
    lenses = fitting_lenses(camera.view((1900, 1300)).homography, FRAME)
    assert lenses is not None
    assert lenses[0] - 2 <= camera.hfov_deg <= lenses[1] + 2
    assert lenses[1] - lenses[0] < (FIELD_OF_VIEW_RANGE_DEG[1] - FIELD_OF_VIEW_RANGE_DEG[0]) / 4


@pytest.mark.parametrize("direction", [0.0, 60.0, 135.0])
def test_a_recentred_camera_fits_no_lens(direction: float) -> None:
    """The flat renders' camera (vision.synth.effects: a pinhole's picture moved and scaled
    to fill the frame, so its principal point is off the middle and its lens ~37 degrees),
    tilted 15 degrees: no lens in range fits, so no pose is taken."""
    homography = camera_homography((1900, 1300), FRAME, tilt_deg=15.0,
                                   tilt_dir_deg=direction, spin_deg=5.0, fill=0.9)
    assert fitting_lenses(homography, FRAME) is None


def _frame(pack: EnigmaPack, surface: str, seed: int, right: bool, height: float
           ) -> tuple[object, np.ndarray]:
    """A frame as ``bench/puzzle_checks.py --kinds weight`` draws it (mild)."""
    card, (right_case, wrong_case) = cases("weight", seed, load_puzzles())
    _, solution, more = right_case if right else wrong_case
    tall = {"weight_height_mm": height} if height > 0 else {}
    frame = render_table_frame("weight", card, pack, condition=TableCondition(surface, "mild"),
                               solution=solution, seed=seed, **tall, **more)
    return card, frame


def _with_height(pack: EnigmaPack, mm: float) -> EnigmaPack:
    return dataclasses.replace(pack, sizes={**pack.sizes, "weight_height_mm": mm})


def test_flat_build_off_centre_camera_reads_as_flat(demo_pack: EnigmaPack) -> None:
    """Tuning cloth/mild 3, right build, flat weights, the flat renders' camera (principal
    point off the middle; at a mild tilt every lens fits it): session 26's pose read a
    weight outside the cups, "not solved" with no question. Read as flat now: the same
    verdict and reason as with the weights' height 0."""
    card, frame = _frame(demo_pack, "cloth", 3, right=True, height=0.0)
    tall = check_puzzle_frame("weight", frame, _with_height(demo_pack, 3.0), card=card)
    flat = check_puzzle_frame("weight", frame, _with_height(demo_pack, 0.0), card=card)
    assert tall == flat
    assert tall["verdict"] == "solved", tall["reason"]


def test_tall_build_flat_reading_cannot_tell_is_solved(demo_pack: EnigmaPack) -> None:
    """Tuning wood/mild 11, right build, 3 mm weights, the pack's height 3 mm: read as flat discs
    a weight does not show whole ("cannot tell"); through the pose, solved (the bare card
    between two tall weights and the cup's print, 1.65 radii from one, is no weight). Without
    the pack's height the weights' own lean (weight_own_lean, session 34) may read it too: on
    the Pi floor's render it does, "solved"; never "not solved"."""
    card, frame = _frame(demo_pack, "wood", 11, right=True, height=3.0)
    flat = check_puzzle_frame("weight", frame, _with_height(demo_pack, 0.0), card=card)
    assert flat["verdict"] in ("cannot tell", "solved"), flat["reason"]
    result = check_puzzle_frame("weight", frame, _with_height(demo_pack, 3.0), card=card)
    assert result["verdict"] == "solved", result["reason"]


def test_tall_near_miss_is_not_solved(demo_pack: EnigmaPack) -> None:
    card, frame = _frame(demo_pack, "wood", 11, right=False, height=3.0)
    result = check_puzzle_frame("weight", frame, _with_height(demo_pack, 3.0), card=card)
    assert result["verdict"] != "solved", result["reason"]
