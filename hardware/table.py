"""The table's devices as one thing: it renders the sand timer and reports button presses.

:class:`TableHardware` composes a light bar, a buzzer and a button panel by name
(``hw.light_bar``, ``hw.buzzer``, ``hw.buttons``), like gpiozero's ``TrafficLights``.

How it is driven (a choice, explained): the core is **one method, ``render(snapshot)``**, that
shows a :class:`~companion.timer.TimerSnapshot` on the bar, advances the buzzer's melody and
plays the sounds for the timer events it was told about (``notify(event)``, a timer
listener, thread-safe). Nothing in it sleeps or spawns threads, so a whole countdown can run
on a manual clock in tests, pin for pin. :class:`HardwareLoop` is the small worker thread the
app uses to call it at 200 Hz: the light bar and the end alarm then stay exact even when the
Kivy main loop stalls on a camera frame (a Pi 4 reader takes ~200 ms). The UI only reads
:meth:`TableHardware.panel_state` (plain data) from its Clock to draw the virtual panel.
Calling ``render`` from a Kivy ``Clock`` at 60 Hz instead also works, with ~17 ms steps.

Factories: :func:`build_table_hardware` (raises :class:`HardwareUnavailableError` with a clear
message) and :func:`open_table_hardware` (falls back to mock pins, i.e. the on-screen virtual
panel, and returns the message instead). Both read the ``[gpio]`` config section by attribute
name, so any object with those attributes will do.
"""

from __future__ import annotations

import collections
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from companion.closing import Closing
from companion.timer import (
    Expired,
    SandTimer,
    SolverAccepted,
    SolverRejected,
    Started,
    Tick,
    TimerEvent,
    TimerPhase,
    TimerSnapshot,
    WarningReached,
)
from config.schema import GpioConfig
from hardware.buttons import ButtonPanel, ButtonPressed
from hardware.buzzer import Buzzer
from hardware.errors import HardwareError, HardwareUnavailableError
from hardware.light_bar import RGB, LEDLightBar, LightBar, StripLightBar, bar_frame
from hardware.pins import describe_factory, is_mock_factory, make_pin_factory, mock_pin_factory
from hardware.strip_drivers import VirtualPixelDriver, open_strip_driver

log = logging.getLogger(__name__)

#: What each timer event sounds like (melody names of :data:`hardware.buzzer.MELODIES`).
EVENT_SOUNDS: dict[type, str] = {
    Started: "start",
    Tick: "tick",
    WarningReached: "warning",
    Expired: "alarm",
    SolverRejected: "rejected",
}


def sound_for(event: TimerEvent) -> str | None:
    """The melody for an event. A solver who turned the glass hears the start chirp only."""
    if isinstance(event, SolverAccepted):
        return None if event.started_timer else "solved"
    return EVENT_SOUNDS.get(type(event))


_GPIO_DEFAULTS = GpioConfig()


def gpio_setting(gpio_cfg: Any, name: str) -> Any:
    """``gpio_cfg.name``, or the ``[gpio]`` default when the object lacks it (or is None)."""
    return getattr(gpio_cfg, name, getattr(_GPIO_DEFAULTS, name))


@dataclass(frozen=True)
class ButtonState:
    name: str
    pin: int | str
    pressed: bool


@dataclass(frozen=True)
class PanelState:
    """Everything the on-screen virtual panel draws; plain data, safe to read anywhere."""

    #: linear level per LED or pixel, first to last
    levels: tuple[float, ...]
    #: per-pixel colours for a WS2812 strip; None for single-colour LEDs
    colours: tuple[RGB, ...] | None
    #: the note sounding ("A5") or "" when silent
    buzzer: str
    melody: str | None
    #: names of the buttons held down now
    pressed: frozenset[str]
    buttons: tuple[ButtonState, ...]
    phase: str
    is_virtual: bool
    warning: str | None


class TableHardware(Closing):
    """Light bar + buzzer + buttons; renders the timer, reports presses."""

    def __init__(
        self,
        *,
        light_bar: LightBar,
        buzzer: Buzzer,
        buttons: ButtonPanel,
        pin_factory: Any = None,
        is_virtual: bool = False,
        warning: str | None = None,
    ) -> None:
        self.light_bar = light_bar
        self.buzzer = buzzer
        self.buttons = buttons
        self.pin_factory = pin_factory
        self.is_virtual = is_virtual
        self.warning = warning
        self._pending: collections.deque[TimerEvent] = collections.deque()
        self._phase = TimerPhase.IDLE.value
        self._closed = False

    @property
    def events(self) -> queue.Queue[Any]:
        """The queue the buttons report :class:`ButtonPressed` to."""
        return self.buttons.events

    @property
    def button_names(self) -> tuple[str, ...]:
        return self.buttons.names

    # --- rendering ---------------------------------------------------------------------------

    def notify(self, event: TimerEvent) -> None:
        """A timer listener: remember the event for the next :meth:`render` (any thread)."""
        self._pending.append(event)

    def render(self, snapshot: TimerSnapshot, events: Iterable[TimerEvent] = ()) -> None:
        """Show ``snapshot`` and sound the events since the last render."""
        if self._closed:
            return
        due: list[TimerEvent] = []
        while self._pending:
            due.append(self._pending.popleft())
        due.extend(events)
        for event in due:
            name = sound_for(event)
            if name is not None:
                self.buzzer.play(name, snapshot.now)
        self.light_bar.show(bar_frame(snapshot, self.light_bar.count))
        self.buzzer.update(snapshot.now)
        self._phase = snapshot.phase.value

    def panel_state(self) -> PanelState:
        states = self.buttons.states()
        return PanelState(
            levels=self.light_bar.levels,
            colours=self.light_bar.colours,
            buzzer=self.buzzer.note or "",
            melody=self.buzzer.melody,
            pressed=frozenset(name for name, down in states.items() if down),
            buttons=tuple(
                ButtonState(name, self.buttons.pins[name], states[name])
                for name in self.buttons.names
            ),
            phase=self._phase,
            is_virtual=self.is_virtual,
            warning=self.warning,
        )

    #: the name ui/devices.py looks for
    snapshot = panel_state

    # --- buttons -----------------------------------------------------------------------------

    def press(self, name: str) -> None:
        """A tap on the virtual panel. On mock pins the pin itself is driven (through the
        debouncer, like a real press); on real pins the press is reported as from the screen."""
        if is_mock_factory(self.pin_factory):
            pin = self.buttons.button(name).pin
            pin.drive_low()
            pin.drive_high()
        else:
            self.buttons.press(name)

    def when_button(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(button_name)`` for every accepted press, on gpiozero's thread (it
        must only queue). Presses also go to :attr:`events` either way."""
        self.buttons.add_listener(lambda press: callback(press.button))

    # --- resources ---------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Silence, darken and free every pin (buttons first, so no press races the close)."""
        if self._closed:
            return
        self._closed = True
        errors: list[BaseException] = []
        for device in (self.buttons, self.buzzer, self.light_bar):
            try:
                device.close()
            except Exception as exc:  # close the rest even if one fails
                errors.append(exc)
        if errors:
            raise HardwareError(f"closing the table hardware failed: {errors[0]}") from errors[0]


    def __repr__(self) -> str:
        kind = "virtual" if self.is_virtual else describe_factory(self.pin_factory)
        return (
            f"<TableHardware {kind}: {self.light_bar!r}, {self.buzzer!r}, "
            f"buttons={list(self.buttons.names)}>"
        )


def apply_press(
    timer: SandTimer, press: ButtonPressed, *, players: Sequence[str] | None = None
) -> list[TimerEvent]:
    """What the session does with a player button: claim "solved" for that seat's player.

    ``players`` are the names in seat order; without them the button name stands in. Confirm
    and undo are not timer business: they return no events.
    """
    if press.seat is None:
        return []
    if players is not None:
        if press.seat >= len(players):
            return []  # a seat nobody sits at
        player = players[press.seat]
    else:
        player = press.button
    return timer.claim_solved(player, at=press.at)


# --- factories -------------------------------------------------------------------------------


def _open(what: str, where: str, factory: Any, make: Callable[[], Any]) -> Any:
    try:
        return make()
    except HardwareError:
        raise
    except Exception as exc:  # GPIOPinInUse, lgpio's 'GPIO busy', PermissionError, ...
        raise HardwareUnavailableError(
            f"cannot open the {what} on {where} with the {describe_factory(factory)} pin "
            f"factory: {type(exc).__name__}: {exc}"
        ) from exc


def _open_light_bar(cfg: Any, factory: Any, *, virtual: bool, strip_driver: Any) -> LightBar:
    """The light bar ``[gpio] light_bar`` names: discrete LEDs, or a WS2812 strip over SPI."""
    kind = gpio_setting(cfg, "light_bar")
    if kind == "ws2812":
        count = int(gpio_setting(cfg, "strip_leds"))
        bus = int(gpio_setting(cfg, "strip_spi_bus"))
        driver = strip_driver
        if driver is None:
            driver = (
                VirtualPixelDriver(count)
                if virtual
                else _open("WS2812 strip", f"SPI bus {bus}", factory,
                           lambda: open_strip_driver(count, spi_bus=bus))
            )
        brightness = float(gpio_setting(cfg, "strip_brightness"))
        strip: LightBar = _open(
            "WS2812 strip", f"SPI bus {bus}", factory,
            lambda: StripLightBar(count, driver=driver, brightness=brightness,
                                  pin_factory=factory),
        )
        return strip
    if kind == "leds":
        pins = tuple(gpio_setting(cfg, "light_bar_pins"))
        leds: LightBar = _open("light bar", "GPIO " + ", ".join(str(p) for p in pins), factory,
                               lambda: LEDLightBar(pins, pin_factory=factory))
        return leds
    raise HardwareUnavailableError(f"[gpio] light_bar must be 'leds' or 'ws2812', got {kind!r}")


def _open_buzzer(cfg: Any, factory: Any) -> Buzzer:
    buzzer_pin = gpio_setting(cfg, "buzzer_pin")
    buzzer: Buzzer = _open(
        "buzzer", f"GPIO {buzzer_pin}", factory,
        lambda: Buzzer(buzzer_pin, octaves=int(gpio_setting(cfg, "buzzer_octaves")),
                       pin_factory=factory),
    )
    return buzzer


def _open_buttons(cfg: Any, factory: Any, *, events: queue.Queue[Any] | None,
                  clock: Callable[[], float]) -> ButtonPanel:
    player_pins = tuple(gpio_setting(cfg, "player_button_pins"))
    confirm_pin = gpio_setting(cfg, "confirm_pin")
    undo_pin = gpio_setting(cfg, "undo_pin")
    buttons: ButtonPanel = _open(
        "buttons",
        "GPIO " + ", ".join(str(p) for p in (*player_pins, confirm_pin, undo_pin)),
        factory,
        lambda: ButtonPanel(
            player_pins=player_pins,
            confirm_pin=confirm_pin,
            undo_pin=undo_pin,
            events=events,
            debounce_s=float(gpio_setting(cfg, "debounce_ms")) / 1000.0,
            clock=clock,
            pin_factory=factory,
        ),
    )
    return buttons


def build_table_hardware(
    gpio_cfg: Any = None,
    *,
    events: queue.Queue[Any] | None = None,
    pin_factory: Any = None,
    clock: Callable[[], float] = time.monotonic,
    strip_driver: Any = None,
    warning: str | None = None,
) -> TableHardware:
    """Open the devices the ``[gpio]`` section describes.

    ``pin_factory`` overrides the config's ``pin_factory`` name. ``strip_driver`` overrides
    the WS2812 driver (tests inject a fake; on mock pins a virtual one is used). On any
    failure the devices opened so far are closed again and :class:`HardwareUnavailableError`
    says which device, which pins and why.
    """
    cfg = gpio_cfg
    factory = (
        pin_factory
        if pin_factory is not None
        else make_pin_factory(str(gpio_setting(cfg, "pin_factory")))
    )
    virtual = is_mock_factory(factory)
    opened: list[Any] = []
    try:
        light_bar = _open_light_bar(cfg, factory, virtual=virtual, strip_driver=strip_driver)
        opened.append(light_bar)
        buzzer = _open_buzzer(cfg, factory)
        opened.append(buzzer)
        buttons = _open_buttons(cfg, factory, events=events, clock=clock)
        opened.append(buttons)
    except BaseException:
        for device in reversed(opened):
            try:
                device.close()
            except Exception:
                log.exception("closing %r after a failed open", device)
        raise
    return TableHardware(
        light_bar=light_bar,
        buzzer=buzzer,
        buttons=buttons,
        pin_factory=factory,
        is_virtual=virtual,
        warning=warning,
    )


def open_table_hardware(
    gpio_cfg: Any = None,
    *,
    events: queue.Queue[Any] | None = None,
    pin_factory: Any = None,
    clock: Callable[[], float] = time.monotonic,
    strip_driver: Any = None,
) -> tuple[TableHardware, str | None]:
    """Like :func:`build_table_hardware`, but a missing pin factory or a busy pin gives the
    virtual panel (mock pins) and the message to show, instead of an exception."""
    try:
        hardware = build_table_hardware(
            gpio_cfg,
            events=events,
            pin_factory=pin_factory,
            clock=clock,
            strip_driver=strip_driver,
        )
        return hardware, None
    except HardwareUnavailableError as exc:
        message = f"{exc}. Running with the on-screen virtual panel instead."
        log.warning("%s", message)
    hardware = build_table_hardware(
        gpio_cfg, events=events, pin_factory=mock_pin_factory(), clock=clock, warning=message
    )
    return hardware, message


def open_table_devices(cfg: Any, *, demo: bool = False) -> TableHardware:
    """For the app: ``cfg`` is the whole config (its ``gpio`` section is used). In the demo
    the pins are mock pins; otherwise a failure raises :class:`HardwareUnavailableError`."""
    gpio_cfg = getattr(cfg, "gpio", cfg)
    return build_table_hardware(gpio_cfg, pin_factory=mock_pin_factory() if demo else None)


# --- the worker ------------------------------------------------------------------------------


class HardwareLoop:
    """A worker thread that polls the timer and renders it every ``period_s`` (200 Hz).

    It registers the hardware as a timer listener, so the sounds of commands given on other
    threads (a start from the UI) are played too. ``close()`` stops and joins it; an error in
    a device stops the loop and is kept in :attr:`error` (and logged) for the UI to show.
    """

    def __init__(
        self, timer: SandTimer, hardware: TableHardware, *, period_s: float = 0.005
    ) -> None:
        if period_s <= 0:
            raise HardwareError(f"loop period must be > 0 s, got {period_s}")
        self.timer = timer
        self.hardware = hardware
        self.period_s = period_s
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        timer.add_listener(hardware.notify)

    def step(self) -> None:
        """One poll and render (what the thread does each period; also usable by hand)."""
        self.timer.poll()
        self.hardware.render(self.timer.snapshot())

    def start(self) -> HardwareLoop:
        if self._thread is not None:
            raise HardwareError("the hardware loop is already running")
        self._thread = threading.Thread(target=self._run, name="table-hardware", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        next_at = time.monotonic()
        while True:
            next_at += self.period_s
            delay = next_at - time.monotonic()
            if delay < 0:  # fell behind (a GC pause): skip ahead, never burst
                next_at = time.monotonic()
                delay = 0.0
            if self._stop.wait(delay):
                return
            try:
                self.step()
            except Exception as exc:
                self.error = exc
                log.exception("the hardware loop stopped")
                return

    @property
    def is_running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        try:
            self.timer.remove_listener(self.hardware.notify)
        except ValueError:
            pass

    def __enter__(self) -> HardwareLoop:
        return self.start() if self._thread is None else self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
