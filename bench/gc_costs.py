"""The cost of the app's garbage collections, for bench/app_memory.py.

A ``gc.callbacks`` hook reads the collecting thread's CPU clock (``time.thread_time``) when a
collection starts and stops, and sums it per generation: how many collections of each
generation ran, and their CPU. A full (generation 2) collection visits every object the
collector tracks, so its cost grows with them; on the main thread it is a stutter.
"""

from __future__ import annotations

import gc
import time
from typing import Any


class GcCosts:
    """Counts collections and their CPU per generation while installed."""

    def __init__(self) -> None:
        self.collections = [0, 0, 0]
        self.cpu_s = [0.0, 0.0, 0.0]
        self.longest_s = [0.0, 0.0, 0.0]
        self.freed = [0, 0, 0]
        self._started: float | None = None

    def __enter__(self) -> GcCosts:
        gc.callbacks.append(self._hook)
        return self

    def __exit__(self, *_exc: object) -> None:
        gc.callbacks.remove(self._hook)

    def _hook(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.thread_time()
        elif self._started is not None:
            spent = time.thread_time() - self._started
            generation = info["generation"]
            self.collections[generation] += 1
            self.cpu_s[generation] += spent
            self.longest_s[generation] = max(self.longest_s[generation], spent)
            self.freed[generation] += info["collected"]
            self._started = None

    def summary(self, seconds: float) -> str:
        """One line: per generation, how many, how often, mean and longest CPU, and the garbage
        each freed on average."""
        parts = []
        for generation, count in enumerate(self.collections):
            if not count:
                parts.append(f"gen {generation}: none")
                continue
            parts.append(
                f"gen {generation}: {count} (every {seconds / count:.1f} s), "
                f"{1000 * self.cpu_s[generation] / count:.1f} ms CPU each, longest "
                f"{1000 * self.longest_s[generation]:.0f} ms, "
                f"{self.cpu_s[generation]:.1f} s in all, {self.freed[generation] // count:,} "
                f"objects freed each")
        return "collections " + "; ".join(parts) + f"; {len(gc.get_objects()):,} objects tracked"
