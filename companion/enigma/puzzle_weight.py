"""The weight puzzle: put all the card's weights into cups so that the balance is level.

The small number under a cup is what **one** weight weighs in that cup; the number in the
card's corner is how many weights must be used, all of them (rules/enigma.md section 6.1).
A cup may hold several weights; whether a cup may stay empty is unknown (default: allowed).

>>> card = WeightCard(left=(13, 6), right=(5, 7), count=5)
>>> check(card, WeightSolution(left=(1, 1), right=(1, 2)))
True
>>> solve(card)
[WeightSolution(left=(1, 1), right=(1, 2))]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from companion.enigma.errors import PuzzleError


@dataclass(frozen=True)
class WeightCard:
    """Cup values on each side, and how many weights must be used."""

    left: tuple[int, ...]
    right: tuple[int, ...]
    count: int
    id: str = ""

    def __post_init__(self) -> None:
        where = f"weight card {self.id!r}" if self.id else "weight card"
        if not self.left or not self.right:
            raise PuzzleError(f"{where}: each side needs at least one cup")
        for value in (*self.left, *self.right):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise PuzzleError(f"{where}: cup values must be positive integers, got {value!r}")
        if not isinstance(self.count, int) or self.count < 1:
            raise PuzzleError(f"{where}: count must be a positive integer, got {self.count!r}")


@dataclass(frozen=True)
class WeightSolution:
    """How many weights lie in each cup, in the card's cup order."""

    left: tuple[int, ...]
    right: tuple[int, ...]


def parse_weight_card(data: object) -> WeightCard:
    """``{"id": ..., "left": [13, 6], "right": [5, 7], "count": 5}``."""
    if not isinstance(data, Mapping):
        raise PuzzleError("weight card: must be an object")
    left, right, count = data.get("left"), data.get("right"), data.get("count")
    if not isinstance(left, list) or not isinstance(right, list) or not isinstance(count, int):
        raise PuzzleError(f"weight card {data.get('id')!r}: needs lists 'left', 'right' and "
                          "an integer 'count'")
    return WeightCard(tuple(left), tuple(right), count, str(data.get("id", "")))


def format_weight_card(card: WeightCard) -> dict[str, object]:
    return {"id": card.id, "left": list(card.left), "right": list(card.right),
            "count": card.count}


def parse_weight_solution(data: object) -> WeightSolution:
    """``{"left": [1, 1], "right": [1, 2]}``: weights per cup."""
    if not isinstance(data, Mapping):
        raise PuzzleError("weight solution: must be an object with 'left' and 'right'")
    left, right = data.get("left"), data.get("right")
    if not isinstance(left, list) or not isinstance(right, list):
        raise PuzzleError("weight solution: 'left' and 'right' must be lists of counts")
    return WeightSolution(tuple(left), tuple(right))


def format_weight_solution(solution: WeightSolution) -> dict[str, object]:
    return {"left": list(solution.left), "right": list(solution.right)}


def side_weights(card: WeightCard, counts: WeightSolution) -> tuple[int, int]:
    """Total weight on the left and on the right."""
    left = sum(v * n for v, n in zip(card.left, counts.left, strict=True))
    right = sum(v * n for v, n in zip(card.right, counts.right, strict=True))
    return left, right


def weight_problem(
    card: WeightCard, counts: WeightSolution, *, allow_empty_cups: bool = True
) -> str | None:
    """Why ``counts`` does not solve ``card``, or None when it does."""
    if len(counts.left) != len(card.left) or len(counts.right) != len(card.right):
        return (
            f"the card has {len(card.left)} + {len(card.right)} cups, the answer gives "
            f"{len(counts.left)} + {len(counts.right)} counts"
        )
    for n in (*counts.left, *counts.right):
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            return f"a cup count must be a whole number >= 0, got {n!r}"
        if n == 0 and not allow_empty_cups:
            return "every cup must hold at least one weight"
    used = sum(counts.left) + sum(counts.right)
    if used != card.count:
        return f"all {card.count} weights must be used, the answer uses {used}"
    left, right = side_weights(card, counts)
    if left != right:
        return f"the balance is not level: left {left}, right {right}"
    return None


def check(card: WeightCard, counts: WeightSolution, *, allow_empty_cups: bool = True) -> bool:
    """True when ``counts`` uses all the weights and levels the balance."""
    return weight_problem(card, counts, allow_empty_cups=allow_empty_cups) is None


def _compositions(total: int, parts: int, minimum: int) -> Iterator[tuple[int, ...]]:
    if parts == 1:
        if total >= minimum:
            yield (total,)
        return
    for first in range(minimum, total - minimum * (parts - 1) + 1):
        for rest in _compositions(total - first, parts - 1, minimum):
            yield (first, *rest)


def solve(card: WeightCard, *, allow_empty_cups: bool = True) -> list[WeightSolution]:
    """Every way to level the balance with all the card's weights (lexicographic order).

    Enumerates the distributions of ``count`` weights over the cups: 4 cups and 6 weights give
    84, so this is instant for real cards.
    """
    minimum = 0 if allow_empty_cups else 1
    n_left = len(card.left)
    solutions = []
    for counts in _compositions(card.count, n_left + len(card.right), minimum):
        answer = WeightSolution(counts[:n_left], counts[n_left:])
        left, right = side_weights(card, answer)
        if left == right:
            solutions.append(answer)
    return solutions


__all__ = [
    "WeightCard",
    "WeightSolution",
    "check",
    "format_weight_card",
    "format_weight_solution",
    "parse_weight_card",
    "parse_weight_solution",
    "side_weights",
    "solve",
    "weight_problem",
]
