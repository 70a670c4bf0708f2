"""The fragment check on real pieces: pieces a few millimetres thick under a tilted camera, and
a checked cloth beside the card (issue #26)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.enigma.puzzles import load_puzzles
from vision.enigma.pack import load_enigma_pack
from vision.enigma.puzzles.check import check_puzzle_frame
from vision.enigma.puzzles.fragment_top import swept, swept_back, top_faces
from vision.enigma.synth.puzzle_table import TableCondition, render_table_frame


def _random_outline(rng: np.random.Generator) -> np.ndarray:
    """A convex piece's outline (the hull of a few random points), in pixels."""
    mask = np.zeros((200, 200), np.uint8)
    pts = rng.uniform(50, 150, (6, 2)).astype(np.int32)
    cv2.fillPoly(mask, [cv2.convexHull(pts)], 1)
    return mask.astype(bool)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_top_faces_undo_the_sweep_a_tilted_camera_sees(seed: int) -> None:
    rng = np.random.default_rng(seed)
    outline = _random_outline(rng)
    a = rng.uniform(0, 2 * np.pi)
    dx, dy = int(round(18 * np.cos(a))), int(round(18 * np.sin(a)))
    seen = swept(outline, dx, dy)
    assert seen.sum() > outline.sum() * 1.05  # the sides add to what is seen
    # at the right offset the sweep undone is the outline itself
    assert np.count_nonzero(swept_back(seen, dx, dy) ^ outline) < 0.02 * outline.sum()
    top, (ox, oy) = top_faces(seen, outline)
    assert abs(top.sum() - outline.sum()) < 0.04 * outline.sum()
    # the offset found explains the black seen: the top faces swept by it give it back
    assert np.count_nonzero(swept(top, ox, oy) ^ seen) < 0.05 * seen.sum()


def test_undoing_the_sweep_never_adds_black() -> None:
    rng = np.random.default_rng(7)
    seen = _random_outline(rng)
    top, _ = top_faces(seen, _random_outline(rng))
    assert not (top & ~seen).any()


def _frames(surface: str, seeds: list[int], height_mm: float
            ) -> list[tuple[bool, object, np.ndarray]]:
    """(is the build right, card, frame) for each seed: the bench's card, right build and
    near miss for the seed (bench/puzzle_checks.py)."""
    from pathlib import Path
    from sys import path

    path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    from puzzle_checks import cases

    box, pack = load_puzzles(), load_enigma_pack()
    out: list[tuple[bool, object, np.ndarray]] = []
    for seed in seeds:
        card, todo = cases("fragment", seed, box)
        for is_right, solution, extra in todo[:2]:
            frame = render_table_frame("fragment", card, pack, solution=solution, seed=seed,
                                       condition=TableCondition(surface, "mild"),
                                       fragment_height_mm=height_mm, **extra)
            out.append((is_right, card, frame))
    return out


@pytest.mark.parametrize("surface,seeds,height_mm", [
    # 4.5 mm thick pieces: their sides and shadow made the pieces' area 109-112% of the
    # silhouette, read "too close to call" or "the pieces reach outside" before
    # drawn through the frame's own pinhole camera (session 26) the tops are also enlarged
    # H/(H-h) and their offset grows across the card away from the nadir: the one-offset
    # undo (fragment_top.top_faces) leaves coverage 94-96%, "too close to call" (s26-thick,
    # tuning wood/mild 5 of 12 right builds): a known gap of the check, not yet fixed
    pytest.param("wood", [0, 1], 4.5, marks=pytest.mark.xfail(
        strict=True, reason="one-offset undo of the sweep; the camera also enlarges the tops")),
    # a navy checked cloth: its dark crossings along the card were "a piece lies beside the
    # card" for a right build
    ("checked", [5, 9], 0.0),
], ids=["thick-pieces", "checked-cloth-beside-the-card"])
def test_a_right_build_of_real_pieces_is_solved_and_a_wrong_build_never(
        surface: str, seeds: list[int], height_mm: float) -> None:
    pack = load_enigma_pack()
    for is_right, card, frame in _frames(surface, seeds, height_mm):
        said = check_puzzle_frame("fragment", frame, pack, card=card)
        if is_right:
            assert said["verdict"] == "solved", said["reason"]
        else:
            assert said["verdict"] != "solved", said["reason"]
