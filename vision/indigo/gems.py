"""Indigo reader stage 5, gems: the gem colour labels round each edge spot, a gem's disc
looked for on and near its spot, told from the print round it, and the centre stock
(counted in :mod:`vision.indigo.centre_count`). See :mod:`vision.indigo.reader`.
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from companion.indigo import CENTRE, Gem
from vision.indigo.board import cell_xy, gem_spots, point_xy
from vision.indigo.centre_count import read_centre
from vision.indigo.discs import (
    DOUBTFUL,
    MIN_SAMPLE_PX,
    disc_kernel,
    disc_labels,
    disc_offsets,
    disc_pixels,
    ring_offsets,
)
from vision.indigo.model import (
    GEM_NAMES,
    PackModel,
    canonical_size,
    colour_distance,
    gem_label_map,
    print_gem_shares,
    to_canonical,
)
from vision.indigo.pack import IndigoPack
from vision.indigo.read_types import GemSpot
from vision.indigo.settings import IndigoSettings

#: radius of the disc sampled at a gem spot, as a share of the gem radius
GEM_SAMPLE = 0.7


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


#: a gem stands out from what lies round it: in the ring round a spot (ANNULUS, in gem
#: radii), the share of pixels whose colour lies within RING_SAME (colour-feature units) of
#: the spot's middle. At least RING_SAME_NONE of them: the "gem" is the board or tile under
#: it, spreading beyond the spot (a deep-blue printed cell is not a sapphire); at least
#: RING_SAME_DOUBT: a gem, but doubtful (asked)
ANNULUS = (1.8, 2.5)


RING_SAME = 10.0


RING_SAME_NONE = 0.35


RING_SAME_DOUBT = 0.2


def ring_likeness(lab: np.ndarray, xy: tuple[float, float], gem_r: float) -> float:
    """The share of the ring round a spot whose colour is like the spot's middle."""
    xi, yi = int(round(xy[0])), int(round(xy[1]))
    r, ring = ring_offsets(round(ANNULUS[0] * gem_r, 2), round(ANNULUS[1] * gem_r, 2))
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
    r, ring = ring_offsets(round(GEM_RING[0] * gem_r, 2), round(GEM_RING[1] * gem_r, 2))
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
    reach = max(1, int(round(GEM_CLOSE * gem_r)))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    out = labels.copy()
    height, width = labels.shape[:2]
    for code in range(1, len(GEM_NAMES) + 1):
        mask = (labels == code).astype(np.uint8)
        x, y, w, h = cv2.boundingRect(mask)
        if w == 0:
            continue
        # closed only round this colour's pixels: the dilation reaches `reach` beyond them
        # and the erosion looks `reach` further, so a margin of twice the reach gives the
        # whole map's closing to the bit (at the map's own edges, the same border)
        x0, y0 = max(0, x - 2 * reach - 1), max(0, y - 2 * reach - 1)
        x1, y1 = min(width, x + w + 2 * reach + 1), min(height, y + h + 2 * reach + 1)
        closed = cv2.morphologyEx(mask[y0:y1, x0:x1], cv2.MORPH_CLOSE, kernel)
        part = out[y0:y1, x0:x1]
        part[(part == 0) & (closed > 0)] = code
    return out


def read_gems(
    labels: np.ndarray,
    pack: IndigoPack,
    model: PackModel,
    settings: IndigoSettings,
    lab: np.ndarray | None = None,
    print_bands: list[GemSpot] | None = None,
) -> list[GemSpot]:
    """Gems on edge spots and on the centre tile, from the gem label map; with ``lab``, a
    spot whose colour does not stand out from the ring round it is the board, not a gem.
    A spot that shows only a band of a colour the print takes (:func:`is_print_band`) is
    left out and, with ``print_bands``, appended to it, to be asked about."""
    cell_px = model.cell_px
    gem_r = pack.gem_size * cell_px
    radius = max(MIN_SAMPLE_PX, GEM_SAMPLE * gem_r)
    roaming = _roaming_codes(model, print_gem_shares(pack, model))
    least = settings.gem_min_fraction * NO_GEM_SHARE
    centres = _spot_centres(model)
    found: list[GemSpot] = []
    for (point, _), at, colour in zip(gem_spots(), centres, spots_with_colour_round(
            labels, centres, radius, GEM_SHIFT * gem_r, least), strict=True):
        if not colour:
            continue
        placed = _gem_off_spot(labels, at, radius, GEM_SHIFT * gem_r, least, roaming)
        if placed is None:
            continue
        at, best, frac, off = placed
        conf = _fraction_confidence(frac, settings.gem_min_fraction)
        if off:
            # seen only off its spot: a gem pushed aside, or the print beside the spot (the
            # deep-blue printed cells of the real board as sapphires): asked, never sure
            conf = min(conf, DOUBTFUL)
        clean = False
        if lab is not None:
            judged = _judged_by_ring(lab, model, at, gem_r, best + 1, conf,
                                     settings.min_confidence)
            if judged is None:
                continue
            conf, clean = judged
        elongation = gem_elongation(labels, at, gem_r, best + 1)
        if elongation > PRINT_LINE_ELONGATION and conf < settings.min_confidence:
            continue
        if is_print_band(elongation, best + 1, roaming):
            if print_bands is not None:
                print_bands.append(GemSpot(Gem(GEM_NAMES[best]), point, min(conf, DOUBTFUL)))
            continue
        if elongation > GEM_MOST_ELONGATION:
            conf = min(conf, DOUBTFUL)
        elif clean and not off and best + 1 in roaming:
            # a faceted gem fills little of its disc (its table and the facets turned to the
            # lamp are no gem colour), but only a gem brings a colour the print never takes
            # to a spot, round and apart from what lies round it: sure, at the least
            conf = max(conf, settings.min_confidence)
        found.append(GemSpot(Gem(GEM_NAMES[best]), point, conf))
    found.extend(read_centre(labels, pack, model, share=_gem_share(labels, found, pack, model)))
    return found


def _judged_by_ring(lab: np.ndarray, model: PackModel, at: tuple[float, float], gem_r: float,
                    code: int, conf: float, min_confidence: float) -> tuple[float, bool] | None:
    """A spot's confidence held against the ring round it, and whether that ring is clean
    (unlike the spot's middle and without its gem colour); None when the ring says the spot
    is the board or its print, no gem."""
    like = ring_likeness(lab, at, gem_r)
    if like >= RING_SAME_NONE:
        return None
    if like >= RING_SAME_DOUBT:
        conf = min(conf, DOUBTFUL)
    spread = ring_gem_share(lab, model, at, gem_r, code)
    if spread >= GEM_RING_NONE and conf < min_confidence:
        return None
    if spread >= GEM_RING_DOUBT:
        conf = min(conf, DOUBTFUL)
    return conf, like < RING_SAME_DOUBT and spread < GEM_RING_DOUBT


#: a gem is round: the colour found at a spot is at most this many times as long as it is
#: wide, else it is a stripe of the print (a path) and asked. A disc seen from a tilted
#: camera stays under 1.2, half a disc (a gem half in shadow) is 1.9; a path through the
#: spot is 2.2 to 3.1 (tuning seed 48, demo look, underexposed 0.2 and 0.45: in a dark,
#: noisy frame the demo's navy paths take the sapphire's colour in places, and closing the
#: labels (GEM_CLOSE) fills a path through a spot into a stripe, read as a sapphire at 0.90).
#: Gems on independent tuning boards 1000-1009, harsh: 1.0 to 1.84 (one asked already at
#: 3.02), the sure ones at most 1.66
GEM_MOST_ELONGATION = 2.0


#: a doubtful gem colour this many times as long as it is wide is a line of the print, no gem:
#: the navy edge of a path through the spot, read as a sapphire by a pack taught from photos
#: (independent tuning boards 1000-1019 harsh: all 7 phantom sapphires of the demo looks were
#: such lines, 4.0 to 5.6 times as long as wide, asked at 0.01-0.47; the 287 gems found there,
#: at most 3.02, a dark amber cut by its facets)
PRINT_LINE_ELONGATION = 3.5


def is_print_band(elongation: float, code: int, roaming: frozenset[int]) -> bool:
    """Whether a spot's colour is the print's own band, not a stone: a colour the print takes
    (not in ``roaming``: the navy of the paths as a sapphire) that lies longer than a round
    gem, even half hidden, ever does (:data:`GEM_MOST_ELONGATION`). A stone stands off the
    print with its own edge all round; a band's edges run on along its path past the spot, so
    its colour is all the evidence there is (independent tuning boards 1000-1045 harsh and
    2000-2039 mild, both demo looks: the only edge phantoms were sapphires on a navy band,
    3.1 and 3.2 times as long as wide, 1021 demo-taught and 1032 demo; all 7 spots this
    takes there lie where no gem lies; the 1085 gems found there, all amber or emerald,
    at most 3.02, a dark amber cut by its facets)."""
    return code not in roaming and elongation > GEM_MOST_ELONGATION


def gem_elongation(labels: np.ndarray, at: tuple[float, float], gem_r: float,
                   code: int) -> float:
    """How many times longer than wide the pixels of label ``code`` round ``at`` (within
    :data:`SHARE_DISC` gem radii) lie: the square root of their spread's two axes' ratio,
    1 for a disc."""
    r, inside = disc_offsets(round(SHARE_DISC * gem_r, 2))
    xi, yi = int(round(at[0])), int(round(at[1]))
    block = labels[yi - r : yi + r + 1, xi - r : xi + r + 1]
    ys, xs = np.nonzero((block == code) & inside[: block.shape[0], : block.shape[1]])
    if len(xs) < 3:
        return math.inf
    narrowest, widest = np.linalg.eigvalsh(np.cov(np.stack([xs, ys]).astype(np.float64)))
    return math.sqrt(float(widest) / max(float(narrowest), 1e-9))


#: a gem rests up to this many gem radii off its spot, and a spot without a gem's disc on it
#: is looked at that far round: a hand leaves a gem off the edge's middle (along and across
#: the edge), and a tilted camera sees its top, a tile and a gem's height above the markers'
#: plane, shifted
GEM_SHIFT = 0.8


#: off its spot a gem must fill this many times the least share a gem on its spot fills
OFF_SPOT_SHARE = 2.0


#: a gem colour nearer than this (colour-feature units) to one of the print's colours is
#: looked for on its spot only: every path of the print ends at a spot, and off the spot, along
#: the path, its marks fill a gem's disc (the demo's navy paths as sapphires in a dark frame)
OFF_SPOT_MIN_CONTRAST = 24.0


#: a gem colour that this share of the pack's print takes (thin marks the palette's shrunk
#: images blur away) is looked for on its spot only, for the same reason: off the spot the
#: best place among many finds the print's marks closed into a disc (a taught sapphire in the
#: real board's treasure tile swirls and navy path edges). Packs whose print shows none of a
#: gem's colour measure below 0.005, the taught scans' sapphire 0.03
PRINT_GEM_SHARE = 0.01


def _roaming_codes(model: PackModel, print_shares: np.ndarray) -> frozenset[int]:
    """The gem labels looked for off their spots: colours far from every print colour, which
    the print's own marks do not take."""
    return frozenset(
        code for code, name in enumerate(GEM_NAMES, start=1)
        if float(print_shares[code]) < PRINT_GEM_SHARE and (model.palette.size == 0 or float(
            colour_distance(model.palette, model.gem_lab[name]).min()) >= OFF_SPOT_MIN_CONTRAST))


#: a place for a gem: (its canonical xy, its colour's index in GEM_NAMES, the share of the
#: disc there in that colour, whether it lies off the spot)
GemPlace = tuple[tuple[float, float], int, float, bool]


def _gem_off_spot(labels: np.ndarray, at: tuple[float, float], radius: float, reach: float,
                  least: float, roaming: frozenset[int]) -> GemPlace | None:
    """The gem at the spot ``at``: the colour filling most of a disc of ``radius`` there, when
    one fills ``least`` of it; else, for labels in ``roaming``, the place within ``reach``
    pixels where one colour fills most of such a disc (twice ``least`` at the least); None
    when neither holds a gem."""
    r, inside = disc_offsets(round(radius, 2))
    kernel = disc_kernel(round(radius, 2)) / float(inside.sum())
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
    near = disc_offsets(round(reach, 2))[1]
    on_spot: GemPlace | None = None
    off_spot: GemPlace | None = None
    for code in range(1, len(GEM_NAMES) + 1):
        if counts[code] < enough:
            continue  # too few pixels of this colour round the spot to fill a disc anywhere
        hit = (block == code).astype(np.float32)
        share = cv2.filter2D(hit, -1, kernel, borderType=cv2.BORDER_CONSTANT)
        middle = share[r : r + 2 * far + 1, r : r + 2 * far + 1] * near
        value = float(middle[far, far])
        if value >= least and (on_spot is None or value > on_spot[2]):
            on_spot = ((float(xi), float(yi)), code - 1, value, False)
        if code not in roaming:
            continue
        # the nearest of equal shares: a gem's whole disc seen from a little off its middle
        dy, dx = (int(v) for v in np.unravel_index(
            int(np.argmax(middle - 1e-4 * _offset_lengths(far))), middle.shape))
        value = float(middle[dy, dx])
        # the best of many places off the spot finds a few gem-coloured pixels of print or
        # noise anywhere: off it, only a gem's worth of colour counts
        if value >= OFF_SPOT_SHARE * least and (off_spot is None or value > off_spot[2]):
            off_spot = ((float(xi + dx - far), float(yi + dy - far)), code - 1, value, True)
    return on_spot or off_spot


def _spot_centres(model: PackModel) -> list[tuple[float, float]]:
    """The canonical xy of every gem spot, in :func:`gem_spots` order (worked out once per
    model)."""
    key = ("spot-centres", 0)
    if key not in model.cache:
        model.cache[key] = np.array([to_canonical(xy, model.cell_px) for _, xy in gem_spots()])
    return [(float(x), float(y)) for x, y in model.cache[key]]


def spots_with_colour_round(labels: np.ndarray, centres: list[tuple[float, float]],
                            radius: float, reach: float, least: float) -> list[bool]:
    """Per spot, whether :func:`_gem_off_spot` can find a gem there: the square it looks in
    lies on the board and holds, of some gem colour, the pixels of ``least`` of a disc of
    ``radius``. Counted for every spot at once from each colour's running sums (whole
    numbers, the same counts as each square's own): on a board most spots hold none, and
    looking at each in turn cost a read 4 ms."""
    r, inside = disc_offsets(round(radius, 2))
    side = r + int(math.ceil(reach))
    enough = least * float(inside.sum())
    h, w = labels.shape
    xs = np.array([int(round(x)) for x, _ in centres])
    ys = np.array([int(round(y)) for _, y in centres])
    whole = (xs - side >= 0) & (ys - side >= 0) & (xs + side < w) & (ys + side < h)
    x0, x1 = np.clip(xs - side, 0, w), np.clip(xs + side + 1, 0, w)
    y0, y1 = np.clip(ys - side, 0, h), np.clip(ys + side + 1, 0, h)
    some = np.zeros(len(centres), bool)
    for code in range(1, len(GEM_NAMES) + 1):
        sums = cv2.integral((labels == code).view(np.uint8))
        some |= sums[y1, x1] - sums[y0, x1] - sums[y1, x0] + sums[y0, x0] >= enough
    return list(whole & some)


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
        values = disc_labels(labels, (x, y), SHARE_DISC * gem_r)
        code = GEM_NAMES.index(spot.gem.value) + 1
        shares.setdefault(spot.gem.value, []).append(
            float((values == code).sum()) / (math.pi * gem_r**2)
        )
    return {name: float(np.median(v)) for name, v in shares.items()}


def _fraction_confidence(frac: float, threshold: float) -> float:
    """1 well above the threshold, 0.5 at it, 0 at half of it."""
    return float(np.clip(0.5 + (frac - threshold) / threshold, 0.0, 1.0))

