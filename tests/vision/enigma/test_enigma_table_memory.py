"""The read after a placement reuses what the last read of the same table found
(``read_enigma(..., previous=read.memory)``), and never a stale fit or another pack's."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.enigma.pack import DEMO_ENIGMA, load_enigma_pack
from vision.enigma.pack_cache import cached_enigma_pack
from vision.enigma.reader import read_enigma
from vision.enigma.synth.render import TableView, render_frame
from vision.enigma.synth.scenes import categories_of, random_record

FRAME = (1920, 1080)
#: a turn of the bench's seeds: 34 tiles on the table after the placement
SEED, TILES = 3030, 34


@pytest.fixture(scope="module")
def turn(demo_pack: Any) -> dict[str, Any]:
    """The table before and after the placement, drawn with the same camera, and the read
    of the table before it (the last read the app made)."""
    record, after = random_record(SEED, tiles=TILES)
    earlier, before = random_record(SEED, tiles=TILES - 1)
    frames = [render_frame(TableView.of_state(state, demo_pack, categories=categories_of(rec)),
                           demo_pack, seed=SEED, frame_size=FRAME).image
              for rec, state in ((earlier, before), (record, after))]
    placed = set(before.board.tiles)
    last = read_enigma(frames[0], demo_pack, placed=placed)
    new = next(iter(set(after.board.tiles) - placed))
    placing = [e for e in record["events"] if e.get("type") == "place"][-1]
    return {"before": frames[0], "after": frames[1], "placed": placed, "last": last,
            "new": new, "game": before, "tile_id": placing["tile_id"]}


def _same_read(a: Any, b: Any) -> None:
    assert a.to_json() == b.to_json()
    assert a.table_edges == b.table_edges


def test_the_read_after_a_placement_looks_again_only_round_the_new_tile(demo_pack, turn):
    read = read_enigma(turn["after"], demo_pack, placed=turn["placed"],
                       previous=turn["last"].memory)
    assert read.looked_at is not None and turn["new"] in read.looked_at
    assert len(read.looked_at) <= 13  # the new square, and two squares round it at most
    _same_read(read, read_enigma(turn["after"], demo_pack, placed=turn["placed"]))


@pytest.mark.parametrize("dx, dy", [(6, 4), (2, 1)])
def test_a_moved_camera_is_fitted_again_not_read_with_the_old_fit(demo_pack, turn, dx, dy):
    """The camera moved by a few pixels between the reads: the old fit would put every
    square off; the markers are found moved and the table read afresh. (Two pixels change
    the picture too little to be seen as a change: the markers alone tell.)"""
    moved = cv2.warpAffine(turn["after"], np.float32([[1, 0, dx], [0, 1, dy]]),
                           (FRAME[0], FRAME[1]), borderMode=cv2.BORDER_REPLICATE)
    read = read_enigma(moved, demo_pack, placed=turn["placed"], previous=turn["last"].memory)
    afresh = read_enigma(moved, demo_pack, placed=turn["placed"])
    assert read.looked_at is None
    assert read.fit is not None and afresh.fit is not None
    assert np.allclose(read.fit.image_to_plane, afresh.fit.image_to_plane)
    assert not np.allclose(read.fit.image_to_plane, turn["last"].fit.image_to_plane)
    _same_read(read, afresh)


def test_a_table_changed_all_over_is_read_whole(demo_pack, turn):
    """New light (the picture darker everywhere) is no placement: the whole table is read."""
    darker = cv2.convertScaleAbs(turn["after"], alpha=0.7)
    read = read_enigma(darker, demo_pack, placed=turn["placed"], previous=turn["last"].memory)
    assert read.looked_at is None


def test_a_memory_of_another_pack_is_not_used(tmp_path: Path, turn):
    """A pack taught anew is another pack object: the table is read with it, whole."""
    shutil.copytree(DEMO_ENIGMA, tmp_path / "pack")
    other = load_enigma_pack(tmp_path / "pack")
    read = read_enigma(turn["after"], other, placed=turn["placed"],
                       previous=turn["last"].memory)
    assert read.looked_at is None
    assert read.memory is not None and read.memory.pack is other


def test_a_pack_taught_again_into_its_folder_is_loaded_again(tmp_path: Path):
    folder = tmp_path / "pack"
    shutil.copytree(DEMO_ENIGMA, folder)
    first = cached_enigma_pack(folder)
    assert cached_enigma_pack(folder) is first
    manifest = folder / "manifest.json"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        f'"name": "{first.name}"', '"name": "taught again"'), encoding="utf-8")
    again = cached_enigma_pack(folder)
    assert again is not first and again.name == "taught again"
    assert cached_enigma_pack(None) is cached_enigma_pack("")


def test_the_app_path_hands_what_it_found_to_the_next_read(turn):
    """``read_enigma_frame`` (the app's read, with the pack it loads itself) gives the memory
    of its read; the next read with it finds the same placement as a read without it."""
    from companion.enigma.catalogue import load_catalogue
    from config import Config
    from ui.reading import read_enigma_frame

    catalogue = load_catalogue()
    category = catalogue.entry(turn["tile_id"]).category
    first = read_enigma_frame(turn["before"], Config(), turn["game"], category=category,
                              catalogue=catalogue)
    assert first.problem == "no-new" and first.memory is not None
    again = read_enigma_frame(turn["after"], Config(), turn["game"], category=category,
                              catalogue=catalogue, previous=first.memory)
    afresh = read_enigma_frame(turn["after"], Config(), turn["game"], category=category,
                               catalogue=catalogue)
    assert again.entry is not None and again.memory is not None
    assert again.memory.fit is first.memory.fit  # the markers' fit was kept: a local read
    assert (again.at, again.rotation, again.entry, again.questions) == (
        afresh.at, afresh.rotation, afresh.entry, afresh.questions)


def _made_where_looked(monkeypatch: pytest.MonkeyPatch, *, allowed: bool) -> list[bool]:
    """Spy on (or forbid) the read after a placement straightening the table part by part:
    the list gets True each time it did."""
    from vision.enigma import reader

    made = reader._Straightened.made_where_looked
    calls: list[bool] = []

    def spy(*args: Any) -> Any:
        table = made(*args) if allowed else None
        calls.append(table is not None)
        return table

    monkeypatch.setattr(reader._Straightened, "made_where_looked", staticmethod(spy))
    return calls


def _every_detail(read: Any) -> str:
    memory = read.memory
    return repr((sorted(read.tiles.items()), read.networkers, read.questions, read.table_edges,
                 read.pack_fits, memory.start, memory.table_colour, memory.found,
                 memory.middle_picture, memory.plane_to_canon.tolist()))


def test_a_table_straightened_where_the_read_looks_reads_as_the_whole_one(
        demo_pack, turn, monkeypatch):
    """The read after a placement, alone, straightens the table only where it looks (the
    squares at every second pixel, the start tile, the rings round the markers, the tiles
    it reads): every read value, confidence and remembered detail is the one the whole
    straightened table gives."""
    made = _made_where_looked(monkeypatch, allowed=True)
    part_by_part = read_enigma(turn["after"], demo_pack, placed=turn["placed"])
    assert made == [True]
    monkeypatch.undo()
    forbidden = _made_where_looked(monkeypatch, allowed=False)
    whole = read_enigma(turn["after"], demo_pack, placed=turn["placed"])
    assert forbidden == [False]
    assert part_by_part.tiles and _every_detail(part_by_part) == _every_detail(whole)
