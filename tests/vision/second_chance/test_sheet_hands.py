"""The renderer of sheets filled by other hands (vision.second_chance.synth.hands, .photo)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from vision.second_chance.layout import SheetLayout
from vision.second_chance.synth.hands import (
    HAND_FILLS,
    HAND_STYLES,
    HELD_APART_STYLE,
    STYLE_FILLS,
    draw_hand_sheet,
    render_hand_sheet,
)
from vision.second_chance.synth.photo import PHOTO_FRAME
from vision.second_chance.synth.sheet import SheetContent

PX_PER_MM = 4.0


def _cell_darkness(sheet: np.ndarray, cell: tuple[int, int]) -> float:
    layout = SheetLayout.for_page()
    x, y, w, h = (v * PX_PER_MM for v in layout.cell_rect_mm(*cell))
    inset = w * 0.2
    inside = sheet[int(y + inset):int(y + h - inset), int(x + inset):int(x + w - inset)]
    return float(255 - inside.mean())


@pytest.mark.parametrize("style", HAND_STYLES)
def test_every_style_marks_the_tiles_and_leaves_the_empty_squares(
        style: str, sheet_content: Callable[..., SheetContent]) -> None:
    content = sheet_content(3)
    sheet = draw_hand_sheet(content, style=style, seed=5, px_per_mm=PX_PER_MM)
    filled = {cell for tile in content.tiles for cell in tile}
    empty = [(r, c) for r in range(9) for c in range(9) if (r, c) not in filled
             and (r, c) != content.bonus]
    # a smudge may lie in an empty square: the least marked tile square still has more ink
    # than the median empty one
    least_filled = min(_cell_darkness(sheet, cell) for cell in filled)
    assert least_filled > np.median([_cell_darkness(sheet, cell) for cell in empty]) + 3


def test_the_held_apart_style_draws_only_its_own_fills() -> None:
    assert HELD_APART_STYLE in HAND_STYLES
    others = {fill for style, fills in STYLE_FILLS.items() if style != HELD_APART_STYLE
              for fill in fills}
    assert not others & set(STYLE_FILLS[HELD_APART_STYLE])
    assert others | set(STYLE_FILLS[HELD_APART_STYLE]) == set(HAND_FILLS)


def test_a_photo_is_seeded_and_a_frame_of_the_phone(
        sheet_content: Callable[..., SheetContent]) -> None:
    content = sheet_content(2)
    first = render_hand_sheet(content, style="marker", condition="harsh", seed=9)
    again = render_hand_sheet(content, style="marker", condition="harsh", seed=9)
    assert first.shape == (PHOTO_FRAME[1], PHOTO_FRAME[0], 3)
    assert np.array_equal(first, again)


def test_unknown_styles_and_conditions_are_refused(
        sheet_content: Callable[..., SheetContent]) -> None:
    with pytest.raises(ValueError, match="hand style"):
        draw_hand_sheet(sheet_content(2), style="crayon", seed=1)
    with pytest.raises(ValueError, match="condition"):
        render_hand_sheet(sheet_content(2), style="pencil", condition="fax", seed=1)
