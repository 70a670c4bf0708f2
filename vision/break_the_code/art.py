"""How Break the Code tiles look: drawing styles, the art pack, and the tile features.

An art pack for ``break-the-code`` is a folder with ``manifest.json`` and one PNG per tile::

    {
      "format": "tabletop-companion/art-pack/1",
      "game": "break-the-code",
      "name": "demo",
      "tile_mm": [28.0, 38.0],
      "colours": {"b": "#2a2a2a", "w": "#ebebe6", "g": "#3c9a46"},
      "tiles": {"0b": "tile_0b.png", "0w": "tile_0w.png", ..., "5g": "tile_5g.png", ...}
    }

Each tile image is the tile's face seen straight on, upright, cropped to its outline and scaled
to :data:`NORM_SIZE`. ``colours`` are the tile bodies as they look on the mat's grey panel
(printed grey 150 = ``#969696``), so they are compared with tiles seen next to that grey.
The project's own drawings (``demo`` and ``ivory``, deliberately unlike each other) make the
demo pack and the test scenes; ``companion teach code`` builds a pack from a photo of the
user's own 20 tiles.

Digits are read by template matching on an *ink map* (how far each pixel is from the tile's
body colour), which works the same for dark digits on light tiles and light on dark.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.break_the_code.tiles import ALL_TILES, BOX, Tile, parse_tile
from vision.art_pack import BGR, FORMAT, format_colour, parse_colour, read_manifest
from vision.break_the_code.mat import PANEL_GREY
from vision.errors import ArtPackError

GAME = "break-the-code"
#: normalised tile image (width, height) in pixels
NORM_SIZE = (60, 80)
#: share of the tile's width/height left out around the edge when measuring
EDGE = 0.07
#: the band (inside EDGE) where only the tile body shows, for its colour
BAND = 0.17
#: template shift allowance in pixels each way
SHIFT = 5

#: the 19 distinct tiles (one entry for the two green 5s)
TILE_KINDS: tuple[Tile, ...] = tuple(sorted(BOX))


@dataclass(frozen=True)
class Style:
    """A way of drawing tiles (the project's own art)."""

    name: str
    body: dict[str, BGR]
    digit: dict[str, BGR]
    tile_mm: tuple[float, float]
    font: int
    font_scale: float  # digit height as a share of the tile height
    thickness: float  # stroke as a share of the tile width
    underline: bool  # a bar under 6 and 9
    radius: float  # corner radius as a share of the tile width
    edge: BGR | None = None  # a thin rim of another colour


STYLES: dict[str, Style] = {
    "demo": Style(
        name="demo",
        body={"b": parse_colour("#2a2a2a"), "w": parse_colour("#ebebe6"),
              "g": parse_colour("#3c9a46")},
        digit={"b": parse_colour("#f4f4f0"), "w": parse_colour("#1c1c1c"),
               "g": parse_colour("#f4f4f0")},
        tile_mm=(28.0, 38.0),
        font=cv2.FONT_HERSHEY_DUPLEX,
        font_scale=0.52,
        thickness=0.11,
        underline=True,
        radius=0.14,
    ),
    "ivory": Style(
        name="ivory",
        body={"b": parse_colour("#1e2230"), "w": parse_colour("#f0e4c8"),
              "g": parse_colour("#2f7a3a")},
        digit={"b": parse_colour("#e8dcc0"), "w": parse_colour("#262018"),
               "g": parse_colour("#f0e8d0")},
        tile_mm=(30.0, 40.0),
        font=cv2.FONT_HERSHEY_COMPLEX,
        font_scale=0.48,
        thickness=0.08,
        underline=False,
        radius=0.08,
        edge=parse_colour("#8a7a5a"),
    ),
}


def draw_tile(tile: Tile, style: Style, *, px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """The tile face (BGR) and its outline mask (uint8, 255 inside), upright."""
    w = round(style.tile_mm[0] * px_per_mm)
    h = round(style.tile_mm[1] * px_per_mm)
    letter = tile.colour.value
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = style.body[letter]
    mask = np.zeros((h, w), np.uint8)
    r = max(1, round(style.radius * w))
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    if style.edge is not None:
        rim = cv2.subtract(mask, cv2.erode(mask, np.ones((3, 3), np.uint8),
                                           iterations=max(1, round(0.6 * px_per_mm))))
        img[rim > 0] = style.edge
    text = str(tile.number)
    thick = max(1, round(style.thickness * w))
    (tw, th), _ = cv2.getTextSize(text, style.font, 1.0, thick)
    scale = style.font_scale * h / th
    thick = max(1, round(style.thickness * w))
    (tw, th), base = cv2.getTextSize(text, style.font, scale, thick)
    org = ((w - tw) // 2, (h + th) // 2 - round(0.03 * h))
    colour = style.digit[letter]
    cv2.putText(img, text, org, style.font, scale, colour, thick, cv2.LINE_AA)
    if style.underline and tile.number in (6, 9):
        y = org[1] + round(0.09 * h)
        cv2.line(img, (org[0] + tw // 6, y), (org[0] + tw - tw // 6, y), colour, thick,
                 cv2.LINE_AA)
    img[mask == 0] = 0
    return img, mask


# ---------------------------------------------------------------- features


def ink_map(norm: np.ndarray, body_grey: float) -> np.ndarray:
    """How far each pixel's grey is from the body's, with the tile edge left out (float32)."""
    grey = cv2.cvtColor(norm, cv2.COLOR_BGR2GRAY).astype(np.float32)
    ink: np.ndarray = np.abs(grey - body_grey)
    h, w = ink.shape
    ex, ey = round(EDGE * w), round(EDGE * h)
    ink[:ey, :] = 0
    ink[h - ey:, :] = 0
    ink[:, :ex] = 0
    ink[:, w - ex:] = 0
    return ink


def body_colour(norm: np.ndarray) -> np.ndarray:
    """The median colour of the band just inside the tile's edge (the digit stays clear of
    it), as float BGR."""
    h, w = norm.shape[:2]
    band = np.zeros((h, w), bool)
    e0x, e0y = round(EDGE * w), round(EDGE * h)
    e1x, e1y = round(BAND * w), round(BAND * h)
    band[e0y:h - e0y, e0x:w - e0x] = True
    band[e1y:h - e1y, e1x:w - e1x] = False
    median: np.ndarray = np.median(norm[band].reshape(-1, 3).astype(np.float32), axis=0)
    return median


def grey_of(bgr: np.ndarray | BGR) -> float:
    b, g, r = (float(v) for v in bgr)
    return 0.114 * b + 0.587 * g + 0.299 * r


def template_of(ink: np.ndarray) -> np.ndarray:
    """The inner part of an ink map, for matching with up to :data:`SHIFT` pixels of play."""
    return np.ascontiguousarray(ink[SHIFT:-SHIFT, SHIFT:-SHIFT])


# ---------------------------------------------------------------- the pack


@dataclass(frozen=True)
class CodePack:
    """A loaded Break the Code art pack."""

    name: str
    tile_mm: tuple[float, float]
    #: body colour per colour letter, as seen beside the panel grey
    colours: dict[str, np.ndarray]
    #: normalised face image per tile kind ("0b" .. "9w", "5g")
    tiles: dict[str, np.ndarray]
    description: str = ""
    folder: Path | None = None
    #: ink templates per tile kind, derived on construction
    templates: dict[str, np.ndarray] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        missing = [str(t) for t in TILE_KINDS if str(t) not in self.tiles]
        if missing:
            raise ArtPackError(f"art pack {self.name!r} lacks the tiles {', '.join(missing)}")
        if sorted(self.colours) != ["b", "g", "w"]:
            raise ArtPackError(f"art pack {self.name!r} needs the colours b, w and g")
        for kind, img in self.tiles.items():
            if img.shape[:2] != (NORM_SIZE[1], NORM_SIZE[0]):
                img = cv2.resize(img, NORM_SIZE, interpolation=cv2.INTER_AREA)
                self.tiles[kind] = img
            body = body_colour(img)
            self.templates[kind] = template_of(ink_map(img, grey_of(body)))

    def manifest(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": GAME,
            "name": self.name,
            "description": self.description,
            "tile_mm": [round(self.tile_mm[0], 2), round(self.tile_mm[1], 2)],
            "colours": {k: format_colour(v) for k, v in sorted(self.colours.items())},
            "tiles": {str(t): f"tile_{t}.png" for t in TILE_KINDS},
        }

    def save(self, folder: Path) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        for kind, img in self.tiles.items():
            if not cv2.imwrite(str(folder / f"tile_{kind}.png"), img):
                raise ArtPackError(f"{folder}: cannot write tile_{kind}.png")
        (folder / "manifest.json").write_text(json.dumps(self.manifest(), indent=2) + "\n",
                                              encoding="utf-8")
        return folder


def pack_from_style(style: Style, *, description: str = "") -> CodePack:
    """A pack drawn from a style: what a perfect teach photo of those tiles would give."""
    px = 8.0
    tiles: dict[str, np.ndarray] = {}
    for tile in TILE_KINDS:
        face, mask = draw_tile(tile, style, px_per_mm=px)
        face[mask == 0] = (PANEL_GREY,) * 3
        tiles[str(tile)] = cv2.resize(face, NORM_SIZE, interpolation=cv2.INTER_AREA)
    colours = {k: np.array(v, np.float32) for k, v in style.body.items()}
    return CodePack(
        name=style.name,
        tile_mm=style.tile_mm,
        colours=colours,
        tiles=tiles,
        description=description or f"the project's own {style.name} drawing of the tiles",
    )


@cache
def demo_pack() -> CodePack:
    """The demo look shipped with the app (drawn by the project, not the publisher's art)."""
    return pack_from_style(STYLES["demo"])


def load_code_pack(folder: str | Path | None = None) -> CodePack:
    """Load a Break the Code pack; ``None`` or ``""`` gives the demo pack."""
    if not folder:
        return demo_pack()
    path = Path(folder)
    manifest_path, data = read_manifest(path, GAME)
    try:
        colours = {k: np.array(parse_colour(v, where=f"colours.{k}"), np.float32)
                   for k, v in dict(data["colours"]).items()}
        tile_mm = (float(data["tile_mm"][0]), float(data["tile_mm"][1]))
        entries = dict(data["tiles"])
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ArtPackError(f"{manifest_path}: malformed manifest ({exc})") from None
    tiles: dict[str, np.ndarray] = {}
    for kind, name in entries.items():
        try:
            parse_tile(kind)
        except ValueError:
            raise ArtPackError(f"{manifest_path}: {kind!r} is not a tile") from None
        img = cv2.imread(str(path / str(name)), cv2.IMREAD_COLOR)
        if img is None:
            raise ArtPackError(f"{path}: tile image {name!r} is missing or unreadable")
        tiles[kind] = img
    return CodePack(
        name=str(data.get("name", path.name)),
        tile_mm=tile_mm,
        colours=colours,
        tiles=tiles,
        description=str(data.get("description", "")),
        folder=path,
    )


#: the teach order: slot i of the mat holds ALL_TILES[i]
TEACH_ORDER: tuple[Tile, ...] = ALL_TILES
