"""Fixtures for the hardware tests: a fresh PWM-capable mock pin factory per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.pins import mock_pin_factory


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    pins = mock_pin_factory()
    yield pins
    pins.reset()
