"""The timer's light bar: what it shows (pure) and the two devices that show it.

:func:`bar_frame` turns a :class:`~companion.timer.TimerSnapshot` into a :class:`BarFrame`:
linear levels per LED (a draining bar whose last lit LED dims smoothly) and a colour on the
green-to-red ramp. Then either device shows the frame:

* :class:`LEDLightBar` (default): a gpiozero ``LEDBarGraph(pwm=True)`` of discrete LEDs;
* :class:`StripLightBar`: a WS2812 strip behind a :class:`~hardware.strip_drivers.PixelDriver`
  (Pi5Neo on a Pi 5, rpi_ws281x or Adafruit neopixel on a Pi 4, a virtual one on the desktop).

Both have the same interface: ``count``, ``show(frame)``, ``levels``, ``colours``, ``close()``,
and are context managers. Only changed LEDs are written, so a 200 Hz render loop costs little.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from gpiozero import LEDBarGraph
from gpiozero.exc import PinPWMUnsupported

from companion.closing import Closing
from companion.timer import TimerPhase, TimerSnapshot
from hardware.errors import HardwareSettingError, HardwareUnavailableError
from hardware.pins import NO_PWM_HINT

RGB = tuple[int, int, int]

GREEN: RGB = (0, 255, 0)
RED: RGB = (255, 0, 0)
#: how long the bar flashes after the sand ran out, and how fast
FLASH_S = 3.0
FLASH_HZ = 4.0
#: the bar dims to this while paused, so a paused glass looks different from a running one
PAUSED_LEVEL = 0.35


@dataclass(frozen=True)
class BarFrame:
    """One picture of the bar: a linear level (0..1) per LED and the ramp colour."""

    levels: tuple[float, ...]
    colour: RGB = GREEN

    @classmethod
    def dark(cls, count: int) -> BarFrame:
        return cls((0.0,) * count, GREEN)


def bar_levels(fraction: float, count: int) -> tuple[float, ...]:
    """A bar of ``count`` LEDs holding ``fraction`` of the sand: full LEDs from the first,
    the boundary LED at a partial level (the smooth last LED), the rest dark.

    >>> bar_levels(0.5, 4)
    (1.0, 1.0, 0.0, 0.0)
    >>> bar_levels(0.3, 4)
    (1.0, 0.2, 0.0, 0.0)
    """
    fraction = min(1.0, max(0.0, fraction))
    return tuple(round(min(1.0, max(0.0, count * fraction - index)), 6) for index in range(count))


def ramp_colour(fraction: float) -> RGB:
    """Green with a full glass, yellow at half, red when it is nearly empty.

    >>> ramp_colour(1.0), ramp_colour(0.5), ramp_colour(0.0)
    ((0, 255, 0), (255, 255, 0), (255, 0, 0))
    """
    fraction = min(1.0, max(0.0, fraction))
    red = round(255 * min(1.0, 2.0 * (1.0 - fraction)))
    green = round(255 * min(1.0, 2.0 * fraction))
    return (red, green, 0)


def flash_is_on(
    since_end_s: float, *, flash_s: float = FLASH_S, flash_hz: float = FLASH_HZ
) -> bool:
    """During the flash after expiry: on for the first half of each period, off after."""
    if since_end_s < 0 or since_end_s >= flash_s:
        return False
    return math.floor(since_end_s * flash_hz * 2.0) % 2 == 0


def bar_frame(
    snapshot: TimerSnapshot,
    count: int,
    *,
    flash_s: float = FLASH_S,
    flash_hz: float = FLASH_HZ,
) -> BarFrame:
    """What the bar shows for a timer snapshot.

    Idle and cancelled: dark (the bar lights when the glass turns). Running: the draining bar.
    Paused: the same bar, dimmed. Expired: all LEDs flash red for ``flash_s``, then dark.
    """
    phase = snapshot.phase
    if phase is TimerPhase.RUNNING:
        return BarFrame(bar_levels(snapshot.fraction, count), ramp_colour(snapshot.fraction))
    if phase is TimerPhase.PAUSED:
        levels = tuple(level * PAUSED_LEVEL for level in bar_levels(snapshot.fraction, count))
        return BarFrame(levels, ramp_colour(snapshot.fraction))
    if phase is TimerPhase.EXPIRED and snapshot.ended_at is not None:
        on = flash_is_on(snapshot.now - snapshot.ended_at, flash_s=flash_s, flash_hz=flash_hz)
        return BarFrame(((1.0 if on else 0.0),) * count, RED)
    return BarFrame.dark(count)


class LightBar(Protocol):
    """What :class:`~hardware.table.TableHardware` needs from a light bar."""

    kind: str
    count: int

    def show(self, frame: BarFrame) -> None: ...

    @property
    def levels(self) -> tuple[float, ...]: ...

    @property
    def colours(self) -> tuple[RGB, ...] | None: ...

    def close(self) -> None: ...


class LEDLightBar(Closing):
    """Discrete LEDs on GPIO pins, first to last, driven by PWM.

    ``gamma`` maps the linear level to a duty cycle so that the dimming LED *looks* linear
    (the eye is far more sensitive at low duty); 1.0 writes the level as is.
    """

    kind = "leds"

    def __init__(
        self, pins: Sequence[int | str], *, gamma: float = 2.2, pin_factory: Any = None
    ) -> None:
        if not pins:
            raise HardwareSettingError("the light bar needs at least one pin, got none")
        if gamma <= 0:
            raise HardwareSettingError(f"light bar gamma must be > 0, got {gamma}")
        self.pins = tuple(pins)
        self.count = len(self.pins)
        self.gamma = gamma
        try:
            self.graph = LEDBarGraph(*self.pins, pwm=True, pin_factory=pin_factory)
        except PinPWMUnsupported as exc:
            raise HardwareUnavailableError(
                f"light bar on GPIO {list(self.pins)}: {NO_PWM_HINT}"
            ) from exc
        self._written = [0.0] * self.count
        self._levels: tuple[float, ...] = (0.0,) * self.count

    def duty(self, level: float) -> float:
        """The PWM duty cycle written for a linear ``level`` (rounded to 1/1000)."""
        clamped: float = min(1.0, max(0.0, level))
        return round(float(clamped**self.gamma), 3)

    def show(self, frame: BarFrame) -> None:
        if len(frame.levels) != self.count:
            raise HardwareSettingError(
                f"a frame of {len(frame.levels)} levels for a bar of {self.count} LEDs"
            )
        for index, level in enumerate(frame.levels):
            value = self.duty(level)
            if value != self._written[index]:
                self.graph[index].value = value
                self._written[index] = value
        self._levels = frame.levels

    @property
    def levels(self) -> tuple[float, ...]:
        return self._levels

    @property
    def colours(self) -> tuple[RGB, ...] | None:
        return None  # single-colour LEDs

    @property
    def closed(self) -> bool:
        return bool(self.graph.closed)

    def close(self) -> None:
        """Darken every LED, then free the pins; a second call does nothing.

        Darkened first, and the pins freed even if that fails: a freed line keeps the level it
        was last driven to on some pin drivers, so the bar could stay lit until a restart.
        """
        if self.graph.closed:
            return
        try:
            self.graph.off()
            self._written = [0.0] * self.count
            self._levels = (0.0,) * self.count
        finally:
            self.graph.close()

    def __repr__(self) -> str:
        return f"<LEDLightBar pins={list(self.pins)} levels={list(self._levels)}>"


class StripLightBar(Closing):
    """A WS2812 strip: each pixel shows the ramp colour scaled by its level and brightness.

    The strip hangs off SPI, not a gpiozero pin; ``pin_factory`` is accepted for a uniform
    constructor and ignored.
    """

    kind = "ws2812"

    def __init__(
        self,
        count: int,
        *,
        driver: Any,
        brightness: float = 0.3,
        pin_factory: Any = None,
    ) -> None:
        if count < 1:
            raise HardwareSettingError(f"a strip needs at least one LED, got {count}")
        if not 0.0 <= brightness <= 1.0:
            raise HardwareSettingError(f"strip brightness must be 0..1, got {brightness}")
        self.count = count
        self.brightness = brightness
        self.driver = driver
        self._pixels: tuple[RGB, ...] = ((0, 0, 0),) * count
        self._levels: tuple[float, ...] = (0.0,) * count
        self._closed = False
        self.driver.write(self._pixels)

    def pixels_for(self, frame: BarFrame) -> tuple[RGB, ...]:
        scale = self.brightness
        return tuple(
            (
                round(frame.colour[0] * level * scale),
                round(frame.colour[1] * level * scale),
                round(frame.colour[2] * level * scale),
            )
            for level in frame.levels
        )

    def show(self, frame: BarFrame) -> None:
        if len(frame.levels) != self.count:
            raise HardwareSettingError(
                f"a frame of {len(frame.levels)} levels for a strip of {self.count} LEDs"
            )
        pixels = self.pixels_for(frame)
        if pixels != self._pixels:
            self.driver.write(pixels)
            self._pixels = pixels
        self._levels = frame.levels

    @property
    def levels(self) -> tuple[float, ...]:
        return self._levels

    @property
    def colours(self) -> tuple[RGB, ...] | None:
        return self._pixels

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self.driver.write(((0, 0, 0),) * self.count)
        finally:
            self.driver.close()

    def __repr__(self) -> str:
        return f"<StripLightBar {self.count} LEDs via {type(self.driver).__name__}>"
