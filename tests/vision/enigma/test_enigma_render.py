"""The Enigma table renderer draws the record's own start tile: the pack's start face for the
default start, the record's ``options.start`` (in the pack's tile style, with the start star)
otherwise, so that ``companion render enigma`` is true to the record."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from companion.enigma.tiles import CROSSROADS, parse_tile
from vision.enigma.pack import load_enigma_pack
from vision.enigma.synth.art import draw_pack
from vision.enigma.synth.render import TableView, render_frame, render_scene, start_tile_face

DATA = Path(__file__).resolve().parents[2] / "data" / "enigma"
EAST_WEST = {"cells": {}, "links": [["E", "W"]]}


@pytest.fixture(scope="module", params=["demo", "ink"])
def pack(request):
    return load_enigma_pack() if request.param == "demo" else draw_pack("ink")


def _start_patch(view: TableView, pack, seed: int) -> np.ndarray:
    from vision.enigma.geometry import table_geometry
    from vision.enigma.settings import DEFAULT_TABLE

    geo = table_geometry(DEFAULT_TABLE, pack)
    scene = render_scene(view, pack, geo, px_per_mm=2.0, seed=seed, jitter_mm=0.0,
                         jitter_deg=0.0, start_offset_mm=(0.0, 0.0))
    m = scene.frame_to_scene
    cx, cy = m[0, 2], m[1, 2]
    half = int(pack.tile_mm * 2.0 * 0.4)
    return scene.image[int(cy) - half:int(cy) + half, int(cx) - half:int(cx) + half]


def test_the_default_start_is_the_packs_start_face_and_a_custom_one_is_not(pack) -> None:
    from vision.enigma.synth.render import PlacedView

    default = TableView({(0, 0): PlacedView(CROSSROADS)})
    custom = TableView({(0, 0): PlacedView(parse_tile(EAST_WEST))})
    a, b = _start_patch(default, pack, 1), _start_patch(custom, pack, 1)
    # the crossroads' north and south arms are channel; an east-west start leaves them bare
    h = a.shape[0]
    north = (slice(2, h // 5), slice(h // 2 - 2, h // 2 + 3))
    channel = np.array(pack.colour("channel"), float)
    tile = np.array(pack.colour("tile"), float)

    def nearer_channel(img: np.ndarray) -> bool:
        mean = img[north].reshape(-1, 3).mean(axis=0)
        return bool(np.linalg.norm(mean - channel) < np.linalg.norm(mean - tile))

    assert nearer_channel(a)
    assert not nearer_channel(b)


def test_a_custom_start_face_keeps_its_cells_and_the_start_star(pack) -> None:
    tile = parse_tile({"cells": {"a": "red", "b": "blue"}, "links": [["E0", "a"], ["E2", "b"]]})
    face = start_tile_face(tile, pack, 200)
    icon = np.array(pack.colour("icon"), float)
    red = np.array(pack.cells["red"], float)
    near_icon = np.linalg.norm(face.astype(float) - icon, axis=-1) < 30
    near_red = np.linalg.norm(face.astype(float) - red, axis=-1) < 30
    assert near_icon[80:120, 80:120].mean() > 0.2  # the star in the middle
    assert near_red.sum() > 200  # the red cell is not painted over


def test_render_enigma_of_a_record_with_a_custom_start_shows_that_start(tmp_path) -> None:
    from ui.cli import main

    record = DATA / "merge-two-red-networkers.json"
    assert json.loads(record.read_text())["options"]["start"] == EAST_WEST
    out, truth = tmp_path / "t.png", tmp_path / "t.json"
    assert main(["render", "enigma", str(record), "-o", str(out), "--seed", "1",
                 "--truth", str(truth)]) == 0
    start = next(t for t in json.loads(truth.read_text())["tiles"] if t["at"] == [0, 0])
    assert start["links"] == [["E", "W"]]


def test_the_reader_reads_an_east_west_start_and_does_not_ask(pack) -> None:
    from companion.enigma.game import EnigmaOptions, new_game
    from vision.enigma.reader import read_enigma

    state = new_game(["Ana", "Ben"], EnigmaOptions(start=parse_tile(EAST_WEST)))
    view = TableView.of_state(state, pack)
    frame = render_frame(view, pack, seed=2, frame_size=(1920, 1080))
    read = read_enigma(frame.image, pack, start_tile=parse_tile(EAST_WEST))
    start = read.tiles[(0, 0)]
    assert not start.problems, start.problems
    assert start.tile.links == parse_tile(EAST_WEST).links
