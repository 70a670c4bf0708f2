"""Players' names in their colours read well: the Indigo strip's text on each player's colour,
and Enigma's coloured names on the dark screen, at WCAG's 4.5:1 or better."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui


def test_contrast_ratio_follows_wcag():
    from ui.screens.base import contrast

    assert contrast((0, 0, 0, 1), (1, 1, 1, 1)) == pytest.approx(21.0)
    assert contrast((0.5, 0.5, 0.5, 1), (0.5, 0.5, 0.5, 1)) == pytest.approx(1.0)


def test_every_player_colour_has_a_readable_ink_and_name_colour():
    from ui.screens.base import (
        APP_BACKGROUND,
        PLAYER_COLOURS,
        READABLE_CONTRAST,
        contrast,
        ink_on,
        readable_on,
    )
    from ui.screens.indigo import IndigoScreen

    for name, colour in PLAYER_COLOURS.items():
        face = IndigoScreen._dim(colour)
        assert contrast(ink_on(face), face) >= READABLE_CONTRAST, name
        assert contrast(readable_on(colour), APP_BACKGROUND) >= READABLE_CONTRAST, name


def _four_players(driver, button):
    driver.tap(driver.screen("home").ids[button])
    setup = driver.screen("setup")
    while len(setup.rows()) < 4:
        driver.tap(setup.ids.add_player)
    driver.tap(setup.ids.start_button)


def test_indigo_strip_and_enigma_names_on_screen(make_driver):
    from kivy.uix.label import Label

    from ui.screens.base import APP_BACKGROUND, READABLE_CONTRAST, contrast

    driver = make_driver()
    _four_players(driver, "game_indigo")
    strip = driver.screen("indigo").ids.players.children
    assert len(strip) == 4
    for button in strip:
        assert contrast(button.color, button.background_color) >= READABLE_CONTRAST, button.text
    driver.app.show("home")
    _four_players(driver, "game_enigma")
    screen = driver.screen("enigma")
    names = [w for w in screen.walk() if isinstance(w, Label)
             and w.text in driver.app.session.players]
    assert len(names) == 4
    for label in names:
        assert contrast(label.color, APP_BACKGROUND) >= READABLE_CONTRAST, label.text
