"""Find a Second Chance grid in a camera frame and map it to a canonical top-down image.

Two ways in, both ending in the same canonical image (``CANON_CELL`` pixels a cell, the grid
``CANON_MARGIN`` pixels from the border, the sheet's title below the grid):

1. **markers**: the app's own sheet carries four ArUco markers; :func:`vision.markers.locate`
   fits and checks the homography from the frame to the page.
2. **frame**: the publisher's pad has no markers. The grid's thick outer frame is the
   largest quadrilateral whose inside shows 9 x 9 cells; which side is up is decided by the
   printed title under the grid.

Then the grid lines themselves are found near where the homography puts them, and a smooth
mesh through them takes out what a homography cannot: lens distortion and a sheet that is not
flat. :func:`rectify` returns the image with every cell an exact square.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.errors import FrameRefusedError
from vision.markers import MarkerChecks, locate
from vision.second_chance.layout import GRID_CELLS, SheetLayout

CANON_CELL = 40
CANON_MARGIN = 60
CANON_SIZE = GRID_CELLS * CANON_CELL + 2 * CANON_MARGIN
N_CELLS = GRID_CELLS


@dataclass(frozen=True)
class GridFit:
    """How the grid was found: frame pixels -> canonical pixels, and how well."""

    image_to_canon: np.ndarray
    method: str  # "markers" or "frame"
    #: how clearly the grid lines show where the homography put them (0..1)
    line_score: float
    #: for the frame method: how clearly the title marked the bottom (0..1); 1 with markers
    orientation_confidence: float = 1.0


def _canon_from_page(layout: SheetLayout) -> np.ndarray:
    k = CANON_CELL / layout.cell_mm
    gx, gy = layout.grid_origin_mm
    return np.array([[k, 0, CANON_MARGIN - gx * k], [0, k, CANON_MARGIN - gy * k], [0, 0, 1.0]])


def warp_canon(image: np.ndarray, image_to_canon: np.ndarray) -> np.ndarray:
    return cv2.warpPerspective(
        image,
        image_to_canon,
        (CANON_SIZE, CANON_SIZE),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )


def _gray(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def line_evidence(canon_gray: np.ndarray, *, slack: int = 4) -> float:
    """How much darker the grid lines are than the cell middles (0 = no grid).

    Each line is looked for within ``slack`` pixels of where it should be, in three pieces,
    so a quadrilateral that is a little off (a tile drawn over the frame's corner) still
    scores like the grid it nearly is, while the paper's edge does not.
    """
    g = canon_gray.astype(np.float32)
    lines = np.arange(GRID_CELLS + 1) * CANON_CELL + CANON_MARGIN
    mids = lines[:-1] + CANON_CELL // 2
    thirds = [slice(CANON_MARGIN + k * 3 * CANON_CELL, CANON_MARGIN + (k + 1) * 3 * CANON_CELL)
              for k in range(3)]
    window = np.arange(-slack, slack + 1)
    # each third's profile across the rows and across the columns, (6, CANON_SIZE)
    profiles = np.stack([profile for piece in thirds
                         for profile in (g[:, piece].mean(axis=1), g[piece, :].mean(axis=0))])
    # (profiles, lines, window) and (profiles, middles, window): each line's and middle's
    # neighbourhood, all in one call (the medians in float64, as the profiles' floats were)
    on = profiles[:, lines[:, None] + window].min(axis=2).astype(np.float64)
    off = np.median(profiles[:, mids[:, None] + window], axis=2).astype(np.float64)
    paper = float(np.percentile(off, 90)) or 1.0
    return float((np.median(off) - np.median(on)) / paper)


#: half a frame first: faster, and the default detector finds blurred markers better there
SHEET_MARKER_CHECKS = MarkerChecks(retry_scales=(0.5, 1.0))


def locate_with_markers(
    image: np.ndarray,
    layout: SheetLayout,
    checks: MarkerChecks = SHEET_MARKER_CHECKS,
) -> GridFit:
    """The grid of the app's own sheet, from its four checked markers."""
    fit = locate(image, layout.marker_layout(), checks=checks)
    h = _canon_from_page(layout) @ fit.image_to_plane
    # the markers' fit is checked by vision.markers; the grid lines are checked when read
    return GridFit(h, "markers", 1.0)


def _quad_candidates(gray: np.ndarray) -> list[np.ndarray]:
    """Convex quadrilaterals outlined by dark lines, largest first (in ``gray``'s pixels)."""
    binary = cv2.adaptiveThreshold(
        gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 31, 12
    )
    binary = cv2.morphologyEx(binary, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    area_min = gray.shape[0] * gray.shape[1] * 0.02
    quads: list[tuple[float, np.ndarray]] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < area_min:
            continue
        hull = cv2.convexHull(contour)
        perimeter = cv2.arcLength(hull, True)
        for eps in (0.015, 0.03, 0.05):
            approx = cv2.approxPolyDP(hull, eps * perimeter, True)
            if len(approx) == 4:
                quads.append((area, approx.reshape(4, 2).astype(np.float32)))
                break
        else:
            # a tile drawn over the frame's corner: fall back on the hull's extreme points
            pts = hull.reshape(-1, 2).astype(np.float32)
            s_, d_ = pts.sum(axis=1), pts[:, 0] - pts[:, 1]
            extreme = np.array([pts[np.argmin(s_)], pts[np.argmax(d_)], pts[np.argmax(s_)],
                                pts[np.argmin(d_)]])
            quads.append((area, extreme))
    quads.sort(key=lambda item: -item[0])
    return [q for _, q in quads[:16]]


def _order_corners(quad: np.ndarray) -> np.ndarray:
    """Corners clockwise from the one nearest the image's top-left."""
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    ordered = quad[np.argsort(angles)]  # clockwise in image coordinates (y down)
    start = int(np.argmin(ordered.sum(axis=1)))
    return np.roll(ordered, -start, axis=0)


def _title_side_scores(canon_gray: np.ndarray) -> np.ndarray:
    """How much printed text lies just outside each side of the grid: top, right, bottom, left.

    Text is many light-dark changes *along* the side; the paper's edge or the table, which run
    parallel to the sides, change little along them, so they do not count.
    """
    g = canon_gray.astype(np.float32)
    a = CANON_MARGIN - int(CANON_CELL * 1.0)
    b = CANON_MARGIN - int(CANON_CELL * 0.3)
    lo = CANON_MARGIN + CANON_CELL * 2
    hi = CANON_MARGIN + CANON_CELL * 7
    far = CANON_SIZE
    bands = (
        (g[a:b, lo:hi], 1),
        (g[lo:hi, far - b : far - a], 0),
        (g[far - b : far - a, lo:hi], 1),
        (g[lo:hi, a:b], 0),
    )
    return np.array([float(np.abs(np.diff(band, axis=axis)).mean()) for band, axis in bands])


def locate_by_frame(image: np.ndarray, *, min_line_score: float = 0.08) -> GridFit:
    """Find a grid without markers: the best-scoring quadrilateral, turned title-side down."""
    gray = _gray(image)
    scale = min(1.0, 900 / max(gray.shape[:2]))
    small = (
        cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        if scale < 1.0
        else gray
    )
    grid_corners = np.array(
        [
            [CANON_MARGIN, CANON_MARGIN],
            [CANON_MARGIN + GRID_CELLS * CANON_CELL, CANON_MARGIN],
            [CANON_MARGIN + GRID_CELLS * CANON_CELL, CANON_MARGIN + GRID_CELLS * CANON_CELL],
            [CANON_MARGIN, CANON_MARGIN + GRID_CELLS * CANON_CELL],
        ],
        np.float32,
    )
    best: tuple[float, np.ndarray] | None = None
    for quad in _quad_candidates(small):
        corners = _order_corners(quad) / scale
        h = cv2.getPerspectiveTransform(corners.astype(np.float32), grid_corners)
        score = line_evidence(warp_canon(gray, h))
        if best is None or score > best[0]:
            best = (score, h)
    if best is None or best[0] < min_line_score:
        raise FrameRefusedError(
            "no Second Chance grid found: no markers, and no framed 9x9 grid in view",
            reason="no-board",
        )
    score, h = best
    sides = _title_side_scores(warp_canon(gray, h))
    bottom = int(np.argmax(sides))
    ranked = np.sort(sides)
    confidence = float(1.0 - ranked[-2] / ranked[-1]) if ranked[-1] > 0 else 0.0
    # turn so that the title side is at the bottom (side index 2)
    turns = (2 - bottom) % 4
    rot = _quarter_turns(turns)
    return GridFit(rot @ h, "frame", score, orientation_confidence=confidence)


def _quarter_turns(k: int) -> np.ndarray:
    """k clockwise quarter turns of the canonical image about its centre."""
    c = (CANON_SIZE - 1) / 2
    m = np.eye(3)
    turn = np.array([[0, -1, 2 * c], [1, 0, 0], [0, 0, 1.0]])  # (x, y) -> (2c - y, x)
    for _ in range(k % 4):
        m = turn @ m
    return m


#: the paper around a pad's grid that the picture check measures, in cells: inside the printed
#: margin, so the table beside the pad is not measured with it
PAD_PAPER_CELLS = 0.5


def sheet_outline(fit: GridFit, layout: SheetLayout | None = None) -> np.ndarray:
    """The sheet's outline in the frame (image points, shape (4, 2)): the page of the app's own
    sheet (its markers give the page), or the grid found on a pad and a little paper around
    it. The picture check measures the frame there."""
    if fit.method == "markers":
        layout = layout or SheetLayout.for_page()
        width, height = layout.page_mm
        page = np.array([[0.0, 0.0], [width, 0.0], [width, height], [0.0, height]])
        corners = cv2.perspectiveTransform(page[None], _canon_from_page(layout))[0]
    else:
        near = CANON_MARGIN - PAD_PAPER_CELLS * CANON_CELL
        far = CANON_SIZE - near
        corners = np.array([[near, near], [far, near], [far, far], [near, far]], np.float64)
    outline: np.ndarray = cv2.perspectiveTransform(
        corners[None].astype(np.float64), np.linalg.inv(fit.image_to_canon))[0]
    return outline


def locate_grid(image: np.ndarray, layout: SheetLayout | None = None) -> GridFit:
    """Markers first; a frame without this sheet's markers is taken as the publisher's pad.

    Markers of another layout alone (a board's markers beside the pad, or a speck of the
    table read as a marker) do not stop the pad from being read; when no pad is found
    either, the refusal names the markers seen.
    """
    if image is None or image.size == 0:
        raise FrameRefusedError("empty frame", reason="no-frame")
    layout = layout or SheetLayout.for_page()
    try:
        return locate_with_markers(image, layout)
    except FrameRefusedError as exc:
        if exc.reason == "no-markers":
            return locate_by_frame(image)
        if exc.reason != "wrong-layout":
            raise
        try:
            return locate_by_frame(image)
        except FrameRefusedError:
            raise exc from None


# ---------------------------------------------------------------- line refinement


def _peak_offsets(profile_stack: np.ndarray, radius: int) -> tuple[np.ndarray, np.ndarray]:
    """Sub-pixel position (offset from the centre) and strength of each profile's peak
    (profiles along the last axis, any number of leading axes)."""
    idx = np.argmax(profile_stack, axis=-1)[..., None]
    n = profile_stack.shape[-1]
    left = np.take_along_axis(profile_stack, np.clip(idx - 1, 0, n - 1), axis=-1)[..., 0]
    mid = np.take_along_axis(profile_stack, idx, axis=-1)[..., 0]
    right = np.take_along_axis(profile_stack, np.clip(idx + 1, 0, n - 1), axis=-1)[..., 0]
    denom = left - 2 * mid + right
    # divide only where the peak is curved (a flat or empty profile would warn 0/0)
    frac = np.divide(0.5 * (left - right), denom, out=np.zeros_like(denom),
                     where=np.abs(denom) > 1e-6)
    strength = mid - np.median(profile_stack, axis=-1)
    return idx[..., 0] - radius + np.clip(frac, -0.5, 0.5), strength


def _fit_values(offsets: np.ndarray, kept: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """Each line's least-squares fit through its ``kept`` offsets, at ``xs``: a quadratic
    through 5 points or more, else their mean (``offsets``, ``kept``: (lines, len(xs)))."""
    # the positions scaled to -1..1: the same quadratic as in pixels, well conditioned
    t = (xs - xs.mean()) / max(float(np.ptp(xs)) / 2, 1.0)
    basis = np.stack([np.ones_like(t), t, t * t], axis=1)
    weights = kept.astype(np.float64)
    normal = np.einsum("li,ij,ik->ljk", weights, basis, basis)
    quadratic = kept.sum(axis=1) >= 5
    normal[~quadratic] = np.eye(3)  # a line fitted by its mean: any solvable system
    rhs = np.einsum("li,ij->lj", weights * offsets, basis)
    coeffs = np.linalg.solve(normal, rhs[..., None])[..., 0]
    mean = (weights * offsets).sum(axis=1) / np.maximum(weights.sum(axis=1), 1.0)
    values: np.ndarray = np.where(quadratic[:, None], coeffs @ basis.T, mean[:, None])
    return values


def _fit_lines(offsets: np.ndarray, strength: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """A robust quadratic through each line's segment offsets (rows of ``offsets``), twice
    refitted without the segments more than 2 pixels off it; weak or stray segments are
    ignored, and a line with fewer than 3 good segments stays where the homography put it."""
    good = strength > np.maximum(0.02, np.median(strength, axis=1) * 0.3)[:, None]
    fitted = _fit_values(offsets, good, xs)
    going = good.sum(axis=1) >= 3
    for _ in range(2):
        keep = good & (np.abs(fitted - offsets) < 2.0)
        going &= keep.sum(axis=1) >= 3
        fitted = np.where(going[:, None], _fit_values(offsets, keep, xs), fitted)
    fitted[good.sum(axis=1) < 3] = 0.0
    return fitted


def refine_mesh(canon_gray: np.ndarray, *, radius: int = CANON_CELL // 4) -> np.ndarray:
    """The grid intersections as found in the image: array (10, 10, 2) of canonical (x, y)."""
    # how dark, from white: any level does (the peaks, their strengths and the fits are all
    # differences of it), and the paper's own (a percentile) took 2 ms to find
    dark = np.float32(255.0) - canon_gray.astype(np.float32)
    n = GRID_CELLS + 1
    lines = CANON_MARGIN + np.arange(n) * CANON_CELL
    seg_centres = CANON_MARGIN + (np.arange(GRID_CELLS) + 0.5) * CANON_CELL
    cut = int(CANON_CELL * 0.2)
    offsets = np.arange(-radius, radius + 1)
    inner = np.concatenate([np.arange(lines[j] + cut, lines[j + 1] - cut) for j in range(N_CELLS)])
    seg_len = len(inner) // N_CELLS
    # every line's band (lines, 2r+1, pixels along) -> mean over each cell's middle stretch:
    # the profiles across each line at the middle of each cell, (lines, 9, 2r+1)
    across = lines[:, None, None] + offsets[None, :, None]
    band_h = dark[across, inner[None, None, :]]
    band_v = dark[inner[None, None, :], across]
    prof_h = band_h.reshape(n, len(offsets), N_CELLS, seg_len).mean(axis=3).transpose(0, 2, 1)
    prof_v = band_v.reshape(n, len(offsets), N_CELLS, seg_len).mean(axis=3).transpose(0, 2, 1)
    off, strength = _peak_offsets(np.concatenate([prof_h, prof_v]), radius)
    fitted = _fit_lines(off, strength, seg_centres)
    h_off, v_off = fitted[:n], fitted[n:]
    # intersections: interpolate each line's offset at the crossing positions
    mesh = np.zeros((n, n, 2))
    for k in range(n):  # column line k, at every row line
        mesh[:, k, 0] = lines[k] + np.interp(lines, seg_centres, v_off[k])
    for i in range(n):  # row line i, at every crossing's x
        mesh[i, :, 1] = lines[i] + np.interp(mesh[i, :, 0], seg_centres, h_off[i])
    return mesh


def rectify(canon: np.ndarray, mesh: np.ndarray) -> np.ndarray:
    """Resample so that every cell is an exact CANON_CELL square (bilinear within each cell)."""
    n = GRID_CELLS + 1
    ideal = CANON_MARGIN + np.arange(n) * CANON_CELL
    dx = mesh[..., 0] - ideal[None, :]
    dy = mesh[..., 1] - ideal[:, None]
    # displacement known at the intersections; spread it smoothly over the whole image
    small_x = cv2.resize(
        dx.astype(np.float32), (GRID_CELLS * CANON_CELL + 1,) * 2, interpolation=cv2.INTER_LINEAR
    )
    small_y = cv2.resize(
        dy.astype(np.float32), (GRID_CELLS * CANON_CELL + 1,) * 2, interpolation=cv2.INTER_LINEAR
    )
    map_dx = cv2.copyMakeBorder(
        small_x,
        CANON_MARGIN,
        CANON_SIZE - CANON_MARGIN - small_x.shape[0],
        CANON_MARGIN,
        CANON_SIZE - CANON_MARGIN - small_x.shape[1],
        cv2.BORDER_REPLICATE,
    )
    map_dy = cv2.copyMakeBorder(
        small_y,
        CANON_MARGIN,
        CANON_SIZE - CANON_MARGIN - small_y.shape[0],
        CANON_MARGIN,
        CANON_SIZE - CANON_MARGIN - small_y.shape[1],
        cv2.BORDER_REPLICATE,
    )
    yy, xx = _canon_coordinates()
    return cv2.remap(
        canon, xx + map_dx, yy + map_dy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


@lru_cache(maxsize=1)
def _canon_coordinates() -> tuple[np.ndarray, np.ndarray]:
    """(y, x) of every pixel of the canonical image, made once (2 ms a read otherwise)."""
    yy, xx = np.mgrid[0:CANON_SIZE, 0:CANON_SIZE].astype(np.float32)
    yy.setflags(write=False)
    xx.setflags(write=False)
    return yy, xx
