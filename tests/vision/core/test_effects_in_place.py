"""The camera effects draw over what nobody else needs: their own intermediates, and the scene
when its caller gives it away (``overwrite_scene``). The frame is the one the effects give
when each draws a new image, to the bit; the caller's scene is left alone unless given away;
and the effects' high is light's gain and one scene at most, not two scenes beside it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.traced_memory import traced_peak
from vision.synth.effects import (
    ALL_EFFECTS,
    DEFAULT_EFFECTS,
    EFFECTS,
    EffectContext,
    apply_effects,
)

#: the demo camera's frame
FRAME = (1280, 720)
#: scene-stage effects, in the physical order apply_effects applies them
SCENE_STAGE = ("clutter", "whitebalance", "light", "shadow", "perspective")


def _scene(seed: int) -> np.ndarray:
    """A seeded scene of the size of the demo's Enigma table (about 1100 x 1300)."""
    rng = np.random.default_rng(seed)
    height, width = int(rng.integers(1000, 1200)), int(rng.integers(1200, 1400))
    return rng.integers(0, 256, (height, width, 3), dtype=np.uint8)


def _each_into_a_new_image(scene: np.ndarray, seed: int, effects: tuple[str, ...]
                           ) -> np.ndarray:
    """The frame as the effects give it when each draws a new image (a context with nothing
    spare): the reference for the drawing over."""
    rng = np.random.default_rng(seed)
    ctx = EffectContext(protect=None, frame_size=FRAME, max_tilt_deg=25.0)
    image = scene
    for name in SCENE_STAGE:
        if name in effects:
            image = EFFECTS[name](image, rng, ctx)
            assert image is scene or not np.shares_memory(image, scene)
    assert "perspective" in effects  # the straight-down fit without it is apply_effects' own
    image = cv2.warpPerspective(image, ctx.homography, FRAME, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    for name in ALL_EFFECTS[len(SCENE_STAGE):]:
        if name in effects:
            image = EFFECTS[name](image, rng, ctx)
    return image


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("effects", [DEFAULT_EFFECTS, tuple(e for e in ALL_EFFECTS
                                                            if e != "clutter")])
def test_drawing_over_gives_the_frame_of_new_images_to_the_bit(
        seed: int, effects: tuple[str, ...]) -> None:
    scene = _scene(seed)
    kept = scene.copy()
    reference = _each_into_a_new_image(scene, seed, effects)
    assert np.array_equal(scene, kept)
    frame = apply_effects(scene, np.random.default_rng(seed), effects, frame_size=FRAME,
                          max_tilt_deg=25.0).image
    assert np.array_equal(frame, reference)
    assert np.array_equal(scene, kept), "the caller's scene was drawn over"
    given_away = apply_effects(scene, np.random.default_rng(seed), effects, frame_size=FRAME,
                               max_tilt_deg=25.0, overwrite_scene=True).image
    assert np.array_equal(given_away, reference)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_scene_given_away_is_drawn_over_beside_lights_gain_alone(seed: int) -> None:
    """With the scene given away, the effects' high over the scene is light's gain (a float
    per pixel: float64 on numpy 2, float32 on numpy 1.24 by its value-based casting) and
    less than one more scene of bands. Before, whitebalance's and light's outputs lived
    beside the gain and the scene: two scenes more (28.4 MB for the demo's Enigma frame,
    19.0 now)."""
    scene = _scene(seed)
    height, width = scene.shape[:2]
    gain_bytes = height * width * (np.zeros(1, np.float32) * np.float64(0.5)).itemsize
    peak = traced_peak(lambda: apply_effects(
        scene, np.random.default_rng(seed), DEFAULT_EFFECTS, frame_size=FRAME,
        max_tilt_deg=25.0, overwrite_scene=True))
    assert peak <= gain_bytes + 1.2 * scene.nbytes, (peak / 1e6, gain_bytes / 1e6,
                                                     scene.nbytes / 1e6)
