"""The frames bench/silent_reads.py reads, one module per reader: ``cases(first, frames)``
yields a :class:`Case` per frame."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

#: one piece a read gave a value for (a tile, a cell, a gem, a rack): the confidence the
#: reader gave it and whether the value is the truth
Piece = tuple[float, bool]
#: what a judge says of one frame: (outcome, reason) or (outcome, reason, pieces)
Verdict = tuple[str, str] | tuple[str, str, list[Piece]]


@dataclass(frozen=True)
class Case:
    """One frame to read and how to judge the read."""

    label: str
    seed: int
    frame: np.ndarray
    #: the outcome of reading a frame: ("refused", reason), ("asked", why), ("right", "") or
    #: ("silent_wrong", ""), and optionally the pieces read, for the reliability table
    judge: Callable[[np.ndarray], Verdict]
    #: the board's outline in a frame (image points), for the picture measures; None when the
    #: frame shows no board
    board: Callable[[np.ndarray], np.ndarray | None]
