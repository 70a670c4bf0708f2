"""Settling a sheet's doubtful squares by the cards the player drew (see
:mod:`companion.second_chance.drawn`): the sheet holds one tile per round, each the shape of
that round's card. A square the reader cannot tell filled or empty (a light fill, a smudge)
either belongs to one of those tiles or to none; where only one way to read the doubtful
squares lets the sheet's tiles be the cards, one a round, that way is the read.

The tiles with no doubtful square in them or beside them are kept as read; the squares of
the others are filled for sure, the doubtful ones may be either, and the ways to cover them
with the cards left are searched (an exact cover with optional squares, bounded).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from companion.second_chance.drawn import TileChoices, can_be_drawn
from companion.second_chance.shapes import Cell
from vision.second_chance.by_cards import (
    CARDS_SURE,
    SPLIT_KINDS,
    card_of,
    cards_left,
    sure_borders,
)
from vision.second_chance.cover import Placer, placed_from_first
from vision.second_chance.outlines import Segmentation

__all__ = ["MAX_FILL_TRIES", "fill_covers", "settle_doubtful_by_cards"]

#: the pieces the search for the ways to read the doubtful squares tries at most (beyond: the
#: squares stay asked): some 15 ms of CPU here at worst; 8000 and 20000 read the 240 tuning
#: frames of seeds 0-15 alike, 4000 left three squares of mixed/scan 1 read wrong (asked)
MAX_FILL_TRIES = 8000
#: ... and the ways it keeps (two ways that differ already leave the squares asked)
MAX_FILL_WAYS = 2

Tiles = tuple[tuple[Cell, ...], ...]


def fill_covers(required: set[Cell], optional: set[Cell], cards: dict[str, int],
                tiles: int, fixed: Sequence[str], choices: TileChoices,
                drawn: dict[tuple[Cell, Cell], bool] | None = None) -> list[Tiles] | None:
    """The ways (up to :data:`MAX_FILL_WAYS`) to cover every square of ``required`` and any of
    ``optional`` with exactly ``tiles`` tiles of the ``cards`` (each at most as many times as
    it says), which with the ``fixed`` tiles' cards can be ``choices`` one a round; None when
    the search passes :data:`MAX_FILL_TRIES`. With ``drawn`` (border -> outline there, see
    :func:`~vision.second_chance.by_cards.sure_borders`), only the ways that keep those of its
    borders between two ``required`` squares (a doubtful square's borders hold only if it is
    filled: it may not be).

    >>> len(fill_covers({(0, 0)}, {(0, 1), (1, 0)}, {"##": 1}, 1, [], (frozenset({"##"}),)))
    2
    >>> fill_covers({(0, 0)}, {(0, 1)}, {"##": 1}, 1, [], (frozenset({"##"}),))
    [(((0, 0), (0, 1)),)]
    """
    placer = Placer(required | optional, cards, max_tries=MAX_FILL_TRIES)
    keeps = placer.keeping(drawn or {}, required)
    required_bits, optional_bits = placer.bits_of(required), placer.bits_of(optional)
    size_of = {card: len(placed_from_first(card)[0]) for card in cards}
    by_size = tiles_by_size(placer.left, size_of)  # kept as the search takes and gives back
    found: list[tuple[tuple[str, int], ...]] = []

    def cover(undecided: int, pieces: tuple[tuple[str, int], ...]) -> bool:
        """False once the search is to stop (too many ways or tries)."""
        if not undecided or len(pieces) == tiles:
            if not undecided & required_bits and len(pieces) == tiles and can_be_drawn(
                    [*fixed, *(card_of(placer.cells_of(bits)) for _, bits in pieces)], choices):
                found.append(pieces)
            return len(found) < MAX_FILL_WAYS
        if not _may_fit(undecided.bit_count(), (undecided & required_bits).bit_count(),
                        tiles - len(pieces), by_size):
            return True
        for card, bits, _ in placer.fit_offsets(undecided):
            if keeps is not None and not keeps(bits):
                continue
            placer.left[card] -= 1
            by_size[size_of[card]] -= 1
            going = cover(undecided & ~bits, (*pieces, (card, bits)))
            placer.left[card] += 1
            by_size[size_of[card]] += 1
            if not going:
                return False
        if placer.gave_up:
            return False
        first = undecided & -undecided
        if first & optional_bits:  # or the doubtful square is empty
            return cover(undecided & ~first, pieces)
        return True

    going = cover(required_bits | optional_bits, ())
    if not going and placer.gave_up:
        return None
    return [tuple(placer.cells_of(bits) for _, bits in way) for way in found]


def tiles_by_size(left: dict[str, int], size_of: dict[str, int]) -> dict[int, int]:
    """How many tiles of each size the cards ``left`` (card -> tiles of it left, below 0 as
    none; ``size_of`` its squares) hold, the sizes in increasing order."""
    by_size: dict[int, int] = {}
    for card, n in sorted(left.items(), key=lambda item: size_of[item[0]]):
        by_size[size_of[card]] = by_size.get(size_of[card], 0) + max(n, 0)
    return by_size


def _may_fit(undecided: int, need: int, count: int, by_size: dict[int, int]) -> bool:
    """``count`` more tiles of the cards left (``by_size``: see :func:`tiles_by_size`) can
    cover ``need`` squares and fit in ``undecided`` squares: the largest cover at least, the
    smallest fit in. Counted by size, not tile by tile (a search asks it at every step).

    >>> by_size = tiles_by_size({"##": 1, "###": 2}, {"##": 2, "###": 3})
    >>> _may_fit(5, 5, 2, by_size), _may_fit(4, 4, 2, by_size)  # 2 + 3 fit in 5, not in 4
    (True, False)
    >>> _may_fit(9, 2, 3, tiles_by_size({"##": 2, "###": -1}, {"##": 2, "###": 3}))
    False
    """
    if sum(by_size.values()) < count:
        return False
    sizes = list(by_size.items())
    return (_sum_of_first(reversed(sizes), count) >= need
            and _sum_of_first(sizes, count) <= undecided)


def _sum_of_first(sizes: Iterable[tuple[int, int]], count: int) -> int:
    """The sum of the first ``count`` tiles' sizes, of (size, tiles of that size) in order."""
    total = 0
    for size, n in sizes:
        take = min(n, count)
        total += size * take
        count -= take
        if not count:
            break
    return total


def _beside(cell: Cell) -> tuple[Cell, ...]:
    r, c = cell
    return ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))


def settle_doubtful_by_cards(seg: Segmentation, doubtful: set[Cell], choices: TileChoices
                             ) -> tuple[Segmentation, set[Cell]]:
    """``seg`` with its tiles re-read where the cards settle the ``doubtful`` squares, and the
    squares so settled. The doubtful squares and the tiles in them or beside them are searched
    together, the other tiles as read: they are settled when exactly one way to read the
    doubtful squares and split those tiles lets all the tiles be the cards, one a round (see
    :func:`fill_covers`).

    Together, not group by group: a group settled with the tiles of another group as read
    leans on a read the cards have not settled (the other's doubtful squares may make one of
    its tiles another card), and may take that tile's card for itself: an empty square read
    as a one-square tile, for sure, while the true one was a doubtful square of a region the
    search gave up on."""
    groups = _groups(seg.shapes, doubtful)
    if not groups:
        return seg, set()
    return _settle_group(seg, set().union(*groups), doubtful, choices)


def _groups(shapes: Sequence[Sequence[Cell]], doubtful: set[Cell]) -> list[set[Cell]]:
    """The doubtful squares with the squares of the tiles in them or beside them, in groups
    that share no tile and no doubtful square."""
    tile_of = {cell: i for i, shape in enumerate(shapes) for cell in shape}
    left, groups = set(doubtful), []
    while left:
        stack, group = [left.pop()], set()
        while stack:
            cell = stack.pop()
            if cell in group:
                continue
            group.add(cell)
            for near in (cell, *_beside(cell)):
                if near in left:
                    left.discard(near)
                    stack.append(near)
                elif near in tile_of and cell in doubtful:
                    stack.extend(c for c in shapes[tile_of[near]] if c not in group)
        groups.append(group)
    return groups


def _settle_group(seg: Segmentation, group: set[Cell], doubtful: set[Cell],
                  choices: TileChoices) -> tuple[Segmentation, set[Cell]]:
    """``seg`` with ``group`` (see :func:`_groups`) re-read by the cards, and its squares; or
    ``seg`` unchanged and no squares when the cards leave more than one way, or none."""
    fixed = [card_of(s) for s in seg.shapes if not group & set(s)]
    optional = group & doubtful
    tiles = len(choices) - len(fixed)
    if tiles < 0:
        return seg, set()
    cards = cards_left(choices, fixed)
    ways = fill_covers(group - optional, optional, cards, tiles, fixed, choices)
    if ways is None or len(ways) > 1:
        # the cards alone leave several ways, or too many to search: the ways that keep the
        # borders the drawing decided surely (as split_by_cards does for an asked region)
        ways = fill_covers(group - optional, optional, cards, tiles, fixed, choices,
                           sure_borders(seg.outlines))
    if not ways or len(ways) > 1:
        return seg, set()
    kept = [tuple(s) for s in seg.shapes if not group & set(s)]
    shapes = tuple(sorted(kept + [tuple(sorted(p)) for p in ways[0]]))
    tile_of = {cell: i for i, tile in enumerate(shapes) for cell in tile}
    outlines = {border: decided for border, decided in seg.outlines.items()
                if border[0] in tile_of and border[1] in tile_of}
    for a in group & set(tile_of):
        for b in ((a[0], a[1] + 1), (a[0] + 1, a[1])):
            if b in tile_of:
                outlines[(a, b)] = (tile_of[a] != tile_of[b], CARDS_SURE, "cards")
    questions = tuple(q for q in seg.questions if q["kind"] not in SPLIT_KINDS
                      or not {(r, c) for r, c in q["cells"]} <= group)
    return replace(seg, shapes=shapes, questions=questions, outlines=outlines), group
