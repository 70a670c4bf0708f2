"""The reader with the publisher's own tile art (scans in ../shared, used at test time only,
never copied into the repository). Skipped when the shared data is absent."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from indigo_scenes import FRAME, cell_errors, state

from tests.conftest import SHARED
from vision.indigo.pack import IndigoPack, load_indigo_pack
from vision.indigo.reader import read_indigo
from vision.indigo.synth.render import render_frame
from vision.indigo.synth.teach_photo import render_teach_photo
from vision.indigo.teach import teach

SCANS = SHARED / "data" / "indigo-images" / "yigitBaysoyu__Indigo.boardGame"
#: file -> the rotation it shows (SOURCES.md): all five are at rotation 1
ROTATION = {f"TileType{k}.png": 1 for k in range(5)}

pytestmark = pytest.mark.skipif(not SCANS.is_dir(), reason="shared publisher scans not present")


def _square_at_rotation_0(path: str, rotation: int) -> np.ndarray:
    img = cv2.imread(str(SCANS / path), cv2.IMREAD_UNCHANGED)
    assert img is not None, path
    if img.shape[2] == 4:
        alpha = img[:, :, 3:4].astype(np.float32) / 255
        img = (img[:, :, :3] * alpha + 128 * (1 - alpha)).astype(np.uint8)
    h, w = img.shape[:2]
    square = np.full((h, h, 3), 128, np.uint8)
    square[:, (h - w) // 2 : (h - w) // 2 + w] = img
    # turn back (counter-clockwise) to rotation 0
    m = cv2.getRotationMatrix2D(((h - 1) / 2, (h - 1) / 2), 60 * rotation, 1.0)
    return cv2.resize(cv2.warpAffine(square, m, (h, h), borderValue=(128, 128, 128)), (128, 128),
                      interpolation=cv2.INTER_AREA)


@pytest.fixture(scope="module")
def publisher() -> IndigoPack:
    demo = load_indigo_pack()
    tiles = {k: _square_at_rotation_0(f"TileType{k}.png", 1) for k in range(5)}
    return replace(demo, name="publisher-scans", folder=None, tiles=tiles)


@pytest.mark.parametrize("seed,placements", [(31, 15), (32, 40)])
def test_reads_boards_drawn_with_the_publishers_tiles(publisher: IndigoPack, seed: int,
                                                       placements: int) -> None:
    frame = render_frame(state(seed, placements), publisher, seed=seed, frame_size=FRAME)
    read = read_indigo(frame.image, publisher)
    assert cell_errors(read, frame.truth) == []


def test_teach_from_photos_of_the_publishers_tiles(publisher: IndigoPack) -> None:
    photos = [render_teach_photo(publisher, k, seed=40 + k) for k in range(5)]
    taught = teach(photos, None)
    frame = render_frame(state(33, 30), publisher, seed=33, frame_size=FRAME)
    read = read_indigo(frame.image, taught)
    assert cell_errors(read, frame.truth) == []


def test_the_scans_turned_to_rotation_0_match_the_rules_patterns(publisher: IndigoPack) -> None:
    """Our drawings and the publisher's art agree on which pattern is which (sanity check of
    the turn applied above: the reader itself never compares two packs)."""
    from vision.indigo.model import pack_model

    ours = pack_model(load_indigo_pack(), 16).templates[:-1]
    theirs = pack_model(publisher, 16).templates[:-1]
    similarity = ours @ theirs.T
    assert int((np.argmax(similarity, axis=1) == np.arange(15)).sum()) >= 14
