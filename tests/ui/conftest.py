"""Driving the Kivy app inside the test process, under Xvfb.

One window per test process (Kivy's limit); each test builds a fresh :class:`CompanionApp` on
it with its own journal, pumps the event loop by hand, touches widgets with simulated touches
and saves screenshots to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
SIZES = {"landscape": (800, 480), "portrait": (720, 1280)}
#: the least time a wait pumps before it gives up (it returns as soon as it holds): CI's
#: machine, shared, ran a worker's 600 frames in less than the demo camera took to draw one
WAIT_FLOOR_S = 30.0
#: frames a widget must stand still before a tap aims at it: a layout pending in a parent, or a
#: scroll put off to the next frame, moves it one or two frames after it first stood still
STILL_FRAMES = 3
#: times a tap scrolls its widget into view before it gives up and aims anyway
SCROLL_TRIES = 12
#: the longest a ScrollView's held-back touch may take to reach its child, in s: its
#: scroll_timeout is counted by the Clock, which a loaded machine runs late
HELD_TOUCH_S = 5.0


def _has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


class Driver:
    """A running app without ``App.run()``: build, pump frames, touch, screenshot, close."""

    def __init__(self, db_path: Path, *, size: tuple[int, int] = (800, 480), demo: bool = True,
                 camera_source: Any = None, start_camera: bool = True) -> None:
        from kivy.config import Config

        # no frame-rate cap: pumping the loop by hand must not sleep 16 ms per frame
        Config.set("graphics", "maxfps", "0")
        from kivy.app import App
        from kivy.base import EventLoop
        from kivy.clock import Clock
        from kivy.core.window import Window

        from ui.app import CompanionApp

        Clock._max_fps = 0  # the clock may already exist (an earlier test made it)
        EventLoop.ensure_window()
        self.window = Window
        self.set_size(size)
        self.app = CompanionApp(db_path=db_path, demo=demo, camera_source=camera_source,
                                start_camera=start_camera)
        App._running_app = self.app
        root = self.app.build()
        Window.add_widget(root)
        self.app.dispatch("on_start")
        self.pump(4)

    def set_size(self, size: tuple[int, int]) -> None:
        import time

        self.window.size = size
        for _ in range(6):  # the X server resizes asynchronously
            self.pump(1)
            time.sleep(0.02)

    def pump(self, frames: int = 2) -> None:
        from kivy.base import EventLoop

        for _ in range(frames):
            EventLoop.idle()

    def wait_for(self, predicate: Any, *, frames: int = 300,
                 seconds: float = WAIT_FLOOR_S) -> bool:
        """Pump until ``predicate()`` holds, giving up after ``frames`` frames AND ``seconds``
        both: the demo camera and the readers run on threads that a loaded machine starves for
        many seconds, however many frames the main loop pumps meanwhile."""
        import time

        deadline = time.monotonic() + seconds
        count = 0
        while count < frames or time.monotonic() < deadline:
            if predicate():
                return True
            self.pump(1)
            time.sleep(0.005)
            count += 1
        return bool(predicate())

    def picture_shows_the_table(self) -> bool:
        """The camera picture on screen shows the demo table as it lies now (as a player waits
        to see their tiles or pieces in it before taking the picture)."""
        frames = self.app.camera.frames
        return frames.handed_scene is not None and self.app.table.is_current(frames.handed_scene)

    def tap(self, widget: Any) -> None:
        """A simulated finger touch (down and up) in the middle of ``widget``."""
        from kivy.tests.common import UnitTestTouch

        self.settle(widget)  # let new widgets be laid out before aiming at them
        scroll = _scroll_view_of(widget)
        if scroll is not None:  # as a finger would: bring it into view first
            # Kivy puts scroll_to off to the next frame while the scrolled layout has one
            # pending, and reckons it from the scroll view's size then: a panel still growing
            # round it leaves the widget out of view, and a touch aimed there lands on another
            # (CI, session 20: two cards tapped, two others recorded). So: until it is in view
            for _ in range(SCROLL_TRIES):
                scroll.scroll_to(widget, padding=4, animate=False)
                self.settle(widget)
                if _in_view(scroll, widget):
                    break
            assert _in_view(scroll, widget), f"{widget!r} could not be scrolled into view"
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        self.pump(1)
        if scroll is not None:
            # a ScrollView holds a touch back for scroll_timeout before it gives it to the child
            import time

            started = time.monotonic()
            while (time.monotonic() < started + 0.35
                   or (getattr(widget, "last_touch", touch) is not touch
                       and time.monotonic() < started + HELD_TOUCH_S)):
                self.pump(1)
                time.sleep(0.01)
        if hasattr(widget, "last_touch") and not widget.disabled:
            # a button the finger missed says so here, not as another button's effect later
            assert widget.last_touch is touch, f"the tap aimed at {widget!r} reached another widget"

    def settle(self, widget: Any, *, frames: int = 30) -> None:
        """Pump until ``widget`` stands still in the window: a popup that is opening, or a
        panel that was just rebuilt, is laid out over several frames on a loaded machine."""
        self.pump(1)
        last = None
        still = 0
        for _ in range(frames):
            where = (widget.get_root_window() is not None, widget.to_window(*widget.center),
                     tuple(widget.size))
            steady = where == last and where[0] and not _layout_pending(widget)
            still = still + 1 if steady else 0
            if still == STILL_FRAMES:
                return
            last = where
            self.pump(1)

    def tap_at(self, x: float, y: float) -> None:
        from kivy.tests.common import UnitTestTouch

        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        self.pump(2)

    def tap_square(self, sheet: Any, square: tuple[int, int]) -> None:
        """A finger on a Second Chance ``square``: where the sheet's squares are under a touch
        target, first a tap that zooms in on it (or moves the zoomed view to it)."""
        self.settle(sheet)
        if not sheet.shows(square):
            self.tap_at(*sheet.to_window(*sheet.pointer_to(square)))
        assert sheet.shows(square), square
        self.tap_at(*sheet.to_window(*sheet.centre_of(square)))

    def tap_cell(self, board: Any, cell: tuple[int, int]) -> None:
        """A finger on an Indigo ``cell``: where the hexagons are under a touch target, first
        a tap that zooms in on it (from the whole board)."""
        self.settle(board)
        if not board.shows(cell):
            if board.zoom > 1.0:
                self.tap(board.whole_button)
            self.tap_at(*board.to_window(*board.cell_point(cell)))
        assert board.shows(cell), cell
        self.tap_at(*board.to_window(*board.cell_point(cell)))

    def screen(self, name: str | None = None) -> Any:
        manager = self.app.root.ids.manager
        return manager.get_screen(name) if name else manager.current_screen

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.pump(3)
        # rendered through an Fbo at the widget tree's size: the X framebuffer of a resized
        # Xvfb window is not always read back at the new size
        target = ARTIFACTS / f"{name}.png"
        self.app.root.export_to_png(str(target))
        return target

    def start_break_the_code(self, players: int) -> Any:
        """From Home, a Break the Code game for ``players`` players: its screen."""
        self.tap(self.screen("home").ids.game_break_the_code)
        setup = self.screen("setup")
        while len(setup.rows()) < players:
            self.tap(setup.ids.add_player)
        while len(setup.rows()) > players:
            setup.row_action(setup.rows()[-1], "remove")
        self.tap(setup.ids.start_button)
        return self.screen("break_the_code")

    def texts(self) -> list[str]:
        """Every text in the widget tree (and open popups) right now."""
        out: list[str] = []
        for top in self.window.children:
            for widget in top.walk(restrict=False):
                text = getattr(widget, "text", None)
                if isinstance(text, str) and text:
                    out.append(text)
        return out

    def close(self) -> None:
        from kivy.app import App

        for child in list(self.window.children):
            self.window.remove_widget(child)
        # on_stop also lets kv's ``app`` proxy forget this app (it caches the first one)
        self.app.dispatch("on_stop")
        App._running_app = None
        self.pump(2)


def _in_view(scroll: Any, widget: Any) -> bool:
    """Whether ``widget`` lies wholly inside the part of ``scroll`` shown in the window."""
    left, bottom = scroll.to_window(*scroll.pos)
    x, y = widget.to_window(*widget.pos)
    return (left - 1 <= x and x + widget.width <= left + scroll.width + 1
            and bottom - 1 <= y and y + widget.height <= bottom + scroll.height + 1)


def _layout_pending(widget: Any) -> bool:
    """Whether a layout holding ``widget`` will place its children again at the next frame."""
    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        trigger = getattr(parent, "_trigger_layout", None)
        if trigger is not None and getattr(trigger, "is_triggered", False):
            return True
        parent = parent.parent
    return False


def _scroll_view_of(widget: Any) -> Any:
    from kivy.uix.scrollview import ScrollView

    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, ScrollView):
            return parent
        parent = parent.parent
    return None


@pytest.fixture
def make_driver(tmp_path: Path) -> Iterator[Any]:
    if not _has_display():
        pytest.skip("needs a display: run under xvfb-run (scripts/test.sh does)")
    drivers: list[Driver] = []

    def make(**kwargs: Any) -> Driver:
        kwargs.setdefault("size", SIZES["landscape"])
        # the demo camera renders a frame per table change (~0.2 s of CPU): only where needed
        kwargs.setdefault("start_camera", "camera_source" in kwargs)
        driver = Driver(tmp_path / "journal.sqlite3", **kwargs)
        drivers.append(driver)
        return driver

    yield make
    for driver in drivers:
        driver.close()


@pytest.fixture
def in_language(make_driver: Any) -> Iterator[Any]:
    """A driver whose app speaks ``language`` (back to English afterwards)."""
    drivers = []

    def make(language: str) -> Any:
        driver = make_driver()
        drivers.append(driver)
        driver.screen("settings").change("app", "language", language)
        return driver

    yield make
    for driver in drivers:
        driver.screen("settings").change("app", "language", "en")
