"""Teach: build an Indigo art pack from photos of the players' own pieces.

1. ``companion print teach-sheet -o sheets.pdf`` prints six A4 pages with the teach markers
   (ids 4..7). Pages 1..5 show a hexagon with the paths of tile type 0..4 at rotation 0 drawn
   thinly inside: lay a tile of that type on it, paths over the drawn lines. Page 6 has labelled
   circles: put one amber, emerald and sapphire gem and one chip of each colour on them.
2. Photograph each page from above (any angle up to ~30 degrees, the markers fix it).
3. ``companion teach indigo T0.jpg T1.jpg T2.jpg T3.jpg T4.jpg PIECES.jpg --board BOARD.jpg
   -o mypack``: the five tile photos in type order, then the pieces photo. ``--board`` is a
   photo of the board with its treasure tiles but *before the gems and chips go on* (the table
   markers around it, calibrated): it gives the empty cell, the centre and corner treasure
   tiles and the rim colour. Whatever is not
   photographed comes from ``--base`` (default: the demo pack).

The sheet is drawn at the board's real cell size (``board_radius_mm / 10.2``), so the tile fills
the hexagon and its image needs no guessing of scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.indigo import CENTRE, CORNER_BY_CELL, ROUTE_CELLS
from companion.indigo.tiles import paths_of
from vision.art_pack import BGR
from vision.errors import ArtPackError, UnreadableImageError
from vision.image_io import read_image
from vision.indigo.board import cell_xy, path_polyline
from vision.indigo.chips import chip_body_colours
from vision.indigo.model import GAIN_RANGE, board_to_canonical, canonical_size
from vision.indigo.pack import IndigoPack, load_indigo_pack
from vision.indigo.settings import DEFAULT_SETTINGS, IndigoSettings
from vision.markers import RESERVED_IDS, MarkerLayout, locate, paste_marker

#: A4 portrait, millimetres
PAGE_MM = (210.0, 297.0)
SHEET_MARKER_MM = 30.0
SHEET_LAYOUT = MarkerLayout(
    ids=RESERVED_IDS["teach"],
    centres_mm=((25.0, 25.0), (185.0, 25.0), (185.0, 272.0), (25.0, 272.0)),
    size_mm=SHEET_MARKER_MM,
)
TILE_CENTRE_MM = (105.0, 120.0)
#: pieces page: circle centres (mm) for the gems and chip colours, in this order
PIECE_SPOTS: tuple[tuple[str, str, tuple[float, float]], ...] = (
    ("gem", "amber", (60.0, 90.0)),
    ("gem", "emerald", (105.0, 90.0)),
    ("gem", "sapphire", (150.0, 90.0)),
    ("chip", "red", (60.0, 160.0)),
    ("chip", "turquoise", (105.0, 160.0)),
    ("chip", "white", (150.0, 160.0)),
    ("chip", "purple", (105.0, 215.0)),
)
PIECE_CIRCLE_MM = 14.0
#: side of the square pack images the teach flow writes
PACK_IMAGE_PX = 128
#: the pieces page is straightened at this resolution (pixels per mm) to sample its colours
PIECES_PX_PER_MM = 2.0
#: a blank stretch of the pieces page (x and y ranges, mm) that gives the paper's white
PAPER_AREA_MM = ((90.0, 120.0), (40.0, 60.0))
#: the paper is balanced to this grey level, with per-channel gains kept in GAIN_RANGE
PAPER = 235.0
#: a piece's colour is the median of the middle of its circle: this share of the radius
PIECE_SAMPLE = 0.35
#: the rim is sampled in this band above the board centre (cell radii from the centre) ...
RIM_BAND = (8.75, 8.5)
#: ... this wide either side of the middle (cell radii)
RIM_BAND_HALF_WIDTH = 2
#: the table colour is the median of this many pixels square in the photo's top-left corner
TABLE_CORNER_PX = 20


@dataclass(frozen=True)
class TeachSheet:
    cell_radius_mm: float

    def page(self, kind: int | None, *, px_per_mm: float) -> np.ndarray:
        """Page for tile ``kind`` (0..4), or the pieces page (None), as a BGR image."""
        w, h = round(PAGE_MM[0] * px_per_mm), round(PAGE_MM[1] * px_per_mm)
        page = np.full((h, w, 3), 255, np.uint8)
        side = round(SHEET_MARKER_MM * px_per_mm)
        for marker_id, (cx, cy) in zip(SHEET_LAYOUT.ids, SHEET_LAYOUT.centres_mm, strict=True):
            paste_marker(page, marker_id, (cx * px_per_mm, cy * px_per_mm), side, quiet_zone=0.3)
        font = cv2.FONT_HERSHEY_SIMPLEX
        scale = px_per_mm / 8
        if kind is not None:
            r = self.cell_radius_mm * px_per_mm
            cx, cy = TILE_CENTRE_MM[0] * px_per_mm, TILE_CENTRE_MM[1] * px_per_mm
            hexagon = np.array(
                [
                    [
                        cx + r * math.cos(math.radians(-90 + 60 * i)),
                        cy + r * math.sin(math.radians(-90 + 60 * i)),
                    ]
                    for i in range(6)
                ],
                np.int32,
            )
            cv2.polylines(page, [hexagon], True, (0, 0, 0), max(1, round(px_per_mm * 0.4)))
            for a, b in paths_of(kind, 0):
                pts = np.array([[cx + x * r, cy + y * r] for x, y in path_polyline(a, b)], np.int32)
                cv2.polylines(page, [pts], False, (150, 150, 150), max(1, round(px_per_mm * 0.5)))
            title = f"Indigo teach sheet: tile type {kind}, lay it on the lines"
        else:
            radius = round(PIECE_CIRCLE_MM * px_per_mm)
            for what, name, (x, y) in PIECE_SPOTS:
                c = (round(x * px_per_mm), round(y * px_per_mm))
                cv2.circle(page, c, radius, (0, 0, 0), max(1, round(px_per_mm * 0.3)))
                cv2.putText(
                    page,
                    f"{name} {what}",
                    (c[0] - radius, c[1] + radius + round(5 * px_per_mm)),
                    font,
                    scale * 0.8,
                    (0, 0, 0),
                    1,
                )
            title = "Indigo teach sheet: one gem / chip on each circle"
        cv2.putText(
            page,
            title,
            (round(45 * px_per_mm), round(20 * px_per_mm)),
            font,
            scale,
            (0, 0, 0),
            max(1, round(px_per_mm / 4)),
        )
        return page


def teach_sheet(settings: IndigoSettings = DEFAULT_SETTINGS) -> TeachSheet:
    """The teach sheet at the real cell size of the board the settings calibrate."""
    return TeachSheet(settings.geometry.cell_radius_mm)


def teach_pages(
    *, settings: IndigoSettings = DEFAULT_SETTINGS, dpi: int = 300
) -> list[np.ndarray]:
    """The six printable pages (tile types 0..4, then the pieces)."""
    sheet = teach_sheet(settings)
    px_per_mm = dpi / 25.4
    return [sheet.page(kind, px_per_mm=px_per_mm) for kind in (0, 1, 2, 3, 4, None)]


# ---------------------------------------------------------------- reading the photos


def _straighten(photo: np.ndarray, px_per_mm: float) -> np.ndarray:
    fit = locate(photo, SHEET_LAYOUT)
    return fit.warp(photo, px_per_mm=px_per_mm, origin_mm=(0.0, 0.0), size_mm=PAGE_MM)


def tile_image_from_photo(photo: np.ndarray, cell_radius_mm: float,
                          kind: int | None = None) -> np.ndarray:
    """The tile lying on a teach page, as a pack image: its hexagon inscribed in the square,
    centred and upright whatever the hand, and the page's print scale, did to it; given its
    ``kind``, then turned and moved onto its paths (:func:`_onto_paths`)."""
    px_per_mm = (PACK_IMAGE_PX / 2) / cell_radius_mm
    page = _straighten(photo, px_per_mm)
    centre = (TILE_CENTRE_MM[0] * px_per_mm, TILE_CENTRE_MM[1] * px_per_mm)
    side = round(2 * OUTLINE_SEARCH * PACK_IMAGE_PX / 2)
    around = cv2.getRectSubPix(page, (side, side), centre)
    outline = tile_outline(around)
    if outline is None:
        return cv2.getRectSubPix(page, (PACK_IMAGE_PX, PACK_IMAGE_PX), centre)
    (x, y), radius, turn = outline
    m = cv2.getRotationMatrix2D((x, y), turn, (PACK_IMAGE_PX / 2) / radius)
    m[0, 2] += (PACK_IMAGE_PX - 1) / 2 - x
    m[1, 2] += (PACK_IMAGE_PX - 1) / 2 - y
    if kind is not None:
        m = _onto_paths(around, m, kind)
    return _warp(around, m)


def _warp(around: np.ndarray, m: np.ndarray) -> np.ndarray:
    return cv2.warpAffine(around, m, (PACK_IMAGE_PX, PACK_IMAGE_PX), flags=cv2.INTER_AREA,
                          borderMode=cv2.BORDER_REPLICATE)


#: a taught picture's paths are fitted to the type's path layout (their ends at the
#: hexagon's edge midpoints) over this many degrees of turn each way ...
PATH_FIT_TURN_DEG = 8
#: ... and this share of a cell radius of offset each way (pixels of the pack image), ...
PATH_FIT_SHIFT = 0.125
#: ... comparing the paths' centrelines, blurred this much (pack pixels), with the picture
#: inside this share of the cell radius (the rim and its bevel left out)
PATH_FIT_BLUR = 3.0
PATH_FIT_RADIUS = 0.8
#: the fit is taken when the layout correlates at least this well with some colour channel
#: of the picture (taught demo and scans tiles: 0.7-0.9): else the picture is left as its
#: outline put it
PATH_FIT_MIN_CORRELATION = 0.4


def _onto_paths(around: np.ndarray, m: np.ndarray, kind: int) -> np.ndarray:
    """The warp ``m`` (``around`` to the pack image) followed by the turn and offset that put
    the picture's paths on the layout of tile ``kind``.

    The outline alone leaves the hand's turn in: a pale tile on white paper shows as its
    paths, and the hull of their ends is no measure of its corners (session 24, the tuning
    bench's teach photos: tiles laid 2.6, 2.1 and 1.8 degrees turned were stored 2.1, 1.7
    and 1.1-2.0 degrees turned; the reader then fitted tile 0 laid a hand's turn off better
    as tile 1 upright)."""
    picture = _warp(around, m).astype(np.float32)
    layout = _path_layout(kind)
    mid = (PACK_IMAGE_PX - 1) / 2
    yy, xx = np.mgrid[0:PACK_IMAGE_PX, 0:PACK_IMAGE_PX]
    inside = np.hypot(xx - mid, yy - mid) <= PATH_FIT_RADIUS * PACK_IMAGE_PX / 2
    channels = [cv2.GaussianBlur(picture[..., c], (0, 0), PATH_FIT_BLUR)[inside]
                for c in range(picture.shape[2])]
    channels = [c - c.mean() for c in channels]
    norms = [float(np.sqrt((c * c).sum())) + 1e-9 for c in channels]

    def fit(pose: tuple[float, float, float]) -> tuple[float, float]:
        moved = cv2.warpAffine(layout, _pose_matrix(pose), (PACK_IMAGE_PX, PACK_IMAGE_PX))
        t = moved[inside] - moved[inside].mean()
        tn = float(np.sqrt((t * t).sum())) + 1e-9
        r = [float((t * c).sum()) / (tn * n) for c, n in zip(channels, norms, strict=True)]
        return sum(v * v for v in r), max(abs(v) for v in r)

    reach = PATH_FIT_SHIFT * PACK_IMAGE_PX / 2
    turns, shifts = np.arange(-PATH_FIT_TURN_DEG, PATH_FIT_TURN_DEG + 1.0, 1.0), np.arange(
        -reach, reach + 1e-6, reach / 4)
    poses = [(float(a), float(x), float(y)) for a in turns for x in shifts for y in shifts]
    best = max(poses, key=lambda pose: fit(pose)[0])
    for step_turn, step_shift in ((0.5, reach / 8), (0.25, reach / 16), (0.1, reach / 32)):
        near = [(best[0] + i * step_turn, best[1] + j * step_shift, best[2] + k * step_shift)
                for i in (-1, 0, 1) for j in (-1, 0, 1) for k in (-1, 0, 1)]
        best = max(near, key=lambda pose: fit(pose)[0])
    if fit(best)[1] < PATH_FIT_MIN_CORRELATION:
        return m
    undo = cv2.invertAffineTransform(_pose_matrix(best))
    moved: np.ndarray = np.vstack([undo, [0.0, 0.0, 1.0]])[:2] @ np.vstack([m, [0.0, 0.0, 1.0]])
    return moved


def _pose_matrix(pose: tuple[float, float, float]) -> np.ndarray:
    """Turn (degrees, clockwise as the image shows it) about the pack image's middle, then
    offset (pack pixels)."""
    turn, dx, dy = pose
    mid = (PACK_IMAGE_PX - 1) / 2
    m = cv2.getRotationMatrix2D((mid, mid), -turn, 1.0)
    m[0, 2] += dx
    m[1, 2] += dy
    return m


def _path_layout(kind: int) -> np.ndarray:
    """The centrelines of tile ``kind``'s paths (rotation 0), blurred, in a pack image's frame:
    its hexagon inscribed in the square. Drawn four times finer and averaged down."""
    fine = 4
    size = PACK_IMAGE_PX * fine
    lines = np.zeros((size, size), np.float32)
    mid, radius = (size - 1) / 2, size / 2
    for a, b in paths_of(kind, 0):
        points = np.array([[mid + x * radius, mid + y * radius] for x, y in path_polyline(a, b)])
        cv2.polylines(lines, [np.round(points * 16).astype(np.int32)], False, 1.0, 2 * fine,
                      cv2.LINE_AA, 4)
    small = cv2.resize(lines, (PACK_IMAGE_PX, PACK_IMAGE_PX), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (0, 0), PATH_FIT_BLUR)


#: the tile's outline is looked for this many cell radii round the sheet's hexagon (a tile
#: laid off the lines, or a sheet printed smaller: "fit to page" shrinks it by 3-6%)
OUTLINE_SEARCH = 1.4
#: the paper is sampled in this ring round the sheet's hexagon (cell radii)
PAPER_RING = (1.25, 1.4)
#: a pixel is the tile when its colour lies farther than this from the paper's, and farther
#: than TILE_CONTRAST_SHARE times the paper ring's own spread (its 95th percentile) ...
TILE_MIN_CONTRAST = 18.0
TILE_CONTRAST_SHARE = 2.0
#: ... and, once the tile is found, farther than this share of the way to the tile's own
#: body (the median just inside its outline): a blurred edge is cut at its middle, not where
#: it just leaves the paper (a dark tile measured 3% too large)
TILE_EDGE_SHARE = 0.5
#: the tile's body is sampled in this band inside its outline (shares of its radius)
BODY_BAND = (0.75, 0.92)
#: a tile's outline is taken only when its size lies within this share of the sheet's cell
#: (else the tile is cut where the sheet's hexagon lies) ...
OUTLINE_SIZE_RANGE = (0.8, 1.2)
#: ... and the hexagon of that centre, size and turn covers the silhouette's convex hull
#: this well (intersection over union): a hexagon, not a blot joined to a shadow or the
#: table. Paths as pale as the paper cut notches into the silhouette; its hull bridges them
OUTLINE_MIN_OVERLAP = 0.9
#: pieces of the silhouette smaller than this share of a cell radius squared are specks
PIECE_MIN_SHARE = 0.02

Outline = tuple[tuple[float, float], float, float]


def tile_outline(around: np.ndarray) -> Outline | None:
    """The tile in the middle of ``around`` (a square cut of the straightened teach page, the
    sheet's hexagon of radius ``PACK_IMAGE_PX / 2`` in its middle): its centre (pixels of
    ``around``), its corner radius (pixels) and its turn (degrees, counter-clockwise, as
    :func:`cv2.getRotationMatrix2D` takes it, that makes it pointy-top again); None when no
    tile-sized hexagon stands out from the paper.

    A pack image must show the tile where the board shows it: its middle on the cell's
    centre, its corners on the cell's, at the size of the cell. A tile laid a millimetre off
    the lines, turned, or on a sheet printed at another scale shows its paths elsewhere; the
    reader's templates of each turn then move the paths each their own way (independent
    tuning seed 1027, a pack taught from a tile 4.7% larger than the board's: tile 0 turned
    once read as tile 1 at 0.94 with no question)."""
    side = around.shape[0]
    mid = (side - 1) / 2
    yy, xx = np.mgrid[0:side, 0:side]
    r = np.hypot(xx - mid, yy - mid) / (PACK_IMAGE_PX / 2)
    pixels = around.astype(np.float32)
    ring = (r >= PAPER_RING[0]) & (r <= PAPER_RING[1])
    paper = np.median(pixels[ring], axis=0)
    contrast = np.sqrt(((pixels - paper) ** 2).sum(axis=2))
    level = max(TILE_MIN_CONTRAST, TILE_CONTRAST_SHARE * float(np.percentile(contrast[ring], 95)))
    first = _hexagon_of(contrast > level)
    if first is None:
        return None
    (x, y), radius, _ = first
    inside = np.hypot(xx - x, yy - y) / radius
    body = float(np.median(contrast[(inside >= BODY_BAND[0]) & (inside <= BODY_BAND[1])]))
    outline = _hexagon_of(contrast > max(level, TILE_EDGE_SHARE * body)) or first
    if not OUTLINE_SIZE_RANGE[0] <= outline[1] / (PACK_IMAGE_PX / 2) <= OUTLINE_SIZE_RANGE[1]:
        return None
    return outline


def _hexagon_of(tile: np.ndarray) -> Outline | None:
    """The hexagon (centre, corner radius, turn) of the silhouette ``tile`` (bool) round the
    middle of the square, or None when it is no hexagon."""
    # the sheet's thin printed lines beside the tile are no tile
    mask = cv2.morphologyEx(tile.astype(np.uint8), cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    # the tile's pieces (a pale path along its edge cuts a sliver of its body off), not what
    # reaches the cut's border (the table, a shadow) nor specks
    side = tile.shape[0]
    least = PIECE_MIN_SHARE * (PACK_IMAGE_PX / 2) ** 2
    left, top, width, height, sizes = (stats[1:, k] for k in range(5))
    inside = (left > 0) & (top > 0) & (left + width < side) & (top + height < side)
    keep = 1 + np.flatnonzero(inside & (sizes >= least))
    if not len(keep):
        return None
    hull = cv2.convexHull(cv2.findNonZero(np.isin(labels, keep).astype(np.uint8)))
    area = float(cv2.contourArea(hull))
    if area <= 0:
        return None
    radius = math.sqrt(2 * area / (3 * math.sqrt(3)))
    moments = cv2.moments(hull)
    x, y = moments["m10"] / moments["m00"], moments["m01"] / moments["m00"]
    turn = _hexagon_turn(hull[:, 0, :].astype(np.float64), (x, y))
    corners = [(x + radius * math.cos(math.radians(-90 + turn + 60 * k)),
                y + radius * math.sin(math.radians(-90 + turn + 60 * k))) for k in range(6)]
    ideal = np.zeros(tile.shape, np.uint8)
    cv2.fillPoly(ideal, [np.round(np.array(corners)).astype(np.int32)], 1)
    seen = np.zeros(tile.shape, np.uint8)
    cv2.fillPoly(seen, [hull[:, 0, :]], 1)
    overlap = np.logical_and(ideal, seen).sum() / max(1, np.logical_or(ideal, seen).sum())
    if overlap < OUTLINE_MIN_OVERLAP:
        return None
    return (x, y), radius, turn


def _hexagon_turn(hull: np.ndarray, centre: tuple[float, float]) -> float:
    """How far (degrees, clockwise as the image shows it) the hexagon ``hull`` lies turned
    from pointy-top, within 30: from the sixfold harmonic of its outline, walked at even
    steps; turning it back is this angle counter-clockwise."""
    ends = np.roll(hull, -1, axis=0)
    steps = []
    for a, b in zip(hull, ends, strict=True):
        n = max(1, int(np.hypot(*(b - a))))
        steps.append(a + (b - a) * (np.arange(n)[:, None] / n))
    points = np.vstack(steps) - np.array(centre)
    angles = np.arctan2(points[:, 1], points[:, 0])
    radii = np.hypot(points[:, 0], points[:, 1])
    harmonic = complex((radii * np.exp(6j * angles)).sum())
    # the corners' angle (mod 60), against a pointy-top hexagon's (-90, that is 30 mod 60)
    corners = math.degrees(math.atan2(harmonic.imag, harmonic.real)) / 6
    return corners % 60.0 - 30.0


def piece_colours_from_photo(photo: np.ndarray, chip_space: BGR) -> dict[str, dict[str, BGR]]:
    """Colour of the middle of each circle of the pieces page, white-balanced on paper: a
    gem's median, a chip's body as the reader measures it on a board whose empty chip
    spaces are printed ``chip_space`` (:func:`chip_body_colours`: its glyph and rim in the
    gateways' colour left out)."""
    px_per_mm = PIECES_PX_PER_MM
    page = _straighten(photo, px_per_mm).astype(np.float32)
    (x0, x1), (y0, y1) = PAPER_AREA_MM
    paper = np.median(
        page[
            round(y0 * px_per_mm) : round(y1 * px_per_mm),
            round(x0 * px_per_mm) : round(x1 * px_per_mm),
        ].reshape(-1, 3),
        axis=0,
    )
    gains = np.clip(PAPER / np.maximum(paper, 1.0), *GAIN_RANGE)
    out: dict[str, dict[str, BGR]] = {"gem": {}, "chip": {}}
    r = PIECE_CIRCLE_MM * px_per_mm * PIECE_SAMPLE
    chip_faces: dict[str, np.ndarray] = {}
    for what, name, (x, y) in PIECE_SPOTS:
        cx, cy = x * px_per_mm, y * px_per_mm
        block = page[int(cy - r) : int(cy + r) + 1, int(cx - r) : int(cx + r) + 1]
        face = np.clip(block.reshape(-1, 3) * gains, 0, 255)
        if what == "chip":
            chip_faces[name] = face
            continue
        b, g, rr = (int(v) for v in np.median(face, axis=0))
        out[what][name] = (b, g, rr)
    bodies = chip_body_colours(list(chip_faces.values()), chip_space)
    out["chip"] = dict(zip(chip_faces, bodies, strict=True))
    return out


def board_parts_from_photo(
    photo: np.ndarray, *, settings: IndigoSettings = DEFAULT_SETTINGS
) -> dict[str, Any]:
    """Empty cell, centre, corner images and the rim and table colours from a setup photo."""
    geometry = settings.geometry
    fit = locate(photo, geometry.layout)
    cell_px = PACK_IMAGE_PX // 2
    h = board_to_canonical(cell_px) @ np.linalg.inv(geometry.board_to_frame()) @ fit.image_to_plane
    size = canonical_size(cell_px)
    canon = cv2.warpPerspective(photo, h, (size, size), flags=cv2.INTER_AREA)
    off = size / 2

    def cut(cell: tuple[int, int]) -> np.ndarray:
        x, y = cell_xy(cell)
        return cv2.getRectSubPix(
            canon, (PACK_IMAGE_PX, PACK_IMAGE_PX), (x * cell_px + off, y * cell_px + off)
        )

    # the empty cell: median of the inner ring of route cells (no gems there at setup)
    empties = [cut(c) for c in ROUTE_CELLS if max(abs(c[0]), abs(c[1]), abs(c[0] + c[1])) == 2]
    empty = np.median(np.array(empties), axis=0).astype(np.uint8)
    corner_cell = next(c for c, k in CORNER_BY_CELL.items() if k.arrow_edge == 3)
    ring = canon[
        int(off - RIM_BAND[0] * cell_px) : int(off - RIM_BAND[1] * cell_px),
        int(off - RIM_BAND_HALF_WIDTH * cell_px) : int(off + RIM_BAND_HALF_WIDTH * cell_px),
    ]
    rim = tuple(int(v) for v in np.median(ring.reshape(-1, 3), axis=0))
    corner = photo[:TABLE_CORNER_PX, :TABLE_CORNER_PX]
    table = tuple(int(v) for v in np.median(corner.reshape(-1, 3), axis=0))
    return {
        "empty": empty,
        "centre": cut(CENTRE),
        "corner": cut(corner_cell),
        "rim": rim,
        "table": table,
    }


def teach(
    tile_photos: list[np.ndarray],
    pieces_photo: np.ndarray | None,
    *,
    board_photo: np.ndarray | None = None,
    base: IndigoPack | None = None,
    name: str = "taught",
    settings: IndigoSettings = DEFAULT_SETTINGS,
) -> IndigoPack:
    """Build a pack: tile images from five photos, colours from the pieces photo."""
    if len(tile_photos) != 5:
        raise ArtPackError(
            f"teach needs 5 tile photos (types 0..4 in order), got {len(tile_photos)}"
        )
    base_pack = base or load_indigo_pack(None)
    radius = settings.geometry.cell_radius_mm
    tiles = {k: tile_image_from_photo(p, radius, k) for k, p in enumerate(tile_photos)}
    gems, chips = dict(base_pack.gems), dict(base_pack.chips)
    if pieces_photo is not None:
        colours = piece_colours_from_photo(pieces_photo, base_pack.chip_space)
        gems = colours["gem"]
        chips = colours["chip"]
    pack = replace(
        base_pack,
        name=name,
        folder=None,
        tiles=tiles,
        gems=gems,
        chips=chips,
        description="taught from photos of the players' own pieces",
    )
    if board_photo is not None:
        parts = board_parts_from_photo(board_photo, settings=settings)
        pack = replace(
            pack,
            empty=parts["empty"],
            centre=parts["centre"],
            corner=parts["corner"],
            rim=parts["rim"],
            table=parts["table"],
            chip_space=base_pack.chip_space,
        )
    return pack


def teach_from_files(
    photos: list[Path],
    *,
    board: Path | None = None,
    base: str | None = None,
    name: str = "taught",
    settings: IndigoSettings = DEFAULT_SETTINGS,
) -> IndigoPack:
    """The ``companion teach indigo`` flow: 5 tile photos, optionally then the pieces photo."""
    if len(photos) not in (5, 6):
        raise UnreadableImageError(
            f"give 5 tile photos (types 0..4) and optionally the pieces photo; got {len(photos)}"
        )
    images = [read_image(p) for p in photos]
    return teach(
        images[:5],
        images[5] if len(images) == 6 else None,
        board_photo=read_image(board) if board else None,
        base=load_indigo_pack(base) if base else None,
        name=name,
        settings=settings,
    )
