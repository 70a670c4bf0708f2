"""How our Enigma tiles look from above: a printed face drawn from a tile's layout.

Our own print, from the rules digest's description (square cardboard tiles, channels joining
power cells of three colours and openings, the category icon in the middle, a start tile with
a crossroads) in the pack's colours (``colours`` in the pack manifest, a little off from them
as one box's print is). The start tile shows a crossroads through a star with a white disc,
as the pack's start face does; everything else is our own shapes.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .enigma_tiles import Layout, Sizes

FACE_PX_PER_MM = 5.0
PRINT_JITTER = 7.0                 # how far (grey levels) one box's print is off the pack's colours
BEVEL_MM = (0.7, 1.3)              # the tile's cut edge, seen as a band along its outline
CELL_RIM_MM = 0.6
CHANNEL_RIM_MM = 0.45
ICON_MM = 8.5                      # across our category icons
STAR_POINTS = 8
STAR_RADII = (0.16, 0.085)         # the start star's points and notches, shares of the tile
START_DISC = 0.055                 # the white disc in the star's middle, share of the tile


def hex_bgr(text: str) -> np.ndarray:
    text = text.lstrip("#")
    return np.array([int(text[4:6], 16), int(text[2:4], 16), int(text[0:2], 16)], np.float32)


@dataclass(frozen=True)
class Print:
    """The colours one box of tiles was printed in (BGR, float)."""

    tile: np.ndarray
    edge: np.ndarray
    channel: np.ndarray
    icon: np.ndarray
    cells: dict[str, np.ndarray]
    bevel_mm: float

    @classmethod
    def of_manifest(cls, manifest: dict, rng: np.random.Generator) -> Print:
        colours = manifest["colours"]

        def off(name: str) -> np.ndarray:
            return np.clip(hex_bgr(name) + rng.uniform(-PRINT_JITTER, PRINT_JITTER, 3), 0, 255)

        return cls(off(colours["tile"]), off(colours["tile_edge"]), off(colours["channel"]),
                   off(colours["icon"]), {k: off(v) for k, v in colours["cells"].items()},
                   rng.uniform(*BEVEL_MM))


def _px(point: np.ndarray) -> tuple[int, int]:
    """A point in mm as OpenCV's fixed-point pixel (shift 4)."""
    return tuple(int(v) for v in np.round(np.asarray(point) * FACE_PX_PER_MM * 16))


def _blank(sizes: Sizes, look: Print, rng: np.random.Generator) -> np.ndarray:
    n = int(round(sizes.tile * FACE_PX_PER_MM))
    face = np.empty((n, n, 3), np.float32)
    face[:] = look.tile
    blotch = cv2.resize(rng.normal(0, 1, (4, 4)).astype(np.float32), (n, n),
                        interpolation=cv2.INTER_CUBIC)
    face *= (1 + 0.02 * blotch)[..., None]
    face += rng.normal(0, 2.0, face.shape).astype(np.float32)
    return face


def _bevel(face: np.ndarray, look: Print) -> None:
    n = face.shape[0]
    band = max(1, int(round(look.bevel_mm * FACE_PX_PER_MM)))
    ramp = np.ones((n, n), np.float32)
    ramp[:band, :] = ramp[-band:, :] = ramp[:, :band] = ramp[:, -band:] = 0
    ramp = cv2.GaussianBlur(ramp, (0, 0), band / 2.5)
    face -= (face - look.edge) * (1 - ramp)[..., None]


def _channel(face: np.ndarray, path: np.ndarray, sizes: Sizes, look: Print) -> None:
    points = [np.array([_px(p) for p in path], np.int32)]
    outer = max(1, int(round(sizes.channel * FACE_PX_PER_MM)))
    inner = max(1, int(round((sizes.channel - 2 * CHANNEL_RIM_MM) * FACE_PX_PER_MM)))
    cv2.polylines(face, points, False, (look.channel * 0.78).tolist(), outer, cv2.LINE_AA, 4)
    cv2.polylines(face, points, False, look.channel.tolist(), inner, cv2.LINE_AA, 4)


def _cell(face: np.ndarray, centre: np.ndarray, colour: np.ndarray, sizes: Sizes) -> None:
    r = sizes.cell_radius * FACE_PX_PER_MM * 16
    cv2.circle(face, _px(centre), int(r), (colour * 0.68).tolist(), -1, cv2.LINE_AA, 4)
    cv2.circle(face, _px(centre), int(r - CELL_RIM_MM * FACE_PX_PER_MM * 16), colour.tolist(),
               -1, cv2.LINE_AA, 4)
    light = np.clip(colour * 1.06 + 6, 0, 255)
    cv2.circle(face, _px(centre), int(0.5 * r), light.tolist(), -1, cv2.LINE_AA, 4)


def _icon(face: np.ndarray, centre: np.ndarray, category: str, look: Print) -> None:
    """Our category marks: weight a ring, conduit a plus, fragment a triangle, angular an L."""
    half = ICON_MM / 2
    colour = look.icon.tolist()
    stroke = int(1.3 * FACE_PX_PER_MM)
    if category == "weight":
        cv2.circle(face, _px(centre), int(half * 0.8 * FACE_PX_PER_MM * 16), colour, stroke,
                   cv2.LINE_AA, 4)
    elif category == "conduit":
        for d in ((half, 0), (0, half)):
            cv2.line(face, _px(centre - d), _px(centre + d), colour, stroke, cv2.LINE_AA, 4)
    elif category == "fragment":
        corners = centre + np.array([[0, -half], [half, half * 0.8], [-half, half * 0.8]])
        cv2.fillPoly(face, [np.array([_px(c) for c in corners], np.int32)], colour,
                     cv2.LINE_AA, 4)
    else:
        corners = centre + np.array([[-half, -half], [-half * 0.2, -half], [-half * 0.2,
                                     half * 0.2], [half, half * 0.2], [half, half],
                                     [-half, half]])
        cv2.fillPoly(face, [np.array([_px(c) for c in corners], np.int32)], colour,
                     cv2.LINE_AA, 4)


def tile_face(layout: Layout, cells: dict[str, str], category: str, sizes: Sizes,
              look: Print, rng: np.random.Generator) -> np.ndarray:
    """The face of one tile as it lies, north up (float BGR, FACE_PX_PER_MM)."""
    face = _blank(sizes, look, rng)
    _bevel(face, look)
    for path in layout.channels:
        _channel(face, path, sizes, look)
    for cell, centre in layout.cells.items():
        _cell(face, centre, look.cells[cells[cell]], sizes)
    if layout.icon is not None:
        _icon(face, layout.icon, category, look)
    return face


def start_face(sizes: Sizes, look: Print, rng: np.random.Generator) -> np.ndarray:
    """The start tile: a crossroads through the middle openings, a star and a white disc."""
    face = _blank(sizes, look, rng)
    _bevel(face, look)
    s = sizes.tile
    middle = np.array([s / 2, s / 2])
    for a, b in (((s / 2, -2), (s / 2, s + 2)), ((-2, s / 2), (s + 2, s / 2))):
        _channel(face, np.array([a, b], float), sizes, look)
    turns = np.arange(2 * STAR_POINTS) * np.pi / STAR_POINTS - np.pi / 2
    radii = np.where(np.arange(2 * STAR_POINTS) % 2 == 0, STAR_RADII[0], STAR_RADII[1]) * s
    star = middle + np.column_stack([np.cos(turns), np.sin(turns)]) * radii[:, None]
    cv2.fillPoly(face, [np.array([_px(p) for p in star], np.int32)], look.icon.tolist(),
                 cv2.LINE_AA, 4)
    disc = int(START_DISC * s * FACE_PX_PER_MM * 16)
    cv2.circle(face, _px(middle), disc + int(0.4 * FACE_PX_PER_MM * 16),
               (look.icon * 0.6).tolist(), -1, cv2.LINE_AA, 4)
    cv2.circle(face, _px(middle), disc, (246, 247, 247), -1, cv2.LINE_AA, 4)
    return face
