"""Where things are on a Second Chance sheet, in millimetres: grid, centre circle, name field,
markers. One description serves the printer, the renderer and the reader.

Two kinds of sheet exist:

- the app's own sheet (``companion print sheet``): the 9x9 grid with ArUco markers
  (ids ``RESERVED_IDS["second-chance"]``) in the four corners, so the reader fits a checked
  homography from the page;
- the publisher's pad: no markers; the reader finds the grid from its thick outer frame and its
  lines. ``SheetLayout.pad()`` describes the look the renderer uses for it.

The grid is square with a thicker outer frame; the centre cell carries a circle. Page sizes are
configurable; A5 portrait (148 x 210 mm) is the default, the size of the publisher's pad.
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.markers import RESERVED_IDS, MarkerLayout

GRID_CELLS = 9

#: Named page sizes (portrait, mm).
PAGE_SIZES: dict[str, tuple[float, float]] = {
    "A6": (105.0, 148.0),
    "A5": (148.0, 210.0),
    "A4": (210.0, 297.0),
    "letter": (215.9, 279.4),
}


def parse_page(text: str) -> tuple[float, float]:
    """``"A5"``, ``"A4"``, ... or ``"WxH"`` in millimetres (e.g. ``"150x200"``)."""
    key = text.strip()
    for name, size in PAGE_SIZES.items():
        if key.lower() == name.lower():
            return size
    try:
        w_text, h_text = key.lower().split("x")
        size = (float(w_text), float(h_text))
    except ValueError:
        raise ValueError(
            f"page {text!r}: use {', '.join(PAGE_SIZES)} or WxH in millimetres"
        ) from None
    if not (80 <= min(size) and max(size) <= 500):
        raise ValueError(f"page {text!r}: sides must be 80-500 mm")
    return size


@dataclass(frozen=True)
class SheetLayout:
    """The geometry of one sheet design, all in millimetres from the page's top-left corner."""

    page_mm: tuple[float, float]
    grid_origin_mm: tuple[float, float]
    cell_mm: float
    marker_size_mm: float
    has_markers: bool = True
    marker_ids: tuple[int, int, int, int] = RESERVED_IDS["second-chance"]
    #: the name field: (x, y, width, height)
    name_box_mm: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    frame_mm: float = 0.9  # the outer frame's line width
    line_mm: float = 0.3  # the inner grid lines
    circle_ratio: float = 0.36  # centre circle radius in cells
    #: from the page edge to a marker's edge (printers cannot print the outer ~5 mm)
    marker_margin_mm: float = 6.0

    @classmethod
    def for_page(
        cls, page_mm: tuple[float, float] = PAGE_SIZES["A5"], *, markers: bool = True
    ) -> SheetLayout:
        """The app's sheet laid out on a page: markers in the corners, name field, grid."""
        width, height = page_mm
        marker = round(min(width, height) * 0.095, 1)
        margin = cls.marker_margin_mm + marker / 2
        name_top = margin + marker / 2 + 3.0
        name_box = (
            margin + marker / 2 + 4.0,
            margin - 5.0,
            width - 2 * (margin + marker / 2 + 4.0),
            11.0,
        )
        top = name_top + 10.0
        bottom_limit = height - (margin + marker / 2 + 4.0)
        side_limit = width - 2 * 10.0
        cell = min(side_limit, bottom_limit - top) / GRID_CELLS
        cell = float(int(cell * 2) / 2)  # a round size prints clean lines
        grid = cell * GRID_CELLS
        origin = ((width - grid) / 2, top + (bottom_limit - top - grid) / 2)
        return cls(
            page_mm=(width, height),
            grid_origin_mm=origin,
            cell_mm=cell,
            marker_size_mm=marker,
            has_markers=markers,
            name_box_mm=name_box,
        )

    @classmethod
    def pad(cls) -> SheetLayout:
        """The look of a plain publisher-style pad: no markers, a title band, a framed grid."""
        plain = cls.for_page(PAGE_SIZES["A5"], markers=False)
        return plain

    @property
    def grid_mm(self) -> float:
        return self.cell_mm * GRID_CELLS

    def marker_centres_mm(self) -> tuple[tuple[float, float], ...]:
        """Marker centres TL, TR, BR, BL."""
        width, height = self.page_mm
        m = self.marker_margin_mm + self.marker_size_mm / 2
        return ((m, m), (width - m, m), (width - m, height - m), (m, height - m))

    def marker_layout(self) -> MarkerLayout:
        """The markers as :mod:`vision.markers` sees them (the plane is the page, in mm)."""
        c = self.marker_centres_mm()
        return MarkerLayout(
            ids=self.marker_ids,
            centres_mm=(c[0], c[1], c[2], c[3]),
            size_mm=self.marker_size_mm,
        )

    def cell_rect_mm(self, row: int, col: int) -> tuple[float, float, float, float]:
        """(x, y, width, height) of a cell."""
        x0, y0 = self.grid_origin_mm
        return (x0 + col * self.cell_mm, y0 + row * self.cell_mm, self.cell_mm, self.cell_mm)

    def grid_corners_mm(self) -> tuple[tuple[float, float], ...]:
        """The grid's outer corners TL, TR, BR, BL."""
        x0, y0 = self.grid_origin_mm
        g = self.grid_mm
        return ((x0, y0), (x0 + g, y0), (x0 + g, y0 + g), (x0, y0 + g))


DEFAULT_LAYOUT = SheetLayout.for_page()
