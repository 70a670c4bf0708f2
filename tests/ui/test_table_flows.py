"""Flows at the table that went wrong in play (issue 23): a category taken twice, undo, the
game a restart comes back to, a read after a move, unfinished games in History."""

from __future__ import annotations

import time

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


def place_indigo_tile(driver):
    from companion.indigo.state import all_legal_placements

    screen = driver.screen("indigo")
    placement = all_legal_placements(screen.state())[0]
    screen.ids.board.dispatch("on_cell", placement.cell)  # what a tap on the hexagon does
    driver.pump(2)
    driver.tap(next(c for c in screen.picker.choices
                    if placement.tile.same_pattern(type(placement.tile)(c.kind, c.rotation))))
    # the picker closes before the confirm button can be touched (it covers the screen)
    assert driver.wait_for(lambda: screen.picker.parent is None)
    assert screen.proposal is not None and screen.proposal[0] == placement.cell
    events = len(driver.app.session.events)
    driver.tap(screen.ids.confirm_button)
    assert len(driver.app.session.events) == events + 1


def test_undo_is_offered_only_on_the_game_screen_and_says_what_it_took_back(make_driver):
    driver = make_driver()
    _start(driver, "game_indigo")
    place_indigo_tile(driver)
    session = driver.app.session
    undo = driver.app.root.ids.undo_button
    panel_undo = driver.app.root.panel.buttons["undo"]
    home = driver.screen("home")
    # elsewhere (Home, a new game's screen, History) neither Undo touches the game in play
    driver.tap(driver.app.root.ids.home_button)
    for elsewhere in (None, home.ids.game_second_chance, driver.app.root.ids.home_button,
                      home.ids.history_button):
        if elsewhere is not None:
            driver.tap(elsewhere)
        assert undo.disabled, driver.screen().name
        driver.tap(undo)
        driver.tap(panel_undo)
        driver.pump(4)
        assert len(session.events) == 1, driver.screen().name
    driver.tap(driver.screen("history").ids.open_button)
    assert driver.wait_for(lambda: driver.screen().name == "indigo" and not undo.disabled)
    ana = session.players[0]
    driver.tap(undo)
    assert len(driver.app.session.events) == 0 and undo.disabled
    assert f"Undone: the tile {ana} placed" in driver.texts()
    driver.screenshot("undo-said-landscape")


def test_a_panel_press_made_on_another_screen_is_not_applied_to_the_next(make_driver):
    driver = make_driver()
    _start(driver, "game_indigo")
    place_indigo_tile(driver)
    game = driver.app.session.game_id
    driver.tap(driver.app.root.ids.home_button)
    driver.tap(driver.screen("home").ids.history_button)
    # Undo pressed on History while the main thread is busy: the press is still queued when
    # the player's "Continue this game" opens the game
    driver.app.devices.press("undo")
    assert driver.wait_for(lambda: driver.app.events.qsize() > 0)
    driver.app.open_game(game)
    driver.pump(4)
    assert driver.app.events.qsize() == 0 and driver.screen().name == "indigo"
    assert len(driver.app.journal.events(game)) == 1
    assert len(driver.app.session.events) == 1
    # a finger's second press comes after the debounce window (a press within it is a bounce)
    time.sleep(2 * driver.app.cfg.gpio.debounce_ms / 1000)
    driver.tap(driver.app.root.panel.buttons["undo"])  # pressed on the game's own screen
    assert driver.wait_for(lambda: not driver.app.session.events)
    assert len(driver.app.journal.events(game)) == 0


def test_restart_comes_back_to_the_game_on_screen_not_the_newest(make_driver):
    first = make_driver()
    _start(first, "game_indigo")
    place_indigo_tile(first)
    indigo = first.app.session.game_id
    first.tap(first.app.root.ids.home_button)
    _start(first, "game_second_chance")  # newer, unfinished
    first.tap(first.app.root.ids.home_button)
    first.tap(first.screen("home").ids.history_button)
    history = first.screen("history")
    first.tap(history.game_buttons[indigo])
    first.tap(history.ids.open_button)
    assert first.screen().name == "indigo"
    first.close()  # what a kill leaves: the journal as it was
    second = make_driver()
    assert second.app.session.game_id == indigo
    assert second.screen().name == "indigo"
    assert len(second.app.session.events) == 1


class _TableCamera:
    """A camera whose picture shows the table's ``version`` when its capture began, and
    takes a while to deliver it (as a rendered table or a Pi camera does)."""

    def __init__(self):
        self.version = 0

    def read(self):
        import time

        import numpy as np

        version = self.version
        time.sleep(0.12)
        return np.full((48, 64, 3), version, np.uint8)


@pytest.mark.parametrize("game", ["indigo", "second_chance"])
def test_a_read_after_a_move_reads_a_frame_taken_after_the_tap(make_driver, monkeypatch, game):
    import ui.reading

    seen = []

    def reader(frame, *_args, **_kwargs):
        seen.append(int(frame[0, 0, 0]))
        raise ValueError("read in the test")

    monkeypatch.setattr(ui.reading, "read_indigo_frame", reader)
    monkeypatch.setattr(ui.reading, "read_sheet_frame", reader)
    camera = _TableCamera()
    driver = make_driver(camera_source=camera)
    _start(driver, f"game_{game}")
    screen = driver.screen(game)
    assert driver.wait_for(lambda: driver.app.last_frame is not None, frames=600)
    camera.version = 7  # a move on the table, and at once a tap on the read button
    driver.tap(screen.ids.read_button if game == "indigo" else screen.read_button)
    assert driver.wait_for(lambda: seen, frames=600)
    assert seen == [7]


def test_history_ends_or_deletes_an_unfinished_game_after_asking(make_driver):
    driver = make_driver()
    _start(driver, "game_indigo")
    place_indigo_tile(driver)
    indigo = driver.app.session.game_id
    driver.tap(driver.app.root.ids.home_button)
    _start(driver, "game_enigma")
    enigma = driver.app.session.game_id
    driver.tap(driver.app.root.ids.home_button)
    driver.tap(driver.screen("home").ids.history_button)
    history = driver.screen("history")
    journal = driver.app.journal
    driver.tap(history.game_buttons[indigo])
    driver.tap(history.ids.end_button)
    assert "End Indigo of Ana, Ben, Cleo?" in " ".join(driver.texts())
    driver.screenshot("history-end-asked-landscape")
    driver.tap(history.confirm.no_button)
    # the question fades out over a few frames, and a touch meanwhile lands on it
    assert driver.wait_for(lambda: history.confirm.parent is None)
    assert not journal.game(indigo).is_finished
    driver.tap(history.ids.end_button)
    driver.tap(history.confirm.yes_button)
    assert driver.wait_for(lambda: history.confirm.parent is None)
    assert journal.game(indigo).is_finished
    driver.tap(history.game_buttons[indigo])
    assert history.ids.end_button.disabled and history.ids.delete_button.disabled
    driver.tap(history.game_buttons[enigma])
    driver.tap(history.ids.delete_button)
    driver.tap(history.confirm.yes_button)
    assert driver.wait_for(lambda: history.confirm.parent is None)
    assert [g.id for g in journal.games()] == [indigo]
    assert driver.app.session is None and enigma not in history.game_buttons
    driver.tap(driver.app.root.ids.home_button)
    assert driver.screen("home").resume_text == ""


def test_a_new_game_starts_without_what_was_said_of_the_last_one(make_driver):
    driver = make_driver()
    _start(driver, "game_second_chance")
    screen = driver.screen("second_chance")
    for player in driver.app.session.players:
        screen.view(player)
        for col in range(8):
            driver.tap_square(screen.ids.sheet, (4, col))
        driver.tap(_button(screen.ids.panel, "Enter the start card"))
    screen.rng.seed(5)
    driver.tap(_button(screen.ids.panel, "Demo: turn up two"))
    driver.tap(_button(screen.ids.panel, "Fits?"))
    said = screen.status
    assert "fits" in said  # the last game's answer, on the status line
    driver.tap(driver.app.root.ids.home_button)
    _start(driver, "game_second_chance")
    assert driver.screen().name == "second_chance"
    assert screen.status == ""


def test_a_sheet_read_is_given_the_cards_the_player_drew(make_driver, monkeypatch):
    import ui.reading
    from companion.second_chance.drawn import may_have_the_one, tile_choices

    seen = []

    def reader(_frame, _accepted, **kwargs):
        seen.append(kwargs)
        raise ValueError("read in the test")

    monkeypatch.setattr(ui.reading, "read_sheet_frame", reader)
    driver = make_driver(camera_source=_TableCamera())
    _start(driver, "game_second_chance")
    screen = driver.screen("second_chance")
    assert driver.wait_for(lambda: driver.app.last_frame is not None, frames=600)
    driver.tap(screen.read_button)
    assert driver.wait_for(lambda: seen, frames=600)
    events = driver.app.session.events
    assert seen[0]["choices"] == tile_choices(events, screen.viewer)
    assert seen[0]["one_possible"] == may_have_the_one(events, screen.viewer)
