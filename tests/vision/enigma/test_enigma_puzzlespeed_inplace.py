"""The puzzle checks' speed savings of session 26 are exact: the fragment check's lifted black
made in one array, and the nearest colours without the identity scale, give what the replaced
code (kept here as the reference) gave, to the bit."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.enigma.puzzles.fragment as fragment_check
from vision.enigma.colours import colour_features
from vision.enigma.puzzles.fragment import lifted_black
from vision.enigma.puzzles.view import nearest_colour


def _old_lifted_black(weight: np.ndarray, total: np.ndarray, floor: np.ndarray,
                      g_card: float) -> np.ndarray:
    own = np.minimum(total / np.maximum(weight, 1e-6), fragment_check.MAX_OWN_BLACK * g_card)
    out: np.ndarray = np.where(weight >= fragment_check.OWN_BLACK_WEIGHT,
                               np.maximum(floor, own), floor)
    return out


def _old_nearest_colour(image: np.ndarray, colours: dict[str, tuple[int, int, int]],
                        chroma_weight: float) -> np.ndarray:
    names = list(colours)
    scale = np.array([chroma_weight, chroma_weight, 1.0], np.float32)
    feats = colour_features(image) * scale
    centres = np.array([colour_features(np.array(colours[name], np.float32)) * scale
                        for name in names], np.float32)
    affine = np.hstack([-2.0 * centres, (centres * centres).sum(axis=1, keepdims=True)])
    closeness = cv2.transform(feats.reshape(-1, 1, 3), affine.astype(np.float32))
    best = closeness.reshape(-1, len(names)).argmin(axis=1).astype(np.int32)
    out: np.ndarray = best.reshape(image.shape[:2])
    return out


@pytest.mark.parametrize("seed", range(20))
def test_lifted_black_in_one_array_is_the_same_bits(seed: int) -> None:
    rng = np.random.default_rng(seed)
    h, w = rng.integers(1, 90, 2)
    # blurred masks: 0, the weight's threshold exactly, 1, tiny, and everything between
    weight = rng.choice([0.0, fragment_check.OWN_BLACK_WEIGHT, 1.0, 1e-7],
                        (h, w)).astype(np.float32)
    weight = np.where(rng.random((h, w)) < 0.5, rng.random((h, w)), weight).astype(np.float32)
    total = (weight * rng.uniform(0, 255, (h, w))).astype(np.float32)
    floor = rng.uniform(10, 200, (h, w)).astype(np.float32)
    g_card = float(rng.uniform(180, 250))
    new = lifted_black(weight, total, floor, g_card)
    old = _old_lifted_black(weight, total, floor, g_card)
    assert new.dtype == old.dtype == np.float32
    assert np.array_equal(new.view(np.uint32), old.view(np.uint32))


@pytest.mark.parametrize("chroma_weight", [1.0, 0.3])
def test_nearest_colour_without_the_identity_scale_is_the_same(chroma_weight: float) -> None:
    rng = np.random.default_rng(26)
    colours = {"red": (40, 40, 200), "green": (60, 170, 60), "table": (90, 120, 150),
               "card": (235, 235, 230), "black": (20, 20, 20), "white": (250, 250, 250)}
    for _ in range(10):
        h, w = rng.integers(1, 60, 2)
        image = rng.integers(0, 256, (h, w, 3)).astype(np.uint8)
        labels, names = nearest_colour(image, colours, chroma_weight=chroma_weight)
        assert names == list(colours)
        old = _old_nearest_colour(image, colours, chroma_weight)
        assert np.array_equal(labels, old)
