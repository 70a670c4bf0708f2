"""The Enigma rules engine: conduit tiles, systems, networkers, scoring, rounds and puzzles.

Modules: :mod:`~companion.enigma.tiles` (the tile schema, ports, rotation),
:mod:`~companion.enigma.catalogue` (the tile catalogue file), :mod:`~companion.enigma.board`
(placement, systems, networkers, scoring), :mod:`~companion.enigma.game` (rounds and turns),
:mod:`~companion.enigma.record_rules` (``companion replay``), and the puzzle checks
:mod:`~companion.enigma.weight`, :mod:`~companion.enigma.conduit`,
:mod:`~companion.enigma.fragment`, :mod:`~companion.enigma.angular`.
"""

from __future__ import annotations

from companion.enigma.board import (
    Award,
    Board,
    Networker,
    Placement,
    ScoredSystem,
    System,
)
from companion.enigma.errors import (
    CatalogueError,
    EnigmaError,
    EnigmaIllegalMoveError,
    PuzzleError,
    TileFormatError,
)
from companion.enigma.game import (
    EnigmaOptions,
    EnigmaState,
    PlaceMove,
    RoundMove,
    apply,
    new_game,
    place,
)
from companion.enigma.record_rules import RULES, EnigmaRules
from companion.enigma.tiles import (
    CROSSROADS,
    Port,
    Tile,
    format_tile,
    parse_port,
    parse_tile,
)

__all__ = [
    "Award",
    "Board",
    "CROSSROADS",
    "CatalogueError",
    "EnigmaError",
    "EnigmaIllegalMoveError",
    "EnigmaOptions",
    "EnigmaRules",
    "EnigmaState",
    "Networker",
    "PlaceMove",
    "Placement",
    "Port",
    "PuzzleError",
    "RULES",
    "RoundMove",
    "ScoredSystem",
    "System",
    "Tile",
    "TileFormatError",
    "apply",
    "format_tile",
    "new_game",
    "parse_port",
    "parse_tile",
    "place",
]
