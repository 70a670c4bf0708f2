"""The demo camera never puts another game's table on a screen.

A demo frame takes 200 ms to render (a second on a Pi): one rendered for the table as it was
(the empty Indigo board the demo shows before any game, or the previous game's pieces) can land
after another game began. Frames carry the scene they were rendered for and the camera worker's
queue drops those of another game; a screen entered for another game no longer keeps the
previous game's picture up."""

from __future__ import annotations

import queue
import threading
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from polling import wait_until


@pytest.mark.parametrize("before", [
    None,  # the app just started: the demo shows an empty Indigo board
    SimpleNamespace(game_id=1, game="indigo"),  # an Indigo game was played
])
def test_a_frame_rendered_before_another_game_began_is_not_shown(before: Any) -> None:
    from ui.demo import DemoTable
    from ui.workers import CameraWorker, UiEvent

    app = SimpleNamespace(session=before, cfg=None)
    table = DemoTable(app)
    if before is not None:
        table.sync(SimpleNamespace(tiles={}))  # the Indigo game's accepted state
    rendered: list[tuple[Any, Any]] = []  # (frame, what was pending when it was drawn)
    later_renders = threading.Event()

    def render_state(state: Any) -> Any:
        if rendered:  # the second game's first frame waits until the test has looked
            later_renders.wait(10)
        frame = np.full((8, 8, 3), len(rendered), np.uint8)
        rendered.append((frame, table.pending))
        return frame

    table._render_state = render_state  # type: ignore[method-assign]
    worker = CameraWorker(table.camera(), queue.Queue[UiEvent](), fps=50).start()
    try:
        assert wait_until(lambda: worker.frames.qsize() == 1)  # the first table's frame is queued
        app.session = SimpleNamespace(game_id=2, game="second-chance")
        table.reset()
        table.show_sheet("Ana", [])
        with pytest.raises(queue.Empty):  # the queued frame shows the table before the game
            worker.frames.get_nowait()
        later_renders.set()
        assert wait_until(lambda: len(rendered) == 2)
        frame = worker.frames.get(timeout=10)
        assert frame is rendered[1][0] and rendered[1][1][:2] == ("sheet", "Ana")
    finally:
        later_renders.set()
        worker.close()


def test_the_previous_games_pieces_are_not_rendered_for_the_next_game() -> None:
    from ui.demo import DemoTable

    app = SimpleNamespace(session=SimpleNamespace(game_id=1, game="indigo"), cfg=None)
    table = DemoTable(app)
    indigo = SimpleNamespace(tiles={"a": 1})
    table.sync(indigo)
    assert table.table_state() is indigo
    # the next game began (its screen has not synced yet): its table is empty
    app.session = SimpleNamespace(game_id=2, game="indigo")
    assert table.table_state() is None
    table.reset()  # as the app does for a new game
    assert table.table_state() is None


@pytest.mark.ui
def test_a_screen_of_another_game_does_not_keep_the_last_games_picture(
        make_driver: Any) -> None:
    driver = make_driver(start_camera=True)
    app = driver.app
    driver.tap(driver.screen("home").ids.game_indigo)
    driver.tap(driver.screen("setup").ids.start_button)
    assert driver.wait_for(lambda: app.table.shows_table(app.last_frame), frames=5000)
    indigo_picture = app.camera_texture
    assert indigo_picture is not None
    app.show("home")
    driver.tap(driver.screen("home").ids.game_second_chance)
    driver.tap(driver.screen("setup").ids.start_button)
    # no picture, or a new one (from the Second Chance table): never the Indigo table's
    assert driver.screen().name == "second_chance"
    assert app.camera_texture is not indigo_picture


@pytest.mark.ui
def test_a_game_started_first_never_shows_the_empty_indigo_board(
        make_driver: Any, monkeypatch: Any) -> None:
    """The screenshot's case: the app starts, a Second Chance game begins, and the board the
    demo draws when no game is on (Indigo's) must not appear on its screen."""
    import vision.indigo.synth.render

    indigo_frames: list[Any] = []  # kept: an id is unique while its object lives
    render_indigo = vision.indigo.synth.render.render_frame

    def noting(*args: Any, **kwargs: Any) -> Any:
        result = render_indigo(*args, **kwargs)
        indigo_frames.append(result.image)
        return result

    monkeypatch.setattr(vision.indigo.synth.render, "render_frame", noting)
    driver = make_driver(start_camera=True)
    app = driver.app
    shown: list[Any] = []
    show_frame = app.show_frame

    def noting_shown(frame: Any) -> None:
        shown.append(frame[0] if isinstance(frame, tuple) else frame)
        show_frame(frame)

    app.show_frame = noting_shown
    driver.tap(driver.screen("home").ids.game_second_chance)
    driver.tap(driver.screen("setup").ids.start_button)
    assert driver.wait_for(lambda: app.table.shows_table(app.last_frame), frames=5000)
    assert shown and not [f for f in shown if any(f is indigo for indigo in indigo_frames)]
