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

#: the pieces the search for the ways to read the doubtful squares tries at most, counting
#: those it looks at to choose the square to cover next (beyond: the squares stay asked):
#: 2-3 ms of CPU here; the two tuning searches that still give up (marker scan 3, coloured
#: harsh 5: 42 and 34 doubtful squares) give up at a million too
#: (bench/figures/sheet_cover_s24.txt)
MAX_FILL_TRIES = 8000
#: ... and the ways it keeps (two ways that differ already leave the squares asked)
MAX_FILL_WAYS = 2
#: ... or, searching with the borders the drawing is sure of, this many: under it, every way
#: there is, and a doubtful square none of them fills is empty whichever way is the read
MAX_AGREED_WAYS = 16

Tiles = tuple[tuple[Cell, ...], ...]


def fill_covers(required: set[Cell], optional: set[Cell], cards: dict[str, int],
                tiles: int, fixed: Sequence[str], choices: TileChoices,
                drawn: dict[tuple[Cell, Cell], bool] | None = None, *,
                max_ways: int = MAX_FILL_WAYS) -> list[Tiles] | None:
    """The ways (up to ``max_ways``) to cover every square of ``required`` and any of
    ``optional`` with exactly ``tiles`` tiles of the ``cards`` (each at most as many times as
    it says), which with the ``fixed`` tiles' cards can be ``choices`` one a round; None when
    the search passes :data:`MAX_FILL_TRIES`. With ``drawn`` (border -> outline there, see
    :func:`~vision.second_chance.by_cards.sure_borders`), only the ways that keep those of its
    borders between two ``required`` squares (a doubtful square's borders hold only if it is
    filled: it may not be).

    The sure squares are covered first, each time the one the fewest pieces left can cover
    (a doubtful square is only ever covered by a piece that covers a sure one beside it, or
    left empty): tried square by square in reading order, a sheet's many doubtful squares
    each doubled the search (empty, or any piece from it) and it gave up. A tile of doubtful
    squares alone is searched last, when the sure squares are covered with tiles to spare.

    >>> len(fill_covers({(0, 0)}, {(0, 1), (1, 0)}, {"##": 1}, 1, [], (frozenset({"##"}),)))
    2
    >>> fill_covers({(0, 0)}, {(0, 1)}, {"##": 1}, 1, [], (frozenset({"##"}),))
    [(((0, 0), (0, 1)),)]
    """
    rounds = _rounds_matched(list(fixed), choices)
    if rounds is None:
        return []
    search = _FillSearch(required, optional, cards, tiles, fixed, choices, drawn,
                         max_ways=max_ways)
    going = search.cover_sure(search.required_bits | search.optional_bits, (),
                              (list(fixed), rounds))
    if not going and search.placer.gave_up:
        return None
    return [tuple(search.placer.cells_of(bits) for _, bits in way) for way in search.found]


#: pieces laid so far: (card, the piece's bits)
Pieces = tuple[tuple[str, int], ...]


class _FillSearch:
    """The state of one :func:`fill_covers` search: the pieces that fit, the cards and sizes
    left (taken and given back as it goes), the ways found."""

    def __init__(self, required: set[Cell], optional: set[Cell], cards: dict[str, int],
                 tiles: int, fixed: Sequence[str], choices: TileChoices,
                 drawn: dict[tuple[Cell, Cell], bool] | None, *, max_ways: int):
        self.placer = placer = Placer(required | optional, cards, max_tries=MAX_FILL_TRIES)
        self.keeps = placer.keeping(drawn or {}, required)
        self.required_bits, self.optional_bits = placer.bits_of(required), placer.bits_of(
            optional)
        self.covering = placer.pieces_covering(self.required_bits | self.optional_bits,
                                               self.keeps)
        self.size_of = {card: len(placed_from_first(card)[0]) for card in cards}
        self.by_size = tiles_by_size(placer.left, self.size_of)
        self.tiles, self.fixed, self.choices, self.max_ways = tiles, fixed, choices, max_ways
        self.found: list[Pieces] = []

    def _take(self, card: str, n: int) -> None:
        self.placer.left[card] -= n
        self.by_size[self.size_of[card]] -= n

    def cover_sure(self, undecided: int, pieces: Pieces,
                   matched: tuple[list[str], dict[int, int]]) -> bool:
        """Cover the sure squares left, the one the fewest pieces cover first (``matched``:
        the tiles' cards and their rounds so far). False once the search is to stop (too
        many ways or tries)."""
        need = undecided & self.required_bits
        if not need:
            return self.cover_doubtful(undecided, pieces)
        if len(pieces) == self.tiles or not _may_fit(
                undecided.bit_count(), need.bit_count(), self.tiles - len(pieces),
                self.by_size):
            return True
        placer = self.placer
        pieces_here, looked_at = _fewest_pieces(need, undecided, self.covering, placer.left)
        placer.tries += looked_at
        for card, bits in pieces_here:
            placer.tries += 1
            if placer.gave_up:
                return False
            now = _matched_with(card, *matched, self.choices)
            if now is None:  # no round left for its card, one tile a round
                continue
            self._take(card, 1)
            going = self.cover_sure(undecided & ~bits, (*pieces, (card, bits)), now)
            self._take(card, -1)
            if not going:
                return False
        return True

    def cover_doubtful(self, undecided: int, pieces: Pieces) -> bool:
        """The tiles left over the doubtful squares left (reading order: each one a piece
        or empty). False once the search is to stop (too many ways or tries)."""
        if not undecided or len(pieces) == self.tiles:
            if len(pieces) == self.tiles and self._is_a_way(pieces):
                self.found.append(pieces)
            return len(self.found) < self.max_ways
        if not _may_fit(undecided.bit_count(), 0, self.tiles - len(pieces), self.by_size):
            return True
        for card, bits, _ in self.placer.fit_offsets(undecided):
            if self.keeps is not None and not self.keeps(bits):
                continue
            self._take(card, 1)
            going = self.cover_doubtful(undecided & ~bits, (*pieces, (card, bits)))
            self._take(card, -1)
            if not going:
                return False
        if self.placer.gave_up:
            return False
        return self.cover_doubtful(undecided & ~(undecided & -undecided), pieces)

    def _is_a_way(self, pieces: Pieces) -> bool:
        return can_be_drawn([*self.fixed, *(card_of(self.placer.cells_of(bits))
                                            for _, bits in pieces)], self.choices)


def _fewest_pieces(need: int, undecided: int, covering: dict[int, list[tuple[str, int]]],
                   left: dict[str, int]) -> tuple[list[tuple[str, int]], int]:
    """The pieces (card, bits) of the cards ``left`` inside the ``undecided`` squares that
    cover the square of ``need`` (bits) the fewest such pieces cover: the surest way to
    the one cover, or to none (a square no piece covers ends the search there at once);
    and how many pieces were looked at to find them."""
    best: list[tuple[str, int]] | None = None
    looked_at = 0
    rest = need
    while rest:
        low = rest & -rest
        rest ^= low
        pieces = covering.get(low, ())
        looked_at += len(pieces)
        fits = [(card, bits) for card, bits in pieces
                if not bits & ~undecided and left[card] > 0]
        if best is None or len(fits) < len(best):
            best = fits
            if len(best) <= 1:
                break
    return best or [], looked_at


def _rounds_matched(cards: list[str], choices: TileChoices) -> dict[int, int] | None:
    """A round for each of ``cards`` (round -> the card's index), one card a round, that
    round's; None when there is no such matching (see
    :func:`~companion.second_chance.drawn.can_be_drawn`)."""
    round_of: dict[int, int] = {}
    for index in range(len(cards)):
        if not _augment(index, cards, round_of, choices, set()):
            return None
    return round_of


def _matched_with(card: str, cards: list[str], round_of: dict[int, int],
                  choices: TileChoices) -> tuple[list[str], dict[int, int]] | None:
    """``cards`` and their rounds (see :func:`_rounds_matched`) with ``card`` added, its
    round found by moving the others as need be; None when no round is left for it. The
    search asks this at each piece it lays: one tile a round prunes it as it goes."""
    cards, round_of = [*cards, card], dict(round_of)
    if not _augment(len(cards) - 1, cards, round_of, choices, set()):
        return None
    return cards, round_of


def _augment(index: int, cards: list[str], round_of: dict[int, int], choices: TileChoices,
             seen: set[int]) -> bool:
    """Find card ``index`` a round (in place in ``round_of``), along an augmenting path."""
    for r, allowed in enumerate(choices):
        if r in seen or cards[index] not in allowed:
            continue
        seen.add(r)
        if r not in round_of or _augment(round_of[r], cards, round_of, choices, seen):
            round_of[r] = index
            return True
    return False


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
                           sure_borders(seg.outlines), max_ways=MAX_AGREED_WAYS)
    if not ways or len(ways) >= MAX_AGREED_WAYS:
        return seg, set()
    if len(ways) > 1:
        return _empty_in_every_way(seg, optional, ways)
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


def _empty_in_every_way(seg: Segmentation, doubtful: set[Cell], ways: list[Tiles]
                        ) -> tuple[Segmentation, set[Cell]]:
    """``seg`` with the ``doubtful`` squares no way fills (``ways``: every way the cards and
    the sure drawing leave) read empty, and those squares: a smudge read as a tile of its
    own goes, the split the ways differ on stays asked. A square of a larger tile read is
    left as read (taking it out would make that tile another shape)."""
    covered = {cell for way in ways for piece in way for cell in piece}
    empty = doubtful - covered
    gone = [s for s in seg.shapes if set(s) <= empty]
    in_tiles = {cell for s in seg.shapes for cell in s}
    settled = {cell for cell in empty if cell not in in_tiles} | {
        cell for s in gone for cell in s}
    if not settled:
        return seg, set()
    shapes = tuple(s for s in seg.shapes if s not in gone)
    outlines = {border: d for border, d in seg.outlines.items()
                if border[0] not in settled and border[1] not in settled}
    questions = tuple(q for q in seg.questions if q["kind"] not in SPLIT_KINDS
                      or not {(r, c) for r, c in q["cells"]} <= settled)
    return replace(seg, shapes=shapes, outlines=outlines, questions=questions), settled
