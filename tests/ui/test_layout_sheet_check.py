"""A sheet read with doubtful squares marks them apart (orange frame, "?"), not in the green of
a "fits?" placement, which Draw it would take as the drawing."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

pytestmark = pytest.mark.ui


def test_doubtful_squares_are_marked_apart_from_a_placement(make_driver):
    driver = make_driver()
    driver.tap(driver.screen("home").ids.game_second_chance)
    driver.tap(driver.screen("setup").ids.start_button)
    screen = driver.screen("second_chance")
    sheet = screen.ids.sheet
    reading = SimpleNamespace(new_cells=[], missing=[], doubtful=[(5, 4)],
                              questions=["is cell [5, 4] filled? the marks are not clear"],
                              problems=[])
    screen._read_done(reading, None)
    driver.pump(2)
    assert sheet.doubtful == [[5, 4]]
    assert sheet.ghost == [] and screen.selection() == []  # nothing Draw it could take
    assert "check the marked squares" in screen.status
    screen.view(screen.viewer)  # another look (or player) clears the marks
    assert sheet.doubtful == []
