"""The tile reader's fast paths give exactly what the general functions gave: the small-array
median, the bright pixels of the ring a patch is balanced on, and the ring round a pawn
counted eighth by eighth."""

from __future__ import annotations

import math
import warnings

import cv2
import numpy as np
import pytest

from vision.enigma.patch_labels import BRIGHT_PERCENTILE, balance_ring, brightest_at_rank
from vision.enigma.pawn_patch import RING_ALL_ROUND, ring_all_round
from vision.enigma.small_stats import masked_byte_medians, median
from vision.enigma.squares import Cover, any_positive


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint8])
def test_median_is_numpys_on_random_arrays(dtype: type) -> None:
    rng = np.random.default_rng(21)
    for n in range(1, 80):
        flat = (rng.random(n) * 255).astype(dtype)
        rows = (rng.random((n, 3)) * 255).astype(dtype)
        for got, want in ((median(flat), np.median(flat)),
                          (median(rows, axis=0), np.median(rows, axis=0)),
                          (median(list(flat.tolist())), np.median(list(flat.tolist())))):
            assert np.asarray(got).dtype == np.asarray(want).dtype
            assert np.array_equal(got, want)


def test_median_of_nothing_is_numpys_nan() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert np.isnan(median(np.zeros((0, 3), np.float32), axis=0)).all()
        assert np.isnan(median(np.zeros(0)))


@pytest.mark.parametrize("p", [32, 45, 64, 97, 128, 160])
def test_bright_ring_pixels_are_those_at_the_percentile(p: int) -> None:
    rng = np.random.default_rng(p)
    border, rank = balance_ring(p)
    for _ in range(20):
        patch = rng.integers(0, 256, (p, p, 3)).astype(np.uint8)
        patch[rng.random((p, p)) < 0.3] = rng.integers(0, 256, 3).astype(np.uint8)  # ties
        ring = patch[border].astype(np.float32)
        want = ring[ring.sum(axis=1) >= np.percentile(ring.sum(axis=1), BRIGHT_PERCENTILE)]
        assert np.array_equal(brightest_at_rank(patch[border], rank), want)
        floats = patch[border].astype(np.float32) + 0.25
        assert np.array_equal(brightest_at_rank(floats, rank), floats[
            floats.sum(axis=1) >= np.percentile(floats.sum(axis=1), BRIGHT_PERCENTILE)])


def _ring_and_eighths(r_in: float, r_out: float) -> tuple[np.ndarray, np.ndarray]:
    """The ring between the radii (a kernel round its middle) and each pixel's eighth of it."""
    k = int(math.ceil(r_out))
    yy, xx = np.mgrid[-k : k + 1, -k : k + 1]
    rr = xx * xx + yy * yy
    ring = (rr <= r_out * r_out) & (rr > r_in * r_in)
    part = np.floor((np.arctan2(yy, xx) + math.pi) / (2 * math.pi) * 8).astype(int) % 8
    return ring, part


@pytest.mark.parametrize("p", [32, 64, 100])
def test_ring_all_round_counts_each_eighth_as_a_filter_does(p: int) -> None:
    rng = np.random.default_rng(p)
    for pack_radii in ((0.07, 0.11), (0.075, 0.12)):  # pawn and cell radii, as shares
        r_in, r_out = pack_radii[0] * p * 1.15, pack_radii[1] * p * 1.05
        ring, part = _ring_and_eighths(r_in, r_out)
        for _ in range(5):
            ringed = rng.random((p, p)) < rng.uniform(0.3, 0.7)
            want = np.ones((p, p), bool)
            for s in range(8):
                kernel = (ring & (part == s)).astype(np.float32)
                counts = cv2.filter2D(ringed.astype(np.float32), -1, kernel,
                                      borderType=cv2.BORDER_CONSTANT)
                want &= np.round(counts) >= RING_ALL_ROUND * kernel.sum()
            assert np.array_equal(ring_all_round(ringed, r_in, r_out), want)


@pytest.mark.parametrize("n_maps", [1, 4, 6, 8, 11])
def test_any_positive_is_the_largest_map_above_zero(n_maps: int) -> None:
    """The squares' tile test: any of the affine maps positive, as the largest of them taken
    four at a time (the old way) above zero, on features near every map's zero too."""
    rng = np.random.default_rng(n_maps)
    feats = (rng.random((61, 47, 3)) * 40 - 20).astype(np.float32)
    maps = rng.normal(size=(n_maps, 4)).astype(np.float32)
    # each map positive on about a twentieth of the pixels: some pixels are tile, some not
    for row in maps:
        row[3] = -np.quantile(feats.reshape(-1, 3) @ row[:3], 0.95)
    largest = np.full(feats.shape[:2], -np.inf, np.float32)
    for k in range(0, n_maps, 4):
        part = cv2.transform(feats, maps[k:k + 4]).reshape(*feats.shape[:2], -1)
        for channel in cv2.split(part):
            largest = cv2.max(largest, channel)
    got = any_positive(feats, maps)
    assert 0 < got.sum() < got.size
    assert np.array_equal(got, largest > 0)


def test_masked_byte_medians_are_numpys_median_under_the_mask() -> None:
    """The table ring's medians counted under the ring's mask: numpy's median of the pixels
    the mask picks, odd and even counts, few levels (ties) and many, on a box cut out of a
    larger image (a view, as the ring's box is)."""
    rng = np.random.default_rng(32)
    for size in (1, 2, 3, 8, 40, 151):
        for levels in (2, 7, 256):
            image = (rng.integers(0, levels, (size + 4, size + 6, 3))
                     * (255 // max(1, levels - 1))).astype(np.uint8)
            box = image[2:2 + size, 3:3 + size]
            mask = rng.random((size, size)) < rng.uniform(0.05, 0.9)
            mask[rng.integers(0, size), rng.integers(0, size)] = True
            got = masked_byte_medians(box, mask.view(np.uint8))
            want = np.median(box[mask], axis=0)
            assert got.dtype == want.dtype and np.array_equal(got, want)


@pytest.mark.parametrize("step,origin", [(1, (0, 0)), (2, (0, 0)), (2, (6, 4)), (3, (9, 3))])
def test_cover_box_sums_count_the_samples_in_each_box(step: int, origin: tuple[int, int]
                                                      ) -> None:
    """see_squares' sums of many boxes at once: per box, the set samples (every ``step``-th
    pixel from ``origin``) inside it, times the pixels a sample stands for; boxes reaching
    past the measured part, and empty ones, as well."""
    rng = np.random.default_rng(step * 10 + origin[0])
    mask = rng.random((40, 50)) < 0.4
    integral = cv2.integral(mask.astype(np.float32))
    height, width = origin[1] + step * mask.shape[0], origin[0] + step * mask.shape[1]
    cover = Cover(integral, integral, integral, width, height, step, origin)
    xa, ya = rng.integers(-10, width + 5, 300), rng.integers(-10, height + 5, 300)
    xb, yb = xa + rng.integers(-3, 40, 300), ya + rng.integers(-3, 40, 300)
    got = cover.box_sums(cover.tile, xa, ya, xb, yb)
    xs = origin[0] + step * np.arange(mask.shape[1])
    ys = origin[1] + step * np.arange(mask.shape[0])
    for k in range(300):
        inside = np.outer((ys >= ya[k]) & (ys < yb[k]), (xs >= xa[k]) & (xs < xb[k]))
        assert got[k] == (mask & inside).sum() * step * step
        assert cover.box_sum(cover.tile, xa[k], ya[k], xb[k], yb[k]) == got[k]


@pytest.mark.parametrize("within", [None, (37, 22, 190, 141)])
def test_cover_told_in_the_middles_only_counts_as_told_everywhere(demo_pack, within) -> None:
    """see_squares tells tile from table only in the squares' middles (the only boxes its
    tile pixels are counted in) and marks the markers' zones on the samples themselves: the
    middles' tile counts, and the seen and counted pixels everywhere, are those of the
    colour told on every sample and the zones marked on every pixel (random pictures, a
    seen mask with holes, zones on and off the samples' rows, squares partly outside)."""
    from vision.enigma.squares import COVER_STEP, square_middles, tile_cover

    rng = np.random.default_rng(26)
    art = [demo_pack.colour(name) for name in ("tile", "channel", "table", "table")]
    for _ in range(6):
        canon = np.array(art, np.uint8)[rng.integers(0, 4, (151, 203))]
        canon = cv2.add(canon, rng.integers(0, 40, canon.shape).astype(np.uint8))
        seen = rng.random(canon.shape[:2]) > 0.1
        zones = [tuple(float(v) for v in rng.uniform(-20, 210, 4)) for _ in range(4)]
        centres = [(float(x), float(y)) for x in rng.uniform(-30, 230, 6)
                   for y in rng.uniform(-30, 180, 5)]
        middles = square_middles(centres, 22.4)
        told_in_middles = tile_cover(canon, demo_pack, zones, seen, within, middles=middles)
        told_everywhere = tile_cover(canon, demo_pack, zones, seen, within)
        xa, xb, ya, yb = middles
        assert np.array_equal(told_in_middles.box_sums(told_in_middles.tile, xa, ya, xb, yb),
                              told_everywhere.box_sums(told_everywhere.tile, xa, ya, xb, yb))
        # the zones marked on every pixel, then sampled, as they were
        x0, y0 = (0, 0) if within is None else (within[0] - within[0] % COVER_STEP,
                                                within[1] - within[1] % COVER_STEP)
        x1, y1 = (canon.shape[1], canon.shape[0]) if within is None else within[2:]
        counted = seen[y0:y1, x0:x1].copy()
        for z in zones:
            counted[max(0, int(z[1]) - y0):max(0, int(z[3]) + 1 - y0),
                    max(0, int(z[0]) - x0):max(0, int(z[2]) + 1 - x0)] = False
        step = COVER_STEP
        for cover in (told_in_middles, told_everywhere):
            assert np.array_equal(cover.counted,
                                  cv2.integral(counted[::step, ::step].astype(np.float32)))
            assert np.array_equal(cover.seen, cv2.integral(
                seen[y0:y1, x0:x1][::step, ::step].astype(np.float32)))


def test_an_openings_share_is_the_mean_of_its_window(demo_pack) -> None:
    """judge_openings counts an opening's channel pixels over its window's usable ones:
    numpy's mean of the window, since the channel masks hold only 0 and 1 (random patches of
    the pack's colours, cells and channels among them)."""
    from vision.enigma.colours import colour_model
    from vision.enigma.openings import judge_openings, usual_side_share
    from vision.enigma.settings import DEFAULT_SETTINGS
    from vision.enigma.tile import look_at_tile
    from vision.enigma.tile_doubts import TileDoubts

    model = colour_model(demo_pack)
    colours = np.array([demo_pack.colour(n) for n in ("tile", "channel", "tile")]
                       + list(demo_pack.cells.values()), np.uint8)
    rng = np.random.default_rng(7)
    st = DEFAULT_SETTINGS
    for _ in range(12):
        blocks = colours[rng.integers(0, len(colours), (8, 8))]
        patch = cv2.resize(blocks, (64, 64), interpolation=cv2.INTER_NEAREST)
        look = look_at_tile(patch, demo_pack, model)
        assert set(np.unique(look.at_sides).tolist()) <= {0, 1}
        usable = rng.random((64, 64)) > 0.2
        _, margins = judge_openings(look.at_sides, look.named.dark, usable, look.windows,
                                     demo_pack.ports, st, TileDoubts())
        usual = usual_side_share(look.at_sides, usable, look.windows)
        for q, box in look.windows.boxes.items():
            seen = usable[box]
            f = (float(look.at_sides[box][seen].mean()) if np.count_nonzero(seen) >= 4
                 else 0.0)
            share = max(0.0, f - usual[q.side]) / max(1e-6, 1.0 - usual[q.side])
            cap = min(1.0, 0.5 + abs(share - st.port_min_fraction) / st.port_min_fraction)
            assert margins.get(q, 1.0) == cap


def _lowest_within_by_numpy(m: np.ndarray, centre: tuple[float, float], radius: float
                            ) -> tuple[float, tuple[float, float]]:
    """The pawn search's smallest value within a radius, as numpy first found it (over the
    same window)."""
    from vision.enigma.pawn_patch import nearest_pixel, search_window

    r, x0, x1, y0, y1 = search_window(m.shape[0], centre, radius)
    yy, xx = np.arange(y0, y1)[:, None], np.arange(x0, x1)[None, :]
    window = (xx - centre[0]) ** 2 + (yy - centre[1]) ** 2 <= r * r
    if not window.any():
        x, y = nearest_pixel(m.shape[0], centre)
        return float(m[y, x]), (float(x), float(y))
    masked = np.where(window, m[y0:y1, x0:x1], np.inf)
    y, x = np.unravel_index(int(np.argmin(masked)), masked.shape)
    return float(masked[y, x]), (float(x + x0), float(y + y0))


def test_the_smallest_value_round_a_place_is_numpys() -> None:
    """networkers.lowest_within walks its few dozen pixels in Python: the same value and place
    as numpy's masked argmin, the first of equal values in row order, windows cut by the patch's
    edges, pixels right on its rim and empty ones (a place off the patch) included."""
    from vision.enigma.pawn_patch import lowest_within

    rng = np.random.default_rng(12)
    for _ in range(300):
        m = rng.integers(0, 6, (64, 64)).astype(np.float32) / 4  # many equal values
        centre = (float(rng.uniform(-4, 68)), float(rng.uniform(-4, 68)))
        if rng.random() < 0.5:  # whole and half pixels: places right on the window's rim
            centre = (round(centre[0] * 2) / 2, round(centre[1]))
        radius = float(rng.choice([0.3, 0.75, 1.0, 2.6, 4.2]))
        assert lowest_within(m, centre, radius) == _lowest_within_by_numpy(m, centre, radius)


@pytest.mark.parametrize("p", [32, 64, 100])
def test_ring_all_round_but_open_eighths_counts_as_a_filter_does(p: int) -> None:
    """The eighths counted once (:func:`ringed_eighths`) give, for any number of eighths
    left open, what a filter per eighth gives: the pale-pocket check reuses the counts the
    pawn search made."""
    from vision.enigma.pawn_patch import all_round_but, ringed_eighths

    rng = np.random.default_rng(p + 1)
    r_in, r_out = 0.07 * p * 1.15, 0.11 * p * 1.05
    ring, part = _ring_and_eighths(r_in, r_out)
    for _ in range(5):
        ringed = rng.random((p, p)) < rng.uniform(0.3, 0.7)
        full = np.zeros((p, p), np.uint8)
        for s in range(8):
            kernel = (ring & (part == s)).astype(np.float32)
            counts = cv2.filter2D(ringed.astype(np.float32), -1, kernel,
                                  borderType=cv2.BORDER_CONSTANT)
            full += np.round(counts) >= RING_ALL_ROUND * kernel.sum()
        eighths = ringed_eighths(ringed, r_in, r_out)
        for open_parts in (0, 1, 2, 3):
            want = full >= 8 - open_parts
            assert np.array_equal(all_round_but(eighths, p, open_parts), want)
            assert np.array_equal(ring_all_round(ringed, r_in, r_out, open_parts), want)


def test_thinning_within_the_box_is_thinning_the_whole_mask() -> None:
    """skeletonize thins only the box round the set pixels: the same skeleton as thinning the
    whole mask, strokes reaching the mask's edges and masks of specks included."""
    from vision.enigma.skeleton import skeletonize, thin_in_place

    rng = np.random.default_rng(32)
    for _ in range(300):
        mask = np.zeros((64, 64), np.uint8)
        for _ in range(int(rng.integers(0, 4))):
            a, b = rng.integers(-6, 70, (2, 2)).tolist()
            cv2.line(mask, (a[0], a[1]), (b[0], b[1]), 1, int(rng.integers(1, 9)))
        if rng.random() < 0.2:
            mask |= (rng.random((64, 64)) < 0.2).astype(np.uint8)
        want = mask.copy()
        thin_in_place(want, 100)
        assert np.array_equal(skeletonize(mask.astype(bool)), want.astype(bool))
