"""Enigma reader geometry: the frame rectified onto the table plane, the part the camera sees,
the start tile found, the colour balance, and the tile squares found on the table
(:func:`see_squares`). See :mod:`vision.enigma.reader`.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import cv2
import numpy as np

from companion.enigma.tiles import Pos
from vision.art_pack import BGR
from vision.enigma.colours import colour_features
from vision.enigma.geometry import TableGeometry
from vision.enigma.pack import EnigmaPack
from vision.enigma.settings import ReaderSettings
from vision.errors import FrameRefusedError
from vision.gains import times_gains
from vision.markers import PlaneFit
from vision.warp import warp_perspective, warp_perspective_seen

# ---------------------------------------------------------------------------- geometry


def straightened_placement(geometry: TableGeometry, px_per_tile: int, margin_px: int
                           ) -> tuple[np.ndarray, tuple[int, int]]:
    """The map from plane millimetres to straightened pixels, and the straightened size."""
    w_mm, h_mm = geometry.frame_mm
    s = px_per_tile / geometry.tile_mm
    plane_to_canon = np.array([[s, 0, w_mm / 2 * s + margin_px],
                               [0, s, h_mm / 2 * s + margin_px], [0, 0, 1]], np.float64)
    size = (int(round(w_mm * s)) + 2 * margin_px, int(round(h_mm * s)) + 2 * margin_px)
    return plane_to_canon, size


def rectify(
    frame: np.ndarray, fit: PlaneFit, geometry: TableGeometry, px_per_tile: int,
    *, margin_px: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """The marker plane seen straight down: ``px_per_tile`` pixels per tile side, the marker
    frame plus ``margin_px`` around it. Returns the image and the 3x3 map from plane
    millimetres to its pixels."""
    plane_to_canon, size = straightened_placement(geometry, px_per_tile, margin_px)
    canon = warp_perspective(frame, plane_to_canon @ fit.image_to_plane, size)
    return canon, plane_to_canon


#: the seen mask is taken in this far from the picture's edge (the warp blurs the border)
SEEN_ERODE_PX = 5


def rectify_seen(
    frame: np.ndarray, fit: PlaneFit, geometry: TableGeometry, px_per_tile: int,
    *, margin_px: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`rectify`, and which pixels of the straightened image the camera saw (False
    past the picture's edges, a few pixels in from the edge), from one warp."""
    plane_to_canon, size = straightened_placement(geometry, px_per_tile, margin_px)
    canon, inside = warp_perspective_seen(frame, plane_to_canon @ fit.image_to_plane, size)
    return canon, plane_to_canon, eroded_seen(inside)


def rectify_seen_boxes(
    frame: np.ndarray, fit: PlaneFit, geometry: TableGeometry, px_per_tile: int,
    boxes: list[tuple[int, int, int, int]], *, margin_px: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`rectify_seen` in the ``boxes`` (x0, y0, x1, y1 straightened pixels) only: there
    the same pixels and mask to the bit, elsewhere black and unseen. A read of a few squares
    straightens only them."""
    plane_to_canon, (width, height) = straightened_placement(geometry, px_per_tile, margin_px)
    matrix = plane_to_canon @ fit.image_to_plane
    canon = np.zeros((height, width, *frame.shape[2:]), frame.dtype)
    seen = np.zeros((height, width), bool)
    # warped a little wider than each box, so that the mask's erosion inside the box sees
    # what the whole warp's would
    pad = SEEN_ERODE_PX // 2 + 1
    for x0, y0, x1, y1 in clipped_boxes(boxes, (height, width)):
        wx0, wy0 = max(0, x0 - pad), max(0, y0 - pad)
        wx1, wy1 = min(width, x1 + pad), min(height, y1 + pad)
        part, inside = warp_perspective_seen(frame, matrix, (wx1 - wx0, wy1 - wy0),
                                             origin=(wx0, wy0))
        inner = (slice(y0 - wy0, y1 - wy0), slice(x0 - wx0, x1 - wx0))
        canon[y0:y1, x0:x1] = part[inner]
        seen[y0:y1, x0:x1] = eroded_seen(inside)[inner]
    return canon, plane_to_canon, seen


def eroded_seen(inside: np.ndarray) -> np.ndarray:
    """The seen mask of a warp whose source pixels are ``inside`` the picture: taken in
    :data:`SEEN_ERODE_PX` // 2 pixels (the warp blurs the picture's edge)."""
    kernel = np.ones((SEEN_ERODE_PX, SEEN_ERODE_PX), np.uint8)
    eroded: np.ndarray = cv2.erode(inside.astype(np.uint8), kernel, borderValue=0) > 0
    return eroded


def start_window(shape: tuple[int, ...], p: int) -> tuple[int, int, int, int]:
    """Where :func:`find_start` looks for the start tile in a straightened image of
    ``shape``: about one tile round the middle of the marker frame (x0, y0, x1, y1)."""
    h, w = shape[:2]
    cx, cy = w / 2, h / 2
    reach = int(1.3 * p)
    x0, y0 = max(0, int(cx - reach - p / 2)), max(0, int(cy - reach - p / 2))
    x1, y1 = min(w, int(cx + reach + p / 2)), min(h, int(cy + reach + p / 2))
    return x0, y0, x1, y1


def find_start(
    gray: np.ndarray, pack: EnigmaPack, p: int, settings: ReaderSettings
) -> tuple[float, float, float]:
    """Centre (x, y) of the start tile in the straightened image, and the match score.

    Searched within about one tile of the middle of the marker frame, in four rotations."""
    tmpl = cv2.cvtColor(
        cv2.resize(pack.start, (p, p), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY
    )
    x0, y0, x1, y1 = start_window(gray.shape, p)
    window = cv2.GaussianBlur(gray[y0:y1, x0:x1], (0, 0), 1.0)
    best = (-1.0, 0.0, 0.0)
    for k in range(4):
        t = cv2.GaussianBlur(np.ascontiguousarray(np.rot90(tmpl, k)), (0, 0), 1.0)
        res = cv2.matchTemplate(window, t, cv2.TM_CCOEFF_NORMED)
        _, score, _, loc = cv2.minMaxLoc(res)
        if score > best[0]:
            lx, ly = loc
            dx = dy = 0.0
            if 0 < lx < res.shape[1] - 1:
                a, b, c = res[ly, lx - 1], res[ly, lx], res[ly, lx + 1]
                den = a - 2 * b + c
                dx = 0.5 * (a - c) / den if den < 0 else 0.0
            if 0 < ly < res.shape[0] - 1:
                a, b, c = res[ly - 1, lx], res[ly, lx], res[ly + 1, lx]
                den = a - 2 * b + c
                dy = 0.5 * (a - c) / den if den < 0 else 0.0
            best = (float(score), x0 + lx + dx + (p - 1) / 2, y0 + ly + dy + (p - 1) / 2)
    score, sx, sy = best
    if score < settings.start_min_score:
        raise FrameRefusedError(
            f"no start tile near the middle of the table (its face matches {score:.2f}, needs "
            f"{settings.start_min_score:.2f}): wrong game, or the start tile is covered",
            reason="no-start-tile",
        )
    return sx, sy, score


def balance(
    canon: np.ndarray, start_xy: tuple[float, float], pack: EnigmaPack, p: int,
    *, boxes: list[tuple[int, int, int, int]] | None = None,
) -> np.ndarray:
    """The image with the per-channel gains that give the start tile its pack colours
    (removes a colour cast). ``boxes``: only those parts (x0, y0, x1, y1) are balanced (an
    image straightened there only, :func:`rectify_seen_boxes`), the rest left black."""
    gains = start_gains(canon, start_xy, pack, p)
    if boxes is None:
        return times_gains(canon, gains)
    balanced = np.zeros_like(canon)
    for x0, y0, x1, y1 in clipped_boxes(boxes, canon.shape):
        balanced[y0:y1, x0:x1] = times_gains(canon[y0:y1, x0:x1], gains)
    return balanced


def start_gains(canon: np.ndarray, start_xy: tuple[float, float], pack: EnigmaPack, p: int
                ) -> np.ndarray:
    """The per-channel gains :func:`balance` applies: the start tile's middle as the pack
    draws it over the same as seen (only the start tile's square of ``canon`` is read)."""
    ref = cv2.resize(pack.start, (p, p), interpolation=cv2.INTER_AREA).astype(np.float32)
    patch = cv2.getRectSubPix(canon, (p, p), start_xy).astype(np.float32)
    inner = np.zeros((p, p), bool)
    m = p // 6
    inner[m : p - m, m : p - m] = True
    gains = np.median(ref[inner], axis=0) / np.maximum(np.median(patch[inner], axis=0), 1.0)
    clipped: np.ndarray = np.clip(gains, 0.4, 2.5)
    return clipped


def clipped_boxes(boxes: list[tuple[int, int, int, int]], shape: tuple[int, ...]
                  ) -> list[tuple[int, int, int, int]]:
    """The ``boxes`` (x0, y0, x1, y1) cut to an image of ``shape``, the empty ones left out."""
    h, w = shape[:2]
    cut = [(max(0, x0), max(0, y0), min(w, x1), min(h, y1)) for x0, y0, x1, y1 in boxes]
    return [(x0, y0, x1, y1) for x0, y0, x1, y1 in cut if x0 < x1 and y0 < y1]


def marker_zones(geometry: TableGeometry, plane_to_canon: np.ndarray) -> list[tuple[float, ...]]:
    """The table markers' squares, grown to twice their side, in the straightened image
    (x0, y0, x1, y1): no tile is looked for there."""
    zones: list[tuple[float, ...]] = []
    for cx, cy in geometry.layout.centres_mm:
        half = geometry.layout.size_mm
        a = plane_to_canon @ np.array([cx - half, cy - half, 1.0])
        b = plane_to_canon @ np.array([cx + half, cy + half, 1.0])
        zones.append((float(a[0]), float(a[1]), float(b[0]), float(b[1])))
    return zones


def _compass(dx: float, dy: float) -> str:
    """The side (record north = image up) a direction in the straightened image points to."""
    if abs(dx) >= abs(dy):
        return "east" if dx > 0 else "west"
    return "south" if dy > 0 else "north"


@dataclass(frozen=True)
class EdgeNote:
    """A square the table's edges make doubtful: a tile lying past the marker frame, a tile
    beside a square the camera could not see, or a square the picture cuts. ``kind`` says
    which edge the table nears (``markers``: the marker frame; ``view``: the picture's edge),
    ``side`` where (north is the record's north, up in the straightened image)."""

    at: Pos
    text: str
    kind: str = ""
    side: str = ""


#: half the side (share of a tile) of a square's middle, where it is judged tile or table
SQUARE_MIDDLE = 0.35
#: hand placement: a tile may stick out of its square this share of a tile past the markers
#: before it is noted as lying past them
PLACEMENT_SLACK = 0.12
#: a square's middle with less than this share counted (not a marker zone) is a marker
MIN_COUNTED = 0.3
#: ... when at least this share of it was seen; less seen is a square out of sight
MIN_SEEN = 0.15
#: the share of a square that must be seen for it to be read (the rest is rounding)
WHOLLY_SEEN = 0.995
#: a square the picture cuts whose seen middle is at least this share tile: the table goes on
CUT_TILE = 0.5
#: a square whose middle is more than this share tile but not occupied is a question
PARTLY_COVERED = 0.3


#: the squares are told tile or table on every this-many-th pixel of each row and column:
#: a share of a square's middle needs no more, and the colour test per pixel was most of the
#: grid's time (nearest samples: an averaged pixel on a channel's edge would be a new colour)
COVER_STEP = 2


@dataclass(frozen=True)
class Cover:
    """Integral images over the straightened table, sampled every :data:`COVER_STEP`
    pixels: tile pixels (counted ones only), seen pixels, and counted pixels (seen, outside
    the markers' zones). ``width`` and ``height`` are the straightened image's."""

    tile: np.ndarray
    seen: np.ndarray
    counted: np.ndarray
    width: int
    height: int
    step: int = 1
    #: the straightened pixel the integral images start at (a part of the table measured)
    origin: tuple[int, int] = (0, 0)

    def box_sum(self, integral: np.ndarray, xa: int, ya: int, xb: int, yb: int) -> float:
        """How many pixels of the box [xa, xb) x [ya, yb) (straightened pixels) are set in
        ``integral``'s mask, counted on the samples inside it."""
        box = [np.array([v]) for v in (xa, ya, xb, yb)]
        return float(self.box_sums(integral, *box)[0])

    def box_sums(self, integral: np.ndarray, xa: np.ndarray, ya: np.ndarray, xb: np.ndarray,
                 yb: np.ndarray) -> np.ndarray:
        """:meth:`box_sum` of many boxes at once (integer arrays of their corners): the same
        sums, without a Python call per box (a table's few hundred squares, four sums each)."""
        s = self.step
        h, w = integral.shape[0] - 1, integral.shape[1] - 1
        xa = np.clip(-(-(xa - self.origin[0]) // s), 0, w)
        xb = np.clip(-(-(xb - self.origin[0]) // s), 0, w)
        ya = np.clip(-(-(ya - self.origin[1]) // s), 0, h)
        yb = np.clip(-(-(yb - self.origin[1]) // s), 0, h)
        total = integral[yb, xb] - integral[ya, xb] - integral[yb, xa] + integral[ya, xa]
        sums: np.ndarray = np.where((xa < xb) & (ya < yb), total * s * s, 0.0)
        return sums


def _art_colours(pack: EnigmaPack) -> list[BGR]:
    """The colours a tile's face shows inside its edge line: its ground, channels, icons
    and power cells."""
    return [pack.colour("tile"), pack.colour("channel"), pack.colour("icon"),
            *pack.cells.values()]


#: :func:`any_positive` transforms this many affine maps at once: their signs, as bytes, are
#: one 64-bit word per pixel
MAPS_AT_ONCE = 8


def any_positive(feats: np.ndarray, maps: np.ndarray) -> np.ndarray:
    """Per pixel of ``feats`` (h, w, 3 float32), whether any of the affine ``maps`` (rows of
    4 float32: three weights and a constant) is positive there. The maps go through
    ``cv2.transform`` eight at a time (the last repeated to fill the eight), and their signs
    are read as one 64-bit word per pixel: the same answer as the largest of the maps taken
    4 at a time (``cv2.split``, ``cv2.max``) above 0, in half the time."""
    h, w = feats.shape[:2]
    hit = np.zeros((h, w), bool)
    for k in range(0, len(maps), MAPS_AT_ONCE):
        some = maps[k:k + MAPS_AT_ONCE]
        some = np.vstack([some, np.repeat(some[-1:], MAPS_AT_ONCE - len(some), axis=0)])
        signs = cv2.transform(feats, some).reshape(h, w, MAPS_AT_ONCE) > 0
        hit |= signs.view(np.uint64)[..., 0] != 0
    return hit


def tile_cover(canon: np.ndarray, pack: EnigmaPack, zones: list[tuple[float, ...]],
               seen: np.ndarray | None, within: tuple[int, int, int, int] | None = None,
               sampled: np.ndarray | None = None, middles: SquareBoxes | None = None) -> Cover:
    """Which pixels show tile rather than table, which were seen and which count: over the
    whole straightened table, or ``within`` a box of it (x0, y0, x1, y1) only (the same
    samples there: its corner is moved onto the sampling grid). ``sampled``: the whole
    table's samples (``canon[::COVER_STEP, ::COVER_STEP]``), when ``canon`` was not made
    everywhere (:mod:`vision.enigma.lazy_table`). ``middles``: the squares' middles, the
    only boxes the tile pixels are counted in: the colour is told there only (the rows and
    columns of the grid's middles, about half the samples; the others count no tile)."""
    height, width = canon.shape[:2]
    step = COVER_STEP
    x0, y0, x1, y1 = within if within is not None else (0, 0, width, height)
    x0, y0 = max(0, x0 - x0 % step), max(0, y0 - y0 % step)
    x1, y1 = min(width, x1), min(height, y1)
    if seen is None:
        seen = np.ones((height, width), bool)
    canon, seen = canon[y0:y1, x0:x1], seen[y0:y1, x0:x1]
    if sampled is not None and within is not None:
        raise ValueError("tile_cover: the samples are of the whole table, not within a box")
    samples = canon[::step, ::step] if sampled is None else sampled
    # weight chromaticity over brightness: light changes brightness, not what a pixel is
    w2 = np.array([1.0, 1.0, 0.25], np.float32)
    # a tile shows its art as well as its ground: a tile dense with channels and cells is
    # still a whole tile (one of its art colours is nearer than the table's). Nearer to art
    # colour a than to table colour t is linear in the pixel's features f:
    # 2 f.w2(a - t) + |t|^2 - |a|^2 > 0 (weighted), one affine map per art colour
    table_f = colour_features(np.array(pack.colour("table"), np.float32))
    rows = []
    for colour in _art_colours(pack):
        art_f = colour_features(np.array(colour, np.float32))
        rows.append([*(2.0 * w2 * (art_f - table_f)),
                     float((table_f * table_f) @ w2 - (art_f * art_f) @ w2)])
    maps = np.array(rows, np.float32)
    if middles is None:
        nearer_art = any_positive(colour_features(samples).astype(np.float32), maps)
    else:
        xa, xb, ya, yb = middles
        h, w = samples.shape[:2]
        ys, xs = _sampled_in(ya, yb, y0, step, h), _sampled_in(xa, xb, x0, step, w)
        nearer_art = np.zeros((h, w), bool)
        if ys.size and xs.size:
            # rows first, from the image itself: a gather of whole rows is a copy each
            part = (sampled[ys][:, xs] if sampled is not None
                    else canon[step * ys][:, step * xs])
            told = any_positive(colour_features(part).astype(np.float32), maps)
            # scattered back columns first, then whole rows (a copy each)
            told_rows = np.zeros((ys.size, w), bool)
            told_rows[:, xs] = told
            nearer_art[ys] = told_rows
    # the markers' white paper is no tile: their zones count as neither tile nor table
    seen = np.ascontiguousarray(seen[::step, ::step], dtype=bool)
    counted = seen.copy()
    for z in zones:
        # the samples (every step-th pixel) in the zone's pixels [a, b): from ceil(a / step)
        counted[-(-max(0, int(z[1]) - y0) // step):-(-max(0, int(z[3]) + 1 - y0) // step),
                -(-max(0, int(z[0]) - x0) // step):-(-max(0, int(z[2]) + 1 - x0) // step)] = False
    # counts of samples: whole numbers, summed from bytes into 32-bit integers (a quarter of
    # the time of float sums; the same counts, exact in either)
    on_tile = nearer_art & counted
    tile, seen_sums, counted_sums = (cv2.integral(mask.view(np.uint8), sdepth=cv2.CV_32S)
                                     for mask in (on_tile, seen, counted))
    return Cover(tile, seen_sums, counted_sums, width, height, step, (x0, y0))


#: boxes as arrays of their corners: x0, x1, y0, y1 (pixels, ends excluded)
SquareBoxes = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _sampled_in(starts: np.ndarray, ends: np.ndarray, origin: int, step: int, n: int
                ) -> np.ndarray:
    """The indices of the ``n`` samples (every ``step``-th pixel from ``origin``) that lie in
    any of the ranges [start, end) along one axis (each start before its end): the samples
    :meth:`Cover.box_sums` counts in those ranges."""
    lo = np.clip(-(-(starts - origin) // step), 0, n)
    hi = np.clip(-(-(ends - origin) // step), 0, n)
    inside = np.zeros(n + 1, np.int64)
    np.add.at(inside, lo, 1)
    np.add.at(inside, hi, -1)
    indices: np.ndarray = np.flatnonzero(np.cumsum(inside[:n]) > 0)
    return indices


def square_middles(centres: list[tuple[float, float]], inner: float) -> SquareBoxes:
    """The middles of the squares round ``centres``, ``inner`` pixels either side."""
    cx = np.array([c[0] for c in centres], np.float64)
    cy = np.array([c[1] for c in centres], np.float64)
    # int() of a float truncates towards zero, as the conversion of an array does
    return ((cx - inner).astype(np.int64), (cx + inner).astype(np.int64),
            (cy - inner).astype(np.int64), (cy + inner).astype(np.int64))


@dataclass(frozen=True)
class _Square:
    """What is seen of one grid square (pixel counts from :class:`Cover`)."""

    area_px: int  # pixels of its middle
    seen_whole: float  # share of the whole square seen
    seen_inner: float  # pixels of its middle seen
    counted_inner: float  # pixels of its middle counted
    tile_inner: float  # pixels of its middle that show tile
    box: tuple[int, int, int, int]  # the whole square (x0, y0, x1, y1)


def _measure(cover: Cover, centres: list[tuple[float, float]], middles: SquareBoxes, p: int
             ) -> list[_Square]:
    """How much of each square around ``centres`` was seen, counted and shows tile: in its
    ``middles`` (:func:`square_middles`), and seen over the whole square (a square must be seen
    whole, not only its middle, to be read). Every square's sums at once."""
    cx = np.array([c[0] for c in centres], np.float64)
    cy = np.array([c[1] for c in centres], np.float64)
    xa, xb, ya, yb = middles
    fa, fb = (cx - p / 2).astype(np.int64), (cx + p / 2).astype(np.int64)
    ga, gb = (cy - p / 2).astype(np.int64), (cy + p / 2).astype(np.int64)
    whole = np.maximum(1, (fb - fa) * (gb - ga))
    seen_whole = cover.box_sums(cover.seen, fa, ga, fb, gb) / whole
    columns = zip(np.maximum(1, (xb - xa) * (yb - ya)).tolist(), seen_whole.tolist(),
                  cover.box_sums(cover.seen, xa, ya, xb, yb).tolist(),
                  cover.box_sums(cover.counted, xa, ya, xb, yb).tolist(),
                  cover.box_sums(cover.tile, xa, ya, xb, yb).tolist(),
                  zip(fa.tolist(), ga.tolist(), fb.tolist(), gb.tolist(), strict=True),
                  strict=True)
    return [_Square(*column) for column in columns]


def _in_zones(centres: list[tuple[float, float]], zones: list[tuple[float, ...]]) -> list[bool]:
    """Per centre, whether it lies strictly inside one of the ``zones`` (x0, y0, x1, y1)."""
    cx = np.array([c[0] for c in centres], np.float64)[:, np.newaxis]
    cy = np.array([c[1] for c in centres], np.float64)[:, np.newaxis]
    z = np.array(zones, np.float64).reshape(-1, 4)
    inside: np.ndarray = (z[:, 0] < cx) & (cx < z[:, 2]) & (z[:, 1] < cy) & (cy < z[:, 3])
    return [bool(v) for v in np.any(inside, axis=1).tolist()]


def _cut_question(at: Pos, centre: tuple[float, float], box: tuple[int, int, int, int],
                  cover: Cover) -> EdgeNote:
    """The question about a square the picture (or the straightened area) cuts while what
    is seen of it is tile: where the unseen part lies, the side the table goes on."""
    i, j = at
    fa, ga, fb, gb = box
    c, d = int(centre[0]), int(centre[1])
    west = cover.box_sum(cover.seen, fa, ga, c, gb)
    east = cover.box_sum(cover.seen, c, ga, fb, gb)
    north = cover.box_sum(cover.seen, fa, ga, fb, d)
    south = cover.box_sum(cover.seen, fa, d, fb, gb)
    dx, dy = west - east, north - south  # the less seen half is cut
    side = _compass(dx, dy)
    if fa < 0 or ga < 0 or fb > cover.width or gb > cover.height:
        return EdgeNote(at, (f"square [{i}, {j}]: the table reaches too far past the markers "
                             f"at the {side} to be read: move the markers so the whole table "
                             "lies between them"), "markers", side)
    return EdgeNote(at, (f"square [{i}, {j}]: the table continues past the edge of the "
                         f"picture at the {side}: move the camera or the markers so the "
                         "whole table is seen"), "view", side)


def _past_markers(at: Pos, centre: tuple[float, float], p: int,
                  area: tuple[float, float, float, float]) -> EdgeNote | None:
    """A note when the tile at ``at`` sticks out of the marker frame ``area`` by more than
    hand placement explains."""
    cx, cy = centre
    ax0, ay0, ax1, ay1 = area
    outside = {
        "west": ax0 - (cx - p / 2), "east": (cx + p / 2) - ax1,
        "north": ay0 - (cy - p / 2), "south": (cy + p / 2) - ay1}
    side, by = max(outside.items(), key=lambda kv: kv[1])
    if by <= PLACEMENT_SLACK * p:
        return None
    return EdgeNote(at, (f"it lies past the table markers at the {side}: move the markers so "
                         "the whole table lies between them"), "markers", side)


def _blind_neighbours(squares: dict[Pos, tuple[float, float]], blind: dict[Pos, str],
                      continues: set[Pos], i_range: range, j_range: range) -> list[EdgeNote]:
    """A tile beside a square the camera did not see (``blind``: why, the edge kind): the
    table may go on there."""
    notes: list[EdgeNote] = []
    for (i, j) in sorted(squares, key=lambda a: (a[1], a[0])):
        for di, dj in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            nb = (i + di, j + dj)
            beyond = not (i_range.start <= nb[0] < i_range.stop
                          and j_range.start <= nb[1] < j_range.stop)
            if nb in blind or (nb not in squares and nb not in continues and beyond):
                kind = blind.get(nb, "markers")
                side = _compass(di, dj)
                notes.append(EdgeNote((i, j), (
                    f"the square to its {side} is not wholly seen (past the edge of "
                    "the picture or far past the markers): the table may continue there; move "
                    "the camera or the markers"), kind, side))
    return notes


@dataclass(frozen=True)
class SquaresSeen:
    """The squares holding a tile (their places), the questions about squares, each with
    the square it is about (grid order), and the notes about the table's edges."""

    squares: dict[Pos, tuple[float, float]]
    asked: list[tuple[Pos, str]]
    notes: list[EdgeNote]

    @property
    def questions(self) -> list[str]:
        """The questions alone, in grid order."""
        return [question for _, question in self.asked]


def see_squares(
    canon: np.ndarray,
    start_xy: tuple[float, float],
    pack: EnigmaPack,
    p: int,
    zones: list[tuple[float, ...]],
    settings: ReaderSettings,
    *,
    seen: np.ndarray | None = None,
    area: tuple[float, float, float, float] | None = None,
    only: Collection[Pos] | None = None,
    sampled: np.ndarray | None = None,
) -> SquaresSeen:
    """Grid squares that hold a tile, anchored on the start tile; partly covered squares
    become questions.

    ``seen``: the pixels the camera saw; ``area``: the marker frame (x0, y0, x1, y1 pixels)
    inside the image. A tile past the marker frame is read but noted; a square the picture
    cuts is never read: if what is seen of it is tile, or nothing of it is seen beside a
    tile, the table may continue there and that is a question (never a smaller table).

    ``only``: the squares to look at (a read after a placement); the others are not looked
    at, and only the part of the table under those is measured. ``sampled``: the whole
    table's every :data:`COVER_STEP`-th pixel along each axis, when ``canon`` was made only
    where tiles are read (:mod:`vision.enigma.lazy_table`)."""
    sx, sy = start_xy
    within = None
    if only is not None:
        xs = [sx + i * p for i, _ in only] or [sx]
        ys = [sy + j * p for _, j in only] or [sy]
        within = (int(min(xs) - p), int(min(ys) - p), int(max(xs) + p) + 1,
                  int(max(ys) + p) + 1)
    h, w = canon.shape[:2]
    i_range = range(-int(sx // p) - 1, int((w - sx) // p) + 2)
    j_range = range(-int(sy // p) - 1, int((h - sy) // p) + 2)
    grid = ([(i, j) for j in j_range for i in i_range] if only is None
            else sorted(only, key=lambda a: (a[1], a[0])))
    centres = [(sx + i * p, sy + j * p) for i, j in grid]
    middles = square_middles(centres, SQUARE_MIDDLE * p)
    cover = tile_cover(canon, pack, zones, seen, within, sampled, middles)
    frame_area = area if area is not None else (0.0, 0.0, float(w), float(h))
    squares: dict[Pos, tuple[float, float]] = {}
    questions: list[tuple[Pos, str]] = []
    notes: list[EdgeNote] = []
    blind: dict[Pos, str] = {}
    continues: set[Pos] = set()
    for (i, j), (cx, cy), m, in_zone in zip(grid, centres, _measure(cover, centres, middles, p),
                                            _in_zones(centres, zones), strict=True):
        if in_zone:
            continue
        if m.counted_inner < MIN_COUNTED * m.area_px and m.seen_inner >= MIN_SEEN * m.area_px:
            continue  # mostly a marker
        frac = m.tile_inner / max(1.0, m.counted_inner)
        if m.seen_whole < WHOLLY_SEEN and (i, j) != (0, 0):
            # a square the picture (or the straightened area) cuts is never read: if
            # what is seen of it is tile, the table goes on; else a tile beside it is
            # doubted (its neighbour may be a tile out of sight)
            if m.seen_inner < MIN_SEEN * m.area_px or frac < CUT_TILE:
                fa, ga, fb, gb = m.box
                past_straightened = fa < 0 or ga < 0 or fb > w or gb > h
                blind[(i, j)] = "markers" if past_straightened else "view"
            else:
                continues.add((i, j))
                cut = _cut_question((i, j), (cx, cy), m.box, cover)
                questions.append(((i, j), cut.text))
                notes.append(cut)
            continue
        if frac >= settings.occupied_min or (i, j) == (0, 0):
            squares[(i, j)] = (cx, cy)
            note = _past_markers((i, j), (cx, cy), p, frame_area)
            if note is not None:
                notes.append(note)
        elif frac > PARTLY_COVERED:
            questions.append(((i, j), f"square [{i}, {j}]: partly covered ({frac:.0%} tile): "
                                      "is a tile lying off the grid?"))
    notes += _blind_neighbours(squares, blind, continues, i_range, j_range)
    return SquaresSeen(squares, questions, notes)
