"""Sheet reader, second look at the borders the outline score leaves undecided: each border's
profile across the grid line, compared with the profiles of this sheet's own sure borders.

The outline score of :mod:`vision.second_chance.outlines` is one number: how much darker the border
is than a printed line would be. Soft pencil over dark shading brings many drawn outlines close to
the printed line in that number, but not in shape: across the border a printed line under the fill
is a thin dip at the line, the same on every border of the sheet, while a drawn outline is wider,
sits where the hand put it, often has a strip of paper beside it (players shade up to their outline)
and different shading on its two sides. So each undecided border's profile is compared with the
median profile of the sheet's sure insides (borders clearly without a line) and of its sure
outlines, in units of how much those profiles vary on this sheet. A border far from every sure
inside and close to the sure outlines is an outline; one close to the insides and far from the
outlines is none; anything else stays undecided (rules, or a question).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.second_chance.cells import GRID_PX, PAD
from vision.second_chance.geometry import CANON_CELL
from vision.second_chance.layout import GRID_CELLS

N = GRID_CELLS
#: the profile is read this many pixels to each side of the grid line; the light of the fill
#: beside the border (what the profile is divided by) from the outer ``SIDE`` pixels each side
REACH = 10
SIDE = 4
#: the part of the profile compared: the line and the strips beside it
COMPARED = 6
#: a profile's spread is never taken below this (a sheet whose sure borders look all alike)
MIN_SPREAD = 0.02
#: a border is measured along the middle of each cell's stretch of grid line: this share of a
#: cell is left out at each end (the corners, where the crossing line and other outlines meet)
BORDER_TRIM = 0.22
#: the fewest sure insides and sure outlines a sheet needs for its templates
MIN_INSIDES = 5
MIN_OUTLINES = 3


@dataclass(frozen=True)
class ProfileRule:
    """When a profile decides an undecided border (distances in the sheet's spread units)."""

    #: an outline: at most this far from the sure outlines, and this much nearer to them than
    #: to the sure insides
    outline_near: float = 2.0
    outline_lead: float = 1.0
    #: ... and only where the score leans this share of the way from the middle of the
    #: undecided band to the cut (profile cuts on scores just past the middle, leans of about
    #: 0.13-0.22, split tiles in two without a question)
    outline_lean: float = 0.3
    #: no outline: at most this far from the sure insides, and this much nearer to them
    inside_near: float = 1.2
    inside_lead: float = 1.0


DEFAULT_RULE = ProfileRule()


def border_profiles(darkness: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean light across every border, relative to the fill beside it:
    ``right`` (9, 8, P) for the border right of (r, c), ``below`` (8, 9, P) under it, with
    P = 2 * COMPARED + 1 offsets from the grid line. Averaged along the trimmed middle of the
    border, so a hatch stroke crossing it counts little and a line along it fully.
    """
    t = 1.0 - darkness
    trim = int(CANON_CELL * BORDER_TRIM)
    lines = PAD + np.arange(1, N) * CANON_CELL
    offsets = np.arange(-REACH, REACH + 1)
    # vertical lines: (rows of pixels, 8 lines, offsets) -> per cell of the line
    vertical = t[:, lines[:, None] + offsets[None, :]]
    vertical = vertical[PAD:PAD + GRID_PX].reshape(N, CANON_CELL, N - 1, offsets.size)
    right = vertical[:, trim:CANON_CELL - trim].mean(axis=1)  # (9, 8, P)
    horizontal = t[lines[:, None] + offsets[None, :], :]  # (8, P, W)
    horizontal = horizontal[:, :, PAD:PAD + GRID_PX].reshape(N - 1, offsets.size, N, CANON_CELL)
    below = horizontal[:, :, :, trim:CANON_CELL - trim].mean(axis=3).transpose(0, 2, 1)

    def relative(p: np.ndarray) -> np.ndarray:
        side = (p[..., :SIDE].mean(axis=-1) + p[..., -SIDE:].mean(axis=-1)) / 2
        middle = p[..., REACH - COMPARED:REACH + COMPARED + 1]
        return middle / np.maximum(side, 1e-3)[..., None]  # type: ignore[no-any-return]

    return relative(right), relative(below)


def _template(profiles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    centre = np.median(profiles, axis=0)
    spread = np.maximum(1.4826 * np.median(np.abs(profiles - centre), axis=0), MIN_SPREAD)
    return centre, spread


def profile_verdicts(
    profiles: dict[tuple[tuple[int, int], tuple[int, int]], np.ndarray],
    scores: dict[tuple[tuple[int, int], tuple[int, int]], float],
    thresholds: tuple[float, float],
    rule: ProfileRule = DEFAULT_RULE,
) -> dict[tuple[tuple[int, int], tuple[int, int]], bool]:
    """For the borders whose score lies between ``join`` and ``cut``: True (an outline) or
    False (none) where the profile says so clearly and the score leans the same way (above or
    below the middle of the two); the others are left out. The profile only tips a balance:
    alone, a hatch stroke along a border or an unusual shading can look like an outline.

    Needs ``MIN_INSIDES`` sure insides and ``MIN_OUTLINES`` sure outlines (by score) on the
    sheet; with fewer, nothing is decided here.
    """
    cut_at, join_at = thresholds
    insides = [b for b, s in scores.items() if s <= join_at]
    outlines = [b for b, s in scores.items() if s > cut_at]
    middle = (cut_at + join_at) / 2
    undecided = [b for b, s in scores.items() if join_at < s <= cut_at]
    if not undecided or len(insides) < MIN_INSIDES or len(outlines) < MIN_OUTLINES:
        return {}
    in_centre, in_spread = _template(np.stack([profiles[b] for b in insides]))
    out_centre, out_spread = _template(np.stack([profiles[b] for b in outlines]))
    verdicts: dict[tuple[tuple[int, int], tuple[int, int]], bool] = {}
    for border in undecided:
        p = profiles[border]
        to_in = float(np.sqrt(np.mean(((p - in_centre) / in_spread) ** 2)))
        to_out = float(np.sqrt(np.mean(((p - out_centre) / out_spread) ** 2)))
        leans_out = scores[border] >= middle
        lean = (scores[border] - middle) / max((cut_at - join_at) / 2, 1e-6)
        if (lean >= rule.outline_lean and to_out <= rule.outline_near
                and to_in - to_out >= rule.outline_lead):
            verdicts[border] = True
        elif (not leans_out and to_in <= rule.inside_near
              and to_out - to_in >= rule.inside_lead):
            verdicts[border] = False
    return verdicts
