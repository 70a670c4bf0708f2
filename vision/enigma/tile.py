"""Enigma reader, one tile: its structure, ports, links and icon read from the rectified square
(:func:`read_tile`), in named stages: the look at the patch (:func:`look_at_tile`,
:func:`with_networkers`), then the rest (:func:`finish_tile`). The stages' parts: the patch's
pixels named (:mod:`~vision.enigma.patch_labels`), the openings
(:mod:`~vision.enigma.openings`), the channel pieces (:mod:`~vision.enigma.channel_pieces`),
cells close together (:mod:`~vision.enigma.near_cells`), the icon (:mod:`~vision.enigma.icon`)
and the doubts (:mod:`~vision.enigma.tile_doubts`). See :mod:`vision.enigma.reader`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from companion.enigma.tiles import SIDES, Endpoint, Port, Pos, Tile
from vision.enigma.cells import Cell, disc, fills_its_disc, find_cells
from vision.enigma.channel_pieces import CHANNEL_CUT, PieceLinks, piece_links, stub_links
from vision.enigma.colours import ColourModel
from vision.enigma.icon import read_icon
from vision.enigma.layout import reading_order
from vision.enigma.near_cells import doubt_overlapping_cells, near_cell_links, settle_near_cells
from vision.enigma.networkers import (
    HIDDEN_CELL_CONFIDENCE,
    HIDDEN_CELL_PROBLEM,
    doubted_hidden_cell,
    read_networkers,
    signs_of_a_cell,
)
from vision.enigma.openings import (
    STUB_DARK_OPENING,
    OpeningWindows,
    dark_openings,
    faint_openings,
    faint_strokes,
    has_stray_opening,
    judge_openings,
    opening_offset,
    opening_windows,
    settled_by_own_evidence,
    short_stub_openings,
    stub_cells,
    weak_openings,
)
from vision.enigma.pack import EnigmaPack
from vision.enigma.patch_labels import PatchLabels, label_patch
from vision.enigma.read_types import NetworkerRead, OpeningDoubts, TileRead
from vision.enigma.settings import ReaderSettings
from vision.enigma.tile_doubts import (
    DOUBTFUL_CONFIDENCE,
    HIDDEN_CONFIDENCE,
    UNCLEAR_CONFIDENCE,
    TileDoubts,
)

#: a cell's rim (drawn dark in some styles, blurred in all) reaches this many cell radii
CELL_RIM = 1.2
#: the channels by the sides are cut this many cell radii round each cell (the cell itself)
CELL_CUT_FOR_SIDES = 1.05


def _networkers_on(at: Pos, cells: list[Cell], cell_ids: list[str], settings: ReaderSettings,
                   doubts: TileDoubts) -> list[NetworkerRead]:
    """The networkers seen on the cells; a doubtful one lowers the tile's confidence, and a
    pawn doubted away is asked about, never dropped without a word."""
    nets = [
        NetworkerRead(at, cid, c.networker, c.net_confidence)
        for cid, c in zip(cell_ids, cells, strict=True)
        if c.networker is not None
    ]
    for cid, c in zip(cell_ids, cells, strict=True):
        if c.net_confidence < settings.min_confidence:
            doubts.lower(c.net_confidence)
            if c.networker is None:
                doubts.problems.append(f"cell {cid}: is there a networker on it? (seen empty, "
                                       f"confidence {c.net_confidence:.2f})")
    return nets


@dataclass
class TileLook:
    """A look at a tile's patch (:func:`look_at_tile`): its pixels named, its cells (with
    the networkers on them once :func:`with_networkers` has read them), its channel mask,
    and how far its openings lie off the pack's positions (``offset``, pixels). When the
    offset says the square was cut off the tile, the square is cut again and looked at
    afresh, before the rest is read."""

    named: PatchLabels
    doubts: TileDoubts
    cells: list[Cell]
    channel: np.ndarray  # channel pixels without the cells' surroundings
    at_sides: np.ndarray  # channel pixels with only the cells themselves cut away
    windows: OpeningWindows
    offset: tuple[float, float]


def look_at_tile(patch: np.ndarray, pack: EnigmaPack, model: ColourModel) -> TileLook:
    """Name the patch's pixels, find its cells and where its openings lie: enough to tell
    whether the square was cut off the tile. The networkers are read afterwards
    (:func:`with_networkers`), on the square finally kept."""
    doubts = TileDoubts()
    named = label_patch(patch, pack, model)
    cells, cell_problems, cell_conf = find_cells(named.labels, named.feats, model, pack,
                                                 named.pawns)
    doubts.problems += cell_problems
    doubts.lower(cell_conf)
    return _with_channels(named, doubts, cells, pack)


def with_networkers(look: TileLook, pack: EnigmaPack, model: ColourModel, *,
                    on_start: bool = False) -> TileLook:
    """The look with the networkers on its cells (a pawn may show a cell no colour showed,
    or where a cell's middle lies): the cells in reading order, the channels cut again.
    ``on_start``: the start tile, where no networker stands by the rules, so a pale blob
    there gives no cell from a crescent beside it (the start tile of demo-game.json, seed 1,
    read it as a white pawn on a yellow cell, and asked about it on a clean frame)."""
    named = look.named
    cells, net_problems, net_conf = read_networkers(look.cells, named.feats, named.all_labels,
                                                    model, pack, crescents=not on_start)
    look.doubts.problems += net_problems
    look.doubts.lower(net_conf)
    return _with_channels(named, look.doubts, cells, pack, look)


def _with_channels(named: PatchLabels, doubts: TileDoubts, cells: list[Cell], pack: EnigmaPack,
                   before: TileLook | None = None) -> TileLook:
    """The look at a patch with these cells (put in reading order): the channel masks
    without them, and the openings' offset (those of the look ``before``, when its cells lie
    where these do: the pawns read on them moved none and added none)."""
    p = named.labels.shape[0]
    rc, cw = pack.cell_radius * p, pack.channel_width * p
    order = reading_order([(c.centre[0] / p, c.centre[1] / p) for c in cells])
    cells = [cells[i] for i in order]
    if before is not None and [c.centre for c in cells] == [c.centre for c in before.cells]:
        return TileLook(named, doubts, cells, before.channel, before.at_sides, before.windows,
                        before.offset)
    channel = named.channel.copy()
    at_sides = named.channel.copy()
    for c in cells:
        at_sides[disc((p, p), c.centre, rc * CELL_CUT_FOR_SIDES)] = 0
        channel[disc((p, p), c.centre, rc * CHANNEL_CUT)] = 0
    w = opening_windows(p, pack.ports, cw)
    offset = opening_offset(channel, pack.ports, w.depth0, w.depth1, cw)
    return TileLook(named, doubts, cells, channel, at_sides, w, offset)


def _read_openings(look: TileLook, pack: EnigmaPack, settings: ReaderSettings,
                   judged: TileDoubts) -> OpeningsRead:
    """The openings present on a tile looked at, and the confidence each opening position's
    reading leaves (below 1 only: :func:`~vision.enigma.openings.judge_openings`, or an
    absence a cell's rim may hide, :func:`~vision.enigma.openings.short_stub_openings`); a
    channel reaching a side elsewhere is a doubt. The doubts the judgement of the opening
    positions raises are added to the tile's problems and named positions, and their
    confidence is kept apart in ``judged``: a neighbour's read may settle them
    (:mod:`vision.enigma.mirror`). And the stubs: the positions read absent with a doubt
    beside one cell's rim (:func:`~vision.enigma.openings.stub_cells`), with that cell."""
    doubts, cells, channel, w = look.doubts, look.cells, look.channel, look.windows
    p = channel.shape[0]
    rc, cw = pack.cell_radius * p, pack.channel_width * p
    # a cell near a side covers part of an opening's window with its disc and dark rim:
    # the opening is judged on the rest of the window
    beside_cells = np.ones((p, p), bool)
    for c in cells:
        beside_cells &= ~disc((p, p), c.centre, rc * CELL_RIM)
    seen_at: dict[Port, tuple[float, float]] = {}
    present, margins = judge_openings(look.at_sides, look.named.dark, beside_cells, w,
                                      pack.ports, settings, judged, seen_at=seen_at,
                                      faint=faint_strokes(look.named))
    doubts.problems += judged.problems
    doubts.openings |= judged.openings
    short = short_stub_openings(cells, present, doubts.openings, pack.ports, p, rc, cw)
    margins = {q: min(margins.get(q, 1.0), UNCLEAR_CONFIDENCE if q in short else 1.0)
               for q in w.boxes if q in margins or q in short}
    if has_stray_opening(channel, w, cw):
        doubts.add("a channel reaches a side away from the three opening positions",
                   DOUBTFUL_CONFIDENCE)
    stubs = stub_cells(cells, (judged.openings | set(margins)) - present, pack.ports, p, rc,
                       cw)
    dark = dark_openings(look.named.dark & beside_cells, pack.ports, w.depth0, w.depth1,
                         w.half_w, beside_cells) if stubs else {}
    # a networker's shadow falls beside its cell, as dark as a channel (tuning table 17
    # clean, [-1, -2]: a white pawn's shadow across E0): there the dark stroke is no witness
    return OpeningsRead(present, margins, stubs,
                        {q for q, i in stubs.items()
                         if dark[q] >= STUB_DARK_OPENING and cells[i].networker is None},
                        seen_at)


class OpeningsRead(NamedTuple):
    """A tile's openings read (:func:`_read_openings`): those present, the confidence each
    position's reading leaves (below 1 only), the stubs (position read absent with a doubt
    -> the index of the one cell beside it), and the stubs a dark stroke crosses the side at
    (read present, joined to their cell, and still asked unless the neighbour settles it)."""

    present: set[Port]
    margins: dict[Port, float]
    stubs: dict[Port, int]
    dark_stubs: set[Port]
    #: per position, its window's share of channel and its dark-stroke score
    seen_at: dict[Port, tuple[float, float]]


def _side_order(q: Port) -> tuple[int, int]:
    return SIDES.index(q.side), q.position


def _links_read(look: TileLook, pack: EnigmaPack, model: ColourModel, cell_ids: list[str],
                present: set[Port], dark_links: list[tuple[Port, str]], rc: float
                ) -> tuple[list[tuple[Endpoint, Endpoint]], PieceLinks, set[Port]]:
    """The links a tile's channel pieces, stubs, dark strokes (``dark_links``) and the
    strokes between its cells show, the pieces they came from and the openings a stub
    joins to a cell (:func:`~vision.enigma.channel_pieces.stub_links`); an opening that
    joins nothing is doubted."""
    named, doubts, cells = look.named, look.doubts, look.cells
    near = near_cell_links(named, cells, cell_ids, rc,
                           pack.channel_width * named.labels.shape[0])
    links = list(near.links)
    pieces = piece_links(look.channel, cells, cell_ids, present, look.windows, pack, doubts,
                         signs_of_a_cell(named.all_labels, model), named.channel | named.dark)
    links += pieces.links
    by_stubs = stub_links(look.at_sides, cells, cell_ids, present - pieces.used,
                          look.windows, rc)
    links += by_stubs
    pieces.used.update(q for q, _ in by_stubs)
    links += dark_links
    for q in sorted(present - pieces.used, key=_side_order):
        doubts.add_at(q, "an opening at {} joins nothing", DOUBTFUL_CONFIDENCE)
    stroke_only = named.dark & ~named.of_kind("icon")
    settle_near_cells(near, links, cells, cell_ids, stroke_only, rc, doubts)
    return links, pieces, {q for q, _ in by_stubs}


#: the doubt a channel piece raises when it reaches fewer than two cells and openings
ENDS_NOWHERE = "a channel ends without reaching a cell or a side"


def _ends_nowhere(doubts: TileDoubts, pieces: PieceLinks) -> int:
    return (doubts.problems.count(ENDS_NOWHERE)
            + pieces.joins.doubts.problems.count(ENDS_NOWHERE))


def _copied(doubts: TileDoubts) -> TileDoubts:
    out = TileDoubts()
    out.problems, out.confidence = list(doubts.problems), doubts.confidence
    out.openings = set(doubts.openings)
    return out


def _channels_end_at(look: TileLook, pack: EnigmaPack, model: ColourModel,
                     cell_ids: list[str], present: set[Port], faint: set[Port],
                     dark_links: list[tuple[Port, str]], rc: float) -> set[Port]:
    """The ``faint`` openings (:func:`~vision.enigma.openings.faint_openings`) that a
    channel of the tile's own runs into and ends at, where without them it ends nowhere: a
    channel ends only at a cell or an opening, so its end at the side is the opening. The
    links are read twice on copies of the doubts, without and with the faint openings; the
    ones kept are those a piece ends at (:attr:`PieceLinks.ended`) when reading them leaves
    fewer channels ending nowhere. They stay asked: the judgement of the side's window
    named them in a problem (the dark stroke and the colour disagreed there), and their
    margin keeps the tile's confidence below the threshold, but for the neighbour's clear
    read of the mirrored opening (:mod:`vision.enigma.mirror`)."""
    if not faint:
        return set()
    without = replace(look, doubts=_copied(look.doubts))
    _, pieces, _ = _links_read(without, pack, model, cell_ids, present, dark_links, rc)
    if not _ends_nowhere(without.doubts, pieces):
        return set()
    tried = replace(look, doubts=_copied(look.doubts))
    _, more, _ = _links_read(tried, pack, model, cell_ids, present | faint, dark_links, rc)
    if _ends_nowhere(tried.doubts, more) >= _ends_nowhere(without.doubts, pieces):
        return set()
    return faint & more.ended


def _openings_and_links(look: TileLook, pack: EnigmaPack, model: ColourModel,
                        settings: ReaderSettings, cell_ids: list[str], rc: float,
                        judged: TileDoubts
                        ) -> tuple[dict[Port, float], dict[Port, int],
                                   list[tuple[Endpoint, Endpoint]], PieceLinks,
                                   frozenset[Port]]:
    """A tile's openings and the links its channels make (see :func:`finish_tile`): the
    margins left to the openings not settled by the tile's own evidence, the stubs, the
    links, the channel pieces, and the weak openings (for the neighbours:
    :attr:`OpeningDoubts.weak`)."""
    present, margins, stubs, dark_stubs, seen_at = _read_openings(look, pack, settings, judged)
    dark_links = [(q, cell_ids[stubs[q]]) for q in sorted(dark_stubs, key=_side_order)]
    # a stub the dark stroke read present is joined to its cell already (dark_links)
    ended_faint = _channels_end_at(look, pack, model, cell_ids, present,
                                   faint_openings(present, seen_at) - dark_stubs, dark_links,
                                   rc)
    present |= ended_faint
    # ... and an opening read so is no stub for the mirror to join to a cell and settle
    stubs = {q: i for q, i in stubs.items() if q not in ended_faint}
    links, pieces, stubbed = _links_read(look, pack, model, cell_ids, present, dark_links,
                                         rc)
    # a stub into a cell by the side is the tile's own channel ending at the opening too:
    # the cell's disc and rim cover part of the window, so its share lies near the
    # threshold (census of independent clean 0-39 and harsh 5000-5039 in
    # bench/figures/enigma_clean_questions_s31.txt: every such opening present in truth)
    settled = settled_by_own_evidence(margins, present, pieces.ended | stubbed,
                                      look.doubts.openings, seen_at)
    margins = {q: cap for q, cap in margins.items() if q not in settled}
    # an opening read present on its channel's end alone is never sure by itself
    margins = {q: min(margins.get(q, 1.0), UNCLEAR_CONFIDENCE if q in ended_faint else 1.0)
               for q in look.windows.boxes if q in margins or q in ended_faint}
    return margins, stubs, links, pieces, weak_openings(present, seen_at,
                                                        look.doubts.problems)


def _play_key(tile: Tile) -> frozenset[tuple[frozenset[Port], tuple[str, ...]]]:
    """What a tile is for play, whatever its cells are called: each network's openings and
    cell colours."""
    colours = dict(tile.cells)
    return frozenset((frozenset(c.ports), tuple(sorted(colours[cell] for cell in c.cells)))
                     for c in tile.components())


def _with_cell(look: TileLook, k: int, cell: Cell, pack: EnigmaPack) -> TileLook:
    """The look with its ``k``-th cell replaced by ``cell``, on a copy of its doubts."""
    cells = [cell if i == k else c for i, c in enumerate(look.cells)]
    return _with_channels(look.named, _copied(look.doubts), cells, pack, look)


def finish_tile(look: TileLook, at: Pos, pack: EnigmaPack, model: ColourModel,
                settings: ReaderSettings) -> tuple[TileRead, list[NetworkerRead]]:
    """Read the rest of a tile looked at (with its networkers): openings, channel pieces
    and links, the icon. A cell under a pawn whose ring told its colour but not its place
    (:attr:`~vision.enigma.cells.Cell.places`) is settled when the tile read with the cell
    at each of its places is the same tile: the links follow the place, and agree; else it
    is never trusted and asked about, where the pawn's top is seen (a single such cell: two
    on one tile break the rules' one networker a tile, and are asked)."""
    placed = [k for k, c in enumerate(look.cells) if c.places]
    if len(placed) == 1:
        k = placed[0]
        c = look.cells[k]
        reads = [_finish(_with_cell(look, k, replace(c, centre=place, confidence=1.0,
                                                     places=()), pack),
                         at, pack, model, settings) for place in c.places]
        if len({_play_key(read.tile) for read, _ in reads}) == 1:
            return reads[0]
    for k in placed:
        look = _with_cell(look, k, doubted_hidden_cell(look.cells[k]), pack)
        look.doubts.add(HIDDEN_CELL_PROBLEM, HIDDEN_CELL_CONFIDENCE)
    return _finish(look, at, pack, model, settings)


def _finish(look: TileLook, at: Pos, pack: EnigmaPack, model: ColourModel,
            settings: ReaderSettings) -> tuple[TileRead, list[NetworkerRead]]:
    """:func:`finish_tile` for a look whose cells are all settled or asked about."""
    named, doubts, cells = look.named, look.doubts, look.cells
    p = look.channel.shape[0]
    rc = pack.cell_radius * p
    cell_ids = [chr(ord("a") + i) for i in range(len(cells))]
    judged = TileDoubts()
    margins, stubs, links, pieces, weak = _openings_and_links(
        look, pack, model, settings, cell_ids, rc, judged)
    joins = pieces.joins
    # the cells' colours are doubted apart from the rest: a catalogue may settle them
    shape = TileDoubts()
    doubt_overlapping_cells(cells, rc, shape,
                            lambda c: fills_its_disc(named.labels, named.model, c, rc))
    links = list(dict.fromkeys(links))
    if not cells and not links:
        # every tile carries channels or a cell: a bare square is the table (balanced to
        # the tile's colour, cloth looks like blank tile) or a tile whose drawing was lost
        doubts.add("is there a tile on this square? nothing is drawn on it",
                   HIDDEN_CONFIDENCE)
    colours = {cid: c.colour for cid, c in zip(cell_ids, cells, strict=True)}
    tile = Tile.make(colours, links)
    # the joins left to choose are doubted apart from the rest too: a catalogue may settle
    # which of the structures they allow the tile is
    alternatives = joins.structures(colours, links)
    if not alternatives:
        doubts.problems += joins.doubts.problems
        doubts.lower(joins.doubts.confidence)
    nets = _networkers_on(at, cells, cell_ids, settings, shape)
    shape_apart = min(doubts.confidence, shape.confidence)
    shape_confidence = min(shape_apart, judged.confidence)
    for c in cells:
        doubts.lower(c.confidence)
    if alternatives:
        doubts.problems += joins.doubts.problems
        doubts.lower(joins.doubts.confidence)
    doubts.problems += shape.problems
    doubts.lower(shape.confidence)
    unsure = tuple(cid for cid, c in zip(cell_ids, cells, strict=True)
                   if c.confidence < settings.min_confidence)
    category = read_icon(named.labels, model, pack) if pack.icons else None
    centres = tuple((c.centre[0] / p, c.centre[1] / p) for c in cells)
    apart = doubts.confidence
    doubts.lower(judged.confidence)
    # the windows, so the margins, come side by side in the order of SIDES
    openings = OpeningDoubts(tuple(margins.items()), frozenset(doubts.openings),
                             doubts.confidence, shape_confidence, frozenset(pieces.ended),
                             tuple((q, cell_ids[i]) for q, i in stubs.items()),
                             frozenset(judged.openings), apart, shape_apart, weak)
    return TileRead(at, tile, min(doubts.confidence, openings.cap()), category,
                    tuple(dict.fromkeys(doubts.problems)), centres, look.offset,
                    unsure, min(shape_confidence, openings.cap()), alternatives,
                    tuple(dict.fromkeys(joins.doubts.problems)) if alternatives else (),
                    openings), nets


def read_tile(
    patch: np.ndarray, at: Pos, pack: EnigmaPack, model: ColourModel, settings: ReaderSettings
) -> tuple[TileRead, list[NetworkerRead]]:
    """Read one tile's conduit side from its straightened patch (north up)."""
    look = with_networkers(look_at_tile(patch, pack, model), pack, model, on_start=at == (0, 0))
    return finish_tile(look, at, pack, model, settings)
