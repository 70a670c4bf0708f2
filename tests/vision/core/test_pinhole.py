"""The renderer's pinhole camera: a point standing above the table is drawn where the camera
sees it, and the frame's homography comes from the same pose."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.synth.effects import apply_effects
from vision.synth.pinhole import FIELD_OF_VIEW_DEG, Pinhole, draw_pinhole

SCENE = (1908, 1368)  # the puzzle mat's scene at 6 px per mm
FRAME = (2304, 1296)


@pytest.mark.parametrize("seed", range(6))
def test_a_point_above_the_table_is_drawn_where_the_camera_sees_it(seed: int) -> None:
    rng = np.random.default_rng(seed)
    camera = draw_pinhole(rng, FRAME, max_tilt_deg=25.0)
    view = camera.view(SCENE)
    for _ in range(5):
        foot = (float(rng.uniform(0, SCENE[0])), float(rng.uniform(0, SCENE[1])))
        above = float(rng.uniform(1, 60))
        seen = view.projection @ np.array([foot[0], foot[1], -above, 1.0])
        drawn = view.homography @ np.array([*view.eye.raised(foot, above), 1.0])
        assert np.allclose(seen[:2] / seen[2], drawn[:2] / drawn[2], atol=1e-6)
        # away from the nadir, along the line from it through the foot
        out = np.subtract(view.eye.raised(foot, above), foot)
        away = np.subtract(foot, view.eye.nadir)
        assert out @ away > 0
        assert abs(out[0] * away[1] - out[1] * away[0]) < 1e-6 * np.hypot(*away) * np.hypot(*out)


def test_a_camera_straight_down_stands_over_the_scene_s_middle() -> None:
    view = Pinhole(FRAME, 66.0, 0.0, 0.0, 5.0, 0.9).view(SCENE)
    assert view.eye.nadir == pytest.approx((SCENE[0] / 2, SCENE[1] / 2))
    assert view.eye.raised((SCENE[0] / 2, SCENE[1] / 2), 30.0) == pytest.approx(view.eye.nadir)


@pytest.mark.parametrize("seed", range(4))
def test_the_scene_fills_the_share_of_the_frame_drawn_and_its_middle_is_the_frame_s(
        seed: int) -> None:
    camera = draw_pinhole(np.random.default_rng(seed), FRAME, max_tilt_deg=25.0)
    assert FIELD_OF_VIEW_DEG[0] <= camera.hfov_deg <= FIELD_OF_VIEW_DEG[1]
    view = camera.view(SCENE)
    corners = np.array([[0, 0, 1], [SCENE[0], 0, 1], [SCENE[0], SCENE[1], 1], [0, SCENE[1], 1]])
    seen = corners @ view.homography.T
    seen = seen[:, :2] / seen[:, 2:]
    reach = np.abs(seen - np.divide(FRAME, 2)) / np.divide(FRAME, 2)
    assert reach.max() == pytest.approx(camera.fill, abs=1e-6)
    middle = view.homography @ np.array([SCENE[0] / 2, SCENE[1] / 2, 1.0])
    assert middle[:2] / middle[2] == pytest.approx(np.divide(FRAME, 2))
    # higher the more it is tilted away, never under the table
    assert view.eye.height > 0
    tilt = math.degrees(math.atan2(math.hypot(view.eye.nadir[0] - SCENE[0] / 2,
                                              view.eye.nadir[1] - SCENE[1] / 2),
                                   view.eye.height))
    assert tilt == pytest.approx(camera.tilt_deg, abs=1e-6)


def test_the_frame_is_warped_by_the_camera_given() -> None:
    scene = np.full((SCENE[1] // 6, SCENE[0] // 6, 3), 128, np.uint8)
    camera = draw_pinhole(np.random.default_rng(3), (384, 216), max_tilt_deg=20.0)
    result = apply_effects(scene, np.random.default_rng(1), ["perspective"],
                           frame_size=(384, 216), camera=camera)
    expected = camera.view((scene.shape[1], scene.shape[0])).homography
    assert np.allclose(result.truth.homography, expected)
    with pytest.raises(ValueError, match="frame"):
        apply_effects(scene, np.random.default_rng(1), ["perspective"], frame_size=(200, 100),
                      camera=camera)
