"""The Indigo rules engine (Reiner Knizia, Ravensburger 2012), per ``shared/rules/indigo.md``.

Modules, one concept each:

* :mod:`~companion.indigo.geometry`: cells, edges, edge points, corners, gateways, exits,
  ownership layouts, pixel helpers;
* :mod:`~companion.indigo.pieces`: gem kinds and counts;
* :mod:`~companion.indigo.tiles`: the 5 route tile types, rotations and path sets.
"""

from __future__ import annotations

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
)
from companion.indigo.pieces import CENTRE_STOCK, GEM_ORDER, Gem
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
    "ROUTE_CELLS", "TILE_COUNTS", "TILE_TYPES", "TREASURE_CELLS",
    "Cell", "Corner", "EdgePoint", "Gateway", "Gem", "Orientation", "PathSet", "Tile",
    "across", "all_patterns", "cell_centre", "default_layout", "edge_midpoint",
    "edge_normal_degrees", "edge_towards", "facing", "gateway_of_cell", "gateway_of_exit",
    "hex_corners", "identify", "is_on_board", "is_route_cell", "is_treasure_cell", "neighbour",
    "opposite", "owners", "paths_of",
]
