"""Drawing Indigo pieces in a given style: the project's own art for packs and tests.

Three styles are defined, deliberately unlike each other (``sepia`` is held apart: benches
report on it, nothing is tuned on it), so a test can teach the reader with one
and check it never leans on the other:

- ``demo``: cream tiles, broad dark-blue bands with gold edges (the shipped demo pack);
- ``ink``: slate tiles with thin pale lines, other gem and chip shades (tests and the bench).

Paths follow ``rules/indigo.md`` §3: a straight joins opposite edge middles, a tight curve is
an arc round the shared corner (radius 1/2), a wide curve an arc round the centre of the
neighbouring cell (radius 3/2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.indigo.tiles import paths_of
from vision.art_pack import BGR, parse_colour
from vision.indigo.board import edge_middle, path_polyline
from vision.indigo.pack import IndigoPack


@dataclass(frozen=True)
class Style:
    name: str
    tile_base: BGR
    tile_border: BGR
    band: BGR
    band_edge: BGR
    band_width: float  # in cell radii
    edge_width: float
    empty_base: BGR
    empty_line: BGR
    centre_base: BGR
    centre_mark: BGR
    corner_base: BGR
    corner_mark: BGR
    rim: BGR
    table: BGR
    gems: dict[str, BGR]
    chips: dict[str, BGR]
    chip_space: BGR
    texture: float  # amplitude of paper grain


STYLES: dict[str, Style] = {
    "demo": Style(
        name="demo",
        tile_base=parse_colour("#efe4c8"),
        tile_border=parse_colour("#a88a5a"),
        band=parse_colour("#1d2b6e"),
        band_edge=parse_colour("#c9a13b"),
        band_width=0.30,
        edge_width=0.05,
        empty_base=parse_colour("#e3cfa0"),
        empty_line=parse_colour("#b89860"),
        centre_base=parse_colour("#17245e"),
        centre_mark=parse_colour("#d6b04a"),
        corner_base=parse_colour("#7fb7e0"),
        corner_mark=parse_colour("#f5f0e0"),
        rim=parse_colour("#d9822b"),
        table=parse_colour("#6b4f3a"),
        gems={
            "amber": parse_colour("#f5b81c"),
            "emerald": parse_colour("#22a84f"),
            "sapphire": parse_colour("#3a8cf0"),
        },
        chips={
            "red": parse_colour("#c0392b"),
            "turquoise": parse_colour("#1abc9c"),
            "white": parse_colour("#f7f4ee"),
            "purple": parse_colour("#7d3c98"),
        },
        chip_space=parse_colour("#b8862a"),
        texture=6.0,
    ),
    "ink": Style(
        name="ink",
        tile_base=parse_colour("#33383f"),
        tile_border=parse_colour("#15181c"),
        band=parse_colour("#d8d0f0"),
        band_edge=parse_colour("#8c7fc0"),
        band_width=0.16,
        edge_width=0.03,
        empty_base=parse_colour("#9aa6b2"),
        empty_line=parse_colour("#7a8794"),
        centre_base=parse_colour("#5b2d82"),
        centre_mark=parse_colour("#e8d8ff"),
        corner_base=parse_colour("#9b6cc4"),
        corner_mark=parse_colour("#f0e8ff"),
        rim=parse_colour("#2d6b5e"),
        table=parse_colour("#c8c0b0"),
        gems={
            "amber": parse_colour("#ffd23f"),
            "emerald": parse_colour("#3cd070"),
            "sapphire": parse_colour("#2a6cff"),
        },
        chips={
            "red": parse_colour("#e04050"),
            "turquoise": parse_colour("#30d0d8"),
            "white": parse_colour("#ffffff"),
            "purple": parse_colour("#a040e0"),
        },
        chip_space=parse_colour("#1d4a40"),
        texture=3.0,
    ),
    # held apart: no reader threshold is tuned on it (issue 20)
    "sepia": Style(
        name="sepia",
        tile_base=parse_colour("#d9c7a6"),
        tile_border=parse_colour("#6e5233"),
        band=parse_colour("#5a3417"),
        band_edge=parse_colour("#e8dcc0"),
        band_width=0.22,
        edge_width=0.04,
        empty_base=parse_colour("#c2ad88"),
        empty_line=parse_colour("#8f7550"),
        centre_base=parse_colour("#3d2a1a"),
        centre_mark=parse_colour("#e0c070"),
        corner_base=parse_colour("#8a6a48"),
        corner_mark=parse_colour("#f2e6cc"),
        rim=parse_colour("#a0522d"),
        table=parse_colour("#4a4a4a"),
        gems={
            "amber": parse_colour("#e0a020"),
            "emerald": parse_colour("#2e9a5a"),
            "sapphire": parse_colour("#3060c8"),
        },
        chips={
            "red": parse_colour("#b03030"),
            "turquoise": parse_colour("#20a8a0"),
            "white": parse_colour("#eeeae0"),
            "purple": parse_colour("#6a3090"),
        },
        chip_space=parse_colour("#7a5a30"),
        texture=8.0,
    ),
}


def _hex_points(size: int, scale: float = 1.0) -> np.ndarray:
    c = size / 2
    r = size / 2 * scale
    return np.array(
        [
            [
                c + r * math.cos(math.radians(-90 + 60 * i)),
                c + r * math.sin(math.radians(-90 + 60 * i)),
            ]
            for i in range(6)
        ],
        np.float64,
    )


def _to_px(x: float, y: float, size: int) -> tuple[float, float]:
    return (size / 2 + x * size / 2, size / 2 + y * size / 2)


def _grain(img: np.ndarray, amount: float, seed: int) -> np.ndarray:
    if amount <= 0:
        return img
    rng = np.random.default_rng(seed)
    small = rng.standard_normal((img.shape[0] // 4 + 1, img.shape[1] // 4 + 1)).astype(np.float32)
    grain = cv2.resize(small, (img.shape[1], img.shape[0]), interpolation=cv2.INTER_CUBIC)
    return np.clip(img.astype(np.float32) + grain[..., None] * amount, 0, 255).astype(np.uint8)


def _base(size: int, colour: BGR, border: BGR, seed: int, texture: float) -> np.ndarray:
    img = np.full((size, size, 3), 128, np.uint8)
    hexagon = _hex_points(size).astype(np.int32)
    cv2.fillPoly(img, [hexagon], colour, cv2.LINE_AA)
    img = _grain(img, texture, seed)
    cv2.polylines(img, [hexagon], True, border, max(1, size // 64), cv2.LINE_AA)
    return img


def _band(img: np.ndarray, pts: list[tuple[float, float]], style: Style) -> None:
    size = img.shape[0]
    poly = np.array([_to_px(x, y, size) for x, y in pts], np.float64)
    shift = 4
    ipoly = np.round(poly * (1 << shift)).astype(np.int32)
    outer = max(1, round((style.band_width + 2 * style.edge_width) * size / 2))
    inner = max(1, round(style.band_width * size / 2))
    cv2.polylines(img, [ipoly], False, style.band_edge, outer, cv2.LINE_AA, shift)
    cv2.polylines(img, [ipoly], False, style.band, inner, cv2.LINE_AA, shift)


def draw_tile(kind: int, style: Style, size: int = 128) -> np.ndarray:
    """Route tile ``kind`` at rotation 0, pointy-top, hexagon inscribed in a square image."""
    img = _base(size, style.tile_base, style.tile_border, 10 + kind, style.texture)
    mask = np.zeros((size, size), np.uint8)
    cv2.fillPoly(mask, [_hex_points(size).astype(np.int32)], 255)
    for a, b in paths_of(kind, 0):
        _band(img, path_polyline(a, b), style)
    img[mask == 0] = 128
    return img


def draw_empty(style: Style, size: int = 128) -> np.ndarray:
    img = _base(size, style.empty_base, style.empty_line, 3, style.texture)
    cv2.polylines(
        img,
        [_hex_points(size, 0.8).astype(np.int32)],
        True,
        style.empty_line,
        max(1, size // 96),
        cv2.LINE_AA,
    )
    return img


def draw_centre(style: Style, size: int = 128) -> np.ndarray:
    img = _base(size, style.centre_base, style.tile_border, 4, style.texture)
    c = size // 2
    star = _hex_points(size, 0.55)
    cv2.polylines(
        img, [star.astype(np.int32)], True, style.centre_mark, max(1, size // 40), cv2.LINE_AA
    )
    cv2.circle(img, (c, c), size // 10, style.centre_mark, max(1, size // 50), cv2.LINE_AA)
    for edge in range(6):
        x, y = _to_px(*edge_middle(edge), size)
        cv2.line(
            img,
            (int((x + c) / 2), int((y + c) / 2)),
            (int(x), int(y)),
            style.centre_mark,
            max(1, size // 30),
            cv2.LINE_AA,
        )
    return img


def draw_corner(style: Style, size: int = 128) -> np.ndarray:
    """A corner treasure tile as on cell (0,-4): arrow to edge 3, U-turn path 2-4."""
    img = _base(size, style.corner_base, style.tile_border, 5, style.texture)
    _band(img, path_polyline(2, 4), style)
    c = size / 2
    x, y = _to_px(*edge_middle(3), size)
    tip = (int(c + (x - c) * 0.8), int(c + (y - c) * 0.8))
    tail = (int(c - (x - c) * 0.5), int(c - (y - c) * 0.5))
    cv2.arrowedLine(
        img, tail, tip, style.corner_mark, max(2, size // 24), cv2.LINE_AA, tipLength=0.35
    )
    return img


def draw_pack(style_name: str, *, size: int = 128) -> IndigoPack:
    """A complete Indigo art pack drawn in ``style_name`` (not saved)."""
    style = STYLES[style_name]
    return IndigoPack(
        name=f"indigo-{style.name}",
        folder=None,
        tiles={k: draw_tile(k, style, size) for k in range(5)},
        empty=draw_empty(style, size),
        centre=draw_centre(style, size),
        corner=draw_corner(style, size),
        rim=style.rim,
        table=style.table,
        gems=dict(style.gems),
        chips=dict(style.chips),
        chip_space=style.chip_space,
        description=f"Indigo pieces drawn by the project ({style.name} style); not the "
        "publisher's art.",
    )
