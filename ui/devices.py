"""The light bar, buzzer and buttons as the app sees them, real or on the virtual panel.

:class:`DeviceHub` wraps the ``hardware`` package: button presses become ``UiEvent("button")``
on the app's event queue (gpiozero calls back on its own threads), and :meth:`snapshot` gives
the light-bar levels, the buzzer and the buttons for the on-screen panel. When the pins cannot
be opened the hub falls back to a panel-only model and reports a ``hardware-error`` banner.
"""

from __future__ import annotations

import logging
import queue
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from companion.closing import Closing
from ui.workers import UiEvent

log = logging.getLogger(__name__)

BUTTONS = ("P1", "P2", "P3", "P4", "confirm", "undo")
#: how many of the timer's last sounds :attr:`DeviceHub.played` keeps: the sand timer ticks
#: every second of every Enigma round, so a list of them all grew all evening
SOUNDS_KEPT = 100


@dataclass
class PanelState:
    """What the virtual panel draws."""

    levels: list[float] = field(default_factory=lambda: [0.0] * 8)
    buzzer: str = ""  # "" silent, else what it plays ("beep", "alarm", a note)
    pressed: set[str] = field(default_factory=set)


class DeviceHub(Closing):
    """One owner for the timer's devices; ``close()`` releases the pins."""

    def __init__(self, cfg: Any, events: queue.Queue[UiEvent], *, demo: bool) -> None:
        self.events = events
        self.demo = demo
        self.backend: Any = None
        self.error = ""
        self.panel = PanelState(levels=[0.0] * len(getattr(cfg.gpio, "light_bar_pins", range(8))))
        self.button_names = list(BUTTONS)
        #: the last :data:`SOUNDS_KEPT` sounds the timer asked for, in order (tests read it)
        self.played: deque[str] = deque(maxlen=SOUNDS_KEPT)
        #: True when the buttons and lamps exist only on the screen (demo, or no pins)
        self.is_virtual = demo
        try:
            self.backend = _open_backend(cfg, demo=demo)
        except Exception as exc:  # no pins, no permission, no package: the panel takes over
            log.warning("hardware unavailable, using the on-screen panel: %s", exc)
            self.backend = None if demo else _virtual_backend(cfg)
            self.is_virtual = True
            if not demo:  # in the demo the panel *is* the hardware
                self.error = f"hardware: {exc}"
                self.events.put(UiEvent("hardware-error", message=self.error))
        if self.backend is not None:
            self._wire_buttons()
            getter = getattr(self.backend, "panel_state", None)
            if callable(getter):  # mock pins (gpiozero's env or a fallback) are virtual too
                self.is_virtual = self.is_virtual or bool(getattr(getter(), "is_virtual", False))

    # --- buttons -----------------------------------------------------------------------------
    def _wire_buttons(self) -> None:
        when = getattr(self.backend, "when_button", None)
        if callable(when):
            when(lambda name: self.events.put(UiEvent("button", name=str(name))))
            names = getattr(self.backend, "button_names", None)
            if names:
                self.button_names = list(names)

    def press(self, name: str) -> None:
        """A click on the virtual panel: drive the mock pin if there is one, else report it."""
        presser = getattr(self.backend, "press", None)
        if callable(presser):
            try:
                presser(name)
                return
            except Exception:
                log.exception("simulated press of %s failed", name)
        self.events.put(UiEvent("button", name=name))

    # --- light bar and buzzer ----------------------------------------------------------------
    def render_timer(self, snapshot: Any, events: list[Any]) -> None:
        """Show a sand-timer snapshot on the bar and sound its events (main thread, Clock)."""
        names = {"Started": "start", "Tick": "tick", "WarningReached": "warning",
                 "Expired": "alarm"}
        for event in events:
            sound = names.get(type(event).__name__)
            if sound:
                self.played.append(sound)
                self.panel.buzzer = sound
        fraction = max(0.0, min(1.0, float(snapshot.fraction)))
        n = len(self.panel.levels)
        self.panel.levels = [max(0.0, min(1.0, fraction * n - i)) for i in range(n)]
        self._call("render", snapshot, list(events))

    def off(self) -> None:
        """Silence the buzzer and darken the bar (before a restart of the pins, or the end).

        Each on its own: a buzzer that fails to stop must not leave the bar lit.
        """
        self.panel.levels = [0.0] * len(self.panel.levels)
        self.panel.buzzer = ""
        if self.backend is None:
            return
        buzzer = getattr(self.backend, "buzzer", None)
        bar = getattr(self.backend, "light_bar", None)
        if buzzer is not None:
            try:
                buzzer.stop()
            except Exception:
                log.exception("silencing the buzzer failed")
        if bar is not None:
            try:
                from hardware.light_bar import BarFrame

                bar.show(BarFrame.dark(len(bar.levels)))
            except Exception:
                log.exception("darkening the light bar failed")

    def snapshot(self) -> PanelState:
        """The panel to draw: the backend's own panel state when there is one."""
        getter = getattr(self.backend, "panel_state", None)
        if callable(getter):
            try:
                snap = getter()
                self.panel.levels = [float(v) for v in snap.levels]
                self.panel.buzzer = str(snap.melody or snap.buzzer or "")
                self.panel.pressed = set(snap.pressed)
            except Exception:
                log.exception("hardware panel state failed")
        return self.panel

    def _call(self, method: str, *args: Any) -> None:
        target = getattr(self.backend, method, None)
        if not callable(target):
            return
        try:
            target(*args)
        except Exception as exc:  # a device failing mid-game shows a banner; play goes on
            if not self.error:
                self.error = f"hardware: {exc}"
                self.events.put(UiEvent("hardware-error", message=self.error))

    def close(self) -> None:
        """Free the pins (the hardware package silences and darkens its devices as it closes
        them). A second call does nothing."""
        backend, self.backend = self.backend, None
        closer = getattr(backend, "close", None)
        if callable(closer):
            try:
                closer()
            except Exception:
                log.exception("closing the hardware failed")


def _virtual_backend(cfg: Any) -> Any:
    """The same devices on mock pins: the on-screen panel stands in for the real ones."""
    try:
        from hardware.pins import mock_pin_factory
        from hardware.table import build_table_hardware

        return build_table_hardware(cfg.gpio, pin_factory=mock_pin_factory())
    except Exception:  # then the panel is drawn from the hub's own model
        log.exception("even mock pins failed")
        return None


def _open_backend(cfg: Any, *, demo: bool) -> Any:
    """The hardware package's device set, on mock pins in the demo."""
    import importlib

    try:
        module = importlib.import_module("hardware.table")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("hardware"):
            raise RuntimeError("the hardware package is not installed") from exc
        raise
    return module.open_table_devices(cfg, demo=demo)
