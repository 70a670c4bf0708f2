"""Laying the cards over a region of a sheet's squares, one piece at a time: the step the
exact-cover searches of :mod:`vision.second_chance.by_cards` (the splits of a region into
cards) and :mod:`vision.second_chance.fill_by_cards` (the ways to read its doubtful squares)
share. The squares still to cover are the bits of an integer, so a piece's fit is one mask
test instead of a set of squares built for every card tried.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

from companion.second_chance.shapes import Cell, orientations

__all__ = ["Placer", "placed_from_first"]


@lru_cache(maxsize=512)
def placed_from_first(card: str) -> tuple[tuple[Cell, ...], ...]:
    """Each orientation of ``card`` as offsets from its first cell (row-major): the cell of
    a region it must cover when that is the region's first cell not yet covered."""
    found = []
    for shape in orientations(card):
        r0, c0 = min(shape.cells)
        found.append(tuple((r - r0, c - c0) for r, c in shape.cells))
    return tuple(found)


#: the columns kept free on each side of a region's bit rows: a piece placed at a region's
#: square reaches at most a card's width (8 squares at most) beside it, so a square of a piece
#: that lies past the region's columns falls on a free bit, never on the next row's squares
_MARGIN = 8


def _bit_indices(bits: int) -> list[int]:
    """The indices of the set bits of ``bits``, lowest first."""
    indices = []
    while bits:
        low = bits & -bits
        indices.append(low.bit_length() - 1)
        bits ^= low
    return indices


class Placer:
    """The pieces of ``cards`` (card text -> how many tiles of it the region may hold) that
    fit in a region of ``cells``, tried at the region's first square not yet covered, in the
    order the searches try them (the cards sorted, then each one's orientations). Each piece
    tried counts against ``max_tries``, whether its card is left or not; past them
    :attr:`gave_up` is set and the pieces stop.

    >>> placer = Placer({(0, 0), (0, 1), (1, 0)}, {"##": 1}, max_tries=100)
    >>> [piece for _, _, piece in placer.fits(placer.bits_of({(0, 0), (0, 1), (1, 0)}))]
    [((0, 0), (0, 1)), ((0, 0), (1, 0))]
    """

    def __init__(self, cells: Iterable[Cell], cards: dict[str, int], *, max_tries: int):
        cells = list(cells)
        self._r0 = min((r for r, _ in cells), default=0)
        self._c0 = min((c for _, c in cells), default=0) - _MARGIN
        span = max((c for _, c in cells), default=0) - self._c0 + 1
        self._width = span + _MARGIN
        self.left = dict(cards)
        self._by_card = [(card, [(offsets, self._offsets_mask(offsets))
                                 for offsets in placed_from_first(card)])
                         for card in sorted(cards)]
        self.max_tries = max_tries
        self.tries = 0

    @property
    def gave_up(self) -> bool:
        return self.tries > self.max_tries

    def _offsets_mask(self, offsets: tuple[Cell, ...]) -> int:
        # the first cell is the lowest in row-major order: every other lies at a higher bit
        return sum(1 << (dr * self._width + dc) for dr, dc in offsets)

    def bit(self, cell: Cell) -> int:
        return 1 << ((cell[0] - self._r0) * self._width + cell[1] - self._c0)

    def bits_of(self, cells: Iterable[Cell]) -> int:
        return sum(self.bit(cell) for cell in cells)

    def cell_at(self, index: int) -> Cell:
        row, column = divmod(index, self._width)
        return row + self._r0, column + self._c0

    def fits(self, undecided: int) -> Iterator[tuple[str, int, tuple[Cell, ...]]]:
        """(card, the piece's bits, its squares) of each piece of a card still left that
        covers the first of the ``undecided`` squares (bits, not 0) and only undecided ones.
        The cards left are looked at as each piece is tried (a caller takes one while it
        searches on from a piece, and gives it back before the next)."""
        r, c = self.cell_at((undecided & -undecided).bit_length() - 1)
        for card, bits, offsets in self.fit_offsets(undecided):
            yield card, bits, tuple((r + dr, c + dc) for dr, dc in offsets)

    def fit_offsets(self, undecided: int) -> Iterator[tuple[str, int, tuple[Cell, ...]]]:
        """:meth:`fits` with each piece's offsets from the first undecided square instead of
        its squares (a search that keeps few of the pieces it tries builds their squares
        only for those, with :meth:`cells_of`). A card none of which is left counts all its
        pieces as tried at once, as one by one would: the same tries, the same giving up."""
        index = (undecided & -undecided).bit_length() - 1
        left, max_tries = self.left, self.max_tries
        for card, placed in self._by_card:
            if left[card] <= 0:
                self.tries += len(placed)
                if self.tries > max_tries:
                    return
                continue
            for offsets, mask in placed:
                self.tries += 1
                if self.tries > max_tries:
                    return
                bits = mask << index
                if not bits & ~undecided:
                    yield card, bits, offsets

    def keeping(self, drawn: dict[tuple[Cell, Cell], bool], cells: set[Cell]
                ) -> Callable[[int], bool] | None:
        """A test of a piece (its bits) against the ``drawn`` borders (border -> outline
        there) between two of ``cells``: it holds every square a join ties to one of its own,
        and no two an outline parts. None when no such border is drawn."""
        joined: dict[int, int] = {}
        parted: dict[int, int] = {}
        for (a, b), outline in drawn.items():
            if a in cells and b in cells:
                masks = parted if outline else joined
                bit_a, bit_b = self.bit(a), self.bit(b)
                masks[bit_a] = masks.get(bit_a, 0) | bit_b
                masks[bit_b] = masks.get(bit_b, 0) | bit_a
        if not joined and not parted:
            return None

        # only a piece's squares at the end of a drawn border can break one
        ends = sum(joined.keys() | parted.keys())

        def keeps(bits: int) -> bool:
            left = bits & ends
            while left:
                low = left & -left
                if joined.get(low, 0) & ~bits or parted.get(low, 0) & bits:
                    return False
                left ^= low
            return True

        return keeps

    def pieces_covering(self, region: int, keeps: Callable[[int], bool] | None = None
                        ) -> dict[int, list[tuple[str, int]]]:
        """Every piece of the cards (any orientation, anywhere) that lies inside ``region``
        (bits) and that ``keeps`` allows (see :meth:`keeping`), listed under each square it
        covers (the square's bit): (card, the piece's bits). Built once for a search that
        covers the squares in an order of its own, not the first one left."""
        covering: dict[int, list[tuple[str, int]]] = {}
        for card, placed in self._by_card:
            for _, mask in placed:
                mask_indices = _bit_indices(mask)
                # the squares where the piece lies inside the region, all at once: those from
                # which each of its squares' offsets lands on the region (ascending, as tried)
                fits = region
                for offset in mask_indices:
                    fits &= region >> offset
                if not fits:
                    continue
                mask_bits = [1 << offset for offset in mask_indices]
                for index in _bit_indices(fits):
                    bits = mask << index
                    if keeps is not None and not keeps(bits):
                        continue
                    piece = (card, bits)
                    for bit in mask_bits:
                        square = bit << index
                        pieces = covering.get(square)
                        if pieces is None:
                            covering[square] = [piece]
                        else:
                            pieces.append(piece)
        return covering

    def cells_of(self, bits: int) -> tuple[Cell, ...]:
        """The squares of ``bits`` (a piece's, or any of the region's), in row-major order."""
        cells = []
        while bits:
            low = bits & -bits
            cells.append(self.cell_at(low.bit_length() - 1))
            bits ^= low
        return tuple(cells)
