"""Enigma reader, one tile's doubts: the problems seen on a tile, the opening positions they
name, and the confidence they leave (:class:`TileDoubts`), with the confidences a problem
leaves. See :mod:`vision.enigma.tile`.
"""

from __future__ import annotations

from companion.enigma.tiles import Port

#: the confidence left by an unclear opening, a broken channel end, a crossing, a hidden cell
UNCLEAR_CONFIDENCE = 0.5
DOUBTFUL_CONFIDENCE = 0.4
HIDDEN_CONFIDENCE = 0.3


def opening_question(q: Port) -> str:
    """The words that begin every question whether there is an opening at ``q``. The
    mirror finds the questions a neighbour settles by them, so they are written here once."""
    return f"is there an opening at {q.side}{q.position}?"


class TileDoubts:
    """The problems seen on a tile, in the order seen, and the confidence they leave."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.confidence = 1.0
        #: the opening positions a problem names
        self.openings: set[Port] = set()

    def lower(self, cap: float) -> None:
        self.confidence = min(self.confidence, cap)

    def add(self, problem: str, cap: float) -> None:
        self.problems.append(problem)
        self.lower(cap)

    def add_at(self, q: Port, problem: str, cap: float) -> None:
        """A problem about the opening position ``q``."""
        self.openings.add(q)
        self.add(problem.format(f"{q.side}{q.position}"), cap)

    def ask_opening(self, q: Port, reason: str, cap: float) -> None:
        """The question whether there is an opening at ``q``, and why it is asked."""
        self.openings.add(q)
        self.add(f"{opening_question(q)} {reason}", cap)
