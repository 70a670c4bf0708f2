"""Waiting for a worker thread without timing it: poll a condition up to a generous limit.

The limit only ends a test that would otherwise hang; nothing asserts a duration (CI's machine
is loaded, so a worker may take seconds)."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_until(predicate: Callable[[], object], seconds: float = 30.0) -> bool:
    """Whether ``predicate`` held within ``seconds`` (checked every 10 ms, and once more at
    the end)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return bool(predicate())
