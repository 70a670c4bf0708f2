"""Teaching finds tiles of any look by the slot grid, says which slot fails and why, and
writes the pack for its owner only."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from companion.break_the_code.tiles import ALL_TILES, parse_tile
from vision.break_the_code.pack import load_code_pack
from vision.break_the_code.reader import read_tiles
from vision.break_the_code.settings import DEFAULT_SETTINGS
from vision.break_the_code.synth.art import STYLES
from vision.break_the_code.synth.render import render_frame
from vision.break_the_code.teach import teach_pack
from vision.errors import FrameRefusedError


@pytest.mark.parametrize("style", ["oak", "layered"])
def test_thick_and_two_layer_tiles_laid_by_hand_are_taught(style: str) -> None:
    # oak tiles show a 3 mm side and, laid 3 mm off and turned 6 degrees, touch their
    # neighbours; the two-layer tiles have a light bevel all round
    frame, _ = render_frame(list(ALL_TILES), seed=1, look=STYLES[style], jitter_mm=3.0,
                            max_turn_deg=6.0)
    pack = teach_pack(frame.image, name=style)
    drawn = STYLES[style].tile_mm
    assert drawn[0] - 2 < pack.tile_mm[0] < drawn[0] + STYLES[style].side_mm + 2
    assert drawn[1] - 2 < pack.tile_mm[1] < drawn[1] + STYLES[style].side_mm + 2


def test_a_missing_tile_is_named_by_slot_in_a_whole_sentence() -> None:
    tiles, slots = list(ALL_TILES), list(range(20))
    del tiles[12], slots[12]  # C3, where the black 6 goes
    frame, _ = render_frame(tiles, slots=slots, seed=3, look=STYLES["oak"])
    with pytest.raises(FrameRefusedError) as refused:
        teach_pack(frame.image)
    message = refused.value.message
    assert "slot C3: no tile seen; is the black 6 there?" in message.replace("Slot", "slot")
    assert message.endswith("and take the photo again.")
    assert "A1" not in message and "D3" not in message


def test_a_taught_pack_is_written_for_its_owner_only(tmp_path: Path) -> None:
    frame, _ = render_frame(list(ALL_TILES), seed=3, look=STYLES["plastic"])
    folder = teach_pack(frame.image, name="ours").save(tmp_path / "ours")
    files = sorted(folder.iterdir())
    assert len(files) == 20  # 19 faces and the manifest
    assert {stat.S_IMODE(f.stat().st_mode) for f in files} == {0o600}
    assert load_code_pack(folder).name == "ours"


def test_a_tile_upside_down_is_asked_never_read_as_another_digit() -> None:
    # plastic tiles mark the 6 and the 9 with a bar; a player across the table lays the
    # 6 upside down: it is said, and the rack is not sure
    photo, _ = render_frame(list(ALL_TILES), seed=3, look=STYLES["plastic"], jitter_mm=3.0,
                            max_turn_deg=6.0)
    pack = teach_pack(photo.image, name="plastic")
    rack = [parse_tile(t) for t in ("1b", "3w", "6b", "8w")]
    frame, _ = render_frame(rack, seed=5, look=STYLES["plastic"], upside_down=[2])
    reading = read_tiles(frame.image, pack)
    assert reading.confidence < DEFAULT_SETTINGS.accept
    assert any("C1" in p and "upside down" in p for p in reading.problems)


def test_tiles_turned_up_to_ten_degrees_read_with_the_taught_pack() -> None:
    # the tile is cut out upright along its own outline, so the taught faces serve every
    # turn a hand gives it
    photo, _ = render_frame(list(ALL_TILES), seed=3, look=STYLES["layered"], jitter_mm=3.0,
                            max_turn_deg=6.0)
    pack = teach_pack(photo.image, name="layered")
    rack = [parse_tile(t) for t in ("0w", "3b", "6w", "8b", "9w")]
    for seed in (21, 22):
        frame, scene = render_frame(rack, seed=seed, look=STYLES["layered"],
                                    max_turn_deg=10.0)
        reading = read_tiles(frame.image, pack)
        assert [t.tile for t in reading.tiles] == rack
        assert max(abs(p.angle_deg) for p in scene.placed) > 6.0
