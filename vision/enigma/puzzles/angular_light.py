"""Doubts of the angular check about the light: pieces it could not tell from the table.

A "not solved" is only said of a structure the camera saw whole. In a light that moves the
pieces' colours towards the table's (over- or under-exposed, a piece of the table's own
colour), the check says it cannot tell instead (:mod:`vision.enigma.puzzles.angular`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import cv2
import numpy as np

from companion.enigma.puzzles import PuzzleBox
from vision.enigma.colours import colour_features
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.view import (
    TABLE_RING_OF_PAPER,
    CardView,
    mat_features,
    nearest_colour,
    open_mask,
)
from vision.enigma.table_colour import ring_pixels

#: a blob of piece colours larger than this many times all the box's cubes side by side is
#: the table taken for a piece (a tilted camera sees a tall structure's sides as well, and
#: its top nearer the lens, larger)
MAX_BLOB_OF_CUBES = 1.5


def table_as_piece(stats: np.ndarray, blobs: list[int], cube: float, box: PuzzleBox) -> bool:
    """Whether a blob is too large to be the pieces: the table's own colour, in this light,
    is nearer a piece's colour than the table's colour measured round the markers."""
    cubes = sum(len(p.cubes) for p in box.angular.pieces)
    return any(stats[i, cv2.CC_STAT_AREA] > MAX_BLOB_OF_CUBES * cubes * cube * cube
               for i in blobs)


#: the table beside a structure is measured on a band from ``TABLE_BAND[0]`` to
#: ``TABLE_BAND[1]`` cubes out from it, past the structure's shadow
TABLE_BAND = (1.0, 2.5)
#: a pixel near the structure is unlike the table when it lies this many times the band's own
#: 95th-percentile spread from the band's median (the light's fall across the band included),
#: plus a floor for a band of even colour (chromaticity, brightness; colour_features units)
UNLIKE_SPREAD, UNLIKE_FLOOR = 2.0, (5.0, 0.5)


def grown(mask: np.ndarray, radius: float) -> np.ndarray:
    """``mask`` dilated by OpenCV's elliptic kernel of side ``2 * int(radius) + 1`` (at
    least 3), as ``cv2.dilate`` of the whole mask gives it (:func:`grown_by`)."""
    return grown_by(mask, (radius,))[0]


def grown_by(mask: np.ndarray, radii: tuple[float, ...]) -> list[np.ndarray]:
    """``mask`` dilated by OpenCV's elliptic kernel of each radius ``r = max(1, int(radius))``:
    the same pixels as ``cv2.dilate`` of the whole mask, from one distance transform.

    The kernel's row ``dy`` (``|dy| <= r``) holds the ``dx`` with ``|dx| <=
    round(sqrt(r*r - dy*dy))``; for ``dx != 0`` that is ``(2|dx| - 1)^2 + (2dy)^2 <= 4r^2 - 3``
    (no half-way ties: the sides are whole numbers and a quarter), the squared distance, on a
    grid of half pixels, to the nearer of two points half a pixel left and right of a mask
    pixel. Such squared distances are 1 more than a multiple of 4, so the test is made
    halfway to the next one (``4r^2 - 1``), safe from the float distance's rounding. The
    kernel's middle column (``dx = 0``, ``|dy| <= r``) is a vertical dilation. Only the box
    round the mask's pixels (the largest ``r`` more each way) is measured: nothing farther
    can be reached. The angular check's three radii (a structure's band of 2.5 cubes: a
    kernel of 241 px) cost about 150 ms as dilations of that box, about 15 ms this way."""
    rs = [max(1, int(radius)) for radius in radii]
    outs = [np.zeros(mask.shape, bool) for _ in rs]
    ys, xs = np.nonzero(mask)
    if not len(ys):
        return outs
    far = max(rs)
    y0, y1 = max(0, int(ys.min()) - far), min(mask.shape[0], int(ys.max()) + far + 1)
    x0, x1 = max(0, int(xs.min()) - far), min(mask.shape[1], int(xs.max()) + far + 1)
    box = mask[y0:y1, x0:x1].astype(bool)
    h, w = box.shape
    # the half-pixel grid: rows 2y, columns 2x (points beside pixel x at 2x and 2x + 2)
    grid = np.full((2 * h - 1, 2 * w + 1), 255, np.uint8)
    beside = np.zeros((h, w + 1), bool)
    beside[:, 1:] |= box
    beside[:, :-1] |= box
    grid[0::2, 0::2][beside] = 0
    half_px = cv2.distanceTransform(grid, cv2.DIST_L2, cv2.DIST_MASK_PRECISE)[0::2, 1::2]
    for r, out in zip(rs, outs, strict=True):
        column = cv2.dilate(box.astype(np.uint8), np.ones((2 * r + 1, 1), np.uint8)) > 0
        out[y0:y1, x0:x1] = column | (half_px <= np.float32(np.sqrt(4 * r * r - 1)))
    return outs


def _unexplained_near(view: CardView, area: np.ndarray, built: np.ndarray, cube: float
                      ) -> np.ndarray:
    """What lies within a cube of the built pieces and is neither piece nor table: unlike
    the table beside it in colour, or brighter. A piece whose colour the light has moved
    towards the table's (a blue piece burnt out over blue cloth) shows here; a piece's
    shadow (the table, darker) does not."""
    near, far, touching = grown_by(built, (TABLE_BAND[0] * cube, TABLE_BAND[1] * cube,
                                           0.1 * cube))
    band = far & ~near & area
    if not band.any():
        return np.zeros_like(built)
    # measured on the box round the band only (the colours per pixel, the band's median and
    # percentiles whatever the pixels' order): the same values as over the whole mat
    x, y, w, h = cv2.boundingRect(far.view(np.uint8))
    box = (slice(y, y + h), slice(x, x + w))
    band = band[box]
    feats = mat_features(view)[box]
    table = np.median(feats[band], axis=0)
    chroma = np.hypot(feats[..., 0] - table[0], feats[..., 1] - table[1])
    brighter = feats[..., 2] - table[2]
    chroma_limit = UNLIKE_SPREAD * np.percentile(chroma[band], 95) + UNLIKE_FLOOR[0]
    bright_limit = UNLIKE_SPREAD * np.percentile(np.abs(brighter[band]), 95) + UNLIKE_FLOOR[1]
    gap = (near & ~touching & area)[box]
    unlike = np.zeros_like(built)
    unlike[box] = gap & ((chroma > chroma_limit) | (brighter > bright_limit))
    return open_mask(unlike, max(1, int(0.15 * cube)))


def pieces_unseen(view: CardView, area: np.ndarray, built: np.ndarray, cube: float) -> bool:
    """Whether something beside the built pieces (in ``area``, the mat where one builds) is
    neither piece nor table, so that a "not solved" would rest on pieces the camera may not
    have seen: over-exposed, blue cubes read as blue cloth split a structure in two."""
    unexplained = _unexplained_near(view, area, built, cube)
    return bool(unexplained.sum() > 0.5 * cube * cube)


def _features(bgr: Any) -> np.ndarray:
    return np.asarray(colour_features(np.asarray(bgr, np.float32)))


def table_like_colours(table_bgr: tuple[int, int, int], pack: EnigmaPack) -> list[str]:
    """The piece colours the table seen round the markers (``table_bgr``, measured by
    :func:`~vision.enigma.puzzles.view.table_colour`) is nearer to than any other piece
    colour is: the camera may see those cubes as table."""
    table = _features(table_bgr)
    pieces = {name: _features(bgr) for name, bgr in pack.angular.items()}
    return [name for name, f in pieces.items()
            if float(np.sum((f - table) ** 2)) < min(float(np.sum((f - g) ** 2))
                                                     for other, g in pieces.items()
                                                     if other != name)]


def fewer_of_table_colours(seen: tuple[str, ...], card: tuple[str, ...],
                            colours: list[str]) -> bool:
    """Whether the top view seen shows fewer cubes of a table-like colour than the card: they
    may be there, seen as table (a red piece on red cloth, in a dark frame, read as cloth)."""
    return any(sum(row.count(c) for row in seen) < sum(row.count(c) for row in card)
               for c in colours)


#: a piece colour that at least this share of the bare table round a marker is nearer to
#: than to the table's middle colour, the card's paper, white or black, round PATTERN_RINGS
#: of the markers, is a colour of the table's own pattern: a checked cloth's dark checks
#: (independent scenes, blue and red gingham, tuning seeds 1 and 11 moderate: 8.5 % and 15 %
#: of the rings; plain cloth and felt 0.0 %; painted wood's grain up to 9 %, nearest yellow)
PATTERN_SHARE = 0.03
#: round this many markers at least: a pattern repeats round every marker, a piece set apart
#: lies by one of them at most (tuning seed 15 mild, wood: a yellow piece left by a marker
#: was a quarter of its ring)
PATTERN_RINGS = 2


def table_pattern(view: CardView, pack: EnigmaPack, table_bgr: tuple[int, int, int]
                  ) -> dict[str, tuple[int, int, int]]:
    """Per piece colour that the table's own pattern shows round the mat's markers
    (:data:`PATTERN_SHARE`, :data:`PATTERN_RINGS`; ``table_bgr`` the table's middle colour
    there), the median colour of the table's pixels nearest it. The middle colour of a
    checked cloth is neither of its colours, so its dark checks lie nearer a piece than that
    middle colour; they are told from the piece by the checks' own colour."""
    colours = {**pack.angular, "table": table_bgr, "card": pack.colour("card"),
               "white": (250, 250, 250), "black": (20, 20, 20)}
    found: dict[str, list[np.ndarray]] = {name: [] for name in pack.angular}
    for centre in view.marker_centres:
        ring = ring_pixels(view.mat, centre, view.marker_px, np.eye(3),
                           sides_out=TABLE_RING_OF_PAPER)
        if not len(ring):
            continue
        labels, names = nearest_colour(ring[:, None, :], colours)
        for name in pack.angular:
            these = ring[labels.ravel() == names.index(name)]
            if len(these) >= PATTERN_SHARE * len(ring):
                found[name].append(these)
    pattern = {}
    for name, parts in found.items():
        if len(parts) >= PATTERN_RINGS:
            b, g, r = (int(round(float(v))) for v in np.median(np.concatenate(parts), axis=0))
            pattern[name] = (b, g, r)
    return pattern


def apart_of_piece_colours(view: CardView, pack: EnigmaPack, lab: np.ndarray,
                           apart: list[int], table_bgr: tuple[int, int, int]) -> list[int]:
    """The blobs of ``apart`` that look like a piece rather than like the table (of colour
    ``table_bgr``): a patch of cloth darker than the rest (a red cloth's shading in a dark
    frame) falls nearer a table-like piece colour than any other, but nearer still to the
    table's own colour. A checked cloth's checks are left out before
    (:func:`of_table_pattern`)."""
    table = _features(table_bgr)
    pieces = {name: _features(bgr) for name, bgr in pack.angular.items()}
    like_table = table_like_colours(table_bgr, pack)

    def looks_like_piece(blob: int) -> bool:
        name, seen = _nearest_piece(view, lab, blob, pieces)
        return name not in like_table or \
            float(np.sum((pieces[name] - seen) ** 2)) < float(np.sum((table - seen) ** 2))

    return [i for i in apart if looks_like_piece(i)]


def _nearest_piece(view: CardView, lab: np.ndarray, blob: int,
                   pieces: Mapping[str, np.ndarray]) -> tuple[str, np.ndarray]:
    """The piece colour (of ``pieces``' features) nearest the median colour of ``blob`` in
    the label image ``lab``, and that median's features."""
    seen = _features(np.median(view.mat[lab == blob].reshape(-1, 3), axis=0))
    return min(pieces, key=lambda n: float(np.sum((pieces[n] - seen) ** 2))), seen


def of_table_pattern(view: CardView, pack: EnigmaPack, lab: np.ndarray, blobs: list[int],
                     pattern: Mapping[str, tuple[int, int, int]]) -> list[int]:
    """The blobs of ``blobs`` (ids in the label image ``lab``) whose median colour lies
    nearer the colour the table's pattern shows of their nearest piece colour
    (:func:`table_pattern`) than that piece colour: a checked cloth's checks, table (blue
    gingham, tuning seeds 1 and 11 moderate: a structure built mirror-wise, with blue checks
    round it, was "a piece lies apart", as a right one would be)."""
    pieces = {name: _features(bgr) for name, bgr in pack.angular.items()}

    def of_pattern(blob: int) -> bool:
        name, seen = _nearest_piece(view, lab, blob, pieces)
        return name in pattern and float(np.sum((_features(pattern[name]) - seen) ** 2)) < \
            float(np.sum((pieces[name] - seen) ** 2))

    return [i for i in blobs if pattern and of_pattern(i)]


__all__ = ["PATTERN_RINGS", "PATTERN_SHARE", "apart_of_piece_colours",
           "fewer_of_table_colours", "grown", "grown_by", "of_table_pattern", "pieces_unseen",
           "table_as_piece", "table_like_colours", "table_pattern"]
