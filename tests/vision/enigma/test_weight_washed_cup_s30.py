"""Weights side by side in a cup washed by a lamp's glare are no weight partly under another
(issue #26). Tuning cloth/strong 15 and 7, right builds, as ``bench/puzzle_checks.py
--seeds 56 --kinds weight --strengths strong`` draws them: two washed weights in the right cup
2 (seed 15) and three in the left cup 1 (seed 7), rims 0.09-0.11 of the card's level below
the card. The bare card beside them, under the glare's slope and the print's blur, lay a few
per cent below the brightest card near it, under the crescent's step, and its darkest part
0.53-0.69 of the way down to the top weight's rim: read as a crescent, "a weight does not
show whole" where only the glare is. A weight under another shows its own rim, 0.97 of the
way and more (the strong near misses' crescents, tuning seeds 0-56), so a crescent now
reaches 0.8 of the way. Tuning cloth/strong 53, a near miss with a weight partly on another
in a washed cup (its crescent 1.11 of the way), is still asked about."""

from __future__ import annotations

import sys
from pathlib import Path

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
    cup_at,
    find_weights,
    whole_and_hidden,
)
from vision.enigma.settings import DEFAULT_PUZZLE_SETTINGS
from vision.enigma.synth.puzzle_table import TableCondition, render_table_frame

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from puzzle_checks import cases  # noqa: E402

CLOTH_STRONG = TableCondition("cloth", "strong")


def bench_frame(pack: EnigmaPack, seed: int, right: bool) -> np.ndarray:
    """The bench's cloth/strong frame of ``seed``: its right build or its near miss."""
    card, todo = cases("weight", seed, load_puzzles())
    _, solution, extra = next(case for case in todo if case[0] == right)
    return render_table_frame("weight", card, pack, solution=solution, seed=seed,
                              condition=CLOTH_STRONG, **extra)


def verdict_of(pack: EnigmaPack, seed: int, frame: np.ndarray) -> dict[str, str]:
    card, _ = cases("weight", seed, load_puzzles())
    return check_puzzle_frame("weight", frame, pack, card=card, box=load_puzzles())


@pytest.mark.parametrize("seed", [15, 7])
def test_washed_weights_side_by_side_are_counted(demo_pack: EnigmaPack, seed: int) -> None:
    """The right build is never "not solved"; on the builds the scenes were found on it is
    solved (base: "in the right cup 2 / left cup 1 a weight does not show whole")."""
    result = verdict_of(demo_pack, seed, bench_frame(demo_pack, seed, right=True))
    assert result["verdict"] != "not solved", result
    if SCENES_AS_FOUND:
        assert result["verdict"] == "solved", result


@pytest.mark.parametrize("seed", [15, 53])
def test_their_near_misses_are_never_solved(demo_pack: EnigmaPack, seed: int) -> None:
    """Seed 15's near miss (a weight in the wrong pan) and seed 53's (a weight partly on
    another in a washed cup): never "solved"; seed 53 is asked about where it was found."""
    result = verdict_of(demo_pack, seed, bench_frame(demo_pack, seed, right=False))
    assert result["verdict"] != "solved", result
    if SCENES_AS_FOUND and seed == 53:
        assert result["verdict"] == "cannot tell", result
        assert "does not show whole" in result["reason"], result


@pytest.mark.skipif(not SCENES_AS_FOUND, reason="another build draws the glare a few levels "
                    "otherwise; the verdicts above hold on any pixels")
def test_the_card_between_washed_weights_is_no_crescent(demo_pack: EnigmaPack) -> None:
    """Seed 15's right build: both washed weights of the right cup 2 are whole (the second
    found again beside the first) and no whole weight leaves a crescent (base: the first,
    from the card above and below the pair)."""
    card, _ = cases("weight", 15, load_puzzles())
    view = view_card(bench_frame(demo_pack, 15, right=True), demo_pack,
                     DEFAULT_PUZZLE_SETTINGS.mat)
    cups = weight_cups(card, demo_pack.tile_mm)
    level, places = find_weights(view, demo_pack)
    whole, hidden = whole_and_hidden(
        level, demo_pack, [wt for wt in places if wt.whole], crescent_mask(view, cups),
        lambda at: cup_at(view, cups, *at, IN_CUP) is not None)
    in_cup_2 = [wt for wt in whole if cup_at(view, cups, *wt.centre, IN_CUP) == cups[-1]]
    assert len(in_cup_2) == 2
    assert all(wt.card - wt.rim < 0.15 * wt.card for wt in in_cup_2), "both washed"
    assert hidden == []
