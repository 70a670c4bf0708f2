"""Issue 19 for the Enigma table reader: a picture beyond it is refused, a table that does not
look like the pack is asked about, never read wrong with confidence. Through the app's path
(``ui.reading.read_enigma_frame``) where the app would apply a read."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from companion.enigma.catalogue import load_catalogue
from config import Config
from vision.enigma.reader import read_enigma
from vision.enigma.synth.render import TableView, render_frame
from vision.enigma.synth.scenes import categories_of, random_record
from vision.enigma.synth.truth import score_read
from vision.errors import FrameRefusedError
from vision.synth.conditions import apply_condition

FRAME = (1920, 1080)
TILES = 10


def _table(pack: Any, seed: int) -> tuple[Any, Any, dict[str, Any]]:
    """A table of ``TILES`` tiles drawn with ``pack``, the state before its last tile was
    placed and that placement (the app's read finds the one new tile)."""
    record, after = random_record(seed, tiles=TILES)
    _, before = random_record(seed, tiles=TILES - 1)
    view = TableView.of_state(after, pack, categories=categories_of(record))
    rendered = render_frame(view, pack, seed=seed, frame_size=FRAME)
    last = [e for e in record["events"] if e.get("type") == "place"][-1]
    return rendered, before, last


def _app_read(image: np.ndarray, before: Any, last: dict[str, Any], pack: Any) -> Any:
    from ui.reading import read_enigma_frame

    catalogue = load_catalogue()
    category = catalogue.entry(last["tile_id"]).category
    return read_enigma_frame(image, Config(), before, category=category, catalogue=catalogue,
                             pack=pack)


def _vouched_wrong(read: Any, rendered: Any) -> int:
    """Tiles read wrong, or where there is none, at the app's threshold or above."""
    score = score_read(rendered.truth, rendered.cell_xy, read, min_confidence=0.85)
    truth_at = {(t["at"][0], t["at"][1]) for t in rendered.truth["tiles"]}
    invented = [at for at, t in read.tiles.items() if at not in truth_at and t.confidence >= 0.85]
    return int(score.confident_wrong) + len(invented)


@pytest.fixture(scope="module")
def demo_table(demo_pack) -> tuple[Any, Any, dict[str, Any]]:
    return _table(demo_pack, 1002)


@pytest.mark.parametrize("condition,reason", [("grayscale", "no-colour"),
                                              ("infrared", "no-colour")])
def test_a_table_without_colour_is_refused_not_read_with_invented_tiles(
        condition: str, reason: str, demo_pack, demo_table) -> None:
    # before the picture check, a grayscale table read as 186 tiles, most of them invented,
    # many at confidence 1.0: cells and networkers are told apart by colour alone
    rendered, before, last = demo_table
    image = apply_condition(rendered.image, condition, 0.9, np.random.default_rng(1002))
    with pytest.raises(FrameRefusedError) as info:
        _app_read(image, before, last, demo_pack)
    assert info.value.reason == reason


def test_a_burnt_out_table_is_refused(demo_pack, demo_table) -> None:
    rendered, before, last = demo_table
    burnt = np.clip(rendered.image.astype(np.float32) * 3.0 + 10, 0, 255).astype(np.uint8)
    with pytest.raises(FrameRefusedError) as info:
        _app_read(burnt, before, last, demo_pack)
    assert info.value.reason == "overexposed"


def test_a_table_overexposed_within_the_picture_limits_is_asked_not_read_wrong(
        demo_pack, demo_table) -> None:
    # few pixels burn out, yet the brown channels turn yellow and read as cells: tiles
    # were read blank or wrong at confidence 0.93; the start tile's drawing no longer has
    # the pack's colours, so every tile is asked about
    rendered, before, last = demo_table
    image = apply_condition(rendered.image, "overexposed", 0.9,
                            np.random.default_rng([1002, 9, 11]))
    read = read_enigma(image, demo_pack)
    assert not read.pack_fits
    assert _vouched_wrong(read, rendered) == 0
    reading = _app_read(image, before, last, demo_pack)
    assert reading.questions and reading.questions[0].code == "pack"


def test_tiles_drawn_unlike_the_pack_are_asked_about_as_the_packs(demo_pack, ink_pack) -> None:
    rendered, before, last = _table(ink_pack, 1001)
    read = read_enigma(rendered.image, demo_pack)
    assert not read.pack_fits
    assert all(t.confidence < 0.85 for t in read.tiles.values())
    assert "do not look like the ones the camera was taught" in read.questions[0]


def test_a_clean_table_fits_its_pack_and_keeps_its_confidences(demo_pack, demo_table) -> None:
    rendered, _, _ = demo_table
    read = read_enigma(rendered.image, demo_pack)
    assert read.pack_fits
    assert _vouched_wrong(read, rendered) == 0
    assert max(t.confidence for t in read.tiles.values()) == pytest.approx(1.0)


@pytest.mark.ui  # the screen's module imports Kivy, which the Pi-floor stage does not install
def test_the_screen_words_the_picture_refusals_and_the_pack_question() -> None:
    from ui.reading import ReadingQuestion
    from ui.screens.enigma_words import enigma_questions_text, enigma_refusal_text

    refused = FrameRefusedError("the picture is without colour", reason="no-colour")
    assert "colour camera" in enigma_refusal_text(refused)
    # a refusal of the table, not of the picture, is worded too, never the reader's English
    other = FrameRefusedError("no start tile near the middle", reason="no-start-tile")
    assert "near the middle" not in enigma_refusal_text(other)
    assert "start tile" in enigma_refusal_text(other)
    assert "teach" in enigma_questions_text([ReadingQuestion("pack", message="x")])
