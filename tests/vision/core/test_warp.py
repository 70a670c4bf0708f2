"""The warp's remap maps, built by broadcasting, equal the straightforward full-grid build to
the bit (any change there moves pixels, and the Enigma checks' decisions with them)."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.warp import (
    MAP_BAND_ROWS,
    is_seen_whole,
    perspective_maps,
    warp_affine,
    warp_perspective,
    warp_perspective_seen,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

# the maps as first written, kept by the warp bench as its reference
from warp import old_maps as _reference_maps  # noqa: E402


def _homography(rng: np.random.Generator, src: tuple[int, int], dst: tuple[int, int]
                ) -> np.ndarray:
    """A camera-like homography: the source rectangle's corners, jittered, onto ``dst``."""
    sw, sh = src
    corners = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float32)
    seen = corners * rng.uniform(0.2, 0.8) + rng.uniform(-0.1, 0.1, (4, 2)) * [sw, sh]
    seen += [sw * 0.1, sh * 0.1]
    dw, dh = dst
    out = np.array([[0, 0], [dw, 0], [dw, dh], [0, dh]], np.float32)
    return cv2.getPerspectiveTransform(seen.astype(np.float32), out).astype(np.float64)


def _rotation(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    m = cv2.getRotationMatrix2D((size[0] / 2, size[1] / 2), rng.uniform(-180, 180),
                                rng.uniform(0.8, 1.2))
    return np.vstack([m, [0.0, 0.0, 1.0]])


SIZES = [((2304, 1296), (1003, 875)), ((2304, 1296), (816, 816)), ((184, 150), (184, 150)),
         ((80, 60), (1, 37)), ((60, 40), (7, 1))]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("src,dst", SIZES)
def test_maps_equal_the_full_grid_build_to_the_bit(seed: int, src: tuple[int, int],
                                                   dst: tuple[int, int]) -> None:
    rng = np.random.default_rng(seed)
    for matrix in (_homography(rng, src, dst), _rotation(rng, dst)):
        got_x, got_y = perspective_maps(matrix, dst)
        ref_x, ref_y = _reference_maps(matrix, dst)
        assert got_x.dtype == np.float32 and got_x.shape == (dst[1], dst[0])
        assert got_x.tobytes() == ref_x.tobytes() and got_y.tobytes() == ref_y.tobytes()


def test_a_horizon_in_the_output_is_clamped_like_the_full_grid_build() -> None:
    """A strong tilt puts the projective denominator's zero inside the output: the clamp
    applies there, and only there, as before (NaN and infinity compare by their bits)."""
    matrix = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.02, 1.0]])
    size = (40, 120)
    got_x, got_y = perspective_maps(matrix, size)
    ref_x, ref_y = _reference_maps(matrix, size)
    inv = np.linalg.inv(matrix)
    den = inv[2, 1] * np.arange(size[1]) + inv[2, 2]
    assert den.min() < 0 < den.max()  # the horizon is inside, so the test can fail
    assert got_x.tobytes() == ref_x.tobytes() and got_y.tobytes() == ref_y.tobytes()


def test_warps_remap_through_those_maps() -> None:
    rng = np.random.default_rng(3)
    image = (rng.random((120, 160, 3)) * 255).astype(np.uint8)
    matrix = _homography(rng, (160, 120), (90, 70))
    ref_x, ref_y = _reference_maps(matrix, (90, 70))
    m1, m2 = cv2.convertMaps(ref_x, ref_y, cv2.CV_16SC2)
    expected = cv2.remap(image, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    assert np.array_equal(warp_perspective(image, matrix, (90, 70)), expected)
    assert np.array_equal(warp_affine(image, matrix[:2], (90, 70)),
                          warp_perspective(image, np.vstack([matrix[:2], [0, 0, 1]]), (90, 70)))


@pytest.mark.parametrize("seed", range(12))
def test_the_seen_mask_is_where_the_rounded_source_point_lies_inside(seed: int) -> None:
    """``warp_perspective_seen``'s mask: seen where the source point, taken to 1/32 pixel as
    the fixed-point maps keep it and then to the nearest pixel, lies inside the picture, on
    every OpenCV version (4.10's nearest remap of a white picture differs from 4.11's by a
    pixel at the edge); its warp is ``warp_perspective``'s."""
    rng = np.random.default_rng(seed)
    src = (int(rng.integers(60, 300)), int(rng.integers(60, 300)))
    dst = (int(rng.integers(60, 300)), int(rng.integers(60, 300)))
    image = (rng.random((src[1], src[0], 3)) * 255).astype(np.uint8)
    # a camera-like tilt that puts the picture's edges across the output, so both seen and
    # unseen pixels are there
    matrix = np.array([[rng.uniform(0.6, 1.4), rng.uniform(-0.2, 0.2), rng.uniform(-40, 40)],
                       [rng.uniform(-0.2, 0.2), rng.uniform(0.6, 1.4), rng.uniform(-40, 40)],
                       [rng.uniform(-1e-3, 1e-3), rng.uniform(-1e-3, 1e-3), 1.0]])
    warped, seen = warp_perspective_seen(image, matrix, dst)
    map_x, map_y = perspective_maps(matrix, dst)
    nearest_x = np.floor((np.rint(map_x.astype(np.float64) * 32) + 16) / 32)
    nearest_y = np.floor((np.rint(map_y.astype(np.float64) * 32) + 16) / 32)
    expected = (nearest_x >= 0) & (nearest_x < src[0]) & (nearest_y >= 0) & (nearest_y < src[1])
    assert 0 < expected.sum() < expected.size
    assert np.array_equal(seen, expected)
    assert np.array_equal(warped, warp_perspective(image, matrix, dst))


@pytest.mark.parametrize("reach", [-0.7, -0.3, 0.3, 0.7])
def test_a_warp_reaching_the_pictures_edge_is_seen_as_it_rounds(reach: float) -> None:
    """An output that lies wholly inside the picture but reaches ``reach`` pixels past its
    last pixel's centre (or before its first): seen where the source point rounds inside,
    as a warp whose every source pixel lies inside (the mask's shortcut) must keep it."""
    rng = np.random.default_rng(5)
    src, dst = (50, 40), (30, 20)
    image = (rng.random((src[1], src[0], 3)) * 255).astype(np.uint8)
    # output pixel (x, y) shows source (x + dx, y + dy): the last (or first) row and column
    # reach ``reach`` past the picture's edge pixels
    dx = src[0] - dst[0] + reach if reach > 0 else reach
    dy = src[1] - dst[1] + reach if reach > 0 else reach
    matrix = np.array([[1.0, 0.0, -dx], [0.0, 1.0, -dy], [0.0, 0.0, 1.0]])
    warped, seen = warp_perspective_seen(image, matrix, dst)
    map_x, map_y = perspective_maps(matrix, dst)
    nearest_x = np.floor((np.rint(map_x.astype(np.float64) * 32) + 16) / 32)
    nearest_y = np.floor((np.rint(map_y.astype(np.float64) * 32) + 16) / 32)
    expected = (nearest_x >= 0) & (nearest_x < src[0]) & (nearest_y >= 0) & (nearest_y < src[1])
    assert expected.all() == (abs(reach) < 0.5)
    assert np.array_equal(seen, expected)
    assert np.array_equal(warped, warp_perspective(image, matrix, dst))


def test_maps_of_many_bands_of_rows_equal_the_full_grid_build() -> None:
    """Maps taller than a band of rows (and not a whole number of bands) are built band by
    band: the same bits as the full grid's."""
    rng = np.random.default_rng(9)
    for dst in ((90, 1 + 3 * MAP_BAND_ROWS), (33, MAP_BAND_ROWS + 1)):
        for matrix in (_homography(rng, (200, 260), dst), _rotation(rng, dst)):
            got_x, got_y = perspective_maps(matrix, dst)
            ref_x, ref_y = _reference_maps(matrix, dst)
            assert got_x.tobytes() == ref_x.tobytes() and got_y.tobytes() == ref_y.tobytes()


@pytest.mark.parametrize("step", [1, 2, 3])
@pytest.mark.parametrize("origin", [(0, 0), (17, 5)])
def test_a_sampled_part_of_a_warp_is_that_part_of_the_whole_warp(step: int,
                                                                 origin: tuple[int, int]) -> None:
    """``warp_perspective(origin=, step=)``: every ``step``-th pixel from ``origin`` of the
    whole warp, to the bit (a read after a placement straightens the table so)."""
    rng = np.random.default_rng(step)
    image = (rng.random((300, 400, 3)) * 255).astype(np.uint8)
    matrix = _homography(rng, (400, 300), (211, 173))
    whole = warp_perspective(image, matrix, (211, 173))
    want = whole[origin[1]::step, origin[0]::step]
    size = (want.shape[1], want.shape[0])
    assert np.array_equal(warp_perspective(image, matrix, size, origin=origin, step=step), want)


@pytest.mark.parametrize("seed", range(12))
def test_a_warp_judged_seen_whole_is_all_seen(seed: int) -> None:
    """``is_seen_whole`` says so only when ``warp_perspective_seen`` sees every pixel, and
    says so for an output well inside the picture (seeded tilts: both answers come up)."""
    rng = np.random.default_rng(seed)
    src, dst = (320, 240), (int(rng.integers(60, 200)), int(rng.integers(60, 200)))
    image = (rng.random((src[1], src[0], 3)) * 255).astype(np.uint8)
    matrix = np.array([[rng.uniform(0.6, 1.4), rng.uniform(-0.2, 0.2), rng.uniform(-120, 40)],
                       [rng.uniform(-0.2, 0.2), rng.uniform(0.6, 1.4), rng.uniform(-120, 40)],
                       [rng.uniform(-1e-3, 1e-3), rng.uniform(-1e-3, 1e-3), 1.0]])
    _, seen = warp_perspective_seen(image, matrix, dst)
    if is_seen_whole(matrix, dst, image.shape):
        assert seen.all()
    inside = np.array([[1.0, 0.0, -3.0], [0.0, 1.0, -3.0], [0.0, 0.0, 1.0]])  # src 3 px in
    assert is_seen_whole(inside, (src[0] - 6, src[1] - 6), image.shape)
    assert not is_seen_whole(inside, (src[0] - 4, src[1] - 4), image.shape)


def test_warps_seen_whole_and_not_both_come_up_in_the_seeded_tilts() -> None:
    answers = set()
    for seed in range(12):
        rng = np.random.default_rng(seed)
        dst = (int(rng.integers(60, 200)), int(rng.integers(60, 200)))
        matrix = np.array([[rng.uniform(0.6, 1.4), rng.uniform(-0.2, 0.2),
                            rng.uniform(-120, 40)],
                           [rng.uniform(-0.2, 0.2), rng.uniform(0.6, 1.4),
                            rng.uniform(-120, 40)],
                           [rng.uniform(-1e-3, 1e-3), rng.uniform(-1e-3, 1e-3), 1.0]])
        answers.add(is_seen_whole(matrix, dst, (240, 320, 3)))
    assert answers == {True, False}


def test_a_warp_across_its_horizon_is_never_judged_seen_whole() -> None:
    """The source points of the output's corners all lie inside the picture, but the output
    crosses the view's horizon between them (the denominators' signs differ): its middle
    comes from far outside."""
    to_source = np.array([[-2.0, 0.0, 50.0], [-2.0, 0.1, 50.0], [-0.02, 0.0, 1.0]])
    image = np.zeros((240, 320, 3), np.uint8)
    _, seen = warp_perspective_seen(image, np.linalg.inv(to_source), (100, 60))
    assert not seen.all()
    assert not is_seen_whole(np.linalg.inv(to_source), (100, 60), image.shape)
