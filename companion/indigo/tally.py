"""Several rounds of Indigo added up (seed, "Consejos": agree the number of rounds first).

Not an engine rule but an app feature: each finished game's points are added per seat. The
match winner is decided like a game: most points, then most gems (twins included), then shared.

>>> t = Tally(players=2, planned=2)
>>> t = t.add_scores((7, 9), (5, 6)).add_scores((10, 6), (6, 4))
>>> t.totals, t.is_complete, t.winners()
((17, 15), True, (0,))
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.indigo.errors import SetupError
from companion.indigo.state import IndigoState, gem_totals, rank_winners, scores


@dataclass(frozen=True)
class RoundResult:
    """One finished round: points and gem counts per seat."""

    points: tuple[int, ...]
    gems: tuple[int, ...]


@dataclass(frozen=True)
class Tally:
    """The running total of a match of ``planned`` rounds (None: open-ended)."""

    players: int
    planned: int | None = None
    rounds: tuple[RoundResult, ...] = ()

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise SetupError(f"Indigo takes 2-4 players, not {self.players}")
        if self.planned is not None and self.planned < 1:
            raise SetupError(f"a match has at least 1 round, not {self.planned}")

    def add(self, state: IndigoState) -> Tally:
        """The tally with the finished game ``state`` added."""
        if not state.is_over:
            raise ValueError("only a finished game can be added to the tally")
        return self.add_scores(scores(state), gem_totals(state))

    def add_scores(self, points: tuple[int, ...], gems: tuple[int, ...]) -> Tally:
        """The tally with one more round of per-seat points and gem counts."""
        if len(points) != self.players or len(gems) != self.players:
            raise ValueError(f"a round needs {self.players} scores and gem counts")
        if self.is_complete:
            raise ValueError(f"all {self.planned} rounds have been played")
        return Tally(self.players, self.planned, self.rounds + (RoundResult(points, gems),))

    @property
    def is_complete(self) -> bool:
        return self.planned is not None and len(self.rounds) >= self.planned

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(r.points[i] for r in self.rounds) for i in range(self.players))

    @property
    def gem_totals(self) -> tuple[int, ...]:
        return tuple(sum(r.gems[i] for r in self.rounds) for i in range(self.players))

    def leaders(self) -> tuple[int, ...]:
        """Seats ahead now (all seats before the first round)."""
        if not self.rounds:
            return tuple(range(self.players))
        return rank_winners(self.totals, self.gem_totals)

    def winners(self) -> tuple[int, ...]:
        """The match winners once the planned rounds are played; ``()`` before."""
        return self.leaders() if self.is_complete else ()
