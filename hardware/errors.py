"""The hardware package's errors: one root, leaves that also subclass the matching built-in."""

from __future__ import annotations


class HardwareError(Exception):
    """Root of every error raised by the ``hardware`` package."""


class HardwareUnavailableError(HardwareError, RuntimeError):
    """The pins cannot be opened: no pin factory, a busy pin, no permission."""


class PinFactoryError(HardwareUnavailableError):
    """No gpiozero pin factory could be loaded (not a Pi, lgpio missing, unknown name)."""


class StripDriverError(HardwareUnavailableError, ImportError):
    """The WS2812 strip driver (Pi5Neo or rpi_ws281x) is missing or cannot open the bus."""


class MelodyRangeError(HardwareError, ValueError):
    """A melody has a note outside the buzzer's range."""


class HardwareSettingError(HardwareError, ValueError):
    """A device argument is out of range (no pins, a debounce below zero, ...)."""
