"""A move the rules refuse is explained in the players' language; the engine's English (with
the record's notation) stays in the log."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui

ENGINE_ENGLISH = ("event ", "start tile", "cells", "tiles, expected", "code '", "rule '")


def _start(driver, game_button):
    driver.tap(driver.screen("home").ids[game_button])
    driver.tap(driver.screen("setup").ids.start_button)


def test_a_refused_start_card_is_worded_in_spanish(in_language, caplog):
    driver = in_language("es")
    _start(driver, "game_second_chance")
    screen = driver.screen("second_chance")
    sheet = screen.ids.sheet
    driver.tap_square(sheet, (4, 4))  # one square of the eight
    enter = next(w for w in screen.ids.panel.walk()
                 if getattr(w, "text", "") == "Anotar la carta inicial")
    driver.tap(enter)
    banner = driver.app.banner_text
    assert banner.startswith("No aceptado: ") and "8" in banner, banner
    assert not any(words in banner for words in ENGINE_ENGLISH), banner
    assert any("start tile has 8 cells" in r.getMessage() for r in caplog.records)
    driver.screenshot("refusal-words-es-landscape")


def test_a_guess_of_too_few_tiles_is_worded_in_ukrainian(in_language):
    import random

    driver = in_language("uk")
    screen = driver.start_break_the_code(2)
    screen.rng = random.Random(2)
    driver.tap(screen.deal_button)
    driver.tap(screen.guess_button)
    driver.tap(screen.tile_toggles[0])
    driver.tap(screen.submit_button)
    banner = driver.app.banner_text
    assert banner and not any(words in banner for words in ENGINE_ENGLISH), banner
    assert not any(c.isascii() and c.isalpha() for c in banner), banner


@pytest.mark.parametrize("reason", ["no-card", "no-shape", "blurred", "something-new"])
def test_a_card_the_camera_cannot_read_is_worded_in_spanish(in_language, reason):
    from vision.errors import FrameRefusedError

    driver = in_language("es")
    _start(driver, "game_second_chance")
    screen = driver.screen("second_chance")
    screen._card_done(None, FrameRefusedError("the reader's own English line", reason=reason))
    assert screen.status.startswith("No se pudo leer la carta"), screen.status
    assert "English" not in screen.status and "frame refused" not in screen.status


def test_a_setting_the_loader_refuses_is_worded_in_ukrainian(in_language):
    driver = in_language("uk")
    driver.app.show("settings")
    screen = driver.screen("settings")
    screen.change("gpio", "strip_brightness", 1.1)
    assert screen.message.startswith("Не збережено") and "0" in screen.message
    assert "strip_brightness" not in screen.message and "range" not in screen.message


@pytest.mark.parametrize("reason", ["no-markers", "too-small", "something-new"])
def test_a_table_the_camera_cannot_find_is_worded_in_spanish(in_language, reason):
    from ui.screens.enigma_words import enigma_refusal_text
    from ui.screens.indigo import refusal_text
    from vision.errors import FrameRefusedError

    in_language("es")
    error = FrameRefusedError("the reader's own English line", reason=reason)
    for worded in (refusal_text(error), enigma_refusal_text(error)):
        assert "English" not in worded and "frame refused" not in worded
        assert worded.startswith(("la ", "el ")), worded


def test_a_game_history_cannot_replay_is_worded_in_spanish(in_language, monkeypatch):
    from companion.errors import RecordError
    from ui import services

    driver = in_language("es")
    _start(driver, "game_indigo")

    def refused(*_args):
        raise RecordError("event 3 (place): the engine's own English")

    monkeypatch.setattr(services, "replay_events", refused)
    driver.tap(driver.app.root.ids.home_button)
    driver.tap(driver.screen("home").ids.history_button)
    detail = driver.screen("history").detail
    assert detail and "event" not in detail and "English" not in detail, detail
