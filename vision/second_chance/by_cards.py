"""Settling a sheet's undecided outlines by the cards the player drew (see
:mod:`companion.second_chance.drawn`): the sheet holds one tile per round, each the shape of
that round's card. Where the drawing leaves several ways to split the cells into tiles, the
ways whose tiles cannot be those cards are out; a border is settled when every way left
agrees on it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache

from companion.second_chance.drawn import TileChoices, can_be_drawn
from companion.second_chance.shapes import Cell, Shape, canonical_text

#: the settlements of one cluster of undecided borders kept for the cards to choose among
MAX_SETTLEMENTS = 16
#: ... and the ways to settle all clusters at once held against the cards (beyond this many,
#: each cluster is settled on its own)
MAX_WAYS = 2048

#: one way to settle a cluster: (the settlement's bits, the cards of the pieces it makes)
Way = tuple[int, tuple[str, ...]]


def card_of(cells: Sequence[Cell]) -> str:
    """The canonical shape of a tile's cells."""
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return _canonical(tuple(sorted((r - r0, c - c0) for r, c in cells)))


@lru_cache(maxsize=4096)
def _canonical(cells: tuple[Cell, ...]) -> str:
    return canonical_text(Shape.from_cells(cells))


def is_a_card(cells: Sequence[Cell], choices: TileChoices) -> bool:
    """True when ``cells`` have the shape of a card some round gave."""
    card = card_of(cells)
    return any(card in allowed for allowed in choices)


def settle_by_cards(fixed: Sequence[str], clusters: Sequence[Sequence[Way]],
                    choices: TileChoices) -> list[int | None]:
    """For each cluster, the settlement every way of settling all the clusters whose tiles
    (with the ``fixed`` tiles, the cards of the pieces no undecided border touches) can be
    the cards of ``choices`` agrees on; None where they differ (or none can). Each cluster's
    ways are its settlements that give tiles some card has."""
    total = 1
    for ways in clusters:
        total *= max(len(ways), 1)
    if not clusters or any(not ways for ways in clusters) or total > MAX_WAYS:
        return [ways[0][0] if len(ways) == 1 else None for ways in clusters]
    agreed: list[int | None] = []
    found: list[tuple[Way, ...]] = []
    for combination in itertools.product(*clusters):
        tiles = list(fixed) + [card for _, cards in combination for card in cards]
        if can_be_drawn(tiles, choices):
            found.append(combination)
    for i in range(len(clusters)):
        settled = {combination[i][0] for combination in found}
        agreed.append(settled.pop() if len(settled) == 1 else None)
    return agreed


#: the confidence of a cell the cards confirm (see :func:`confirmed_by_cards`)
CARDS_SURE = 0.9


def confirmed_by_cards(shapes: Sequence[Sequence[Cell]], split_settled: bool,
                       bonus: Cell | None, choices: TileChoices | None,
                       grid_cells: int, *, one_possible: bool = True) -> set[Cell]:
    """The cells whose read the cards the player drew confirm: none unless the tiles read
    (``shapes``, every split settled) are one a round, each that round's card. Then every
    cell of a tile is filled (were one empty, its tile would be another shape, or the sheet
    would hold a tile too few); and, with the bonus 1 read or none possible
    (``one_possible``: the player dropped out), every other cell is empty (a filled one would
    be a tile's, making a tile too many or another shape)."""
    if (choices is None or not split_settled or len(shapes) != len(choices)
            or not can_be_drawn([card_of(s) for s in shapes], choices)):
        return set()
    confirmed = {cell for shape in shapes for cell in shape}
    if bonus is not None and not one_possible:
        return confirmed  # a 1 read where none can be: asked
    if bonus is not None or not one_possible:
        every = {(r, c) for r in range(grid_cells) for c in range(grid_cells)}
        confirmed |= every - ({bonus} if bonus is not None else set())
    return confirmed
