"""Enigma reader, the table's second look at openings: an opening meets the neighbour's
mirrored one (``records.md``, ``require_edge_match``: port meets port, blank meets blank
across every shared side), so each side between two tiles is seen twice, on two tiles'
own pixels.

An opening whose share of channel lay near the threshold (:class:`OpeningDoubts` margins)
is settled when the neighbour read the mirrored position clearly and the two agree. Two reads
that disagree are asked about on the tile whose read of that opening was the less clear; when
both were clear, on both, unless the neighbour is asked about anyway (its answer settles the
side). With edge matching off a port may face a blank side: nothing is settled then.
"""

from __future__ import annotations

from dataclasses import replace

from companion.enigma.tiles import SIDES, Port, Pos, neighbour
from vision.enigma.read_types import TileRead
from vision.enigma.settings import ReaderSettings

#: the highest confidence of a tile whose opening the neighbour's read contradicts
MISMATCH_CONFIDENCE = 0.5

__all__ = ["MISMATCH_CONFIDENCE", "mirrored_openings"]


def _is_clear(read: TileRead, q: Port, settings: ReaderSettings) -> bool:
    """Whether ``read`` saw its opening position ``q`` clearly; a tile read without its
    openings' doubts (the start tile, taken from its face) only when it is sure as a whole."""
    if read.openings is None:
        return not read.problems and read.confidence >= settings.min_confidence
    return read.openings.is_clear(q)


def _compare(tiles: dict[Pos, TileRead], at: Pos, settings: ReaderSettings
             ) -> tuple[frozenset[Port], list[Port]]:
    """The tile at ``at`` against its neighbours, position by position: its openings the
    neighbours settle, and those a neighbour contradicts where this tile is the suspect."""
    read = tiles[at]
    settled: set[Port] = set()
    contradicted: list[Port] = []
    ports = read.tile.ports
    for side in SIDES:
        other = tiles.get(neighbour(at, side))
        if other is None:
            continue
        for position in range(3):
            q = Port(side, position)
            m = q.meets()
            there_clear = _is_clear(other, m, settings)
            if (q in ports) == (m in other.tile.ports):
                if there_clear:
                    settled.add(q)
            elif not _is_clear(read, q, settings) or (
                    there_clear and other.confidence >= settings.min_confidence):
                contradicted.append(q)
    return frozenset(settled), contradicted


def mirrored_openings(tiles: dict[Pos, TileRead], settings: ReaderSettings
                      ) -> dict[Pos, TileRead]:
    """The tiles with the openings their neighbours settle no longer capping their
    confidence, and the openings a neighbour contradicts asked about (see the module)."""
    if not settings.require_edge_match:
        return tiles
    out: dict[Pos, TileRead] = {}
    for at, read in tiles.items():
        doubts = read.openings
        if doubts is None:
            out[at] = read
            continue
        settled, contradicted = _compare(tiles, at, settings)
        cap = doubts.cap(settled)
        if contradicted:
            cap = min(cap, MISMATCH_CONFIDENCE)
        shape = doubts.shape_confidence
        problems = tuple(f"is there an opening at {q.side}{q.position}? the tile beside it "
                         "shows otherwise" for q in contradicted)
        out[at] = replace(read, confidence=min(doubts.confidence, cap),
                          shape_confidence=None if shape is None else min(shape, cap),
                          problems=(*read.problems, *problems))
    return out
