"""Enigma reader, the table's second look at openings: an opening meets the neighbour's
mirrored one (``records.md``, ``require_edge_match``: port meets port, blank meets blank
across every shared side), so each side between two tiles is seen twice, on two tiles'
own pixels.

An opening whose share of channel lay near the threshold (:class:`OpeningDoubts` margins)
is settled when the neighbour read the mirrored position clearly and the two agree, or when
on both tiles a channel of the tile's own runs on from the opening to a cell or another
opening and ends there (the two windows, near the threshold alike, see the same gap). Two reads
that disagree are asked about on both tiles (either may be the wrong one), but for a tile that
read the opening clearly beside a neighbour asked about anyway: the players' answer there
settles the side. With edge matching off a port may face a blank side: nothing is settled
then.

Before that, an opening read absent with a doubt where a cell of the tile lies right by the
side (:attr:`OpeningDoubts.stubs`) is read present, joined to that cell, when the neighbour
reads the mirrored opening clearly: the tile's own pixels there are a stub too short to tell
from the cell's blurred rim, the neighbour's a whole channel's depth (the same stub read
present by its dark stroke alone is settled so too), and so is an opening read present by
a dark stroke across the whole band whose colour's share fell short, asked only for that
(:attr:`OpeningDoubts.weak`; census of independent clean 0-39 and harsh 5000-5039 and
6000-6019: every such opening present in truth). An absence asked so is never settled by a
blank side: glare washes a channel out on both tiles alike (tuning independent 5030 harsh
at 30-45 tiles), see bench/figures/enigma_clean_questions_s31.txt.
"""

from __future__ import annotations

from dataclasses import replace

from companion.enigma.tiles import SIDES, Port, Pos, Tile, neighbour
from vision.enigma.read_types import OpeningDoubts, TileRead
from vision.enigma.settings import ReaderSettings
from vision.enigma.tile_doubts import opening_question

#: the highest confidence of a tile whose opening the neighbour's read contradicts
MISMATCH_CONFIDENCE = 0.5

__all__ = ["MISMATCH_CONFIDENCE", "mirrored_openings"]


def _is_clear(read: TileRead, q: Port, settings: ReaderSettings) -> bool:
    """Whether ``read`` saw its opening position ``q`` clearly; a tile read without its
    openings' doubts (the start tile, taken from its face) only when it is sure as a whole."""
    if read.openings is None:
        return not read.problems and read.confidence >= settings.min_confidence
    return read.openings.is_clear(q)


def _both_ended(doubts: OpeningDoubts, other: TileRead, q: Port) -> bool:
    """Whether each of two tiles has a channel of its own running on from the opening ``q``
    (and its mirror) to a cell or another opening, and ends there: the two windows see the
    same gap between the tiles, so two shares near the threshold are not two proofs, but
    two channels drawn on two tiles to one point are."""
    there = other.openings
    return (there is not None and q in doubts.ended and q.meets() in there.ended
            and q.meets() not in there.named)


def _meetings(tiles: dict[Pos, TileRead], at: Pos) -> list[tuple[Port, Pos, bool]]:
    """Each opening position of the tile at ``at`` that faces a tile read beside it: the
    position, the neighbour's square and whether the two reads agree there."""
    ports = tiles[at].tile.ports
    out: list[tuple[Port, Pos, bool]] = []
    for side in SIDES:
        there = neighbour(at, side)
        other = tiles.get(there)
        if other is not None:
            out += [(q, there, (q in ports) == (q.meets() in other.tile.ports))
                    for q in (Port(side, position) for position in range(3))]
    return out


def _stubs_met(tiles: dict[Pos, TileRead], at: Pos, settings: ReaderSettings
               ) -> list[tuple[Port, str]]:
    """The tile's stubs (opening position, cell) whose mirrored opening the neighbour reads
    clearly present."""
    doubts = tiles[at].openings
    met: list[tuple[Port, str]] = []
    for q, cell in () if doubts is None else doubts.stubs:
        other = tiles.get(neighbour(at, q.side))
        if (other is not None and q.meets() in other.tile.ports
                and _is_clear(other, q.meets(), settings)):
            met.append((q, cell))
    return met


def _weak_met(tiles: dict[Pos, TileRead], at: Pos, settings: ReaderSettings) -> set[Port]:
    """The tile's weak openings (:attr:`OpeningDoubts.weak`) whose mirrored opening the
    neighbour reads clearly present: port meets port."""
    doubts = tiles[at].openings
    met: set[Port] = set()
    for q in () if doubts is None else doubts.weak:
        other = tiles.get(neighbour(at, q.side))
        if (other is not None and q.meets() in other.tile.ports
                and _is_clear(other, q.meets(), settings)):
            met.add(q)
    return met


def _asks_about(problem: str, ports: set[Port]) -> bool:
    return any(problem.startswith(opening_question(q)) for q in ports)


def _completed(tiles: dict[Pos, TileRead], at: Pos, settings: ReaderSettings) -> TileRead:
    """The tile at ``at`` with the stubs the neighbours' clear reads meet joined to their
    cells, and the doubts the judgement of those opening positions and of the weak
    openings the neighbours settle raised dropped (the tile's confidence is that of the rest
    when no other position's judgement was doubted)."""
    read = tiles[at]
    met = _stubs_met(tiles, at, settings)
    quiet = _weak_met(tiles, at, settings)
    if read.openings is None or not (met or quiet):
        return read
    doubts, ports = read.openings, {q for q, _ in met} | quiet

    def joined(tile: Tile) -> Tile:
        # a stub the dark stroke across the side had the tile read present is joined already
        return Tile.make(tile.colours, [*tile.links,
                                        *((q, c) for q, c in met if q not in tile.ports)])

    margins = tuple((q, cap) for q, cap in doubts.margins if q not in ports)
    confidence, shape = doubts.confidence, doubts.shape_confidence
    if doubts.judged <= ports:
        confidence, shape = doubts.apart, doubts.shape_apart
    doubts = replace(doubts, margins=margins, named=doubts.named - ports,
                     judged=doubts.judged - ports, confidence=confidence,
                     shape_confidence=shape, stubs=(), weak=doubts.weak - ports)
    cap = doubts.cap()
    return replace(read, tile=joined(read.tile), confidence=min(confidence, cap),
                   shape_confidence=None if shape is None else min(shape, cap),
                   problems=tuple(p for p in read.problems if not _asks_about(p, ports)),
                   alternatives=tuple(joined(t) for t in read.alternatives),
                   openings=doubts)


def _settled(tiles: dict[Pos, TileRead], at: Pos, settings: ReaderSettings) -> TileRead:
    """The tile at ``at`` with the margins of the openings its neighbours settle (read
    alike and clearly there) no longer capping its confidence."""
    read = tiles[at]
    doubts = read.openings
    if doubts is None or not doubts.margins:
        return read
    settled = frozenset(q for q, there, agree in _meetings(tiles, at)
                        if agree and (_is_clear(tiles[there], q.meets(), settings)
                                      or _both_ended(doubts, tiles[there], q)))
    cap = doubts.cap(settled)
    shape = doubts.shape_confidence
    return replace(read, confidence=min(doubts.confidence, cap),
                   shape_confidence=None if shape is None else min(shape, cap))


def _is_asked(read: TileRead, settings: ReaderSettings) -> bool:
    return bool(read.problems) or read.confidence < settings.min_confidence


def _contradicted(tiles: dict[Pos, TileRead], settled: dict[Pos, TileRead], at: Pos,
                  settings: ReaderSettings) -> list[Port]:
    """The openings of the tile at ``at`` a neighbour's read contradicts, to be asked here:
    all of them but those read clearly here beside a neighbour asked about anyway."""
    return [q for q, there, agree in _meetings(tiles, at) if not agree
            and not (_is_clear(tiles[at], q, settings) and _is_asked(settled[there], settings))]


def mirrored_openings(tiles: dict[Pos, TileRead], settings: ReaderSettings
                      ) -> dict[Pos, TileRead]:
    """The tiles with the openings their neighbours settle no longer capping their
    confidence, and the openings a neighbour contradicts asked about (see the module)."""
    if not settings.require_edge_match:
        return tiles
    tiles = {at: _completed(tiles, at, settings) for at in tiles}
    settled = {at: _settled(tiles, at, settings) for at in tiles}
    out: dict[Pos, TileRead] = {}
    for at, read in settled.items():
        contradicted = [] if read.openings is None else _contradicted(tiles, settled, at,
                                                                       settings)
        if not contradicted:
            out[at] = read
            continue
        problems = tuple(f"{opening_question(q)} the tile beside it shows otherwise"
                         for q in contradicted)
        out[at] = replace(read, confidence=min(read.confidence, MISMATCH_CONFIDENCE),
                          shape_confidence=None if read.shape_confidence is None
                          else min(read.shape_confidence, MISMATCH_CONFIDENCE),
                          problems=(*read.problems, *problems))
    return out
