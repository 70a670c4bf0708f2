"""Indigo reader stage 5: what lies on the rectified board, classified against the pack: gems
(colour labels, spots, the count in the centre stock), route tiles (template match in every
rotation, or empty) and the players' chips. See :mod:`vision.indigo.reader`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from companion.indigo import CENTRE, CENTRE_STOCK, ROUTE_CELLS, Gem
from companion.indigo.geometry import Cell, EdgePoint, neighbour, opposite
from vision.indigo.board import (
    cell_xy,
    chip_spaces,
    gem_spots,
    point_xy,
)
from vision.indigo.model import (
    COMPARE_RADIUS,
    GEM_NAMES,
    PackModel,
    canonical_size,
    circle_mask,
    colour_distance,
    gem_label_map,
    to_canonical,
)
from vision.indigo.pack import IndigoPack
from vision.indigo.read_types import CellRead, ChipRead
from vision.indigo.settings import IndigoSettings

# ---------------------------------------------------------------- stage 5: gems, tiles, chips


def disc_pixels(lab: np.ndarray, xy: tuple[float, float], radius: float) -> np.ndarray:
    """The pixels of ``lab`` whose centres lie within ``radius`` of ``xy``."""
    x, y = xy
    r = int(math.ceil(radius))
    xi, yi = int(round(x)), int(round(y))
    block = lab[yi - r : yi + r + 1, xi - r : xi + r + 1]
    inside = _disc_inside(xi - x, yi - y, radius)
    in_disc: np.ndarray = block[inside[: block.shape[0], : block.shape[1]]]
    return in_disc


@lru_cache(maxsize=512)
def _disc_inside(dx: float, dy: float, radius: float) -> np.ndarray:
    """The disc of :func:`disc_pixels` round a point ``(dx, dy)`` off the block's middle
    pixel: the board's spots and spaces are the same every frame, so it is worked out once."""
    r = int(math.ceil(radius))
    # open grids, broadcast: the same sums as full ones without building them
    yy, xx = np.ogrid[-r : r + 1, -r : r + 1]
    inside: np.ndarray = (xx + dx) ** 2 + (yy + dy) ** 2 <= radius**2
    return inside


@dataclass(frozen=True)
class GemSpot:
    gem: Gem
    point: EdgePoint | None  # None: on the centre tile
    confidence: float
    #: on the centre: the fewest and most gems of this colour the camera's counts allow (a
    #: heap's outline counted by its peaks and by laying whole discs of two sizes over it)
    plausible: tuple[int, int] | None = None


#: radius of the disc sampled at a gem spot, as a share of the gem radius
GEM_SAMPLE = 0.7
#: a sampled disc is never smaller than this radius in pixels (a coarse canonical board)
MIN_SAMPLE_PX = 1.5
#: the gem label map is computed this far around each gem spot, in gem radii (a gem lies a
#: little off its spot)
GEM_SEARCH = 1.5
#: a spot whose gem share is below this part of gem_min_fraction holds no gem (its confidence
#: would be 0)
NO_GEM_SHARE = 0.5
#: resting gems read at least this sure measure the frame's gem share
SURE_GEM = 0.9
#: the disc a gem's share is measured in, in gem radii (the whole gem, with some slack)
SHARE_DISC = 1.4
#: a distance peak counts as a gem when it lies this deep inside the blob, in gem radii
PEAK_MIN_DEPTH = 0.55
#: two counted peaks are at least this far apart, in gem radii (gems do not overlap)
PEAK_SEPARATION = 1.1
#: a covering disc is centred this deep inside the blob, in disc radii
COVER_DEPTH = 0.5
#: around each gem on a cell's edge, this many gem radii are left out of the tile comparison
GEM_MASK = 1.45
#: radius of the disc sampled on a chip space, as a share of the chip radius
CHIP_SAMPLE = 0.6
#: relative distance margin between the nearest and second chip colour that gives confidence 1
CHIP_MARGIN_FULL = 0.5


def gem_pixels(model: PackModel, gem_size: float) -> np.ndarray:
    """Flat indices of the canonical pixels the gem reading looks at (spots and centre)."""
    key = ("gem-pixels", round(gem_size * 1000))
    cache = model.cache
    if key not in cache:
        size = canonical_size(model.cell_px)
        mask = np.zeros((size, size), np.uint8)
        gem_r = gem_size * model.cell_px
        for _, xy in gem_spots():
            x, y = to_canonical(xy, model.cell_px)
            reach = int(math.ceil(GEM_SEARCH * gem_r)) + 1
            cv2.circle(mask, (int(round(x)), int(round(y))), reach, 1, -1)
        x, y = to_canonical(cell_xy(CENTRE), model.cell_px)
        r = int(model.cell_px) + 2
        mask[int(y) - r : int(y) + r + 1, int(x) - r : int(x) + r + 1] = 1
        cache[key] = np.flatnonzero(mask)
    return cache[key]


def gem_box(model: PackModel, gem_size: float) -> tuple[int, int, int, int]:
    """The part of the canonical board (left, top, right, bottom) holding every pixel the gem
    reading looks at: each spot's outer ring and the centre tile (the rest of the board, the
    rim and the table beyond it, is never looked at for gems)."""
    key = ("gem-box", round(gem_size * 1000))
    cache = model.cache
    if key not in cache:
        size = canonical_size(model.cell_px)
        reach = max(ANNULUS[1], GEM_RING[1], SHARE_DISC, GEM_SEARCH) * gem_size * model.cell_px
        reach += GEM_CLOSE * gem_size * model.cell_px + 2
        spots = np.array([to_canonical(xy, model.cell_px) for _, xy in gem_spots()])
        low = np.floor(spots.min(axis=0) - reach).astype(int)
        high = np.ceil(spots.max(axis=0) + reach).astype(int) + 1
        cache[key] = np.clip(np.array([*low, *high]), 0, size)
    left, top, right, bottom = (int(v) for v in cache[key])
    return left, top, right, bottom


@lru_cache(maxsize=64)
def _disc_offsets(radius: float) -> tuple[int, np.ndarray]:
    r = int(math.ceil(radius))
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
    return r, (xx * xx + yy * yy) <= radius * radius


def _disc_labels(labels: np.ndarray, xy: tuple[float, float], radius: float) -> np.ndarray:
    """The values of ``labels`` in a disc (centred on the nearest pixel)."""
    r, inside = _disc_offsets(round(radius, 2))
    xi, yi = int(round(xy[0])), int(round(xy[1]))
    block = labels[yi - r : yi + r + 1, xi - r : xi + r + 1]
    in_disc: np.ndarray = block[inside[: block.shape[0], : block.shape[1]]]
    return in_disc


#: a gem stands out from what lies round it: in the ring round a spot (ANNULUS, in gem
#: radii), the share of pixels whose colour lies within RING_SAME (colour-feature units) of
#: the spot's middle. At least RING_SAME_NONE of them: the "gem" is the board or tile under
#: it, spreading beyond the spot (a deep-blue printed cell is not a sapphire); at least
#: RING_SAME_DOUBT: a gem, but doubtful (asked)
ANNULUS = (1.8, 2.5)
RING_SAME = 10.0
RING_SAME_NONE = 0.35
RING_SAME_DOUBT = 0.2


@lru_cache(maxsize=16)
def _ring_offsets(inner: float, outer: float) -> tuple[int, np.ndarray]:
    r = int(math.ceil(outer))
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
    d2 = xx * xx + yy * yy
    return r, (d2 >= inner * inner) & (d2 <= outer * outer)


def ring_likeness(lab: np.ndarray, xy: tuple[float, float], gem_r: float) -> float:
    """The share of the ring round a spot whose colour is like the spot's middle."""
    xi, yi = int(round(xy[0])), int(round(xy[1]))
    r, ring = _ring_offsets(round(ANNULUS[0] * gem_r, 2), round(ANNULUS[1] * gem_r, 2))
    block = lab[yi - r : yi + r + 1, xi - r : xi + r + 1]
    around = block[ring[: block.shape[0], : block.shape[1]]]
    middle = disc_pixels(lab, xy, max(MIN_SAMPLE_PX, GEM_SAMPLE * gem_r))
    if around.size == 0 or middle.size == 0:
        return 0.0
    return float((colour_distance(around, np.median(middle, axis=0)) < RING_SAME).mean())


#: a gem is a compact disc: in the ring round a spot (GEM_RING, in gem radii: beyond a gem
#: lying a little off its spot, short of the next spot's gem) few pixels take the spot's own
#: gem colour. At least GEM_RING_DOUBT of them: the colour runs on past the spot (tile art
#: of a gem's hue, a printed mark), so the gem is asked, never read surely; at least
#: GEM_RING_NONE of them on a gem already doubtful, and it is the board's print, no gem
GEM_RING = (1.7, 2.3)
GEM_RING_DOUBT = 0.25
GEM_RING_NONE = 0.4


def ring_gem_share(lab: np.ndarray, model: PackModel, xy: tuple[float, float], gem_r: float,
                   code: int) -> float:
    """The share of the ring round a spot whose pixels read as gem colour ``code``."""
    xi, yi = int(round(xy[0])), int(round(xy[1]))
    r, ring = _ring_offsets(round(GEM_RING[0] * gem_r, 2), round(GEM_RING[1] * gem_r, 2))
    block = lab[yi - r : yi + r + 1, xi - r : xi + r + 1]
    around = block[ring[: block.shape[0], : block.shape[1]]]
    if around.size == 0:
        return 0.0
    return float((gem_label_map(around.reshape(-1, 1, 3), model) == code).mean())


#: a faceted gem shows its colour as a broken ring: the bright table and the lamp's highlight
#: in its middle, and the facets turned to the lamp, read as no gem colour. Each colour's
#: pixels are closed with a disc of this many gem radii, so the holes inside a gem count as
#: the gem (a dark amber read as a third of a gem: doubted, or missed)
GEM_CLOSE = 0.5


def close_gem_labels(labels: np.ndarray, gem_r: float) -> np.ndarray:
    """The gem label map with the holes inside each colour's gems filled by that colour."""
    side = 2 * max(1, int(round(GEM_CLOSE * gem_r))) + 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))
    out = labels.copy()
    for code in range(1, len(GEM_NAMES) + 1):
        closed = cv2.morphologyEx((labels == code).astype(np.uint8), cv2.MORPH_CLOSE, kernel)
        out[(out == 0) & (closed > 0)] = code
    return out


def read_gems(
    labels: np.ndarray,
    pack: IndigoPack,
    model: PackModel,
    settings: IndigoSettings,
    lab: np.ndarray | None = None,
) -> list[GemSpot]:
    """Gems on edge spots and on the centre tile, from the gem label map; with ``lab``, a
    spot whose colour does not stand out from the ring round it is the board, not a gem."""
    cell_px = model.cell_px
    gem_r = pack.gem_size * cell_px
    radius = max(MIN_SAMPLE_PX, GEM_SAMPLE * gem_r)
    roaming = _roaming_codes(model)
    found: list[GemSpot] = []
    for point, xy in gem_spots():
        placed = _gem_off_spot(labels, to_canonical(xy, cell_px), radius, GEM_SHIFT * gem_r,
                               settings.gem_min_fraction * NO_GEM_SHARE, roaming)
        if placed is None:
            continue
        at, best, frac = placed
        conf = _fraction_confidence(frac, settings.gem_min_fraction)
        if lab is not None:
            like = ring_likeness(lab, at, gem_r)
            if like >= RING_SAME_NONE:
                continue
            if like >= RING_SAME_DOUBT:
                conf = min(conf, DOUBTFUL)
            spread = ring_gem_share(lab, model, at, gem_r, best + 1)
            if spread >= GEM_RING_NONE and conf < settings.min_confidence:
                continue
            if spread >= GEM_RING_DOUBT:
                conf = min(conf, DOUBTFUL)
        found.append(GemSpot(Gem(GEM_NAMES[best]), point, conf))
    found.extend(_read_centre(labels, pack, model, share=_gem_share(labels, found, pack, model)))
    return found


#: a gem rests up to this many gem radii off its spot, and its disc is looked for there: a
#: hand leaves it off the edge's middle (along and across the edge), and a tilted camera sees
#: its top, a tile and a gem's height above the markers' plane, shifted
GEM_SHIFT = 0.8
#: off its spot a gem must fill this many times the least share a gem on its spot fills
OFF_SPOT_SHARE = 2.0


#: a gem colour nearer than this (colour-feature units) to one of the print's colours is
#: looked for on its spot only: every path of the print ends at a spot, and off the spot, along
#: the path, its marks fill a gem's disc (the demo's navy paths as sapphires in a dark frame)
OFF_SPOT_MIN_CONTRAST = 24.0


def _roaming_codes(model: PackModel) -> frozenset[int]:
    """The gem labels looked for off their spots: colours far from every print colour."""
    return frozenset(
        code for code, name in enumerate(GEM_NAMES, start=1)
        if model.palette.size == 0 or float(
            colour_distance(model.palette, model.gem_lab[name]).min()) >= OFF_SPOT_MIN_CONTRAST)


def _gem_off_spot(labels: np.ndarray, at: tuple[float, float], radius: float, reach: float,
                  least: float, roaming: frozenset[int]
                  ) -> tuple[tuple[float, float], int, float] | None:
    """Where within ``reach`` pixels of ``at`` a disc of ``radius`` holds the most of one gem
    colour (on ``at`` itself for labels not in ``roaming``): (that place, the colour's index in
    GEM_NAMES, its share of the disc); None when no colour fills ``least`` of a disc there."""
    r, inside = _disc_offsets(round(radius, 2))
    kernel = _disc_kernel(round(radius, 2)) / float(inside.sum())
    xi, yi = int(round(at[0])), int(round(at[1]))
    far = int(math.ceil(reach))
    side = r + far
    if yi - side < 0 or xi - side < 0:
        return None
    block = labels[yi - side : yi + side + 1, xi - side : xi + side + 1]
    if block.shape != (2 * side + 1, 2 * side + 1):
        return None
    enough = least * float(inside.sum())
    counts = np.bincount(block.ravel(), minlength=len(GEM_NAMES) + 1)
    near = _disc_offsets(round(reach, 2))[1]
    best: tuple[tuple[float, float], int, float] | None = None
    for code in range(1, len(GEM_NAMES) + 1):
        if counts[code] < enough:
            continue  # too few pixels of this colour round the spot to fill a disc anywhere
        hit = (block == code).astype(np.float32)
        share = cv2.filter2D(hit, -1, kernel, borderType=cv2.BORDER_CONSTANT)
        middle = share[r : r + 2 * far + 1, r : r + 2 * far + 1] * near
        # the nearest of equal shares: a gem's whole disc seen from a little off its middle
        dy, dx = (int(v) for v in np.unravel_index(
            int(np.argmax(middle - 1e-4 * _offset_lengths(far))), middle.shape))
        value = float(middle[dy, dx])
        if code not in roaming or value < OFF_SPOT_SHARE * least:
            # a weak trace is judged on the spot itself: the best of many places off it
            # finds a few gem-coloured pixels of print or noise anywhere
            dy = dx = far
            value = float(middle[far, far])
        if value >= least and (best is None or value > best[2]):
            best = ((float(xi + dx - far), float(yi + dy - far)), code - 1, value)
    return best


@lru_cache(maxsize=16)
def _offset_lengths(far: int) -> np.ndarray:
    yy, xx = np.mgrid[-far : far + 1, -far : far + 1]
    lengths: np.ndarray = np.hypot(xx, yy).astype(np.float32)
    return lengths


def _gem_share(
    labels: np.ndarray, spots: list[GemSpot], pack: IndigoPack, model: PackModel
) -> dict[str, float]:
    """Per gem colour, how much of one gem disc reads as that colour in this frame, measured
    on the gems resting alone on edge spots; colours without such a gem are left out."""
    gem_r = pack.gem_size * model.cell_px
    shares: dict[str, list[float]] = {}
    for spot in spots:
        if spot.point is None or spot.confidence < SURE_GEM:
            continue
        x, y = to_canonical(point_xy(spot.point), model.cell_px)
        values = _disc_labels(labels, (x, y), SHARE_DISC * gem_r)
        code = GEM_NAMES.index(spot.gem.value) + 1
        shares.setdefault(spot.gem.value, []).append(
            float((values == code).sum()) / (math.pi * gem_r**2)
        )
    return {name: float(np.median(v)) for name, v in shares.items()}


def _fraction_confidence(frac: float, threshold: float) -> float:
    """1 well above the threshold, 0.5 at it, 0 at half of it."""
    return float(np.clip(0.5 + (frac - threshold) / threshold, 0.0, 1.0))


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


@lru_cache(maxsize=16)
def _disc_kernel(radius: float) -> np.ndarray:
    r = int(math.ceil(radius))
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
    kernel: np.ndarray = ((xx * xx + yy * yy) <= radius * radius).astype(np.float32)
    return kernel


def _cover_count(mask: np.ndarray, radius: float) -> int:
    """Number of gem discs that cover a blob, laid greedily where each covers most.

    A second, independent count of touching gems: the distance-transform peaks of
    :func:`_count_discs` split one soft, elongated gem in two or merge two that blur into one
    neck; laying whole discs fails in other ways. When the two counts differ the blob is
    borderline and the count is asked.
    """
    kernel = _disc_kernel(round(radius, 2))
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


def _read_centre(
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
#: the confidence of a doubtful count (below the default min_confidence: it is asked)
DOUBTFUL = 0.5
#: the confidence of an amber seen on the centre, where none ever lies
AMBER_ON_CENTRE = 0.3


#: a counted centre gem covers this range of one gem disc's area in its colour
GEM_SHARE_RANGE = (0.55, 1.25)


#: a lamp mirrored in the varnish: canonical pixels whose darkest channel is at least this
#: bright are clipped glare (no print is this white in all three channels); a tile is read
#: from what is left of it ...
GLARE_LEVEL = 245
#: ... and asked when less than this share of its compared disc is left
GLARE_MIN_LEFT = 0.55
#: a doubtful cell is compared again with its patch shifted up to this many canonical pixels
#: each way (a hand-placed tile lies up to 2 mm off, a tall piece is seen shifted by the
#: camera's tilt, a lens bends the grid): the shift that fits a pattern best decides
REFINE_SHIFT = 2


#: an empty cell is flat print: a cell read empty whose grey spread (gems and glare left out)
#: is more than this share of the pack's tile spread shows a tile's contrast (a tile blurred
#: or shifted past matching its pattern, a fingertip), so it is asked, never read empty surely
EMPTY_MAX_SPREAD = 0.5


#: round a clipped patch the reflection still washes the print out: the mask reaches this
#: far beyond the clipped pixels, in cell radii
GLARE_WASH = 0.25


#: a lamp's light washes the print out farther than its clipped core: within GLARE_REACH cell
#: radii of clipped pixels, a pixel whose darkest channel lies more than GLARE_WASH_SHARE of
#: the way from the board's bright print (the PRINT_PERCENTILE of the darkest channel over the
#: cells away from the glare) up to white is glare too (a tile half under a pale reflection
#: read as another pattern at 1.00, tuning seed 1001)
GLARE_REACH = 1.0
GLARE_WASH_SHARE = 0.5
PRINT_PERCENTILE = 90.0
#: the cells lie within this many cell radii of the board's centre
CELLS_REACH = 7.5


def _darkest(image: np.ndarray) -> np.ndarray:
    """The darkest channel per pixel, taken pairwise (numpy's min over a last axis of three
    is slow)."""
    darkest: np.ndarray = np.minimum(np.minimum(image[..., 0], image[..., 1]), image[..., 2])
    return darkest


def glare_mask(canon: np.ndarray, cell_px: int) -> np.ndarray:
    """Canonical pixels burnt to white by a reflection, with the washed-out rim round them:
    the pixels near them far brighter than the board's print."""
    darkest = _darkest(canon)
    white = (darkest >= GLARE_LEVEL).astype(np.uint8)
    reach = max(1, int(round(GLARE_WASH * cell_px)))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    grown: np.ndarray = cv2.dilate(white, kernel) > 0
    if not white.any():
        return grown
    far = max(1, int(round(GLARE_REACH * cell_px)))
    near = cv2.dilate(white, cv2.getStructuringElement(cv2.MORPH_ELLIPSE,
                                                       (2 * far + 1, 2 * far + 1))) > 0
    cells = circle_mask(canon.shape[0], CELLS_REACH * cell_px) & ~near
    if not cells.any():
        return grown
    bright = float(np.percentile(darkest[cells], PRINT_PERCENTILE))
    level = bright + GLARE_WASH_SHARE * (255.0 - bright)
    washed: np.ndarray = grown | (near & (darkest >= level))
    return washed


def _gem_weights(gem_spots_found: list[GemSpot], model: PackModel,
                 gem_size: float) -> np.ndarray:
    """(cells, D) weights: 1 inside each cell's compared disc, 0 under a resting gem."""
    cell_px = model.cell_px
    half = model.patch // 2
    gem_at: dict[Cell, list[int]] = {}
    for spot in gem_spots_found:
        if spot.point is None:
            continue
        cell, edge = spot.point
        gem_at.setdefault(cell, []).append(edge)
        other = neighbour(cell, edge)
        gem_at.setdefault(other, []).append(opposite(edge))
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1].astype(np.float32)
    weights = []
    for cell in ROUTE_CELLS:
        w = np.ones((model.patch, model.patch), np.float32)
        for edge in gem_at.get(cell, []):
            ang = math.radians(240 + 60 * edge)
            gx = math.cos(ang) * math.sqrt(3) / 2 * cell_px
            gy = math.sin(ang) * math.sqrt(3) / 2 * cell_px
            w[(xx - gx) ** 2 + (yy - gy) ** 2 <= (gem_size * GEM_MASK * cell_px) ** 2] = 0
        weights.append(w[model.mask])
    return np.array(weights, np.float32)


def _spreads(p: np.ndarray, w: np.ndarray) -> np.ndarray:
    """(cells,) weighted standard deviation of each raw patch's grey levels."""
    wsum = np.maximum(w.sum(axis=1, keepdims=True), 1.0)
    mean = (p * w).sum(axis=1, keepdims=True) / wsum
    spread: np.ndarray = np.sqrt(((p - mean) ** 2 * w).sum(axis=1) / wsum[:, 0])
    return spread


def _distances(p: np.ndarray, w: np.ndarray, model: PackModel) -> np.ndarray:
    """(cells, classes) weighted squared distance of each normalised patch to each class."""
    wsum = np.maximum(w.sum(axis=1, keepdims=True), 1.0)
    mean = (p * w).sum(axis=1, keepdims=True) / wsum
    var = ((p - mean) ** 2 * w).sum(axis=1, keepdims=True) / wsum
    pn = (p - mean) / np.maximum(np.sqrt(var), model.std_floor)
    t = model.templates
    # sum w (p - t)^2 / sum w, vectorised
    dist: np.ndarray = ((w * pn * pn).sum(axis=1, keepdims=True) - 2 * (w * pn) @ t.T
                        + w @ (t * t).T) / wsum
    return dist


def _patches(gray: np.ndarray, model: PackModel, cells: list[Cell]) -> np.ndarray:
    """(cells, D) the compared pixels of each cell's patch."""
    return _wide_patches(gray, model, cells, 0)[:, model.mask]


def _wide_patches(gray: np.ndarray, model: PackModel, cells: list[Cell],
                  reach: int) -> np.ndarray:
    """(cells, side, side) squares round each cell, ``reach`` pixels wider than a patch each
    way: the patch moved by (dx, dy) is ``[:, reach + dy : ..., reach + dx : ...]``."""
    side = model.patch + 2 * reach
    out = []
    for cell in cells:
        x, y = to_canonical(cell_xy(cell), model.cell_px)
        out.append(cv2.getRectSubPix(gray, (side, side), (x, y)))
    return np.array(out, np.float32)


def _refined(gray: np.ndarray, model: PackModel, cells: list[Cell], w: np.ndarray,
             dist: np.ndarray) -> np.ndarray:
    """The distances of ``cells`` at the shift (within REFINE_SHIFT) that fits best."""
    best = dist.copy()
    reach, p = REFINE_SHIFT, model.patch
    wide = _wide_patches(gray, model, cells, reach)
    for dx in range(-reach, reach + 1):
        for dy in range(-reach, reach + 1):
            if dx == dy == 0:
                continue
            moved = wide[:, reach + dy : reach + dy + p, reach + dx : reach + dx + p]
            d = _distances(moved[:, model.mask], w, model)
            better = d.min(axis=1) < best.min(axis=1)
            best[better] = d[better]
    return best


#: an empty cell shows the board's empty print: a cell read empty whose colour (chromaticity,
#: which a shadow keeps) lies farther than this from the print's is covered by something
#: else (a fingertip over a tile read as an empty cell at 0.95), so it is asked. Empty cells
#: of rendered frames with every camera effect lie within 2.1 of the pack's print;
#: fingertips 3.5 and more
EMPTY_MAX_CHROMA = 3.0
#: the print's colour is the median of the cells read empty when there are at least this
#: many (a colour cast the gains leave moves every empty cell alike: independent tuning seed
#: 1014 demo harsh had all 51 empty cells beyond 3.0 of the pack's print), else the pack's
EMPTY_REFERENCE_CELLS = 6


def _cell_chroma(lab: np.ndarray, model: PackModel, cell: Cell) -> np.ndarray | None:
    """A cell's median chromaticity inside the compared disc (None off the board)."""
    x, y = to_canonical(cell_xy(cell), model.cell_px)
    pixels = disc_pixels(lab, (x, y), COMPARE_RADIUS * model.cell_px)
    if pixels.size == 0:
        return None
    chroma: np.ndarray = np.median(pixels[:, :2], axis=0)
    return chroma


def _unlike_empty_print(lab: np.ndarray, model: PackModel, empty: list[Cell]) -> set[Cell]:
    """The cells of ``empty`` (read empty) whose colour is unlike the board's empty print."""
    chroma = {c: v for c in empty if (v := _cell_chroma(lab, model, c)) is not None}
    if len(chroma) >= EMPTY_REFERENCE_CELLS:
        reference = np.median(np.array(list(chroma.values())), axis=0)
    else:
        reference = model.empty_lab[:2]
    return {c for c, v in chroma.items()
            if float(np.hypot(*(v - reference))) > EMPTY_MAX_CHROMA}


def read_tiles(
    gray: np.ndarray,
    gem_spots_found: list[GemSpot],
    model: PackModel,
    settings: IndigoSettings,
    gem_size: float,
    glare: np.ndarray | None = None,
    lab: np.ndarray | None = None,
) -> dict[Cell, CellRead]:
    """Compare every route cell with every pattern and the empty cell (gems and glare masked
    out); a doubtful cell is compared again a little shifted. A cell with too little left
    outside the glare, or (with the colour features ``lab``) read empty in a colour unlike
    the empty print, is asked."""
    cells = list(ROUTE_CELLS)
    w = _gem_weights(gem_spots_found, model, gem_size)
    full = w.sum(axis=1)
    if glare is not None and glare.any():
        w = w * (1.0 - _patches(glare.astype(np.float32), model, cells))
    left = w.sum(axis=1) / np.maximum(full, 1.0)
    patches = _patches(gray, model, cells)
    dist = _distances(patches, w, model)
    conf = _confidences(dist, settings)
    doubtful = np.flatnonzero(conf < settings.min_confidence)
    if len(doubtful):
        sub = [cells[i] for i in doubtful]
        dist[doubtful] = _refined(gray, model, sub, w[doubtful], dist[doubtful])
        conf = _confidences(dist, settings)
    out: dict[Cell, CellRead] = {}
    order = np.argsort(dist, axis=1)
    empty = model.classes.index(None)
    busy = _spreads(patches, w) > EMPTY_MAX_SPREAD * model.tile_spread
    unlike = set() if lab is None else _unlike_empty_print(
        lab, model, [c for i, c in enumerate(cells) if order[i, 0] == empty])
    for i, cell in enumerate(cells):
        sure = left[i] >= GLARE_MIN_LEFT and not (order[i, 0] == empty and busy[i])
        sure = sure and cell not in unlike
        c = float(conf[i]) if sure else min(float(conf[i]), DOUBTFUL)
        alts = tuple((model.classes[j], round(float(dist[i, j]), 4)) for j in order[i, 1:4])
        out[cell] = CellRead(cell, model.classes[order[i, 0]], c, alts)
    return out


def _confidences(dist: np.ndarray, settings: IndigoSettings) -> np.ndarray:
    """Per cell: the relative margin between the best and second class, scaled to 0..1."""
    two = np.sort(dist, axis=1)[:, :2]
    margin = (two[:, 1] - two[:, 0]) / np.maximum(two[:, 1], 1e-6)
    conf: np.ndarray = np.clip(margin / settings.margin_full_confidence, 0.0, 1.0)
    return conf


#: a chip with more than this share of its sampled disc under glare is asked: a reflection
#: whitens a coloured chip (a turquoise chip read white at 1.00, held-apart demo harsh)
CHIP_GLARE_SHARE = 0.2


def chip_colours(lab: np.ndarray, pack: IndigoPack, model: PackModel) -> np.ndarray:
    """(spaces, 3) the median colour features of each chip space, ``chip_spaces()`` order."""
    radius = max(MIN_SAMPLE_PX, CHIP_SAMPLE * pack.chip_size * model.cell_px)
    return np.array([np.median(disc_pixels(lab, to_canonical(xy, model.cell_px), radius),
                               axis=0) for _, _, xy in chip_spaces()], np.float32)


def read_chips(colours: np.ndarray, pack: IndigoPack, model: PackModel,
               glare: np.ndarray | None = None) -> list[ChipRead]:
    """Each chip space's colour (``colours``, of :func:`chip_colours`), the nearest of the
    pack's chips or the empty space; a chip under ``glare`` (the mask of :func:`glare_mask`)
    is doubtful."""
    radius = max(MIN_SAMPLE_PX, CHIP_SAMPLE * pack.chip_size * model.cell_px)
    out = []
    for (gate, slot, xy), colour in zip(chip_spaces(), colours, strict=True):
        at = to_canonical(xy, model.cell_px)
        d = colour_distance(model.chip_lab, colour)
        order = np.argsort(d)
        d1, d2 = float(d[order[0]]), float(d[order[1]])
        conf = float(np.clip((d2 - d1) / max(d2, 1e-6) / CHIP_MARGIN_FULL, 0.0, 1.0))
        if glare is not None and _disc_labels(glare, at, radius).mean() > CHIP_GLARE_SHARE:
            conf = min(conf, DOUBTFUL)
        idx = int(order[0])
        if idx == len(model.chip_names):
            out.append(ChipRead(gate, slot, None, None, conf))
        else:
            out.append(ChipRead(gate, slot, idx, model.chip_names[idx], conf))
    return _doubt_missing_chips(out)


def _doubt_missing_chips(chips: list[ChipRead]) -> list[ChipRead]:
    """An empty chip space among chips seen is doubtful: every layout of the rules fills all
    twelve spaces, so a board with any chip on it has them all (a chip whose colour lies
    near the space's print, a red chip on an orange gateway, is missed, never "no chip")."""
    if all(chip.player is None for chip in chips):
        return chips  # no chips set out at all: a board before the game
    return [replace(chip, confidence=min(chip.confidence, DOUBTFUL)) if chip.player is None
            else chip for chip in chips]
