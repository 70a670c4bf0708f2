"""The independent puzzle scenes (bench/independent_scenes/puzzle_*): a right build is right and
a wrong build wrong by the engine's own checks, the card prints what the card data says, and
the frame shows the pieces where the build put them."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from independent_scenes.puzzle_builds import KINDS, demo_cards, make_build, puzzle_box  # noqa: E402
from independent_scenes.puzzle_card import (  # noqa: E402
    FRAGMENT_UNIT_MM,
    PX_PER_MM,
    Print,
    cup_centres,
    fragment_card,
    weight_card,
)
from independent_scenes.puzzle_pieces import lifted  # noqa: E402
from independent_scenes.puzzle_scene import PIECE_COLOURS, puzzle_scene, to_table  # noqa: E402

from companion.enigma import puzzle_angular, puzzle_weight  # noqa: E402


def _weight_counts(kind_build) -> dict[str, list[int]]:
    """How many of the build's weights lie inside each printed cup ring."""
    card = puzzle_box().weight.cards[kind_build.card_id]
    counts = {}
    for side, values in (("left", card.left), ("right", card.right)):
        counts[side] = [int(sum(np.hypot(*(w - (x, y))) < r for w in kind_build.weights))
                        for x, y, r in cup_centres(len(values), side)]
    return counts


@pytest.mark.parametrize("seed", range(6))
def test_weight_builds_are_right_or_wrong_by_the_engine(seed):
    for card_id in demo_cards("weight"):
        card = puzzle_box().weight.cards[card_id]
        for right in (True, False):
            build = make_build("weight", card_id, right, np.random.default_rng(seed), "mild")
            counts = _weight_counts(build)
            solution = puzzle_weight.WeightSolution(tuple(counts["left"]),
                                                    tuple(counts["right"]))
            assert puzzle_weight.check(card, solution) is right, (card_id, build.mistake)
            spots = build.weights
            for i, a in enumerate(spots):     # no weight lies on another
                assert all(np.hypot(*(a - b)) >= 5.0 for b in spots[i + 1:])


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "weight"])
def test_every_wrong_build_names_its_mistake_and_differs_from_the_right_one(kind):
    for card_id in demo_cards(kind):
        for seed in range(4):
            right = make_build(kind, card_id, True, np.random.default_rng(seed), "mild")
            wrong = make_build(kind, card_id, False, np.random.default_rng(seed), "mild")
            assert right.right and not wrong.right and wrong.mistake
            if kind == "angular" and not wrong.apart:
                seen = puzzle_angular.top_view(wrong.cubes)
                card = puzzle_box().angular.cards[card_id]
                assert not puzzle_angular.picture_matches(seen, card.top)
                assert puzzle_angular.picture_matches(puzzle_angular.top_view(right.cubes),
                                                      card.top)


def test_the_weight_card_prints_a_ring_round_each_cup():
    card = puzzle_box().weight.cards["weight-demo-2"]
    look = Print(np.random.default_rng(1))
    picture = weight_card(card.left, card.right, card.count, look)
    grey = picture.mean(axis=2)
    for side, values in (("left", card.left), ("right", card.right)):
        for x, y, r in cup_centres(len(values), side):
            inside = grey[int(y * PX_PER_MM), int(x * PX_PER_MM)]
            ring = [grey[int((y + r * np.sin(a)) * PX_PER_MM), int((x + r * np.cos(a)) * PX_PER_MM)]
                    for a in np.linspace(0, 2 * np.pi, 12, endpoint=False)]
            assert inside > 200 and max(ring) < inside - 80


def test_the_fragment_card_prints_the_silhouette_at_its_scale():
    card = puzzle_box().fragment.cards["fragment-demo-3"]
    look = Print(np.random.default_rng(2))
    picture = fragment_card(card.silhouette, look)
    printed = np.linalg.norm(picture - look.grey, axis=2) < 12
    area_mm2 = printed.sum() / PX_PER_MM ** 2
    assert area_mm2 == pytest.approx(card.area * FRAGMENT_UNIT_MM ** 2, rel=0.03)


def _pixel(scene, point_mm, height) -> np.ndarray:
    x, y = scene.camera.project(lifted(np.asarray(point_mm, float)[None], height))[0]
    return scene.frame[int(round(y)), int(round(x))].astype(float)


def test_the_frame_shows_each_weight_where_the_build_laid_it():
    scene = puzzle_scene("weight", "weight-demo-1", True, 3, "mild")
    paper = _pixel(scene, to_table(scene.card_to_table, np.array([[30.0, 8.0]]))[0],
                   scene.card_thick)
    assert len(scene.solids) == puzzle_box().weight.cards["weight-demo-1"].count
    for solid in scene.solids:
        middle = solid.footprint.mean(axis=0)
        metal = _pixel(scene, middle, solid.base + solid.height)
        edge = _pixel(scene, middle + (solid.footprint[0] - middle) * 0.9,
                      solid.base + solid.height)
        assert edge.mean() < paper.mean() - 60 and metal.mean() < paper.mean() - 20


def test_the_frame_shows_the_structure_top_colours_of_the_card():
    scene = puzzle_scene("angular", "angular-demo-1", True, 5, "mild")
    highest: dict[tuple[int, int], object] = {}
    for solid in scene.solids:
        x, y, z = solid.extra["cube"]
        if (x, y) not in highest or z > highest[(x, y)].extra["cube"][2]:
            highest[(x, y)] = solid
    pieces = {p.id: p.colour for p in puzzle_box().angular.pieces}
    names = list(PIECE_COLOURS)
    for solid in highest.values():
        seen = _pixel(scene, solid.footprint.mean(axis=0), solid.base + solid.height)
        seen = seen / max(seen.sum(), 1.0)
        nearest = min(names, key=lambda n: np.linalg.norm(
            seen - np.array(PIECE_COLOURS[n]) / sum(PIECE_COLOURS[n])))
        assert nearest == pieces[solid.extra["piece"]]


def test_the_frame_shows_each_conduit_channel_at_its_openings_only():
    scene = puzzle_scene("conduit", "conduit-demo-2", True, 7, "mild")
    assert len(scene.solids) == 8                 # P9 is marked X: set aside
    steps = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    for solid in scene.solids:
        middle = solid.footprint.mean(axis=0)
        corner_to_middle = solid.footprint[0] - middle
        ring = float(np.hypot(*corner_to_middle)) / np.sqrt(2) * 0.75
        turn = np.arctan2(solid.footprint[1, 1] - solid.footprint[0, 1],
                          solid.footprint[1, 0] - solid.footprint[0, 0])
        c, s = np.cos(turn), np.sin(turn)
        wood = _pixel(scene, middle + ring * np.array([c - s, s + c]) * 0.9,
                      solid.base + solid.height)
        for side, (dx, dy) in steps.items():
            spot = middle + ring * np.array([c * dx - s * dy, s * dx + c * dy])
            seen = _pixel(scene, spot, solid.base + solid.height)
            channel = np.linalg.norm(seen - wood) > 40
            assert channel == (side in solid.extra["openings"]), side


def test_scenes_are_seeded():
    a = puzzle_scene("fragment", "fragment-demo-1", False, 11, "harsh")
    b = puzzle_scene("fragment", "fragment-demo-1", False, 11, "harsh")
    assert a.build.mistake == b.build.mistake and np.array_equal(a.frame, b.frame)
    assert cv2.absdiff(a.frame, puzzle_scene("fragment", "fragment-demo-1", False, 12,
                                             "harsh").frame).mean() > 1
