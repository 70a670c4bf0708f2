"""The puzzle card found on the straightened mat, whatever the table under it.

The mat's markers are printed on white paper, like the card: the paper's colour in the frame
(:func:`paper_gains`) takes out the colour cast and the exposure without assuming anything of
the table (wood, cloth or stone of any colour). The card is then the square of the card's side
that is whitest against a band just around it (:func:`find_card_square`): a lamp's glare on
the table next to the card, or a light table, does not grow the card as a patch of colour
would, and a hand's shadow over part of it leaves the square's best place where it was.
A grey table under a lamp can be nearly as white as the card, so the square is also held to
the card's outline: its four sides must each show a step from the table up to the brighter
card (:func:`outline_steps`), which a lit patch of table has on no side.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.enigma.mat import MARK, MAT_PX_PER_MM, CardRect, Mat
from vision.errors import FrameRefusedError
from vision.warp import perspective_maps

#: the quiet zone around a marker: between these shares of its side from its centre
QUIET_ZONE = (0.6, 0.9)
#: the brightest share of the quiet zone's pixels that counts as paper (a hand or glare on a
#: part of one marker moves a median less than a mean)
PAPER_TOP = 0.5
#: the square search: coarse and fine resolution (px per mm), turns tried (degrees)
COARSE_PX_PER_MM, FINE_PX_PER_MM = 1.0, 2.0
COARSE_TURNS = tuple(range(-45, 45, 3))
FINE_TURNS = tuple(x / 2 for x in range(-4, 5))
#: the coarse search is placed first at this resolution (px per mm; the card is still 30 px)
#: over every other coarse turn (PLACE_TURNS), a quarter of its pixels at 1 px a mm and half
#: its turns; the coarse search then tries only the turns within PLACE_TURNS_DEG and the
#: centres within PLACE_REACH_MM of that find (its pixel is 2 mm; half a step, 3 degrees,
#: moves the 30 px card's corners by about a pixel of it)
PLACE_PX_PER_MM, PLACE_TURNS_DEG, PLACE_REACH_MM = 0.5, 6.0, 6.0
PLACE_TURNS = COARSE_TURNS[::2]
#: the card's centre lies in this left share of the mat
CARD_PART = 0.55
#: the band around the square compared with it (share of the side)
BAND = 0.15
#: the card's margin must be this much whiter than the band around it; the margin is the
#: ring inside the outline, outside this share of the side, where every card is bare paper
#: (a conduit card's pieces colour its middle, and under a strong cast the whole square
#: was no whiter than a grey cloth: cloth/strong seeds 2 and 3)
MIN_CONTRAST, MARGIN_CORE = 0.15, 0.85
#: whiteness: brightness against the paper, from this floor up to this top, and the chroma
#: (largest channel difference over the brightness) above which a pixel is no paper
WHITE_FLOOR, WHITE_TOP, MAX_CHROMA = 0.35, 0.85, 0.35
#: the brightness step across an outline is measured over this share of the side on each side
#: of it (wider than the camera's blur, narrower than a weight or a printed line)
STEP_WIDTH = 0.04
#: a square whose centre is nearer a marker's excluded paper than this share of the card's
#: side is not the card
MARKER_OVERLAP = 0.25
#: how much the outline's steps count against the whiteness (both are shares of white)
OUTLINE_WEIGHT = 1.0


def paper_gains(mat: Mat) -> np.ndarray:
    """Per-channel gains that make the markers' paper white (255)."""
    image = mat.image
    h, w = image.shape[:2]
    whites = []
    size = mat.layout.size_mm * MAT_PX_PER_MM
    for cx, cy in mat.layout.centres_mm:
        x, y = mat.to_px(cx, cy)
        outer, inner = QUIET_ZONE[1] * size, QUIET_ZONE[0] * size
        xa, xb = max(0, int(x - outer)), min(w, int(x + outer))
        ya, yb = max(0, int(y - outer)), min(h, int(y + outer))
        if xb <= xa or yb <= ya:
            continue
        patch = image[ya:yb, xa:xb].reshape(-1, 3).astype(np.float32)
        gy, gx = np.mgrid[ya:yb, xa:xb]
        ring = (np.maximum(np.abs(gx - x), np.abs(gy - y)) >= inner).ravel()
        pix = patch[ring]
        if len(pix) < 20:
            continue
        bright = pix.sum(axis=1)
        top = pix[bright >= np.quantile(bright, 1 - PAPER_TOP)]
        whites.append(np.median(top, axis=0))
    if not whites:
        return np.ones(3, np.float32)
    white = np.median(np.array(whites), axis=0)
    gains: np.ndarray = (255.0 / np.maximum(white, 20.0)).astype(np.float32)
    return gains


def brightness(image: np.ndarray) -> np.ndarray:
    """The mean of the three channels (float32; OpenCV's per-pixel transform, far faster than
    a numpy mean over the last axis)."""
    out: np.ndarray = cv2.transform(image.astype(np.float32),
                                    np.full((1, 3), 1.0 / 3.0, np.float32))
    return out


def chroma(image: np.ndarray) -> np.ndarray:
    """How coloured each pixel is: its largest channel difference over its brightness (0 for
    grey or white, whatever the light)."""
    return in_bands(_chroma_at_once, image)


def _chroma_at_once(image: np.ndarray) -> np.ndarray:
    """:func:`chroma` of all of ``image`` in one go."""
    # on 8-bit pixels the channels' spread is exact without a float copy of the image
    b, g, r = cv2.split(image if image.dtype == np.uint8 else image.astype(np.float32))
    spread = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    out: np.ndarray = spread.astype(np.float32) / np.maximum(brightness(image), 1.0)
    return out


def whiteness(image: np.ndarray) -> np.ndarray:
    """0 (not paper) .. 1 (paper): bright against the paper, and without colour."""
    return in_bands(_whiteness_at_once, image)


def _whiteness_at_once(image: np.ndarray) -> np.ndarray:
    """:func:`whiteness` of all of ``image`` in one go."""
    level = np.clip((brightness(image) / 255.0 - WHITE_FLOOR) / (WHITE_TOP - WHITE_FLOOR), 0, 1)
    out: np.ndarray = level * np.clip(1.0 - _chroma_at_once(image) / MAX_CHROMA, 0, 1)
    return out


#: a per-pixel measure of an image larger than this many pixels is made a band of rows at a
#: time: a band's planes and temporaries stay in the processor's cache (the chroma of the
#: card and its reach, 520 x 520 pixels, took 6.5 ms at once and 1.4 ms by bands)
BAND_PIXELS = 1 << 14


def in_bands(measure: Callable[[np.ndarray], np.ndarray], image: np.ndarray) -> np.ndarray:
    """``measure`` (one float32 value a pixel, each from the pixel alone) of the image
    ``image`` (rows, columns, channels), made a band of :data:`BAND_PIXELS` at a time: the
    same values as over the whole image at once."""
    h, w = image.shape[:2]
    if h * w <= BAND_PIXELS:
        return measure(image)
    out = np.empty((h, w), np.float32)
    rows = max(1, BAND_PIXELS // w)
    for r0 in range(0, h, rows):
        out[r0:r0 + rows] = measure(image[r0:r0 + rows])
    return out


def outline_steps(bright: np.ndarray, side: int) -> np.ndarray:
    """Per pixel, for an upright square of ``side`` centred there: the mean brightness step
    from outside to inside across its four sides (each side clipped at 0, so a side in a
    shadow adds nothing rather than cancelling the others)."""
    d = max(1, int(round(STEP_WIDTH * side)))
    half = side // 2
    steps = np.zeros_like(bright)
    for axis in (1, 0):  # left/right sides, then top/bottom
        kernel = (d, 1) if axis == 1 else (1, d)
        near = cv2.blur(bright, kernel, borderType=cv2.BORDER_REPLICATE)
        diff = rolled_difference(near, -(d + 1) // 2, d // 2 + 1, axis)
        along = (1, side) if axis == 1 else (side, 1)
        rise = cv2.blur(diff.astype(np.float32, copy=False), along,
                        borderType=cv2.BORDER_CONSTANT)
        # clipped, then added rolled (a pixel's own clip, and the same sums in the same
        # order as adding the clipped rolled copies); the falls clipped at 0 are taken off
        # as the rises' negatives, clipped, are added (x - y is x + (-y) in floating point)
        add_rolled(steps, np.maximum(rise, 0), half, axis)
        add_rolled(steps, np.minimum(rise, 0, out=rise), -half, axis, sign=-1)
    out: np.ndarray = steps / 4
    return out


def add_rolled(total: np.ndarray, image: np.ndarray, shift: int, axis: int, *,
               sign: int = 1) -> None:
    """``total += np.roll(image, shift, axis)`` of 2-D images, in place and without the
    rolled copy (``sign`` -1: ``total -= ...``)."""
    n = image.shape[axis]
    shift %= n
    add = np.add if sign > 0 else np.subtract
    if axis == 0:
        add(total[shift:], image[:n - shift], out=total[shift:])
        if shift:
            add(total[:shift], image[n - shift:], out=total[:shift])
    else:
        add(total[:, shift:], image[:, :n - shift], out=total[:, shift:])
        if shift:
            add(total[:, :shift], image[:, n - shift:], out=total[:, :shift])


def rolled_difference(image: np.ndarray, first: int, second: int, axis: int) -> np.ndarray:
    """``rolled(image, first, axis) - rolled(image, second, axis)`` of a 2-D image, made
    slice by slice without the two rolled copies (the same differences, pixel by pixel)."""
    n = image.shape[axis]
    first, second = first % n, second % n
    out = np.empty_like(image)
    # the output's runs over which both rolls read one contiguous run of the image
    cuts = sorted({0, first, second, n})
    for a, b in zip(cuts, cuts[1:], strict=False):
        if a == b:
            continue
        fa, sa = (a - first) % n, (a - second) % n
        if axis == 0:
            np.subtract(image[fa:fa + b - a], image[sa:sa + b - a], out=out[a:b])
        else:
            np.subtract(image[:, fa:fa + b - a], image[:, sa:sa + b - a], out=out[:, a:b])
    return out


def rolled(image: np.ndarray, shift: int, axis: int) -> np.ndarray:
    """``np.roll(image, shift, axis)`` of a 2-D image, by two slice copies: the same
    pixels without numpy's general machinery (np.roll was a quarter of the outline search)."""
    n = image.shape[axis]
    shift %= n
    if shift == 0:
        return image.copy()
    out = np.empty_like(image)
    if axis == 0:
        out[shift:], out[:shift] = image[:n - shift], image[n - shift:]
    else:
        out[:, shift:], out[:, :shift] = image[:, :n - shift], image[:, n - shift:]
    return out


#: the turned search's remap maps kept between frames: the mat is straightened to the same
#: size every frame and the card lies where it lay, so the coarse search's 30 turns and the
#: fine search's few near the card's turn come back (about 0.2 MB a turn; the maps were a
#: third of each turn's warp)
TURN_MAPS_KEPT = 48


@lru_cache(maxsize=TURN_MAPS_KEPT)
def turn_maps(w: int, h: int, turn: float) -> tuple[np.ndarray, np.ndarray]:
    """The fixed-point remap maps that turn a ``w`` x ``h`` image by ``turn`` degrees about
    its centre: those :func:`vision.warp.warp_affine` builds for the same turn, so the
    turned pixels are the same to the bit."""
    m = cv2.getRotationMatrix2D((w / 2, h / 2), turn, 1.0)
    full = np.vstack([np.asarray(m, np.float64).reshape(2, 3), [0.0, 0.0, 1.0]])
    m1, m2 = cv2.convertMaps(*perspective_maps(full, (w, h)), cv2.CV_16SC2)
    m1.flags.writeable = m2.flags.writeable = False  # shared between calls
    return m1, m2


#: a find: (score, x, y, turn, whiteness contrast)
Find = tuple[float, float, float, float, float]


def allowed_bounds(allowed: np.ndarray) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1): the box of the ``allowed`` centres (None when none is); the same
    for every turn, so found once a search (it was a tenth of the card finder's time when
    made again for each turn)."""
    rows, cols = np.flatnonzero(allowed.any(axis=1)), np.flatnonzero(allowed.any(axis=0))
    if not len(rows):
        return None
    return int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1


def scored_box(bounds: tuple[int, int, int, int] | None, size: tuple[int, int], turn: float
               ) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1): the box of a ``size`` (width, height) image turned by ``turn``
    degrees about its centre that holds every allowed centre, ``bounds`` their box
    (:func:`allowed_bounds`; the whole image when None)."""
    w, h = size
    if bounds is None:
        return 0, 0, w, h
    bx0, by0, bx1, by1 = bounds
    m = cv2.getRotationMatrix2D((w / 2, h / 2), turn, 1.0)
    corners = np.array([[bx0, by0, 1.0], [bx1, by0, 1.0], [bx0, by1, 1.0], [bx1, by1, 1.0]])
    turned = corners @ np.asarray(m, np.float64).T
    # one pixel more each way for the bilinear warp's reach
    x0, y0 = np.floor(turned.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(turned.max(axis=0)).astype(int) + 1
    return max(0, int(x0)), max(0, int(y0)), min(w, int(x1)), min(h, int(y1))


def grown(box: tuple[int, int, int, int], by: int, w: int, h: int
          ) -> tuple[int, int, int, int]:
    """``box`` (x0, y0, x1, y1) grown by ``by`` pixels each way, within a ``w`` x ``h``
    image."""
    x0, y0, x1, y1 = box
    return max(0, x0 - by), max(0, y0 - by), min(w, x1 + by), min(h, y1 + by)


def measured_at(measure: Callable[[np.ndarray], np.ndarray], image: np.ndarray,
                region: tuple[int, int, int, int], reach: int) -> np.ndarray:
    """``measure`` of ``image`` in ``region`` (x0, y0, x1, y1), made on the part within
    ``reach`` pixels of it: a measure that reads no farther than ``reach`` from a pixel gives
    there what it gives on the whole image, and the rest of the image is never read."""
    h, w = image.shape[:2]
    x0, y0, x1, y1 = region
    ax, ay, _, _ = part = grown(region, reach, w, h)
    out: np.ndarray = measure(image[part[1]:part[3], part[0]:part[2]])
    return out[y0 - ay:y1 - ay, x0 - ax:x1 - ax]


def box_mean(size: int) -> Callable[[np.ndarray], np.ndarray]:
    """The mean over the ``size`` x ``size`` square round each pixel (0 outside)."""
    def mean(image: np.ndarray) -> np.ndarray:
        out: np.ndarray = cv2.boxFilter(image, -1, (size, size), borderType=cv2.BORDER_CONSTANT)
        return out
    return mean


def _best_square(white: np.ndarray, bright: np.ndarray, side: float,
                 turns: tuple[float, ...], allowed: np.ndarray) -> Find:
    """(score, x, y, turn, whiteness contrast): the square of ``side`` px whose margin is
    whitest against the band around it and whose outline shows the card's step, its centre
    within ``allowed``."""
    return max(_finds_by_turn(white, bright, side, turns, allowed), key=lambda f: f[0])


def _finds_by_turn(white: np.ndarray, bright: np.ndarray, side: float,
                   turns: tuple[float, ...], allowed: np.ndarray) -> list[Find]:
    """Per turn of ``turns``, in their order: the best square of :func:`_best_square` at
    that turn."""
    s_in = max(3, int(round(side)))
    s_out = max(s_in + 2, int(round(side * (1 + 2 * BAND))))
    s_core = min(s_in - 2, int(round(side * MARGIN_CORE)))
    pad, allowed = beyond_view(allowed, s_in, s_out)
    h, w = white.shape[0] + 2 * pad, white.shape[1] + 2 * pad
    centre = (w / 2, h / 2)
    finds: list[Find] = []
    # one warp for the three layers: the warp's maps cost more than its pixels
    stacked = np.dstack([white, bright, allowed.astype(np.float32)])
    if pad:
        stacked = np.dstack([cv2.copyMakeBorder(stacked[..., :2], pad, pad, pad, pad,
                                                cv2.BORDER_REFLECT_101),
                             np.pad(stacked[..., 2], pad)])
    placed = np.pad(allowed, pad) if pad else allowed
    # how far from a centre its score reads: the band's box, the outline's steps less far
    reach = s_out // 2 + 2
    outline = int(round(STEP_WIDTH * s_in)) + s_in // 2 + 3
    bounds = allowed_bounds(placed)
    for turn in turns:
        centres = scored_box(bounds, (w, h), turn)
        # only the part of the turned image the allowed centres' scores read is made
        x0, y0, x1, y1 = part = grown(centres, reach, w, h)
        m1, m2 = turn_maps(w, h, turn)
        layers = cv2.remap(stacked, m1[y0:y1, x0:x1], m2[y0:y1, x0:x1], cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        turned, lit = np.ascontiguousarray(layers[..., 0]), np.ascontiguousarray(layers[..., 1])
        cx0, cy0, cx1, cy1 = region = (centres[0] - x0, centres[1] - y0,
                                       centres[2] - x0, centres[3] - y0)
        ok = layers[cy0:cy1, cx0:cx1, 2] > 0.5
        inside = measured_at(box_mean(s_in), turned, region, s_in // 2 + 1)
        outer = measured_at(box_mean(s_out), turned, region, s_out // 2 + 1)
        band = (outer * s_out * s_out - inside * s_in * s_in) / (s_out * s_out - s_in * s_in)
        core = measured_at(box_mean(s_core), turned, region, s_core // 2 + 1)
        margin = (inside * s_in * s_in - core * s_core * s_core) / (s_in * s_in - s_core * s_core)
        edges = OUTLINE_WEIGHT * measured_at(lambda lit_part: outline_steps(lit_part, s_in),
                                             lit, region, outline)
        score = np.where(ok, margin - band + edges, -1.0)
        _, top, _, (px, py) = cv2.minMaxLoc(score)
        back = cv2.invertAffineTransform(cv2.getRotationMatrix2D(centre, turn, 1.0))
        x, y = back @ np.array([px + part[0] + region[0] + 0.5 * (s_in % 2 == 0),
                                py + part[1] + region[1] + 0.5 * (s_in % 2 == 0), 1.0])
        finds.append((float(top), float(x) - pad, float(y) - pad, float(turn),
                      float(margin[py, px] - band[py, px])))
    return finds


def beyond_view(allowed: np.ndarray, s_in: int, s_out: int) -> tuple[int, np.ndarray]:
    """How far (pixels) the search's image is widened on each side (by its own mirror image:
    the table beyond the view is taken to be like the table inside it) so that every allowed
    square's band and outline fall on table, and the centres ``allowed`` without those of
    squares of side ``s_in`` reaching out of the view (a card partly out of view is no card
    found). Beyond the view the image was black: a band reaching there was darker than any
    table, its outline stepped up from nothing, and a square of a blue checked cloth at the
    mat's edge scored over the card itself (independent scenes, fragment mild seed 5: 0.714
    against the card's 0.664). 0 when no allowed square reaches out (the fine search, cut
    round its find): the image is searched as it is."""
    h, w = allowed.shape
    half = s_in // 2
    within = np.zeros_like(allowed)
    within[half:h - half, half:w - half] = allowed[half:h - half, half:w - half]
    rows, cols = np.nonzero(within)
    if rows.size == 0:
        return 0, within
    reach = s_out // 2 + max(1, int(round(STEP_WIDTH * s_in))) + 2
    nearest = min(int(rows.min()), int(cols.min()), h - 1 - int(rows.max()),
                  w - 1 - int(cols.max()))
    return max(0, reach - nearest), within


def measured_window(shrunk: np.ndarray, rows: slice, cols: slice,
              left_out: list[tuple[float, float, float]]) -> tuple[np.ndarray, np.ndarray]:
    """The whiteness and the brightness (0..1) of ``shrunk[rows, cols]``, the whiteness 0
    in the squares ``left_out`` (x, y, half side, pixels of ``shrunk``): the values the whole
    image's measures, zeroed there and then cut, give (each is a pixel's own), measured only
    on the part the search looks at."""
    h, w = shrunk.shape[:2]
    y0, y1, _ = rows.indices(h)
    x0, x1, _ = cols.indices(w)
    part = shrunk[y0:y1, x0:x1]
    small, lit = whiteness(part), brightness(part) / 255.0
    for ex, ey, eh in left_out:
        # the square's rows and columns as a slice of the whole image takes them
        ya, yb, _ = slice(max(0, int(ey - eh)), int(ey + eh)).indices(h)
        xa, xb, _ = slice(max(0, int(ex - eh)), int(ex + eh)).indices(w)
        ya, yb, xa, xb = max(ya, y0), min(yb, y1), max(xa, x0), min(xb, x1)
        if ya < yb and xa < xb:
            small[ya - y0:yb - y0, xa - x0:xb - x0] = 0
    return small, lit


def _search_left_part(shrunk: np.ndarray, card_mm: float, scale: float,
                      left_out: list[tuple[float, float, float]], turns: tuple[float, ...],
                      near: tuple[float, float, float] | None = None,
                      away: tuple[tuple[float, float, float], ...] = ()) -> list[Find]:
    """:func:`_finds_by_turn` over the mat's left part (``shrunk`` at ``scale`` px a mm, the
    markers' squares ``left_out``); ``near`` (x, y, reach in its pixels): the centres are
    also held within reach of it, where that leaves any; ``away`` (x, y, reach): no centre
    within reach of these (their squares are still measured, as the table they are)."""
    # the card lies in the left part: the right is cut off beyond its band
    part = int(shrunk.shape[1] * CARD_PART)
    cut = int(part + card_mm * scale * (0.5 + 2 * BAND) + 4)
    small, lit = measured_window(shrunk, slice(None), slice(None, cut), left_out)
    allowed = np.zeros(small.shape, bool)
    allowed[:, :part] = True
    # the card lies beside the markers, not over one: a square reaching far over a
    # marker's paper scores on the paper's own outline (cloth/strong seeds 2 and 3)
    reach = card_mm * scale * MARKER_OVERLAP
    for ex, ey, eh in left_out:
        eh += reach
        allowed[max(0, int(ey - eh)):max(0, int(ey + eh)),
                max(0, int(ex - eh)):max(0, int(ex + eh))] = False
    for ax, ay, r in away:
        allowed[max(0, int(ay - r)):max(0, int(ay + r) + 1),
                max(0, int(ax - r)):max(0, int(ax + r) + 1)] = False
    if near is not None:
        nx, ny, r = near
        window = np.zeros_like(allowed)
        window[max(0, int(ny - r)):int(ny + r) + 1, max(0, int(nx - r)):int(nx + r) + 1] = True
        if (allowed & window).any():
            allowed &= window
    return _finds_by_turn(small, lit, card_mm * scale, turns, allowed)


def _turns_near(turn: float, turns: tuple[float, ...], within: float) -> tuple[float, ...]:
    """The ``turns`` (in their order) within ``within`` degrees of ``turn``, a square's turn
    being the same a quarter turn on (-45 is next to 42)."""
    return tuple(t for t in turns if abs((t - turn + 45.0) % 90.0 - 45.0) <= within)


def _shrunk(balanced: np.ndarray, scale: float) -> np.ndarray:
    """The balanced mat at ``scale`` px a mm (the measures cost more on the whole mat than
    the search)."""
    h, w = balanced.shape[:2]
    k = scale / MAT_PX_PER_MM
    out: np.ndarray = cv2.resize(balanced, (int(w * k), int(h * k)),
                                 interpolation=cv2.INTER_AREA)
    return out


#: the places at half a pixel a mm made again at 1 px a mm: the best, and each other turn's
#: best scoring within PLACE_RIVAL_SCORE of it and lying PLACE_RIVAL_APART_MM from those
#: kept, up to PLACE_RIVALS in all. At half a pixel a mm a card's paper margin is two pixels
#: wide: a conduit card's pieces cover its middle, and on a light grey or white table a
#: square of table beside the card scored above the card there (independent puzzle scenes
#: conduit moderate seed 11 on painted wood: 0.459 against the card's 0.416) and below it
#: at 1 px a mm (0.473), and the card was looked for where it was not
PLACE_RIVAL_SCORE, PLACE_RIVAL_APART_MM, PLACE_RIVALS = 0.1, 2 * PLACE_REACH_MM, 3


def _rival_places(finds: list[Find], scale: float) -> list[Find]:
    """The finds worth making again at a finer scale (:data:`PLACE_RIVAL_SCORE`), the best
    first; ``scale``: their pixels a mm."""
    ranked = sorted(finds, key=lambda f: -f[0])
    kept = ranked[:1]
    for find in ranked[1:]:
        if len(kept) == PLACE_RIVALS or find[0] < kept[0][0] - PLACE_RIVAL_SCORE:
            break
        if all(math.dist(find[1:3], other[1:3]) > PLACE_RIVAL_APART_MM * scale
               for other in kept):
            kept.append(find)
    return kept


def triangle_contrasts(balanced: np.ndarray, corners: np.ndarray) -> list[float | None]:
    """Per corner of a card's square (mat pixels): how much brighter the paper just past the
    orientation triangle's edge is than the inside of the triangle, a quarter of its legs
    from the corner (None off the image). The card's triangle corner shows about 4, its other
    corners and a square of table 1 to 1.35 (independent puzzle scenes conduit moderate
    seeds 6 and 11)."""
    centre = corners.mean(axis=0)
    out: list[float | None] = []
    for corner in corners:
        inner = _patch_brightness(balanced, corner + (centre - corner) * MARK * 0.5)
        outer = _patch_brightness(balanced, corner + (centre - corner) * MARK * 1.5)
        out.append(None if inner is None or outer is None else outer / max(inner, 1.0))
    return out


def _patch_brightness(image: np.ndarray, at: np.ndarray) -> float | None:
    """The median brightness of the 5 x 5 pixels round ``at``; None off the image."""
    x, y = int(round(at[0])), int(round(at[1]))
    patch = image[max(0, y - 2):y + 3, max(0, x - 2):x + 3].reshape(-1, 3)
    if len(patch) == 0:
        return None
    return float(np.median(patch.astype(np.float32).mean(axis=1)))


#: a square one of whose corners shows this much :func:`triangle_contrasts` shows the card's
#: orientation triangle (the card about 4, table and the card's other corners up to 1.35)
TRIANGLE_SEEN = 2.0


def _shows_triangle(balanced: np.ndarray, find: Find, side: float) -> bool:
    """Whether the square of ``find`` (mat pixels, ``side`` px) shows the card's triangle."""
    corners = CardRect((find[1], find[2]), side, find[3]).corners()
    return any(c is not None and c >= TRIANGLE_SEEN for c in triangle_contrasts(balanced,
                                                                               corners))


#: a place whose square shows no card's triangle is looked past: the search is made again with
#: no centre within this share of the card's side of it, up to this many places in turn
ELSEWHERE_APART, ELSEWHERE_TRIES = 0.5, 4


@dataclass(frozen=True)
class _Scales:
    """The mat shrunk for the place search (PLACE_PX_PER_MM) and the coarse search
    (COARSE_PX_PER_MM), with the markers' squares left out in each one's pixels."""

    placing: np.ndarray
    placing_out: list[tuple[float, float, float]]
    coarse: np.ndarray
    coarse_out: list[tuple[float, float, float]]

    @classmethod
    def of(cls, balanced: np.ndarray, exclude: tuple[tuple[float, float, float], ...]
           ) -> _Scales:
        kp, kc = PLACE_PX_PER_MM / MAT_PX_PER_MM, COARSE_PX_PER_MM / MAT_PX_PER_MM
        return cls(_shrunk(balanced, PLACE_PX_PER_MM),
                   [(ex * kp, ey * kp, eh * kp) for ex, ey, eh in exclude],
                   _shrunk(balanced, COARSE_PX_PER_MM),
                   [(ex * kc, ey * kc, eh * kc) for ex, ey, eh in exclude])

    def refined(self, card_mm: float, place: Find) -> Find:
        """The coarse search's best square near ``place`` (its pixels), in mat pixels."""
        up = COARSE_PX_PER_MM / PLACE_PX_PER_MM
        near = (place[1] * up, place[2] * up, PLACE_REACH_MM * COARSE_PX_PER_MM)
        f = max(_search_left_part(self.coarse, card_mm, COARSE_PX_PER_MM, self.coarse_out,
                                  _turns_near(place[3], COARSE_TURNS, PLACE_TURNS_DEG), near),
                key=lambda f: f[0])
        k = COARSE_PX_PER_MM / MAT_PX_PER_MM
        return (f[0], f[1] / k, f[2] / k, f[3], f[4])


def _card_elsewhere(balanced: np.ndarray, card_mm: float, scales: _Scales,
                    places: list[Find]) -> Find | None:
    """The best square away from ``places`` (PLACE_PX_PER_MM pixels) that shows the card's
    triangle, each place that does not looked past in turn (:data:`ELSEWHERE_TRIES`); None
    when none does."""
    reach = ELSEWHERE_APART * card_mm * PLACE_PX_PER_MM
    away = [(p[1], p[2], reach) for p in places]
    for _ in range(ELSEWHERE_TRIES):
        place = max(_search_left_part(scales.placing, card_mm, PLACE_PX_PER_MM,
                                      scales.placing_out, PLACE_TURNS, away=tuple(away)),
                    key=lambda f: f[0])
        if place[0] < 0:
            return None
        find = scales.refined(card_mm, place)
        if _shows_triangle(balanced, find, card_mm * MAT_PX_PER_MM):
            return find
        away.append((place[1], place[2], reach))
    return None


def _placed_coarse(balanced: np.ndarray, card_mm: float,
                   exclude: tuple[tuple[float, float, float], ...]) -> Find:
    """The coarse search's find (score, x, y in mat px, turn, contrast), made where the same
    search at PLACE_PX_PER_MM over every turn places it (:func:`_rival_places`): at 1 px a
    mm only the turns and centres near those places, the best of them. Where none of them
    shows the card's own print, its triangle (:func:`_shows_triangle`), the best place away
    from them that does (:func:`_card_elsewhere`), if any: the white squares of a checked
    cloth scored above the card with its pieces at every turn (independent puzzle scenes,
    conduit harsh seed 4: 0.40 and 0.34 against the card's 0.33), and the card was no rival
    place at all. The card's cut edges do not tell it here: a square lying along a cloth's
    checks shows their sharp steps on its four sides (fragment moderate seed 5)."""
    scales = _Scales.of(balanced, exclude)
    placed = _search_left_part(scales.placing, card_mm, PLACE_PX_PER_MM, scales.placing_out,
                               PLACE_TURNS)
    places = _rival_places(placed, PLACE_PX_PER_MM)
    finds = [scales.refined(card_mm, place) for place in places]
    side = card_mm * MAT_PX_PER_MM
    if len(finds) > 1:
        # the score alone tied a square of glare on a checked cloth with the card (conduit
        # moderate seed 6: 0.671 against 0.670): the card's triangle tells them apart
        marked = [f for f in finds if _shows_triangle(balanced, f, side)]
        finds = marked or finds
    if not any(_shows_triangle(balanced, f, side) for f in finds):
        elsewhere = _card_elsewhere(balanced, card_mm, scales, places)
        if elsewhere is not None:
            return elsewhere
    return max(finds, key=lambda f: f[0])


def find_card_square(balanced: np.ndarray, card_mm: float, *,
                     exclude: tuple[tuple[float, float, float], ...] = (),
                     pale_table: bool = True) -> CardRect:
    """The card in the balanced mat image (paper white): the whitest square of its side in
    the left part of the mat. ``exclude``: squares (x, y, half side, px) left out (markers).
    Where no square stands out as white, the card is looked for as on a table as pale as
    it (:func:`card_on_pale_table`) unless ``pale_table`` is False."""
    found = _placed_coarse(balanced, card_mm, exclude)
    # the fine search looks only near the coarse find: the image is cut around it
    scale = FINE_PX_PER_MM
    k = scale / MAT_PX_PER_MM
    shrunk = _shrunk(balanced, scale)
    left_out = [(ex * k, ey * k, eh * k) for ex, ey, eh in exclude]
    cx, cy = found[1] * k, found[2] * k
    reach = 3 * MAT_PX_PER_MM * k / COARSE_PX_PER_MM * 2
    keep = reach + card_mm * scale * (0.5 + 2 * BAND) + 4
    x0, y0 = max(0, int(cx - keep)), max(0, int(cy - keep))
    small, lit = measured_window(shrunk, slice(y0, int(cy + keep)), slice(x0, int(cx + keep)),
                           left_out)
    allowed = np.zeros(small.shape, bool)
    allowed[max(0, int(cy - reach) - y0):int(cy + reach) + 1 - y0,
            max(0, int(cx - reach) - x0):int(cx + reach) + 1 - x0] = True
    turns = tuple(found[3] + t for t in FINE_TURNS)
    _, x, y, turn, contrast = _best_square(small, lit, card_mm * scale, turns, allowed)
    if contrast < MIN_CONTRAST:
        if pale_table:
            return card_on_pale_table(balanced, card_mm, exclude)
        raise FrameRefusedError("no puzzle card on the mat (nothing there is as white as the "
                                "markers' paper)", reason="no-card")
    # the image turned counter-clockwise by ``turn`` made the card upright: the card is
    # turned that much clockwise
    return CardRect(((x + x0) / k, (y + y0) / k), card_mm * MAT_PX_PER_MM, turn)


#: the table's level is the median brightness of the mat's left part (the card is a tenth of
#: it), the paper's this quantile of it (the card's bare margin, or a glare as bright)
PALE_PAPER_QUANTILE = 0.98
#: the card's cut edge is sharp: across it, this many mat pixels in and out (0.75 mm, the
#: camera's blur), its paper stands at least EDGE_LEAST_STEP (share of full brightness) above
#: the table, along EDGE_SEEN_SHARE of its sides' middle eight tenths on average. A broad
#: glare washed the card's triangle (contrast 1.1-1.35) but not its edges: cards found on the
#: stretched mat showed 0.67-0.93 of their sides so (conduit broad cloth/strong seeds 0, 6,
#: 8; fragment broad wood/strong 1, 4; independent conduit mild 7), a square of table beside
#: them 0.13 at most; a lamp's patch with soft edges shows none
EDGE_REACH_PX, EDGE_LEAST_STEP, EDGE_SEEN_SHARE = 3, 0.04, 0.6


def shows_cut_edges(balanced: np.ndarray, rect: CardRect) -> bool:
    """Whether the square ``rect`` (mat pixels) shows the card's sharp cut edge along its
    sides: the paper just inside a step above the table just outside
    (:data:`EDGE_SEEN_SHARE`)."""
    grey = brightness(balanced) / 255.0
    corners = rect.corners()
    centre = corners.mean(axis=0)
    along = np.linspace(0.1, 0.9, 41)[:, None]
    shares = []
    for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True):
        points = a + (b - a) * along
        out = (a + b) / 2 - centre
        out *= EDGE_REACH_PX / max(float(np.hypot(*out)), 1e-6)
        shares.append(float(np.mean(_grey_at(grey, points - out) - _grey_at(grey, points + out)
                                    >= EDGE_LEAST_STEP)))
    return float(np.mean(shares)) >= EDGE_SEEN_SHARE


def _grey_at(grey: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The values of ``grey`` at the pixels nearest ``points`` (x, y rows), kept in it."""
    h, w = grey.shape
    x = np.clip(np.round(points[:, 0]).astype(int), 0, w - 1)
    y = np.clip(np.round(points[:, 1]).astype(int), 0, h - 1)
    seen: np.ndarray = grey[y, x]
    return seen


#: a table whose level is this share of the paper's or more is as pale as the card: a card
#: not found on it is no card the player forgot, and a darker table shows it
PALE_TABLE_SHARE = 0.85
#: a card on a table as pale as it is told only where its paper stands this much (share of
#: full brightness) above the table's level: below it the stretch reads the noise
PALE_LEAST_STEP = 0.02


def card_on_pale_table(balanced: np.ndarray, card_mm: float,
                       exclude: tuple[tuple[float, float, float], ...]) -> CardRect:
    """The card on a table nearly as white as its paper (white paint, a broad glare over the
    table round the card): the card's paper is still a little brighter than the table, and
    its printed orientation triangle is dark. The search of :func:`find_card_square` is made
    on the mat's brightness stretched so that the table's level reads as no paper and the
    paper's as white (the colour dropped: the whiteness of both was one cream), and the
    square it finds is the card only where one of its corners shows the card's triangle
    (:data:`TRIANGLE_SEEN`) or its sides show the card's cut edges (:func:`shows_cut_edges`),
    which a square of pale table or a lamp's patch lacks. On a white painted table
    the card's margin stood 0.05-0.09 above the table and its whiteness 0.03 (independent
    puzzle scenes, conduit mild seed 7: 'no puzzle card on the mat')."""
    grey = brightness(balanced) / 255.0
    left = grey[:, :int(grey.shape[1] * CARD_PART)]
    table = float(np.median(left))
    paper = float(np.quantile(left, PALE_PAPER_QUANTILE))
    if paper - table >= PALE_LEAST_STEP:
        level = WHITE_FLOOR + (grey - table) / (paper - table) * (WHITE_TOP - WHITE_FLOOR)
        stretched = cv2.cvtColor(np.clip(level * 255.0, 0, 255).astype(np.float32),
                                 cv2.COLOR_GRAY2BGR)
        try:
            found = find_card_square(stretched, card_mm, exclude=exclude, pale_table=False)
        except FrameRefusedError:
            found = None
        if found is not None and (shows_cut_edges(balanced, found) or any(
                c is not None and c >= TRIANGLE_SEEN
                for c in triangle_contrasts(balanced, found.corners()))):
            return found
    if table >= PALE_TABLE_SHARE * paper:
        raise FrameRefusedError("no puzzle card found: the table looks nearly as white as "
                                "the card's paper (white paint, or a lamp washing it)",
                                reason="pale-table")
    raise FrameRefusedError("no puzzle card on the mat (nothing there is as white as the "
                            "markers' paper)", reason="no-card")


__all__ = ["BAND_PIXELS", "TRIANGLE_SEEN", "add_rolled", "brightness", "card_on_pale_table",
           "chroma", "find_card_square", "in_bands", "outline_steps", "paper_gains", "rolled",
           "rolled_difference", "shows_cut_edges", "triangle_contrasts", "whiteness"]
