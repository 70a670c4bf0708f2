"""The puzzle checks made cheaper (session 30), each cut giving what it replaced:

- the card search placed over every other coarse turn finds the card the placing over every
  coarse turn finds (corners within a pixel, seeded table frames, a conduit card among them:
  the placing's rivals decide there);
- a Gaussian blur made again in one window round overlapping places blurs fewer pixels than
  a window each, and gives the whole image's blur there;
- the mat's colour features made once a view are, cut to a box, the box's own features, and
  name the same nearest colours.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.enigma.puzzles.card_find as card_find
import vision.enigma.puzzles.changed_blur as changed_blur
import vision.enigma.puzzles.view as view
from tests.vision.enigma.card_search_pairs import cards_found_both_ways
from vision.enigma.colours import colour_features
from vision.enigma.mat import CardRect
from vision.enigma.puzzles.card_find import COARSE_TURNS, PLACE_TURNS, find_card_square
from vision.enigma.puzzles.changed_blur import blur_again, gaussian_reach
from vision.enigma.puzzles.view import mat_features, nearest_colour
from vision.enigma.synth.puzzle_table import TableCondition

#: (kind, table, light, seed) of tuning frames (seeds below 70000)
FRAMES = [("conduit", "cloth", "moderate", 1), ("fragment", "wood", "strong", 2)]


def every_turn_placed(balanced: np.ndarray, card_mm: float, *,
                      exclude: tuple[tuple[float, float, float], ...] = ()) -> CardRect:
    """The card found with the placing search over every coarse turn (as before session 30)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(card_find, "PLACE_TURNS", COARSE_TURNS)
        patch.setattr(card_find, "PLACE_TURNS_DEG", 3.0)
        return find_card_square(balanced, card_mm, exclude=exclude)


def test_the_placing_search_tries_every_other_coarse_turn() -> None:
    assert PLACE_TURNS == COARSE_TURNS[::2]


@pytest.mark.parametrize(("kind", "table", "light", "seed"), FRAMES)
def test_every_other_turn_places_the_card_where_every_turn_does(
        kind: str, table: str, light: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    fast, full = cards_found_both_ways(kind, TableCondition(table, light), seed, seed,
                                       every_turn_placed, monkeypatch)
    assert np.abs(fast.corners() - full.corners()).max() <= 1.0  # mat px


def test_overlapping_places_are_blurred_in_one_window(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(30)
    image = (rng.random((300, 340)) < 0.3).astype(np.float32)
    sigma = 6.0
    # three places whose windows (the blur's reach round each) overlap
    places = [(64, 40, 160, 136), (128, 96, 224, 192), (176, 150, 272, 246)]
    blurred_px: list[int] = []
    blur = cv2.GaussianBlur

    def counted(src: np.ndarray, ksize: tuple[int, int], s: float) -> np.ndarray:
        blurred_px.append(src.size)
        out: np.ndarray = blur(src, ksize, s)
        return out

    monkeypatch.setattr(changed_blur.cv2, "GaussianBlur", counted)
    again = blur_again(np.zeros_like(image), image, places, sigma)
    reach = gaussian_reach(sigma)
    one_each = sum((min(340, x1 + reach) - max(0, x0 - reach) // 32 * 32)
                   * (min(300, y1 + reach) - max(0, y0 - reach)) for x0, y0, x1, y1 in places)
    assert len(blurred_px) == 1 and blurred_px[0] < one_each
    whole = blur(image, (0, 0), sigma)
    for x0, y0, x1, y1 in places:
        np.testing.assert_allclose(again[y0:y1, x0:x1], whole[y0:y1, x0:x1], atol=1e-6)


def test_the_mats_features_cut_to_a_box_are_the_boxs_own() -> None:
    rng = np.random.default_rng(31)
    mat = cv2.GaussianBlur(rng.integers(0, 256, (240, 380, 3), dtype=np.uint8), (0, 0), 2)
    card_view = view.CardView(np.zeros((10, 10, 3), np.uint8), 5.0, 2.0, mat, (100.0, 100.0))
    feats = mat_features(card_view)
    assert mat_features(card_view) is feats  # made once a view
    box = np.s_[37:191, 55:302]
    np.testing.assert_allclose(feats[box], colour_features(mat[box]), rtol=1e-6)
    colours = {"red": (40, 40, 200), "table": (90, 110, 130), "card": (235, 235, 235)}
    labels, _ = nearest_colour(mat[box], colours, chroma_weight=0.3, features=feats[box])
    alone, _ = nearest_colour(mat[box], colours, chroma_weight=0.3)
    assert np.mean(labels == alone) > 0.999
    np.testing.assert_array_equal(feats[box], colour_features(mat)[box])  # left unscaled
