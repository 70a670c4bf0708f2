"""Issue 23, item 8: what was too small, cut off, too short, still active or left over at the
table, driven with touches at 800x480 (sizes in mm through the app's one px-per-mm figure)."""

from __future__ import annotations

import threading

import pytest

from ui.touch import px_to_mm

pytestmark = pytest.mark.ui

#: app.kv's body text (17sp) on the display: what a player reads at arm's length
BODY_TEXT_MM = 2.6


def _start(driver, game_button):
    driver.tap(driver.screen("home").ids[game_button])
    driver.tap(driver.screen("setup").ids.start_button)
    assert driver.app.session is not None


def _press_held(driver, widget):
    """A finger put on ``widget`` and kept there (the touch, to lift later)."""
    from kivy.tests.common import UnitTestTouch

    driver.settle(widget)
    touch = UnitTestTouch(*widget.to_window(*widget.center))
    touch.touch_down()
    return touch


def _fits(label):
    """Whether a label shows all of its text: wrapped in its width, its lines in its height."""
    label.texture_update()
    width, height = label.texture_size
    return (not label.shorten and width <= label.width + 0.5 and height <= label.height + 0.5)


def test_the_buzzer_word_is_body_text_and_stays_after_a_short_sound(make_driver, monkeypatch):
    from kivy.clock import Clock

    import ui.widgets.panel as panel_module

    driver = make_driver()
    label = driver.app.root.panel.buzzer_label
    assert px_to_mm(label.font_size) >= BODY_TEXT_MM
    driver.app.panel_buzzer = "tick"
    driver.pump(2)
    driver.app.panel_buzzer = ""  # a tick lasts a fraction of a second
    driver.pump(3)
    assert label.text == "tick"
    assert _fits(label)
    later = Clock.get_boottime() + panel_module.BUZZER_SHOWN_S + 0.1
    monkeypatch.setattr(Clock, "get_boottime", lambda: later)
    driver.app.panel_buzzer = "alarm"
    driver.pump(1)
    driver.app.panel_buzzer = ""
    driver.pump(2)
    assert label.text == "alarm"


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_a_held_name_shows_the_whole_haul(make_driver, size):
    driver = make_driver(size=size)
    _start(driver, "game_indigo")
    screen = driver.screen("indigo")
    button = screen.ids.players.children[-1]
    touch = _press_held(driver, button)
    assert driver.wait_for(lambda: button.is_held)
    driver.pump(3)
    haul = screen.haul_text(button.player)
    shown = [w for w in screen.walk() if haul in str(getattr(w, "text", ""))]
    assert shown and all(_fits(w) for w in shown), [(w.text, tuple(w.size)) for w in shown]
    touch.touch_up()
    driver.pump(2)
    assert not [w for w in screen.walk() if haul in str(getattr(w, "text", ""))]


class StillCamera:
    def read(self):
        import time

        import numpy as np

        time.sleep(0.03)
        return np.zeros((48, 64, 3), np.uint8)


def _action_buttons(screen):
    from kivy.uix.behaviors import ButtonBehavior

    return [w for w in screen.walk(restrict=True)
            if isinstance(w, ButtonBehavior) and w.get_root_window() is not None]


def enigma_reach(driver):
    from test_camera_read_words import enigma_placing

    enigma_placing(driver)


@pytest.mark.parametrize("game, reader, tap", [
    ("indigo", "read_indigo_frame", lambda s: s.ids.read_button),
    ("second_chance", "read_sheet_frame", lambda s: s.read_button),
    ("enigma", "read_enigma_frame", lambda s: s.read_button),
])
def test_the_buttons_are_off_while_a_read_runs(make_driver, monkeypatch, game, reader, tap):
    import ui.reading

    started, release = threading.Event(), threading.Event()

    def slow_reader(*_args, **_kwargs):
        started.set()
        release.wait(10)
        raise ValueError("read in the test")

    monkeypatch.setattr(ui.reading, reader, slow_reader)
    driver = make_driver(camera_source=StillCamera())
    if game == "enigma":
        enigma_reach(driver)
    else:
        _start(driver, f"game_{game}")
    screen = driver.screen(game)
    assert driver.wait_for(lambda: driver.app.last_frame is not None, frames=600)
    enabled = [b for b in _action_buttons(screen) if not b.disabled]
    driver.tap(tap(screen))
    assert driver.wait_for(started.is_set, frames=600)
    driver.pump(2)
    assert [b for b in enabled if not b.disabled] == []
    release.set()
    assert driver.wait_for(lambda: not screen.read_running, frames=600)
    driver.pump(2)
    again = [b for b in _action_buttons(screen) if not b.disabled]
    assert len(again) == len(enabled)


def test_a_move_clears_the_last_moves_messages_but_not_a_standing_one(make_driver):
    from test_table_flows import place_indigo_tile

    driver = make_driver()
    _start(driver, "game_indigo")
    driver.app.report_error("The board read failed")
    driver.app.report_error("Camera unavailable", camera=True)
    place_indigo_tile(driver)
    driver.tap(driver.screen("indigo").ids.confirm_button)
    assert driver.app.banner_text == "Camera unavailable"


def test_the_round_after_the_cards_are_entered_says_nothing_of_the_first_card(make_driver):
    from companion.second_chance import CENTRE, Grid, placements

    driver = make_driver()
    _start(driver, "game_second_chance")
    screen = driver.screen("second_chance")
    deck = screen.deck()
    for index, player in enumerate(screen.state().players):  # the start cards, as entered
        shape = deck.start_tiles[index % len(deck.start_tiles)].shape
        cells = next(p for p in placements(Grid(), shape) if CENTRE in p)
        assert driver.app.apply({"type": "start", "player": player.name,
                                 "cells": [list(c) for c in cells]})
    driver.pump(2)
    driver.tap(screen.shape_buttons[0])
    assert screen.status  # "First card: ...; now the second"
    driver.tap(screen.shape_buttons[1])
    assert screen.state().revealed is not None
    assert screen.status == ""


@pytest.mark.parametrize("orientation, size", [("landscape", (800, 480)),
                                               ("portrait", (720, 1280))])
def test_second_chance_squares_are_tapped_at_9_mm_or_more(make_driver, orientation, size):
    from kivy.tests.common import UnitTestTouch

    from ui.touch import MIN_TARGET_MM

    driver = make_driver(size=size)
    _start(driver, "game_second_chance")
    sheet = driver.screen("second_chance").ids.sheet
    if orientation == "portrait":
        assert not sheet.needs_zoom() and px_to_mm(sheet.geometry()[0]) >= MIN_TARGET_MM
        return
    assert px_to_mm(sheet.geometry()[0]) < MIN_TARGET_MM  # the whole sheet, 9 squares high
    driver.tap_at(*sheet.to_window(*sheet.centre_of((4, 4))))  # zooms in; toggles nothing
    assert sheet.selected == [] and sheet.shows((4, 4))
    assert px_to_mm(sheet.geometry()[0]) >= MIN_TARGET_MM
    driver.screenshot(f"second-chance-zoomed-{orientation}")
    driver.tap_at(*sheet.to_window(*sheet.centre_of((4, 4))))
    assert sheet.selected == [[4, 4]]
    # a drag to the left brings the squares on the right into view, and toggles nothing
    origin = list(sheet.origin)
    side = sheet.geometry()[0]
    x, y = sheet.to_window(*sheet.centre_of((4, 4)))
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_move(x - 2.2 * side, y)
    touch.touch_up()
    driver.pump(2)
    assert sheet.origin[1] > origin[1] and sheet.selected == [[4, 4]]
    driver.tap_at(*sheet.to_window(*sheet.pointer_to((0, 0))))  # the small sheet in the strip
    assert sheet.shows((0, 0))
    assert px_to_mm(sheet.whole_button.height) >= MIN_TARGET_MM - 0.1
    driver.tap(sheet.whole_button)
    assert not sheet.origin


@pytest.mark.parametrize("orientation, size", [("landscape", (800, 480)),
                                               ("portrait", (720, 1280))])
def test_indigo_hexagons_are_tapped_at_9_mm_or_more(make_driver, orientation, size):
    import math

    from kivy.tests.common import UnitTestTouch

    from ui.touch import MIN_TARGET_MM

    driver = make_driver(size=size)
    _start(driver, "game_indigo")
    screen = driver.screen("indigo")
    board = screen.ids.board
    picked = []
    board.bind(on_cell=lambda _w, cell: picked.append(cell))

    def across_mm():
        return px_to_mm(math.sqrt(3) * board.radius())

    if orientation == "portrait":
        assert not board.needs_zoom() and across_mm() >= MIN_TARGET_MM
        return
    assert across_mm() < MIN_TARGET_MM  # the whole board, 9 hexagons high
    driver.tap_at(*board.to_window(*board.cell_point((1, -2))))  # zooms in; picks nothing
    assert picked == [] and board.shows((1, -2)) and across_mm() >= MIN_TARGET_MM
    driver.screenshot(f"indigo-zoomed-{orientation}")
    # a drag moves the view and picks nothing
    focus = list(board.focus)
    x, y = board.to_window(*board.cell_point((1, -2)))
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_move(x, y + board.radius() * 2)
    touch.touch_up()
    driver.pump(2)
    assert board.focus != focus and picked == []
    driver.tap_cell(board, (1, -2))
    assert picked == [(1, -2)]
    screen.picker.dismiss()
    assert driver.wait_for(lambda: screen.picker.parent is None)
    assert px_to_mm(board.whole_button.height) >= MIN_TARGET_MM - 0.1
    driver.tap(board.whole_button)
    assert board.zoom == 1.0


def _indigo_camera(driver):
    _start(driver, "game_indigo")
    return driver.screen("indigo")


def _enigma_camera(driver):
    from test_camera_read_words import enigma_placing

    return enigma_placing(driver)


def _second_chance_camera(driver):
    _start(driver, "game_second_chance")
    return driver.screen("second_chance")


@pytest.mark.parametrize("reach", [_indigo_camera, _enigma_camera, _second_chance_camera],
                         ids=["indigo", "enigma", "second-chance"])
def test_the_camera_picture_is_a_third_of_the_screen_and_a_tap_enlarges_it(make_driver, reach):
    from ui.widgets.camera_view import CameraView

    driver = make_driver(size=(800, 480), start_camera=True)
    screen = reach(driver)
    assert driver.wait_for(lambda: driver.app.camera_texture is not None)
    driver.pump(4)
    camera = next(w for w in screen.walk(restrict=True) if isinstance(w, CameraView))
    width, height = camera.norm_image_size
    assert px_to_mm(width) >= px_to_mm(driver.window.width / 3) - 0.1, (width, height)
    driver.tap(camera)
    assert camera.enlarged is not None
    big = camera.enlarged.children[0]
    driver.settle(big)
    shots = driver.screenshot(f"camera-{screen.name}-landscape").parent
    driver.pump(3)  # the enlarged view is a window of its own, over the root
    camera.enlarged.export_to_png(str(shots / f"camera-enlarged-{screen.name}-landscape.png"))
    assert big.norm_image_size[1] >= driver.window.height * 0.9
    driver.tap(big)
    assert driver.wait_for(lambda: camera.enlarged is None)
