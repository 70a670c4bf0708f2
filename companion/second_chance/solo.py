"""Solo mode: three games in a row, the empty squares summed; the goal is fewer than ten.

There is no bonus 1 in solo play (the engine refuses a ``bonus`` event for one player).

>>> score_solo([3, 4, 2]).achieved, score_solo([3, 4, 3]).achieved
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import IllegalMoveError

SOLO_GAMES = 3
SOLO_TARGET = 10


@dataclass(frozen=True)
class SoloScore:
    """The empty squares of each solo game and whether their total beats the target."""

    empties: tuple[int, ...]
    target: int = SOLO_TARGET

    @property
    def total(self) -> int:
        return sum(self.empties)

    @property
    def complete(self) -> bool:
        return len(self.empties) == SOLO_GAMES

    @property
    def achieved(self) -> bool:
        """True when all three games are played and the total is under the target."""
        return self.complete and self.total < self.target

    def to_json(self) -> dict[str, Any]:
        return {"empties": list(self.empties), "total": self.total, "target": self.target,
                "complete": self.complete, "achieved": self.achieved}


def score_solo(empties: Sequence[int]) -> SoloScore:
    """Score a solo series from the empty-square count of each game played so far (at most 3)."""
    if len(empties) > SOLO_GAMES:
        raise IllegalMoveError(f"a solo series is {SOLO_GAMES} games, got {len(empties)}")
    bad = [n for n in empties if not 0 <= n <= 81]
    if bad:
        raise IllegalMoveError(f"an empty-square count is 0-81, got {bad}")
    return SoloScore(tuple(empties))
