"""A weight washed by a lamp's glare near burning out is still told by its shape (issue #26).
Tuning wood/strong 12, right build, as ``bench/puzzle_checks.py --seeds 24 --kinds weight``
draws it: the lone weight of the right cup 1 lies under the glare, its rim 0.082 of the
card's level below the card (a weight was told from 0.1), so the check asked to move the
lamp. Told from 0.05 (the bare card's noise lies below 0.03), its face lies nearer the card
than its rim (0.35 of the way): the crescent step is taken at least 0.6 of the way to its
rim, as the weights' faces lie, or the glare's unevenness beside it reads as a crescent."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.enigma.puzzles import load_puzzles
from tests.vision.scene_stack import SCENES_AS_FOUND
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.cards import weight_cups
from vision.enigma.puzzles.check import check_puzzle_frame
from vision.enigma.puzzles.view import view_card
from vision.enigma.puzzles.weight import (
    IN_CUP,
    crescent_mask,
    crescents,
    cup_at,
    find_weights,
    local_card,
    smooth_level,
    weight_radius_px,
)
from vision.enigma.settings import DEFAULT_PUZZLE_SETTINGS
from vision.enigma.synth.puzzle_table import TableCondition, render_table_frame

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from puzzle_checks import cases  # noqa: E402

SEED = 12


@pytest.fixture(scope="module")
def glare_frames(demo_pack: EnigmaPack) -> tuple[Any, list[tuple[bool, np.ndarray]]]:
    """The bench's card for wood/strong seed 12, its right build and its near miss."""
    card, todo = cases("weight", SEED, load_puzzles())
    frames = [(is_right, render_table_frame("weight", card, demo_pack, solution=solution,
                                            seed=SEED, condition=TableCondition("wood", "strong"),
                                            **extra))
              for is_right, solution, extra in todo]
    return card, frames


def test_a_washed_weight_is_told_by_its_shape(demo_pack: EnigmaPack, glare_frames) -> None:
    """The right build is never "not solved"; on the builds the scenes were found on it is
    solved (base: "a lamp's glare washes out a weight in the right cup 1")."""
    card, frames = glare_frames
    right = next(frame for is_right, frame in frames if is_right)
    result = check_puzzle_frame("weight", right, demo_pack, card=card, box=load_puzzles())
    assert result["verdict"] != "not solved", result
    if SCENES_AS_FOUND:
        assert result["verdict"] == "solved", result


def test_its_near_miss_is_never_solved(demo_pack: EnigmaPack, glare_frames) -> None:
    """The same card under the same glare, a weight in the wrong pan: never "solved"."""
    card, frames = glare_frames
    wrong = next(frame for is_right, frame in frames if not is_right)
    result = check_puzzle_frame("weight", wrong, demo_pack, card=card, box=load_puzzles())
    assert result["verdict"] != "solved", result


@pytest.mark.skipif(not SCENES_AS_FOUND, reason="another build draws the glare a few levels "
                    "otherwise: on the Pi floor's render a crescent shows beside the washed "
                    "weight and the right build is asked about (never 'not solved')")
def test_the_glare_beside_a_washed_weight_is_no_crescent(demo_pack: EnigmaPack,
                                                          glare_frames) -> None:
    """Every whole weight in a cup of the right build leaves no crescent: the washed lone
    weight's face lies nearer the card than its rim (less than 0.6 of the way), and the
    glare's unevenness beside it is no weight lying under it."""
    card, frames = glare_frames
    right = next(frame for is_right, frame in frames if is_right)
    view = view_card(right, demo_pack, DEFAULT_PUZZLE_SETTINGS.mat)
    cups = weight_cups(card, demo_pack.tile_mm)
    level, places = find_weights(view, demo_pack)
    wr = weight_radius_px(demo_pack)
    whole = [wt for wt in places if wt.whole]
    in_cups = [wt for wt in whole if cup_at(view, cups, *wt.centre, IN_CUP) is not None]
    washed = [wt for wt in in_cups if wt.card - wt.rim < 0.1 * wt.card]
    assert washed, "the lone weight under the glare is whole"
    smooth, card_level = smooth_level(level), local_card(level, wr)
    inside = crescent_mask(view, cups)
    for wt in washed:
        assert wt.card - wt.face < 0.6 * (wt.card - wt.rim)
        assert crescents(smooth, card_level, wt, whole, wr, inside) == []
