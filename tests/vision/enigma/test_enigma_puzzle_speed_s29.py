"""The thick fragment pieces' top-face search counts only where the masks are (session 29,
issue #21): each overlap is counted on the box holding the black and every scaled target
(not on the crop with a sweep's reach round them), each distinct shift once per top and
target, and the search still finds the map the whole search over every offset, scale and
place along the sweep finds (tests/vision/enigma/test_enigma_fragment_thick_search.py)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

import vision.enigma.puzzles.fragment_top as fragment_top
from vision.enigma.puzzles.fragment_top import TopMap, swept, top_faces


def _thick_scene(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A convex silhouette and what a tilted camera shows of pieces 4.5 mm thick on it."""
    rng = np.random.default_rng(seed)
    sil = np.zeros((320, 320), np.uint8)
    cv2.fillPoly(sil, [cv2.convexHull(rng.uniform(60, 260, (7, 2)).astype(np.int32))], 1)
    ys, xs = np.nonzero(sil)
    scale, a = rng.uniform(1.008, 1.02), rng.uniform(0, 2 * math.pi)
    shift = (scale - 1) * rng.uniform(800, 1600)
    camera = TopMap((int(round(shift * math.cos(a))), int(round(shift * math.sin(a)))), scale,
                    (float(xs.mean()), float(ys.mean())))
    return swept(sil.astype(bool), camera), sil.astype(bool)


@pytest.mark.parametrize("seed", range(3))
def test_the_top_search_counts_on_the_masks_box_each_shift_once(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    seen, sil = _thick_scene(seed)
    ys, xs = np.nonzero(seen | sil)
    counted: list[tuple[np.ndarray, np.ndarray, int, int]] = []
    plain = fragment_top.overlap

    def spy(a: np.ndarray, b: np.ndarray, sx: int, sy: int) -> int:
        counted.append((a, b, sx, sy))  # the masks held, so that no two share an id
        return plain(a, b, sx, sy)

    monkeypatch.setattr(fragment_top, "overlap", spy)
    top, found = top_faces(seen, sil)
    assert counted and found.offset != (0, 0)
    # the targets scaled by at most 1.02 about the silhouette's middle reach a few pixels
    # past the black's box; the crop kept a sweep's reach (26 pixels) round it on each side
    box = (int(ys.max() - ys.min()) + 1, int(xs.max() - xs.min()) + 1)
    assert all(a.shape[0] <= box[0] + 12 and a.shape[1] <= box[1] + 12 for a, *_ in counted)
    keys = [(id(a), id(b), sx, sy) for a, b, sx, sy in counted]
    assert len(keys) == len(set(keys))
    # the tops found are the black swept back by the map found, brought back to their size
    assert top.shape == seen.shape and not (top & ~seen).any()
