"""Bilinear warps that give the same pixels on every OpenCV version the appliance supports.

``cv2.warpPerspective`` / ``cv2.warpAffine`` were reimplemented in OpenCV 4.11/5.x: the new
code interpolates with float weights where 4.10 (the Raspberry Pi floor) rounds the source
coordinate to 1/32 pixel first. The pixels differ by up to 3 grey levels, which is enough to
move a colour-classified edge by a pixel, turn the fitted puzzle card by 0.2 degrees and flip
a borderline decision. ``cv2.remap`` with fixed-point maps (``cv2.convertMaps`` to
``CV_16SC2``) is the same on both, so the Enigma code builds the maps itself (float64, in
numpy) and remaps through them. (``INTER_AREA`` has no meaning for a general warp: OpenCV
uses bilinear for it too, as these helpers do.)
"""

from __future__ import annotations

import cv2
import numpy as np

#: OpenCV's fixed-point maps keep 1/32 pixel fractions (INTER_BITS = 5) in ``m2``: x's in
#: the low bits, y's above them
_FRACTION_BITS = 5
_FRACTIONS = 1 << _FRACTION_BITS
#: a projective denominator nearer zero than this is clamped (a point on the horizon)
_MIN_DENOMINATOR = 1e-12
#: the maps are built this many rows at a time (about 300 kB of float64 a band on a
#: straightened table 875 pixels wide)
MAP_BAND_ROWS = 48


def _remap(image: np.ndarray, map_x: np.ndarray, map_y: np.ndarray, *, nearest: bool,
           border_value: float | tuple[float, ...]) -> np.ndarray:
    m1, m2 = cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)
    return _remap_fixed(image, m1, m2, nearest=nearest, border_value=border_value)


def _remap_fixed(image: np.ndarray, m1: np.ndarray, m2: np.ndarray, *, nearest: bool,
                 border_value: float | tuple[float, ...]) -> np.ndarray:
    return cv2.remap(image, m1, m2, cv2.INTER_NEAREST if nearest else cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=border_value)


def _denominator(inv: np.ndarray, xs: np.ndarray, ys: np.ndarray, clamp: bool
                 ) -> np.ndarray | None:
    """The projective denominator per output pixel, clamped away from zero when ``clamp``
    (:func:`_needs_clamp`); None where it is exactly 1 everywhere (an affine warp), so the
    division can be skipped (x / 1.0 == x)."""
    if inv[2, 0] == 0.0 and inv[2, 1] == 0.0 and inv[2, 2] == 1.0:
        return None
    den: np.ndarray = inv[2, 0] * xs + inv[2, 1] * ys
    den += inv[2, 2]
    if clamp:
        den = np.where(np.abs(den) < _MIN_DENOMINATOR, _MIN_DENOMINATOR, den)
    return den


def _needs_clamp(inv: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> bool:
    """Whether some pixel's denominator may lie within :data:`_MIN_DENOMINATOR` of zero.
    Each rounded step is monotonic in x and in y, so the extremes are at the corners: when
    the corners keep one sign away from zero, no pixel needs the clamp (the common case)."""
    corners = _denominator(inv, xs[:, [0, -1]], ys[[0, -1], :], False)
    if corners is None:
        return False
    return not (corners.min() >= _MIN_DENOMINATOR or corners.max() <= -_MIN_DENOMINATOR)


def _source_map(inv_row: np.ndarray, xs: np.ndarray, ys: np.ndarray,
                den: np.ndarray | None, out: np.ndarray) -> None:
    """One float32 remap map into ``out``: (a*x + b*y + c) / den, summed in that order in
    float64 and rounded to float32 once, so the map is the same to the bit as building it
    from full coordinate grids (which cost two extra h x w arrays and a cast pass per warp)."""
    top: np.ndarray = inv_row[0] * xs + inv_row[1] * ys  # broadcasts (1, w) + (h, 1) to (h, w)
    top += inv_row[2]
    if den is None:
        out[...] = top
    else:
        np.divide(top, den, out=out, casting="same_kind")


def warp_perspective(image: np.ndarray, matrix: np.ndarray, size: tuple[int, int], *,
                     nearest: bool = False, border_value: float | tuple[float, ...] = 0,
                     origin: tuple[int, int] = (0, 0), step: int = 1) -> np.ndarray:
    """Like ``cv2.warpPerspective(image, matrix, size)``: ``matrix`` maps source pixels to
    output pixels; ``size`` is (width, height). ``origin`` and ``step``: the ``size`` output
    pixels from that one, every ``step``-th along each axis (:func:`perspective_maps`): the
    same pixels to the bit as those cut from the whole warp (each output pixel is
    interpolated from its own map entry alone)."""
    map_x, map_y = perspective_maps(matrix, size, origin=origin, step=step)
    return _remap(image, map_x, map_y, nearest=nearest, border_value=border_value)


def is_seen_whole(matrix: np.ndarray, size: tuple[int, int], shape: tuple[int, ...]) -> bool:
    """Whether every pixel of the ``size`` warp's output (``matrix`` maps ``shape``'s pixels
    to the output's) comes from a point at least a pixel inside the picture, so that
    :func:`warp_perspective_seen` calls all of it seen. Judged at the output's four corners:
    along a row or a column a projective map is monotonic where its denominator keeps its
    sign, so every pixel's source lies within the corners' (a pixel's margin more covers
    the float32 and 1/32-pixel roundings of the maps)."""
    w, h = int(size[0]), int(size[1])
    inv = np.linalg.inv(np.asarray(matrix, np.float64))
    corners = np.array([[0, 0, 1], [w - 1, 0, 1], [0, h - 1, 1], [w - 1, h - 1, 1]],
                       np.float64) @ inv.T
    if corners[:, 2].min() < _MIN_DENOMINATOR:
        return False
    xs, ys = corners[:, 0] / corners[:, 2], corners[:, 1] / corners[:, 2]
    rows, cols = shape[:2]
    return bool(xs.min() >= 1 and ys.min() >= 1 and xs.max() <= cols - 3
                and ys.max() <= rows - 3)


def warp_perspective_seen(image: np.ndarray, matrix: np.ndarray, size: tuple[int, int], *,
                          origin: tuple[int, int] = (0, 0)) -> tuple[np.ndarray, np.ndarray]:
    """``warp_perspective`` (bilinear, black border) and, from the same maps, which output
    pixels show the picture: where the source point, rounded to the nearest pixel, lies
    inside the image. The rounding is read off the fixed-point maps (whole part, and 1/32
    fractions in the interpolation table's index), not left to a second, nearest warp of a
    white image: OpenCV 4.10's nearest remap rounds those maps differently from 4.11's, and
    the mask would move by a pixel at the picture's edge between the two.

    ``origin``: the output's top-left pixel is this pixel of the whole output, so a part of
    a warp is the same to the bit as that part cut from the whole one."""
    map_x, map_y = perspective_maps(matrix, size, origin=origin)
    m1, m2 = cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)
    warped = _remap_fixed(image, m1, m2, nearest=False, border_value=0)
    rows, cols = image.shape[:2]
    # a whole part at least a pixel inside the picture is seen whatever its fraction: when
    # every pixel's is (the common case), the fractions need not be looked at
    inner = cv2.inRange(m1, (0, 0), (cols - 2, rows - 2))
    if cv2.countNonZero(inner) == inner.size:
        return warped, np.ones(inner.shape, bool)
    half = _FRACTIONS // 2
    fractions = np.asarray(m2, np.int32)
    xs = m1[..., 0] + ((fractions & (_FRACTIONS - 1)) >= half)
    ys = m1[..., 1] + ((fractions >> _FRACTION_BITS) >= half)
    seen: np.ndarray = (xs >= 0) & (xs < cols) & (ys >= 0) & (ys < rows)
    return warped, seen


def perspective_maps(matrix: np.ndarray, size: tuple[int, int], *,
                     origin: tuple[int, int] = (0, 0), step: int = 1
                     ) -> tuple[np.ndarray, np.ndarray]:
    """The float32 (map_x, map_y) ``cv2.remap`` needs for ``warp_perspective``: per output
    pixel, the source point the inverse of ``matrix`` sends it to. ``origin``: the maps of
    the ``size`` box whose top-left is that output pixel (the same values as that box cut
    from the maps of a larger output); ``step``: of every ``step``-th pixel of the output
    along each axis from there (the same values as the larger maps sampled so)."""
    w, h = int(size[0]), int(size[1])
    inv = np.linalg.inv(np.asarray(matrix, np.float64))
    # whole numbers, exact in float64 whichever way they are made
    xs = (origin[0] + step * np.arange(w, dtype=np.float64))[np.newaxis, :]
    ys = (origin[1] + step * np.arange(h, dtype=np.float64))[:, np.newaxis]
    clamp = _needs_clamp(inv, xs, ys)
    map_x, map_y = np.empty((h, w), np.float32), np.empty((h, w), np.float32)
    # built a band of rows at a time: the float64 sums of a band stay in the processor's
    # cache (a whole straightened table's are 7 MB each), the same values per pixel
    for r0 in range(0, h, MAP_BAND_ROWS):
        band = ys[r0:r0 + MAP_BAND_ROWS]
        den = _denominator(inv, xs, band, clamp)
        _source_map(inv[0], xs, band, den, map_x[r0:r0 + MAP_BAND_ROWS])
        _source_map(inv[1], xs, band, den, map_y[r0:r0 + MAP_BAND_ROWS])
    return map_x, map_y


def warp_affine(image: np.ndarray, matrix: np.ndarray, size: tuple[int, int], *,
                nearest: bool = False, border_value: float | tuple[float, ...] = 0
                ) -> np.ndarray:
    """Like ``cv2.warpAffine(image, matrix, size)`` for a 2x3 ``matrix``."""
    full = np.vstack([np.asarray(matrix, np.float64).reshape(2, 3), [0.0, 0.0, 1.0]])
    return warp_perspective(image, full, size, nearest=nearest, border_value=border_value)


__all__ = ["is_seen_whole", "perspective_maps", "warp_affine", "warp_perspective",
           "warp_perspective_seen"]
