"""The puzzle checks' shape tests on drawn pictures: a card's outline is found by its step, a
weight is told from print of its grey by its face and rim, and a weight partly under another
is read from its crescent."""

from __future__ import annotations

import cv2
import numpy as np

from vision.enigma.puzzles.card_find import outline_steps


def test_the_outline_step_peaks_on_the_card_not_on_a_lit_patch_beside_it() -> None:
    image = np.full((200, 300), 0.45, np.float32)
    image[60:140, 40:120] = 0.9  # the card
    # a lamp's patch: nearly as bright, with soft edges (no step anywhere)
    lit = np.zeros_like(image)
    cv2.circle(lit, (220, 100), 50, 0.4, -1)
    image += cv2.GaussianBlur(lit, (0, 0), 15)
    steps = outline_steps(image, 80)
    y, x = np.unravel_index(int(np.argmax(steps)), steps.shape)
    assert abs(x - 80) <= 1 and abs(y - 100) <= 1, (x, y)
    assert steps[100, 220] < 0.3 * steps[y, x]
