"""Shared helpers for the Indigo vision tests: seeded states and rendered frames."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.indigo.state import IndigoState
from vision.indigo.board import gem_spots
from vision.indigo.model import PackModel, canonical_size, pack_model, to_canonical
from vision.indigo.pack import IndigoPack
from vision.indigo.read_types import IndigoRead
from vision.indigo.records import random_state
from vision.indigo.settings import DEFAULT_SETTINGS

FRAME = (1280, 720)


def spot_ten_offsets(pack: IndigoPack, gem_scale: int = 2) -> tuple[PackModel, float, np.ndarray,
                                                                     np.ndarray]:
    """The board rectified as gems are read (``gem_scale`` times the tiles' cell size): its
    pack model, the gem radius in its pixels, and each pixel's x and y offset (float) from
    the middle of gem spot 10, the spot the gem tests lay their stones and bands on."""
    cell_px = gem_scale * DEFAULT_SETTINGS.cell_px
    x, y = to_canonical(gem_spots()[10][1], cell_px)
    yy, xx = np.mgrid[0 : canonical_size(cell_px), 0 : canonical_size(cell_px)]
    return pack_model(pack, cell_px), pack.gem_size * cell_px, xx - x, yy - y


def read_independent_board(seed: int) -> tuple[Any, dict[str, Any]]:
    """Independent tuning board ``seed`` (bench/independent_scenes), harsh, demo look: its
    truth, and the read the app makes of it (what ``companion read indigo`` prints)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    from independent_scenes.indigo_compare import read_frame
    from independent_scenes.indigo_scene import indigo_scene

    scene = indigo_scene(seed, "demo", "harsh")
    out, _ = read_frame(scene.frame, scene.look.pack)
    assert isinstance(out, dict)
    return scene.truth, out


def state(seed: int, placements: int) -> IndigoState:
    return random_state(random.Random(seed), placements=placements)


def cell_errors(read: IndigoRead, truth: dict[str, Any]) -> list[str]:
    """Cells whose read path set differs from the truth (empty cells included)."""
    want = {tuple(t["cell"]): [list(p) for p in t["paths"]] for t in truth["tiles"]}
    out = []
    for cell, r in read.cells.items():
        got = None if r.tile is None else [list(p) for p in r.tile.paths]
        if got != want.get(cell):
            out.append(f"{cell}: read {r.tile}, truth {want.get(cell)}")
    return out


def gem_multiset(doc: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((g["gem"], repr(sorted(g["at"].items()))) for g in doc["gems"])


def pack_name(pack: IndigoPack) -> str:
    return pack.name


def gem_misreads_unasked(read: IndigoRead, truth: dict[str, Any], pack: IndigoPack) -> list[str]:
    """Gem differences from the truth that no question points at (must be empty).

    A wrong centre count must come with a "centre:" question; a wrong gem on an edge point
    with a question naming that cell or corner.
    """
    from collections import Counter

    got = Counter(gem_multiset(read.to_json(pack)))
    want = Counter(gem_multiset(truth))
    out = []
    for (gem, at), _ in ((got - want) + (want - got)).items():
        if "centre" in at:
            if not any(q.startswith("centre:") for q in read.questions):
                out.append(f"{gem} {at}")
            continue
        numbers = [
            int(n)
            for n in at.replace("[", " ")
            .replace("]", " ")
            .replace(",", " ")
            .replace(")", " ")
            .split()
            if n.lstrip("-").isdigit()
        ]
        q, r = numbers[0], numbers[1]
        if not any(f"({q},{r})" in text for text in read.questions):
            out.append(f"{gem} {at}")
    return out


def laid_by_hand(image: np.ndarray, cell_px: int, side: int, turn_deg: float, dx: float,
                 dy: float) -> np.ndarray:
    """A pack image at ``cell_px`` per radius, turned clockwise and moved by (dx, dy)."""
    src = image.shape[0]
    m = cv2.getRotationMatrix2D((src / 2, src / 2), -turn_deg, 2 * cell_px / src)
    m[0, 2] += (side - 1) / 2 - src / 2 + dx
    m[1, 2] += (side - 1) / 2 - src / 2 + dy
    return cv2.warpAffine(image.astype(np.float32), m, (side, side), flags=cv2.INTER_AREA)


def laid_board(pack: IndigoPack, tiles: dict[Any, Any], turn_deg: float) -> np.ndarray:
    """The straightened board's grey (blurred as the reader blurs it): ``tiles`` (cell ->
    Tile) drawn from ``pack`` on their cells, each turned ``turn_deg`` past its rotation as a
    hand lays it, every other route cell empty."""
    from companion.indigo import ROUTE_CELLS
    from vision.indigo.board import cell_xy
    from vision.indigo.model import TEMPLATE_BLUR, canonical_size, to_canonical, to_gray
    cell_px = DEFAULT_SETTINGS.cell_px
    canvas = np.zeros((canonical_size(cell_px), canonical_size(cell_px), 3), np.float32)
    side = 4 * cell_px + 1
    yy, xx = np.mgrid[:side, :side]
    inside = ((xx - (side - 1) / 2) ** 2 + (yy - (side - 1) / 2) ** 2) <= (0.97 * cell_px) ** 2
    for cell in ROUTE_CELLS:
        tile = tiles.get(cell)
        image = pack.empty if tile is None else pack.tiles[tile.kind]
        turn = 0.0 if tile is None else 60 * tile.rotation + turn_deg
        patch = laid_by_hand(image, cell_px, side, turn, 0.0, 0.0)
        x, y = (int(round(v)) for v in to_canonical(cell_xy(cell), cell_px))
        canvas[y - side // 2 : y + side // 2 + 1, x - side // 2 : x + side // 2 + 1][inside] = \
            patch[inside]
    board = to_gray(np.clip(canvas, 0, 255).astype(np.uint8))
    return cv2.GaussianBlur(board, (0, 0), TEMPLATE_BLUR)  # type: ignore[no-any-return]


def read_laid_tiles(drawn: IndigoPack, taught: IndigoPack, kinds: tuple[int, ...],
                    turn_deg: float) -> tuple[dict[Any, Any], dict[Any, Any]]:
    """Tiles of ``kinds`` at every rotation, drawn from ``drawn`` on every other route cell
    and laid ``turn_deg`` off (:func:`laid_board`), read with ``taught``: (cell -> Tile laid,
    cell -> CellRead)."""
    from companion.indigo import ROUTE_CELLS, Tile
    from vision.indigo.model import pack_model
    from vision.indigo.settings import DEFAULT_SETTINGS
    from vision.indigo.tiles import read_tiles

    placed = [Tile(kind, rotation) for kind in kinds for rotation in range(6)]
    tiles = dict(zip(ROUTE_CELLS[::2], placed, strict=False))
    model = pack_model(taught, DEFAULT_SETTINGS.cell_px)
    board = laid_board(drawn, tiles, turn_deg)
    return tiles, read_tiles(board, [], model, DEFAULT_SETTINGS, taught.gem_size)
