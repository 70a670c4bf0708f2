"""Where the app runs: a Raspberry Pi appliance, or a desktop that gets the demo."""

from __future__ import annotations

from pathlib import Path

DEVICE_TREE_MODEL = Path("/proc/device-tree/model")


def is_raspberry_pi(*, model_path: Path = DEVICE_TREE_MODEL) -> bool:
    """True when the device tree names a Raspberry Pi (the file is NUL-terminated)."""
    try:
        model = model_path.read_bytes().decode("ascii", "replace")
    except OSError:
        return False
    return "Raspberry Pi" in model


def wants_demo(requested: bool | None, *, model_path: Path = DEVICE_TREE_MODEL) -> bool:
    """``--demo`` forces the demo; without the flag, the demo runs everywhere but on a Pi."""
    if requested is not None:
        return requested
    return not is_raspberry_pi(model_path=model_path)
