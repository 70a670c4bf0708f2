"""What the Enigma reader returns: the reader's shared constants and the result types
:class:`EnigmaRead`, :class:`TileRead`, :class:`NetworkerRead`. The pipeline is
:func:`vision.enigma.reader.read_enigma`; its settings are in :mod:`vision.enigma.settings`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.enigma.tiles import Port, Pos, Tile, format_tile
from vision.markers import PlaneFit

if TYPE_CHECKING:  # the memory's module reads tiles with these types
    from vision.enigma.table_memory import TableMemory

CHROMA = 200.0
BRIGHTNESS = 8.0
#: below this sum of B, G and R the chromaticity is trusted less and less
DARK = 150.0
#: the highest confidence of a tile at the edge of what the camera saw (below any threshold)
EDGE_CONFIDENCE = 0.5
#: the smallest blob of player-coloured pixels taken for a pawn (after a finer opening), as a
#: share of a pawn's disc: a pale pawn on a pale cell keeps only its middle; such a blob only
#: says where to look (vision.enigma.networkers judges what stands there)
PAWN_MIN_AREA = 0.2


# ---------------------------------------------------------------------------- results


@dataclass(frozen=True)
class OpeningDoubts:
    """How sure a tile's openings were read, for its neighbours to settle (each opening meets
    the neighbour's mirrored one: :mod:`vision.enigma.mirror`)."""

    #: the opening positions whose share of channel lay near the threshold, each with the cap
    #: it puts on the tile's confidence
    margins: tuple[tuple[Port, float], ...] = ()
    #: the opening positions a problem of the tile names (asked whatever the neighbour says)
    named: frozenset[Port] = frozenset()
    #: the tile's confidence and shape confidence but for the ``margins``
    confidence: float = 1.0
    shape_confidence: float | None = None
    #: the openings present where a channel piece of the tile's own, joining a cell or
    #: another opening, ends: evidence from inside the tile, apart from the side's window
    ended: frozenset[Port] = frozenset()
    #: the opening positions read absent with a doubt where one cell's rim lies by the side,
    #: each with that cell: a stub from the opening would join it, and the neighbour's clear
    #: read of the mirrored opening says whether one is there
    stubs: tuple[tuple[Port, str], ...] = ()
    #: the opening positions the judgement of the sides' windows named in a problem, and the
    #: tile's confidence and shape confidence but for those problems and the ``margins``
    judged: frozenset[Port] = frozenset()
    apart: float = 1.0
    shape_apart: float | None = None
    #: the openings read present by a whole dark stroke, asked only because the colour's
    #: share fell short (:func:`~vision.enigma.openings.weak_openings`): the neighbour's
    #: clear read of the mirrored opening settles them
    weak: frozenset[Port] = frozenset()

    def cap(self, settled: frozenset[Port] = frozenset()) -> float:
        """The cap the margins of the openings not ``settled`` put on the confidence."""
        return min([1.0, *(cap for q, cap in self.margins if q not in settled)])

    def is_clear(self, q: Port) -> bool:
        """Whether the opening position ``q`` was read clearly: far from the threshold and
        named by no problem."""
        return q not in self.named and all(m != q for m, _ in self.margins)


@dataclass(frozen=True)
class TileRead:
    """One tile as seen: its structure, category (when the pack knows the icons), confidence."""

    at: Pos
    tile: Tile
    confidence: float
    category: str | None = None
    problems: tuple[str, ...] = ()
    #: where each cell (a, b, c...) lies on the tile, in tile units (x right, y down)
    centres: tuple[tuple[float, float], ...] = ()
    #: how far (pixels) the openings seen lie off the pack's positions: the square is off
    offset: tuple[float, float] = (0.0, 0.0)
    #: the cells whose colour alone is unsure (a pawn stands on them, say), and the
    #: confidence of all the rest (channels, openings, links, where the cells lie, the
    #: networkers) once those colours and the choice among ``alternatives`` are settled:
    #: when the rest is sure, a catalogue may settle them. None: the confidence covers it all
    unsure_colours: tuple[str, ...] = ()
    shape_confidence: float | None = None
    #: the other structures the tile may have (a channel passes close to a cell: joined or
    #: not), besides ``tile``; and the problems that choice alone raises, which settling it
    #: answers
    alternatives: tuple[Tile, ...] = ()
    choice_problems: tuple[str, ...] = ()
    #: how sure its openings were read (None: not told, as for the start tile's face)
    openings: OpeningDoubts | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "at": [self.at[0], self.at[1]],
            **format_tile(self.tile),
            "confidence": round(self.confidence, 4),
        }
        if self.category is not None:
            out["category"] = self.category
        return out


@dataclass(frozen=True)
class NetworkerRead:
    at: Pos
    cell: str
    colour: str
    confidence: float

    def to_json(self) -> dict[str, Any]:
        return {
            "at": [self.at[0], self.at[1]],
            "cell": self.cell,
            "colour": self.colour,
            "confidence": round(self.confidence, 4),
        }


@dataclass
class EnigmaRead:
    tiles: dict[Pos, TileRead]
    networkers: list[NetworkerRead]
    questions: list[str] = field(default_factory=list)
    fit: PlaneFit | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)
    #: whether the start tile's drawing came back in the pack's colours
    #: (:mod:`vision.enigma.pack_fit`); when not, every tile is asked about
    pack_fits: bool = True
    extra: dict[str, Any] = field(default_factory=dict)
    #: the edges the table nears, as (kind, side): ``markers`` (tiles past the marker frame)
    #: or ``view`` (the picture's edge), at ``north``/``east``/``south``/``west`` (the
    #: record's sides): for the app to show the players where the camera's view ends
    table_edges: tuple[tuple[str, str], ...] = ()
    #: what this read found that the next read of the same table reuses
    #: (``read_enigma(..., previous=read.memory)``)
    memory: TableMemory | None = None
    #: the squares looked at again by a read that reused the last read's memory; None when
    #: the whole table was looked at
    looked_at: frozenset[Pos] | None = None

    def to_json(self) -> dict[str, Any]:
        out = {
            "game": "enigma",
            "tiles": [
                t.to_json()
                for _, t in sorted(self.tiles.items(), key=lambda kv: (kv[0][1], kv[0][0]))
            ],
            "networkers": [
                n.to_json()
                for n in sorted(self.networkers, key=lambda n: (n.at[1], n.at[0], n.cell))
            ],
            "questions": list(self.questions),
        }
        out.update(self.extra)
        return out
