"""Random conduit tiles outside the demo catalogue (vision.enigma.synth.any_tiles): every kind
records.md allows turns up, every tile is valid, and the drawability check refuses a picture
that says something other than the tile."""

from __future__ import annotations

import random

from companion.enigma.tiles import Port, Tile
from vision.enigma.synth.any_tiles import drawable, random_catalogue, random_tile
from vision.enigma.synth.scenes import random_record


def _kinds(tile: Tile) -> set[str]:
    kinds = {f"cells {len(tile.cells)}"} | {f"position {q.position}" for q in tile.ports}
    for comp in tile.components():
        if not comp.ports and len(comp.cells) == 1:
            kinds.add("lone cell")
        if not comp.cells and len(comp.ports) >= 3:
            kinds.add("branch")
        if not comp.cells and len(comp.ports) == 2:
            kinds.add("through channel")
        if len(comp.cells) >= 2:
            kinds.add("cell to cell")
    return kinds


def test_random_tiles_cover_every_kind_the_format_allows(demo_pack) -> None:
    rng = random.Random(11)
    seen: set[str] = set()
    for _ in range(300):
        tile = random_tile(rng)
        assert tile.ports, "a tile without an opening could never be placed"
        if drawable(tile, demo_pack):
            seen |= _kinds(tile)
    assert {"cells 0", "cells 1", "cells 2", "cells 3", "position 0", "position 1",
            "position 2", "lone cell", "branch", "through channel", "cell to cell"} <= seen


def test_a_channel_drawn_under_a_cell_it_does_not_join_is_not_drawable(demo_pack) -> None:
    # the cell sits between its two openings' inward points: on the N-S channel's line
    under = Tile.make({"a": "red"}, [(Port("N", 1), Port("S", 1)), ("a", Port("E", 1)),
                                    ("a", Port("W", 1))])
    assert not drawable(under, demo_pack)
    assert drawable(Tile.make({"a": "red"}, [(Port("N", 1), "a")]), demo_pack)


def test_random_games_place_random_tiles_legally(demo_pack) -> None:
    catalogue = random_catalogue(3, demo_pack, size=200)
    _, state = random_record(3, tiles=8, catalogue=catalogue)
    assert len(state.board.tiles) == 9
    ids = {e.conduit for e in catalogue.tiles}
    assert all(placed.tile in ids for at, placed in state.board.tiles.items() if at != (0, 0))
