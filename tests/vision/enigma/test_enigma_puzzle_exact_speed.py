"""The puzzle checks' speed savings of session 25 are exact: each faster helper gives what the
code it replaced gave, to the bit, and a seeded check of every kind gives the same verdict,
reason, facts and marks with the replaced code put back (kept here as the reference)."""

from __future__ import annotations

import warnings
from collections import Counter
from typing import Any

import cv2
import numpy as np
import pytest

import vision.enigma.puzzles.angular as angular_check
import vision.enigma.puzzles.angular_cloth as angular_cloth
import vision.enigma.puzzles.angular_light as angular_light
import vision.enigma.puzzles.card_find as card_find
import vision.enigma.puzzles.fragment as fragment_check
import vision.enigma.puzzles.weight as weight_check
from companion.enigma.puzzles import load_puzzles
from vision.enigma.pack import load_enigma_pack
from vision.enigma.puzzles.angular import cell_vote
from vision.enigma.puzzles.angular_cloth import local_table
from vision.enigma.puzzles.card_find import outline_steps, rolled_difference
from vision.enigma.puzzles.check import check_puzzle
from vision.enigma.puzzles.fragment import blob_chroma
from vision.enigma.puzzles.view import open_mask
from vision.enigma.synth.puzzle_table import TableCondition, render_table_frame
from vision.enigma.synth.puzzles import default_solution

# ---------------------------------------------------------------- the replaced code


def _old_open_mask(mask: np.ndarray, radius: int) -> np.ndarray:
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    return cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, k).astype(bool)


def _old_outline_steps(bright: np.ndarray, side: int) -> np.ndarray:
    d = max(1, int(round(card_find.STEP_WIDTH * side)))
    half = side // 2
    steps = np.zeros_like(bright)
    for axis in (1, 0):
        kernel = (d, 1) if axis == 1 else (1, d)
        near = cv2.blur(bright, kernel, borderType=cv2.BORDER_REPLICATE)
        diff = np.roll(near, -(d + 1) // 2, axis) - np.roll(near, d // 2 + 1, axis)
        along = (1, side) if axis == 1 else (side, 1)
        rise = cv2.blur(diff.astype(np.float32, copy=False), along,
                        borderType=cv2.BORDER_CONSTANT)
        steps += np.roll(np.clip(rise, 0, None), half, axis)
        steps += np.roll(np.clip(-rise, 0, None), -half, axis)
    out: np.ndarray = steps / 4
    return out


def _old_local_table(mat: np.ndarray, tableish: np.ndarray, cube: float) -> np.ndarray:
    side = max(4, int(cube))
    h, w = tableish.shape
    rows, cols = -(-h // side), -(-w // side)
    blocks = np.full((rows, cols, 3), np.nan, np.float32)
    for r in range(rows):
        for c in range(cols):
            ys, xs = slice(r * side, (r + 1) * side), slice(c * side, (c + 1) * side)
            keep = tableish[ys, xs]
            if keep.mean() >= angular_cloth.MIN_BLOCK_SHARE:
                blocks[r, c] = np.median(mat[ys, xs][keep], axis=0)
    k = angular_cloth.FIELD_REACH
    padded = np.pad(blocks, ((k, k), (k, k), (0, 0)), constant_values=np.nan)
    stack = np.stack([padded[dy:dy + rows, dx:dx + cols]
                      for dy in range(2 * k + 1) for dx in range(2 * k + 1)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        field = np.nanmedian(stack, axis=0).astype(np.float32)
    full = cv2.resize(np.nan_to_num(field, nan=-1.0), (cols * side, rows * side),
                      interpolation=cv2.INTER_NEAREST)[:h, :w]
    full[full < 0] = np.nan
    return np.asarray(full, np.float32)


def _old_blob_chroma(image: np.ndarray, labels: np.ndarray, stat: np.ndarray, k: int) -> float:
    """The blob's colour as the fragment check measured it, over the whole view."""
    whole = image.astype(np.int16)
    chroma = whole.max(axis=2) - whole.min(axis=2)
    return float(np.median(chroma[labels == k]))


def _old_cell_vote(cell: np.ndarray, names: list[str]) -> tuple[str, int, int]:
    votes = Counter(names[i] for i in cell.ravel())
    top, n = votes.most_common(1)[0]
    return top, n, sum(votes.values())


# ---------------------------------------------------------------- helper by helper


def _random_mask(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    h, w = shape
    mask = np.zeros(shape, np.uint8)
    for _ in range(int(rng.integers(0, 6))):
        centre = (int(rng.integers(-10, w + 10)), int(rng.integers(-10, h + 10)))
        cv2.circle(mask, centre, int(rng.integers(1, 30)), 1, -1)
    if rng.random() < 0.5:
        mask |= (rng.random(shape) < rng.uniform(0, 0.3)).astype(np.uint8)
    return mask.astype(bool)


def test_open_mask_round_the_set_pixels_is_the_whole_opening() -> None:
    rng = np.random.default_rng(7)
    for _ in range(200):
        mask = _random_mask(rng, (int(rng.integers(1, 120)), int(rng.integers(1, 120))))
        radius = int(rng.integers(1, 14))
        assert np.array_equal(open_mask(mask, radius), _old_open_mask(mask, radius))


def test_outline_steps_without_rolled_copies_are_the_same_bits() -> None:
    rng = np.random.default_rng(3)
    for _ in range(25):
        shape = (int(rng.integers(5, 160)), int(rng.integers(5, 160)))
        image = cv2.GaussianBlur(rng.random(shape).astype(np.float32), (0, 0),
                                 float(rng.uniform(0.5, 4)))
        for side in (3, 7, 20, 60, int(rng.integers(3, 200))):
            assert outline_steps(image, side).tobytes() == \
                _old_outline_steps(image, side).tobytes()


@pytest.mark.parametrize("axis", [0, 1])
def test_rolled_difference_is_numpys_rolls_subtracted(axis: int) -> None:
    image = np.random.default_rng(axis).random((17, 23)).astype(np.float32)
    for first in range(-30, 31, 3):
        for second in range(-30, 31, 4):
            expected = np.roll(image, first, axis) - np.roll(image, second, axis)
            assert rolled_difference(image, first, second, axis).tobytes() == \
                expected.tobytes()


def test_local_table_counted_at_once_is_the_block_loops() -> None:
    rng = np.random.default_rng(5)
    for _ in range(10):
        shape = (int(rng.integers(50, 300)), int(rng.integers(50, 300)))
        mat = rng.integers(0, 256, (*shape, 3)).astype(np.uint8)
        keep = rng.random(shape) < rng.uniform(0.2, 0.9)
        cube = float(rng.integers(4, 60))
        new, old = local_table(mat, keep, cube), _old_local_table(mat, keep, cube)
        assert np.array_equal(np.isnan(new), np.isnan(old))
        assert new.tobytes() == old.tobytes()


def test_a_cells_vote_is_counters() -> None:
    rng = np.random.default_rng(4)
    names = [f"colour{i}" for i in range(9)]
    for _ in range(500):
        cell = rng.integers(0, int(rng.integers(1, 9)),
                            (int(rng.integers(1, 30)), int(rng.integers(1, 30)))).astype(np.int32)
        if rng.random() < 0.3:
            cell[:] = rng.integers(0, 9)
        assert cell_vote(cell, names) == _old_cell_vote(cell, names)


def test_a_blobs_colour_measured_in_its_box_is_the_whole_views() -> None:
    rng = np.random.default_rng(1)
    for _ in range(20):
        image = rng.integers(0, 256, (160, 200, 3)).astype(np.uint8)
        image[: 80, :, 1] = image[: 80, :, 0]  # greys and colours both
        beside = _random_mask(rng, (160, 200)).astype(np.uint8)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(beside, connectivity=8)
        # a speckled mask has thousands of blobs, and the old measure is over the whole view
        for k in rng.permutation(np.arange(1, n))[:40]:
            assert blob_chroma(image, labels, stats[k], k) == \
                _old_blob_chroma(image, labels, stats[k], k)


# ---------------------------------------------------------------- a whole check pinned


def _with_the_replaced_code(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in (fragment_check, angular_check, angular_light, weight_check):
        monkeypatch.setattr(module, "open_mask", _old_open_mask)
    monkeypatch.setattr(card_find, "outline_steps", _old_outline_steps)
    monkeypatch.setattr(angular_check, "local_table", _old_local_table)
    monkeypatch.setattr(fragment_check, "blob_chroma", _old_blob_chroma)
    monkeypatch.setattr(angular_check, "cell_vote", _old_cell_vote)


def _said(verdict: Any) -> tuple[Any, ...]:
    return (dict(verdict), verdict.code, verdict.facts, verdict.marks)


@pytest.mark.parametrize("kind,surface", [("fragment", "wood"), ("angular", "wood"),
                                          ("angular", "cloth"), ("conduit", "cloth"),
                                          ("weight", "wood")])
def test_a_seeded_check_says_the_same_with_the_replaced_code(
        kind: str, surface: str, monkeypatch: pytest.MonkeyPatch) -> None:
    box, pack = load_puzzles(), load_enigma_pack()
    card = next(iter(getattr(box, kind).cards.values()))
    frame = render_table_frame(kind, card, pack, condition=TableCondition(surface, "moderate"),
                               solution=default_solution(kind, card, box), seed=1)
    now = check_puzzle(kind, frame, pack, card=card, box=box)
    _with_the_replaced_code(monkeypatch)
    before = check_puzzle(kind, frame, pack, card=card, box=box)
    assert _said(now) == _said(before)
