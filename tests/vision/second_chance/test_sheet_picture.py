"""No silent wrong sheet read (issue 19): a picture the sheet reader cannot read is refused,
a blank or partial sheet is asked about or refused, a full grid is a win only from clear cells.
Read through the app's own path, ``ui.reading.read_sheet_frame``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ui.reading import read_sheet_frame
from vision.errors import FrameRefusedError
from vision.markers import paste_layout
from vision.second_chance.cell_reading import CellsRead
from vision.second_chance.geometry import locate_grid
from vision.second_chance.layout import SheetLayout
from vision.second_chance.reader import (
    CLEAR_CELL,
    check_sheet_picture,
    full_grid_questions,
    read_sheet,
)
from vision.second_chance.settings import DEFAULT_SETTINGS
from vision.second_chance.synth.sheet import SheetContent, render_sheet


def _with_sensor_noise(image: np.ndarray, sigma: float, seed: int) -> np.ndarray:
    """A cheap camera in a dim room: independent noise in every channel of every pixel."""
    noise = np.random.default_rng(seed).normal(0.0, sigma, image.shape)
    return np.clip(image.astype(np.float32) + noise, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("sigma", [20.0, 30.0])
def test_a_sheet_under_strong_sensor_noise_is_refused_not_read_full(
        sigma: float, sheet_content: Any) -> None:
    # this sheet (65 squares filled) read as a full grid, a win, with no question at sigma 30
    frame = render_sheet(sheet_content(3), style="pen", seed=3).image
    with pytest.raises(FrameRefusedError) as refused:
        read_sheet_frame(_with_sensor_noise(frame, sigma, seed=3), set())
    assert refused.value.reason == "noisy"


def _markers_on_grey(grey: int) -> np.ndarray:
    """The sheet's four markers where the page puts them, on blank grey: no grid at all."""
    layout = SheetLayout.for_page()
    width, height = layout.page_mm
    px_per_mm = 4.0
    canvas = np.full((int((height + 40) * px_per_mm), int((width + 60) * px_per_mm), 3), grey,
                     np.uint8)
    paste_layout(canvas, layout.marker_layout(), origin_mm=(-30.0, -20.0), px_per_mm=px_per_mm)
    return canvas


@pytest.mark.parametrize("grey", [128, 235])
def test_the_markers_alone_on_blank_grey_are_refused_not_read_empty(grey: int) -> None:
    with pytest.raises(FrameRefusedError) as refused:
        read_sheet_frame(_markers_on_grey(grey), set())
    assert refused.value.reason == "no-grid"


def test_a_grid_with_no_start_over_the_centre_is_asked_about() -> None:
    corner_tile = SheetContent((((0, 0), (0, 1)),), None, "Ana")
    frame = render_sheet(corner_tile, style="pencil", seed=5).image
    reading = read_sheet(frame)
    assert reading.filled == ((0, 0), (0, 1))
    assert (4, 4) in reading.doubtful and reading.confidence <= 0.5
    seen = read_sheet_frame(frame, set())
    assert "centre-empty" in {p.code for p in seen.problems}


def _cells(confidence: np.ndarray) -> CellsRead:
    zeros = np.zeros((9, 9))
    return CellsRead(zeros, zeros, None, np.ones((9, 9), int), confidence, [],  # type: ignore[arg-type]
                     np.zeros((9, 9), bool))


def test_a_full_grid_is_a_win_only_from_cells_each_read_clearly() -> None:
    every = {(r, c) for r in range(9) for c in range(9)}
    clear = np.ones((9, 9))
    assert full_grid_questions(_cells(clear), every) == []
    unclear = clear.copy()
    unclear[2, 7] = CLEAR_CELL - 0.05
    asked = full_grid_questions(_cells(unclear), every)
    assert [q["kind"] for q in asked] == ["full"] and asked[0]["cells"] == [[2, 7]]
    assert full_grid_questions(_cells(unclear), every - {(0, 0)}) == []


def test_a_clean_sheet_on_bright_white_paper_is_read_at_full_confidence(
        sheet_content: Any) -> None:
    # a sixth of this page is at 250 and up (white paper, bright room): the shared limit of
    # burnt-out pixels, measured on the code mat, would refuse it
    frame = render_sheet(sheet_content(21, players=3), style="pencil", seed=21).image
    assert check_sheet_picture(frame, locate_grid(frame), DEFAULT_SETTINGS) == 1.0
