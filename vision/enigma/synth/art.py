"""Drawing Enigma conduit tiles from their structure: the project's own art, in two styles.

The real tile art is unknown, so the renderer draws any tile of the records.md schema: ports
at the pack's three positions on each side, power cells as discs (or rounded squares), and
channels as straight strokes from each port to what it links to. Two styles, deliberately
unlike each other, so that tests can show the reader leans on no particular drawing:

- ``demo``: cream tiles, copper channels with a dark outline, round cells (the shipped pack);
- ``ink``: pale blue-grey tiles on green felt, thin slate channels, square cells, paper grain.

:func:`vision.enigma.layout.layout_tile` places a tile's cells (in tile units 0..1, y down,
unrotated); :func:`tile_face` draws the unrotated face; a placed tile is that face turned by
its rotation, as a physical tile is.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from companion.enigma.catalogue import CATEGORIES
from companion.enigma.tiles import CROSSROADS, Tile
from vision.art_pack import BGR, parse_colour
from vision.enigma.layout import Point, layout_tile, spacing_for
from vision.enigma.pack import DEFAULT_SIZES, EnigmaPack

# ---------------------------------------------------------------------------- styles


@dataclass(frozen=True)
class Style:
    name: str
    colours: dict[str, str]
    cells: dict[str, str]
    networkers: dict[str, str]
    angular: dict[str, str]
    sizes: dict[str, object]
    square_cells: bool
    outline: float  # width of the dark outline around channels and cells (tile units)
    grain: float  # paper grain amplitude


STYLES: dict[str, Style] = {
    "demo": Style(
        name="demo",
        colours={
            "table": "#6b4f3a",
            "tile": "#efe6cf",
            "tile_edge": "#a89470",
            "channel": "#9a5b22",
            "icon": "#7d6b9a",
            "card": "#f4efe2",
            "ink": "#3a3a3a",
            "silhouette": "#b9b4a8",
            "fragment": "#161616",
            "weight": "#7f8790",
            "piece": "#d9c39a",
        },
        cells={"red": "#d62828", "blue": "#2f7fd8", "yellow": "#f2c230"},
        networkers={"black": "#1e1e1e", "white": "#f8f8f4", "green": "#2e9e3e", "blue": "#1c2c86"},
        angular={"R": "#c0392b", "G": "#27ae60", "B": "#2e64c8", "Y": "#f1c40f"},
        sizes=dict(DEFAULT_SIZES),
        square_cells=False,
        outline=0.012,
        grain=0.0,
    ),
    "ink": Style(
        name="ink",
        colours={
            "table": "#6e6259",
            "tile": "#dfe7ec",
            "tile_edge": "#8fa3b3",
            "channel": "#33475b",
            "icon": "#b07bac",
            "card": "#ece8f2",
            "ink": "#24303c",
            "silhouette": "#a9b7c4",
            "fragment": "#0e0e12",
            "weight": "#b07a45",
            "piece": "#c9d7b0",
        },
        cells={"red": "#e4572e", "blue": "#2b59c3", "yellow": "#ffc914"},
        networkers={"black": "#101010", "white": "#fdfdfd", "green": "#6ab04c", "blue": "#0b1d51"},
        angular={"R": "#e84a5f", "G": "#3fa34d", "B": "#3c6fd6", "Y": "#f7b801"},
        sizes={
            **DEFAULT_SIZES,
            "cell": 0.12,
            "channel": 0.065,
            "networker": 0.075,
            "ports": [0.22, 0.5, 0.78],
            "icon": 0.12,
        },
        square_cells=True,
        outline=0.0,
        grain=6.0,
    ),
}


def _c(text: str) -> BGR:
    return parse_colour(text)


def _pts(points: list[Point] | tuple[Point, ...], side: float) -> np.ndarray:
    return np.array([[round(x * side * 16), round(y * side * 16)] for x, y in points], np.int32)


def _stroke(
    img: np.ndarray, line: tuple[Point, ...], side: float, colour: BGR, width: float
) -> None:
    pts = _pts(line, side)
    cv2.polylines(img, [pts], False, colour, max(1, round(width * side)), cv2.LINE_AA, 4)


def _darker(colour: BGR, k: float = 0.55) -> BGR:
    return (int(colour[0] * k), int(colour[1] * k), int(colour[2] * k))


def draw_cell(
    img: np.ndarray,
    centre: Point,
    side: float,
    colour: BGR,
    *,
    radius: float,
    square: bool,
    outline: float,
) -> None:
    """A power cell (unit-tile ``centre`` on an image of ``side`` pixels)."""
    cx, cy = centre[0] * side, centre[1] * side
    r = radius * side
    if square:
        half = r * 0.9
        box = np.array(
            [
                [cx - half, cy - half],
                [cx + half, cy - half],
                [cx + half, cy + half],
                [cx - half, cy + half],
            ]
        )
        cv2.fillConvexPoly(img, np.round(box * 16).astype(np.int32), colour, cv2.LINE_AA, 4)
        return
    c = (round(cx * 16), round(cy * 16))
    if outline > 0:
        cv2.circle(img, c, round((r + outline * side) * 16), _darker(colour), -1, cv2.LINE_AA, 4)
    cv2.circle(img, c, round(r * 16), colour, -1, cv2.LINE_AA, 4)


def draw_networker(
    img: np.ndarray, centre: tuple[float, float], radius_px: float, colour: BGR
) -> None:
    """A pawn seen from above: a disc with a dark rim and a small highlight."""
    c = (round(centre[0] * 16), round(centre[1] * 16))
    rim = _darker(colour, 0.45) if sum(colour) > 120 else (70, 70, 70)
    cv2.circle(img, c, round(radius_px * 16), rim, -1, cv2.LINE_AA, 4)
    cv2.circle(img, c, round(radius_px * 0.8 * 16), colour, -1, cv2.LINE_AA, 4)
    hl = tuple(min(255, int(v * 0.6 + 100)) for v in colour)
    h = (round((centre[0] - radius_px * 0.3) * 16), round((centre[1] - radius_px * 0.3) * 16))
    cv2.circle(img, h, max(16, round(radius_px * 0.18 * 16)), hl, -1, cv2.LINE_AA, 4)


def _grain(img: np.ndarray, amplitude: float, seed: int) -> np.ndarray:
    if amplitude <= 0:
        return img
    rng = np.random.default_rng(seed)
    small = rng.normal(0, amplitude, (max(2, img.shape[0] // 3), max(2, img.shape[1] // 3)))
    field = cv2.resize(small.astype(np.float32), (img.shape[1], img.shape[0]))
    grained: np.ndarray = np.clip(img.astype(np.float32) + field[..., None], 0, 255).astype(
        np.uint8)
    return grained


def draw_icon(
    img: np.ndarray,
    category: str,
    side: float,
    colour: BGR,
    radius: float,
    centre: Point = (0.5, 0.5),
) -> None:
    """The category's icon (the project's own shapes) around ``centre``."""
    cx, cy = centre
    r = radius
    if category == "weight":  # a balance: beam and two pans
        _stroke(img, ((cx - r, cy - 0.3 * r), (cx + r, cy - 0.3 * r)), side, colour, 0.03)
        _stroke(img, ((cx, cy - 0.3 * r), (cx, cy + r)), side, colour, 0.03)
        for sx in (-1, 1):
            pts = [
                (cx + sx * r, cy - 0.3 * r),
                (cx + sx * r - 0.4 * r, cy + 0.35 * r),
                (cx + sx * r + 0.4 * r, cy + 0.35 * r),
            ]
            cv2.fillConvexPoly(img, _pts(pts, side), colour, cv2.LINE_AA, 4)
    elif category == "fragment":  # a tangram triangle and square
        tri = [(cx - r, cy + r), (cx + r * 0.1, cy - r), (cx + r * 0.1, cy + r)]
        cv2.fillConvexPoly(img, _pts(tri, side), colour, cv2.LINE_AA, 4)
        sq = [
            (cx + 0.3 * r, cy + 0.1 * r),
            (cx + r, cy + 0.1 * r),
            (cx + r, cy + r),
            (cx + 0.3 * r, cy + r),
        ]
        cv2.fillConvexPoly(img, _pts(sq, side), colour, cv2.LINE_AA, 4)
    elif category == "conduit":  # a ring
        c = (round(cx * side * 16), round(cy * side * 16))
        cv2.circle(
            img, c, round(r * 0.85 * side * 16), colour, max(1, round(0.05 * side)), cv2.LINE_AA, 4
        )
    elif category == "angular":  # an L
        pts = [
            (cx - r, cy - r),
            (cx - 0.3 * r, cy - r),
            (cx - 0.3 * r, cy + 0.3 * r),
            (cx + r, cy + 0.3 * r),
            (cx + r, cy + r),
            (cx - r, cy + r),
        ]
        cv2.fillPoly(img, [_pts(pts, side)], colour, cv2.LINE_AA, 4)


def paste_icon(img: np.ndarray, pack: EnigmaPack, category: str) -> None:
    """The pack's icon of ``category`` in the middle of a tile face (its icon-coloured pixels;
    the icon image spans 0.4 of its side around its centre, ``sizes.icon`` of the tile)."""
    side = img.shape[0]
    size = max(4, int(round(2.5 * pack.icon_radius * side)))
    icon = cv2.resize(pack.icons[category], (size, size), interpolation=cv2.INTER_AREA)
    ink = np.array(pack.colour("icon"), np.float32)
    base = np.array(pack.colour("tile"), np.float32)
    f = icon.astype(np.float32)
    mask = np.linalg.norm(f - ink, axis=-1) < np.linalg.norm(f - base, axis=-1)
    a = (side - size) // 2
    region = img[a:a + size, a:a + size]
    region[mask] = icon[mask]


def tile_face(
    tile: Tile, pack: EnigmaPack, side: int, *, category: str | None = None, seed: int = 0
) -> np.ndarray:
    """The tile's conduit side at rotation 0, ``side`` pixels square, in the pack's style."""
    style = STYLES.get(pack.style, STYLES["demo"])
    img = np.empty((side, side, 3), np.uint8)
    img[:] = pack.colour("tile")
    edge = max(1, round(0.015 * side))
    cv2.rectangle(img, (0, 0), (side - 1, side - 1), pack.colour("tile_edge"), edge)
    if category is not None and pack.icons:
        paste_icon(img, pack, category)
    layout = layout_tile(tile, pack.ports, spacing=spacing_for(pack))
    width = pack.channel_width
    if style.outline > 0:
        for line in layout.strokes:
            _stroke(img, line, side, _darker(pack.colour("channel")), width + 2 * style.outline)
    for line in layout.strokes:
        _stroke(img, line, side, pack.colour("channel"), width)
    colours = tile.colours
    for cell, centre in layout.cells.items():
        draw_cell(
            img,
            centre,
            side,
            pack.cells[colours[cell]],
            radius=pack.cell_radius,
            square=style.square_cells,
            outline=style.outline,
        )
    return _grain(img, style.grain, seed)


def start_face(
    pack_style: str,
    side: int,
    colours: Mapping[str, BGR],
    ports: tuple[float, float, float],
    channel: float,
) -> np.ndarray:
    """The start tile's face: a crossroads with a star in the middle (the pack stores it)."""
    style = STYLES[pack_style]
    img = np.empty((side, side, 3), np.uint8)
    img[:] = colours["tile"]
    cv2.rectangle(
        img, (0, 0), (side - 1, side - 1), colours["tile_edge"], max(1, round(0.015 * side))
    )
    f = ports[1]
    lines = (((f, 0.0), (f, 1.0)), ((0.0, 1 - f), (1.0, 1 - f)))
    for line in lines:
        if style.outline > 0:
            _stroke(img, line, side, _darker(colours["channel"]), channel + 2 * style.outline)
        _stroke(img, line, side, colours["channel"], channel)
    star = []
    for k in range(16):
        r = 0.2 if k % 2 == 0 else 0.09
        a = math.pi * k / 8
        star.append((0.5 + r * math.cos(a), 0.5 + r * math.sin(a)))
    cv2.fillPoly(img, [_pts(star, side)], colours["icon"], cv2.LINE_AA, 4)
    cv2.circle(
        img,
        (round(side * 0.5 * 16), round(side * 0.5 * 16)),
        round(side * 0.06 * 16),
        colours["tile"],
        -1,
        cv2.LINE_AA,
        4,
    )
    return img


def draw_pack(style_name: str, *, size: int = 128, name: str | None = None) -> EnigmaPack:
    """An Enigma pack in one of :data:`STYLES` (colours, sizes, start face, icons)."""
    style = STYLES[style_name]
    colours = {k: _c(v) for k, v in style.colours.items()}
    sizes = dict(style.sizes)
    ports_raw = sizes["ports"]
    assert isinstance(ports_raw, list)
    ports = (float(ports_raw[0]), float(ports_raw[1]), float(ports_raw[2]))
    channel_raw = sizes["channel"]
    assert isinstance(channel_raw, (int, float))
    channel = float(channel_raw)
    icons = {}
    for category in CATEGORIES:
        icon = np.empty((size, size, 3), np.uint8)
        icon[:] = colours["tile"]
        draw_icon(icon, category, size, colours["icon"], 0.4)
        icons[category] = icon
    return EnigmaPack(
        name=name or f"enigma-{style_name}",
        colours=colours,
        cells={k: _c(v) for k, v in style.cells.items()},
        networkers={k: _c(v) for k, v in style.networkers.items()},
        angular={k: _c(v) for k, v in style.angular.items()},
        start=start_face(style_name, size, colours, ports, channel),
        start_conduit=CROSSROADS,
        icons=icons,
        sizes=sizes,
        style=style_name,
        description=(
            f"Enigma pieces drawn by the project ({style_name} style); not the "
            "publisher's art. Colours and sizes are demo values: teach your own."
        ),
    )


__all__ = [
    "STYLES",
    "Style",
    "draw_cell",
    "draw_icon",
    "draw_networker",
    "draw_pack",
    "paste_icon",
    "start_face",
    "tile_face",
]
