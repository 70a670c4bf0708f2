"""The Break the Code tile reader on rendered frames of the code mat."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import numpy as np
import pytest

from companion.break_the_code.tiles import ALL_TILES, Code, parse_code
from vision.break_the_code.mat import SLOTS
from vision.break_the_code.pack import demo_pack, load_code_pack
from vision.break_the_code.reader import read_code, read_tiles, stored_message
from vision.break_the_code.settings import DEFAULT_SETTINGS
from vision.break_the_code.synth.art import STYLES
from vision.break_the_code.synth.render import render_frame
from vision.break_the_code.teach import teach_pack
from vision.errors import ArtPackError, FrameRefusedError
from vision.synth.effects import ALL_EFFECTS

CODES = ["0b 1w 5g 5g 9b", "2w 3b 6w 8b 9w", "0w 4b 4w 7b", "1b 3w 5g 8w", "0b 0w 6b 6w 9b",
         "2b 5g 7w 8b"]


def _random_code(seed: int) -> Code:
    rng = random.Random(seed)
    tiles = list(ALL_TILES)
    rng.shuffle(tiles)
    return Code.of(tiles[: rng.choice([4, 5])])


@pytest.mark.parametrize("seed", range(len(CODES)))
def test_a_rack_reads_back_exactly(seed: int) -> None:
    code = parse_code(CODES[seed])
    frame, _ = render_frame(list(code.tiles), seed=seed)
    read, confidence = read_code(frame.image, demo_pack())
    assert read == code
    assert confidence >= DEFAULT_SETTINGS.accept


def test_all_twenty_tiles_with_every_camera_effect() -> None:
    tiles = list(ALL_TILES)
    random.Random(3).shuffle(tiles)
    frame, scene = render_frame(tiles, seed=21, effects=ALL_EFFECTS)
    reading = read_tiles(frame.image, demo_pack())
    assert [t.slot for t in reading.tiles] == list(range(20))
    assert [t.tile for t in reading.tiles] == tiles
    assert reading.problems == ()


@pytest.fixture(scope="module")
def ivory_pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    frame, _ = render_frame(list(ALL_TILES), seed=9, look=STYLES["ivory"])
    pack = teach_pack(frame.image, name="ivory-taught")
    folder = tmp_path_factory.mktemp("pack") / "ivory"
    pack.save(folder)
    return folder


def test_a_taught_pack_reads_its_own_tiles(ivory_pack: Path) -> None:
    pack = load_code_pack(ivory_pack)
    assert pack.name == "ivory-taught"
    assert 29 < pack.tile_mm[0] < 33 and 39 < pack.tile_mm[1] < 43  # drawn 30 x 40 mm
    for seed in range(4):
        code = _random_code(100 + seed)
        frame, _ = render_frame(list(code.tiles), seed=100 + seed, look=STYLES["ivory"])
        read, confidence = read_code(frame.image, pack)
        assert read == code and confidence >= DEFAULT_SETTINGS.accept


def test_the_demo_pack_does_not_claim_to_read_another_look() -> None:
    # Reading tiles of another look without teaching it must not be confident *and* wrong.
    for seed in range(3):
        code = _random_code(200 + seed)
        frame, _ = render_frame(list(code.tiles), seed=200 + seed, look=STYLES["ivory"])
        try:
            read, confidence = read_code(frame.image, demo_pack())
        except FrameRefusedError:
            continue
        assert read == code or confidence < DEFAULT_SETTINGS.accept


def test_teaching_refuses_tiles_out_of_box_order() -> None:
    tiles = list(ALL_TILES)
    random.Random(5).shuffle(tiles)
    frame, _ = render_frame(tiles, seed=4)
    with pytest.raises(ArtPackError):
        teach_pack(frame.image)


def test_teaching_needs_all_twenty_tiles() -> None:
    frame, _ = render_frame(list(ALL_TILES[:19]), seed=4)
    with pytest.raises(FrameRefusedError, match="E4") as info:
        teach_pack(frame.image)
    assert info.value.reason == "no-tiles"


def test_tiles_out_of_rack_order_lower_the_confidence() -> None:
    tiles = list(parse_code("1w 2b 4b 7w 9w").tiles)
    tiles[0], tiles[1] = tiles[1], tiles[0]
    frame, _ = render_frame(tiles, seed=7)
    code, confidence = read_code(frame.image)
    assert code == parse_code("1w 2b 4b 7w 9w") and confidence <= 0.5


def test_an_impossible_set_is_refused_naming_slots_not_tiles() -> None:
    tile = ALL_TILES[6]  # 3b, laid twice
    frame, _ = render_frame([ALL_TILES[0], tile, tile, ALL_TILES[15]], seed=8)
    with pytest.raises(FrameRefusedError) as info:
        read_code(frame.image)
    assert info.value.reason == "impossible-code" and info.value.exit_code == 4
    assert "B1" in str(info.value) and "C1" in str(info.value)
    assert str(tile) not in str(info.value)


def test_frames_without_a_mat_or_without_tiles_are_refused() -> None:
    with pytest.raises(FrameRefusedError) as info:
        read_code(np.full((480, 640, 3), 120, np.uint8))
    assert info.value.exit_code == 4
    empty, _ = render_frame([], seed=2)
    with pytest.raises(FrameRefusedError) as info:
        read_code(empty.image)
    assert info.value.reason == "no-tiles"
    frame, _ = render_frame(list(parse_code(CODES[0]).tiles), seed=1)
    with pytest.raises(FrameRefusedError, match="expected 4"):
        read_code(frame.image, expected=4)


def test_a_tile_nudged_off_its_slot_is_still_given_to_it() -> None:
    code = parse_code("3w 4b 6b 8w 9b")
    frame, scene = render_frame(list(code.tiles), seed=12)
    reading = read_tiles(frame.image)
    assert [SLOTS[t.slot].name for t in reading.tiles] == ["A1", "B1", "C1", "D1", "E1"]
    for read, placed in zip(reading.tiles, scene.placed, strict=True):
        assert np.hypot(read.centre_mm[0] - placed.centre_mm[0],
                        read.centre_mm[1] - placed.centre_mm[1]) < 4.0


def test_the_secret_is_never_logged_or_shown(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    code = parse_code("0w 2b 5g 7w 8b")
    frame, _ = render_frame(list(code.tiles), seed=13)
    reading = read_tiles(frame.image)
    read, _ = read_code(frame.image)
    assert read == code
    shown = caplog.text + repr(reading) + "".join(repr(t) for t in reading.tiles)
    assert not any(str(t) in shown for t in code.tiles)
    assert stored_message(read) == "code stored: 5 tiles"


def test_pack_round_trip(tmp_path: Path) -> None:
    demo = demo_pack()
    demo.save(tmp_path / "demo")
    again = load_code_pack(tmp_path / "demo")
    assert again.tile_mm == demo.tile_mm and sorted(again.tiles) == sorted(demo.tiles)
    assert load_code_pack(None) is demo
    with pytest.raises(ArtPackError):
        load_code_pack(tmp_path / "nowhere")


def test_a_tile_laid_upside_down_is_a_problem_not_a_nine() -> None:
    code = parse_code("1b 2w 4b 6w 8b")
    frame, _ = render_frame(list(code.tiles), seed=14, upside_down=[3])
    reading = read_tiles(frame.image)
    assert [t.upside_down for t in reading.tiles] == [False, False, False, True, False]
    assert any("D1" in p and "upside down" in p for p in reading.problems)
    assert reading.confidence < DEFAULT_SETTINGS.accept


def test_a_low_resolution_camera_still_reads_every_tile() -> None:
    tiles = list(ALL_TILES)
    random.Random(8).shuffle(tiles)
    frame, _ = render_frame(tiles, seed=31, effects=ALL_EFFECTS, frame_size=(640, 480))
    assert [t.tile for t in read_tiles(frame.image).tiles] == tiles
