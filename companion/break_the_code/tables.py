"""Every possible code and its answer to every question, precomputed once per rack size.

There are 12,444 distinct 5-tile codes and 4,029 distinct 4-tile codes. A *question* is a card
plus, on a choose-one card, the asker's number: 25 questions in all. For each question the
table holds one byte per code, a small integer *key* that stands for the answer, so that
filtering candidates and measuring a question's information are byte look-ups rather than
answer computations. :func:`decode_answer` and :func:`encode_answer` translate keys to and from
the JSON answers of :func:`companion.break_the_code.cards.answer` (a test checks that they
agree on every code).

Codes are also addressed by a *key* that packs their tiles into one int: bit i for the i-th of
the 18 black and white tiles, plus the number of green 5s shifted by 18. Physical tile sets use
the same bits with the two green 5s as bits 18 and 19, which makes the code of a tile set a
cheap bit operation.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, pairwise
from operator import itemgetter

from companion.break_the_code.cards import CARDS, LETTERS, Answer, AnswerKind
from companion.break_the_code.tiles import ALL_TILES, Code, Colour, Tile

#: The black and white tiles in canonical order (bits 0..17), then the two green 5s.
PLAIN_TILES: tuple[Tile, ...] = tuple(t for t in ALL_TILES if t.colour is not Colour.GREEN)
GREEN = Tile(5, Colour.GREEN)
GREEN_SHIFT = len(PLAIN_TILES)
PLAIN_MASK = (1 << GREEN_SHIFT) - 1
ALL_MASK = (1 << len(ALL_TILES)) - 1
_PLAIN_BIT = {t: i for i, t in enumerate(PLAIN_TILES)}

#: Every question: (card id, number or None). Choose-one cards appear once per number.
QUESTIONS: tuple[tuple[str, int | None], ...] = tuple(
    (card.id, number)
    for card in CARDS.values()
    for number in (card.choices if card.choices is not None else (None,))
)
QUESTION_INDEX: dict[tuple[str, int | None], int] = {q: i for i, q in enumerate(QUESTIONS)}

# Which number a position question looks for.
_POSITION_NUMBER: dict[int, int] = {
    i: (number if number is not None else (0 if card == "Q01" else 5))
    for i, (card, number) in enumerate(QUESTIONS)
    if CARDS[card].kind in (AnswerKind.POSITIONS, AnswerKind.CHOICE_POSITIONS)
}


def code_key(code: Code) -> int:
    """The packed key of a code (see the module docstring)."""
    key = 0
    for tile in code.tiles:
        if tile.colour is Colour.GREEN:
            key += 1 << GREEN_SHIFT
        else:
            key |= 1 << _PLAIN_BIT[tile]
    return key


def mask_to_code_key(mask: int) -> int:
    """The code key of a physical tile set (bits 18 and 19 are the two green 5s)."""
    return (mask & PLAIN_MASK) | (((mask >> GREEN_SHIFT) & 1) + (mask >> (GREEN_SHIFT + 1)))\
        << GREEN_SHIFT


def tile_bits(code: Code) -> int:
    """A physical tile set for a code (a code with one green 5 uses bit 18)."""
    mask = 0
    greens = 0
    for tile in code.tiles:
        if tile.colour is Colour.GREEN:
            mask |= 1 << (GREEN_SHIFT + greens)
            greens += 1
        else:
            mask |= 1 << _PLAIN_BIT[tile]
    return mask


def _signature(nums: Sequence[int], cols: Sequence[Colour]) -> bytes:
    """The answer keys of one code to all 25 questions, in :data:`QUESTIONS` order."""
    k = len(nums)
    where = [0] * 10
    for i, n in enumerate(nums):
        where[n] |= 1 << i
    consecutive = sum(1 << i for i, (a, b) in enumerate(pairwise(nums)) if b == a + 1)
    same_colour = sum(1 << i for i, (a, b) in enumerate(pairwise(cols)) if a is b)
    odd = sum(n & 1 for n in nums)
    black = [n for n, c in zip(nums, cols, strict=True) if c is Colour.BLACK]
    white = [n for n, c in zip(nums, cols, strict=True) if c is Colour.WHITE]
    same_number = sum(1 for n in nums if where[n] & (where[n] - 1))
    central = nums[1] + nums[2] + (nums[3] if k == 5 else 0)
    total = sum(nums)
    return bytes((
        where[0], where[1], where[2], where[3], where[4], where[5], where[6], where[7],
        where[8], where[9],
        consecutive, same_colour,
        odd, k - odd, len(black), len(white), same_number,
        nums[0] + nums[1] + nums[2], nums[k - 3] + nums[k - 2] + nums[k - 1], central,
        sum(black), sum(white), total, int(nums[2] > 4), nums[k - 1] - nums[0],
    ))


# The signature lists position questions in number order 0..9; map them to QUESTIONS order.
def _signature_order() -> tuple[int, ...]:
    order = []
    for i, (card, _) in enumerate(QUESTIONS):
        if i in _POSITION_NUMBER:
            order.append(_POSITION_NUMBER[i])
        else:
            order.append(10 + ["Q07", "Q08", "Q09", "Q10", "Q11", "Q12", "Q13", "Q14", "Q15",
                               "Q16", "Q17", "Q18", "Q19", "Q20", "Q21"].index(card))
    return tuple(order)


_SIGNATURE_ORDER = _signature_order()


@dataclass(frozen=True)
class CodeTable:
    """All codes of one rack size with their answers (``tables[q][i]`` is code i's key)."""

    size: int
    codes: tuple[Code, ...]
    keys: tuple[int, ...]
    index: dict[int, int]
    tables: tuple[bytes, ...]
    #: number of green 5s in each code
    greens: tuple[int, ...]

    def index_of(self, code: Code) -> int:
        return self.index[code_key(code)]

    def signature(self, i: int) -> bytes:
        """Code i's answer keys to every question."""
        return bytes(t[i] for t in self.tables)


#: each physical tile's share of a code key, its number and colour, and its place in rack
#: order (the two green 5s share theirs)
_TILE_KEYS = tuple(1 << GREEN_SHIFT if t.colour is Colour.GREEN else 1 << _PLAIN_BIT[t]
                   for t in ALL_TILES)
_TILE_RANKS = tuple(ALL_TILES.index(t) for t in ALL_TILES)
_TILE_NUMBERS = tuple(t.number for t in ALL_TILES)
_TILE_COLOURS = tuple(t.colour for t in ALL_TILES)


@cache
def code_table(size: int) -> CodeTable:
    """Build (once) the table of every distinct code of ``size`` tiles (4 or 5)."""
    # one set of tile positions per distinct code (the two green 5s are alike), by key
    positions: dict[int, tuple[int, ...]] = {}
    for key, at in zip(map(sum, combinations(_TILE_KEYS, size)),
                       combinations(range(len(ALL_TILES)), size), strict=True):
        positions.setdefault(key, at)
    ordered = sorted(positions.items(),
                     key=lambda kv: tuple(map(_TILE_RANKS.__getitem__, kv[1])))
    keys = tuple(key for key, _ in ordered)
    # combinations of the sorted tiles come out in rack order
    codes = tuple(Code(tuple(map(ALL_TILES.__getitem__, at))) for _, at in ordered)
    reorder = itemgetter(*_SIGNATURE_ORDER)
    rows = (reorder(_signature(tuple(map(_TILE_NUMBERS.__getitem__, at)),
                               tuple(map(_TILE_COLOURS.__getitem__, at))))
            for _, at in ordered)
    return CodeTable(
        size=size,
        codes=codes,
        keys=keys,
        index={k: i for i, k in enumerate(keys)},
        tables=tuple(map(bytes, zip(*rows, strict=True))),
        greens=tuple(key >> GREEN_SHIFT for key in keys),
    )


def decode_answer(question: int, key: int) -> Answer:
    """The JSON answer that a key of question ``question`` stands for."""
    card = CARDS[QUESTIONS[question][0]]
    if card.kind in (AnswerKind.POSITIONS, AnswerKind.CHOICE_POSITIONS):
        return [LETTERS[i] for i in range(5) if key >> i & 1]
    if card.kind is AnswerKind.ADJACENT_PAIRS:
        return [[LETTERS[i], LETTERS[i + 1]] for i in range(4) if key >> i & 1]
    if card.kind is AnswerKind.BOOL:
        return key == 1
    return key


def encode_answer(question: int, value: object) -> int | None:
    """The key of a JSON answer, or None when no code can give that answer."""
    card = CARDS[QUESTIONS[question][0]]
    try:
        if card.kind in (AnswerKind.POSITIONS, AnswerKind.CHOICE_POSITIONS):
            assert isinstance(value, list)
            return sum(1 << LETTERS.index(v) for v in value)
        if card.kind is AnswerKind.ADJACENT_PAIRS:
            assert isinstance(value, list)
            return sum(1 << LETTERS.index(p[0]) for p in value)
        if card.kind is AnswerKind.BOOL:
            assert isinstance(value, bool)
            return int(value)
        assert isinstance(value, int) and not isinstance(value, bool)
        return value if 0 <= value < 256 else None
    except (AssertionError, ValueError, TypeError, IndexError):
        return None


@cache
def twin_groups(size: int) -> tuple[tuple[Code, ...], ...]:
    """Groups of codes that no combination of questions can tell apart.

    For 5 tiles these are 28 pairs (56 codes), colour-swapped twins such as
    ``0b 1w 2w 3b 5g`` / ``0w 1b 2b 3w 5g``; for 4 tiles 28 pairs as well.
    """
    table = code_table(size)
    groups: dict[bytes, list[Code]] = defaultdict(list)
    # every code's answers, transposed from the columns in C rather than code by code
    for code, signature in zip(table.codes, map(bytes, zip(*table.tables, strict=True)),
                               strict=True):
        groups[signature].append(code)
    return tuple(tuple(g) for g in groups.values() if len(g) > 1)


@cache
def _twin_map(size: int) -> dict[Code, tuple[Code, ...]]:
    return {c: tuple(o for o in g if o != c) for g in twin_groups(size) for c in g}


def twins_of(code: Code) -> tuple[Code, ...]:
    """The codes that answer every question exactly like ``code`` (usually none)."""
    return _twin_map(len(code)).get(code, ())


def warm_up() -> None:
    """Build what the assistant's first answer needs, both rack sizes' code tables and their
    twins, ahead of time: a player's first long press must not wait for it (half a second on
    a desktop, seconds on a Pi)."""
    for size in (4, 5):
        code_table(size)
        twin_groups(size)
