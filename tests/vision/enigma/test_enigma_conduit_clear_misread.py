"""A conduit piece read clearly and wrongly at the card's grid (issue #26, session 33): a
thick piece seen at a slant shows its print a tenth of a cell off the grid, and an open arm's
window there can lie on the channel's blurred edge and read as face. The right build was then
told "the piece on [2, 1] (openings W) is not one of the pieces to use": an answer against
the build is never given on the grid's read alone, the pieces are read again where their
prints lie."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.vision.enigma.independent_puzzle_frames import independent_frame

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
from independent_scenes.puzzle_judge import check_frame  # noqa: E402


def test_right_builds_misread_clearly_at_the_grid_are_solved() -> None:
    # independent puzzle scenes, conduit harsh (tuning seeds), base: "not solved: the piece on
    # [2, 1] (openings W) is not one of the pieces to use" (seed 12), "... on [2, 2]
    # (openings NE) ..." (seed 26)
    for seed in (12, 26):
        frame, card_id = independent_frame("conduit", "harsh", seed, True)
        verdict, reason, _ = check_frame(frame, "conduit", card_id)
        assert verdict == "solved", (seed, reason)


def test_the_near_miss_read_again_is_still_not_solved() -> None:
    frame, card_id = independent_frame("conduit", "harsh", 26, False)
    verdict, reason, _ = check_frame(frame, "conduit", card_id)
    assert verdict == "not solved", reason
