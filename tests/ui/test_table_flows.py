"""Flows at the table that went wrong in play (issue 23): a category taken twice, undo, the
game a restart comes back to, a read after a move, unfinished games in History."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui


def _start(driver, game_button):
    driver.tap(driver.screen("home").ids[game_button])
    driver.tap(driver.screen("setup").ids.start_button)
    assert driver.app.session is not None


def _button(panel, text):
    return next(w for w in panel.walk() if getattr(w, "text", None) == text
                and hasattr(w, "on_press"))


def test_enigma_refuses_a_category_taken_when_the_second_player_picks_it(make_driver):
    driver = make_driver()
    _start(driver, "game_enigma")
    screen = driver.screen("enigma")
    ana, ben, *_rest = driver.app.session.players
    driver.tap(screen.choice_toggles[(ana, "weight")])
    driver.tap(screen.choice_toggles[(ben, "weight")])
    assert screen.choices == {ana: "weight"}
    assert screen.choice_toggles[(ben, "weight")].state == "normal"
    assert screen.choice_toggles[(ana, "weight")].state == "down"
    said = " ".join(driver.texts())
    assert f"{ana} has already picked Weight" in said and "rule" not in said
    driver.tap(screen.choice_toggles[(ben, "conduit")])
    assert screen.choices == {ana: "weight", ben: "conduit"}
    assert "already picked" not in " ".join(driver.texts())
