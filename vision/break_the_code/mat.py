"""The Break the Code *code mat*: a printed A4 sheet the tiles are laid on for the camera.

Four ArUco markers (``RESERVED_IDS["break-the-code"]``) sit in the corners; between them a
mid-grey panel holds 4 rows of 5 slots, A-E left to right. A rack (or the central tiles) goes
in the top row, left to right in rack order; teaching uses all 20 slots, the tiles in box order
(``0b 0w 1b 1w ... 5g 5g ... 9b 9w``). The panel is one uniform grey so that a tile is found
wherever it lies on it (a tile need not sit exactly on its slot; it is given to the nearest
one), and so that the grey around each tile is a local colour reference.

Coordinates are millimetres on the sheet, origin top-left, x to the right, y down.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.markers import RESERVED_IDS, MarkerLayout, paste_marker

SHEET_MM = (297.0, 210.0)
MARKER_MM = 22.0
_M = 18.0  # marker centre distance from the sheet edges

MAT_LAYOUT = MarkerLayout(
    ids=RESERVED_IDS["break-the-code"],
    centres_mm=((_M, _M), (SHEET_MM[0] - _M, _M), (SHEET_MM[0] - _M, SHEET_MM[1] - _M),
                (_M, SHEET_MM[1] - _M)),
    size_mm=MARKER_MM,
)

COLUMNS = 5
ROWS = 4
SLOT_MM = (40.0, 48.0)
PITCH_MM = (42.0, 50.0)
#: the grey panel that holds the slots (x, y, width, height)
PANEL_MM = (43.5, 5.0, 210.0, 200.0)
#: printed grey of the panel and of the thin slot outlines
PANEL_GREY = 150
OUTLINE_GREY = 132


@dataclass(frozen=True)
class Slot:
    """One slot: ``row`` 0..3, ``column`` 0..4 (A..E) and its centre in mm."""

    row: int
    column: int
    centre_mm: tuple[float, float]

    @property
    def index(self) -> int:
        return self.row * COLUMNS + self.column

    @property
    def name(self) -> str:
        return f"{'ABCDE'[self.column]}{self.row + 1}"


def _slots() -> tuple[Slot, ...]:
    x0 = PANEL_MM[0] + (PANEL_MM[2] - (COLUMNS - 1) * PITCH_MM[0]) / 2
    y0 = PANEL_MM[1] + (PANEL_MM[3] - (ROWS - 1) * PITCH_MM[1]) / 2
    return tuple(
        Slot(r, c, (x0 + c * PITCH_MM[0], y0 + r * PITCH_MM[1]))
        for r in range(ROWS)
        for c in range(COLUMNS)
    )


SLOTS: tuple[Slot, ...] = _slots()


def nearest_slot(x_mm: float, y_mm: float) -> tuple[Slot, float]:
    """The slot whose centre is nearest to a point, and the distance (mm)."""
    best = min(SLOTS, key=lambda s: (s.centre_mm[0] - x_mm) ** 2 + (s.centre_mm[1] - y_mm) ** 2)
    dist = float(np.hypot(best.centre_mm[0] - x_mm, best.centre_mm[1] - y_mm))
    return best, dist


def mat_image(*, px_per_mm: float, labels: bool = True) -> np.ndarray:
    """The printable mat (BGR, white paper) at ``px_per_mm``."""
    page = np.full((round(SHEET_MM[1] * px_per_mm), round(SHEET_MM[0] * px_per_mm), 3), 255,
                   np.uint8)
    side = int(round(MAT_LAYOUT.size_mm * px_per_mm))
    for marker_id, (cx, cy) in zip(MAT_LAYOUT.ids, MAT_LAYOUT.centres_mm, strict=True):
        paste_marker(page, marker_id, (cx * px_per_mm, cy * px_per_mm), side,
                     dictionary_name=MAT_LAYOUT.dictionary)
    x, y, w, h = PANEL_MM
    p0 = (round(x * px_per_mm), round(y * px_per_mm))
    p1 = (round((x + w) * px_per_mm), round((y + h) * px_per_mm))
    cv2.rectangle(page, p0, p1, (PANEL_GREY,) * 3, -1)
    thickness = max(1, round(0.4 * px_per_mm))
    font = cv2.FONT_HERSHEY_SIMPLEX
    for slot in SLOTS:
        cx, cy = slot.centre_mm
        a = (round((cx - SLOT_MM[0] / 2) * px_per_mm), round((cy - SLOT_MM[1] / 2) * px_per_mm))
        b = (round((cx + SLOT_MM[0] / 2) * px_per_mm), round((cy + SLOT_MM[1] / 2) * px_per_mm))
        cv2.rectangle(page, a, b, (OUTLINE_GREY,) * 3, thickness)
        if labels:
            cv2.putText(page, slot.name, (a[0] + thickness * 3, a[1] + round(4 * px_per_mm)),
                        font, 0.09 * px_per_mm, (OUTLINE_GREY,) * 3, max(1, thickness // 2),
                        cv2.LINE_AA)
    return page


def printable_mat(*, dpi: int = 300) -> np.ndarray:
    """The mat at print resolution, with a one-line instruction in the top margin."""
    px_per_mm = dpi / 25.4
    page = mat_image(px_per_mm=px_per_mm)
    cv2.putText(page, "Break the Code mat: tiles in the top row, A to E, in rack order",
                (round(45 * px_per_mm), round(3.6 * px_per_mm)), cv2.FONT_HERSHEY_SIMPLEX,
                0.08 * px_per_mm, (90, 90, 90), max(1, round(px_per_mm / 6)), cv2.LINE_AA)
    return page
