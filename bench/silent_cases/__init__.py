"""The frames bench/silent_reads.py reads, one module per reader: ``cases(first, frames)``
yields a :class:`Case` per frame."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Case:
    """One frame to read and how to judge the read."""

    label: str
    seed: int
    frame: np.ndarray
    #: the outcome of reading a frame: ("refused", reason), ("asked", why), ("right", "") or
    #: ("silent_wrong", "")
    judge: Callable[[np.ndarray], tuple[str, str]]
    #: the board's outline in a frame (image points), for the picture measures; None when the
    #: frame shows no board
    board: Callable[[np.ndarray], np.ndarray | None]
