"""The camera's pose when the frame's principal point lies off its middle (a cropped picture,
or a camera aimed off the mat and its picture cut to it): the card's homography fixes the
principal point for each lens, and the eye of the camera's own lens is found; a camera that
shows the card without perspective fixes nothing, and no eye is guessed."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.enigma.puzzles.camera_pose import camera_eyes
from vision.enigma.puzzles.off_centre_pose import (
    PRINCIPAL_REACH,
    off_centre_eyes,
    principal_points,
)

FRAME = (2304, 1296)


def _camera(seed: int, tilt_deg: float) -> tuple[np.ndarray, float, tuple[float, float],
                                                  np.ndarray]:
    """A pinhole over a card view (px, z down), its principal point 350-750 px off the
    frame's middle, tilted ``tilt_deg``: the homography card view -> frame, its field of view,
    its principal point and its centre."""
    rng = np.random.default_rng(seed)
    fov = rng.uniform(45, 75)
    f = FRAME[0] / 2 / math.tan(math.radians(fov) / 2)
    away, off = rng.uniform(0, 2 * math.pi), rng.uniform(350, 750)
    u, v = FRAME[0] / 2 + off * math.cos(away), FRAME[1] / 2 + off * math.sin(away)
    k = np.array([[f, 0, u], [0, f, v], [0, 0, 1]])
    a, b, c = np.radians(tilt_deg), rng.uniform(0, 2 * math.pi), rng.uniform(-0.3, 0.3)
    lean = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    spin = np.array([[math.cos(b), -math.sin(b), 0], [math.sin(b), math.cos(b), 0], [0, 0, 1]])
    roll = np.array([[math.cos(c), -math.sin(c), 0], [math.sin(c), math.cos(c), 0], [0, 0, 1]])
    turn = roll @ lean @ spin  # table axes -> camera axes
    centre = np.array([rng.uniform(-400, 400), rng.uniform(-400, 400), -rng.uniform(2000, 3000)])
    h = k @ np.column_stack([turn[:, 0], turn[:, 1], -turn @ centre])
    return h, fov, (u, v), centre


@pytest.mark.parametrize("seed", range(6))
def test_the_principal_point_of_the_cameras_own_lens_is_recovered(seed: int) -> None:
    h, fov, (u, v), _ = _camera(seed, tilt_deg=12.0)
    points = principal_points(h, FRAME, fov)
    assert points
    assert math.dist(points[0], (u, v)) < 1.0


@pytest.mark.parametrize("seed", range(6))
def test_an_off_centre_camera_fits_no_centred_lens_but_its_own_eye_is_found(seed: int
                                                                             ) -> None:
    """Tilted 8-20 degrees: the centred pose finds nothing; among the off-centre eyes, the
    one for the camera's own lens stands over its nadir at its height."""
    h, fov, _, centre = _camera(seed, tilt_deg=8.0 + 2.0 * seed)
    assert camera_eyes(h, FRAME) == []
    [eye] = off_centre_eyes(h, FRAME, (fov,))
    assert math.dist(eye.nadir, (centre[0], centre[1])) < 1.0
    assert eye.height == pytest.approx(-centre[2], rel=1e-4)
    eyes = off_centre_eyes(h, FRAME)
    assert len(eyes) >= 5
    heights = sorted(e.height for e in eyes)
    assert heights[0] < -centre[2] < heights[-1]


def test_a_card_seen_without_perspective_gives_no_eye() -> None:
    """Straight down, every principal point fits: the card fixes none, and no pose is
    guessed."""
    h = np.array([[1.9, 0.2, 300.0], [-0.2, 1.9, 150.0], [0.0, 0.0, 1.0]])
    assert off_centre_eyes(h, FRAME) == []


def test_a_principal_point_beyond_any_crop_gives_no_eye() -> None:
    """A principal point further than PRINCIPAL_REACH frame widths off the middle is no
    camera's: that lens gives no eye."""
    h, fov, (u, v), _ = _camera(3, tilt_deg=12.0)
    shift = PRINCIPAL_REACH * FRAME[0] + 200.0
    moved = np.array([[1, 0, shift], [0, 1, 0], [0, 0, 1]]) @ h
    assert math.dist(principal_points(moved, FRAME, fov)[0], (u + shift, v)) < 1.0
    assert off_centre_eyes(moved, FRAME, (fov,)) == []
