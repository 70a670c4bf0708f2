"""Suite-wide settings: Kivy stays quiet and off the real home, GPIO is mocked, hypothesis is
deterministic."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
# the light bar needs PWM-capable mock pins
os.environ.setdefault("GPIOZERO_MOCK_PIN_CLASS", "mockpwmpin")

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

settings.register_profile("ci", derandomize=True, deadline=None, max_examples=60)
settings.load_profile("ci")

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
ARTIFACTS = REPO / "artifacts"


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The umask of a desktop login (022), under which files are created 0644 and folders 0755:
    what the owner-only file modes are tested against."""
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)
