"""The picture check shared by the readers (vision.picture): each measure answers to what it
measures and to nothing else, and a picture past a limit is refused naming its cause."""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np
import pytest

from config.schema import Config
from vision.errors import FrameRefusedError
from vision.picture import (
    PictureMeasures,
    check_picture,
    confidence_factor,
    measure_picture,
    region_mask,
)
from vision.synth.conditions import apply_condition


def _board(seed: int = 0) -> np.ndarray:
    """A busy, coloured board: paper, printed lines, coloured discs, a dark tile."""
    rng = np.random.default_rng(seed)
    image = np.full((240, 320, 3), (214, 226, 232), np.uint8)
    for x in range(0, 320, 40):
        cv2.line(image, (x, 0), (x, 239), (60, 60, 60), 2)
    for _ in range(14):
        colour = tuple(int(c) for c in rng.integers(20, 235, 3))
        centre = (int(rng.integers(20, 300)), int(rng.integers(20, 220)))
        cv2.circle(image, centre, int(rng.integers(8, 22)), colour, -1)
    cv2.rectangle(image, (200, 140), (280, 210), (40, 50, 70), -1)
    return image


def _noisy(image: np.ndarray, sigma: float, seed: int = 1) -> np.ndarray:
    noise = np.random.default_rng(seed).normal(0.0, sigma, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("sigma", [3.0, 8.0, 15.0, 25.0])
def test_the_noise_estimate_follows_the_noise_not_the_printing(sigma: float) -> None:
    measured = measure_picture(_noisy(_board(), sigma)).noise
    assert measured == pytest.approx(sigma, rel=0.25)


def test_a_clean_busy_board_has_almost_no_noise() -> None:
    assert measure_picture(_board()).noise < 1.5


@pytest.mark.parametrize("condition", ["grayscale", "infrared"])
def test_a_camera_without_colour_shows_none_even_through_a_tint(condition: str) -> None:
    rng = np.random.default_rng(3)
    seen = measure_picture(apply_condition(_board(), condition, 1.0, rng))
    assert seen.colour < 4.0 < 30.0 < measure_picture(_board()).colour


def test_burnt_out_and_crushed_pixels_are_counted() -> None:
    board = _board()
    bright = measure_picture(apply_condition(board, "overexposed", 1.0, np.random.default_rng(0)))
    dark = measure_picture(np.zeros_like(board))
    assert bright.clipped > 0.5 and measure_picture(board).clipped == 0.0
    assert dark.crushed == 1.0 and dark.contrast == 0.0


def test_blur_lowers_focus_but_dimming_does_not() -> None:
    board = _board()
    sharp = measure_picture(board).focus
    blurred = measure_picture(apply_condition(board, "out_of_focus", 1.0,
                                              np.random.default_rng(0))).focus
    dimmer = measure_picture((board * 0.5).astype(np.uint8)).focus
    assert blurred < 0.4 * sharp
    assert dimmer == pytest.approx(sharp, rel=0.15)


def test_only_the_masked_board_is_measured() -> None:
    frame = _board()
    frame[:, 160:] = 255  # a lamp's reflection beside the board
    mask = np.zeros(frame.shape[:2], np.uint8)
    mask[:, :150] = 1
    assert measure_picture(frame, mask).clipped == 0.0 < measure_picture(frame).clipped


def _measures(**changes: float) -> PictureMeasures:
    good = PictureMeasures(clipped=0.0, crushed=0.0, contrast=150.0, noise=2.0, colour=40.0,
                           focus=0.5)
    return dataclasses.replace(good, **changes)


@pytest.mark.parametrize(("changes", "reason", "words"), [
    ({"clipped": 0.5}, "overexposed", "too bright"),
    ({"crushed": 0.6}, "too-dark", "too dark"),
    ({"contrast": 10.0}, "low-contrast", "too flat"),
    ({"noise": 30.0}, "noisy", "too noisy"),
    ({"colour": 1.0}, "no-colour", "without colour"),
    ({"focus": 0.001}, "blurred", "out of focus"),
])
def test_a_picture_past_a_limit_is_refused_with_its_cause(changes, reason, words) -> None:
    with pytest.raises(FrameRefusedError) as refused:
        check_picture(_measures(**changes), needs_colour=True)
    assert refused.value.reason == reason and words in str(refused.value)


def test_two_causes_are_both_named_with_both_remedies() -> None:
    with pytest.raises(FrameRefusedError) as refused:
        check_picture(_measures(crushed=0.6, noise=30.0), needs_colour=True)
    text = str(refused.value)
    assert "too dark and too noisy" in text and "more light" in text and "gain" in text


def test_colour_is_required_only_by_readers_that_need_it() -> None:
    assert check_picture(_measures(colour=0.0), needs_colour=False) == 1.0


def test_a_picture_near_a_limit_passes_with_lowered_confidence() -> None:
    limits = Config().vision.picture
    near = _measures(noise=limits.max_noise * 0.9)
    quality = check_picture(near, limits, needs_colour=True)
    assert 0.0 < quality < 0.5
    assert confidence_factor(quality) < Config().vision.min_confidence
    assert confidence_factor(check_picture(_measures(), limits, needs_colour=True)) == 1.0


def test_the_region_of_a_homography_is_what_is_measured() -> None:
    frame = _noisy(_board(), 25.0)
    frame[40:200, 60:260] = _board()[40:200, 60:260]  # a clean board inside a noisy table
    polygon = np.array([[62.0, 42.0], [257.0, 42.0], [257.0, 197.0], [62.0, 197.0]])
    mask = region_mask(frame.shape, polygon)
    assert int(mask.sum()) == pytest.approx(195 * 155, rel=0.03)
    table = (1 - mask).astype(np.uint8)
    assert measure_picture(frame, mask).noise < 1.5 < 15.0 < measure_picture(frame, table).noise


@pytest.mark.parametrize("dtype", [np.uint8, np.bool_, np.int32, np.float32])
def test_a_mask_with_no_pixel_is_refused(dtype: type) -> None:
    with pytest.raises(ValueError, match="no pixel"):
        measure_picture(_board(), np.zeros((240, 320), dtype))


@pytest.mark.parametrize("dtype, value", [(np.uint8, 255), (np.bool_, True), (np.int32, 7),
                                          (np.float32, 0.5)])
def test_a_mask_is_its_non_zero_pixels_whatever_its_type(dtype: type, value: object) -> None:
    image = _board(3)
    mask = np.zeros((240, 320), np.uint8)
    cv2.ellipse(mask, (150, 110), (90, 60), 20, 0, 360, 1, -1)
    typed = np.zeros((240, 320), dtype)
    typed[mask > 0] = value
    assert measure_picture(image, typed) == measure_picture(image, mask)


def test_measures_inside_an_outline_are_those_of_the_whole_image_with_its_mask() -> None:
    """The readers measure on the image cut to the outline's box: the same measures as with a
    mask the size of the image, half-pixel points included; no pixel covered is None."""
    from vision.picture import measure_inside

    rng = np.random.default_rng(5)
    image = rng.integers(0, 256, (300, 400, 3), dtype=np.uint8)
    image[100:200, 150:300] = cv2.GaussianBlur(image[100:200, 150:300], (0, 0), 3)
    for _ in range(40):
        centre = rng.uniform((-20, -20), (420, 320))
        outline = centre + rng.uniform(-120, 120, (4, 2))
        halves = rng.random(4) < 0.3  # points on half pixels round to even
        outline[halves] = np.round(outline[halves]) + 0.5
        mask = region_mask(image.shape, outline)
        found = measure_inside(image, outline)
        if not mask.any():
            assert found is None
        else:
            assert found == measure_picture(image, mask)
    assert measure_inside(image, np.array([[500.0, 500], [600, 500], [600, 600]])) is None


def test_a_reader_that_needs_no_colour_has_the_other_measures_without_it() -> None:
    """The sheet reader checks its picture with needs_colour=False: the colour is not measured
    (0.0, as a grey picture's), every other measure is the same."""
    from dataclasses import replace

    from vision.picture import measure_inside

    image = _board()
    outline = np.array([[20.0, 30], [300, 25], [310, 220], [15, 230]])
    full = measure_inside(image, outline)
    assert full is not None and full.colour > 0
    assert measure_inside(image, outline, colour=False) == replace(full, colour=0.0)
    mask = region_mask(image.shape, outline)
    assert measure_picture(image, mask, colour=False) == replace(measure_picture(image, mask),
                                                                 colour=0.0)


def test_percentiles_from_the_histogram_are_numpys() -> None:
    from vision.picture import whole_percentiles

    rng = np.random.default_rng(7)
    for _ in range(200):
        levels = rng.integers(0, int(rng.integers(1, 1021)), int(rng.integers(1, 3000)))
        assert whole_percentiles(levels, (5.0, 95.0, 99.0)) == \
            [float(p) for p in np.percentile(levels, (5.0, 95.0, 99.0))]


@pytest.mark.parametrize("spread, cut", [(12, False), (400, True)])
def test_the_noise_is_immerkaers_operator_term_by_term(spread: float, cut: bool) -> None:
    """Also where the responses reach their largest (a checkerboard of 0 and 255 answers 16
    times 255) and on a region cut out of a larger frame, as the readers pass it."""
    from vision.picture import NOISE_BLOCK, NOISE_QUIET_SHARE, noise_block_origins, noise_sigma

    rng = np.random.default_rng(3)
    frame = np.clip(rng.normal(128, spread, (340, 460, 3)), 0, 255).astype(np.uint8)
    image = frame[17:317, 31:431] if cut else np.ascontiguousarray(frame[:300, :400])
    mask = np.zeros((300, 400), np.uint8)
    cv2.circle(mask, (200, 150), 140, 1, -1)
    ys, xs = noise_block_origins(mask)
    offsets = np.arange(NOISE_BLOCK + 2)
    b = image[(ys[:, None] + offsets)[:, :, None],
              (xs[:, None] + offsets)[:, None, :]].astype(np.float32)
    response = np.abs(b[:, :-2, :-2] - 2 * b[:, :-2, 1:-1] + b[:, :-2, 2:]
                      - 2 * b[:, 1:-1, :-2] + 4 * b[:, 1:-1, 1:-1] - 2 * b[:, 1:-1, 2:]
                      + b[:, 2:, :-2] - 2 * b[:, 2:, 1:-1] + b[:, 2:, 2:])
    per_block = np.sort(response.reshape(len(ys), -1).mean(axis=1))
    quiet = per_block[: max(1, int(len(per_block) * NOISE_QUIET_SHARE))]
    assert noise_sigma(image, mask) == float(math.sqrt(math.pi / 2) * quiet.mean() / 6)


def test_the_module_s_examples_hold() -> None:
    """The examples in vision.picture's docs run as written (the refusal example had kept a
    'too flat' the limits no longer give)."""
    import doctest

    import vision.picture

    assert doctest.testmod(vision.picture).failed == 0


def test_levels_are_those_of_the_sampled_pixels_inside_the_mask() -> None:
    """The levels are taken from planes of the sampled box (one grey conversion for the focus
    and the levels): the same as from the sampled pixels inside the mask, one by one."""
    from vision.picture import CLIPPED_LEVEL, DARK_LEVEL, SAMPLED_PIXELS

    rng = np.random.default_rng(5)
    # a slope under the grain, so that which pixels are taken changes the levels
    slope = np.linspace(0, 80, 620)[None, :, None] + np.linspace(0, 80, 560)[:, None, None]
    frame = (rng.integers(0, 96, (560, 620, 3)) + slope).astype(np.uint8)
    # burnt out and crushed in one channel only, or nearly
    frame[200:240, 150:300] = (200, 210, 255)
    frame[300:340, 200:300] = (1, 2, 4)
    frame[300:340, 300:400] = (1, 2, 40)
    image = frame[11:551, 7:607]  # a region cut from a larger frame, as the readers pass it
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.ellipse(mask, (320, 280), (290, 200), 10, 0, 360, 1, -1)
    # sampled from the mask's bounding box
    left, top, width, height = cv2.boundingRect(mask)
    box = image[top:top + height, left:left + width]
    box_mask = mask[top:top + height, left:left + width]
    step = int(math.ceil(math.sqrt(width * height / SAMPLED_PIXELS)))
    assert step == 2
    pixels = box[::step, ::step][box_mask[::step, ::step] > 0].astype(np.int32)
    gray = (pixels @ np.array([1868, 9617, 4899]) + (1 << 13)) >> 14  # OpenCV's BGR2GRAY
    brightest = pixels.max(axis=1)
    measures = measure_picture(image, mask)
    low, high = np.percentile(gray, (5.0, 95.0))
    assert measures.contrast == float(high - low)
    assert measures.clipped == float(np.mean(brightest >= CLIPPED_LEVEL))
    assert measures.crushed == float(np.mean(brightest <= DARK_LEVEL))


@pytest.mark.parametrize("tint", [(1.0, 1.0, 1.0), (0.3, 1.0, 2.5), (1.4, 0.6, 1.0), None])
def test_the_colour_is_the_float_balance_s_chroma(tint: tuple[float, float, float] | None) -> None:
    """The grey-world balance is looked up per level: the same chroma as balancing every pixel
    in float32 and taking the percentile of the squares by partition (None: a few hundred
    random pixels, nearly all of distinct chroma, where a rank one off shows)."""

    if tint is None:
        image = np.random.default_rng(2).integers(0, 256, (20, 30, 3), dtype=np.uint8)
    else:
        image = np.clip(_board(4) * np.array(tint), 0, 255).astype(np.uint8)
    assert measure_picture(image).colour == _float_balance_chroma(image.reshape(-1, 3))


def _float_balance_chroma(pixels: np.ndarray) -> float:
    """The colour measure of (n, 3) pixels, the plain way: every pixel balanced in float32,
    the percentile of the squared chromas by partition."""
    from vision.picture import COLOUR_PERCENTILE

    means = pixels.astype(np.float64).mean(axis=0)
    gains = (means.mean() / np.maximum(means, 1.0)).astype(np.float32)
    balanced = np.clip(pixels.astype(np.float32) * gains, 0, 255).astype(np.uint8)
    lab = cv2.cvtColor(balanced.reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).reshape(-1, 3)
    chroma2 = (lab[:, 1].astype(np.int32) - 128) ** 2 + (lab[:, 2].astype(np.int32) - 128) ** 2
    k = int(len(chroma2) * COLOUR_PERCENTILE / 100.0)
    return math.sqrt(float(np.partition(chroma2, k)[k]))


@pytest.mark.parametrize("size", [(1037, 1845), (760, 1024)])
def test_a_large_region_s_colour_is_that_of_every_step_th_pixel_inside_it(
        size: tuple[int, int]) -> None:
    """A region over :data:`SAMPLED_PIXELS` is measured on every step-th pixel of its box
    (picked by a warp, not a strided copy): the colour of exactly those pixels inside."""
    from vision.picture import SAMPLED_PIXELS

    rng = np.random.default_rng(6)
    h, w = size
    image = cv2.resize(rng.integers(0, 256, (h // 16, w // 16, 3), dtype=np.uint8), (w, h),
                       interpolation=cv2.INTER_NEAREST)
    image = np.clip(image + rng.integers(-12, 13, image.shape), 0, 255).astype(np.uint8)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.ellipse(mask, (w // 2, h // 2), (w // 2 - 3, h // 2 - 1), 0, 0, 360, 1, -1)
    left, top, width, height = cv2.boundingRect(mask)
    step = int(math.ceil(math.sqrt(width * height / SAMPLED_PIXELS)))
    assert step >= 2
    box = image[top:top + height, left:left + width]
    inside = mask[top:top + height, left:left + width][::step, ::step] > 0
    assert measure_picture(image, mask).colour == _float_balance_chroma(
        box[::step, ::step][inside])


@pytest.mark.parametrize("channels", [0, 1, 3])
def test_every_step_th_pixel_is_numpy_s_strided_pick(channels: int) -> None:
    from vision.picture import every_step

    rng = np.random.default_rng(8)
    for h, w in [(1, 1), (2, 3), (7, 5), (767, 1025), (1036, 1844), (301, 17)]:
        shape = (h, w) if channels == 0 else (h, w, channels)
        image = rng.integers(0, 256, shape, dtype=np.uint8)
        for step in (1, 2, 3, 4, 7):
            picked = every_step(image[1:, 2:], step)
            assert np.array_equal(picked, image[1:, 2:][::step, ::step])
