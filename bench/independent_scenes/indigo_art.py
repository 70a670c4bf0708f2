"""The looks an Indigo board is drawn in, and the art packs the reader is given for them.

Two looks, from the documentation alone (``docs/vision.md``, art pack format):

- ``demo``: the shipped demo pack's own pictures (``vision/packs/indigo-demo``), read with
  that pack;
- ``scans``: the publisher's art as scanned in ``../shared/data/indigo-images`` (route tiles,
  treasure tiles, an empty space, the round player markers), read with a pack written at run
  time in the documented pack format from the same scans (never copied into the project).

Both looks share the physical pieces the packs do not draw: gems, cut glass in the darker
colours real gems show (not the packs' flat colours), and a printed board around the cells.
Pictures are BGRA float arrays; a pack picture is a square holding one pointy-top hexagon whose
corners touch the top and bottom edges.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from .printed import REPO

DEMO_PACK = REPO / "vision" / "packs" / "indigo-demo"
SCANS = REPO.parent / "shared" / "data" / "indigo-images"
SCAN_TILES = SCANS / "yigitBaysoyu__Indigo.boardGame"
SCAN_PIECES = SCANS / "anilcanpolat__Indigo-BoardGame"

#: the scanned route tiles and the rotation each is printed at (SOURCES.md)
SCAN_TILE_FILES = {0: ("TileType0.png", 1), 1: ("TileType1.png", 0), 2: ("TileType2.png", 1),
                   3: ("TileType3.png", 1), 4: ("TileType4.png", 1)}
#: the scanned corner treasure tile has its gem spot against its left side (edge 5); the pack
#: wants it as on cell (0,-4), arrow to edge 3: four more clockwise steps
SCAN_CORNER_TURN = 4
#: player markers P0..P3 in the rules chart's colours (red, turquoise, white, purple)
SCAN_CHIPS = ("BigPlayerColorFour.png", "BigPlayerColorTwo.png", "BigPlayerColorThree.png",
              "BigPlayerColorOne.png")
CHIP_NAMES = ("red", "turquoise", "white", "purple")

#: gem bodies as real glass gems show them under a lamp (BGR): much darker and less saturated
#: than a flat drawing; amber's median is about RGB (172, 123, 22) (issue 20)
REAL_GEM_BGR = {"amber": (22.0, 123.0, 172.0), "emerald": (62.0, 128.0, 38.0),
                "sapphire": (128.0, 42.0, 12.0)}
#: a printed board's rim and its round chip places (BGR), our own pick of orange and gold
BOARD_RIM_BGR = {"demo": (43.0, 130.0, 217.0), "scans": (41.0, 116.0, 199.0)}
CHIP_SPACE_BGR = {"demo": (42.0, 134.0, 184.0), "scans": (60.0, 150.0, 215.0)}
#: between the printed cells inside the rim
FIELD_BGR = {"demo": (40.0, 110.0, 190.0), "scans": (70.0, 45.0, 30.0)}


@dataclass(frozen=True)
class Look:
    """What one look draws: pack pictures per piece kind, chip faces, and board colours."""

    name: str
    tiles: dict[int, np.ndarray]          # route tile types 0..4 at rotation 0
    empty: np.ndarray
    centre: np.ndarray
    corner: np.ndarray                    # as on cell (0,-4): arrow to edge 3
    chips: tuple[np.ndarray, ...]         # P0..P3 chip faces (square, round piece inside)
    rim: tuple[float, float, float]
    chip_space: tuple[float, float, float]
    field: tuple[float, float, float]
    pack: Path                            # the art pack the reader is given


def hex_mask(size: int) -> np.ndarray:
    """A pointy-top hexagon touching the top and bottom of a ``size`` square (0..1, float)."""
    r = size / 2
    angles = np.radians(np.arange(6) * 60 - 90)
    corners = np.stack([r + r * np.cos(angles), r + r * np.sin(angles)], axis=1)
    mask = np.zeros((size, size), np.float32)
    cv2.fillPoly(mask, [np.round(corners * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)
    return mask


def _square_bgra(image: np.ndarray) -> np.ndarray:
    """Pad a picture to a square around its middle (transparent), as float BGRA."""
    if image.shape[2] == 3:
        image = np.dstack([image, np.full(image.shape[:2], 255, image.dtype)])
    h, w = image.shape[:2]
    side = max(h, w)
    top, left = (side - h) // 2, (side - w) // 2
    out = cv2.copyMakeBorder(image, top, side - h - top, left, side - w - left,
                             cv2.BORDER_CONSTANT, value=(0, 0, 0, 0))
    return out.astype(np.float32)


def turn_clockwise(image: np.ndarray, steps: float) -> np.ndarray:
    """Turn a square picture ``steps`` sixths of a turn clockwise about its middle."""
    side = image.shape[0]
    # OpenCV's positive angle turns anticlockwise on screen
    matrix = cv2.getRotationMatrix2D((side / 2 - 0.5, side / 2 - 0.5), -60.0 * steps, 1.0)
    return cv2.warpAffine(image, matrix, (side, side), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))


def _hexagon_piece(path: Path) -> np.ndarray:
    """A pack or scan picture as BGRA with the hexagon as its alpha."""
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise FileNotFoundError(path)
    square = _square_bgra(image)
    square[..., 3] = np.minimum(square[..., 3], 255 * hex_mask(square.shape[0]))
    return square


def _round_piece(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise FileNotFoundError(path)
    return _square_bgra(image)


def _disc_chip(bgr: tuple[float, float, float], size: int = 96) -> np.ndarray:
    """A plain chip of one colour with a slightly darker edge (for the demo look)."""
    chip = np.zeros((size, size, 4), np.float32)
    centre = (size // 2, size // 2)
    cv2.circle(chip, centre, size // 2 - 1, (*[c * 0.8 for c in bgr], 255.0), -1, cv2.LINE_AA)
    cv2.circle(chip, centre, int(size * 0.42), (*bgr, 255.0), -1, cv2.LINE_AA)
    return chip


def _hex_colour(text: str) -> tuple[float, float, float]:
    r, g, b = (int(text[i:i + 2], 16) for i in (1, 3, 5))
    return float(b), float(g), float(r)


@cache
def demo_look() -> Look:
    manifest = json.loads((DEMO_PACK / "manifest.json").read_text())
    chips = tuple(_disc_chip(_hex_colour(manifest["colours"]["chips"][name]))
                  for name in CHIP_NAMES)
    return Look(name="demo",
                tiles={int(k): _hexagon_piece(DEMO_PACK / v)
                       for k, v in manifest["tiles"].items()},
                empty=_hexagon_piece(DEMO_PACK / manifest["empty"]),
                centre=_hexagon_piece(DEMO_PACK / manifest["centre"]),
                corner=_hexagon_piece(DEMO_PACK / manifest["corner"]),
                chips=chips, rim=BOARD_RIM_BGR["demo"], chip_space=CHIP_SPACE_BGR["demo"],
                field=FIELD_BGR["demo"], pack=DEMO_PACK)


def _median_colour(image: np.ndarray, inner: float = 0.6) -> tuple[float, float, float]:
    """Median BGR of the opaque middle of a round piece's picture."""
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w]
    near = np.hypot(xs - w / 2, ys - h / 2) < inner * min(h, w) / 2
    opaque = (image[..., 3] > 200) & near
    b, g, r = np.median(image[..., :3][opaque], axis=0)
    return float(b), float(g), float(r)


def _hex_text(bgr: tuple[float, float, float]) -> str:
    b, g, r = (int(round(c)) for c in bgr)
    return f"#{r:02x}{g:02x}{b:02x}"


def _write_scan_pack(folder: Path, tiles: dict[int, np.ndarray], empty: np.ndarray,
                     centre: np.ndarray, corner: np.ndarray,
                     chips: tuple[np.ndarray, ...]) -> None:
    """The scans as an art pack in the documented format (tabletop-companion/art-pack/1)."""
    folder.mkdir(parents=True, exist_ok=True)
    names = {}
    for kind, picture in tiles.items():
        names[str(kind)] = f"tile{kind}.png"
        cv2.imwrite(str(folder / names[str(kind)]), picture.astype(np.uint8))
    for name, picture in (("empty", empty), ("centre", centre), ("corner", corner)):
        cv2.imwrite(str(folder / f"{name}.png"), picture.astype(np.uint8))
    gems = {name: _hex_text(_median_colour(_round_piece(SCAN_PIECES / f"{file}Gem.png")))
            for name, file in (("amber", "yellow"), ("emerald", "green"),
                               ("sapphire", "blue"))}
    manifest = {
        "format": "tabletop-companion/art-pack/1", "game": "indigo", "name": "indigo-scans",
        "description": "the publisher's scanned art (shared test data), for measuring only",
        "tiles": names, "empty": "empty.png", "centre": "centre.png", "corner": "corner.png",
        "colours": {"rim": _hex_text(BOARD_RIM_BGR["scans"]), "table": "#6b4f3a",
                    "gems": gems,
                    "chips": {name: _hex_text(_median_colour(chip))
                              for name, chip in zip(CHIP_NAMES, chips, strict=True)},
                    "chip_space": _hex_text(CHIP_SPACE_BGR["scans"])},
        "sizes": {"gem": 0.3, "chip": 0.42},
    }
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2))


@cache
def scans_look() -> Look:
    tiles = {kind: turn_clockwise(_hexagon_piece(SCAN_TILES / file), -printed_at)
             for kind, (file, printed_at) in SCAN_TILE_FILES.items()}
    empty = _hexagon_piece(SCAN_TILES / "TileEmpty.png")
    centre = _hexagon_piece(SCAN_TILES / "TileCenter.png")
    corner = turn_clockwise(_hexagon_piece(SCAN_TILES / "TileTreasure.png"), SCAN_CORNER_TURN)
    chips = tuple(_round_piece(SCAN_PIECES / name) for name in SCAN_CHIPS)
    folder = Path(tempfile.mkdtemp(prefix="indigo-scans-pack-"))
    _write_scan_pack(folder, tiles, empty, centre, corner, chips)
    return Look(name="scans", tiles=tiles, empty=empty, centre=centre, corner=corner,
                chips=chips, rim=BOARD_RIM_BGR["scans"], chip_space=CHIP_SPACE_BGR["scans"],
                field=FIELD_BGR["scans"], pack=folder)


LOOKS = {"demo": demo_look, "scans": scans_look}
