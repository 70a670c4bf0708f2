"""Teaching an Enigma pack from photos of the players' own pieces.

Three small steps, each from one frame of the table markers (``vision.enigma.marker_*``):

1. :func:`teach_start`: only the start tile lies near the middle. Its square is found against
   the table, its side gives the tile size (``sizes.tile_mm``), its straightened face becomes
   the pack's start image, and the table's and the tile's colours are measured around it.
2. :func:`teach_colours`: the players point at things on the table (the touchscreen, or
   ``--sample NAME=X,Y`` in millimetres of the marker frame): ``cells.red``, ``channel``,
   ``networkers.black``, ``table``, ``tile``... Each named colour is the median around that
   point (a small disc, so a pawn's rim or a channel's edge does not count).
3. :func:`teach_icons`: the four category icons, each from the middle of a tile of that
   category (optional: without them the reader does not report categories).

Everything else (sizes as fractions of the tile, port positions) comes from the pack taught
from (the demo pack by default), and the user confirms each tile's graph as the rules digest
asks (section 7), which is not the camera's job.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

import cv2
import numpy as np

from companion.enigma.catalogue import CATEGORIES
from vision.art_pack import BGR
from vision.enigma.colours import colour_features
from vision.enigma.geometry import TableGeometry, table_geometry
from vision.enigma.pack import PLAIN_COLOURS, EnigmaPack
from vision.enigma.settings import DEFAULT_SETTINGS, DEFAULT_TABLE, TableSettings
from vision.enigma.squares import balance, find_start, rectify
from vision.errors import ArtPackError, FrameRefusedError
from vision.markers import locate
from vision.warp import warp_affine, warp_perspective

#: px per mm of the straightened frame used while teaching
TEACH_PX_PER_MM = 4.0
#: the start face's likeness accepted while teaching: the pack being taught is not yet the
#: table's, so its start face matches the table's start tile less well than when reading
TEACH_START_MIN_SCORE = 0.3


def _plane(frame: np.ndarray, geometry: TableGeometry) -> tuple[np.ndarray, np.ndarray]:
    fit = locate(frame, geometry.layout)
    w_mm, h_mm = geometry.frame_mm
    s = TEACH_PX_PER_MM
    to_img = np.array([[s, 0, w_mm / 2 * s], [0, s, h_mm / 2 * s], [0, 0, 1]], np.float64)
    image = warp_perspective(frame, to_img @ fit.image_to_plane,
                             (int(round(w_mm * s)), int(round(h_mm * s))))
    return image, to_img


def _balanced_plane(frame: np.ndarray, pack: EnigmaPack, geometry: TableGeometry
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The straightened table with its colour cast removed as the reader removes it (the
    start tile given its pack colours), so taught colours match what the reader compares."""
    p = DEFAULT_SETTINGS.px_per_tile
    fit = locate(frame, geometry.layout)
    canon, plane_to_canon = rectify(frame, fit, geometry, p)
    gray = cv2.cvtColor(canon, cv2.COLOR_BGR2GRAY)
    sx, sy, _ = find_start(gray, pack, p,
                           replace(DEFAULT_SETTINGS, start_min_score=TEACH_START_MIN_SCORE))
    return balance(canon, (sx, sy), pack, p), plane_to_canon


def _as_bgr(values: np.ndarray) -> BGR:
    b, g, r = (int(v) for v in values)
    return (b, g, r)


def _median_colour(image: np.ndarray, centre: tuple[float, float], radius: float) -> BGR:
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    disc = (xx - centre[0]) ** 2 + (yy - centre[1]) ** 2 <= radius ** 2
    if not disc.any():
        raise FrameRefusedError(f"the point {centre} lies outside the marker frame",
                                reason="outside")
    return _as_bgr(np.median(image[disc], axis=0))


def teach_start(frame: np.ndarray, base: EnigmaPack, *, table: TableSettings = DEFAULT_TABLE,
                face_px: int = 128) -> EnigmaPack:
    """The pack with the start tile's face, the tile size and the table and tile colours
    learned from a frame showing the start tile alone near the middle of the table."""
    geometry = table_geometry(table, base)
    image, _ = _plane(frame, geometry)
    h, w = image.shape[:2]
    # the table is what the frame mostly shows; the start tile is what differs near the middle
    ring = np.zeros((h, w), bool)
    m = int(0.15 * min(h, w))
    ring[m:2 * m, :] = ring[h - 2 * m:h - m, :] = True
    table_bgr = np.median(image[ring], axis=0).astype(np.float32)
    feats = colour_features(image)
    diff = np.sqrt(((feats - colour_features(table_bgr)) ** 2).sum(axis=-1))
    mask = (diff > 12.0).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    n, lab, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    middle = [k for k in range(1, n)
              if abs(cents[k][0] - w / 2) < 0.25 * w and abs(cents[k][1] - h / 2) < 0.25 * h]
    if not middle:
        raise FrameRefusedError("no tile near the middle of the table", reason="no-start-tile")
    k = max(middle, key=lambda i: stats[i, cv2.CC_STAT_AREA])
    ys, xs = np.nonzero(lab == k)
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
    if max(rw, rh) > 1.15 * min(rw, rh):
        raise FrameRefusedError(
            f"the thing near the middle is not square ({rw / TEACH_PX_PER_MM:.0f} x "
            f"{rh / TEACH_PX_PER_MM:.0f} mm): lay the start tile alone", reason="not-square")
    side = (rw + rh) / 2
    tile_mm = side / TEACH_PX_PER_MM
    angle = ((angle + 45) % 90) - 45
    rot = cv2.getRotationMatrix2D((cx, cy), angle, face_px / side)
    rot[0, 2] += face_px / 2 - cx
    rot[1, 2] += face_px / 2 - cy
    face = warp_affine(image, rot, (face_px, face_px))
    border = np.zeros((face_px, face_px), bool)
    b = face_px // 10
    border[b:2 * b, b:-b] = border[-2 * b:-b, b:-b] = True
    border[b:-b, b:2 * b] = border[b:-b, -2 * b:-b] = True
    pixels = face[border].astype(np.float32)
    bright = pixels[pixels.sum(axis=1) >= np.percentile(pixels.sum(axis=1), 40)]
    tile = _as_bgr(np.median(bright, axis=0))
    colours = {**base.colours, "table": _as_bgr(table_bgr), "tile": tile}
    return replace(base, start=face, colours=colours,
                   sizes={**base.sizes, "tile_mm": round(float(tile_mm), 1)})


def teach_colours(frame: np.ndarray, base: EnigmaPack, samples: Mapping[str, tuple[float, float]],
                  *, table: TableSettings = DEFAULT_TABLE, radius_mm: float | None = None
                  ) -> EnigmaPack:
    """The pack with the colours named in ``samples`` (name -> point in marker-frame mm)
    measured in ``frame``. Names: a plain colour (``channel``, ``tile``, ``table``...),
    ``cells.<colour>``, ``networkers.<player colour>`` or ``angular.<letter>``."""
    geometry = table_geometry(table, base)
    image, to_img = _balanced_plane(frame, base, geometry)
    scale = to_img[0, 0]
    r = (radius_mm if radius_mm is not None else
         0.5 * base.networker_radius * geometry.tile_mm) * scale
    colours = dict(base.colours)
    groups: dict[str, dict[str, BGR]] = {"cells": dict(base.cells),
                                         "networkers": dict(base.networkers),
                                         "angular": dict(base.angular)}
    for name, (x, y) in samples.items():
        p = to_img @ np.array([x, y, 1.0])
        colour = _median_colour(image, (float(p[0]), float(p[1])), max(1.5, r))
        if "." in name:
            group, key = name.split(".", 1)
            if group not in groups or not key:
                raise ArtPackError(f"cannot teach {name!r}: use cells.<name>, "
                                   "networkers.<name> or angular.<letter>")
            groups[group][key] = colour
        elif name in PLAIN_COLOURS:
            colours[name] = colour
        else:
            raise ArtPackError(f"cannot teach {name!r}: not one of {', '.join(PLAIN_COLOURS)}")
    return replace(base, colours=colours, cells=groups["cells"],
                   networkers=groups["networkers"], angular=groups["angular"])


def teach_icons(frame: np.ndarray, base: EnigmaPack, centres: Mapping[str, tuple[float, float]],
                *, table: TableSettings = DEFAULT_TABLE, size: int = 128) -> EnigmaPack:
    """The pack with the four category icons, cut from the middles of tiles of each category
    (``centres``: category -> the tile's centre in marker-frame mm)."""
    if sorted(centres) != sorted(CATEGORIES):
        raise ArtPackError(f"teach all four icons ({', '.join(CATEGORIES)}) at once")
    geometry = table_geometry(table, base)
    image, to_img = _plane(frame, geometry)
    half = base.icon_radius / 0.8 * geometry.tile_mm * TEACH_PX_PER_MM
    icons = {}
    for category, (x, y) in centres.items():
        p = to_img @ np.array([x, y, 1.0])
        icons[category] = cv2.resize(
            cv2.getRectSubPix(image, (int(2 * half), int(2 * half)), (float(p[0]),
                                                                         float(p[1]))),
            (size, size), interpolation=cv2.INTER_AREA)
    return replace(base, icons=icons)


def parse_samples(texts: list[str]) -> dict[str, tuple[float, float]]:
    """``["cells.red=12.5,-30", ...]`` -> {"cells.red": (12.5, -30.0)}."""
    out = {}
    for text in texts:
        name, _, where = text.partition("=")
        try:
            x, y = (float(v) for v in where.split(","))
        except ValueError:
            raise ArtPackError(f"--sample {text!r}: write NAME=X,Y (millimetres)") from None
        if not math.isfinite(x) or not math.isfinite(y):
            raise ArtPackError(f"--sample {text!r}: not a point")
        out[name.strip()] = (x, y)
    return out


__all__ = ["TEACH_PX_PER_MM", "parse_samples", "teach_colours", "teach_icons", "teach_start"]
