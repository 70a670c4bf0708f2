"""The 21 question cards ``Q01``..``Q21`` and their exact answers.

Answers are computed on a rack in canonical order (k = 5 tiles, or 4 with four players) and
returned as the JSON values of ``shared/records.md``: positions as a sorted list of letters,
the adjacency cards Q07/Q08 as a list of letter pairs, counts and sums as a number (Q13 counts
tiles: 0, 2 or 4), Q20 as ``true``/``false``.

Rulings (``rules/break_the_code.md`` section 5): 0 is even; green is neither black nor white,
but two green 5s side by side are a same-colour pair for Q08; "nothing" is an answer (``[]`` or
``0``). With four players Q15 reads B+C+D, Q16 B+C, Q21 D-A (rack of 4).

>>> rack = Code.parse("0b 1w 5g 5g 9b")
>>> answer("Q08", rack), answer("Q10", rack), answer("Q02", rack, number=1)
([['C', 'D']], 1, ['B'])
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from companion.break_the_code.tiles import Code, Colour
from companion.errors import IllegalMoveError

LETTERS = "ABCDE"

#: The JSON value of one answer.
Answer = list[str] | list[list[str]] | int | bool


class AnswerKind(enum.Enum):
    POSITIONS = "positions"
    CHOICE_POSITIONS = "choice_positions"
    ADJACENT_PAIRS = "adjacent_pairs"
    COUNT = "count"
    SUM = "sum"
    BOOL = "bool"


@dataclass(frozen=True)
class Card:
    """One question card. ``choices`` holds the two numbers of a choose-one card."""

    id: str
    text: str
    kind: AnswerKind
    choices: tuple[int, int] | None = None

    @property
    def is_choice(self) -> bool:
        return self.choices is not None


def _card(id: str, text: str, kind: AnswerKind, choices: tuple[int, int] | None = None) -> Card:
    return Card(id, text, kind, choices)


_P, _C, _A = AnswerKind.POSITIONS, AnswerKind.CHOICE_POSITIONS, AnswerKind.ADJACENT_PAIRS
_N, _S, _B = AnswerKind.COUNT, AnswerKind.SUM, AnswerKind.BOOL

#: Every card by id, in id order.
CARDS: dict[str, Card] = {
    c.id: c
    for c in (
        _card("Q01", "Where are your #0 tiles?", _P),
        _card("Q02", "Where are your #1 or #2 tiles? (choose one)", _C, (1, 2)),
        _card("Q03", "Where are your #3 or #4 tiles? (choose one)", _C, (3, 4)),
        _card("Q04", "Where are your #5 tiles?", _P),
        _card("Q05", "Where are your #6 or #7 tiles? (choose one)", _C, (6, 7)),
        _card("Q06", "Where are your #8 or #9 tiles? (choose one)", _C, (8, 9)),
        _card("Q07", "Which neighbouring tiles have consecutive numbers?", _A),
        _card("Q08", "Which neighbouring tiles have the same colour?", _A),
        _card("Q09", "How many odd tiles do you have?", _N),
        _card("Q10", "How many even tiles do you have? (0 is even)", _N),
        _card("Q11", "How many of your tiles have a black number?", _N),
        _card("Q12", "How many of your tiles have a white number?", _N),
        _card("Q13", "How many of your tiles have the same number?", _N),
        _card("Q14", "What is the sum of your 3 left-most tiles?", _S),
        _card("Q15", "What is the sum of your 3 right-most tiles?", _S),
        _card("Q16", "What is the sum of your central tiles?", _S),
        _card("Q17", "What is the sum of your black numbers?", _S),
        _card("Q18", "What is the sum of your white numbers?", _S),
        _card("Q19", "What is the sum of your tiles?", _S),
        _card("Q20", "Is your C tile greater than 4?", _B),
        _card("Q21", "What is the difference between your highest and lowest numbers?", _S),
    )
}

CARD_IDS: tuple[str, ...] = tuple(CARDS)

#: The fixed number asked by the plain position cards.
_FIXED_NUMBER = {"Q01": 0, "Q04": 5}


def get_card(card_id: str) -> Card:
    """The card with id ``Qnn``; an unknown id raises :class:`IllegalMoveError`."""
    card = CARDS.get(card_id)
    if card is None:
        raise IllegalMoveError(f"there is no question card {card_id!r}: cards are Q01..Q21")
    return card


def check_number(card: Card, number: int | None) -> None:
    """The asker's number must be one of a choose-one card's two numbers, and only there."""
    if card.choices is None:
        if number is not None:
            raise IllegalMoveError(f"card {card.id} is not a choose-one card; it takes no number, "
                                   f"got {number}")
        return
    if number is None:
        raise IllegalMoveError(
            f"card {card.id} is a choose-one card: name {card.choices[0]} or {card.choices[1]}"
        )
    if number not in card.choices:
        raise IllegalMoveError(
            f"card {card.id} asks about {card.choices[0]} or {card.choices[1]}, not {number}"
        )


def _positions(nums: Sequence[int], wanted: int) -> list[str]:
    return [LETTERS[i] for i, n in enumerate(nums) if n == wanted]


def _pairs(flags: Sequence[bool]) -> list[list[str]]:
    return [[LETTERS[i], LETTERS[i + 1]] for i, f in enumerate(flags) if f]


def _sum_colour(code: Code, colour: Colour) -> int:
    return sum(t.number for t in code.tiles if t.colour is colour)


def _same_number_tiles(nums: Sequence[int]) -> int:
    return sum(1 for n in nums if nums.count(n) == 2)


def _sum_central(nums: Sequence[int]) -> int:
    # Five tiles: B+C+D; four players (no column E): B+C.
    return sum(nums[1:-1]) if len(nums) == 5 else nums[1] + nums[2]


_COMPUTE: dict[str, Callable[[Code], Answer]] = {
    "Q07": lambda c: _pairs([b == a + 1 for a, b in pairwise(c.numbers)]),
    "Q08": lambda c: _pairs([a is b for a, b in pairwise(c.colours)]),
    "Q09": lambda c: sum(1 for n in c.numbers if n % 2 == 1),
    "Q10": lambda c: sum(1 for n in c.numbers if n % 2 == 0),
    "Q11": lambda c: sum(1 for t in c.tiles if t.colour is Colour.BLACK),
    "Q12": lambda c: sum(1 for t in c.tiles if t.colour is Colour.WHITE),
    "Q13": lambda c: _same_number_tiles(c.numbers),
    "Q14": lambda c: sum(c.numbers[:3]),
    "Q15": lambda c: sum(c.numbers[-3:]),
    "Q16": lambda c: _sum_central(c.numbers),
    "Q17": lambda c: _sum_colour(c, Colour.BLACK),
    "Q18": lambda c: _sum_colour(c, Colour.WHITE),
    "Q19": lambda c: sum(c.numbers),
    "Q20": lambda c: c.numbers[2] > 4,
    "Q21": lambda c: c.numbers[-1] - c.numbers[0],
}


def answer(card_id: str, rack: Code, *, number: int | None = None) -> Answer:
    """The true, complete answer of ``rack`` (4 or 5 tiles) to a card.

    ``number`` is the asker's choice on a choose-one card (Q02, Q03, Q05, Q06).
    """
    card = get_card(card_id)
    check_number(card, number)
    if len(rack) not in (4, 5):
        raise IllegalMoveError(f"a rack holds 4 or 5 tiles, got {len(rack)}")
    if card.choices is not None:
        assert number is not None
        return _positions(rack.numbers, number)
    if card.id in _FIXED_NUMBER:
        return _positions(rack.numbers, _FIXED_NUMBER[card.id])
    return _COMPUTE[card.id](rack)


def describe_answer(card_id: str, value: Answer) -> str:
    """A short human rendering: pairs as runs ("A-B-C and D-E"), ``[]`` as "none"."""
    card = get_card(card_id)
    if card.kind is AnswerKind.ADJACENT_PAIRS:
        assert isinstance(value, list)
        runs: list[list[str]] = []
        for pair in value:
            assert isinstance(pair, list)
            if runs and runs[-1][-1] == pair[0]:
                runs[-1].append(pair[1])
            else:
                runs.append(list(pair))
        return " and ".join("-".join(r) for r in runs) or "none"
    if card.kind in (AnswerKind.POSITIONS, AnswerKind.CHOICE_POSITIONS):
        assert isinstance(value, list)
        return " ".join(str(v) for v in value) or "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
