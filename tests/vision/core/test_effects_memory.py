"""The camera effects work on bands of rows: a frame's float copies never all live at once,
and the frame is the one the whole-frame arithmetic gives, to the bit."""

from __future__ import annotations

import tracemalloc

import numpy as np

from vision.synth.effects import DEFAULT_EFFECTS, EffectContext, apply_effects, noise

#: the demo camera's frame
FRAME = (1280, 720)
#: what the effects may hold at once, in frames of uint8: an effect's input and output, the
#: light's gain (float64: 2.7 frames) and a few bands; whole-frame float copies reached 19.7
MOST_FRAMES_HELD = 7


def _scene(seed: int) -> np.ndarray:
    width, height = FRAME
    return np.random.default_rng(seed).integers(0, 256, (height, width, 3), dtype=np.uint8)


def test_the_default_effects_hold_a_few_frames_at_most() -> None:
    scene = _scene(1)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        apply_effects(scene, np.random.default_rng(2), DEFAULT_EFFECTS, frame_size=FRAME)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak <= MOST_FRAMES_HELD * scene.nbytes, peak / scene.nbytes


def test_noise_in_bands_is_the_whole_frame_noise() -> None:
    scene = _scene(3)
    seed = 4
    # the effect's arithmetic on the whole frame at once, with the same generator stream
    rng = np.random.default_rng(seed)
    sigma_read = float(rng.uniform(1.5, 5.0))
    img = scene.astype(np.float32)
    whole = img + rng.standard_normal(img.shape, dtype=np.float32) * np.sqrt(
        sigma_read**2 + 0.05 * img)
    expected = np.clip(whole, 0, 255).astype(np.uint8)
    context = EffectContext(protect=None, frame_size=FRAME)
    banded = noise(scene, np.random.default_rng(seed), context)
    assert np.array_equal(banded, expected)
