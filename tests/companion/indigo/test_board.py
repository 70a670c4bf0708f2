"""Board geometry, tiles and ownership against the rules digest's Appendix A data."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest

from companion.indigo import geometry as geo
from companion.indigo.tiles import (
    DISTINCT_ROTATIONS,
    TILE_COUNTS,
    Tile,
    all_patterns,
    identify,
    path_kind,
)

DATA = json.loads(
    (Path(__file__).resolve().parents[2] / "data" / "indigo" / "board.json").read_text()
)


def test_cell_counts() -> None:
    assert len(geo.CELLS) == 61
    assert len(geo.ROUTE_CELLS) == 54
    assert len(geo.TREASURE_CELLS) == 7
    assert [list(c) for c in geo.ROUTE_CELLS] == DATA["route_cells"]
    assert sum(1 for c in geo.CELLS if geo.ring(c) == 4) == 24


def test_edges_and_neighbours() -> None:
    assert [list(d) for d in geo.EDGE_OFFSETS] == DATA["edge_offsets"]
    for cell in geo.CELLS:
        for edge in range(6):
            other = geo.neighbour(cell, edge)
            assert geo.neighbour(other, geo.opposite(edge)) == cell
            assert geo.across(geo.across((cell, edge))) == (cell, edge)
            assert geo.edge_towards(cell, other) == edge
    with pytest.raises(ValueError, match="not neighbours"):
        geo.edge_towards((0, 0), (2, 0))


def test_corners_match_the_table() -> None:
    corners = [t for t in DATA["treasure_tiles"] if t["kind"] == "corner"]
    assert len(corners) == len(geo.CORNERS) == 6
    for data, corner in zip(corners, geo.CORNERS, strict=True):
        assert list(corner.cell) == data["cell"]
        assert corner.arrow_edge == data["arrow_edge"]
        assert list(corner.arrow_neighbour) == data["arrow_neighbour"]
        assert set(corner.uturn) == set(data["uturn"])
        assert list(corner.offboard_edges) == data["offboard_edges"]
        # the arrow faces the centre side, the U-turn ends face rim cells, the rest is off board
        assert geo.ring(corner.arrow_neighbour) == 3
        for end in corner.uturn:
            assert geo.is_route_cell(geo.neighbour(corner.cell, end))
            assert geo.ring(geo.neighbour(corner.cell, end)) == 4
        for edge in corner.offboard_edges:
            assert not geo.is_on_board(geo.neighbour(corner.cell, edge))
            assert geo.gateway_of_exit(corner.cell, edge) is None


def test_gateways_and_their_36_exits() -> None:
    for data, gateway in zip(DATA["gateways"], geo.GATEWAYS, strict=True):
        assert [list(c) for c in gateway.cells] == data["cells"]
        assert list(gateway.exit_edges) == data["exit_edges"]
        assert [[c[0], c[1], e] for c, e in gateway.exits] == data["exits"]
    assert len(geo.EXITS) == 36
    # every route-cell edge that faces off the board is an exit, and nothing else is
    for cell in geo.ROUTE_CELLS:
        for edge in range(6):
            off = not geo.is_on_board(geo.neighbour(cell, edge))
            assert (geo.gateway_of_exit(cell, edge) is not None) == off
    assert geo.gateway_of_cell((0, -3)) is None
    assert geo.gateway_of_cell((-2, -2)) == 5


@pytest.mark.parametrize("layout", geo.LAYOUTS)
def test_chip_tables(layout: str) -> None:
    assert [list(c) for c in geo.CHIPS[layout]] == DATA["chips"][layout]
    assert sum(len(c) for c in geo.CHIPS[layout]) == 12


def test_ownership_shapes() -> None:
    # 2p: three gateways each, alternating, nothing shared
    assert [geo.owners("2p", g) for g in range(6)] == [(0,), (1,), (0,), (1,), (0,), (1,)]
    # 3p: each owns one alone and shares two, one with each opponent
    alone = [geo.owners("3p", g)[0] for g in range(6) if not geo.is_shared("3p", g)]
    assert sorted(alone) == [0, 1, 2]
    shared = sorted(tuple(sorted(geo.owners("3p", g))) for g in range(6) if geo.is_shared("3p", g))
    assert shared == [(0, 1), (0, 2), (1, 2)]
    # 3p-alt: red, turquoise, white, red, turquoise, white clockwise
    assert [geo.owners("3p-alt", g) for g in range(6)] == [(0,), (1,), (2,)] * 2
    # 4p: every gateway shared, every pair exactly once
    pairs = sorted(tuple(sorted(geo.owners("4p", g))) for g in range(6))
    assert pairs == sorted(itertools.combinations(range(4), 2))
    # the first chip takes the board gem, the second the twin
    assert geo.owners("3p", 3) == (2, 0)
    with pytest.raises(ValueError, match="unknown layout"):
        geo.owners("5p", 0)


def test_default_layouts() -> None:
    assert [geo.default_layout(n) for n in (2, 3, 4)] == ["2p", "3p", "4p"]
    with pytest.raises(ValueError):
        geo.default_layout(5)


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_pixels_put_neighbours_across_the_edge(orientation: geo.Orientation) -> None:
    radius = 10.0
    for edge in range(6):
        cx, cy = geo.cell_centre((1, -2), radius, orientation=orientation)
        nx, ny = geo.cell_centre(geo.neighbour((1, -2), edge), radius, orientation=orientation)
        assert math.dist((cx, cy), (nx, ny)) == pytest.approx(radius * math.sqrt(3))
        mx, my = geo.edge_midpoint((1, -2), edge, radius, orientation=orientation)
        assert (mx, my) == pytest.approx(((cx + nx) / 2, (cy + ny) / 2))
        corners = geo.hex_corners((1, -2), radius, orientation=orientation)
        # corner i lies between edges i-1 and i: both ends of edge i are corners i and i+1
        a, b = corners[edge], corners[(edge + 1) % 6]
        assert ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) == pytest.approx((mx, my))


def test_pointy_top_has_gateway_0_on_top_and_flat_top_a_corner() -> None:
    top = min(geo.CELLS, key=lambda c: geo.cell_centre(c, 1.0)[1])
    assert geo.gateway_of_cell(top) == 0 or top in geo.CORNER_BY_CELL
    ys = {c: geo.cell_centre(c, 1.0)[1] for c in geo.CELLS}
    assert {c for c in geo.CELLS if ys[c] == min(ys.values())} == {
        (0, -4), (1, -4), (2, -4), (3, -4), (4, -4)}
    flat = {c: geo.cell_centre(c, 1.0, orientation="flat")[1] for c in geo.CELLS}
    assert min(flat, key=lambda c: flat[c]) == (0, -4)
    # edge 0 points up-left (pointy) / up (flat)
    assert geo.edge_normal_degrees(0) == 240.0
    assert geo.edge_normal_degrees(0, orientation="flat") == 270.0


# ----------------------------------------------------------------------------- tiles

def test_tile_counts_and_orientations() -> None:
    assert TILE_COUNTS == {0: 14, 1: 6, 2: 14, 3: 14, 4: 6}
    assert sum(TILE_COUNTS.values()) == 54
    for data in DATA["tile_types"]:
        kind = data["id"]
        assert TILE_COUNTS[kind] == data["count"]
        assert Tile(kind).paths == tuple(tuple(p) for p in data["paths"])
        assert DISTINCT_ROTATIONS[kind] == tuple(int(n) for n in data["orientations"])
        for n, paths in data["orientations"].items():
            assert Tile(kind, int(n)).paths == tuple(tuple(p) for p in paths)
    assert len(all_patterns()) == 15
    assert len({t.paths for t in all_patterns()}) == 15


def test_rotation_symmetries_compare_by_path_set() -> None:
    assert Tile(1, 4).same_pattern(Tile(1, 0))
    assert Tile(0, 3).same_pattern(Tile(0, 0)) and not Tile(0, 1).same_pattern(Tile(0, 0))
    assert Tile(4, 2).same_pattern(Tile(4, 0)) and not Tile(4, 1).same_pattern(Tile(4, 0))
    assert Tile(2, 5).canonical() == Tile(2, 2)
    for kind in range(5):
        for n in range(6):
            tile = Tile(kind, n)
            assert identify(tile.paths) == tile.canonical()
            assert identify(tuple(reversed(tile.paths))) == tile.canonical()
            for a, b in tile.paths:
                assert tile.other_end(a) == b and tile.other_end(b) == a


def test_path_kinds() -> None:
    kinds = {k: sorted(path_kind(p) for p in Tile(k).paths) for k in range(5)}
    assert kinds == {
        0: ["straight", "wide", "wide"],
        1: ["straight", "straight", "straight"],
        2: ["straight", "tight", "tight"],
        3: ["tight", "wide", "wide"],
        4: ["tight", "tight", "tight"],
    }


def test_bad_tiles_are_refused() -> None:
    with pytest.raises(ValueError, match="no tile type 5"):
        Tile(5, 0)
    with pytest.raises(ValueError, match="rotation 6"):
        Tile(0, 6)
    with pytest.raises(ValueError, match="no route tile"):
        identify(((0, 1), (1, 2), (3, 4)))  # edge 1 used twice


@pytest.mark.parametrize("gate", range(6))
def test_blocking_table_of_the_digest(gate: int) -> None:
    expected = {
        0: set(), 1: set(),
        2: {(gate + 1) % 6, (gate + 4) % 6},
        3: {(gate + 1) % 6},
        4: {(gate + 1) % 6, (gate + 3) % 6, (gate + 5) % 6},
    }
    for cell in geo.GATEWAYS[gate].cells:
        for kind in range(5):
            illegal = {n for n in range(6) if Tile(kind, n).is_blocking(cell)}
            assert illegal == expected[kind], (cell, kind)
            assert len(illegal) < 6  # every type has a legal rotation everywhere


def test_only_gateway_cells_block() -> None:
    for cell in geo.ROUTE_CELLS:
        if geo.gateway_of_cell(cell) is None:
            assert not any(Tile(k, n).is_blocking(cell) for k in range(5) for n in range(6))


def test_turning_the_board_maps_corners_gateways_and_exits_onto_each_other() -> None:
    for steps in range(6):
        assert {geo.rotate_cell(c, steps) for c in geo.CELLS} == set(geo.CELLS)
        for g, corner in enumerate(geo.CORNERS):
            turned = geo.CORNER_BY_CELL[geo.rotate_cell(corner.cell, steps)]
            assert turned is geo.CORNERS[(g + steps) % 6]
            assert geo.rotate_point(corner.amber_point, steps) == turned.amber_point
        for point, gate in geo.EXITS.items():
            assert geo.EXITS[geo.rotate_point(point, steps)] == (gate + steps) % 6
        for cell in geo.CELLS:
            for edge in range(6):
                assert geo.rotate_cell(geo.neighbour(cell, edge), steps) == geo.neighbour(
                    geo.rotate_cell(cell, steps), edge + steps)
            assert geo.rotate_cell(geo.rotate_cell(cell, steps), -steps) == cell


def test_every_pairing_of_the_six_edges_is_a_route_tile() -> None:
    # 15 perfect matchings of 6 edges = the 15 patterns: any read of 3 disjoint paths is a tile
    def matchings(edges: list[int]) -> list[list[tuple[int, int]]]:
        if not edges:
            return [[]]
        first, rest = edges[0], edges[1:]
        return [[(first, other), *m] for other in rest
                for m in matchings([e for e in rest if e != other])]

    found = {identify(tuple(m)) for m in matchings(list(range(6)))}
    assert found == set(all_patterns())


def test_the_board_extent_is_worked_out_once_per_radius(monkeypatch) -> None:
    """The board widget asks for the extent at every point it draws (368 times a redraw):
    each time it walked the 61 cells' corners, ~75 ms of a redraw here (a Pi: ~0.4 s)."""
    from companion.indigo import geometry

    calls = []
    real = geometry.hex_corners
    monkeypatch.setattr(geometry, "hex_corners",
                        lambda *a, **k: calls.append(1) or real(*a, **k))
    first = geometry.board_extent(1.75)
    for _ in range(10):
        assert geometry.board_extent(1.75) == first
    assert len(calls) <= len(geometry.CELLS)
