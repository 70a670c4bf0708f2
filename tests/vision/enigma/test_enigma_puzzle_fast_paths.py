"""The puzzle checks' fast paths give exactly what the general functions gave: the card
search's shifted levels, the clipped channels counted per
pixel, and the angular structure's bands grown on the box round it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.enigma.puzzles.angular_light import grown, grown_by
from vision.enigma.puzzles.card_find import (
    brightness,
    chroma,
    measured_window,
    rolled,
    turn_maps,
    whiteness,
)
from vision.enigma.puzzles.changed_blur import blur_again, changed_places
from vision.enigma.puzzles.fragment import (
    MAX_OWN_BLACK,
    OWN_BLACK_SIGMA,
    OWN_BLACK_STEPS,
    OWN_BLACK_WEIGHT,
    own_black,
)
from vision.enigma.puzzles.view import (
    BARE_CHROMA,
    BARE_OF_CARD_TOP,
    BARE_OF_LOCAL_MAX,
    BARE_SEED_OF_CARD_TOP,
    BARE_WHITENESS,
    CARD_TOP_QUANTILE,
    LIGHT_BLOCK,
    LOCAL_MAX_PX,
    CardView,
    bare_card,
    block_sums,
    channel_planes,
    count_per_pixel,
    unclip,
)
from vision.warp import warp_affine


@pytest.mark.parametrize("shape", [(5, 7), (40, 33), (1, 9), (9, 1)])
def test_rolled_is_numpys_roll(shape: tuple[int, int]) -> None:
    image = np.random.default_rng(13).random(shape, dtype=np.float32)
    for axis in (0, 1):
        for shift in range(-25, 26):
            assert np.array_equal(rolled(image, shift, axis), np.roll(image, shift, axis=axis))


def test_count_per_pixel_is_numpys_sum() -> None:
    flags = np.random.default_rng(21).random((50, 60, 3)) < 0.4
    assert np.array_equal(count_per_pixel(flags), flags.sum(axis=2, dtype=np.uint8))
    assert np.array_equal(count_per_pixel(flags.reshape(-1, 3)),
                          flags.reshape(-1, 3).sum(axis=1, dtype=np.uint8))


@pytest.mark.parametrize("radius", [0.3, 1.0, 2.6, 7.9, 30.0, 48.0])
def test_grown_is_a_dilation_of_the_whole_mask(radius: float) -> None:
    rng = np.random.default_rng(7)
    r = max(1, int(radius))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    for _ in range(60):
        h, w = (int(v) for v in rng.integers(5, 120, 2))
        mask = np.zeros((h, w), bool)
        for _ in range(int(rng.integers(0, 6))):
            y, x = int(rng.integers(0, h)), int(rng.integers(0, w))
            mask[y:y + int(rng.integers(1, 10)), x:x + int(rng.integers(1, 10))] = True
        assert np.array_equal(grown(mask, radius), cv2.dilate(mask.astype(np.uint8), kernel) > 0)


def test_grown_by_is_a_dilation_of_the_whole_mask_at_every_radius() -> None:
    """The angular check's radii (a tenth, one and two and a half cubes of 48 px) at once:
    kernels of 240 px whose rows round half-way differently from a Euclidean disc."""
    rng = np.random.default_rng(11)
    radii = (4.8, 48.0, 120.0)
    kernels = [cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
               for r in (4, 48, 120)]
    for _ in range(6):
        h, w = (int(v) for v in rng.integers(150, 400, 2))
        mask = np.zeros((h, w), np.uint8)
        for _ in range(int(rng.integers(1, 4))):
            centre = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            cv2.circle(mask, centre, int(rng.integers(1, 40)), 1, -1)
        mask |= (rng.random((h, w)) < 0.002).astype(np.uint8)
        for got, kernel in zip(grown_by(mask.astype(bool), radii), kernels, strict=True):
            assert np.array_equal(got, cv2.dilate(mask, kernel) > 0)


@pytest.mark.parametrize("shape", [(816, 816), (203, 317), (90, 41)])
def test_blur_again_is_the_blur_of_the_whole_new_image(shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(shape[1])
    image = (rng.random(shape) < 0.7).astype(np.float32) * rng.random(shape, np.float32) * 200
    blurred = cv2.GaussianBlur(image, (0, 0), 6.0)
    for spots in (1, 3, 12):
        changed = np.zeros(shape, np.uint8)
        for _ in range(spots):  # small places anywhere, on the borders too
            y, x = rng.integers(0, shape[0]), rng.integers(0, shape[1])
            h, w = rng.integers(1, 30, 2)
            changed[y:y + h, x:x + w] = rng.random((len(changed[y:y + h]),
                                                    len(changed[0, x:x + w]))) < 0.5
        image = np.where(changed > 0, 200 - image, image).astype(np.float32)
        blurred = blur_again(blurred, image, changed_places(changed, 6.0), 6.0)
        assert np.array_equal(blurred, cv2.GaussianBlur(image, (0, 0), 6.0))


def _own_black_step_by_step(smooth: np.ndarray, floor: np.ndarray, sil_of, g_card: float
                            ) -> np.ndarray:
    """Each step of the pieces' own black over the whole view."""
    out, sil = floor, sil_of(floor)
    for _ in range(OWN_BLACK_STEPS):
        pieces = (smooth < (out + sil) / 2).astype(np.float32)
        weight = cv2.GaussianBlur(pieces, (0, 0), OWN_BLACK_SIGMA)
        total = cv2.GaussianBlur(smooth * pieces, (0, 0), OWN_BLACK_SIGMA)
        own = np.minimum(total / np.maximum(weight, 1e-6), MAX_OWN_BLACK * g_card)
        out = np.where(weight >= OWN_BLACK_WEIGHT, np.maximum(floor, own), floor)
        sil = sil_of(out)
    return out


def _glared_pieces(rng: np.random.Generator, h: int, w: int, glare_at: tuple[int, int]
                   ) -> tuple[np.ndarray, np.ndarray]:
    """A card's smoothed grey with dark pieces, some under a lamp's glare, and its floor."""
    ys, xs = np.mgrid[0:h, 0:w]
    glare = 110 * np.exp(-((ys - glare_at[0]) ** 2 + (xs - glare_at[1]) ** 2) / 80 ** 2)
    grey = np.full((h, w), 205.0)
    for _ in range(12):
        y, x = rng.integers(0, h), rng.integers(0, w)
        grey[y:y + rng.integers(10, 60), x:x + rng.integers(10, 60)] = 35
    smooth = cv2.GaussianBlur((grey + glare).clip(0, 255).astype(np.float32)
                              + rng.normal(0, 3, (h, w)).astype(np.float32), (0, 0), 2.0)
    floor = cv2.blur(cv2.erode(smooth, np.ones((41, 41), np.uint8)), (21, 21))
    return smooth, np.clip(floor, 35.0, 0.65 * 205.0)


def _sil_of(black: np.ndarray) -> np.ndarray:
    out: np.ndarray = 120 + (205 - 120) * (black - 35) / 170.0
    return out


def test_own_black_made_only_where_it_is_read_is_right_there() -> None:
    """The fragment check reads the black on the card and round it: made only within the
    reach that box draws on, the box holds the whole view's values to the bit."""
    rng = np.random.default_rng(70)
    h, w = 420, 397
    for glare_at in ((200, 190), (10, 380)):
        smooth, floor = _glared_pieces(rng, h, w, glare_at)
        want = _own_black_step_by_step(smooth, floor, _sil_of, 205.0)
        for box in ((130, 150, 290, 300), (0, 0, 120, 90), (300, 5, 397, 420), (0, 0, 397, 420),
                    (180, 200, 181, 201)):
            x0, y0, x1, y1 = box
            got = own_black(smooth, floor, _sil_of, 205.0, needed=box)
            assert np.array_equal(got[y0:y1, x0:x1], want[y0:y1, x0:x1]), box


def test_own_black_made_again_where_it_changed_is_made_over_the_whole_view() -> None:
    rng = np.random.default_rng(26)
    h, w = 300, 413
    ys, xs = np.mgrid[0:h, 0:w]
    for glare_at in ((150, 200), (0, 0), (290, 400)):  # a lamp's glare lifts the pieces
        glare = 110 * np.exp(-((ys - glare_at[0]) ** 2 + (xs - glare_at[1]) ** 2) / 80 ** 2)
        grey = np.full((h, w), 205.0)
        for _ in range(12):  # dark pieces, some under the glare
            y, x = rng.integers(0, h), rng.integers(0, w)
            grey[y:y + rng.integers(10, 60), x:x + rng.integers(10, 60)] = 35
        smooth = cv2.GaussianBlur((grey + glare).clip(0, 255).astype(np.float32)
                                  + rng.normal(0, 3, (h, w)).astype(np.float32), (0, 0), 2.0)
        floor = cv2.blur(cv2.erode(smooth, np.ones((41, 41), np.uint8)), (21, 21))
        floor = np.clip(floor, 35.0, 0.65 * 205.0)

        def sil_of(black: np.ndarray) -> np.ndarray:
            out: np.ndarray = 120 + (205 - 120) * (black - 35) / 170.0
            return out

        want = _own_black_step_by_step(smooth, floor, sil_of, 205.0)
        assert np.array_equal(own_black(smooth, floor, sil_of, 205.0), want)


@pytest.mark.parametrize("shape", [(150, 184), (224, 224), (37, 52)])
def test_the_card_searchs_kept_turns_are_the_warps_it_made(shape: tuple[int, int]) -> None:
    h, w = shape
    image = np.random.default_rng(h).random((h, w, 3), dtype=np.float32)
    for turn in (-45, -3, 0, 12, 27.5, 44.5):
        m1, m2 = turn_maps(w, h, turn)
        kept = cv2.remap(image, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                         borderValue=0)
        made = warp_affine(image, cv2.getRotationMatrix2D((w / 2, h / 2), turn, 1.0), (w, h))
        assert np.array_equal(kept, made)


def test_the_card_search_measures_its_part_as_the_whole_image_cut() -> None:
    rng = np.random.default_rng(18)
    shrunk = rng.integers(0, 256, (150, 240, 3), dtype=np.uint8)
    boxes = [(20.0, 15.0, 12.5), (235.0, 140.0, 30.0), (100.0, 70.0, 8.2), (3.0, 148.0, 9.9)]
    whole = whiteness(shrunk)
    for ex, ey, eh in boxes:
        whole[max(0, int(ey - eh)):int(ey + eh), max(0, int(ex - eh)):int(ex + eh)] = 0
    for rows, cols in ((slice(None), slice(None, 184)), (slice(40, 150), slice(90, 260)),
                       (slice(0, 30), slice(0, 50)), (slice(120, 400), slice(200, 240))):
        small, lit = measured_window(shrunk, rows, cols, boxes)
        assert np.array_equal(small, whole[rows, cols])
        assert np.array_equal(lit, (brightness(shrunk) / 255.0)[rows, cols])


def _card_view(rng: np.random.Generator, size: int = 204, margin: float = 42.0) -> CardView:
    """A card view: paper with grey and dark marks, a shadow, on a darker mottled table."""
    image = rng.integers(40, 120, (size, size, 3), dtype=np.uint8)
    a, b = int(margin), int(size - margin)
    image[a:b, a:b] = (235, 232, 238)
    for _ in range(10):
        y, x = (int(v) for v in rng.integers(a, b, 2))
        image[y:y + 15, x:x + 20] = rng.integers(20, 180)
    shade = np.linspace(0.5, 1.0, size, dtype=np.float32)[np.newaxis, :, np.newaxis]
    image = (image * shade).astype(np.uint8)
    return CardView(image, float(b - a), float(a), image, (size / 2, size / 2))


def _bare_card_of_the_whole_view(view: CardView, greys: bool) -> np.ndarray:
    """:func:`bare_card` measured over the whole view, as it was."""
    gray = brightness(view.image)
    near_max = cv2.dilate(gray, np.ones((LOCAL_MAX_PX, LOCAL_MAX_PX), np.uint8))
    inside = view.inside_card()
    if not greys:
        white: np.ndarray = ((gray >= BARE_OF_LOCAL_MAX * near_max)
                             & (whiteness(view.image) >= BARE_WHITENESS) & inside)
        return white
    a, b = int(round(view.margin_px)), int(round(view.margin_px + view.side_px))
    top = float(np.percentile(gray[a:b, a:b], CARD_TOP_QUANTILE))
    paper = ((gray >= BARE_OF_LOCAL_MAX * near_max) & (gray >= BARE_OF_CARD_TOP * top)
             & (chroma(view.image) <= BARE_CHROMA) & inside)
    n, labels = cv2.connectedComponents(paper.astype(np.uint8), connectivity=8)
    lit = np.zeros(n, bool)
    lit[labels[paper & (gray >= BARE_SEED_OF_CARD_TOP * top)]] = True
    lit[0] = False
    whole: np.ndarray = lit[labels]
    return whole


def test_bare_card_measured_round_the_card_is_the_whole_views() -> None:
    rng = np.random.default_rng(30)
    for margin in (42.0, 12.3, 0.0):
        view = _card_view(rng, margin=margin)
        for greys in (False, True):
            assert np.array_equal(bare_card(view, greys=greys),
                                  _bare_card_of_the_whole_view(view, greys))


@pytest.mark.parametrize("shape", [(816, 816), (208, 240), (203, 317)])
def test_the_light_fields_blocks_round_the_bare_card_are_the_whole_averages(
        shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(shape[1])
    h, w = shape
    image = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    for box in ((30, 41, 150, 170), (0, 0, w, h), (5, 7, 6, 8), (0, 0, 0, 0)):
        bare = np.zeros((h, w), bool)
        bare[box[1]:box[3], box[0]:box[2]] = rng.random((box[3] - box[1], box[2] - box[0])) < 0.7
        blocks = (max(2, w // LIGHT_BLOCK), max(2, h // LIGHT_BLOCK))
        weight, sums = block_sums(image, bare, blocks)
        assert np.array_equal(weight, cv2.resize(bare.astype(np.float32), blocks,
                                                 interpolation=cv2.INTER_AREA))
        assert np.array_equal(sums, cv2.resize(image.astype(np.float32) * bare[..., None],
                                               blocks, interpolation=cv2.INTER_AREA))


def _unclip_pixel_rows(pixels: np.ndarray, gains: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """The clipped channels raised with the pixels as rows (N x 3), as it was."""
    out = pixels.astype(np.float32) * gains[:3]
    high = pixels >= 235
    n_low = 3 - count_per_pixel(high).astype(np.int64)
    known = np.where(high, 0.0, out / paper)
    share = (known[:, 0] + known[:, 1] + known[:, 2]) / np.maximum(n_low, 1)
    fill = np.where(high & (n_low > 0)[:, None], np.maximum(out, share[:, None] * paper), out)
    result: np.ndarray = fill.astype(np.float32)
    return result


def test_clipped_channels_raised_channel_by_channel_are_raised_pixel_by_pixel() -> None:
    rng = np.random.default_rng(9)
    image = rng.integers(180, 256, (60, 70, 3), dtype=np.uint8)  # a lamp clips many
    gains = np.array([1.07, 0.93, 1.21], np.float32)
    paper = np.array([231.0, 228.0, 236.0], np.float32)
    planes = channel_planes(image)
    assert np.array_equal(unclip(planes, gains, paper).T,
                          _unclip_pixel_rows(image.reshape(-1, 3), gains, paper))
    some = rng.random((60, 70)) < 0.3
    assert np.array_equal(channel_planes(image, some).T, image[some])
