"""Indigo's tile picker says what to pick and has a Cancel button a finger can hit: it covers
nearly the whole screen, so tapping beside it is no way out."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui

SIZES = {"landscape": (800, 480), "portrait": (720, 1280)}


@pytest.mark.parametrize("orientation", sorted(SIZES))
def test_the_picker_can_be_cancelled_with_a_full_size_button(make_driver, orientation):
    from ui.touch import required_target_px

    driver = make_driver(size=SIZES[orientation])
    driver.tap(driver.screen("home").ids.game_indigo)
    driver.tap(driver.screen("setup").ids.start_button)
    screen = driver.screen("indigo")
    screen.ids.board.dispatch("on_cell", (0, -2))  # what a tap on that hexagon dispatches
    driver.pump(4)
    picker = screen.picker
    assert picker.parent is not None
    assert "pattern" in " ".join(driver.texts())
    cancel = picker.cancel_button
    need = required_target_px()
    assert cancel.width >= need and cancel.height >= need
    assert cancel.x >= picker.x and cancel.right <= picker.right  # inside, on screen
    assert cancel.top <= driver.window.height
    driver.tap(cancel)
    assert driver.wait_for(lambda: picker.parent is None)
    assert screen.proposal is None and not driver.app.session.events
    assert screen.ids.board.selected is None  # no ring left on the hexagon
