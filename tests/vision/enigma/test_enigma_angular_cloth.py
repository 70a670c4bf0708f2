"""An angular structure on a red cloth under a strong lamp: the red piece is told from the
cloth by the cloth beside it, under the same light.

Measured once round the mat's markers, the red cloth is within a few levels of the red piece,
and the cloth in the lamp's hotspot joined the structure: a right structure was "cannot tell:
does not fit a grid of cubes" (tuning cloth/strong seeds 4, 5, 7)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from companion.enigma.puzzles import load_puzzles
from vision.enigma.puzzles.angular_cloth import local_table, piece_not_table
from vision.enigma.puzzles.check import check_puzzle
from vision.enigma.synth.puzzle_table import TableCondition, render_table_frame
from vision.enigma.synth.puzzles import default_solution, near_misses

STRONG_CLOTH = TableCondition("cloth", "strong")


def _cases(seed: int):
    """The bench's cases for ``seed``: the card (taking turns) and its right solution and one
    near miss."""
    box = load_puzzles()
    cards = list(box.angular.cards.values())
    card = cards[seed % len(cards)]
    answer = default_solution("angular", card, box)
    misses = near_misses("angular", card, answer, box, random.Random(seed))
    _, wrong, extra = misses[seed % len(misses)]
    return box, card, answer, wrong, extra


@pytest.mark.parametrize("seed", [4, 5])
def test_a_right_structure_on_red_cloth_under_a_strong_lamp_is_solved(demo_pack, seed) -> None:
    box, card, answer, _, _ = _cases(seed)
    frame = render_table_frame("angular", card, demo_pack, condition=STRONG_CLOTH,
                               solution=answer, seed=seed)
    said = check_puzzle("angular", frame, demo_pack, card=card, box=box)
    assert said.verdict == "solved", said.reason


@pytest.mark.parametrize("seed", [4, 5])
def test_a_near_miss_on_red_cloth_under_a_strong_lamp_is_not_solved(demo_pack, seed) -> None:
    box, card, _, wrong, extra = _cases(seed)
    frame = render_table_frame("angular", card, demo_pack, condition=STRONG_CLOTH,
                               solution=wrong, seed=seed, **extra)
    said = check_puzzle("angular", frame, demo_pack, card=card, box=box)
    assert said.verdict != "solved", said.reason


def test_cloth_brightened_by_a_lamp_is_table_and_a_red_square_on_it_a_piece() -> None:
    """A red cloth lit from one side (a third brighter there), noisy, with a red piece's
    square where the cloth is dim: measured beside each place, the lit cloth is table and
    the square is piece."""
    cloth, piece = (46, 50, 172), (43, 57, 192)
    h, w, cube = 240, 480, 24
    light = np.linspace(1.0, 1.35, w, dtype=np.float32)[None, :, None]
    mat = np.broadcast_to(np.float32(cloth) * light, (h, w, 3)).copy()
    mat[96:144, 48:96] = piece
    mat += np.random.default_rng(3).normal(0.0, 2.0, mat.shape).astype(np.float32)
    mat = np.clip(mat, 0, 255).astype(np.uint8)
    candidates = np.ones((h, w), bool)
    field = local_table(mat, candidates, cube)
    piece_px = piece_not_table(mat, candidates, piece, cloth, field)
    assert piece_px[100:140, 52:92].mean() > 0.9
    assert piece_px[:, 300:].mean() < 0.1
