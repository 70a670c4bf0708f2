"""ArUco markers: find four of them, fit a checked homography, print them at true scale.

Every game finds its play area the same way: four markers whose centres sit at known points of
a plane (a board's surroundings, a score sheet, a teach sheet). :func:`locate` finds them,
fits the homography from the image to that plane (millimetres) and *checks it every time*:

- the reprojection check maps every detected marker outline into the plane and compares it with
  a square of the printed size (any rotation, so markers laid out by hand still pass);
- the area check refuses a plane that covers too little of the frame (too far, or a glimpse);
- the aspect check refuses a plane whose sides are stretched far beyond what a camera on an arm
  produces (a degenerate fit, markers of two different sheets mixed up).

A failed check raises :class:`~vision.errors.FrameRefusedError` with a reason.

Only ``cv2.aruco.ArucoDetector``, ``getPredefinedDictionary`` and ``generateImageMarker`` are
used, so this runs on OpenCV 4.10 (the Pi pin) and on 5.x. The default detector loses blurred
markers at full resolution that it still finds in a smaller copy, so detection retries at the
scales of ``MarkerChecks.retry_scales``. A large frame is searched in a coarse copy first and
then only in windows round the markers found there, with the same pixels as a whole search
(corners within about 1e-4 px of a whole search's, for half the work); before that, in
windows round where the last search of the same kind found them
(:mod:`vision.marker_places`), as a still camera sees them again.

Example (a rendered plane seen straight on)::

    >>> layout = MarkerLayout(ids=(0, 1, 2, 3), size_mm=40.0,
    ...     centres_mm=((30, 30), (270, 30), (270, 270), (30, 270)))
    >>> page = marker_plane_image(layout, px_per_mm=2.0)
    >>> fit = locate(page, layout)
    >>> round(fit.reprojection_mm, 1) < 1.0
    True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import cv2
import numpy as np

from vision.errors import FrameRefusedError
from vision.image_io import PAGE_SUFFIXES, check_writable
from vision.marker_places import MOVED_SIDES, remember_places, remembered_places

Point = tuple[float, float]

#: Marker ids in use, so that one game's plane is never taken for another's.
#: Each layout uses four ids in the order top-left, top-right, bottom-right, bottom-left.
RESERVED_IDS: dict[str, tuple[int, int, int, int]] = {
    "table": (0, 1, 2, 3),  # markers laid around a board (Indigo, Enigma)
    "teach": (4, 5, 6, 7),  # the teach sheet for art packs
    "second-chance": (8, 9, 10, 11),  # Second Chance score sheets
    "break-the-code": (12, 13, 14, 15),
    "enigma-mat": (16, 17, 18, 19),  # the Enigma puzzle mat (vision/enigma/mat.py)
}


@dataclass(frozen=True)
class MarkerLayout:
    """Four markers on a plane: ids and centres (mm) in the order TL, TR, BR, BL."""

    ids: tuple[int, int, int, int]
    centres_mm: tuple[Point, Point, Point, Point]
    size_mm: float
    dictionary: str = "DICT_4X4_50"

    def plane_size_mm(self) -> tuple[float, float]:
        """Width and height of the plane that holds all four markers, with half a marker spare."""
        xs = [c[0] for c in self.centres_mm]
        ys = [c[1] for c in self.centres_mm]
        return (max(xs) + self.size_mm, max(ys) + self.size_mm)

def table_layout(*, frame_mm: tuple[float, float], marker_size_mm: float,
                 dictionary_name: str) -> MarkerLayout:
    """The four table markers (ids ``RESERVED_IDS["table"]``, shared by the Indigo and
    Enigma tables) at the corners of a ``frame_mm`` rectangle centred on 0."""
    w, h = frame_mm[0] / 2, frame_mm[1] / 2
    return MarkerLayout(
        ids=RESERVED_IDS["table"],
        centres_mm=((-w, -h), (w, -h), (w, h), (-w, h)),
        size_mm=marker_size_mm,
        dictionary=dictionary_name,
    )



@dataclass(frozen=True)
class MarkerChecks:
    """Thresholds of the homography checks (they come from config, not from here)."""

    #: largest distance (mm, in the plane) between a marker's mapped corner and the ideal square,
    #: as a fraction of the marker size
    max_reprojection: float = 0.15
    #: smallest share of the frame the marker quadrilateral must cover
    min_area_fraction: float = 0.04
    #: largest ratio between how much two opposite sides of the plane are stretched
    max_side_stretch: float = 2.5
    #: scales tried in order until all four markers are found (1.0 = full resolution)
    retry_scales: tuple[float, ...] = (1.0, 0.5)
    #: frames are first shrunk so that their longer side is at most this many pixels
    max_detect_side: int = 2400


@dataclass(frozen=True)
class Detection:
    """One marker found in an image: its id and four corners (x, y) in image pixels."""

    marker_id: int
    corners: np.ndarray  # shape (4, 2), float32, ArUco order (marker TL, TR, BR, BL)

    @property
    def centre(self) -> np.ndarray:
        """Intersection of the diagonals: the true centre even under perspective."""
        return _diagonal_intersection(self.corners)


@dataclass(frozen=True)
class PlaneFit:
    """A checked homography from image pixels to plane millimetres."""

    image_to_plane: np.ndarray  # 3x3 float64
    layout: MarkerLayout
    reprojection_mm: float
    area_fraction: float
    side_stretch: float
    scale_used: float
    detections: Mapping[int, Detection] = field(default_factory=dict)

    @property
    def plane_to_image(self) -> np.ndarray:
        return np.linalg.inv(self.image_to_plane)

    def warp(
        self,
        image: np.ndarray,
        *,
        px_per_mm: float,
        origin_mm: Point = (0.0, 0.0),
        size_mm: tuple[float, float] | None = None,
        extra: np.ndarray | None = None,
    ) -> np.ndarray:
        """A top-down view of the plane: ``px_per_mm`` pixels per millimetre from ``origin_mm``.

        ``extra`` is a further 3x3 map applied after the plane (plane mm -> output pixels);
        when given it replaces the scale and origin.
        """
        width_mm, height_mm = size_mm or self.layout.plane_size_mm()
        if extra is None:
            extra = np.array(
                [
                    [px_per_mm, 0.0, -origin_mm[0] * px_per_mm],
                    [0.0, px_per_mm, -origin_mm[1] * px_per_mm],
                    [0.0, 0.0, 1.0],
                ]
            )
        out_size = (max(1, round(width_mm * px_per_mm)), max(1, round(height_mm * px_per_mm)))
        return cv2.warpPerspective(
            image, extra @ self.image_to_plane, out_size, flags=cv2.INTER_LINEAR
        )


def _diagonal_intersection(quad: np.ndarray) -> np.ndarray:
    p0, p1, p2, p3 = (np.asarray(p, dtype=np.float64) for p in quad)
    d1 = p2 - p0
    d2 = p3 - p1
    denom = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(denom) < 1e-9:
        centroid: np.ndarray = np.asarray(quad, dtype=np.float64).mean(axis=0)
        return centroid
    t = ((p1[0] - p0[0]) * d2[1] - (p1[1] - p0[1]) * d2[0]) / denom
    crossing: np.ndarray = p0 + t * d1
    return crossing


def dictionary(name: str) -> cv2.aruco.Dictionary:
    """The predefined ArUco dictionary ``name`` (e.g. ``"DICT_4X4_50"``)."""
    try:
        code = getattr(cv2.aruco, name)
    except AttributeError:
        raise ValueError(f"unknown ArUco dictionary {name!r}") from None
    return cv2.aruco.getPredefinedDictionary(code)


#: a level of the search is first searched in a copy this much smaller; each wanted marker
#: found there is searched again at the level's own resolution in a window round it
COARSE_FACTOR = 0.5
#: ... only when the level's longer side has at least this many pixels: below it the coarse
#: copy loses small markers and the level is searched twice
COARSE_MIN_SIDE = 1200
#: the window round a coarse find reaches this many marker sides beyond its corners, and at
#: least :data:`WINDOW_MIN_PX` pixels (the detector's largest threshold window is 23 pixels)
WINDOW_SIDES = 0.5
WINDOW_MIN_PX = 32


def _detector(name: str, *, coarse: bool = False,
              perimeter_ratio: float = 1.0) -> cv2.aruco.ArucoDetector:
    """A detector of dictionary ``name`` (``coarse``: one that only finds where markers are).

    The marker perimeter limits are rates of the searched image's longer side: a window of a
    frame gets them times ``perimeter_ratio`` (the frame's longer side over the window's), so
    that it keeps and drops outlines of the same sizes in pixels. Built per call (a few
    microseconds): a shared detector whose parameters changed would race between threads."""
    params = cv2.aruco.DetectorParameters()
    # A cut-out marker on a darker table shows two nested squares: the paper's edge and
    # the marker's black border. The default merge distance (0.125 of the perimeter in
    # recent OpenCV) can keep the paper edge and lose the marker; 0.05 keeps them apart.
    params.minMarkerDistanceRate = 0.05
    params.minMarkerPerimeterRate *= perimeter_ratio
    params.maxMarkerPerimeterRate *= perimeter_ratio
    if coarse:
        # the coarse search only says where to look: its corners are not kept, and the
        # 3-pixel threshold window (a third of its time, outlines of every speck) found no
        # marker the 13 and 23 windows missed on the benches' frames
        params.adaptiveThreshWinSizeMin = 13
    else:
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(dictionary(name), params)


def _gray(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY)
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def detect_markers(
    image: np.ndarray,
    *,
    dictionary_name: str = "DICT_4X4_50",
    wanted: Sequence[int] | None = None,
    scales: Sequence[float] = (1.0, 0.5),
    max_side: int = 2400,
) -> tuple[dict[int, Detection], float]:
    """Find markers, retrying at smaller scales until every ``wanted`` id is found.

    Returns the detections (corners in full-resolution pixels) and the scale that found them.
    When no scale finds them all, the scale with the most wanted markers wins. With ``wanted``
    ids, a scale that finds them all in windows (:func:`_search_windows`) returns only those.
    """
    gray = _gray(image)
    base = min(1.0, max_side / max(gray.shape[:2]))
    want = set(wanted) if wanted is not None else None
    best: dict[int, Detection] = {}
    best_scale = 1.0
    best_score = -1
    for n, scale in enumerate(scales):
        s = base * scale
        # a later scale is searched because a marker was missed: a coarse copy misses it too
        quads = _search_level(gray, s, dictionary_name, want, coarse_first=n == 0)
        found = {mid: Detection(mid, (quad / s).astype(np.float32)) for mid, quad in quads.items()}
        if s < 1.0 and found:
            found = _refine(gray, found, s)
        score = len(found.keys() & want) if want is not None else len(found)
        if score > best_score:
            best, best_scale, best_score = found, scale, score
        if want is not None and want <= found.keys():
            break
    return best, best_scale


def _search_level(gray: np.ndarray, s: float, name: str, want: set[int] | None, *,
                  coarse_first: bool) -> dict[int, np.ndarray]:
    """The markers of ``gray`` shrunk ``s`` times (a level of the search), as (4, 2) corners
    in the level's pixels.

    Wanted markers are first searched in windows round where the last search of this kind
    found them (:mod:`vision.marker_places`: a camera on an arm and markers taped down stay put
    between reads); then, with ``coarse_first``, a large level (:data:`COARSE_MIN_SIDE`) in
    windows round the finds of a coarse copy; when that misses a wanted marker, or else, the
    whole level is searched."""
    period = _resize_period(s)
    if not want or period is None:
        return _detect_quads(_shrunk(gray, s), _detector(name))
    key = (name, tuple(sorted(want)), gray.shape[:2], s)
    found = None
    places = remembered_places(key, gray)
    if places is not None:
        found = _search_windows(gray, s, period, name, places, moved=MOVED_SIDES)
    if found is None and coarse_first and round(max(gray.shape[:2]) * s) >= COARSE_MIN_SIDE:
        seen = _coarse_finds(gray, s, name, want)
        found = None if seen is None else _search_windows(gray, s, period, name, seen)
    if found is None:
        found = _detect_quads(_shrunk(gray, s), _detector(name))
    if want <= found.keys():
        remember_places(key, gray, {mid: found[mid] / s for mid in want})
    return found


def _shrunk(gray: np.ndarray, s: float) -> np.ndarray:
    """The whole level: ``gray`` shrunk ``s`` times (area averaging)."""
    return gray if s == 1.0 else cv2.resize(gray, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)


def _resize_period(s: float) -> tuple[int, int] | None:
    """``(p, q)`` with ``s == p / q`` (q at most 64), or None: shrinking ``s`` times maps
    every q pixels onto p, so a window whose origin is a multiple of q shrinks to the very
    pixels of the whole shrunk frame (area averaging weighs each block the same way)."""
    fraction = Fraction(s).limit_denominator(64)
    if float(fraction) != s:
        return None
    return fraction.numerator, fraction.denominator


def _coarse_finds(gray: np.ndarray, s: float, name: str,
                  want: set[int]) -> dict[int, np.ndarray] | None:
    """Where the wanted markers lie (frame pixels, rough corners) as found in a copy of
    ``gray`` about :data:`COARSE_FACTOR` times smaller than the level ``s`` (a power of two
    smaller than the frame); None when one is missed there."""
    # the power of two nearest the factor wanted, by halving: OpenCV averages 2 x 2 blocks
    # ten times faster than 3 x 3 ones (an Indigo frame to a third took longer than the
    # coarse search itself), and a quarter of it finds the markers as often as a third
    halvings = max(0, round(math.log2(1.0 / (s * COARSE_FACTOR))))
    coarse, factor = gray, 1
    while factor < 2**halvings and min(coarse.shape[:2]) >= 2:
        h, w = coarse.shape[:2]
        # an even size: an odd one takes OpenCV's general (slow) area resize
        coarse = cv2.resize(coarse[: h // 2 * 2, : w // 2 * 2], (w // 2, h // 2),
                            interpolation=cv2.INTER_AREA)
        factor *= 2
    seen = _detect_quads(coarse, _detector(name, coarse=True))
    if not want <= seen.keys():
        return None
    return {mid: seen[mid] * factor for mid in want}


def _side(quad: np.ndarray) -> float:
    """The longest side of a marker's four corners."""
    return float(np.max(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))


def _window_round(quad: np.ndarray, reach: float, q: int,
                  shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The window (x0, y0, x1, y1 in frame pixels) reaching ``reach`` beyond a marker's
    corners, its origin at a multiple of the resize period ``q``."""
    h, w = shape[:2]
    # one period more at the far ends: the last shrunk row and column of a window mix in
    # fewer source pixels than the whole frame's do there, and are cut off
    x0 = max(0, int(quad[:, 0].min() - reach) // q * q)
    y0 = max(0, int(quad[:, 1].min() - reach) // q * q)
    x1 = min(w, (int(quad[:, 0].max() + reach) // q + 2) * q)
    y1 = min(h, (int(quad[:, 1].max() + reach) // q + 2) * q)
    return x0, y0, x1, y1


def _search_windows(gray: np.ndarray, s: float, period: tuple[int, int], name: str,
                    places: Mapping[int, np.ndarray], *,
                    moved: float = 0.0) -> dict[int, np.ndarray] | None:
    """The markers of ``places`` (id -> corners in frame pixels) found at the level ``s`` in
    windows round those places (None when one is missed), in the level's pixels.

    Each window is cut from ``gray`` at a multiple of the resize period and shrunk like the
    whole level, so the detector sees the same pixels, with the same perimeter limits in
    pixels, as in the whole level: its corners lie within about 1e-4 px of a whole search's
    (the detector's sub-pixel refinement ends a few bits apart; 8 of 9 Indigo frames, session
    24), for a fraction of the work.
    ``moved``: the windows reach this many marker sides further (the marker may have moved
    since it was there), and a marker found is kept only when the window round where it is
    now lies inside the one searched, so that it was seen with the usual margin round it."""
    p, q = period
    h, w = gray.shape[:2]
    level_side = max(round(h * s), round(w * s))
    found: dict[int, np.ndarray] = {}
    for mid in sorted(places):
        quad = places[mid]
        side = _side(quad)
        x0, y0, x1, y1 = _window_round(
            quad, max(WINDOW_MIN_PX / s, WINDOW_SIDES * side) + moved * side, q, gray.shape)
        window = gray[y0:y1, x0:x1]
        if s != 1.0:
            window = cv2.resize(window, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
            window = window[: None if y1 == h else -1, : None if x1 == w else -1]
        ratio = level_side / max(window.shape[:2])
        again = _detect_quads(window, _detector(name, perimeter_ratio=ratio))
        if mid not in again:
            return None
        found[mid] = again[mid] + np.array([x0 * p // q, y0 * p // q], np.float32)
        if moved:
            now = found[mid] / s
            nx0, ny0, nx1, ny1 = _window_round(
                now, max(WINDOW_MIN_PX / s, WINDOW_SIDES * _side(now)), q, gray.shape)
            if nx0 < x0 or ny0 < y0 or nx1 > x1 or ny1 > y1:
                return None
    return found


def _detect_quads(gray: np.ndarray, detector: cv2.aruco.ArucoDetector) -> dict[int, np.ndarray]:
    """Every marker ``detector`` finds in ``gray``: id -> (4, 2) float32 corners."""
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        mid = int(marker_id)
        corner_quad = quad.reshape(4, 2)
        # a duplicate id means two sheets; keep the larger one
        if mid in found and cv2.contourArea(corner_quad) <= cv2.contourArea(found[mid]):
            continue
        found[mid] = corner_quad
    return found


def _refine(gray: np.ndarray, found: dict[int, Detection], scale: float) -> dict[int, Detection]:
    """Corners found in a shrunk frame, refined on the full-resolution frame."""
    coarse = np.stack([d.corners for d in found.values()]).astype(np.float32)
    win = max(2, int(round(1.0 / scale)) + 1)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
    # cornerSubPix moves the points it is given in place: it gets a copy
    refined = cv2.cornerSubPix(gray, coarse.reshape(-1, 1, 2).copy(), (win, win), (-1, -1),
                               criteria).reshape(-1, 4, 2)
    # keep a refinement only if it stayed near the coarse corner (blur can pull it away):
    # each marker's furthest corner move, all markers in one call
    moves = np.linalg.norm(refined - coarse, axis=2).max(axis=1)
    out = {}
    for (mid, det), quad, moved in zip(found.items(), refined, moves, strict=True):
        out[mid] = Detection(mid, quad.astype(np.float32) if float(moved) < 2.0 / scale
                             else det.corners)
    return out


def _square_error(mapped: np.ndarray, size: float) -> float:
    """Largest distance between four mapped corners and the best square of side ``size``."""
    centre = mapped.mean(axis=0)
    rel = mapped - centre
    # the ideal corners of a square at angle theta are centre + R(theta) @ (+-s/2, +-s/2)
    ideal = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], dtype=np.float64) * (size / 2)
    # best rotation (2-D Procrustes without scale)
    h = ideal.T @ rel
    theta = math.atan2(h[0, 1] - h[1, 0], h[0, 0] + h[1, 1])
    rot = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]])
    fitted = ideal @ rot.T
    return float(np.max(np.linalg.norm(rel - fitted, axis=1)))


def _apply(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, h).reshape(-1, 2)


def fit_plane(
    detections: Mapping[int, Detection],
    layout: MarkerLayout,
    *,
    image_shape: tuple[int, ...],
    checks: MarkerChecks = MarkerChecks(),
    scale_used: float = 1.0,
) -> PlaneFit:
    """Fit and check the homography from the four marker centres; refuse a bad one."""
    missing = [i for i in layout.ids if i not in detections]
    if missing:
        seen = sorted(detections)
        other = ""
        if seen and not set(seen) & set(layout.ids):
            other = f"; markers {seen} belong to another layout"
        raise FrameRefusedError(
            f"markers {missing} of {list(layout.ids)} not found (found {seen or 'none'}){other}",
            reason="no-markers" if not other else "wrong-layout",
        )
    src = np.array([detections[i].centre for i in layout.ids], dtype=np.float64)
    dst = np.array(layout.centres_mm, dtype=np.float64)
    quad = src.astype(np.float32)
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
        raise FrameRefusedError(
            "the four markers do not form a convex quadrilateral (mixed up or mirrored)",
            reason="bad-homography",
        )
    h = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
    h = h.astype(np.float64)
    # orientation: the image quad must run the same way round as the plane (no mirror)
    if _signed_area(src) * _signed_area(dst) <= 0:
        raise FrameRefusedError("the markers appear mirrored", reason="bad-homography")
    worst = 0.0
    # every marker's corners mapped in one call (each point maps alone: the same values)
    corners = np.concatenate([detections[marker_id].corners for marker_id in layout.ids])
    for mapped in _apply(h, corners).reshape(-1, 4, 2):
        worst = max(worst, _square_error(mapped, layout.size_mm))
    reprojection = worst
    if reprojection > checks.max_reprojection * layout.size_mm:
        raise FrameRefusedError(
            f"homography check failed: marker outlines off by {reprojection:.1f} mm "
            f"(limit {checks.max_reprojection * layout.size_mm:.1f} mm)",
            reason="bad-homography",
        )
    frame_area = float(image_shape[0] * image_shape[1])
    area_fraction = abs(_signed_area(src)) / frame_area
    if area_fraction < checks.min_area_fraction:
        raise FrameRefusedError(
            f"the marked area covers {area_fraction:.1%} of the frame "
            f"(needs {checks.min_area_fraction:.0%}): move the camera closer",
            reason="too-small",
        )
    stretch = _side_stretch(src, dst)
    if stretch > checks.max_side_stretch:
        raise FrameRefusedError(
            f"the marked area is stretched {stretch:.2f}x between opposite sides "
            f"(limit {checks.max_side_stretch:.2f}x): camera too oblique",
            reason="bad-homography",
        )
    return PlaneFit(h, layout, reprojection, area_fraction, stretch, scale_used, dict(detections))


def _signed_area(pts: np.ndarray) -> float:
    x = pts[:, 0]
    y = pts[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def _side_stretch(src: np.ndarray, dst: np.ndarray) -> float:
    """Worst ratio of (image length / plane length) between any two sides of the quad."""
    ratios = []
    for i in range(4):
        j = (i + 1) % 4
        plane = float(np.linalg.norm(dst[j] - dst[i]))
        img = float(np.linalg.norm(src[j] - src[i]))
        ratios.append(img / max(plane, 1e-9))
    return max(ratios) / max(min(ratios), 1e-9)


def locate(
    image: np.ndarray,
    layout: MarkerLayout,
    *,
    checks: MarkerChecks = MarkerChecks(),
) -> PlaneFit:
    """Find the layout's four markers in ``image`` and return the checked plane fit.

    Raises FrameRefusedError (reason ``no-markers``, ``wrong-layout``, ``bad-homography``,
    ``too-small``) when the frame cannot be trusted.
    """
    if image is None or image.size == 0:
        raise FrameRefusedError("empty frame", reason="no-frame")
    detections, scale = detect_markers(
        image,
        dictionary_name=layout.dictionary,
        wanted=layout.ids,
        scales=checks.retry_scales,
        max_side=checks.max_detect_side,
    )
    return fit_plane(detections, layout, image_shape=image.shape, checks=checks, scale_used=scale)


# ---------------------------------------------------------------- printing at true scale


def marker_count(dictionary_name: str = "DICT_4X4_50") -> int:
    """How many markers the dictionary holds (ids 0 .. count - 1)."""
    return int(dictionary(dictionary_name).bytesList.shape[0])


def check_marker_ids(ids: Sequence[int], *, dictionary_name: str = "DICT_4X4_50") -> None:
    """Raise ValueError naming the allowed range when an id is not in the dictionary.

    >>> check_marker_ids([0, 999])
    Traceback (most recent call last):
    ValueError: marker id 999 is outside 0..49 (DICT_4X4_50 holds 50 markers)
    """
    count = marker_count(dictionary_name)
    for marker_id in ids:
        if not 0 <= int(marker_id) < count:
            raise ValueError(
                f"marker id {marker_id} is outside 0..{count - 1} "
                f"({dictionary_name} holds {count} markers)"
            )


def marker_image(
    marker_id: int, side_px: int, *, dictionary_name: str = "DICT_4X4_50"
) -> np.ndarray:
    """The marker ``marker_id`` as a grey image of ``side_px`` pixels (black border included).

    ValueError (not OpenCV's assertion) for an id the dictionary does not hold.
    """
    check_marker_ids([marker_id], dictionary_name=dictionary_name)
    return cv2.aruco.generateImageMarker(dictionary(dictionary_name), int(marker_id), int(side_px))


def paste_marker(
    canvas: np.ndarray,
    marker_id: int,
    centre_px: Point,
    side_px: int,
    *,
    dictionary_name: str = "DICT_4X4_50",
    quiet_zone: float = 0.5,
) -> None:
    """Draw a marker with a white quiet zone (a share of its side) onto ``canvas`` in place."""
    img = marker_image(marker_id, side_px, dictionary_name=dictionary_name)
    pad = int(round(side_px * quiet_zone))
    x0 = int(round(centre_px[0] - side_px / 2))
    y0 = int(round(centre_px[1] - side_px / 2))
    white = 255 if canvas.ndim == 2 else (255,) * canvas.shape[2]
    cv2.rectangle(canvas, (x0 - pad, y0 - pad), (x0 + side_px + pad, y0 + side_px + pad), white, -1)
    if canvas.ndim == 3:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    h, w = canvas.shape[:2]
    ys, xs = slice(max(0, y0), min(h, y0 + side_px)), slice(max(0, x0), min(w, x0 + side_px))
    if ys.start >= ys.stop or xs.start >= xs.stop:
        return  # entirely off the canvas
    canvas[ys, xs] = img[ys.start - y0 : ys.stop - y0, xs.start - x0 : xs.stop - x0]


def paste_layout(
    canvas: np.ndarray,
    layout: MarkerLayout,
    *,
    origin_mm: Point,
    px_per_mm: float,
    protect: np.ndarray | None = None,
    quiet_zone: float = 0.5,
) -> None:
    """Draw a layout's markers at true scale onto a scene whose pixel (0, 0) is ``origin_mm``.

    ``protect`` (a mask of the canvas size) is set to 255 around each marker, so that a
    renderer's clutter and shadows leave the markers readable, as printed ones would be.
    """
    side = int(round(layout.size_mm * px_per_mm))
    for marker_id, (mx, my) in zip(layout.ids, layout.centres_mm, strict=True):
        cx, cy = (mx - origin_mm[0]) * px_per_mm, (my - origin_mm[1]) * px_per_mm
        paste_marker(canvas, marker_id, (cx, cy), side, dictionary_name=layout.dictionary,
                     quiet_zone=quiet_zone)
        if protect is not None:
            protect[
                max(0, int(cy - side)) : int(cy + side), max(0, int(cx - side)) : int(cx + side)
            ] = 255


def marker_plane_image(
    layout: MarkerLayout, *, px_per_mm: float, background: int = 255
) -> np.ndarray:
    """A BGR top-down image of the layout's plane with its four markers drawn at true scale."""
    width_mm, height_mm = layout.plane_size_mm()
    canvas = np.full(
        (round(height_mm * px_per_mm), round(width_mm * px_per_mm), 3), background, np.uint8
    )
    side = int(round(layout.size_mm * px_per_mm))
    for marker_id, (cx, cy) in zip(layout.ids, layout.centres_mm, strict=True):
        paste_marker(
            canvas,
            marker_id,
            (cx * px_per_mm, cy * px_per_mm),
            side,
            dictionary_name=layout.dictionary,
        )
    return canvas


#: A4 portrait in millimetres
A4_MM = (210.0, 297.0)


def marker_sheets(
    ids: Sequence[int],
    *,
    size_mm: float = 40.0,
    dpi: int = 300,
    page_mm: tuple[float, float] = A4_MM,
    dictionary_name: str = "DICT_4X4_50",
    title: str = "Tabletop Companion markers",
) -> list[np.ndarray]:
    """Printable pages (grey, ``dpi`` dots per inch) with the markers in a grid, each labelled.

    Cut them out along the dashed boxes; each is exactly ``size_mm`` wide when printed at 100%.
    As many pages as needed are made. ValueError for an id the dictionary does not hold.
    """
    check_marker_ids(ids, dictionary_name=dictionary_name)
    px_per_mm = dpi / 25.4
    width, height = (round(page_mm[0] * px_per_mm), round(page_mm[1] * px_per_mm))
    side = int(round(size_mm * px_per_mm))
    cell = side * 1.6 + 8 * px_per_mm  # quiet zone 0.25 side each way plus label room
    top = 25 * px_per_mm
    cols = max(1, int((width - 10 * px_per_mm) // cell))
    rows = max(1, int((height - top - 5 * px_per_mm) // cell))
    if cell > width - 4 * px_per_mm or top + cell > height:
        raise ValueError(f"a marker of {size_mm:g} mm does not fit on a page")
    per_page = cols * rows
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = max(0.5, px_per_mm / 6)
    pages = []
    for first in range(0, len(ids), per_page):
        page = np.full((height, width), 255, np.uint8)
        cv2.putText(page, title, (int(10 * px_per_mm), int(12 * px_per_mm)), font, scale, 0, 2)
        cv2.putText(
            page,
            f"print at 100% ({dpi} dpi); each marker is {size_mm:g} mm",
            (int(10 * px_per_mm), int(19 * px_per_mm)),
            font,
            scale * 0.7,
            0,
            1,
        )
        x_start = (width - cols * cell) / 2 + cell / 2
        y_start = top + cell / 2
        for n, marker_id in enumerate(ids[first : first + per_page]):
            cx = x_start + (n % cols) * cell
            cy = y_start + (n // cols) * cell - 3 * px_per_mm
            paste_marker(
                page, marker_id, (cx, cy), side, dictionary_name=dictionary_name, quiet_zone=0.25
            )
            _dashed_box(page, (cx, cy), side * 0.8)
            cv2.putText(
                page,
                f"id {marker_id}",
                (int(cx - side / 2), int(cy + side * 0.8 + 5 * px_per_mm)),
                font,
                scale * 0.7,
                0,
                1,
            )
        pages.append(page)
    return pages


def _dashed_box(page: np.ndarray, centre: Point, half: float) -> None:
    """A grey dashed square (the cutting line) around ``centre``."""
    x0, y0 = int(centre[0] - half), int(centre[1] - half)
    x1, y1 = int(centre[0] + half), int(centre[1] + half)
    for t in range(0, x1 - x0, 16):
        page[y0 : y0 + 2, x0 + t : min(x1, x0 + t + 8)] = 120
        page[y1 : y1 + 2, x0 + t : min(x1, x0 + t + 8)] = 120
    for t in range(0, y1 - y0, 16):
        page[y0 + t : min(y1, y0 + t + 8), x0 : x0 + 2] = 120
        page[y0 + t : min(y1, y0 + t + 8), x1 : x1 + 2] = 120


def marker_sheet(
    ids: Sequence[int],
    *,
    size_mm: float = 40.0,
    dpi: int = 300,
    page_mm: tuple[float, float] = A4_MM,
    dictionary_name: str = "DICT_4X4_50",
    title: str = "Tabletop Companion markers",
) -> np.ndarray:
    """The first page of :func:`marker_sheets` (enough for four markers up to 70 mm)."""
    return marker_sheets(ids, size_mm=size_mm, dpi=dpi, page_mm=page_mm,
                         dictionary_name=dictionary_name, title=title)[0]


def write_image(path: Path, image: np.ndarray | Sequence[np.ndarray], *, dpi: int) -> None:
    """Write PNG (with its dpi) or PDF (pages at ``dpi``, so they print at true scale).

    Several pages go into one PDF; as PNG they are stacked vertically (kept for existing
    callers: :func:`vision.image_io.write_pages` writes one PNG per page instead). A missing
    folder is an ImageWriteError, another extension an ImageFormatError (a ValueError).
    """
    from PIL import Image

    check_writable(path, suffixes=PAGE_SUFFIXES)
    pages = [image] if isinstance(image, np.ndarray) else list(image)
    suffix = path.suffix.lower()
    pils = [
        Image.fromarray(cv2.cvtColor(p, cv2.COLOR_BGR2RGB) if p.ndim == 3 else p) for p in pages
    ]
    if suffix == ".pdf":
        rgb = [p.convert("RGB") for p in pils]
        rgb[0].save(path, "PDF", resolution=float(dpi), save_all=True, append_images=rgb[1:])
    elif suffix == ".png":
        if len(pages) > 1:
            stacked = np.vstack([np.asarray(p.convert("RGB")) for p in pils])
            pils = [Image.fromarray(stacked)]
        pils[0].save(path, "PNG", dpi=(dpi, dpi))
    else:
        raise ValueError(f"{path}: write .pdf or .png, not {suffix or 'no extension'}")
