"""The player buttons ("I solved it"), confirm and undo: debounced presses onto a queue.

gpiozero's ``bounce_time`` is left off on purpose: the mock pins ignore it, so debouncing that
matters is done here, where tests can drive it. :class:`Debouncer` counts a press only when
the line has been quiet (no edge either way) for ``window_s`` before it; the contact chatter
after a press, and the chatter of a release, are thereby dropped.

Buttons never call the UI: every accepted press becomes a :class:`ButtonPressed` on the
``events`` queue (put from gpiozero's callback thread; ``queue.Queue`` is thread-safe), and
the session decides what it means (e.g. :func:`hardware.table.apply_press`).
"""

from __future__ import annotations

import contextlib
import math
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gpiozero import Button

from companion.closing import Closing
from hardware.errors import HardwareError, HardwareSettingError

MAX_PLAYER_BUTTONS = 4
PLAYER_BUTTONS = tuple(f"P{seat + 1}" for seat in range(MAX_PLAYER_BUTTONS))
CONFIRM = "confirm"
UNDO = "undo"


@dataclass(frozen=True)
class ButtonPressed:
    """One accepted press. ``seat`` (0-based) is set for the player buttons only."""

    button: str
    at: float
    seat: int | None = None
    #: "gpio" for a real (or mock) pin, "screen" for a tap on the virtual panel
    source: str = "gpio"


class Debouncer:
    """Accepts a press edge only after ``window_s`` of silence on the line.

    >>> d = Debouncer(0.05)
    >>> [d.edge(t, pressed) for t, pressed in [(1.0, True), (1.002, False), (1.004, True)]]
    [True, False, False]
    >>> d.edge(1.3, False), d.edge(1.302, True), d.edge(1.5, True)
    (False, False, True)
    """

    def __init__(self, window_s: float) -> None:
        if not (math.isfinite(window_s) and window_s >= 0):
            raise HardwareSettingError(f"debounce window must be >= 0 s, got {window_s}")
        self.window_s = window_s
        self._last_edge = -math.inf

    def edge(self, at: float, pressed: bool) -> bool:
        """Record an edge at ``at``; True when it is a press that counts."""
        quiet = at - self._last_edge >= self.window_s - 1e-9  # 0.15 - 0.1 < 0.05 in floats
        self._last_edge = max(self._last_edge, at)
        return pressed and quiet


class ButtonPanel(Closing):
    """Up to four player buttons plus confirm and undo: gpiozero ``Button`` devices named
    ``P1``..``P4``, ``confirm`` and ``undo`` (wired to ground; the internal pull-ups are used).

    The buttons are opened one by one (not as a ``ButtonBoard``) so that when one pin is busy
    the ones already opened are closed at once, not whenever the garbage collector runs.
    """

    def __init__(
        self,
        *,
        player_pins: Sequence[int | str] = (),
        confirm_pin: int | str | None = None,
        undo_pin: int | str | None = None,
        events: queue.Queue[Any] | None = None,
        debounce_s: float = 0.05,
        clock: Callable[[], float] = time.monotonic,
        pin_factory: Any = None,
    ) -> None:
        if len(player_pins) > MAX_PLAYER_BUTTONS:
            raise HardwareSettingError(
                f"at most {MAX_PLAYER_BUTTONS} player buttons, got {len(player_pins)} pins "
                f"{list(player_pins)}"
            )
        named: dict[str, int | str] = dict(zip(PLAYER_BUTTONS, player_pins, strict=False))
        if confirm_pin is not None:
            named[CONFIRM] = confirm_pin
        if undo_pin is not None:
            named[UNDO] = undo_pin
        self.pins = named
        self.names = tuple(named)
        self.events: queue.Queue[Any] = queue.Queue() if events is None else events
        self.clock = clock
        self._debouncers = {name: Debouncer(debounce_s) for name in self.names}
        self._lock = threading.Lock()
        self._listeners: list[Callable[[ButtonPressed], None]] = []
        self._buttons: dict[str, Any] = {}
        self._closed = False
        try:
            for name, pin in named.items():
                button = Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                self._buttons[name] = button
                button.when_pressed = self._callback(name, True)
                button.when_released = self._callback(name, False)
        except BaseException:
            with contextlib.suppress(Exception):  # the error that stopped the opening matters
                self.close()
            raise

    def _callback(self, name: str, pressed: bool) -> Callable[[], None]:
        def on_edge() -> None:
            self._edge(name, pressed, self.clock())

        return on_edge

    def _edge(self, name: str, pressed: bool, at: float) -> None:
        with self._lock:
            accepted = self._debouncers[name].edge(at, pressed)
        if accepted:
            self._report(ButtonPressed(name, at, seat_of(name)))

    def _report(self, press: ButtonPressed) -> None:
        self.events.put(press)
        for listener in list(self._listeners):
            listener(press)

    def add_listener(self, listener: Callable[[ButtonPressed], None]) -> None:
        """Also hand each press to ``listener`` (on gpiozero's thread: queue it, no UI)."""
        self._listeners.append(listener)

    def press(self, name: str) -> None:
        """A tap on the on-screen panel: reported like a press, marked ``source="screen"``."""
        self._check(name)
        self._report(ButtonPressed(name, self.clock(), seat_of(name), source="screen"))

    def _check(self, name: str) -> None:
        if name not in self.pins:
            raise HardwareSettingError(
                f"no button {name!r}; this panel has {', '.join(self.names) or 'none'}"
            )

    def button(self, name: str) -> Any:
        """The gpiozero ``Button`` called ``name``."""
        self._check(name)
        return self._buttons[name]

    def is_pressed(self, name: str) -> bool:
        return bool(self.button(name).is_pressed)

    def states(self) -> dict[str, bool]:
        """Which buttons are held down right now (raw, not debounced)."""
        if self.closed:
            return {name: False for name in self.names}
        return {name: bool(button.is_pressed) for name, button in self._buttons.items()}

    @property
    def closed(self) -> bool:
        return getattr(self, "_closed", True)

    def close(self) -> None:
        """Free every button's pin, all of them even if one fails; a second call does nothing."""
        if self._closed:
            return
        self._closed = True
        errors: list[Exception] = []
        for button in self._buttons.values():
            try:
                if not button.closed:
                    button.close()
            except Exception as exc:  # free the other pins first
                errors.append(exc)
        if errors:
            raise HardwareError(f"closing the buttons failed: {errors[0]}") from errors[0]


    def __repr__(self) -> str:
        return f"<ButtonPanel {self.pins}>"


def seat_of(name: str) -> int | None:
    """0-based seat of a player button name, None for confirm and undo."""
    return PLAYER_BUTTONS.index(name) if name in PLAYER_BUTTONS else None
