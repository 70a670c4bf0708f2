"""Printable Second Chance sheets: layout, true-scale PDF, markers the reader finds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.markers import RESERVED_IDS, locate
from vision.second_chance.layout import PAGE_SIZES, SheetLayout, parse_page
from vision.second_chance.printing import sheet_image, write_sheet


@pytest.mark.parametrize("page", ["A6", "A5", "A4", "letter"])
def test_the_grid_fits_between_the_markers(page: str) -> None:
    layout = SheetLayout.for_page(parse_page(page))
    x0, y0 = layout.grid_origin_mm
    width, height = layout.page_mm
    assert layout.cell_mm >= 8
    assert x0 > 0 and x0 + layout.grid_mm < width
    (_, ty), _, (_, by), _ = layout.marker_centres_mm()
    assert y0 > ty + layout.marker_size_mm / 2
    assert y0 + layout.grid_mm < by - layout.marker_size_mm / 2
    assert layout.marker_ids == RESERVED_IDS["second-chance"]


def test_a5_is_the_default_and_custom_sizes_parse() -> None:
    assert SheetLayout.for_page().page_mm == PAGE_SIZES["A5"]
    assert parse_page("150x200") == (150.0, 200.0)
    with pytest.raises(ValueError, match="WxH"):
        parse_page("huge")
    with pytest.raises(ValueError, match="80-500"):
        parse_page("10x10")


def test_the_printed_markers_give_the_page_back() -> None:
    layout = SheetLayout.for_page()
    image = sheet_image(layout, px_per_mm=4.0)
    fit = locate(image, layout.marker_layout())
    # the grid's corner lands where the layout says, to a fraction of a millimetre
    corner = np.array([[[layout.grid_origin_mm[0] * 4.0, layout.grid_origin_mm[1] * 4.0]]])
    import cv2

    mapped = cv2.perspectiveTransform(corner, fit.image_to_plane)[0, 0]
    assert np.allclose(mapped, layout.grid_origin_mm, atol=0.5)


def test_plain_sheets_have_no_markers() -> None:
    plain = sheet_image(SheetLayout.for_page(markers=False), px_per_mm=3.0)
    marked = sheet_image(SheetLayout.for_page(), px_per_mm=3.0)
    corner = slice(0, 60)
    assert plain[corner, corner].min() > 200 and marked[corner, corner].min() < 50


def test_pdf_pages(tmp_path: Path) -> None:
    out = tmp_path / "sheets.pdf"
    write_sheet(out, SheetLayout.for_page(), dpi=100, pages=2)
    data = out.read_bytes()
    pages = data.count(b"/Type /Page") - data.count(b"/Type /Pages")
    assert data.startswith(b"%PDF") and pages == 2
    with pytest.raises(ValueError, match="at least 1"):
        write_sheet(out, SheetLayout.for_page(), pages=0)


def test_png_pages_are_one_file_each(tmp_path: Path) -> None:
    import cv2

    written = write_sheet(tmp_path / "sheets.png", SheetLayout.for_page(), dpi=60, pages=3)
    assert written == [tmp_path / f"sheets-{n}.png" for n in (1, 2, 3)]
    assert not (tmp_path / "sheets.png").exists()
    single = cv2.imread(str(written[0]), cv2.IMREAD_GRAYSCALE)
    width_mm, height_mm = SheetLayout.for_page().page_mm
    # each file is one page at true scale, not the pages stacked
    assert abs(single.shape[0] - height_mm * 60 / 25.4) <= 2
    assert abs(single.shape[1] - width_mm * 60 / 25.4) <= 2
    one = write_sheet(tmp_path / "one.png", SheetLayout.for_page(), dpi=60)
    assert one == [tmp_path / "one.png"]
