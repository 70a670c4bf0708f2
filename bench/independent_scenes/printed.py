"""The printed paper the scenes are drawn on: the images ``companion print`` writes.

The geometry below was measured on those images (300 dpi), not taken from the printing code:
the code mat is A4 landscape (3508 x 2480 px) with a grey panel of 4 x 5 slots; the sheet is
A5 portrait (1748 x 2480 px) with a 9 x 9 grid of 14 mm cells.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[2]
PRINT_DPI = 300
PX_PER_MM = PRINT_DPI / 25.4

# Code mat, measured on `companion print code-mat -o mat.png` (pixels of the printed page).
MAT_SLOT_A1_LEFT_TOP = (522.0, 67.0)     # outer edge of the slot's printed outline
MAT_SLOT_SIZE = (479.0, 574.0)           # width, height of a slot outline
MAT_SLOT_PITCH = (496.0, 590.0)          # slot to slot, across and down
MAT_PANEL = ((513.0, 58.0), (2995.0, 2421.0))  # the grey panel's corners (left-top, right-bottom)

# Second Chance sheet, measured on `companion print sheet -o sheet.png`: the centre lines of
# the thick outer frame.
SHEET_GRID_LEFT_TOP = (129.5, 548.5)
SHEET_CELL_PX = (1617.5 - 129.5) / 9     # 14 mm at 300 dpi
SHEET_CENTRE_CIRCLE_RADIUS_PX = 0.36 * SHEET_CELL_PX

# Indigo teach sheet, measured on `companion print teach-sheet -o teach.png` (A4 portrait pages,
# 2480 x 3508 px): pages 1-5 hold one pointy-top hexagon outline (the tile at rotation 0),
# page 6 seven circles in rows (amber, emerald, sapphire gems; red, turquoise, white, purple
# chips).
TEACH_HEX_CENTRE = (1239.5, 1416.5)
TEACH_HEX_RADIUS_PX = 292.6              # corner to centre, to the outline's middle
TEACH_CIRCLES = ((709.4, 1063.2), (1240.4, 1063.2), (1772.4, 1063.2), (709.4, 1890.2),
                 (1240.4, 1890.2), (1772.4, 1890.2), (1240.4, 2539.2))


def _print_with_cli(what: str, name: str) -> np.ndarray:
    """Run ``companion print`` once per process and keep the page it writes."""
    out_dir = Path(tempfile.mkdtemp(prefix="independent-print-"))
    target = out_dir / name
    subprocess.run([sys.executable, "-m", "ui.cli", "print", what, "-o", str(target)],
                   cwd=REPO, check=True, capture_output=True)
    image = cv2.imread(str(target), cv2.IMREAD_COLOR)
    if image is None:
        raise RuntimeError(f"companion print {what} wrote no readable {target}")
    return image


@cache
def teach_pages() -> tuple[np.ndarray, ...]:
    """The six Indigo teach pages ``companion print teach-sheet`` writes as PNGs."""
    out_dir = Path(tempfile.mkdtemp(prefix="independent-print-"))
    subprocess.run([sys.executable, "-m", "ui.cli", "print", "teach-sheet", "-o",
                    str(out_dir / "teach.png")], cwd=REPO, check=True, capture_output=True)
    pages = tuple(cv2.imread(str(out_dir / f"teach-{n}.png"), cv2.IMREAD_COLOR)
                  for n in range(1, 7))
    if any(page is None for page in pages):
        raise RuntimeError(f"companion print teach-sheet wrote no readable pages in {out_dir}")
    return pages


@cache
def code_mat_page() -> np.ndarray:
    return _print_with_cli("code-mat", "mat.png")


@cache
def sheet_page() -> np.ndarray:
    return _print_with_cli("sheet", "sheet.png")


def slot_centre_px(column: int, row: int = 0) -> tuple[float, float]:
    """Centre of slot ``column`` (0 = A) in ``row`` (0 = top) on the printed mat."""
    left, top = MAT_SLOT_A1_LEFT_TOP
    return (left + column * MAT_SLOT_PITCH[0] + MAT_SLOT_SIZE[0] / 2,
            top + row * MAT_SLOT_PITCH[1] + MAT_SLOT_SIZE[1] / 2)


def cell_corner_px(row: float, col: float) -> tuple[float, float]:
    """Printed-page position of grid point (row, col); cell (r, c) spans r..r+1, c..c+1."""
    left, top = SHEET_GRID_LEFT_TOP
    return left + col * SHEET_CELL_PX, top + row * SHEET_CELL_PX


def page_corners(page: np.ndarray) -> np.ndarray:
    h, w = page.shape[:2]
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
