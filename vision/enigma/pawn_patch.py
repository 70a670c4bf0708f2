"""Enigma reader, what every judgement of a pawn on one tile's patch shares
(:class:`PawnPatch`, made by :func:`look_at`): the colour distance maps of a pawn's core,
the pawn-sized blobs of player colours, the rings unlike bare tile round a place, and the
judgement of what stands at a cell's middle (:func:`judge_pawn`). Used by
:mod:`vision.enigma.networkers`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.enigma.cells import disc, margin_conf, member_mask
from vision.enigma.colours import ColourModel
from vision.enigma.pack import EnigmaPack
from vision.enigma.read_types import CHROMA, PAWN_MIN_AREA
from vision.enigma.small_stats import clip01, median

#: a core this far (colour distance of its mean) from the option judged nearest is doubted
#: (the pawns of the packs lie within 7 of their colour, empty cells within 18)
UNKNOWN_FROM = 30.0
#: how far from the tile's colour a pixel of a cell's ring lies (a pale pawn lies nearer)
RING_FROM_TILE = 15.0
#: a hidden cell's ring: the least share unlike bare tile in each eighth of the ring
RING_ALL_ROUND = 0.5
#: a hidden cell's ring is judged by its hue when its chroma (feature units from grey) is at
#: least this: a red ring washed out by blur and the pawn's rim keeps red's hue but loses
#: chroma, which takes it nearer yellow by colour distance (demo: red 117 deg, chroma 87;
#: yellow 145 deg, chroma 57; washed-out red rings 114-122 deg, chroma 48-62)
HUE_MIN_CHROMA = 20.0


def hue_chroma(feature: np.ndarray) -> tuple[float, float]:
    """The hue (degrees) and chroma of a colour feature: its angle and distance from grey
    in the chromaticity plane of :func:`~vision.enigma.colours.colour_features`."""
    db, dr = float(feature[0]) - CHROMA / 3, float(feature[1]) - CHROMA / 3
    return math.degrees(math.atan2(dr, db)) % 360.0, math.hypot(db, dr)


def hue_apart(a: float, b: float) -> float:
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


def core_distance_maps(feats: np.ndarray, model: ColourModel, classes: list[int],
                        r_core: float) -> dict[int, np.ndarray]:
    """Per class, at each pixel, the colour distance from the class to the mean colour of a
    core disc centred there. The mean, not the mean distance: a blurred black pawn mixes its
    middle with its grey rim and highlight, and its mean still lies nearest black, while a
    mean of distances lets the mixture look as near white."""
    k = int(math.ceil(r_core))
    yy, xx = np.mgrid[-k : k + 1, -k : k + 1]
    kernel = ((xx * xx + yy * yy) <= r_core * r_core).astype(np.float32)
    kernel /= kernel.sum()
    mean = cv2.filter2D(feats.astype(np.float32), -1, kernel, borderType=cv2.BORDER_REPLICATE)
    return distance_maps(mean, model, classes)


def distance_maps(feats: np.ndarray, model: ColourModel, classes: list[int]
                   ) -> dict[int, np.ndarray]:
    """Per class, at each pixel, the colour distance from the class to ``feats`` there.
    Plane by plane, a pixel's three terms summed in order (as a sum along the last axis
    adds them): a broadcast over every class and channel at once, or a sum along an axis
    three wide, costs several times more on a tile's small patch."""
    planes = cv2.split(feats)
    centres = model.centres.astype(np.float32)
    maps: dict[int, np.ndarray] = {}
    for i in classes:
        d = planes[0] - centres[i, 0]
        d *= d
        for c in (1, 2):
            term = planes[c] - centres[i, c]
            term *= term
            d += term
        maps[i] = np.sqrt(d)
    return maps


def pawn_blobs(all_labels: np.ndarray, net_ids: list[int], rn: float
                ) -> list[tuple[tuple[float, float], bool]]:
    """Blobs of player-coloured pixels the size of a pawn: (centre, a whole pawn?). A pale
    pawn on a pale cell keeps only its middle: such a blob is found by a finer opening."""
    p = all_labels.shape[0]
    net_mask = member_mask(all_labels, net_ids).astype(np.uint8)
    found: list[tuple[tuple[float, float], bool]] = []
    if not cv2.countNonZero(net_mask):
        return found  # no pixel of a player colour (most tiles): nothing to open or label
    whole_pawns = np.zeros((p, p), np.uint8)
    for first, r_open, min_area in (
        (True, max(1, int(round(rn * 0.5))), 0.35),
        (False, max(1, int(round(rn * 0.3))), PAWN_MIN_AREA),
    ):
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r_open + 1, 2 * r_open + 1))
        pawns = cv2.morphologyEx(net_mask, cv2.MORPH_OPEN, kernel)
        n_p, p_lab, p_stats, p_cents = cv2.connectedComponentsWithStats(pawns, connectivity=8)
        for k in range(1, n_p):
            area = p_stats[k, cv2.CC_STAT_AREA]
            if not min_area * math.pi * rn * rn <= area <= 2.5 * math.pi * rn * rn:
                continue
            if first:
                whole_pawns[p_lab == k] = 1
            elif whole_pawns[p_lab == k].any():
                continue  # already a whole pawn
            found.append(((float(p_cents[k][0]), float(p_cents[k][1])), first))
    return found


@functools.lru_cache(maxsize=16)
def _ring_sectors(r_in: float, r_out: float, sectors: int = 8
                  ) -> tuple[int, tuple[tuple[tuple[int, int], ...], ...]]:
    """A ring between two radii cut into ``sectors`` parts: the ring's reach ``k`` and, per
    part, the (row, column) offsets of its pixels in a square of side ``2k + 1``."""
    k = int(math.ceil(r_out))
    yy, xx = np.mgrid[-k : k + 1, -k : k + 1]
    rr = xx * xx + yy * yy
    ring = (rr <= r_out * r_out) & (rr > r_in * r_in)
    part = np.floor((np.arctan2(yy, xx) + math.pi) / (2 * math.pi) * sectors).astype(int)
    offsets = []
    for s in range(sectors):
        rows, cols = np.nonzero(ring & (part % sectors == s))
        offsets.append(tuple(zip(rows.tolist(), cols.tolist(), strict=True)))
    return k, tuple(offsets)


@functools.lru_cache(maxsize=16)
def _ring_runs(r_in: float, r_out: float, sectors: int = 8
               ) -> tuple[int, tuple[tuple[int, tuple[tuple[int, int, int], ...]], ...]]:
    """:func:`_ring_sectors` as runs: per part, its pixel count and its rows' runs of
    neighbouring columns ``(row, first column, column past the last)``."""
    k, parts = _ring_sectors(r_in, r_out, sectors)
    out = []
    for offsets in parts:
        rows: dict[int, list[int]] = {}
        for dy, dx in offsets:
            rows.setdefault(dy, []).append(dx)
        runs = []
        for dy, xs in sorted(rows.items()):
            xs.sort()
            start = prev = xs[0]
            for x in xs[1:]:
                if x != prev + 1:
                    runs.append((dy, start, prev + 1))
                    start = x
                prev = x
            runs.append((dy, start, prev + 1))
        out.append((len(offsets), tuple(runs)))
    return k, tuple(out)


def ring_all_round(ringed: np.ndarray, r_in: float, r_out: float, open_parts: int = 0
                   ) -> np.ndarray:
    """Per pixel, whether at least :data:`RING_ALL_ROUND` of each eighth of the ring
    between ``r_in`` and ``r_out`` around it is ``ringed`` (outside the patch counts as
    not), all but ``open_parts`` eighths of it."""
    return all_round_but(ringed_eighths(ringed, r_in, r_out), ringed.shape[0], open_parts)


def all_round_but(eighths: np.ndarray | None, size: int, open_parts: int = 0) -> np.ndarray:
    """From :func:`ringed_eighths`' counts, whether all eighths but ``open_parts`` of the
    ring around each pixel of a ``size`` square patch are ringed enough."""
    if eighths is None:
        return np.zeros((size, size), bool)
    out: np.ndarray = eighths >= 8 - open_parts
    return out


def ringed_eighths(ringed: np.ndarray, r_in: float, r_out: float) -> np.ndarray | None:
    """Per pixel, how many eighths of the ring between ``r_in`` and ``r_out`` around it
    are at least :data:`RING_ALL_ROUND` ``ringed`` (outside the patch counts as not); None
    when an eighth holds no pixel (no pixel is then ringed all round). Exact pixel counts:
    each eighth's rows are a few runs of neighbouring columns, and a run's count over
    shifted views is a difference of running sums along the rows (a filter per eighth
    costs several times more: large kernels filter through a DFT on a small patch)."""
    k, parts = _ring_runs(r_in, r_out)
    q = ringed.shape[0]
    # ringed pixels left of each column of the padded patch (column 0: none); bytes, as the
    # counts over shifted views were: a difference of two running sums is exact in bytes
    # (taken modulo 256, as any count of more than 255 pixels was)
    padded = np.zeros((q + 2 * k, q + 2 * k + 1), np.uint8)
    padded[k : k + q, k + 1 : k + 1 + q] = ringed
    left = np.cumsum(padded, axis=1, dtype=np.uint8)
    closed = np.zeros((q, q), np.uint8)
    count = np.empty((q, q), np.uint8)
    for n, runs in parts:
        if not n:
            return None
        count.fill(0)
        for dy, a, b in runs:
            count += left[dy : dy + q, b : b + q]
            count -= left[dy : dy + q, a : a + q]
        closed += count >= RING_ALL_ROUND * n
    return closed


def search_window(size: int, centre: tuple[float, float], radius: float
                  ) -> tuple[float, int, int, int, int]:
    """The radius searched round ``centre`` (at least 0.75 px) and the box ``x0, x1, y0, y1``
    (ends excluded) of a ``size`` square patch's pixels it may reach."""
    r = max(radius, 0.75)
    x0, x1 = max(0, int(math.floor(centre[0] - r))), min(size, int(math.ceil(centre[0] + r)) + 1)
    y0, y1 = max(0, int(math.floor(centre[1] - r))), min(size, int(math.ceil(centre[1] + r)) + 1)
    return r, x0, x1, y0, y1


def nearest_pixel(size: int, centre: tuple[float, float]) -> tuple[int, int]:
    """The pixel of a ``size`` square patch nearest ``centre`` (x, y)."""
    return (min(size - 1, max(0, int(round(centre[0])))),
            min(size - 1, max(0, int(round(centre[1])))))


def lowest_within(m: np.ndarray, centre: tuple[float, float], radius: float
                  ) -> tuple[float, tuple[float, float]]:
    """The smallest value of ``m`` within ``radius`` of ``centre`` and where it lies."""
    r, x0, x1, y0, y1 = search_window(m.shape[0], centre, radius)
    # a window of a few dozen pixels: walked in Python, row by row (numpy's calls cost more
    # than the pixels here), the same float64 distances, the first smallest value kept
    r2 = r * r
    best, at = math.inf, None
    for y, row in enumerate(m[y0:y1, x0:x1].tolist(), start=y0):
        dy2 = (y - centre[1]) ** 2
        for x, value in enumerate(row, start=x0):
            if (x - centre[0]) ** 2 + dy2 <= r2 and (at is None or value < best):
                best, at = value, (float(x), float(y))
    if at is None:
        x, y = nearest_pixel(m.shape[0], centre)
        return float(m[y, x]), (float(x), float(y))
    return best, at


def judge_pawn(maps: dict[int, np.ndarray], cell_class: int, net_ids: list[int],
           centres: list[tuple[float, float]], search: float,
           all_round: np.ndarray | None = None) -> tuple[int, float, tuple[float, float]]:
    """What stands at a cell whose middle may lie near any of ``centres``: the class (the
    cell's own colour = no pawn, else a player colour), its confidence, and where the pawn's
    middle was seen. Every option is judged at the same place, the one that suits a pawn
    best: with a pawn there its core shows no cell colour; an empty cell shows its colour
    wherever the core is put inside it."""
    best: tuple[float, tuple[float, float]] | None = None
    for c in centres:
        for i in net_ids:
            v, at = lowest_within(maps[i], c, search)
            if best is None or v < best[0]:
                best = (v, at)
    assert best is not None
    at = best[1]
    x, y = int(round(at[0])), int(round(at[1]))
    options = [cell_class, *net_ids]
    # the cell's own colour: at the pawn's place, or at the cell's middle as read (a pawn
    # cannot hide both) unless a ring lies all around the place: then the middle as read
    # is off, on the ring
    cell_here = float(maps[cell_class][y, x])
    if all_round is None or not all_round[y, x]:
        cell_here = min(cell_here, *(lowest_within(maps[cell_class], c, 0.75)[0] for c in centres))
    values = [cell_here, *(float(maps[i][y, x]) for i in net_ids)]
    order = np.argsort(values)
    first, second = values[int(order[0])], values[int(order[1])]
    # a middle far from every option (a pawn of a colour the pack does not know, a strange
    # light) is no better known for being farther still from the others
    known = clip01((UNKNOWN_FROM - first) / 10.0 + 1.0)
    return options[int(order[0])], min(margin_conf(first * first, second * second), known), at


@dataclass(frozen=True)
class PawnPatch:
    """What every judgement on one tile's patch shares (built by :func:`look_at`)."""

    p: int
    rc: float  # cell radius, pixels
    rn: float  # pawn radius, pixels
    feats: np.ndarray
    model: ColourModel
    cell_classes: list[int]
    net_ids: list[int]
    tile_classes: list[int]
    #: how far the pawn's middle may lie off the cell's centre as read (a ring half hidden)
    search: float
    maps: dict[int, np.ndarray]  # per class, the core distance map
    #: pixels unlike bare tile: a cell's colour, or dark where the camera blurred the ring
    #: into the pawn's rim (bare tile or a pale pawn colour is no ring)
    ringed: np.ndarray
    #: per pixel, whether each eighth of a ring around it is ringed enough
    #: (:func:`ring_all_round`)
    all_round: np.ndarray
    blobs: list[tuple[tuple[float, float], bool]]
    labels: np.ndarray  # colour class per pixel, networkers in
    #: per pixel, how many eighths of that ring are ringed enough (:func:`ringed_eighths`)
    eighths: np.ndarray | None

    def all_round_but(self, open_parts: int) -> np.ndarray:
        """Whether all eighths of the ring around each pixel but ``open_parts`` are
        ringed enough (the counts made once for :attr:`all_round`)."""
        return all_round_but(self.eighths, self.p, open_parts)

    def name(self, i: int) -> str:
        return str(self.model.names[i])


def look_at(feats: np.ndarray, all_labels: np.ndarray, model: ColourModel, pack: EnigmaPack
             ) -> PawnPatch:
    """The core distance maps, the ring masks and the pawn blobs of one patch."""
    p = all_labels.shape[0]
    rc = pack.cell_radius * p
    rn = pack.networker_radius * p
    cell_classes = [i for i, k in enumerate(model.kinds) if k == "cell"]
    net_ids = [i for i, k in enumerate(model.kinds) if k == "net"]
    tile_classes = [i for i, k in enumerate(model.kinds) if k == "tile"]
    r_core = max(1.5, 0.45 * rn)
    search = max(1.0, 0.45 * rc)
    maps = core_distance_maps(feats, model, cell_classes + net_ids + tile_classes,
                               r_core)
    blobs = pawn_blobs(all_labels, net_ids, rn)
    tile_d = np.min(list(distance_maps(feats, model, tile_classes).values()), axis=0)
    ringed = tile_d > RING_FROM_TILE
    # a pawn off its cell's middle as read, or on a cell not read, stands only where a ring
    # unlike bare tile lies all around it (a tile spot between channels is ringed on some
    # sides only)
    eighths = ringed_eighths(ringed, rn * 1.15, rc * 1.05)
    return PawnPatch(p, rc, rn, feats, model, cell_classes, net_ids, tile_classes, search, maps,
                  ringed, all_round_but(eighths, p), blobs, all_labels, eighths)


def pawn_ring(s: PawnPatch, centre: tuple[float, float]) -> np.ndarray:
    """The ring around a pawn's place: inside a cell, outside the pawn."""
    ring: np.ndarray = disc((s.p, s.p), centre, s.rc * 1.05) & ~disc((s.p, s.p), centre,
                                                                      s.rn * 1.15)
    return ring


def ring_colour(s: PawnPatch, centre: tuple[float, float], *, hue_first: bool = False
                 ) -> tuple[int, float]:
    """The nearest cell colour of the ring around a pawn (its pixels unlike bare tile)
    and its margin over the second nearest. ``hue_first``: a coloured ring takes the
    cell colour of the nearest hue instead, never with more confidence than the colour
    distance gives (a choice the distance disagrees with is doubted)."""
    ring = pawn_ring(s, centre)
    if (ring & s.ringed).any():
        ring &= s.ringed
    med = median(s.feats[ring], axis=0)
    d = sorted((float(((s.model.centres[i] - med) ** 2).sum()), i) for i in s.cell_classes)
    near_i, near_conf = d[0][1], margin_conf(d[0][0], d[1][0])
    hue, chroma = hue_chroma(med)
    if not hue_first or chroma < HUE_MIN_CHROMA:
        return near_i, near_conf
    by_hue = sorted((hue_apart(hue, hue_chroma(s.model.centres[i])[0]) ** 2, i)
                    for i in s.cell_classes)
    hue_conf = margin_conf(by_hue[0][0], by_hue[1][0])
    if by_hue[0][1] == near_i:
        return near_i, min(near_conf, hue_conf)
    return by_hue[0][1], min(near_conf, hue_conf, 1.0 - near_conf)
