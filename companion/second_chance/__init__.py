"""Second Chance (Uwe Rosenberg, 2019): the rules engine, shapes, the grid and the sheet check.

- :mod:`.shapes`: polyomino notation, orientations, canonical form;
- :mod:`.grid`: the 9x9 bitmask grid, ``placements`` and ``fits``;
- :mod:`.deck`: the deck data file (a DEMO deck ships until the real cards are transcribed);
- :mod:`.game`: the engine behind ``companion replay`` (``RULES``);
- :mod:`.sheet`: ``check_sheet``, used by the camera's sheet reader;
- :mod:`.solo`: solo scoring; :mod:`.simulate`: seeded random games.
"""

from companion.second_chance.deck import Deck, StartTile, load_deck, parse_deck
from companion.second_chance.errors import DeckError, ShapeError
from companion.second_chance.grid import (
    CENTRE,
    SIZE,
    Grid,
    first_placement,
    fits,
    is_placement_of,
    placements,
)
from companion.second_chance.rules import (
    RULES,
    PlayerState,
    SecondChanceRules,
    SecondChanceState,
    winners,
)
from companion.second_chance.shapes import (
    Cell,
    Shape,
    canonical_text,
    check_polyomino,
    format_shape,
    free_polyominoes,
    orientations,
    parse_shape,
)
from companion.second_chance.sheet import FoundShape, SheetCheck, SheetProblem, check_sheet
from companion.second_chance.solo import SoloScore, score_solo

__all__ = [
    "CENTRE",
    "RULES",
    "SIZE",
    "Cell",
    "Deck",
    "DeckError",
    "FoundShape",
    "Grid",
    "PlayerState",
    "SecondChanceRules",
    "SecondChanceState",
    "Shape",
    "ShapeError",
    "SheetCheck",
    "SheetProblem",
    "SoloScore",
    "StartTile",
    "canonical_text",
    "check_polyomino",
    "check_sheet",
    "first_placement",
    "fits",
    "format_shape",
    "free_polyominoes",
    "is_placement_of",
    "load_deck",
    "orientations",
    "parse_deck",
    "parse_shape",
    "placements",
    "score_solo",
    "winners",
]
