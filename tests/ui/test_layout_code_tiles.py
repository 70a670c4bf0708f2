"""Break the Code's tiles to tap show what is on the real tile, in no language: the number on a
black, white or green face, and a frame when picked (not "3b", whose letter is English)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("language", ["es", "uk"])
def test_tiles_to_tap_are_numbers_on_their_colour(make_driver, language):
    from ui.widgets.code_tile import FACES

    driver = make_driver()
    driver.screen("settings").change("app", "language", language)
    try:
        screen = driver.start_break_the_code(2)
        driver.tap(screen.deal_button)
        driver.tap(screen.guess_button)
        toggles = screen.tile_toggles
        assert len(toggles) == 20
        for toggle in toggles:
            assert toggle.text == toggle.tile[:-1] and toggle.text.isdigit()
            assert tuple(toggle.background_color) == FACES[toggle.tile[-1]][0]
        faces = {tuple(t.background_color) for t in toggles}
        assert len(faces) == 3  # black, white and green tell apart
        picked = toggles[4]
        frame_before = picked._frame_colour.a
        driver.tap(picked)
        assert picked.state == "down" and frame_before == 0 and picked._frame_colour.a == 1
    finally:
        driver.screen("settings").change("app", "language", "en")
