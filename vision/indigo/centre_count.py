"""The centre stock counted as a heap: the gems of each colour on the centre tile, by the
peaks of their blobs, by laying whole gem discs over them and by their area, with a
confidence that drops when the counts disagree or break the stock's order. Used by
:func:`vision.indigo.gems.read_gems`.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.indigo import CENTRE, CENTRE_STOCK, Gem
from vision.indigo.board import cell_xy
from vision.indigo.discs import DOUBTFUL, disc_kernel
from vision.indigo.model import (
    GEM_NAMES,
    PackModel,
    circle_mask,
    to_canonical,
)
from vision.indigo.pack import IndigoPack
from vision.indigo.read_types import GemSpot

#: a distance peak counts as a gem when it lies this deep inside the blob, in gem radii
PEAK_MIN_DEPTH = 0.55


#: two counted peaks are at least this far apart, in gem radii (gems do not overlap)
PEAK_SEPARATION = 1.1


#: a covering disc is centred this deep inside the blob, in disc radii
COVER_DEPTH = 0.5


def _count_discs(mask: np.ndarray, gem_r: float) -> int:
    """Number of gem-sized discs in a mask: peaks of the distance to the background."""
    if not mask.any():
        return 0
    dist = cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, 3)
    peaks = (dist >= PEAK_MIN_DEPTH * gem_r) & (dist >= cv2.dilate(dist, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-dist[ys, xs])
    kept: list[tuple[int, int]] = []
    for k in order:
        y, x = int(ys[k]), int(xs[k])
        if all((x - kx) ** 2 + (y - ky) ** 2 >= (PEAK_SEPARATION * gem_r) ** 2 for kx, ky in kept):
            kept.append((x, y))
    return len(kept)


#: radii of the discs :func:`_cover_count` lays, in gem radii (a gem's colour region shrinks
#: a little at its rim when the frame is soft): a count is trusted only when it stays the
#: same for every one of them, so a count that a 10 % different gem size would change is
#: borderline
COVER_RADII = (0.9, 1.0)


#: a disc laid by :func:`_cover_count` must cover this share of new gem pixels to count
COVER_MIN_SHARE = 0.5


def _cover_count(mask: np.ndarray, radius: float) -> int:
    """Number of gem discs that cover a blob, laid greedily where each covers most.

    A second, independent count of touching gems: the distance-transform peaks of
    :func:`_count_discs` split one soft, elongated gem in two or merge two that blur into one
    neck; laying whole discs fails in other ways. When the two counts differ the blob is
    borderline and the count is asked.
    """
    kernel = disc_kernel(round(radius, 2))
    full = float(kernel.sum())
    left = mask.astype(np.float32)
    depth = cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, 3)
    inside = depth >= COVER_DEPTH * radius
    count = 0
    for _ in range(12):  # more than the six gems a centre tile holds
        cover = cv2.filter2D(left, -1, kernel, borderType=cv2.BORDER_CONSTANT)
        cover[~inside] = 0
        y, x = np.unravel_index(int(np.argmax(cover)), cover.shape)
        if float(cover[y, x]) < COVER_MIN_SHARE * full:
            break
        count += 1
        cv2.circle(left, (int(x), int(y)), int(round(radius)), 0, -1)
    return count


def read_centre(
    labels: np.ndarray, pack: IndigoPack, model: PackModel, *, share: dict[str, float] | None = None
) -> list[GemSpot]:
    """Count the gems of each colour on the centre tile (peaks of gem-coloured blobs).

    The stock is always the last gems of emerald x5, sapphire: a count that breaks that
    order gets a low confidence, and so does a count the blob area disagrees with, or one
    where laying whole gem discs over a blob gives another number than its peaks (touching
    gems in a soft frame: the count is borderline, so it is asked).
    """
    measured = share or {}
    block, disc, art = _centre_block(labels, model)
    gem_r = pack.gem_size * model.cell_px
    counts, blobs = _count_centre_colours(block, disc, art, gem_r, measured)
    _doubt_merged_blobs(counts, blobs, measured)
    return _centre_spots(counts)


#: a colour's count on the centre: (count, confidence, (fewest, most) the camera allows)
CentreCount = tuple[int, float, tuple[int, int]]


def _centre_block(
    labels: np.ndarray, model: PackModel
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The gem labels around the centre cell, the disc searched, and the centre art's own gem
    labels there (the pack's centre tile: printed gems, dots of a gem's colour)."""
    cell_px = model.cell_px
    x, y = to_canonical(cell_xy(CENTRE), cell_px)
    r = int(CENTRE_SEARCH * cell_px)
    block = labels[int(y) - r : int(y) + r + 1, int(x) - r : int(x) + r + 1]
    return block, circle_mask(block.shape[0], r), model.centre_art_labels(2 * r + 1)


#: a blob on the centre that lies this much on the centre art's own marks of its colour is
#: the print, not a gem
ART_BLOB_SHARE = 0.6


#: a blob smaller than this share of a gem disc is no gem (noise, a sliver of print)
MIN_BLOB_SHARE = 0.25


def _centre_blobs(block: np.ndarray, disc: np.ndarray, art: np.ndarray, code: int,
                  gem_r: float) -> tuple[np.ndarray, list[np.ndarray]]:
    """The pixels of gem colour ``code`` on the centre and its blobs that are gems, not print.

    The art's marks are not cut out of the blobs (a gem lying over a printed dot would fall
    apart into slivers whose peaks are too shallow to count): a blob is dropped when most of
    it lies on the art's own marks of that colour.
    """
    hit = (block == code) & disc
    opened = cv2.morphologyEx(hit.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, comp, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
    keep = np.zeros_like(hit)
    blobs = []
    on_art = art == code
    for k in range(1, n):
        blob = comp == k
        if stats[k, cv2.CC_STAT_AREA] < MIN_BLOB_SHARE * math.pi * gem_r**2:
            continue
        if float(on_art[blob].mean()) > ART_BLOB_SHARE:
            continue
        keep |= blob
        blobs.append(blob)
    return keep, blobs


def _count_centre_colours(
    block: np.ndarray, disc: np.ndarray, art: np.ndarray, gem_r: float, share: dict[str, float]
) -> tuple[dict[str, CentreCount], list[tuple[str, float, int]]]:
    """Per gem colour (count, confidence, plausible counts) on the centre, and (colour, area,
    peaks) of each blob.

    A count is doubtful when its blob area says another number of gems (at this frame's
    measured ``share`` of a gem disc, else within :data:`GEM_SHARE_RANGE`) or when laying
    whole discs over a blob gives another number than its peaks.
    """
    gem_area = math.pi * gem_r**2
    counts: dict[str, CentreCount] = {}
    blobs: list[tuple[str, float, int]] = []
    for index, name in enumerate(GEM_NAMES):
        hit, found = _centre_blobs(block, disc, art, index + 1, gem_r)
        covers = [0 for _ in COVER_RADII]
        for blob in found:
            peaks = _count_discs(blob, gem_r)
            if peaks:
                blobs.append((name, float(blob.sum()), peaks))
            covers = [n + _cover_count(blob, f * gem_r) for n, f in zip(covers, COVER_RADII,
                                                                        strict=True)]
        count = sum(p for c, _, p in blobs if c == name)
        area = float(hit.sum()) / gem_area
        measured = share.get(name)
        if measured is not None:
            # the blob area must say the same count as the peaks, at this frame's gem share
            by_area = [int(round(area / max(measured, MIN_GEM_SHARE)))]
        else:
            by_area = []
        # the plausible counts: the peaks and the discs laid (a blob's area, in gems measured
        # alone on edges, runs high on a heap, whose gems show more of their colour)
        shape = [count, *covers]
        seen = area / max(count, 1)
        agrees = min(shape) == max(shape) and all(n == count for n in by_area) and (
            bool(by_area) or count == 0 or GEM_SHARE_RANGE[0] <= seen <= GEM_SHARE_RANGE[1])
        counts[name] = (count, 1.0 if agrees else DOUBTFUL, (min(shape), max(shape)))
    return counts, blobs


def _doubt_merged_blobs(
    counts: dict[str, CentreCount],
    blobs: list[tuple[str, float, int]],
    share: dict[str, float],
) -> None:
    """Lower the confidence of colours with a blob whose area and peaks disagree (in place).

    Gems that touch (or blur together) make one blob: its area, in units of the typical
    single-gem blob of its colour in this frame, must say the same number of gems as its
    peaks.
    """
    for name, area, peaks in blobs:
        # the unit is a lone gem of the same colour: colours differ in how much of a gem
        # reads as its colour (a sapphire's dark facets, an amber's highlights)
        singles = [a for c, a, p in blobs if p == 1 and c == name]
        if singles:
            doubtful = abs(area / float(np.median(singles)) - peaks) > BLOB_COUNT_TOLERANCE
        else:
            # several gems in one blob and nothing to measure one gem by: ask
            doubtful = peaks > 1 and share.get(name) is None
        if doubtful:
            count, conf, plausible = counts[name]
            counts[name] = (count, min(conf, DOUBTFUL), plausible)


def _centre_spots(counts: dict[str, CentreCount]) -> list[GemSpot]:
    """The centre's gems; a count no stock can show (an amber, or out of order) is doubtful."""
    emeralds, sapphires = counts["emerald"][0], counts["sapphire"][0]
    order_ok = sapphires <= 1 and emeralds <= 5 and (emeralds == 0 or sapphires == 1)
    out: list[GemSpot] = []
    for name, (count, conf, plausible) in counts.items():
        if name == "amber" and count:
            conf = min(conf, AMBER_ON_CENTRE)  # no amber ever lies on the centre
        elif not order_ok:
            conf = min(conf, DOUBTFUL)
        out.extend(GemSpot(Gem(name), None, conf, plausible)
                   for _ in range(min(count, len(CENTRE_STOCK))))
    return out


#: the centre search disc, in cell radii: the centre cell without its rim
CENTRE_SEARCH = 0.9


#: a measured gem share is taken as at least this (a tiny measured share would inflate the
#: count the area says)
MIN_GEM_SHARE = 0.2


#: a blob's area, in single-gem blobs, may differ this much from its peak count
BLOB_COUNT_TOLERANCE = 0.45


#: the confidence of an amber seen on the centre, where none ever lies
AMBER_ON_CENTRE = 0.3


#: a counted centre gem covers this range of one gem disc's area in its colour
GEM_SHARE_RANGE = (0.55, 1.25)

