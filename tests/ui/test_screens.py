"""Every screen opens at 800x480 and 720x1280, with screenshots, and every visible touch
target is at least 9 mm."""

from __future__ import annotations

import pytest

SIZES = {"landscape": (800, 480), "portrait": (720, 1280)}

pytestmark = pytest.mark.ui

GAMES = {"indigo": "game_indigo", "enigma": "game_enigma", "break-the-code": "game_break_the_code",
         "second-chance": "game_second_chance"}


def _visible_buttons(driver):
    from kivy.uix.button import Button

    root = driver.app.root
    out = []
    for widget in root.walk(restrict=True):
        if isinstance(widget, Button) and widget.opacity > 0 and widget.get_root_window():
            parent_hidden = any(getattr(p, "opacity", 1) == 0 for p in _parents(widget))
            if not parent_hidden and widget.height > 0:
                out.append(widget)
    return out


def _parents(widget):
    while widget.parent is not None and widget.parent is not widget:
        widget = widget.parent
        yield widget


def _check_targets(driver, where):
    from test_layout_text_fits import wrapped_height

    from ui.touch import required_target_px, text_width

    need = required_target_px()
    buttons = _visible_buttons(driver)
    small = [(b.text, tuple(b.size)) for b in buttons
             if b.width < need - 0.5 or b.height < need - 0.5]
    assert not small, f"{where}: targets under 9 mm ({need:.0f} px): {small}"
    clipped = [(line, b.width) for b in buttons if not getattr(b, "wrap", False)
               for line in b.text.split("\n")
               if line and text_width(line, b.font_size) > b.width - 4]
    # a button that wraps its sentence: its lines, laid over its width, fit its height
    clipped += [(b.text, b.width) for b in buttons if getattr(b, "wrap", False)
                and wrapped_height(b, text_width) > b.height - 4]
    assert not clipped, f"{where}: button text does not fit: {clipped}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_game_screens_open_at_both_sizes(make_driver, game):
    driver = make_driver()
    driver.tap(driver.screen("home").ids[GAMES[game]])
    assert driver.screen().name == "setup"
    for orientation, size in SIZES.items():
        driver.set_size(size)
        driver.screenshot(f"setup-{game}-{orientation}")
        _check_targets(driver, f"setup {game} {orientation}")
    driver.tap(driver.screen("setup").ids.start_button)
    assert driver.app.session is not None and driver.app.session.game == game
    for orientation, size in SIZES.items():
        driver.set_size(size)
        driver.screenshot(f"{game}-{orientation}")
        _check_targets(driver, f"{game} {orientation}")
        _check_board_cells(driver, game, orientation)


def _check_board_cells(driver, game, orientation):
    """The cells a finger taps on a board are targets too: at least 9 mm across."""
    import math

    from ui.touch import required_target_px

    need = required_target_px()
    if game == "indigo":
        board = driver.screen("indigo").ids.board
        if board.needs_zoom():  # as a finger would: a tap zooms in on the board
            driver.tap_at(*board.to_window(*board.center))
        across = math.sqrt(3) * board.radius()
        board.zoom_out()
    elif game == "second-chance":
        sheet = driver.screen("second_chance").ids.sheet
        if sheet.needs_zoom():  # as a finger would: a tap zooms in on the sheet
            driver.tap_at(*sheet.to_window(*sheet.center))
        across = sheet.geometry()[0]
        sheet.zoom_out()
    else:
        return
    assert across >= need - 0.5, f"{game} {orientation}: cells {across:.0f} px < {need:.0f}"


@pytest.mark.parametrize("screen", ["home", "history", "settings", "calibration"])
def test_other_screens_open_at_both_sizes(make_driver, screen):
    driver = make_driver()
    driver.app.show(screen)
    for orientation, size in SIZES.items():
        driver.set_size(size)
        driver.screenshot(f"{screen}-{orientation}")
        _check_targets(driver, f"{screen} {orientation}")


@pytest.mark.parametrize("language", ["es", "uk"])
def test_translated_screens_fit(make_driver, language):
    """The longest texts (Spanish, Ukrainian) still fit their buttons at both sizes."""
    driver = make_driver()
    driver.screen("settings").change("app", "language", language)
    try:
        for game, button in sorted(GAMES.items()):
            driver.app.show("home")
            driver.tap(driver.screen("home").ids[button])
            driver.tap(driver.screen("setup").ids.start_button)
            for orientation, size in SIZES.items():
                driver.set_size(size)
                _check_targets(driver, f"{game} {language} {orientation}")
            driver.screenshot(f"{game}-{language}-portrait")
        for screen in ("home", "settings", "history"):
            driver.app.show(screen)
            for orientation, size in SIZES.items():
                driver.set_size(size)
                _check_targets(driver, f"{screen} {language} {orientation}")
    finally:
        driver.screen("settings").change("app", "language", "en")


@pytest.mark.parametrize("orientation", sorted(SIZES))
def test_a_finger_on_a_hexagon_or_a_square_picks_that_cell(make_driver, orientation):
    """Hit-testing of the boards with real touches, at both sizes (Screen is a RelativeLayout,
    so this also checks the coordinate transforms)."""
    driver = make_driver(size=SIZES[orientation])
    driver.tap(driver.screen("home").ids.game_indigo)
    driver.tap(driver.screen("setup").ids.start_button)
    board = driver.screen("indigo").ids.board
    hits = []
    board.bind(on_cell=lambda _w, cell: hits.append(cell))

    driver.pump(2)
    for cell in [(0, -2), (3, -1), (-4, 1), (2, 2)]:
        driver.tap_cell(board, cell)  # zoomed in on first where the hexagons are small
        picker = getattr(driver.screen("indigo"), "picker", None)
        if picker is not None and picker.parent is not None:
            picker.dismiss()
            driver.wait_for(lambda p=picker: p.parent is None)
    assert hits == [(0, -2), (3, -1), (-4, 1), (2, 2)]


def test_settings_with_a_ws2812_strip_open_at_both_sizes(make_driver):
    """The strip's own rows (LED count, brightness) replace the LED pins, at both sizes."""
    driver = make_driver()
    driver.app.show("settings")
    driver.screen("settings").change("gpio", "light_bar", "ws2812")
    for orientation, size in SIZES.items():
        driver.set_size(size)
        driver.screen("settings").ids.rows.parent.scroll_y = 0  # the light bar rows are last
        driver.screenshot(f"settings-strip-{orientation}")
        _check_targets(driver, f"settings strip {orientation}")
