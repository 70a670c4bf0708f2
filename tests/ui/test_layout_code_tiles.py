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


@pytest.mark.parametrize(("language", "shown"), [("en", "0b 1w 5g"), ("es", "0n 1b 5v"),
                                                 ("uk", "0ч 1б 5з")])
def test_codes_name_tile_colours_in_the_players_language(language, shown):
    from ui.i18n import current_language, set_language
    from ui.screens.break_the_code import shown_code

    before = current_language()
    set_language(language)
    try:
        assert shown_code("0b 1w 5g") == shown
    finally:
        set_language(before)


@pytest.mark.parametrize("orientation,size", [("landscape", (800, 480)),
                                              ("portrait", (720, 1280))])
def test_the_end_shows_racks_as_tiles_in_ukrainian(make_driver, orientation, size):
    import random

    driver = make_driver(size=size)
    driver.screen("settings").change("app", "language", "uk")
    try:
        screen = driver.start_break_the_code(2)
        screen.rng = random.Random(11)
        driver.tap(screen.deal_button)
        racks = driver.app.session.events[0]["racks"]
        ben_in_letters = racks["Ben"].translate(str.maketrans("bwg", "чбз"))
        for _guess in range(2):  # Ana guesses Ben's rack (right), then Ben does (wrong): over
            driver.tap(screen.guess_button)
            wanted = racks["Ben"].split()
            toggles = screen.tile_toggles
            for toggle in toggles:
                picked = sum(t.state == "down" for t in toggles if t.tile == toggle.tile)
                if picked < wanted.count(toggle.tile):
                    driver.tap(toggle)
            driver.tap(screen.submit_button)
        assert screen.state().over
        texts = " | ".join(driver.texts())
        # the tiles drawn, neither the engine's letters nor the Ukrainian initials written out
        assert [face.tile for face in screen.end_racks["Ben"]] == racks["Ben"].split()
        assert ben_in_letters not in texts and racks["Ben"] not in texts
        width, height = driver.window.size
        for face in screen.end_racks["Ben"]:  # every tile whole in the window
            left, bottom = face.to_window(face.x, face.y)
            assert 0 <= left and left + face.width <= width and 0 <= bottom
            assert bottom + face.height <= height
        driver.screenshot(f"break-the-code-end-uk-{orientation}")
    finally:
        driver.screen("settings").change("app", "language", "en")
