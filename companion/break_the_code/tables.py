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

from array import array
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import combinations, pairwise
from operator import itemgetter
from typing import overload

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


def code_signature(nums: Sequence[int], cols: Sequence[Colour]) -> bytes:
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


SIGNATURE_ORDER = _signature_order()


class CodeIndex(Mapping[int, int]):
    """Code key -> code index, from the keys in sorted order and where each one stands: a few
    bytes per code where a dict holds an entry and two ints (about 100 bytes)."""

    def __init__(self, keys: Sequence[int]) -> None:
        order = sorted(range(len(keys)), key=keys.__getitem__)
        self._sorted = array("I", map(keys.__getitem__, order))
        self._where = array("H", order)

    def __getitem__(self, key: int) -> int:
        at = bisect_left(self._sorted, key)
        if at == len(self._sorted) or self._sorted[at] != key:
            raise KeyError(key)
        return self._where[at]

    def __iter__(self) -> Iterator[int]:
        return iter(self._sorted)

    def __len__(self) -> int:
        return len(self._sorted)


class TableCodes(Sequence[Code]):
    """The codes of a table, each made from its key when asked for: the tables keep no
    Python object per code (16,000 of them were 3 MB and a sixth of what each full garbage
    collection of the app walked)."""

    def __init__(self, keys: Sequence[int]) -> None:
        self._keys = keys

    @overload
    def __getitem__(self, i: int) -> Code: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Code]: ...

    def __getitem__(self, i: int | slice) -> Code | Sequence[Code]:
        if isinstance(i, slice):
            return tuple(map(code_of_key, self._keys[i]))
        return code_of_key(self._keys[i])

    def __len__(self) -> int:
        return len(self._keys)


def code_of_key(key: int) -> Code:
    """The code of a packed key (see the module docstring): the inverse of :func:`code_key`."""
    plain = [tile for bit, tile in enumerate(PLAIN_TILES) if key >> bit & 1]
    low = sum(1 for tile in plain if tile.number < GREEN.number)
    # the plain tiles come in rack order, the green 5s go between the 4s and the 6s; a key
    # holds at most the two green 5s of the box
    return Code.from_canonical((*plain[:low], *(GREEN,) * (key >> GREEN_SHIFT), *plain[low:]))


@dataclass(frozen=True, eq=False)
class CodeTable:
    """All codes of one rack size with their answers (``tables[q][i]`` is code i's key), held
    in flat arrays."""

    size: int
    #: code index -> packed key
    keys: array[int]
    #: number of green 5s in each code
    greens: bytes
    tables: tuple[bytes, ...]

    @cached_property
    def codes(self) -> Sequence[Code]:
        return TableCodes(self.keys)

    @cached_property
    def index(self) -> Mapping[int, int]:
        """Packed key -> code index."""
        return CodeIndex(self.keys)

    def index_of(self, code: Code) -> int:
        return self.index[code_key(code)]

    def signature(self, i: int) -> bytes:
        """Code i's answer keys to every question."""
        return bytes(t[i] for t in self.tables)


#: each physical tile's share of a code key, its number and colour
TILE_KEYS = tuple(1 << GREEN_SHIFT if t.colour is Colour.GREEN else 1 << _PLAIN_BIT[t]
                   for t in ALL_TILES)
TILE_NUMBERS = tuple(t.number for t in ALL_TILES)
TILE_COLOURS = tuple(t.colour for t in ALL_TILES)
#: the places of the two green 5s among the physical tiles
_FIRST_GREEN = ALL_TILES.index(GREEN)
_SECOND_GREEN = _FIRST_GREEN + 1


def _distinct_combinations(size: int) -> Iterator[tuple[int, ...]]:
    """The tile positions of every distinct code, in rack order: the combinations of the
    physical tiles but those that take the second green 5 without the first (the same codes
    again). Combinations come out in the order of their positions, which for the ones kept is
    the order of their tiles in the rack."""
    for at in combinations(range(len(ALL_TILES)), size):
        if _SECOND_GREEN not in at or _FIRST_GREEN in at:
            yield at


@cache
def code_table(size: int) -> CodeTable:
    """Build (once) the table of every distinct code of ``size`` tiles (4 or 5)."""
    keys = array("I")
    rows = bytearray()  # every code's answers, code after code
    reorder = itemgetter(*SIGNATURE_ORDER)
    for at in _distinct_combinations(size):
        keys.append(sum(map(TILE_KEYS.__getitem__, at)))
        rows += bytes(reorder(code_signature(tuple(map(TILE_NUMBERS.__getitem__, at)),
                                         tuple(map(TILE_COLOURS.__getitem__, at)))))
    width = len(QUESTIONS)
    return CodeTable(
        size=size,
        keys=keys,
        greens=bytes(key >> GREEN_SHIFT for key in keys),
        tables=tuple(bytes(rows[q::width]) for q in range(width)),
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
    groups: dict[bytes, list[int]] = defaultdict(list)
    # every code's answers, transposed from the columns in C rather than code by code
    for i, signature in enumerate(map(bytes, zip(*table.tables, strict=True))):
        groups[signature].append(i)
    return tuple(tuple(map(table.codes.__getitem__, g)) for g in groups.values() if len(g) > 1)


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
