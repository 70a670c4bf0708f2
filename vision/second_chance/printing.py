"""Draw the printable Second Chance sheet (``companion print sheet``) and the plain pad look.

:func:`sheet_image` draws a sheet at any resolution: the 9x9 grid with its thick frame, the
centre circle, the name field and (for the app's sheet) the four ArUco markers. The renderer
draws the hand-made marks on top of this image; the printer writes it as a PDF at true scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.image_io import write_pages
from vision.markers import paste_marker
from vision.second_chance.layout import GRID_CELLS, SheetLayout

INK = (40, 40, 40)
LINE = (125, 125, 125)


def _px(value_mm: float, px_per_mm: float) -> int:
    return int(round(value_mm * px_per_mm))


def sheet_image(
    layout: SheetLayout,
    *,
    px_per_mm: float,
    paper: Sequence[int] = (255, 255, 255),
    title: str = "Second Chance",
) -> np.ndarray:
    """The empty sheet as a BGR image, ``px_per_mm`` pixels per millimetre."""
    width_mm, height_mm = layout.page_mm
    canvas = np.empty((_px(height_mm, px_per_mm), _px(width_mm, px_per_mm), 3), np.uint8)
    canvas[:] = np.array(paper, np.uint8)
    _draw_grid(canvas, layout, px_per_mm)
    _draw_name_field(canvas, layout, px_per_mm)
    _draw_title(canvas, layout, px_per_mm, title)
    if layout.has_markers:
        s = px_per_mm
        side = _px(layout.marker_size_mm, s)
        for marker_id, (cx, cy) in zip(layout.marker_ids, layout.marker_centres_mm(), strict=True):
            paste_marker(canvas, marker_id, (cx * s, cy * s), side, quiet_zone=0.2)
    return canvas


def _draw_grid(canvas: np.ndarray, layout: SheetLayout, s: float) -> None:
    """The 9x9 grid's lines, its thick frame and the centre circle."""
    x0, y0 = layout.grid_origin_mm
    cell = layout.cell_mm
    line = max(1, _px(layout.line_mm, s))
    for i in range(1, GRID_CELLS):
        x = _px(x0 + i * cell, s)
        y = _px(y0 + i * cell, s)
        cv2.line(canvas, (x, _px(y0, s)), (x, _px(y0 + layout.grid_mm, s)), LINE, line, cv2.LINE_AA)
        cv2.line(canvas, (_px(x0, s), y), (_px(x0 + layout.grid_mm, s), y), LINE, line, cv2.LINE_AA)
    frame = max(2, _px(layout.frame_mm, s))
    cv2.rectangle(
        canvas,
        (_px(x0, s), _px(y0, s)),
        (_px(x0 + layout.grid_mm, s), _px(y0 + layout.grid_mm, s)),
        INK,
        frame,
        cv2.LINE_AA,
    )
    centre = (_px(x0 + 4.5 * cell, s), _px(y0 + 4.5 * cell, s))
    cv2.circle(canvas, centre, _px(layout.circle_ratio * cell, s), LINE, line, cv2.LINE_AA)


def _draw_name_field(canvas: np.ndarray, layout: SheetLayout, s: float) -> None:
    """"Name" and the line to write it on (where the layout has a name box)."""
    nx, ny, nw, nh = layout.name_box_mm
    if nw <= 0:
        return
    scale = nh * s / 40
    cv2.putText(
        canvas,
        "Name",
        (_px(nx, s), _px(ny + nh * 0.45, s)),
        cv2.FONT_HERSHEY_SIMPLEX,
        scale * 0.8,
        INK,
        max(1, _px(0.25, s)),
        cv2.LINE_AA,
    )
    cv2.line(
        canvas,
        (_px(nx, s), _px(ny + nh, s)),
        (_px(nx + nw, s), _px(ny + nh, s)),
        LINE,
        max(1, _px(0.25, s)),
        cv2.LINE_AA,
    )


def _draw_title(canvas: np.ndarray, layout: SheetLayout, s: float, title: str) -> None:
    """The title under the grid: on the plain pad it is what tells the reader which side is
    up."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    ty = layout.grid_origin_mm[1] + layout.grid_mm + 7.0
    scale = 5.0 * s / 22
    size, _ = cv2.getTextSize(title, font, scale, max(1, _px(0.4, s)))
    cv2.putText(
        canvas,
        title,
        ((canvas.shape[1] - size[0]) // 2, _px(ty, s) + size[1]),
        font,
        scale,
        INK,
        max(1, _px(0.4, s)),
        cv2.LINE_AA,
    )


def write_sheet(path: Path, layout: SheetLayout, *, dpi: int = 300, pages: int = 1
                ) -> list[Path]:
    """Write ``pages`` copies of the sheet at true scale (``dpi``): one multi-page PDF, or one
    PNG per page (``NAME-1.png``, ``NAME-2.png``... when there are several, as
    :func:`vision.image_io.write_pages` does). Returns the files written.
    """
    if pages < 1:
        raise ValueError(f"pages must be at least 1, got {pages}")
    image = cv2.cvtColor(sheet_image(layout, px_per_mm=dpi / 25.4), cv2.COLOR_BGR2GRAY)
    return write_pages(path, [image] * pages, dpi=dpi)
