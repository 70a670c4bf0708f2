"""The camera picture on the Second Chance screen is big enough to aim the camera at a sheet or a
card by, at 800x480 (beside the sheet, where the panel is short) and at 720x1280, in every
phase that reads with the camera, with the panel's texts and buttons still fitting."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

pytestmark = pytest.mark.ui

#: the smallest picture (width, height in pixels) the players can aim by: about a fifth of the
#: screen's height beside the sheet, a seventh under it
USABLE = {(800, 480): (160, 90), (720, 1280): (320, 180)}


def _start(driver: Any) -> Any:
    driver.tap(driver.screen("home").ids.game_second_chance)
    driver.tap(driver.screen("setup").ids.start_button)
    return driver.screen("second_chance")


def _reveal(driver: Any) -> Any:
    screen = _start(driver)
    for player in driver.app.session.players:
        screen.view(player)
        screen.ids.sheet.selected = [[4, col] for col in range(8)]
        screen.enter_start()
    return screen


def _round(driver: Any) -> Any:
    screen = _reveal(driver)
    screen.rng.seed(5)
    screen.reveal_random()
    return screen


def _camera_picture(driver: Any, screen: Any) -> Any:
    from ui.widgets.camera_view import CameraView

    assert driver.wait_for(lambda: driver.app.camera_texture is not None)
    driver.pump(3)
    pictures = [w for w in screen.ids.panel.walk(restrict=True) if isinstance(w, CameraView)]
    assert len(pictures) == 1
    return pictures[0]


@pytest.mark.parametrize("phase", [_start, _reveal, _round], ids=["start", "reveal", "round"])
@pytest.mark.parametrize("size", sorted(USABLE))
@pytest.mark.parametrize("language", ["en", "uk"])
def test_the_camera_picture_has_a_usable_size_and_the_panel_still_fits(
        make_driver: Any, language: str, size: tuple[int, int], phase: Any) -> None:
    from test_layout_text_fits import cut_buttons, parts_outside, spilling_labels

    driver = make_driver(size=size, start_camera=True)
    try:
        driver.screen("settings").change("app", "language", language)
        screen = phase(driver)
        driver.set_size(size)
        # what a read shows: the longest status of a round, two lines and more
        screen._read_done(SimpleNamespace(
            new_cells=[(0, 0), (0, 1)], missing=[(8, 8)], doubtful=[(3, 3)], questions=[],
            problems=[]), None)
        picture = _camera_picture(driver, screen)
        width, height = picture.norm_image_size
        assert width >= USABLE[size][0] and height >= USABLE[size][1], (width, height)
        panel = screen.ids.panel
        left, bottom = picture.to_window(picture.center_x - width / 2,
                                         picture.center_y - height / 2)
        px, py = panel.to_window(*panel.pos)
        assert px - 1 <= left and left + width <= px + panel.width + 1
        assert py - 1 <= bottom and bottom + height <= py + panel.height + 1
        outside = parts_outside(panel)
        assert not outside
        root = driver.app.root
        assert not spilling_labels(root)
        assert not cut_buttons(root)
        driver.screenshot(f"second-chance-camera-{phase.__name__.strip('_')}-{language}-"
                          f"{size[0]}x{size[1]}")
    finally:
        driver.screen("settings").change("app", "language", "en")


def test_the_camera_row_outlives_being_taken_out_of_its_phase(make_driver: Any,
                                                             monkeypatch: Any) -> None:
    """Beside the sheet the camera's buttons move from their row to the camera's column; the
    row, taken out of its phase first, is held by the screen's code, not only by the kv id's
    weak proxy (a garbage collection there freed it in a CI run: ReferenceError)."""
    import gc

    from kivy.uix.boxlayout import BoxLayout

    driver = make_driver(size=(800, 480), start_camera=True)
    screen = _start(driver)
    taken_out = BoxLayout.remove_widget

    def remove_then_collect(self: Any, widget: Any, *args: Any, **kwargs: Any) -> None:
        taken_out(self, widget, *args, **kwargs)
        gc.collect()

    monkeypatch.setattr(BoxLayout, "remove_widget", remove_then_collect)
    screen.refresh()  # the start phase built again, its camera row moved beside the sheet
    assert screen.read_button.parent is not None
