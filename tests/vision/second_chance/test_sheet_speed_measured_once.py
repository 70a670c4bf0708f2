"""Measures the sheet reader now takes once give what it took again each time, to the bit.

Speed itself is measured by ``bench/sheet_reader.py`` (no timing here); the plain versions
(as the reader had them before session 26) are kept below as the reference.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from companion.second_chance.shapes import Cell
from config.schema import SheetReaderSettings
from vision.second_chance.border_decisions import BorderEvidence, border_evidence, hue_gap
from vision.second_chance.border_light import border_light_levels
from vision.second_chance.cells import GRID_PX, MIDDLE_SHARE, PAD, colour_cover, colour_strength
from vision.second_chance.geometry import CANON_CELL, CANON_MARGIN, CANON_SIZE, line_evidence
from vision.second_chance.layout import GRID_CELLS
from vision.second_chance.profiles import BORDER_TRIM
from vision.second_chance.settings import DEFAULT_SETTINGS

N = GRID_CELLS


def plain_colour_strength(norm: np.ndarray, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """colour_strength as it was: both means taken here."""
    size = hi - lo
    m0 = int(round(size * (1 - MIDDLE_SHARE) / 2))
    grid = norm[PAD:PAD + GRID_PX, PAD:PAD + GRID_PX].reshape(N, CANON_CELL, N, CANON_CELL, 3)
    strengths = []
    for a, b in ((lo, hi), (lo + m0, hi - m0)):
        mean = grid[:, a:b, :, a:b].mean(axis=(1, 3))
        strengths.append(np.sqrt(((mean - mean.mean(axis=2, keepdims=True)) ** 2).sum(axis=2)))
    return strengths[0], strengths[1]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_colour_strength_with_the_covers_chroma_is_the_plain_one(seed: int, dtype: type) -> None:
    rng = np.random.default_rng(seed)
    side = 2 * PAD + GRID_PX
    norm = (1.0 + rng.normal(0.0, 0.05, (side, side, 3))).astype(dtype)
    # a few coloured cells, as a coloured pencil's fills
    for r, c in rng.integers(0, N, (12, 2)):
        y, x = PAD + r * CANON_CELL, PAD + c * CANON_CELL
        norm[y:y + CANON_CELL, x:x + CANON_CELL] *= rng.uniform(0.5, 1.0, 3).astype(dtype)
    lo = int(round(CANON_CELL * DEFAULT_SETTINGS.inset))
    chroma, _ = colour_cover(norm, lo, CANON_CELL - lo)
    whole, middle = colour_strength(norm, lo, CANON_CELL - lo, chroma)
    plain_whole, plain_middle = plain_colour_strength(norm, lo, CANON_CELL - lo)
    assert whole.dtype == plain_whole.dtype and middle.dtype == plain_middle.dtype
    assert whole.tobytes() == plain_whole.tobytes()
    assert middle.tobytes() == plain_middle.tobytes()


def plain_border_evidence(
    tiles: set[Cell], right: np.ndarray, below: np.ndarray, colour: np.ndarray,
    settings: SheetReaderSettings, thresholds: tuple[float, float],
) -> list[tuple[tuple[Cell, Cell], BorderEvidence]]:
    """border_evidence as it was: the hues' lengths taken border by border, np.clip."""
    cut_at, join_at = thresholds
    middle, half = (cut_at + join_at) / 2, max((cut_at - join_at) / 2, 1e-6)
    found = []
    for r, c in sorted(tiles):
        for (nr, nc), score in (((r, c + 1), right[r, c] if c + 1 < N else 0.0),
                                ((r + 1, c), below[r, c] if r + 1 < N else 0.0)):
            if (nr, nc) not in tiles:
                continue
            a, b = colour[r, c], colour[nr, nc]
            na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
            hue = (0.0 if na < settings.min_hue or nb < settings.min_hue
                   else 1.0 - float(np.dot(a, b)) / (na * nb))
            strong_hue = (hue > settings.colour_cut * settings.sure_hue_factor
                          and min(np.linalg.norm(a), np.linalg.norm(b))
                          >= settings.min_hue * settings.sure_hue_factor)
            distance = abs(float(score) - middle) / half
            sure = float(np.clip(0.5 + (distance - 1) * 0.5, 0.5, 1.0))
            found.append((((r, c), (nr, nc)), BorderEvidence(
                score, hue, bool(strong_hue), sure, distance, None, False, None)))
    return found


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("seed", range(6))
def test_border_evidence_with_each_hue_measured_once_is_the_plain_one(seed: int,
                                                                       dtype: type) -> None:
    rng = np.random.default_rng(seed)
    cells = [(r, c) for r in range(N) for c in range(N)]
    tiles = set(random.Random(seed).sample(cells, 50))
    right = rng.normal(0.1, 0.2, (N, N)).astype(dtype)
    below = rng.normal(0.1, 0.2, (N, N)).astype(dtype)
    # grey inks (no hue), faint ones at the hue's limits and strong colours
    colour = (rng.normal(0.0, 1.0, (N, N, 3))
              * rng.choice([0.0, 0.02, 0.04, 0.08, 0.3], (N, N, 1))).astype(dtype)
    thresholds = (0.25, 0.05)
    fast = border_evidence(tiles, right, below, colour, DEFAULT_SETTINGS, thresholds, {},
                           set(), {})
    plain = plain_border_evidence(tiles, right, below, colour, DEFAULT_SETTINGS, thresholds)
    assert repr(fast) == repr(plain)
    assert any(e.strong_hue for _, e in fast) and any(e.hue == 0.0 for _, e in fast)


def test_hue_gap_takes_the_lengths_given() -> None:
    a, b = np.array([0.3, -0.1, -0.2]), np.array([-0.2, 0.3, -0.1])
    lengths = (float(np.linalg.norm(a)), float(np.linalg.norm(b)))
    assert hue_gap(a, b, lengths, DEFAULT_SETTINGS) == pytest.approx(
        1.0 - float(a @ b) / (lengths[0] * lengths[1]))
    assert hue_gap(a, b, (0.0, lengths[1]), DEFAULT_SETTINGS) == 0.0


def plain_line_evidence(canon_gray: np.ndarray, *, slack: int = 4) -> float:
    """line_evidence as it was: a median call a profile."""
    g = canon_gray.astype(np.float32)
    lines = np.arange(GRID_CELLS + 1) * CANON_CELL + CANON_MARGIN
    mids = lines[:-1] + CANON_CELL // 2
    thirds = [slice(CANON_MARGIN + k * 3 * CANON_CELL, CANON_MARGIN + (k + 1) * 3 * CANON_CELL)
              for k in range(3)]
    window = np.arange(-slack, slack + 1)
    on: list[float] = []
    off: list[float] = []
    for piece in thirds:
        for profile in (g[:, piece].mean(axis=1), g[piece, :].mean(axis=0)):
            on.extend(profile[lines[:, None] + window].min(axis=1).tolist())
            off.extend(np.median(profile[mids[:, None] + window], axis=1).tolist())
    paper = float(np.percentile(off, 90)) or 1.0
    return float((np.median(off) - np.median(on)) / paper)


@pytest.mark.parametrize("seed", range(4))
def test_line_evidence_in_one_call_is_the_plain_one(seed: int) -> None:
    rng = np.random.default_rng(seed)
    gray = rng.integers(150, 256, (CANON_SIZE, CANON_SIZE)).astype(np.uint8)
    for k in range(GRID_CELLS + 1):  # a printed grid, some lines a pixel off
        at = CANON_MARGIN + k * CANON_CELL + int(rng.integers(-1, 2))
        gray[at, :] //= 2
        gray[:, at] //= 2
    assert line_evidence(gray) == plain_line_evidence(gray)
    noise = rng.integers(0, 256, gray.shape).astype(np.uint8)  # no grid at all
    assert line_evidence(noise) == plain_line_evidence(noise)


def plain_sides(t: np.ndarray, xs: np.ndarray, side_a: int, side_b: int, reach: int
                ) -> tuple[np.ndarray, ...]:
    """border_light_levels' bands and sides as they were: a call a line."""
    band_v = np.stack([t[:, x - reach:x + reach + 1].min(axis=1) for x in xs])
    band_h = np.stack([t[y - reach:y + reach + 1, :].min(axis=0) for y in xs])
    side_v = (np.stack([t[:, x - side_b:x - side_a].mean(axis=1) for x in xs])
              + np.stack([t[:, x + side_a:x + side_b].mean(axis=1) for x in xs])) / 2
    side_h = (np.stack([t[y - side_b:y - side_a, :].mean(axis=0) for y in xs])
              + np.stack([t[y + side_a:y + side_b, :].mean(axis=0) for y in xs])) / 2
    return band_v, band_h, side_v, side_h


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("seed", range(3))
def test_border_light_levels_gathered_are_the_plain_ones(seed: int, dtype: type) -> None:
    rng = np.random.default_rng(seed)
    side = 2 * PAD + GRID_PX
    darkness = rng.uniform(0.0, 1.0, (side, side)).astype(dtype)
    sides, reach, percentiles = (0.12, 0.3), 1, (70.0, 20.0)
    (through_r, beside_r), (through_b, beside_b) = border_light_levels(
        darkness, sides=sides, percentiles=percentiles, reach=reach, across=1, along=1)
    t = 1.0 - darkness
    xs = PAD + np.arange(1, N) * CANON_CELL
    side_a, side_b = int(round(CANON_CELL * sides[0])), int(round(CANON_CELL * sides[1]))
    band_v, band_h, side_v, side_h = plain_sides(t, xs, side_a, side_b, reach)
    trim = int(CANON_CELL * BORDER_TRIM)

    def cells(a: np.ndarray) -> np.ndarray:
        return a[:, PAD:PAD + GRID_PX].reshape(N - 1, N, CANON_CELL)[:, :, trim:CANON_CELL - trim]

    # across=1, along=1: the blur leaves t as it is, so the plain bands are cut from t
    for fast, plain in ((through_r, np.percentile(cells(band_v), percentiles, axis=2)
                         .transpose(0, 2, 1)),
                        (beside_r, np.percentile(cells(side_v), percentiles[0], axis=2).T),
                        (through_b, np.percentile(cells(band_h), percentiles, axis=2)),
                        (beside_b, np.percentile(cells(side_h), percentiles[0], axis=2))):
        assert fast.dtype == plain.dtype and fast.tobytes() == np.ascontiguousarray(
            plain).tobytes()
