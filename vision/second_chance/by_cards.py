"""Settling a sheet's undecided outlines by the cards the player drew (see
:mod:`companion.second_chance.drawn`): the sheet holds one tile per round, each the shape of
that round's card. Where the drawing leaves several ways to split the cells into tiles, the
ways whose tiles cannot be those cards are out; a border is settled when every way left
agrees on it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from companion.second_chance.drawn import TileChoices, can_be_drawn
from companion.second_chance.shapes import Cell, Shape, canonical_text
from vision.second_chance.border_decisions import BETWEEN_STROKES
from vision.second_chance.cover import Placer

if TYPE_CHECKING:  # outlines settles its own undecided borders with this module
    from vision.second_chance.outlines import Segmentation

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


def tiles_beyond_the_cards(shapes: Sequence[Sequence[Cell]], choices: TileChoices
                           ) -> set[Cell]:
    """The squares of the tiles read that cannot all be the cards drawn, one a round: those of
    a card no round gave or given fewer times than read, and of the tiles beside them; all the
    tiles' when only the rounds' matching fails. Empty when the tiles can be the cards. The
    drawing can cut a tile along a printed line that shows through a translucent fill, and
    sure of each cut, read more tiles than the rounds gave: never without a question."""
    cards = [card_of(s) for s in shapes]
    if can_be_drawn(cards, choices):
        return set()
    rounds: dict[str, int] = {}
    for allowed in choices:
        for card in allowed:
            rounds[card] = rounds.get(card, 0) + 1
    used: dict[str, int] = {}
    for card in cards:
        used[card] = used.get(card, 0) + 1
    beyond = {cell for shape, card in zip(shapes, cards, strict=True)
              if used[card] > rounds.get(card, 0) for cell in shape}
    if not beyond:
        return {cell for shape in shapes for cell in shape}
    # a tile read wrong took squares from the tiles beside it, or left them some: those are
    # no surer, whatever card their shape is
    near = {(r + dr, c + dc) for r, c in beyond for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))}
    return beyond | {cell for shape in shapes if near & set(shape) for cell in shape}


def empty_beside(cells: set[Cell], filled: set[Cell], grid_cells: int) -> list[Cell]:
    """The squares read empty (not in ``filled``) beside ``cells``, in reading order. Where
    the tiles read cannot be the cards (:func:`tiles_beyond_the_cards`), a tile may be read
    short of a square the reader missed (a fill under glare, a faint hatch: read empty and
    sure of it, independent tuning seeds 14 and 15 with the cards): the cards tell that the
    tiles are wrong, not whether an outline or a square is, so these squares are asked too.

    >>> empty_beside({(0, 0), (0, 1)}, {(0, 0), (0, 1), (1, 1)}, 9)
    [(0, 2), (1, 0)]
    """
    near = {(r + dr, c + dc) for r, c in cells for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))}
    return sorted(cell for cell in near - filled
                  if 0 <= cell[0] < grid_cells and 0 <= cell[1] < grid_cells)


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


def is_settled_by_cards(question: dict[str, Any], confirmed: set[Cell],
                        shapes: Sequence[Sequence[Cell]], bonus: Cell | None, *,
                        one_possible: bool) -> bool:
    """True when the cards settle ``question`` (a reader's question, before the tiles beside
    its cells are named in it), the cells ``confirmed`` (see :func:`confirmed_by_cards`):

    - a doubtful square the cards confirm is read as they say;
    - a mark that looks a little like a 1 in a square of a confirmed tile is that tile's;
    - the one mark like a 1 outside the tiles, read as the 1, is the 1 when the player
      dropped out first (``one_possible``): the cards leave that square to no tile, and such
      a player writes a 1."""
    cells = {(int(r), int(c)) for r, c in question["cells"]}
    if not confirmed:
        return False
    if question["kind"] == "cell":
        return cells <= confirmed
    if question["kind"] == "bonus":
        in_tiles = {cell for shape in shapes for cell in shape}
        return cells <= in_tiles or (one_possible and bonus is not None and cells == {bonus})
    return False


def one_left_to_no_tile(shapes: Sequence[Sequence[Cell]], marks: Sequence[Cell],
                        choices: TileChoices) -> Cell | None:
    """The one of ``marks`` (squares read filled that look a little like a written 1, asked
    about as the 1) that the tiles read (``shapes``) hold as a tile of that square alone,
    where the cards cannot be those tiles with it and can without it: a 1 is a figure
    written in one square, and no round gave a card of one square for it. None when no mark,
    or more than one, is so.

    On the tuning sheets with the cards (seeds 0-15, 240 reads) the marks like a 1 read as
    a wrong tile of one square were the 4 light 1s of class E of issue 22 and nothing else;
    every other such mark was a square of a larger tile (bench/figures/sheet_bonus_s24.txt).

    >>> one_left_to_no_tile([((0, 0), (0, 1)), ((5, 5),)], [(5, 5)], (frozenset({"##"}),))
    (5, 5)
    >>> one_left_to_no_tile([((0, 0), (0, 1)), ((5, 5),)], [(5, 5)],
    ...                     (frozenset({"##"}), frozenset({"#"})))  # a tile of one square
    """
    tiles = [tuple(s) for s in shapes]
    cards = [card_of(s) for s in tiles]
    if can_be_drawn(cards, choices):
        return None
    found = [mark for mark in marks if (mark,) in tiles
             and can_be_drawn([c for s, c in zip(tiles, cards, strict=True) if s != (mark,)],
                              choices)]
    return found[0] if len(found) == 1 else None


def without_the_one(seg: Segmentation, one: Cell) -> Segmentation:
    """``seg`` with the square ``one`` (a tile of its own, see :func:`one_left_to_no_tile`)
    read as the bonus 1: no tile, no border, no question about its shape."""
    return replace(
        seg,
        shapes=tuple(s for s in seg.shapes if tuple(s) != (one,)),
        outlines={border: d for border, d in seg.outlines.items() if one not in border},
        questions=tuple(q for q in seg.questions if q["kind"] not in SPLIT_KINDS
                        or [list(one)] != [list(c) for c in q["cells"]]))


#: the ways to split one region of asked tiles into cards kept (beyond: left asked)
MAX_PARTITIONS = 64
#: ... the tiles' cells a region may hold to be split by the cards, and the pieces tried in
#: all (beyond: left asked; a second or so of search on a Pi at most)
MAX_REGION = 48
MAX_TRIES = 20000


def card_partitions(cells: set[Cell], cards: dict[str, int],
                    drawn: dict[tuple[Cell, Cell], bool] | None = None
                    ) -> list[tuple[tuple[Cell, ...], ...]] | None:
    """Every way to split ``cells`` into tiles whose shapes are among ``cards`` (each at most
    as many times as it says: exact cover), or None when there are more than
    :data:`MAX_PARTITIONS` or the search passes :data:`MAX_TRIES`. With ``drawn`` (border ->
    outline there, see :func:`sure_borders`), only the ways that keep those borders: no tile
    across an outline, none ending at a border drawn as a join."""
    found: list[tuple[tuple[Cell, ...], ...]] = []
    placer = Placer(cells, cards, max_tries=MAX_TRIES)
    keeps = placer.keeping(drawn or {}, cells)

    def cover(left: int, pieces: tuple[tuple[Cell, ...], ...]) -> bool:
        if not left:
            found.append(pieces)
            return len(found) <= MAX_PARTITIONS
        for card, bits, piece in placer.fits(left):
            if keeps is not None and not keeps(bits):
                continue
            placer.left[card] -= 1
            going = cover(left & ~bits, (*pieces, tuple(sorted(piece))))
            placer.left[card] += 1
            if not going:
                return False
        return not placer.gave_up

    return found if cover(placer.bits_of(cells), ()) else None


#: a border the drawing decided at least this surely (its outline score, a change of colour)
#: holds when the cards alone leave a region asked about several splits, or too many to
#: search: the splits the cards allow that keep those borders are searched instead (see
#: :func:`split_by_cards`). Tuning seeds 0-15 with the cards (the first 66 regions asked,
#: scan, mild and harsh, searched again at 0.6, 0.8, 0.9 and 0.99): no region was left one
#: wrong split at any level; where a sure border was wrong the search found none (asked);
#: 0.99 left one true split more than 0.6-0.9 (bench/figures/sheet_cardsplit_s23.txt)
PICTURE_SURE = 0.99
#: the decisions that count as the drawing's: an outline's score, a change of colour
DRAWN_BY = ("drawing", "colour")


def sure_borders(outlines: dict[tuple[Cell, Cell], tuple[bool | None, float, str]]
                 ) -> dict[tuple[Cell, Cell], bool]:
    """The borders the drawing decided at least :data:`PICTURE_SURE` surely (a segmentation's
    ``outlines``): border -> outline there."""
    return {border: bool(outline) for border, (outline, sure, by) in outlines.items()
            if outline is not None and by in DRAWN_BY and sure >= PICTURE_SURE}


def split_by_cards(shapes: Sequence[Sequence[Cell]], asked: set[Cell],
                   choices: TileChoices,
                   drawn: dict[tuple[Cell, Cell], bool] | None = None
                   ) -> tuple[list[tuple[Cell, ...]], set[Cell]]:
    """The tiles once the cards split the regions of ``asked`` cells (the tiles touching them,
    joined where they touch): a region is split the one way every split of all the regions
    whose tiles can be the cards agrees on (the drawing inside it set aside: a region is
    asked for want of it). Where the cards alone leave a region several splits (or too many
    to search), the splits that keep the borders the drawing decided surely (``drawn``, see
    :func:`sure_borders`) are searched again: the one split both allow is the read, as the
    drawing's other borders are (several: still asked; none: a sure border is wrong, asked).
    Returns the tiles and the cells of the regions so split."""
    reopened = [tuple(s) for s in shapes if asked & set(s)]
    fixed = [tuple(s) for s in shapes if not asked & set(s)]
    regions = _regions({cell for s in reopened for cell in s})
    cards = cards_left(choices, [card_of(s) for s in fixed])
    fixed_cards = [card_of(s) for s in fixed]
    splits = [(card_partitions(region, cards) if len(region) <= MAX_REGION else None) or []
              for region in regions]
    agreed = settle_by_cards(fixed_cards, _ways(splits), choices)
    if drawn and None in agreed:
        splits = [[options[choice]] if choice is not None
                  else card_partitions(region, cards, drawn) or []
                  for region, options, choice in zip(regions, splits, agreed, strict=True)]
        agreed = settle_by_cards(fixed_cards, _ways(splits), choices)
    tiles = list(fixed)
    settled: set[Cell] = set()
    for region, options, choice in zip(regions, splits, agreed, strict=True):
        if choice is None:
            tiles.extend(s for s in reopened if set(s) <= region)
        else:
            tiles.extend(options[choice])
            settled |= region
    return sorted(tiles), settled


def _ways(splits: list[list[tuple[tuple[Cell, ...], ...]]]) -> list[list[Way]]:
    """Each region's splits as ways to settle it (see :func:`settle_by_cards`)."""
    return [[(i, tuple(card_of(p) for p in split)) for i, split in enumerate(options)]
            for options in splits]


def cards_left(choices: TileChoices, fixed: Sequence[str]) -> dict[str, int]:
    """How many tiles of each card the regions may still hold: the rounds that may have given
    it, less the ``fixed`` tiles of its shape (each took one of those rounds; one tile a
    round). A bound, never too low, whatever cards each round offered: the cover search
    (:func:`card_partitions`) need not try the cards the tiles read elsewhere used up, and a
    region it gave up on as too many ways to split is often split one way with them."""
    cards: dict[str, int] = {}
    for allowed in choices:  # a card at most once a round that may have given it
        for card in allowed:
            cards[card] = cards.get(card, 0) + 1
    for card in fixed:
        if card in cards:
            cards[card] -= 1
    return {card: left for card, left in cards.items() if left > 0}


def _regions(cells: set[Cell]) -> list[set[Cell]]:
    """``cells`` in edge-connected groups."""
    regions: list[set[Cell]] = []
    left = set(cells)
    while left:
        stack, region = [left.pop()], set()
        while stack:
            r, c = stack.pop()
            region.add((r, c))
            for near in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if near in left:
                    left.discard(near)
                    stack.append(near)
        regions.append(region)
    return sorted(regions, key=min)


#: the questions about where tiles part, which the cards may settle
SPLIT_KINDS = ("split", "outline")


def settle_asked_by_cards(seg: Segmentation, choices: TileChoices) -> Segmentation:
    """``seg`` with the regions its split questions ask about split by the cards drawn
    (see :func:`split_by_cards`), where they settle them: those questions go, the borders
    inside say "cards"."""
    asked = {(r, c) for q in seg.questions if q["kind"] in SPLIT_KINDS for r, c in q["cells"]}
    if not asked:
        return seg
    tiles, settled = split_by_cards(seg.shapes, asked, choices, sure_borders(seg.outlines))
    if not settled:
        return seg
    tile_of = {cell: i for i, tile in enumerate(tiles) for cell in tile}
    outlines = dict(seg.outlines)
    for (a, b) in seg.outlines:
        if a in settled and b in settled:
            outlines[(a, b)] = (tile_of[a] != tile_of[b], CARDS_SURE, "cards")
    questions = tuple(q for q in seg.questions if q["kind"] not in SPLIT_KINDS
                      or not {(r, c) for r, c in q["cells"]} <= settled)
    return replace(seg, shapes=tuple(tiles), questions=questions, outlines=outlines)


def joins_left_to_the_cards(seg: Segmentation, confirmed: set[Cell]) -> list[dict[str, Any]]:
    """A question about the tiles joined across paper between hatch strokes (see
    :func:`~vision.second_chance.border_decisions.is_paper_between_strokes`) where the cards
    do not confirm the whole sheet (``confirmed``, see :func:`confirmed_by_cards`): two tiles
    hatched apart with no outline between them look the same, and joined they leave a round
    without its tile, which a sheet of fewer tiles than rounds does not show."""
    joined = [(a, b) for (a, b), (outline, _, by) in seg.outlines.items()
              if outline is False and by == BETWEEN_STROKES]
    if not joined or {cell for border in joined for cell in border} <= confirmed:
        return []
    cells = {cell for shape in seg.shapes for cell in shape
             if any(a in shape or b in shape for a, b in joined)}
    return [{"kind": "split", "cells": [list(c) for c in sorted(cells)],
             "message": "are these one tile, or several with no outline drawn between them?"}]
