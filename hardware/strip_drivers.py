"""WS2812 strip drivers, imported only when a strip is configured (they exist only on a Pi).

A driver has ``write(pixels)`` (a sequence of ``(r, g, b)`` 0..255, sent at once) and
``close()``. :func:`open_strip_driver` picks one for the board: Pi5Neo (SPI through spidev) on
a Pi 5, where rpi_ws281x does not work; rpi_ws281x in its SPI mode on earlier boards, or the
Adafruit ``neopixel`` library when that is what is installed. See docs/hardware.md for the
``/boot/firmware/config.txt`` lines SPI needs (the app never edits that file).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from hardware.errors import StripDriverError
from hardware.pins import is_pi5, pi_model

RGB = tuple[int, int, int]

#: MOSI pin (BCM) of each SPI bus: the data line of the strip
SPI_MOSI = {0: 10, 1: 20}


class PixelDriver(Protocol):
    def write(self, pixels: Sequence[RGB]) -> None: ...

    def close(self) -> None: ...


class VirtualPixelDriver:
    """Keeps the pixels in memory: the desktop demo, CI and the on-screen panel."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.pixels: tuple[RGB, ...] = ((0, 0, 0),) * count
        self.writes = 0
        self.closed = False

    def write(self, pixels: Sequence[RGB]) -> None:
        if self.closed:
            raise StripDriverError("write to a closed virtual strip")
        self.pixels = tuple(pixels)
        self.writes += 1

    def close(self) -> None:
        self.closed = True


class Pi5NeoDriver:
    """A strip on a Pi 5 through the ``pi5neo`` package (``/dev/spidevN.0``)."""

    def __init__(self, count: int, *, spi_bus: int = 0, speed_khz: int = 800) -> None:
        try:
            from pi5neo import Pi5Neo
        except ImportError as exc:
            raise StripDriverError(
                "the WS2812 strip on a Pi 5 needs the pi5neo package: pip install pi5neo"
            ) from exc
        try:
            self._neo: Any = Pi5Neo(f"/dev/spidev{spi_bus}.0", count, speed_khz)
        except OSError as exc:
            raise StripDriverError(
                f"cannot open /dev/spidev{spi_bus}.0 for the strip ({exc}); is SPI enabled "
                "(dtparam=spi=on) and the user in the spi group?"
            ) from exc
        self.count = count

    def write(self, pixels: Sequence[RGB]) -> None:
        for index, (red, green, blue) in enumerate(pixels):
            self._neo.set_led_color(index, red, green, blue)
        self._neo.update_strip()

    def close(self) -> None:
        spi = getattr(self._neo, "spi", None)
        if spi is not None:
            spi.close()


class RpiWs281xDriver:
    """A strip on a Pi 4 or earlier through ``rpi_ws281x`` in SPI mode (data on MOSI)."""

    def __init__(self, count: int, *, spi_bus: int = 0) -> None:
        try:
            from rpi_ws281x import Color, PixelStrip
        except ImportError as exc:
            raise StripDriverError(
                "the WS2812 strip needs rpi_ws281x (pip install rpi_ws281x) or neopixel"
            ) from exc
        if spi_bus not in SPI_MOSI:
            raise StripDriverError(f"rpi_ws281x drives SPI bus 0 or 1, got {spi_bus}")
        self._color = Color
        # count, pin, 800 kHz, DMA 10, not inverted, full brightness (we scale), channel 0
        self._strip: Any = PixelStrip(count, SPI_MOSI[spi_bus], 800_000, 10, False, 255, 0)
        try:
            self._strip.begin()
        except RuntimeError as exc:
            raise StripDriverError(f"rpi_ws281x cannot start the strip: {exc}") from exc
        self.count = count

    def write(self, pixels: Sequence[RGB]) -> None:
        for index, (red, green, blue) in enumerate(pixels):
            self._strip.setPixelColor(index, self._color(red, green, blue))
        self._strip.show()

    def close(self) -> None:
        cleanup = getattr(self._strip, "_cleanup", None)
        if callable(cleanup):
            cleanup()


class NeopixelDriver:
    """A strip through Adafruit's ``neopixel`` (Blinka) library, data on GPIO 10 (SPI MOSI)."""

    def __init__(self, count: int) -> None:
        try:
            import board
            import neopixel
        except ImportError as exc:
            raise StripDriverError(
                "the neopixel driver needs adafruit-circuitpython-neopixel"
            ) from exc
        self._pixels: Any = neopixel.NeoPixel(board.D10, count, brightness=1.0, auto_write=False)
        self.count = count

    def write(self, pixels: Sequence[RGB]) -> None:
        for index, pixel in enumerate(pixels):
            self._pixels[index] = pixel
        self._pixels.show()

    def close(self) -> None:
        self._pixels.deinit()


def open_strip_driver(count: int, *, spi_bus: int = 0, model: str | None = None) -> PixelDriver:
    """The right driver for this board; :class:`StripDriverError` names what is missing."""
    model = model if model is not None else pi_model()
    if is_pi5(model):
        return Pi5NeoDriver(count, spi_bus=spi_bus)
    try:
        return RpiWs281xDriver(count, spi_bus=spi_bus)
    except StripDriverError as first:
        if spi_bus != 0:
            raise
        try:
            return NeopixelDriver(count)
        except StripDriverError:
            raise first from None
