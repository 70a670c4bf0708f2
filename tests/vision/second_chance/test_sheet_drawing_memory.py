"""The demo camera draws a Second Chance sheet while the players play: its hand-drawn marks
are blended and composited onto the paper a band of rows at a time, so the drawing's float
copies of the sheet never all live at once; the pixels are those of the whole sheet in one
band (the arithmetic as it was), to the bit."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import vision.second_chance.synth.sheet as sheet_module
from tests.traced_memory import traced_peak
from vision.second_chance.synth.sheet import STYLES, SheetContent, draw_sheet, render_sheet

#: more rows than any sheet has: the whole sheet in one band
WHOLE_SHEET = 1_000_000


@pytest.mark.parametrize("style", STYLES)
def test_a_sheet_drawn_in_bands_is_the_whole_sheet_drawing_to_the_bit(
        style: str, sheet_content: Callable[..., SheetContent],
        monkeypatch: pytest.MonkeyPatch) -> None:
    content = sheet_content(3)  # a whole game's tiles and its bonus 1: every kind of mark
    content = SheetContent(content.tiles, content.bonus, "Ana")
    banded, banded_log = draw_sheet(content, style=style, seed=5, erasures=2)
    with monkeypatch.context() as whole:
        whole.setattr(sheet_module, "BAND_ROWS", WHOLE_SHEET)
        reference, log = draw_sheet(content, style=style, seed=5, erasures=2)
    assert np.array_equal(banded, reference)
    assert banded_log == log


def test_a_bent_and_creased_frame_is_the_whole_sheet_one_to_the_bit(
        sheet_content: Callable[..., SheetContent], monkeypatch: pytest.MonkeyPatch) -> None:
    content = sheet_content(2)
    frame = render_sheet(content, seed=2, crease=1.0, frame_size=(640, 360)).image
    with monkeypatch.context() as whole:
        whole.setattr(sheet_module, "BAND_ROWS", WHOLE_SHEET)
        reference = render_sheet(content, seed=2, crease=1.0, frame_size=(640, 360)).image
    assert np.array_equal(frame, reference)


def test_the_drawing_holds_a_few_sheets_at_once(
        sheet_content: Callable[..., SheetContent]) -> None:
    """The demo's sheet (pencil, Ana's name, erased traces): the paper, its ink layer, the
    composite's texture and the result, about 5.6 times the paper's bytes at the high. Whole
    sheets at once (the float sheet, each layer's alpha and colour, the blend's copies) were
    13.4 times (31 MB at the demo's size, where the camera effects now take 17)."""
    content = sheet_content(1)
    content = SheetContent(content.tiles, content.bonus, "Ana")
    paper, _log = draw_sheet(content, seed=1, erasures=3)
    peak = traced_peak(lambda: draw_sheet(content, seed=1, erasures=3))
    assert peak <= 8 * paper.nbytes, peak / paper.nbytes
