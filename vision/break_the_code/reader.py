"""Read Break the Code tiles from a camera frame of the code mat.

Stages (each a small function of the frame or of the previous result):

1. :func:`find_mat`: the four mat markers give a checked homography (refused frames raise
   :class:`~vision.errors.FrameRefusedError`, exit 4); :func:`panel_picture_factor` then
   checks the picture of the mat's panel as the sensor gave it (``vision.picture``: burnt
   out, too dark, flat, noisy, blurred frames are refused; colour is not required, since a
   rack may hold no green tile) and every confidence is scaled by its quality;
2. :func:`panel_background`: the panel's grey as the camera sees it, everywhere, estimated from
   the lanes between the slots only (never from the tiles), so light gradients, colour casts
   and soft shadows divide out;
3. :func:`find_tiles`: whatever differs from that grey and has a tile's size and shape is a
   tile; it is given to the nearest slot and cut out upright at :data:`NORM_SIZE` straight
   from the frame;
4. :func:`classify_tile`: the body colour (relative to the local grey) is matched to the pack's
   black, white and green; the digit by template matching of ink maps against the pack's tiles.

:func:`read_code` returns ``(Code, confidence)`` and checks the box counts (an impossible code
is refused) and the rack order (out of order lowers the confidence). For a secret code the
image is never stored or logged and messages name slots, never tiles: the caller puts the
code into the engine and shows only :func:`stored_message`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.break_the_code.tiles import BOX, Code, Colour, Tile
from vision.break_the_code.features import NORM_SIZE, body_colour, grey_of, ink_map
from vision.break_the_code.mat import (
    MAT_LAYOUT,
    PANEL_GREY,
    PANEL_MM,
    PITCH_MM,
    SLOTS,
    nearest_slot,
)
from vision.break_the_code.pack import CodePack, demo_pack
from vision.break_the_code.settings import DEFAULT_SETTINGS, CodeReaderSettings
from vision.errors import FrameRefusedError
from vision.markers import PlaneFit, locate
from vision.picture import check_picture, confidence_factor, measure_picture, region_mask

#: the part of the panel that is looked at (a little inside its printed edge)
_INSET_MM = 1.5
VIEW_MM = (PANEL_MM[0] + _INSET_MM, PANEL_MM[1] + _INSET_MM,
           PANEL_MM[2] - 2 * _INSET_MM, PANEL_MM[3] - 2 * _INSET_MM)

#: the confidence of a reading with a problem (below any sensible accept threshold)
DOUBT = 0.4

# -- panel background (worked at 1 px per mm, so lengths in pixels are millimetres)
#: half the width of a lane sampled between slots, mm
LANE_HALF_MM = 1.0
#: smoothing (Gaussian sigma, mm) of the first estimate from the lanes, of the estimate from
#: the lanes without tiles and hands, and of the fine estimate from all the bare panel
FIRST_SIGMA_MM = 12.0
COARSE_SIGMA_MM = 10.0
FINE_SIGMA_MM = 6.0
#: a difference this many times the foreground threshold is surely not panel, whatever size
SURE_FOREGROUND = 1.5
#: what is not panel is kept out of the fine estimate with this margin around it (mm, odd)
KEEP_OUT_MM = 9
#: the weight (as a share of a neighbourhood all of bare panel) the lane estimate keeps in
#: the fine one: where tiles crowd together, little bare panel is near, and the grey of the
#: nearest bare panel, far off under other light, must not outweigh the lanes' estimate
FINE_PRIOR = 0.05
#: the smooth light fitted to the lanes first: a polynomial of this degree in x and y, fitted
#: this many rounds, each to the lane pixels whose grey lies within this band of the last
#: fit's and of its colour (shadows and the light's fall-off stay in; a black, a white, a
#: green or a wooden tile goes)
LIGHT_DEGREE = 2
LIGHT_ROUNDS = 3
LIGHT_BAND = (0.55, 1.3)
LIGHT_TINT = 0.12
#: a camera channel saturates here
CLIPPED = 255
#: where the panel is this bright or brighter (percentile of its worst places), a tile of
#: every pack colour must still stand out surely (:data:`SURE_FOREGROUND` times the
#: foreground threshold); in a clean frame a demo white tile stands out by 144 everywhere,
#: and overexposed frames that lost a white tile had 24 or less
HEADROOM_PERCENTILE = 1.0
#: the tile area assumed when the pack's is not given (the demo tile, mm x mm)
DEMO_TILE_AREA_MM2 = 28.0 * 38.0

# -- tile finding
#: radius (mm) of the opening and closing that clean the foreground: specks and thin lines
#: go, digit strokes inside a tile are filled
CLEAN_RADIUS_MM = 0.8
#: closings applied to the foreground (the opening is applied once)
CLOSE_ITERATIONS = 2
#: radius (mm) of a second opening of the foreground that takes off whatever is narrower
#: than twice this and sticks out of a tile or joins two: a strip of panel along the view's
#: edge whose grey is guessed from farther in, the shadow between two tiles laid close, a
#: glint. Such a bridge made two tiles one piece, and a bump made a tile's outline a
#: rectangle turned or grown past the tile, so its cut-out missed part of the digit. Every
#: tile is far wider than twice this, and its straight sides, which give its outline, stay.
BRIDGE_RADIUS_MM = 5.0
#: a piece is tile-shaped when its width/height ratio is within these shares of the pack's
SHAPE_RATIO = (0.7, 1.3)
#: a piece too large for one tile is split again where the difference is this many times the
#: foreground threshold (a shadow edge bridging two tiles is much weaker than a tile)
SPLIT_FOREGROUND = 2.4
#: a tile seen more than this many times wider than the normalised image is shrunk with
#: area averaging (no aliasing); nearer sizes are interpolated
SHRINK_RATIO = 1.3

# -- classification (confidence ramps: 0 at the floor, 1 at floor + span)
#: digit margin over the rival digit. Any digit may pass for another under a pack drawn
#: from other tiles (a 6 without its bar for a 4, a 9 for a 0 or a 7, 0 and 8), and such a
#: wrong digit can win its duel clearly: read with the demo pack, the ivory tiles' wrong
#: digits win by margins up to 0.30 (every camera effect, mild poor-camera conditions), while
#: the pack's own tiles win by 0.65 and more (1st percentile). So a digit is sure
#: (confidence 0.5) only from a margin of 0.40, beyond what the other style reached; the
#: walnut style checks this rule and is never tuned on.
DIGIT_MARGIN_FLOOR, DIGIT_MARGIN_SPAN = 0.31, 0.18
#: correlation of the ink map with the best template
DIGIT_SCORE_FLOOR, DIGIT_SCORE_SPAN = 0.3, 0.3
#: how well a tile fits the pack: the pack's own tiles, drawn or taught from one photo, match
#: their templates at 0.89 and more under every camera effect; tiles of another look match
#: from about 0.55 to 0.83, and a look-alike digit of theirs (a 6 for a 4, a 9 for a 7) can
#: then win its duel clearly. Below the floor a tile does not look like the pack's and is
#: never sure, whatever its margin; a rack whose median tile is below it was not taught.
PACK_FIT_FLOOR, PACK_FIT_SPAN = 0.84, 0.05
#: relative margin of the body colour over the second-nearest pack colour
COLOUR_MARGIN_FLOOR, COLOUR_MARGIN_SPAN = 0.1, 0.3
#: a tile turned a half matches some template better by more than this: it is upside down
UPSIDE_DOWN_GAIN = 0.08
#: smoothing (pixels of the normalised tile) of where two templates differ, for the duel
DUEL_SIGMA = 1.5


@dataclass(frozen=True)
class TileRead:
    """One tile read from the frame (its repr leaves the tile out: it may be secret)."""

    slot: int
    tile: Tile
    confidence: float
    digit_score: float
    digit_margin: float
    colour_margin: float
    centre_mm: tuple[float, float]
    upside_down: bool = False

    def __repr__(self) -> str:
        return f"TileRead(slot={SLOTS[self.slot].name}, confidence={self.confidence:.2f})"


@dataclass(frozen=True)
class CodeReading:
    """Every tile on the mat in slot order, with the problems found."""

    tiles: tuple[TileRead, ...]
    problems: tuple[str, ...]
    confidence: float

    @property
    def code(self) -> Code:
        return Code.of(t.tile for t in self.tiles)

    @property
    def pack_fit(self) -> float:
        """How well the tiles look like the pack's: the median tile's template match."""
        return float(np.median([t.digit_score for t in self.tiles])) if self.tiles else 0.0

    def looks_unlike_pack(self) -> bool:
        """True when these tiles do not look like the ones the pack was drawn or taught
        from: the players should teach the camera their tiles."""
        return bool(self.tiles) and self.pack_fit < PACK_FIT_FLOOR

    def __repr__(self) -> str:
        return (f"CodeReading({len(self.tiles)} tiles, confidence={self.confidence:.2f}, "
                f"problems={list(self.problems)!r})")


def stored_message(code: Code) -> str:
    """What the screen shows once a secret code is stored."""
    return f"code stored: {len(code)} tiles"


# ---------------------------------------------------------------- stages


def find_mat(image: np.ndarray, *, settings: CodeReaderSettings = DEFAULT_SETTINGS,
             gray: np.ndarray | None = None) -> PlaneFit:
    """The checked homography of the mat (raises FrameRefusedError). ``gray``: the frame's
    grey (``cv2.COLOR_BGR2GRAY``), when the caller made it: the markers are found in it."""
    colour_frame(image)
    return locate(image if gray is None else gray, MAT_LAYOUT, checks=settings.markers)


def colour_frame(image: np.ndarray | None) -> np.ndarray:
    """``image``, when it is a colour camera frame; else FrameRefusedError."""
    if image is None or image.ndim != 3 or image.size == 0:
        raise FrameRefusedError("not a colour camera frame", reason="no-frame")
    return image


def panel_outline(fit: PlaneFit) -> np.ndarray:
    """The mat's panel (where the tiles lie) as a polygon of frame points, (4, 2). The
    picture is measured there, not on the whole sheet: the sheet's white margin burns out
    long before the tiles do."""
    x, y, w, h = PANEL_MM
    corners = np.array([[[x, y], [x + w, y], [x + w, y + h], [x, y + h]]], np.float64)
    outline: np.ndarray = cv2.perspectiveTransform(corners, fit.plane_to_image)[0]
    return outline


def panel_picture_factor(image: np.ndarray, fit: PlaneFit, *,
                         settings: CodeReaderSettings = DEFAULT_SETTINGS,
                         gray: np.ndarray | None = None) -> float:
    """What every confidence of this frame is multiplied by: the quality of the picture of
    the panel (1 comfortable, lower near a limit). A picture past a limit (burnt out, too
    dark, flat, noisy, out of focus) raises FrameRefusedError naming the cause. Colour is
    not required: a rack may hold no green tile, and black and white tiles are told apart by
    their brightness. ``gray``: as :func:`find_mat`'s (not made again)."""
    measures = measure_picture(image, region_mask(image.shape, panel_outline(fit)), gray=gray)
    quality = check_picture(measures, settings.picture, needs_colour=False)
    return confidence_factor(quality)


def view_transform(settings: CodeReaderSettings) -> np.ndarray:
    """Sheet millimetres -> pixels of the top-down view of the panel."""
    p = settings.px_per_mm
    return np.array([[p, 0.0, -VIEW_MM[0] * p], [0.0, p, -VIEW_MM[1] * p], [0.0, 0.0, 1.0]])


def top_view(image: np.ndarray, fit: PlaneFit, *,
             settings: CodeReaderSettings = DEFAULT_SETTINGS) -> np.ndarray:
    """The panel seen straight down at ``settings.px_per_mm``."""
    return fit.warp(image, px_per_mm=settings.px_per_mm, origin_mm=(VIEW_MM[0], VIEW_MM[1]),
                    size_mm=(VIEW_MM[2], VIEW_MM[3]))


def _lane_mask(shape: tuple[int, int], px_per_mm: float) -> np.ndarray:
    """The lanes half-way between slots (and along the panel's edges), 2 mm wide."""
    h, w = shape
    mask = np.zeros((h, w), np.uint8)
    half = max(1, round(LANE_HALF_MM * px_per_mm))
    xs = sorted({s.centre_mm[0] for s in SLOTS})
    ys = sorted({s.centre_mm[1] for s in SLOTS})
    lane_x = [xs[0] - PITCH_MM[0] / 2] + [x + PITCH_MM[0] / 2 for x in xs]
    lane_y = [ys[0] - PITCH_MM[1] / 2] + [y + PITCH_MM[1] / 2 for y in ys]
    for x_mm in lane_x:
        # the lanes along the panel's edges are moved just inside the view
        x = min(w - 1 - half, max(half, round((x_mm - VIEW_MM[0]) * px_per_mm)))
        mask[:, x - half:x + half + 1] = 255
    for y_mm in lane_y:
        y = min(h - 1 - half, max(half, round((y_mm - VIEW_MM[1]) * px_per_mm)))
        mask[y - half:y + half + 1, :] = 255
    return mask


def _fill(small: np.ndarray, weight: np.ndarray, sigma: float, fallback: np.ndarray,
          *, prior: float = 0.0) -> np.ndarray:
    """Normalised convolution: the weighted pixels' colour spread smoothly over the image.
    With a ``prior`` weight, ``fallback`` counts as that much weight everywhere: it wins
    where few weighted pixels are near, instead of the colour of the nearest far ones."""
    num = cv2.GaussianBlur(small * weight[..., None], (0, 0), sigma)
    den = cv2.GaussianBlur(weight, (0, 0), sigma)[..., None]
    if prior > 0:
        blended: np.ndarray = (num + prior * fallback) / (den + prior)
        return blended
    filled: np.ndarray = np.where(den > 1e-4, num / np.maximum(den, 1e-6), fallback)
    return filled


def smooth_light(small: np.ndarray, lanes: np.ndarray) -> np.ndarray:
    """The panel grey over the whole view as a smooth surface (a polynomial of
    :data:`LIGHT_DEGREE` in x and y per channel) fitted to the lane pixels, again and again
    to those near the last fit only. It follows the light's fall-off toward the panel's
    edges, and being fitted to all the lanes at once it is not pulled off by the tiles,
    however many lie over the lanes in one place (a rack along the top edge)."""
    h, w = small.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = xs / max(w - 1, 1) - 0.5, ys / max(h - 1, 1) - 0.5
    terms = np.stack([u ** i * v ** j for i in range(LIGHT_DEGREE + 1)
                      for j in range(LIGHT_DEGREE + 1 - i)], axis=-1)
    use = lanes.copy()
    surface = np.empty_like(small)
    for _ in range(LIGHT_ROUNDS):
        coef, *_ = np.linalg.lstsq(terms[use], small[use], rcond=None)
        surface = np.maximum(terms @ coef, 1.0).astype(np.float32)
        use = lanes & _near_light(small, surface)
        if use.sum() < terms.shape[-1] * 10:
            break
    return surface


def _near_light(small: np.ndarray, light: np.ndarray) -> np.ndarray:
    """The pixels that may be the panel under the smooth light (bool): as bright within
    :data:`LIGHT_BAND`, and of its colour (every channel brighter or darker alike, within
    :data:`LIGHT_TINT`; a green or a wooden tile is not)."""
    ratio = small / light
    mean = ratio.mean(axis=2)
    tint = np.abs(ratio - mean[..., None]).max(axis=2)
    near: np.ndarray = (mean > LIGHT_BAND[0]) & (mean < LIGHT_BAND[1]) & (tint < LIGHT_TINT)
    return near


def panel_background(top: np.ndarray, *, settings: CodeReaderSettings = DEFAULT_SETTINGS,
                     tile_area_mm2: float = DEMO_TILE_AREA_MM2) -> np.ndarray:
    """The panel grey as seen at every pixel of ``top`` (float32 BGR).

    A first, coarse estimate comes from the lanes between the slots only; everything that
    then stands out strongly (the tiles) is left out, and the rest of the panel (lanes and
    empty slots alike) gives a fine estimate that follows shadows and uneven light.
    """
    scale = 1.0 / settings.px_per_mm  # work at 1 px per mm
    small = cv2.resize(top, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    small = small.astype(np.float32)
    lanes = _lane_mask(small.shape[:2], 1.0) > 0
    samples = small[lanes]
    if samples.size == 0:
        raise FrameRefusedError("the mat's panel is not visible", reason="no-board")
    smooth = smooth_light(small, lanes)
    first = _fill(small, (lanes & _near_light(small, smooth)).astype(np.float32),
                  FIRST_SIGMA_MM, smooth)
    # lane pixels far from their neighbourhood are a tile or a hand lying across a lane
    off = np.linalg.norm(small / np.maximum(first, 1.0) * PANEL_GREY - PANEL_GREY, axis=2)
    coarse = _fill(small, (lanes & (off < settings.foreground)).astype(np.float32),
                   COARSE_SIGMA_MM, first)
    ratio = small / np.maximum(coarse, 1.0) * PANEL_GREY
    dist = np.linalg.norm(ratio - PANEL_GREY, axis=2)
    # Leave out what is surely not panel: strong differences, and every tile-sized piece
    # (a white tile under bright light differs only moderately). Larger faint areas are
    # shadow edges, which the fine estimate must follow, so they stay in.
    surely = (dist > SURE_FOREGROUND * settings.foreground).astype(np.uint8)
    maybe = (dist > settings.foreground).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(maybe, connectivity=8)
    tile_sized = np.zeros(count, bool)
    tile_sized[1:] = stats[1:, cv2.CC_STAT_AREA] <= settings.max_area * tile_area_mm2
    surely |= tile_sized[labels].astype(np.uint8)
    keep_out = cv2.dilate(surely, np.ones((KEEP_OUT_MM, KEEP_OUT_MM), np.uint8)) > 0
    fine = _fill(small, (~keep_out).astype(np.float32), FINE_SIGMA_MM, coarse,
                 prior=FINE_PRIOR)
    field: np.ndarray = cv2.resize(fine, (top.shape[1], top.shape[0]),
                                   interpolation=cv2.INTER_LINEAR)
    return field


def colour_headroom(field: np.ndarray, colour: np.ndarray, *, clip: bool = True) -> float:
    """How far a tile of the pack's relative ``colour`` would stand out from the panel (the
    colour distance tiles are found by) where it stands out least. With ``clip`` the camera
    saturates the tile at 255 while the panel is still below it: in a bright picture a light
    tile comes out nearly as the panel's grey."""
    seen = field * (colour / PANEL_GREY)
    if clip:
        seen = np.minimum(float(CLIPPED), seen)
    relative = seen / np.maximum(field, 1.0) * PANEL_GREY
    distance = np.linalg.norm(relative - PANEL_GREY, axis=2)
    return float(np.percentile(distance, HEADROOM_PERCENTILE))


def check_every_colour_stands_out(field: np.ndarray, pack: CodePack,
                                  settings: CodeReaderSettings) -> None:
    """Refuse a picture so bright that the camera's clipping could hide a tile of some pack
    colour (the white ones) on the panel, and a shorter rack be read as if it were all
    there."""
    sure = SURE_FOREGROUND * settings.foreground
    # the field is smooth at a millimetre's scale: one sample per millimetre is enough
    step = max(1, round(settings.px_per_mm))
    field = field[::step, ::step]
    for colour in pack.colours.values():
        c = np.asarray(colour, np.float32)
        if colour_headroom(field, c) < sure <= colour_headroom(field, c, clip=False):
            raise FrameRefusedError(
                "the picture is too bright for the light tiles to stand out from the mat: "
                "less light or a shorter exposure", reason="overexposed")


@dataclass(frozen=True)
class FoundTile:
    """A tile-shaped piece of the panel: where it is and its upright normalised image."""

    slot: int
    offset_mm: float
    centre_mm: tuple[float, float]
    size_mm: tuple[float, float]
    norm: np.ndarray
    panel: np.ndarray  # the local panel grey (BGR float) around it


def upright_corners(rect: Any) -> np.ndarray:
    """Corners TL, TR, BR, BL of a rotated rectangle, portrait and as near upright as it
    goes (tiles are laid upright, give or take a few degrees)."""
    pts = cv2.boxPoints(rect).astype(np.float64)
    centre = pts.mean(axis=0)
    e1, e2 = pts[1] - pts[0], pts[3] - pts[0]
    long_edge, short_edge = (e1, e2) if np.linalg.norm(e1) >= np.linalg.norm(e2) else (e2, e1)
    up = long_edge / max(np.linalg.norm(long_edge), 1e-9)
    if up[1] > 0:  # image y grows downward: "up" has a negative y
        up = -up
    right = short_edge / max(np.linalg.norm(short_edge), 1e-9)
    if right[0] < 0:
        right = -right
    a = np.linalg.norm(short_edge) / 2
    b = np.linalg.norm(long_edge) / 2
    corners = [centre - right * a + up * b, centre + right * a + up * b,
               centre + right * a - up * b, centre - right * a - up * b]
    return np.array(corners, np.float32)


def find_tiles(
    image: np.ndarray,
    fit: PlaneFit,
    pack: CodePack,
    *,
    settings: CodeReaderSettings = DEFAULT_SETTINGS,
) -> tuple[list[FoundTile], list[str]]:
    """Every tile on the panel (slot order) and the problems seen while finding them."""
    top = top_view(image, fit, settings=settings)
    field = panel_background(top, settings=settings,
                             tile_area_mm2=pack.tile_mm[0] * pack.tile_mm[1])
    check_every_colour_stands_out(field, pack, settings)
    mask, dist = foreground(top, field, settings)
    p = settings.px_per_mm
    tile_area = pack.tile_mm[0] * pack.tile_mm[1] * p * p
    to_frame = np.linalg.inv(view_transform(settings) @ fit.image_to_plane)
    found: list[FoundTile] = []
    problems: list[str] = []
    for area, outline in _pieces(mask, dist, settings, tile_area):
        rect = cv2.minAreaRect(outline.astype(np.float32))
        (cx, cy), (rw, rh), _ = rect
        centre_mm = (cx / p + VIEW_MM[0], cy / p + VIEW_MM[1])
        slot, offset = nearest_slot(*centre_mm)
        short, long_ = sorted((rw / p, rh / p))
        problem = _not_a_tile(area, tile_area, short / max(long_, 1e-6), pack, settings)
        if problem:
            problems.append(problem.format(slot=slot.name))
            continue
        if offset > settings.max_offset_mm:
            problems.append(f"a tile lies between slots, near {slot.name}")
        if any(f.slot == slot.index for f in found):
            raise FrameRefusedError(
                f"two tiles lie on slot {slot.name}; lay one tile per slot",
                reason="ambiguous-layout",
            )
        found.append(FoundTile(slot.index, offset, centre_mm, (short, long_),
                               cut_out_tile(image, rect, to_frame), panel_at(field, cx, cy)))
    found.sort(key=lambda f: f.slot)
    return found, problems


def clean_kernel(px_per_mm: float) -> np.ndarray:
    """The disc that cleans a foreground mask (:data:`CLEAN_RADIUS_MM`)."""
    return disc_kernel(CLEAN_RADIUS_MM, px_per_mm)


def disc_kernel(radius_mm: float, px_per_mm: float) -> np.ndarray:
    """A disc of ``radius_mm`` as a morphology kernel of the top view."""
    k = max(1, round(radius_mm * px_per_mm))
    kernel: np.ndarray = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
    return kernel


def foreground(top: np.ndarray, field: np.ndarray, settings: CodeReaderSettings
               ) -> tuple[np.ndarray, np.ndarray]:
    """What differs from the panel grey: the cleaned mask (uint8, 255) and the colour
    distance from the local grey at every pixel of ``top``."""
    ratio = top.astype(np.float32) / np.maximum(field, 1.0) * PANEL_GREY
    dist: np.ndarray = np.linalg.norm(ratio - PANEL_GREY, axis=2)
    mask: np.ndarray = (dist > settings.foreground).astype(np.uint8) * 255
    kernel = clean_kernel(settings.px_per_mm)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel, iterations=CLOSE_ITERATIONS)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                            disc_kernel(BRIDGE_RADIUS_MM, settings.px_per_mm))
    return mask, dist


def _not_a_tile(area: float, tile_area: float, ratio: float, pack: CodePack,
                settings: CodeReaderSettings) -> str:
    """Why a piece (its pixel area against a tile's, its short/long side ratio) is not a
    tile, as a message with a ``{slot}`` field, or ``""`` when it is one."""
    if area > settings.max_area * tile_area:
        return "something larger than a tile near slot {slot} (tiles touching, or a hand)"
    if area < settings.min_area * tile_area:
        return "part of a tile, or something else, near slot {slot}"
    expected_ratio = pack.tile_mm[0] / pack.tile_mm[1]
    if not SHAPE_RATIO[0] < ratio / expected_ratio < SHAPE_RATIO[1]:
        return "something not shaped like a tile near slot {slot}"
    return ""


def cut_out_tile(image: np.ndarray, rect: Any, to_frame: np.ndarray) -> np.ndarray:
    """The tile inside ``rect`` (a rotated rectangle of the top view) cut out of the camera
    frame, upright, at :data:`NORM_SIZE`."""
    corners_top = upright_corners(rect)
    corners_frame = cv2.perspectiveTransform(
        corners_top.reshape(-1, 1, 2).astype(np.float64), to_frame
    ).reshape(-1, 2).astype(np.float32)
    w, h = NORM_SIZE
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    warp = cv2.getPerspectiveTransform(corners_frame, dst)
    norm: np.ndarray = cv2.warpPerspective(image, warp, NORM_SIZE, flags=cv2.INTER_AREA
                                           if _shrinks(corners_frame, w) else cv2.INTER_LINEAR)
    return norm


def panel_at(field: np.ndarray, x: float, y: float) -> np.ndarray:
    """The panel grey (BGR float32) at a point of the top view, clamped to the view."""
    iy = min(field.shape[0] - 1, max(0, round(y)))
    ix = min(field.shape[1] - 1, max(0, round(x)))
    panel: np.ndarray = field[iy, ix].astype(np.float32)
    return panel


def _outlines(mask: np.ndarray, min_area: float) -> list[tuple[float, np.ndarray]]:
    """(pixel area, outer outline) of every connected piece of ``mask`` above ``min_area``."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = []
    for label in range(1, count):
        area = float(stats[label, cv2.CC_STAT_AREA])
        if area < min_area:
            continue
        x0, y0 = stats[label, cv2.CC_STAT_LEFT], stats[label, cv2.CC_STAT_TOP]
        bw, bh = stats[label, cv2.CC_STAT_WIDTH], stats[label, cv2.CC_STAT_HEIGHT]
        piece = (labels[y0:y0 + bh, x0:x0 + bw] == label).astype(np.uint8)
        contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        outline = max(contours, key=cv2.contourArea).reshape(-1, 2) + [x0, y0]
        out.append((area, outline))
    return out


def _pieces(mask: np.ndarray, dist: np.ndarray, settings: CodeReaderSettings, tile_area: float
            ) -> list[tuple[float, np.ndarray]]:
    """The pieces of the foreground; a piece too large for one tile is split again at a
    higher threshold (a shadow edge bridging two tiles is much weaker than a tile)."""
    result = []
    for area, outline in _outlines(mask, settings.ignore_area * tile_area):
        if area <= settings.max_area * tile_area:
            result.append((area, outline))
            continue
        x, y, w, h = cv2.boundingRect(outline.astype(np.int32))
        region = np.zeros((h, w), np.uint8)
        cv2.drawContours(region, [outline.astype(np.int32) - [x, y]], -1, 255, -1)
        strong = ((dist[y:y + h, x:x + w] > settings.foreground * SPLIT_FOREGROUND)
                  & (region > 0))
        strong_mask: np.ndarray = strong.astype(np.uint8) * 255
        kernel = clean_kernel(settings.px_per_mm)
        strong_mask = cv2.morphologyEx(strong_mask, cv2.MORPH_CLOSE, kernel,
                                       iterations=CLOSE_ITERATIONS)
        strong_mask = cv2.morphologyEx(strong_mask, cv2.MORPH_OPEN, kernel)
        parts = _outlines(strong_mask, settings.ignore_area * tile_area)
        # a light tile may stand out from the panel less than the split's threshold in
        # places: then the lanes part the piece into more of whole tiles, or into as many
        # and more of them, than the threshold does
        at_lanes = _cut_at_lanes(mask, region, (x, y), settings, tile_area)
        if (_whole_tiles(at_lanes, settings, tile_area)
                > _whole_tiles(parts, settings, tile_area)):
            parts = at_lanes
        if len(parts) <= 1:
            result.append((area, outline))
            continue
        result.extend((a, o + [x, y]) for a, o in parts)
    return result


def _whole_tiles(parts: list[tuple[float, np.ndarray]], settings: CodeReaderSettings,
                 tile_area: float) -> tuple[int, float]:
    """How many of ``parts`` have a whole tile's area, and their area together."""
    whole = [area for area, _ in parts
             if settings.min_area * tile_area <= area <= settings.max_area * tile_area]
    return len(whole), float(sum(whole))


def _cut_at_lanes(mask: np.ndarray, region: np.ndarray, origin: tuple[int, int],
                  settings: CodeReaderSettings, tile_area: float
                  ) -> list[tuple[float, np.ndarray]]:
    """A piece as large as two tiles, cut along the lanes between the slots: thick tiles,
    laid a little off their slots, touch their neighbours as strongly as they stand out."""
    x, y = origin
    h, w = region.shape
    lanes = _lane_mask(mask.shape[:2], settings.px_per_mm)[y:y + h, x:x + w]
    cut = ((region > 0) & (lanes == 0)).astype(np.uint8) * 255
    cut = cv2.morphologyEx(cut, cv2.MORPH_OPEN, clean_kernel(settings.px_per_mm))
    return _outlines(cut, settings.ignore_area * tile_area)


def _shrinks(corners: np.ndarray, width: int) -> bool:
    """True when the tile's top edge in the frame is much wider than ``width`` pixels."""
    return float(np.linalg.norm(corners[1] - corners[0])) > width * SHRINK_RATIO


# ---------------------------------------------------------------- classification


@dataclass(frozen=True)
class TileScores:
    """What :func:`classify_tile` makes of one tile (its scores, for the reading)."""

    tile: Tile
    confidence: float
    digit_score: float
    digit_margin: float
    colour_margin: float
    upside_down: bool = False


def relative_body(norm: np.ndarray, panel: np.ndarray) -> np.ndarray:
    """The tile's body colour as it would look beside a panel of the printed grey."""
    body: np.ndarray = body_colour(norm) / np.maximum(panel, 1.0) * PANEL_GREY
    return body


#: a template match: (correlation, tile kind, top-left of the match in the ink map)
Match = tuple[float, str, tuple[int, int]]


def classify_tile(norm: np.ndarray, panel: np.ndarray, pack: CodePack) -> TileScores:
    """Digit and colour of one normalised tile, with a confidence in 0..1."""
    colour, colour_margin = nearest_colour(relative_body(norm, panel), pack)
    ink = ink_map(norm, grey_of(body_colour(norm)))
    best_of = best_match_per_digit(ink, pack)
    digit, margin = _decide_digit(ink, pack, best_of, colour)
    s1 = best_of[digit][0]
    conf_digit = (_ramp(margin, DIGIT_MARGIN_FLOOR, DIGIT_MARGIN_SPAN)
                  * _ramp(s1, DIGIT_SCORE_FLOOR, DIGIT_SCORE_SPAN))
    conf_colour = _ramp(colour_margin, COLOUR_MARGIN_FLOOR, COLOUR_MARGIN_SPAN)
    conf_fit = _ramp(s1, PACK_FIT_FLOOR, PACK_FIT_SPAN)
    upside_down = _looks_upside_down(ink, pack, s1)
    confidence = min(conf_digit, conf_colour, conf_fit, DOUBT if upside_down else 1.0)
    return TileScores(Tile(digit, Colour(colour)), confidence, s1, margin, colour_margin,
                      upside_down)


def nearest_colour(body: np.ndarray, pack: CodePack) -> tuple[str, float]:
    """The pack colour (letter) nearest to a relative body colour, and its margin over the
    second nearest (0..1)."""
    distances = {k: float(np.linalg.norm(body - v)) for k, v in pack.colours.items()}
    order = sorted(distances, key=distances.__getitem__)
    d1, d2 = distances[order[0]], distances[order[1]]
    return order[0], (d2 - d1) / max(d2, 1e-6)


def best_match_per_digit(ink: np.ndarray, pack: CodePack) -> dict[int, Match]:
    """For each digit, the pack template (of any colour) that matches the ink map best."""
    best_of: dict[int, Match] = {}
    for kind, template in pack.templates.items():
        n = int(kind[0])
        res = cv2.matchTemplate(ink, template, cv2.TM_CCOEFF_NORMED)
        _, score, _, loc = cv2.minMaxLoc(res)
        if n not in best_of or score > best_of[n][0]:
            best_of[n] = (float(score), kind, (int(loc[0]), int(loc[1])))
    return best_of


def _decide_digit(ink: np.ndarray, pack: CodePack, best_of: dict[int, Match], colour: str
                  ) -> tuple[int, float]:
    """The digit of a tile of ``colour`` and its margin over the rival digit."""
    allowed = [5] if colour == "g" else [n for n in range(10) if n != 5]
    ranked = sorted(allowed, key=lambda n: -best_of[n][0])
    rivals = sorted((n for n in best_of if n != ranked[0]), key=lambda n: -best_of[n][0])
    best, rival = ranked[0], (ranked[1] if len(ranked) > 1 else rivals[0])
    if colour == "g":
        # a green tile is a 5; the digit must still look like a 5 rather than its rival
        return best, max(0.0, _duel(ink, pack, best_of[5], best_of[rival]))
    # Whole-glyph correlation is close for look-alikes (0/8, 3/8, 5/6): decide between
    # the two best on the pixels where their templates differ.
    duel = _duel(ink, pack, best_of[best], best_of[rival])
    if duel < 0:
        best, rival = rival, best
        duel = -duel
    return best, max(duel, best_of[best][0] - best_of[rival][0])


def _looks_upside_down(ink: np.ndarray, pack: CodePack, score: float) -> bool:
    """A tile laid upside down (a player across the table) reads 6 as 9: turned a half, it
    matches some template clearly better than its best ``score``."""
    turned = np.ascontiguousarray(ink[::-1, ::-1])
    turned_best = max(float(cv2.matchTemplate(turned, t, cv2.TM_CCOEFF_NORMED).max())
                      for t in pack.templates.values())
    return turned_best > score + UPSIDE_DOWN_GAIN


def _zscore(x: np.ndarray) -> np.ndarray:
    standardised: np.ndarray = (x - x.mean()) / max(float(x.std()), 1e-6)
    return standardised


def _duel(ink: np.ndarray, pack: CodePack, a: Match, b: Match) -> float:
    """Positive when the tile is more like ``a`` than ``b`` where their templates differ
    (-1..1)."""
    ta, tb = _zscore(pack.templates[a[1]]), _zscore(pack.templates[b[1]])
    h, w = ta.shape
    pa = _zscore(ink[a[2][1]:a[2][1] + h, a[2][0]:a[2][0] + w])
    pb = _zscore(ink[b[2][1]:b[2][1] + h, b[2][0]:b[2][0] + w])
    weight = cv2.GaussianBlur(np.abs(ta - tb), (0, 0), DUEL_SIGMA)
    weight /= max(float(weight.sum()), 1e-6)
    ea = float((weight * (pa - ta) ** 2).sum())
    eb = float((weight * (pb - tb) ** 2).sum())
    return (eb - ea) / max(ea + eb, 1e-6)


def _ramp(x: float, floor: float, span: float) -> float:
    """0 up to ``floor``, rising to 1 at ``floor + span``."""
    return float(min(1.0, max(0.0, (x - floor) / span)))


# ---------------------------------------------------------------- the reader


def read_tiles(
    image: np.ndarray,
    pack: CodePack | None = None,
    *,
    settings: CodeReaderSettings = DEFAULT_SETTINGS,
) -> CodeReading:
    """Every tile on the mat, in slot order, with problems and an overall confidence."""
    pack = pack if pack is not None else demo_pack()
    # the frame made grey once, for the markers and the picture check
    gray = cv2.cvtColor(colour_frame(image), cv2.COLOR_BGR2GRAY)
    fit = find_mat(image, settings=settings, gray=gray)
    picture = panel_picture_factor(image, fit, settings=settings, gray=gray)
    found, problems = find_tiles(image, fit, pack, settings=settings)
    reads = []
    for f in found:
        s = classify_tile(f.norm, f.panel, pack)
        reads.append(TileRead(f.slot, s.tile, s.confidence * picture, s.digit_score,
                              s.digit_margin, s.colour_margin, f.centre_mm, s.upside_down))
        if s.upside_down:
            problems.append(f"the tile on slot {SLOTS[f.slot].name} seems upside down")
    confidence = min((r.confidence for r in reads), default=0.0)
    if problems:
        confidence = min(confidence, DOUBT)
    return CodeReading(tuple(reads), tuple(problems), confidence)


def read_code(
    image: np.ndarray,
    pack: CodePack | None = None,
    *,
    expected: int | None = None,
    settings: CodeReaderSettings = DEFAULT_SETTINGS,
) -> tuple[Code, float]:
    """Read the tiles on the mat as a code: ``(Code, confidence)``.

    Refused (FrameRefusedError, exit 4): no mat, no tile, a set that no box holds, or not
    ``expected`` tiles. Tiles out of rack order give the code in rack order with the
    confidence capped at :data:`DOUBT` (misplaced or misread: the players confirm).
    """
    reading = read_tiles(image, pack, settings=settings)
    tiles = reading.tiles
    if not tiles:
        raise FrameRefusedError("no tile found on the mat", reason="no-tiles")
    if expected is not None and len(tiles) != expected:
        raise FrameRefusedError(
            f"found {len(tiles)} tiles on the mat, expected {expected}", reason="tile-count"
        )
    counts = Counter(t.tile for t in tiles)
    for tile, n in counts.items():
        if n > BOX[tile]:
            slots = [SLOTS[t.slot].name for t in tiles if t.tile == tile]
            raise FrameRefusedError(
                f"the tiles on slots {', '.join(slots)} read alike, which the box does not "
                "allow; check them and show the tiles again",
                reason="impossible-code",
            )
    confidence = reading.confidence
    in_slots = [t.tile for t in tiles]
    if in_slots != sorted(in_slots):
        confidence = min(confidence, DOUBT)
    return Code.of(in_slots), confidence


def is_in_rack_order(reading: CodeReading) -> bool:
    """True when the tiles, in slot order, are in the rack's order."""
    tiles = [t.tile for t in reading.tiles]
    return tiles == sorted(tiles)
