"""The Indigo art pack: how Indigo's pieces look, as data (see ``docs/vision.md``).

A pack is a folder with ``manifest.json`` and PNG images (:mod:`vision.art_pack`)::

    {
      "format": "tabletop-companion/art-pack/1",
      "game": "indigo",
      "name": "demo",
      "description": "...",
      "tiles": {"0": "tile0.png", "1": "tile1.png", "2": "tile2.png", "3": "tile3.png",
                "4": "tile4.png"},
      "empty": "empty.png",
      "centre": "centre.png",
      "corner": "corner.png",
      "colours": {
        "rim": "#d9822b", "table": "#6b4f3a",
        "gems": {"amber": "#f2b01e", "emerald": "#1f9e4a", "sapphire": "#1f5fd0"},
        "chips": {"red": "#c0392b", "turquoise": "#1abc9c", "white": "#f4f1ea",
                  "purple": "#7d3c98"},
        "chip_space": "#e8b04a"
      },
      "sizes": {"gem": 0.3, "chip": 0.42}
    }

Images are square PNGs of any size showing one pointy-top hexagon whose corners touch the
top and bottom of the image (circumradius = half the height; outside the hexagon is ignored):

- ``tiles``: each route tile type at **rotation 0** (``rules/indigo.md`` §3: type 3 at
  rotation 0 has the paths 0-5, 1-3, 2-4, edge 0 upper-left, clockwise);
- ``empty``: an empty route cell of the board; ``centre``: the centre treasure tile;
  ``corner``: a corner treasure tile as it lies on cell (0,-4) (arrow on edge 3, lower-right).

Colours are ``#rrggbb``. Sizes are radii in cell radii (cell corner radius = 1).
The chip colour names are free: the reader reports the names the pack uses, in pack order,
as players P0, P1, ... (the rules chart: red, turquoise, white, purple).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from vision.art_pack import (
    BGR,
    FORMAT,
    PACKS_DIR,
    format_colour,
    load_pack_image,
    parse_colour,
    read_manifest,
    write_pack,
)
from vision.errors import ArtPackError

#: the demo pack shipped with the app (drawn by ``vision/indigo/synth/demo_pack.py``)
DEMO_INDIGO = PACKS_DIR / "indigo-demo"


@dataclass(frozen=True)
class IndigoPack:
    """A loaded Indigo art pack: BGR images (square, hexagon inscribed) and colours."""

    name: str
    folder: Path | None
    tiles: dict[int, np.ndarray]
    empty: np.ndarray
    centre: np.ndarray
    corner: np.ndarray
    rim: BGR
    table: BGR
    gems: dict[str, BGR]
    chips: dict[str, BGR]
    chip_space: BGR
    gem_size: float = 0.3
    chip_size: float = 0.42
    description: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def manifest(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": "indigo",
            "name": self.name,
            "description": self.description,
            "tiles": {str(k): f"tile{k}.png" for k in sorted(self.tiles)},
            "empty": "empty.png",
            "centre": "centre.png",
            "corner": "corner.png",
            "colours": {
                "rim": format_colour(self.rim),
                "table": format_colour(self.table),
                "gems": {k: format_colour(v) for k, v in self.gems.items()},
                "chips": {k: format_colour(v) for k, v in self.chips.items()},
                "chip_space": format_colour(self.chip_space),
            },
            "sizes": {"gem": self.gem_size, "chip": self.chip_size},
        }

    def save(self, folder: Path) -> Path:
        """Write the pack (manifest + PNGs) into ``folder``."""
        images = {f"tile{kind}.png": img for kind, img in self.tiles.items()}
        images.update({"empty.png": self.empty, "centre.png": self.centre,
                       "corner.png": self.corner})
        return write_pack(folder, images, self.manifest())


def load_indigo_pack(folder: str | Path | None = None) -> IndigoPack:
    """Load an Indigo pack; ``None`` or ``""`` loads the demo pack shipped with the app."""
    path = Path(folder) if folder else DEMO_INDIGO
    manifest_path, data = read_manifest(path, "indigo")
    tiles_entry = data.get("tiles")
    if not isinstance(tiles_entry, dict) or sorted(tiles_entry) != ["0", "1", "2", "3", "4"]:
        raise ArtPackError(f"{manifest_path}: 'tiles' must name the images of types 0..4")
    colours = data.get("colours")
    if not isinstance(colours, dict):
        raise ArtPackError(f"{manifest_path}: 'colours' is missing")
    try:
        gems = {
            name: parse_colour(colours["gems"][name], where=f"gems.{name}")
            for name in ("amber", "emerald", "sapphire")
        }
        chips_entry = colours["chips"]
        if not isinstance(chips_entry, dict) or not 2 <= len(chips_entry) <= 8:
            raise ArtPackError(f"{manifest_path}: 'chips' must give 2..8 chip colours")
        chips = {str(k): parse_colour(v, where=f"chips.{k}") for k, v in chips_entry.items()}
        rim = parse_colour(colours["rim"], where="rim")
        table = parse_colour(colours.get("table", "#6b4f3a"), where="table")
        chip_space = parse_colour(colours.get("chip_space", colours["rim"]), where="chip_space")
    except KeyError as exc:
        raise ArtPackError(f"{manifest_path}: colour {exc.args[0]!r} is missing") from None
    sizes = data.get("sizes", {})
    return IndigoPack(
        name=str(data.get("name", path.name)),
        folder=path,
        tiles={int(k): load_pack_image(path, v, f"tile {k}") for k, v in tiles_entry.items()},
        empty=load_pack_image(path, data.get("empty"), "empty"),
        centre=load_pack_image(path, data.get("centre"), "centre"),
        corner=load_pack_image(path, data.get("corner"), "corner"),
        rim=rim,
        table=table,
        gems=gems,
        chips=chips,
        chip_space=chip_space,
        gem_size=float(sizes.get("gem", 0.3)),
        chip_size=float(sizes.get("chip", 0.42)),
        description=str(data.get("description", "")),
    )
