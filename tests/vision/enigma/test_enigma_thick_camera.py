"""Thick fragment pieces and angular cubes drawn through the frame's own pinhole camera: the
drawn top of a piece h above the table lies where the camera's 3x4 projection puts it
(issue #26; tests/vision/core/test_pinhole.py does the same for a point)."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from companion.enigma.puzzles import load_puzzles
from vision.enigma.pack import load_enigma_pack
from vision.enigma.synth.cubes import draw_cubes, structure_side_px
from vision.enigma.synth.puzzles import (
    default_solution,
    draw_fragment,
    render_puzzle_scene,
    table_camera,
)
from vision.synth.pinhole import PinholeView, Viewpoint, draw_pinhole

S = 6.0  # scene pixels per mm
SCENE = (1908, 1368)  # the puzzle mat's scene at 6 px per mm
FRAME = (2304, 1296)


def _camera(seed: int) -> tuple[PinholeView, Viewpoint]:
    """A camera over the scene, and its centre in mm: a layer drawn at the scene's origin
    (one layer mm is one scene mm) is seen from there."""
    view = draw_pinhole(np.random.default_rng(seed), FRAME, max_tilt_deg=25.0).view(SCENE)
    eye = Viewpoint((view.eye.nadir[0] / S, view.eye.nadir[1] / S), view.eye.height / S)
    return view, eye


def _seen_on_table(view: PinholeView, points_mm: np.ndarray, above_mm: float) -> np.ndarray:
    """Where the camera shows points ``above_mm`` over the table (x, y in mm), taken back
    to the table through the frame's homography: the 3x4 projection, not the drawing's
    own rule."""
    n = len(points_mm)
    world = np.column_stack([points_mm * S, np.full(n, -above_mm * S), np.ones(n)])
    seen = world @ view.projection.T
    back = np.column_stack([seen[:, :2] / seen[:, 2:], np.ones(n)]) @ \
        np.linalg.inv(view.homography).T
    table: np.ndarray = back[:, :2] / back[:, 2:] / S
    return table


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    return float((a & b).sum() / max(1, (a | b).sum()))


def _exact(img: np.ndarray, bgr: tuple[int, int, int]) -> np.ndarray:
    mask: np.ndarray = np.all(img[..., :3] == bgr, axis=2) & (img[..., 3] == 255)
    return mask


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_thick_fragment_piece_s_top_is_drawn_where_the_camera_shows_it(seed: int) -> None:
    box, pack = load_puzzles(), load_enigma_pack()
    card = list(box.fragment.cards.values())[seed % len(box.fragment.cards)]
    solution = default_solution("fragment", card, box)
    view, eye = _camera(seed)
    height_mm = 4.5
    draw = {"pad_mm": 21.0, "s": S}
    flat = draw_fragment(card, box.fragment.pieces, solution, pack, rng=random.Random(seed),
                         **draw)
    thick = draw_fragment(card, box.fragment.pieces, solution, pack, rng=random.Random(seed),
                          height_mm=height_mm, eye=eye, **draw)
    black = pack.colour("fragment")
    bases, tops = _exact(flat, black), _exact(thick, black)
    # the map of the table's points to where their tops show is a scaling about the nadir:
    # three points of it, through the projection, give it whole
    feet = np.array([[0.0, 0.0], [100.0, 0.0], [0.0, 100.0]])
    to_top = cv2.getAffineTransform((feet * S).astype(np.float32),
                                    (_seen_on_table(view, feet, height_mm) * S)
                                    .astype(np.float32))
    expected = cv2.warpAffine(bases.astype(np.uint8), to_top,
                              (bases.shape[1], bases.shape[0]), flags=cv2.INTER_NEAREST) > 0
    assert _iou(tops, expected) > 0.97
    assert _iou(tops, expected) > _iou(tops, bases) + 0.02  # the tops did move
    # the sides show between each base and its top, darker than the top
    assert (thick[..., 3][bases & ~tops] == 255).all()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_cube_s_top_is_drawn_where_the_camera_shows_it(seed: int) -> None:
    pack = load_enigma_pack()
    colour = sorted(pack.angular)[seed % len(pack.angular)]
    cubes = {colour: [(0, 0, 0), (0, 0, 1)]}  # two cubes, one on the other
    view, eye = _camera(seed)
    height_mm = 12.0
    img = draw_cubes(cubes, pack, S, height_mm=height_mm, eye=eye, rng=random.Random(seed))
    size = structure_side_px(cubes, pack, S)
    assert img.shape[:2] == (size, size)
    side = float(pack.sizes["cube_mm"])
    x0 = size / S / 2 - side / 2
    corners = np.array([[x0, x0], [x0 + side, x0], [x0 + side, x0 + side], [x0, x0 + side]])
    top = _seen_on_table(view, corners, 2 * height_mm)
    expected = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(expected, [np.round(top * S).astype(np.int32)], 1)
    # the top face is lit full (its colour within the cube's own gain), the sides darker
    bgr = np.array(pack.angular[colour], float)
    ratio = img[..., :3].astype(float) / np.maximum(bgr, 1)
    lit = (np.abs(ratio - ratio[..., :1]).max(axis=2) < 0.06) & (ratio[..., 0] > 0.9) & \
        (img[..., 3] == 255)
    assert _iou(lit, expected > 0) > 0.95


def test_a_scene_with_thick_pieces_or_cubes_has_a_camera_and_a_flat_one_none() -> None:
    for extra in ({"fragment_height_mm": 4.5}, {"cube_height_mm": 12.0},
                  {"weight_height_mm": 3.0}):
        assert table_camera(extra, (0, 1), FRAME, max_tilt_deg=15.0) is not None
    assert table_camera({"fragment_height_mm": 0.0, "cube_height_mm": 0.0}, (0, 1), FRAME,
                        max_tilt_deg=15.0) is None
    pack, box = load_enigma_pack(), load_puzzles()
    card = next(iter(box.fragment.cards.values()))
    with pytest.raises(ValueError, match="camera"):
        render_puzzle_scene("fragment", card, pack, box=box, fragment_height_mm=4.5,
                            solution=default_solution("fragment", card, box))
