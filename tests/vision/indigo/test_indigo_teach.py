"""Teach a pack from photos of pieces drawn in another style, then read with it."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from indigo_scenes import FRAME, cell_errors, gem_misreads_unasked, state

from vision.errors import ArtPackError
from vision.indigo.model import COMPARE_RADIUS, circle_mask
from vision.indigo.pack import IndigoPack, load_indigo_pack
from vision.indigo.reader import read_indigo
from vision.indigo.synth.render import render_frame
from vision.indigo.synth.teach_photo import render_teach_photo
from vision.indigo.teach import teach, teach_from_files, teach_sheet, tile_image_from_photo
from vision.indigo.view import BoardView


@pytest.fixture(scope="module")
def taught(ink: IndigoPack) -> IndigoPack:
    photos = [render_teach_photo(ink, k, seed=k) for k in range(5)]
    pieces = render_teach_photo(ink, None, seed=9)
    board = render_frame(
        BoardView({}, {}, (), None),
        ink,
        seed=5,
        frame_size=(1600, 1200),
        effects=("whitebalance", "light", "perspective", "noise", "jpeg"),
    ).image
    return teach(photos, pieces, board_photo=board, name="my pieces")


def test_taught_colours_are_near_the_real_pieces(ink: IndigoPack, taught: IndigoPack) -> None:
    for name, colour in ink.gems.items():
        assert max(abs(a - b) for a, b in zip(taught.gems[name], colour, strict=True)) < 45


@pytest.mark.parametrize("seed,placements", [(21, 5), (22, 30), (23, 50)])
def test_read_with_the_taught_pack(
    ink: IndigoPack, taught: IndigoPack, seed: int, placements: int
) -> None:
    frame = render_frame(state(seed, placements), ink, seed=seed, frame_size=FRAME)
    read = read_indigo(frame.image, taught)
    assert cell_errors(read, frame.truth) == []
    assert gem_misreads_unasked(read, frame.truth, taught) == []


def test_the_demo_pack_does_not_read_the_ink_board(ink: IndigoPack) -> None:
    """The reader leans on the pack, not on the demo art: the wrong pack refuses."""
    from vision.errors import FrameRefusedError

    frame = render_frame(state(24, 10), ink, seed=24, frame_size=FRAME)
    with pytest.raises(FrameRefusedError) as info:
        read_indigo(frame.image, load_indigo_pack())
    assert info.value.reason == "wrong-game"


def test_taught_pack_saves_and_loads(taught: IndigoPack, tmp_path: Path) -> None:
    taught.save(tmp_path / "pack")
    again = load_indigo_pack(tmp_path / "pack")
    assert again.name == "my pieces" and again.gems == taught.gems
    assert again.tiles[3].shape == taught.tiles[3].shape


def test_teach_from_files_checks_the_photo_count(ink: IndigoPack, tmp_path: Path) -> None:
    paths = []
    for k in range(5):
        p = tmp_path / f"t{k}.jpg"
        cv2.imwrite(str(p), render_teach_photo(ink, k, seed=30 + k))
        paths.append(p)
    pack = teach_from_files(paths)  # no pieces photo: colours come from the base pack
    assert pack.gems == load_indigo_pack().gems
    from vision.errors import UnreadableImageError

    with pytest.raises(UnreadableImageError):
        teach_from_files(paths[:3])
    with pytest.raises(ArtPackError):
        teach([], None)


def _inner_likeness(a: np.ndarray, b: np.ndarray) -> float:
    """Correlation of two pack images' grey levels inside the disc the reader compares."""
    size = a.shape[0]
    b = cv2.resize(b, (size, size), interpolation=cv2.INTER_AREA)
    inside = circle_mask(size, COMPARE_RADIUS * size / 2)
    x = cv2.cvtColor(a, cv2.COLOR_BGR2GRAY)[inside].astype(np.float64)
    y = cv2.cvtColor(b, cv2.COLOR_BGR2GRAY)[inside].astype(np.float64)
    return float(np.corrcoef(x, y)[0, 1])


@pytest.mark.parametrize("kind,scale,offset_mm,turn_deg", [
    (0, 1.05, (1.0, -0.7), 3.0),     # a sheet printed at 95%, the tile laid off the lines
    (3, 0.96, (-1.2, 0.5), -4.0),    # a sheet printed larger
])
def test_a_tile_laid_off_the_lines_is_taught_where_the_board_shows_it(
    ink: IndigoPack, kind: int, scale: float, offset_mm: tuple[float, float], turn_deg: float
) -> None:
    """The pack image is the tile centred, upright and at the cell's size, as the board shows
    it: a taught image that kept the hand's offset and the print's scale moved each turn's
    paths its own way (tile 0 turned once read as tile 1 with no question)."""
    photo = render_teach_photo(ink, kind, seed=40 + kind, tile_scale=scale,
                               tile_offset_mm=offset_mm, tile_turn_deg=turn_deg)
    taught = tile_image_from_photo(photo, teach_sheet().cell_radius_mm)
    laid_right = tile_image_from_photo(render_teach_photo(ink, kind, seed=40 + kind),
                                       teach_sheet().cell_radius_mm)
    assert _inner_likeness(taught, ink.tiles[kind]) > 0.9
    assert _inner_likeness(taught, laid_right) > 0.95
