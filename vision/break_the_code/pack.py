"""The Break the Code art pack: how the player's tiles look, as the reader compares them.

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
to :data:`~vision.break_the_code.features.NORM_SIZE`. ``colours`` are the tile bodies as they
look on the mat's grey panel (printed grey 150 = ``#969696``), so they are compared with tiles
seen next to that grey. The demo pack ships as files in ``vision/packs/code-demo`` (drawn by
the project, see ``vision/break_the_code/synth/demo_pack.py``); ``companion teach code`` builds
a pack from a photo of the user's own 20 tiles.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.break_the_code.tiles import ALL_TILES, BOX, Tile, parse_tile
from vision.art_pack import (
    FORMAT,
    PACKS_DIR,
    format_colour,
    parse_colour,
    read_manifest,
    write_pack,
)
from vision.break_the_code.features import NORM_SIZE, body_colour, grey_of, ink_map, template_of
from vision.errors import ArtPackError

GAME = "break-the-code"
#: the shipped demo pack (the project's own drawing of the tiles)
DEMO_CODE = PACKS_DIR / "code-demo"

#: the 19 distinct tiles (one entry for the two green 5s)
TILE_KINDS: tuple[Tile, ...] = tuple(sorted(BOX))

#: the teach order: slot i of the mat holds ALL_TILES[i]
TEACH_ORDER: tuple[Tile, ...] = ALL_TILES


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
        """The pack's ``manifest.json`` content."""
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
        """Write the pack (manifest and PNGs) into ``folder``, which :func:`load_code_pack`
        reads back. The files are their owner's only: a taught pack is a picture of the
        household's own tiles."""
        images = {f"tile_{kind}.png": img for kind, img in self.tiles.items()}
        return write_pack(folder, images, self.manifest())


@cache
def demo_pack() -> CodePack:
    """The demo look shipped with the app (drawn by the project, not the publisher's art),
    loaded once from :data:`DEMO_CODE`."""
    return _load_folder(DEMO_CODE)


def load_code_pack(folder: str | Path | None = None) -> CodePack:
    """Load a Break the Code pack; ``None`` or ``""`` gives the demo pack."""
    if not folder:
        return demo_pack()
    return _load_folder(Path(folder))


def _load_folder(path: Path) -> CodePack:
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
