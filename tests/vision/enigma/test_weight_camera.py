"""Tall weights drawn as a real camera shows them: the top face lies off the base AWAY from
the point under the camera (the nadir), the more the farther from it, and not at all right
under the camera; the lean follows the camera, not the seed; flat weights ignore it."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from companion.enigma.puzzles import load_puzzles
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.cards import Point, weight_cups
from vision.enigma.synth.puzzles import default_solution, draw_weight, render_puzzle_scene
from vision.synth.pinhole import Pinhole, Viewpoint

S = 20.0  # px per mm: top faces found to a tenth of a mm
PAD = 10.0
HEIGHT = 3.0


def _lone_weights(pack: EnigmaPack) -> tuple[object, object, list[Point]]:
    """A demo card, its right build, and the bases (mm) of the weights alone in a cup."""
    box = load_puzzles()
    card = box.weight.cards["weight-demo-1"]
    solution = default_solution("weight", card, box)
    bases = []
    for cup in weight_cups(card, pack.tile_mm):
        counts = solution.left if cup.side == "left" else solution.right
        if counts[cup.index] == 1:
            bases.append((cup.centre[0] + PAD, cup.centre[1] + PAD))
    return card, solution, bases


def _metal_centre(img: np.ndarray, pack: EnigmaPack, near: Point, wr: float) -> np.ndarray:
    """The middle (mm) of the top face's metal within two radii of ``near``."""
    metal = np.array(pack.colour("weight"))
    mask = np.all(np.abs(img[..., :3].astype(int) - metal) <= 2, axis=-1)
    yy, xx = np.mgrid[0:img.shape[0], 0:img.shape[1]]
    mask &= np.hypot(xx - near[0] * S, yy - near[1] * S) < 2 * wr * S
    assert mask.sum() > 100
    return np.array([xx[mask].mean(), yy[mask].mean()]) / S


@pytest.mark.parametrize("seed", range(4))
def test_a_tall_weight_s_top_face_lies_off_its_base_away_from_the_nadir(
        demo_pack: EnigmaPack, seed: int) -> None:
    card, solution, bases = _lone_weights(demo_pack)
    wr = demo_pack.sizes["weight_mm"] / 2
    rng = random.Random(seed)
    # a camera 300 to 600 mm up, its nadir up to 300 mm off the card in any direction
    turn, off = rng.uniform(0, 2 * math.pi), rng.uniform(80, 300)
    eye = Viewpoint((40 + off * math.cos(turn), 40 + off * math.sin(turn)),
                    rng.uniform(300, 600))
    img = draw_weight(card, solution, demo_pack, S, pad_mm=PAD, rng=random.Random(seed),
                      height_mm=HEIGHT, eye=eye)
    for base in bases:
        moved = _metal_centre(img, demo_pack, base, wr) - base
        away = np.subtract(base, eye.nadir)
        expected = HEIGHT * np.hypot(*away) / (eye.height - HEIGHT)
        angle = math.degrees(math.acos(moved @ away / np.hypot(*moved) / np.hypot(*away)))
        assert angle < 5, (base, moved, away)
        assert np.hypot(*moved) == pytest.approx(expected, rel=0.1, abs=0.05)


def test_a_tall_weight_right_under_the_camera_shows_its_top_face_over_its_base(
        demo_pack: EnigmaPack) -> None:
    card, solution, bases = _lone_weights(demo_pack)
    wr = demo_pack.sizes["weight_mm"] / 2
    for base in bases:
        img = draw_weight(card, solution, demo_pack, S, pad_mm=PAD, rng=random.Random(0),
                          height_mm=HEIGHT, eye=Viewpoint(base, 450.0))
        moved = _metal_centre(img, demo_pack, base, wr) - base
        assert np.hypot(*moved) < 0.05 * wr


def _metal_middle(scene: np.ndarray, pack: EnigmaPack) -> np.ndarray:
    mask = np.all(np.abs(scene.astype(int) - np.array(pack.colour("weight"))) <= 3, axis=-1)
    yy, xx = np.nonzero(mask)
    return np.array([xx.mean(), yy.mean()])


def test_the_same_seed_leans_its_weights_with_the_camera(demo_pack: EnigmaPack) -> None:
    box = load_puzzles()
    card = box.weight.cards["weight-demo-1"]
    solution = default_solution("weight", card, box)
    middles, nadirs = [], []
    for towards in (0.0, 180.0):
        camera = Pinhole((2304, 1296), 62.0, 25.0, towards, 0.0, 0.9)
        scene = render_puzzle_scene("weight", card, demo_pack, solution=solution, box=box,
                                    seed=7, weight_height_mm=HEIGHT, camera=camera)
        middles.append(_metal_middle(scene, demo_pack))
        nadirs.append(camera.view((scene.shape[1], scene.shape[0])).eye.nadir)
    # the second camera stands the other way: the top faces move away from it
    shift, apart = middles[1] - middles[0], np.subtract(nadirs[1], nadirs[0])
    assert shift @ apart < -0.5 * np.hypot(*shift) * np.hypot(*apart)
    assert np.hypot(*shift) > 2  # scene pixels: about a third of a weight's radius


def test_flat_weights_are_drawn_the_same_whatever_the_camera(demo_pack: EnigmaPack) -> None:
    box = load_puzzles()
    card = box.weight.cards["weight-demo-2"]
    solution = default_solution("weight", card, box)
    plain = render_puzzle_scene("weight", card, demo_pack, solution=solution, box=box,
                                seed=3, px_per_mm=3.0, overlap=0.6)
    seen = render_puzzle_scene("weight", card, demo_pack, solution=solution, box=box, seed=3,
                               px_per_mm=3.0, overlap=0.6,
                               camera=Pinhole((640, 360), 70.0, 20.0, 40.0, 0.0, 0.9))
    assert np.array_equal(plain, seen)


def test_tall_weights_without_a_camera_are_refused(demo_pack: EnigmaPack) -> None:
    box = load_puzzles()
    card = box.weight.cards["weight-demo-1"]
    with pytest.raises(ValueError, match="camera"):
        render_puzzle_scene("weight", card, demo_pack, solution=default_solution(
            "weight", card, box), box=box, seed=0, weight_height_mm=HEIGHT)
