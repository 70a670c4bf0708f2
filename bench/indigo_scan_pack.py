"""The real board scans in ``../shared/data/indigo-images`` as an Indigo art pack, built in
memory at test time (never copied into the project: the scans carry no licence).

    from indigo_scan_pack import scan_pack, scans_available

Tiles come from yigitBaysoyu/Indigo.boardGame (pointy-top 360 x 416 reproductions of the
printed art; SOURCES.md gives each one's type and rotation), turned back to rotation 0; the
corner treasure tile is turned so its arrow side is edge 3, as the pack format wants; the
gem colours are the medians of the cut-out gem photos.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.indigo.pack import IndigoPack
from vision.indigo.synth.art import draw_pack

SCANS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "indigo-images"
TILES = SCANS / "yigitBaysoyu__Indigo.boardGame"
GEMS = SCANS / "anilcanpolat__Indigo-BoardGame"
#: (file, rotation shown) per tile type, from SOURCES.md
TILE_FILES = {0: ("TileType0.png", 1), 1: ("TileType1.png", 0), 2: ("TileType2.png", 1),
              3: ("TileType3.png", 1), 4: ("TileType4.png", 1)}
#: TileTreasure.png: its arrow (gem spot) side is edge 5; the pack's corner has it on edge 3
TREASURE_ARROW_EDGE = 5
#: grey under the transparent parts (outside the hexagon is ignored by the reader)
OUTSIDE = 128


def scans_available() -> bool:
    return (TILES / "TileType0.png").exists()


def _square(path: Path, turn_steps: int = 0) -> np.ndarray:
    """A scan on grey, padded to a square whose height the hexagon fills, turned
    ``turn_steps`` x 60 degrees clockwise."""
    rgba = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    h, w = rgba.shape[:2]
    a = rgba[..., 3:4].astype(np.float32) / 255
    bgr = (rgba[..., :3].astype(np.float32) * a + OUTSIDE * (1 - a)).astype(np.uint8)
    out = np.full((h, h, 3), OUTSIDE, np.uint8)
    x0 = (h - w) // 2
    out[:, x0 : x0 + w] = bgr
    if turn_steps % 6:
        m = cv2.getRotationMatrix2D((h / 2, h / 2), -60.0 * turn_steps, 1.0)
        out = cv2.warpAffine(out, m, (h, h), flags=cv2.INTER_LINEAR,
                             borderValue=(OUTSIDE, OUTSIDE, OUTSIDE))
    return out


def _gem_colour(name: str) -> tuple[int, int, int]:
    rgba = cv2.imread(str(GEMS / name), cv2.IMREAD_UNCHANGED)
    inside = rgba[rgba[..., 3] > 200][:, :3]
    b, g, r = (int(v) for v in np.median(inside, axis=0))
    return (b, g, r)


def scan_pack() -> IndigoPack:
    """The scans as a pack (chips and table from the project's demo drawing)."""
    base = draw_pack("demo")
    tiles = {kind: _square(TILES / name, -rot) for kind, (name, rot) in TILE_FILES.items()}
    return IndigoPack(
        name="indigo-scans",
        folder=None,
        tiles=tiles,
        empty=_square(TILES / "TileEmpty.png"),
        centre=_square(TILES / "TileCenter.png"),
        corner=_square(TILES / "TileTreasure.png", 3 - TREASURE_ARROW_EDGE),
        rim=(31, 130, 224),
        table=base.table,
        gems={"amber": _gem_colour("yellowGem.png"), "emerald": _gem_colour("greenGem.png"),
              "sapphire": _gem_colour("blueGem.png")},
        chips=dict(base.chips),
        chip_space=(44, 150, 200),
        description="the publisher's printed art from scans (test data in ../shared only)",
    )
