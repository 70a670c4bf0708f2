"""The card search made cheaper (session 29): each turn's score made only on the part of the
turned image its allowed centres read. On seeded table frames it finds the card the search
of whole turned images finds (corners within a pixel); and the part's measures are the whole
image's, cut."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import pytest

import vision.enigma.puzzles.card_find as card_find
from tests.vision.enigma.card_search_pairs import cards_found_both_ways
from vision.enigma.mat import CardRect
from vision.enigma.puzzles.card_find import (
    box_mean,
    find_card_square,
    measured_at,
    outline_steps,
)
from vision.enigma.synth.puzzle_table import TableCondition

#: (kind, table, light, seed) of tuning frames (seeds below 70000)
FRAMES = [("fragment", "wood", "moderate", 1), ("angular", "cloth", "strong", 2),
          ("weight", "wood", "mild", 0)]


def full_search(balanced: np.ndarray, card_mm: float, *,
                exclude: tuple[tuple[float, float, float], ...] = ()) -> CardRect:
    """The card found by the full search: each turned image scored whole."""
    with pytest.MonkeyPatch.context() as patch:
        # a part as large as the whole image: every measure made on the whole turned image
        patch.setattr(card_find, "measured_at", whole_then_cut)
        return find_card_square(balanced, card_mm, exclude=exclude)


def whole_then_cut(measure: Callable[[np.ndarray], np.ndarray], image: np.ndarray,
                   region: tuple[int, int, int, int], reach: int) -> np.ndarray:
    """``measure`` of the whole image, cut to ``region`` (``reach`` unused)."""
    x0, y0, x1, y1 = region
    return measure(image)[y0:y1, x0:x1]


@pytest.mark.parametrize(("kind", "table", "light", "seed"), FRAMES)
def test_the_scored_parts_find_the_whole_images_card(kind: str, table: str, light: str,
                                                     seed: int,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    fast, full = cards_found_both_ways(kind, TableCondition(table, light), seed, 0,
                                       full_search, monkeypatch)
    assert np.abs(fast.corners() - full.corners()).max() <= 1.0  # mat px


@pytest.mark.parametrize("size", [31, 60, 78, 120])
def test_a_parts_measures_are_the_whole_images_cut(size: int) -> None:
    rng = np.random.default_rng(size)
    image = cv2.GaussianBlur(rng.random((190, 230), dtype=np.float32), (0, 0), 2)
    for region in ((90, 80, 125, 112), (0, 0, 20, 30), (200, 150, 230, 190)):
        x0, y0, x1, y1 = region
        reach = size // 2 + 1
        part = measured_at(box_mean(size), image, region, reach)
        whole = cv2.boxFilter(image, -1, (size, size), borderType=cv2.BORDER_CONSTANT)
        np.testing.assert_allclose(part, whole[y0:y1, x0:x1], atol=1e-5)
    # the outline's steps read up to half the side and their step width from a pixel
    region = (95, 80, 130, 112)
    reach = int(round(card_find.STEP_WIDTH * size)) + size // 2 + 3
    part = measured_at(lambda lit: outline_steps(lit, size), image, region, reach)
    np.testing.assert_allclose(part, outline_steps(image, size)[80:112, 95:130], atol=1e-5)
