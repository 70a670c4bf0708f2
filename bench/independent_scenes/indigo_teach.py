"""Teach the reader a look the documented way (``docs/vision.md``, "Teaching a pack from your
pieces"): print the teach sheet, lay one tile of each type on pages 1-5 and one gem and chip on
each circle of page 6, photograph them, photograph the board with its treasure tiles before
gems and chips go on, and run ``companion teach indigo``. The photos are our own: pages lying
on a table under ``camera.photograph``, the board through this generator's mild camera.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from .camera import photograph
from .indigo_art import CHIP_NAMES, LOOKS, REAL_GEM_BGR, Look
from .indigo_board import CELL_RADIUS_MM, CHIP_RADIUS_RADII, GEM_RADIUS_RADII, paste_px
from .indigo_gems import draw_gem, draw_shadow
from .printed import (
    PX_PER_MM,
    REPO,
    TEACH_CIRCLES,
    TEACH_HEX_CENTRE,
    TEACH_HEX_RADIUS_PX,
    teach_pages,
)

A4_PORTRAIT_MM = (210.0, 297.0)
TEACH_BOARD_SEED = 0x7EAC          # the one photo of the empty board a player takes
GEMS = ("amber", "emerald", "sapphire")
HAND_PX = 8.0                      # how far off the printed lines a tile is laid
HAND_DEG = 3.0


def _bgra(page: np.ndarray) -> np.ndarray:
    return np.dstack([page, np.full(page.shape[:2], 255, page.dtype)]).astype(np.float32)


def _tile_page(page: np.ndarray, tile: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    laid = _bgra(page)
    centre = np.array(TEACH_HEX_CENTRE) + rng.uniform(-HAND_PX, HAND_PX, 2)
    paste_px(laid, tile, centre, TEACH_HEX_RADIUS_PX, rng.uniform(-HAND_DEG, HAND_DEG))
    return laid[..., :3]


def _pieces_page(page: np.ndarray, look: Look, rng: np.random.Generator) -> np.ndarray:
    laid = _bgra(page)
    lamp = np.array([np.cos(1.0), np.sin(1.0)])
    gem_px = float(np.mean(GEM_RADIUS_RADII)) * CELL_RADIUS_MM * PX_PER_MM
    shade = np.ones(laid.shape[:2], np.float32)
    for centre in TEACH_CIRCLES[:3]:
        draw_shadow(shade, tuple(centre), gem_px, lamp, rng)
    laid[..., :3] *= cv2.GaussianBlur(shade, (0, 0), 6.0)[..., None]
    for gem, centre in zip(GEMS, TEACH_CIRCLES[:3], strict=True):
        draw_gem(laid, tuple(centre), gem_px, REAL_GEM_BGR[gem], lamp, rng)
    chip_px = CHIP_RADIUS_RADII * CELL_RADIUS_MM * PX_PER_MM
    for name, centre in zip(CHIP_NAMES, TEACH_CIRCLES[3:], strict=True):
        paste_px(laid, look.chips[CHIP_NAMES.index(name)], np.array(centre), chip_px,
                 rng.uniform(0, 360))
    return laid[..., :3]


def teach_photos(look: Look, rng: np.random.Generator) -> list[np.ndarray]:
    """Photos of the five tile pages and the pieces page, each with its pieces laid on."""
    pages = teach_pages()
    laid = [_tile_page(pages[kind], look.tiles[kind], rng) for kind in range(5)]
    laid.append(_pieces_page(pages[5], look, rng))
    return [photograph(np.clip(page, 0, 255).astype(np.uint8), A4_PORTRAIT_MM, rng,
                       glare_spots=0)[0] for page in laid]


@cache
def taught_look(base: str) -> Look:
    """``base``'s look, with the pack ``companion teach indigo`` builds from our photos."""
    from .indigo_scene import indigo_scene

    look = LOOKS[base]()
    folder = Path(tempfile.mkdtemp(prefix=f"indigo-teach-{base}-"))
    names = []
    for n, photo in enumerate(teach_photos(look, np.random.default_rng([TEACH_BOARD_SEED]))):
        names.append(str(folder / f"page-{n + 1}.png"))
        cv2.imwrite(names[-1], photo)
    board = folder / "board.png"
    cv2.imwrite(str(board), indigo_scene(TEACH_BOARD_SEED, base, "mild", bare=True).frame)
    done = subprocess.run([sys.executable, "-m", "ui.cli", "teach", "indigo", *names,
                           "--board", str(board), "-o", str(folder / "pack")], cwd=REPO,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"companion teach indigo failed: {done.stderr.strip()}")
    return dataclasses.replace(look, name=f"{base}-taught", pack=folder / "pack")
