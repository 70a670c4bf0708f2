"""The tile schema: ports, positions, rotation, parse/format round trips, the catalogue."""

from __future__ import annotations

import pytest

from companion.enigma.catalogue import CATEGORIES, load_catalogue, parse_catalogue, read_data_text
from companion.enigma.demo_catalogue import dumps_catalogue, generate_demo_catalogue
from companion.enigma.errors import CatalogueError, TileFormatError
from companion.enigma.facts import load_facts
from companion.enigma.tiles import (
    CROSSROADS,
    Port,
    Tile,
    distinct_rotations,
    dumps_tile,
    format_tile,
    loads_tile,
    parse_port,
    parse_tile,
)


@pytest.mark.parametrize(
    ("text", "port"),
    [("N", Port("N", 1)), ("N1", Port("N", 1)), ("E0", Port("E", 0)), ("W2", Port("W", 2))],
)
def test_ports_parse_with_the_middle_as_default(text: str, port: Port) -> None:
    assert parse_port(text) == port


@pytest.mark.parametrize("text", ["N3", "X", "n", "N01", "NE"])
def test_bad_ports_are_refused(text: str) -> None:
    with pytest.raises(TileFormatError):
        parse_port(text)


@pytest.mark.parametrize(
    ("port", "meets"),
    [(Port("N", 0), Port("S", 2)), (Port("E", 1), Port("W", 1)), (Port("S", 2), Port("N", 0)),
     (Port("W", 0), Port("E", 2))],
)
def test_a_port_meets_the_mirrored_position_on_the_opposite_side(port: Port, meets: Port) -> None:
    assert port.meets() == meets
    assert meets.meets() == port


def test_rotation_moves_sides_clockwise_and_keeps_positions() -> None:
    tile = parse_tile({"cells": {"a": "red"}, "links": [["N0", "a"], ["a", "E"]]})
    turned = tile.rotated(1)
    assert turned.ports == {Port("E", 0), Port("S", 1)}
    assert tile.rotated(4) == tile
    assert tile.rotated(1).rotated(3) == tile
    # N0 is near the NW corner; after a clockwise quarter turn that corner is NE, i.e. E0.
    assert turned.colours == {"a": "red"}


def test_parse_format_round_trip_is_canonical() -> None:
    raw = {"cells": {"b": "blue", "a": "red"}, "links": [["a", "N1"], ["E", "a"], ["b", "S2"]]}
    tile = parse_tile(raw)
    assert format_tile(tile) == {
        "cells": {"a": "red", "b": "blue"},
        "links": [["N", "a"], ["E", "a"], ["S2", "b"]],
    }
    assert parse_tile(format_tile(tile)) == tile
    assert loads_tile(dumps_tile(tile)) == tile
    assert eval(repr(tile), {"Tile": Tile, "Port": Port}) == tile


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ({"cells": {"a": "red"}, "links": [["N", "b"]]}, "'b' is neither a cell id"),
        ({"cells": {"N": "red"}, "links": []}, "written like a port"),
        ({"cells": {"a": 3}, "links": []}, "needs a colour"),
        ({"cells": {}, "links": [["N"]]}, "must be a pair"),
        ({"cells": [], "links": []}, "'cells' must be an object"),
        ({"cells": {}, "links": [["N4", "S"]]}, "position must be 0..2"),
    ],
)
def test_malformed_tiles_name_the_problem(raw: object, words: str) -> None:
    with pytest.raises(TileFormatError, match=words):
        parse_tile(raw)


def test_components_split_separate_channels_and_keep_lone_cells() -> None:
    tile = parse_tile(
        {"cells": {"a": "red", "b": "blue", "c": "red"}, "links": [["N", "a"], ["S", "b"]]}
    )
    comps = tile.components()
    assert sorted(c.cells for c in comps) == [("a",), ("b",), ("c",)]
    assert CROSSROADS.components()[0].cells == ()
    assert len(CROSSROADS.components()[0].ports) == 4


def test_symmetric_tiles_have_fewer_distinct_rotations() -> None:
    assert distinct_rotations(CROSSROADS) == (0,)
    straight = parse_tile({"cells": {}, "links": [["N", "S"]]})
    assert distinct_rotations(straight) == (0, 1)


def test_demo_catalogue_loads_and_is_labelled_demo() -> None:
    catalogue = load_catalogue()
    assert catalogue.is_demo
    assert "DEMO" in catalogue.note
    assert len(catalogue.tiles) == 108
    assert catalogue.start.conduit == CROSSROADS
    assert set(catalogue.colours) == {"red", "blue", "yellow"}
    for category in CATEGORIES:
        assert len(catalogue.by_category(category)) == 27
    assert all(entry.status == "demo" for entry in catalogue.tiles)
    used = {colour for entry in catalogue.tiles for _, colour in entry.conduit.cells}
    assert used == set(catalogue.colours)


def test_demo_catalogue_file_is_what_the_generator_makes() -> None:
    assert read_data_text("catalogue.json") == dumps_catalogue(generate_demo_catalogue())


def test_catalogue_matches_a_turned_tile() -> None:
    catalogue = load_catalogue()
    entry = catalogue.entry("C-05")
    found = catalogue.matches(entry.conduit.rotated(3))
    assert any(e.id == "C-05" and entry.conduit.rotated(r) == entry.conduit.rotated(3)
               for e, r in found)


def test_catalogue_refuses_unknown_colours_and_duplicate_ids() -> None:
    doc = generate_demo_catalogue()
    doc["colours"] = ["red", "blue"]
    with pytest.raises(CatalogueError, match="not one of the catalogue's colours"):
        parse_catalogue(doc)
    doc = generate_demo_catalogue()
    tiles = doc["tiles"]
    assert isinstance(tiles, list)
    tiles.append(dict(tiles[0]))
    with pytest.raises(CatalogueError, match="occurs twice"):
        parse_catalogue(doc)


def test_unknown_facts_are_data_labelled_demo() -> None:
    facts = load_facts()
    assert facts.status == "demo"
    assert facts.sand_timer_seconds == 30
    assert "DEMO" in facts.statuses["sand_timer_seconds"]
    assert facts.cell_colours == ("red", "blue", "yellow")


@pytest.mark.parametrize(
    "module",
    ["tiles", "board", "puzzle_weight", "puzzle_conduit", "puzzle_fragment", "puzzle_angular",
     "geometry"],
)
def test_docstring_examples_run(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"companion.enigma.{module}"))
    assert result.attempted > 0
    assert result.failed == 0
