"""The Enigma rules engine: conduit tiles, systems, networkers, scoring, rounds and puzzles.

Modules:

- :mod:`~companion.enigma.tiles`: the tile schema of records.md, ports, rotation;
- :mod:`~companion.enigma.catalogue`, :mod:`~companion.enigma.facts`: the tile catalogue and
  the unknown physical facts, as data (DEMO values shipped);
- :mod:`~companion.enigma.board`: placement, incremental conduit systems, networkers, scoring;
- :mod:`~companion.enigma.game`: rounds, turn order, supply, the target and the winners;
- :mod:`~companion.enigma.rules`: ``RULES`` for ``companion replay``;
- puzzles: :mod:`~companion.enigma.puzzle_weight`, :mod:`~companion.enigma.puzzle_conduit`,
  :mod:`~companion.enigma.puzzle_fragment` (with :mod:`~companion.enigma.geometry`),
  :mod:`~companion.enigma.puzzle_angular`, and their data in :mod:`~companion.enigma.puzzles`.

See docs/enigma.md for the data formats.
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
from companion.enigma.rules import RULES, EnigmaRules
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
