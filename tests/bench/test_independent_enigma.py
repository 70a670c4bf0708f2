"""The independent Enigma scenes (bench/independent_scenes): their truth is the table drawn,
and the judge counts a wrong tile without a question as silent."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from independent_scenes.enigma_faces import Print, hex_bgr, tile_face  # noqa: E402
from independent_scenes.enigma_judge import judge  # noqa: E402
from independent_scenes.enigma_table import pack_manifest, random_table, truth_of  # noqa: E402
from independent_scenes.enigma_tiles import Sizes, lay_out, random_graph  # noqa: E402

from companion.enigma.tiles import parse_tile  # noqa: E402

BEVEL_CUT_PX = 12                  # the face's cut edge is left out when counting networks


def _networks_seen(face: np.ndarray, tile_colour: np.ndarray) -> int:
    """Blobs of anything that is not bare tile (channels and cells), inside the bevel."""
    inner = face[BEVEL_CUT_PX:-BEVEL_CUT_PX, BEVEL_CUT_PX:-BEVEL_CUT_PX]
    printed = (np.linalg.norm(inner - tile_colour, axis=2) > 45).astype(np.uint8)
    count, _ = cv2.connectedComponents(printed, connectivity=8)
    return count - 1


@pytest.mark.parametrize("seed", range(12))
def test_a_tile_face_shows_its_networks_apart(seed: int) -> None:
    rng = np.random.default_rng(seed)
    sizes = Sizes.of_manifest(pack_manifest())
    look = Print.of_manifest(pack_manifest(), rng)
    required = {"N": {0, 2}, "W": {1}} if seed % 2 else {}
    graph, layout = lay_out(random_graph(required, rng), sizes, rng, icon=False)
    face = tile_face(layout, graph.cells, "weight", sizes, look, rng)
    assert _networks_seen(face, look.tile) == len(graph.networks)
    assert {p for p in graph.ports() if p[0] in required} == {"N0", "N2", "W1"} if seed % 2 \
        else True


def test_the_truth_is_each_tile_as_drawn() -> None:
    table = random_table(70000, 8)
    tiles, networkers = truth_of(table)
    assert len(tiles) == 8 and set(tiles) == {piece.at for piece in table.pieces}
    for piece in table.pieces[1:]:
        drawn = sorted((tuple(sorted((p[0], int(p[1])) for p in ports)),
                        tuple(sorted(piece.graph.cells[c] for c in cells)))
                       for cells, ports in piece.graph.networks)
        assert tuple(drawn) == tiles[piece.at]
    colours = set(pack_manifest()["colours"]["networkers"])
    assert all(colour in colours for _, colour, _ in networkers)


def _read_of(table) -> dict:
    """A perfect read of ``table``: every tile with its cells renamed backwards."""
    tiles = []
    for pos, placed in table.state.board.tiles.items():
        data = placed.turned.to_json()
        rename = {cell: f"z{i}" for i, cell in enumerate(data["cells"])}
        links = [[rename.get(a, a), rename.get(b, b)] for a, b in reversed(data["links"])]
        tiles.append({"at": list(pos), "cells": {rename[c]: v for c, v in data["cells"].items()},
                      "links": links, "confidence": 1.0, "renamed": rename})
    networkers = [{"at": list(n.at), "cell": next(t["renamed"][n.cell] for t in tiles
                                                  if tuple(t["at"]) == n.at),
                   "colour": table.player_colours[n.player], "confidence": 1.0}
                  for n in table.state.board.occupied.values()]
    return {"tiles": tiles, "networkers": networkers, "questions": []}


def test_the_judge_counts_exact_asked_and_silent_wrong() -> None:
    table = random_table(70001, 8)
    truth = truth_of(table)
    read = _read_of(table)
    score = judge(read, *truth, threshold=0.85)
    assert (score.exact, score.asked, score.silent_wrong) == (8, 0, 0)
    assert score.networkers_exact
    wrong = next(t for t in read["tiles"] if t["at"] != [0, 0])
    wrong["links"] = wrong["links"][1:] if len(wrong["links"]) > 1 else []
    if parse_tile({"cells": wrong["cells"], "links": wrong["links"]}).components() == \
            parse_tile({"cells": wrong["cells"], "links": []}).components():
        wrong["cells"] = {**wrong["cells"], "extra": "red"}
    score = judge(read, *truth, threshold=0.85)
    assert (score.exact, score.silent_wrong) == (7, 1)
    read["questions"] = [f"tile [{wrong['at'][0]}, {wrong['at'][1]}]: is it read right?"]
    score = judge(read, *truth, threshold=0.85)
    assert (score.exact, score.asked, score.silent_wrong) == (7, 1, 0)
    read["questions"] = []
    wrong["confidence"] = 0.5
    assert judge(read, *truth, threshold=0.85).silent_wrong == 0
    read["tiles"] = [t for t in read["tiles"] if t is not wrong]
    assert judge(read, *truth, threshold=0.85).missed == 1


def test_colours_are_read_from_the_pack_file() -> None:
    assert hex_bgr("#d62828").tolist() == [0x28, 0x28, 0xD6]
