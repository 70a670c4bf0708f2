"""An error on the main thread is a banner, not a crash: a background job's callback that raises
(on its result or on its error), a hardware button's handler, a touch handler. The banner names
what failed and whether the game moved; a half-built proposal is dropped; the app answers the
next touch; only errors that keep coming end the app (for systemd to restart it).

Every wait is a poll with a generous limit; nothing here asserts a duration.
"""

from __future__ import annotations

import types

import pytest

pytestmark = pytest.mark.ui


def _start_indigo(driver):
    driver.tap(driver.screen("home").ids.game_indigo)
    driver.tap(driver.screen("setup").ids.start_button)
    return driver.screen("indigo")


def _first_legal_placement(state):
    from companion.indigo.state import all_legal_placements

    placement = all_legal_placements(state)[0]
    return placement.cell, placement.tile.kind, placement.tile.rotation


def _journal_events(app):
    return app.journal.events(app.session.game_id)


def _as_the_main_loop_does(action):
    """Run ``action`` as Kivy's ``EventLoop.mainloop`` runs a frame: an error goes to the
    ExceptionManager, and only a RAISE ends the loop (the test driver pumps frames by hand,
    without that net)."""
    from kivy.base import ExceptionManager

    try:
        action()
    except Exception as exc:
        if ExceptionManager.handle_exception(exc) == ExceptionManager.RAISE:
            raise


def _still_answers_a_touch(driver):
    """The banner clears when tapped, and Home opens from the top bar."""
    app = driver.app
    driver.tap(app.root.ids.banner)
    assert app.banner_text == ""
    driver.tap(app.root.ids.home_button)
    assert driver.screen().name == "home"


class QuestionsThatRaise:
    """A reading's questions that fail when the screen goes through them: the callback has
    proposed the placement by then, but not yet marked the cells to check."""

    def __iter__(self):
        raise KeyError("cell (3, 4)")


def test_a_read_whose_callback_raises_half_way_is_a_banner_and_nothing_is_applied(make_driver):
    driver = make_driver()
    app = driver.app
    screen = _start_indigo(driver)
    events_before = _journal_events(app)
    state_before = app.session.state
    reading = types.SimpleNamespace(overlay=[], proposal=_first_legal_placement(screen.state()),
                                    questions=QuestionsThatRaise(), message="")
    # as IndigoScreen.read_board submits it, with a reading handed over as the reader's
    app.run_in_background(lambda: reading, screen._read_done, name="read-indigo")

    assert driver.wait_for(lambda: "Reading the board failed" in app.banner_text)
    assert "KeyError: 'cell (3, 4)'" in app.banner_text
    assert "nothing was applied" in app.banner_text
    # the proposal the callback made before failing (without its questions) is gone
    assert screen.proposal is None
    # ... and so is its translucent tile and gem animation on the board
    assert screen.ids.board.proposal is None and screen.ids.board.moves == []
    assert screen.ids.confirm_button.disabled
    assert app.session.state is state_before
    assert _journal_events(app) == events_before
    driver.tap(screen.ids.confirm_button)  # disabled: still nothing to apply
    assert _journal_events(app) == events_before
    _still_answers_a_touch(driver)


def test_a_failed_read_whose_error_callback_raises_is_a_banner_too(make_driver):
    driver = make_driver()
    app = driver.app
    _start_indigo(driver)
    events_before = _journal_events(app)
    seen = []

    def work():
        raise ValueError("the frame is 8x8 pixels")

    def callback(value, error):
        seen.append((value, error))
        raise AttributeError("'NoneType' object has no attribute 'shape'")

    app.run_in_background(work, callback, name="read-enigma")

    assert driver.wait_for(lambda: "Reading the table failed" in app.banner_text)
    assert seen and seen[0][0] is None and isinstance(seen[0][1], ValueError)
    assert "AttributeError: 'NoneType' object has no attribute 'shape'" in app.banner_text
    assert "nothing was applied" in app.banner_text
    assert _journal_events(app) == events_before
    _still_answers_a_touch(driver)


def test_the_events_behind_a_failing_callback_are_still_handled(make_driver):
    driver = make_driver()
    app = driver.app
    done = []

    def fails(value, error):
        raise RuntimeError("first")

    app.run_in_background(lambda: 1, fails, name="markers")
    assert driver.wait_for(lambda: "The marker check failed" in app.banner_text)
    app.run_in_background(lambda: 2, lambda value, error: done.append(value), name="markers")
    assert driver.wait_for(lambda: done == [2])


def test_a_secret_rack_read_that_fails_names_no_tile(make_driver):
    driver = make_driver()
    app = driver.app

    def callback(value, error):
        raise KeyError("the tile 3 green")

    app.run_in_background(lambda: None, callback, name="read-rack")
    assert driver.wait_for(lambda: "Reading the rack failed" in app.banner_text)
    assert "KeyError" in app.banner_text
    assert "green" not in app.banner_text


def test_a_hardware_button_whose_handler_raises_is_a_banner(make_driver, monkeypatch):
    from ui.screens.indigo import IndigoScreen
    from ui.workers import UiEvent

    def on_hardware_button(self, name):
        raise IndexError("no such player")

    monkeypatch.setattr(IndigoScreen, "on_hardware_button", on_hardware_button)
    driver = make_driver()
    app = driver.app
    _start_indigo(driver)
    events_before = _journal_events(app)
    app.events.put(UiEvent("button", name="confirm"))

    assert driver.wait_for(lambda: "The confirm button failed" in app.banner_text)
    assert "nothing was applied" in app.banner_text
    assert _journal_events(app) == events_before
    _still_answers_a_touch(driver)


def _tap_read_board_running(read_board, make_driver, monkeypatch):  # type: ignore[no-untyped-def]
    """Tap the Indigo screen's "Read the board" with ``read_board`` as its handler, as the main
    loop runs a touch: (driver, the journal's events before the tap)."""
    from ui.screens.indigo import IndigoScreen

    monkeypatch.setattr(IndigoScreen, "read_board", read_board)
    driver = make_driver()
    app = driver.app
    screen = _start_indigo(driver)
    # as at a table, frames pass between the game's start and the tap: the app's pump has
    # seen the started game (else the game moved since the last pump, and the banner says so)
    assert driver.wait_for(lambda: all(
        then is now for then, now in zip(app._game_at_pump, app._game_now(), strict=True)))
    events_before = _journal_events(app)
    _as_the_main_loop_does(lambda: driver.tap(screen.ids.read_button))
    driver.pump(2)
    return driver, events_before


def test_a_touch_handler_that_raises_is_a_banner_and_the_app_goes_on(make_driver, monkeypatch):
    def read_board(self):
        raise ZeroDivisionError("division by zero")

    driver, events_before = _tap_read_board_running(read_board, make_driver, monkeypatch)
    app = driver.app
    assert "The last action failed: ZeroDivisionError: division by zero" in app.banner_text
    assert "nothing was applied" in app.banner_text
    assert _journal_events(app) == events_before
    _still_answers_a_touch(driver)


def test_a_touch_handler_that_raises_after_a_move_says_the_game_moved(make_driver, monkeypatch):
    def read_board(self):
        cell, kind, rotation = _first_legal_placement(self.state())
        assert self.app.apply({"type": "place", "player": self.mover(),
                               "cell": [cell[0], cell[1]], "tile": kind, "rotation": rotation})
        raise RuntimeError("after the move")

    driver, events_before = _tap_read_board_running(read_board, make_driver, monkeypatch)
    app = driver.app
    # the move is whole (journal and session agree), and the banner does not hide it
    assert "The game moved" in app.banner_text
    assert len(_journal_events(app)) == len(events_before) + 1
    assert list(app.session.events) == _journal_events(app)
    _still_answers_a_touch(driver)


def test_errors_that_keep_coming_end_the_app_for_a_restart(make_driver):
    from kivy.base import ExceptionManager

    from ui.workers import UiEvent

    driver = make_driver()
    app = driver.app
    app._error_burst.clock = lambda: 100.0  # every error at once, however slow the machine
    limit = app._error_burst.limit

    def fails(value, error):
        raise RuntimeError("again")

    for _ in range(limit):
        app.events.put(UiEvent("job", name="markers", callback=fails))
    # as many as the app survives: banners (the pump drains them all in one run)
    assert driver.wait_for(lambda: app.events.empty()
                           and "The marker check failed" in app.banner_text)
    app.events.put(UiEvent("job", name="markers", callback=fails))
    with pytest.raises(RuntimeError, match="again") as raised:
        driver.wait_for(lambda: False)  # pumps until the pump gives up
    # the main loop gets it next, and ends (systemd's Restart=on-failure brings the app back)
    assert ExceptionManager.handle_exception(raised.value) == ExceptionManager.RAISE


def test_a_repeating_clock_callback_that_raises_once_keeps_running(make_driver):
    """Kivy's clock drops an interval callback that raised (a screen's timer poll would stop
    for good): the app puts it back."""
    from kivy.clock import Clock

    driver = make_driver()
    app = driver.app
    calls = []

    def poll(dt):
        calls.append(dt)
        if len(calls) == 1:
            raise LookupError("no timer yet")

    event = Clock.schedule_interval(poll, 0.1)
    try:
        _as_the_main_loop_does(lambda: driver.wait_for(lambda: calls, frames=3000))
        assert "The last action failed: LookupError: no timer yet" in app.banner_text
        assert driver.wait_for(lambda: len(calls) >= 3, frames=3000)
    finally:
        event.cancel()


def test_a_job_that_exits_its_thread_still_reaches_its_callback(make_driver):
    """A library that calls sys.exit() on a job's thread ends only that thread: the screen
    still hears that the job failed, instead of waiting for it for ever."""
    driver = make_driver()
    app = driver.app
    seen = []

    def work():
        raise SystemExit("the reader gave up")

    app.run_in_background(work, lambda value, error: seen.append(error), name="read-card")
    assert driver.wait_for(lambda: seen)
    assert isinstance(seen[0], SystemExit)
