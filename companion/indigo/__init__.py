"""The Indigo rules engine (Reiner Knizia, Ravensburger 2012), per ``shared/rules/indigo.md``.

Modules, one concept each:

* :mod:`~companion.indigo.geometry`: cells, edges, edge points, corners, gateways, exits,
  ownership layouts, pixel helpers;
* :mod:`~companion.indigo.pieces`: gem kinds and counts;
* :mod:`~companion.indigo.tiles`: the 5 route tile types, rotations and path sets;
* :mod:`~companion.indigo.gems`: gem movement after a placement;
* :mod:`~companion.indigo.state`: the frozen state, placement rules, hands, scoring;
* :mod:`~companion.indigo.snapshot`: the visible board, for the camera reader;
* :mod:`~companion.indigo.notation`: compact text (``T3r2@1,-3``) with parse/format;
* :mod:`~companion.indigo.tally`: several rounds added up;
* :mod:`~companion.indigo.rules`: ``RULES`` for ``companion replay`` and record export.

>>> s = new_game(2)
>>> s, report = play(s, parse_placement("T1r0@0,-1"))
>>> format_report(report)
'P0 T1r0@0,-1: E 0,0:0 -> 0,-1:0 rest'
"""

from __future__ import annotations

from companion.indigo.errors import NotationError, PlacementError, Rule, SetupError
from companion.indigo.gems import Ending, GemMove, Source
from companion.indigo.geometry import (
    CELLS,
    CENTRE,
    CHIPS,
    CORNER_BY_CELL,
    CORNERS,
    EDGE_OFFSETS,
    EXITS,
    GATEWAYS,
    LAYOUTS,
    ROUTE_CELLS,
    TREASURE_CELLS,
    Cell,
    Corner,
    EdgePoint,
    Gateway,
    Orientation,
    across,
    cell_centre,
    default_layout,
    edge_midpoint,
    edge_normal_degrees,
    edge_towards,
    facing,
    gateway_of_cell,
    gateway_of_exit,
    hex_corners,
    is_on_board,
    is_route_cell,
    is_treasure_cell,
    neighbour,
    opposite,
    owners,
    rotate_cell,
    rotate_point,
)
from companion.indigo.notation import (
    format_cell,
    format_placement,
    format_point,
    format_report,
    format_state,
    format_tile,
    parse_cell,
    parse_placement,
    parse_point,
    parse_state,
    parse_tile,
)
from companion.indigo.pieces import CENTRE_STOCK, GEM_ORDER, Gem
from companion.indigo.rules import RULES, IndigoGame, IndigoRules, place_event, to_record
from companion.indigo.snapshot import BoardSnapshot, GemSpot, SpotKind, board_snapshot
from companion.indigo.state import (
    IndigoState,
    Placement,
    PlacementReport,
    all_legal_placements,
    apply,
    check_placement,
    gem_totals,
    legal_placements,
    new_game,
    play,
    predict,
    scores,
    winners,
)
from companion.indigo.tally import RoundResult, Tally
from companion.indigo.tiles import (
    DISTINCT_ROTATIONS,
    TILE_COUNTS,
    TILE_TYPES,
    PathSet,
    Tile,
    all_patterns,
    identify,
    paths_of,
)

__all__ = [
    "CELLS", "CENTRE", "CENTRE_STOCK", "CHIPS", "CORNERS", "CORNER_BY_CELL",
    "DISTINCT_ROTATIONS", "EDGE_OFFSETS", "EXITS", "GATEWAYS", "GEM_ORDER", "LAYOUTS",
    "ROUTE_CELLS", "RULES", "TILE_COUNTS", "TILE_TYPES", "TREASURE_CELLS",
    "BoardSnapshot", "Cell", "Corner", "EdgePoint", "Ending", "Gateway", "Gem", "GemMove",
    "GemSpot", "IndigoGame", "IndigoRules", "IndigoState", "NotationError", "Orientation",
    "PathSet", "Placement", "PlacementError", "PlacementReport", "RoundResult", "Rule",
    "SetupError", "Source", "SpotKind", "Tally", "Tile",
    "across", "all_legal_placements", "all_patterns", "apply", "board_snapshot",
    "cell_centre", "check_placement", "default_layout", "edge_midpoint", "edge_normal_degrees",
    "edge_towards", "facing", "format_cell", "format_placement", "format_point",
    "format_report", "format_state", "format_tile", "gateway_of_cell", "gateway_of_exit",
    "gem_totals", "hex_corners", "identify", "is_on_board", "is_route_cell",
    "is_treasure_cell", "legal_placements", "neighbour", "new_game", "opposite", "owners",
    "parse_cell", "parse_placement", "parse_point", "parse_state", "parse_tile", "paths_of",
    "place_event", "play", "predict", "rotate_cell", "rotate_point", "scores", "to_record",
    "winners",
]
