"""The Indigo read makes each image once and takes fewer passes (issue 20, read time): the
frame's grey shared by the markers and the picture check, the finer board's colour features
written where they are kept, the banded colour distance in fewer passes. Each faster path
gives what the one it replaced gave, on seeded images; speed is measured by bench/
(bench/figures/indigo_speed_s26.txt), never here."""

from __future__ import annotations

import cv2
import numpy as np

from vision.indigo.model import (
    FEW_PIXELS_AT_ONCE,
    GEM_SHADE_BAND,
    colour_features,
    nearest_banded,
)
from vision.picture import measure_inside, measure_picture, region_mask


def _picture(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    image = rng.integers(0, 256, (300, 400, 3), dtype=np.uint8)
    image[60:240, 90:330] = cv2.GaussianBlur(image[60:240, 90:330], (0, 0), 2 + seed % 3)
    return image


def test_measures_with_the_frames_grey_given_are_those_it_makes_itself() -> None:
    """A reader that found its markers in the frame's grey hands it to the picture check: the
    same measures as when the check converts its own box, outlines cut at any place."""
    for seed in range(3):
        image = _picture(seed)
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        rng = np.random.default_rng(100 + seed)
        for _ in range(25):
            centre = rng.uniform((-20, -20), (420, 320))
            outline = centre + rng.uniform(-150, 150, (5, 2))
            assert measure_inside(image, outline, gray=gray) == measure_inside(image, outline)
        mask = region_mask(image.shape, np.array([[30.0, 20], [350, 40], [300, 280]]))
        assert measure_picture(image, mask, gray=gray) == measure_picture(image, mask)


def test_features_written_into_a_part_of_a_board_are_the_features_made_apart() -> None:
    """The finer board's features go straight into its box of the zeroed board, to the bit;
    the rest of the board stays zero. An ``out`` whose rows OpenCV cannot write (every other
    column) is filled all the same."""
    for seed, saturation in ((0, 1.0), (1, 0.8), (2, 1.3)):
        rng = np.random.default_rng(seed)
        bgr = rng.integers(0, 256, (37, 53, 3), dtype=np.uint8)
        made = colour_features(bgr, saturation)
        board = np.zeros((70, 90, 3), np.float32)
        got = colour_features(bgr, saturation, out=board[11:48, 20:73])
        assert np.shares_memory(got, board)
        assert np.array_equal(board[11:48, 20:73], made)
        board[11:48, 20:73] = 0
        assert not board.any()
        strided = np.zeros((37, 106, 3), np.float32)
        colour_features(bgr, saturation, out=strided[:, ::2])
        assert np.array_equal(strided[:, ::2], made) and not strided[:, 1::2].any()


def test_the_brightness_beyond_the_band_clipped_is_the_two_sided_sum_to_the_bit() -> None:
    """The gem labels' banded distance takes the brightness beyond the shade band as the step
    less the step clipped to the band: the float32 sum of its two one-sided parts, at the
    band's edges and a float step either side of them too."""
    lo, hi = (np.float32(v) for v in GEM_SHADE_BAND)
    rng = np.random.default_rng(26)
    colours = rng.uniform([20, 20, 40], [120, 120, 110], (4, 3)).astype(np.float32)
    n = FEW_PIXELS_AT_ONCE  # past the few pixels worked all at once: the passes
    pixels = rng.uniform([20, 20, 20], [120, 120, 130], (n, 3)).astype(np.float32)
    edges = np.array([lo, hi, np.nextafter(lo, -np.inf), np.nextafter(lo, np.inf),
                      np.nextafter(hi, -np.inf), np.nextafter(hi, np.inf), 0.0], np.float32)
    pixels[: len(edges) * 4, 2] = (colours[:, 2][:, None] + edges[None, :]).ravel()
    least = np.full(n, np.inf, np.float32)
    index = np.zeros(n, np.intp)
    for k, colour in enumerate(colours):
        step = pixels[:, 2] - colour[2]
        beyond = np.maximum(step - hi, np.float32(0)) + np.minimum(step - lo, np.float32(0))
        d2 = (pixels[:, 0] - colour[0]) ** 2 + (pixels[:, 1] - colour[1]) ** 2 + beyond**2
        closer = d2 < least
        least[closer], index[closer] = d2[closer], k
    got_least, got_index = nearest_banded(np.ascontiguousarray(pixels.T), colours)
    assert np.array_equal(got_least, least) and np.array_equal(got_index, index)
