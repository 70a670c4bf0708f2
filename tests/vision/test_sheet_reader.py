"""The Second Chance sheet reader on rendered sheets: cells, tiles, the 1, questions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from companion.record import parse_record
from companion.second_chance.deck import load_deck
from companion.second_chance.simulate import simulate_game
from vision.errors import FrameRefusedError
from vision.sheet_reader import read_sheet
from vision.sheet_render import SheetContent, content_from_record, render_sheet


def _content(seed: int, players: int = 2) -> SheetContent:
    record = parse_record(simulate_game(["Ana", "Ben", "Cleo"][:players], rng=random.Random(seed)))
    return content_from_record(record, "Ana")


def _question_cells(reading) -> set[tuple[int, int]]:  # type: ignore[no-untyped-def]
    return {(r, c) for q in reading.questions for r, c in q["cells"]}


@pytest.mark.parametrize("markers", [True, False])
def test_a_clean_sheet_reads_exactly(markers: bool) -> None:
    content = _content(3)
    rendered = render_sheet(content, style="pen", seed=11, markers=markers, effects=[],
                            bend=0.0, crease=0.0, erasures=0)
    reading = read_sheet(rendered.image)
    truth = content.truth()
    assert list(reading.grid_rows) == truth["grid"]
    assert reading.method == ("markers" if markers else "frame")
    assert sorted(reading.shapes) == sorted(tuple(map(tuple, s["cells"])) for s in truth["shapes"])
    assert reading.bonus == content.bonus
    data = reading.to_json()
    assert set(data) >= {"grid", "shapes", "empty", "bonus", "problems", "questions"}
    assert data["empty"] == truth["empty"]
    assert [s["shape"] for s in data["shapes"]] == [s["shape"] for s in truth["shapes"]]


@pytest.mark.parametrize(("seed", "style"), [(0, "pencil"), (1, "pen"), (2, "colour"),
                                             (7, "pen"), (11, "colour"), (12, "pencil")])
def test_under_camera_effects_no_cell_is_wrong_without_a_question(seed: int, style: str) -> None:
    content = _content(seed, 2 + seed % 2)
    rendered = render_sheet(content, style=style, seed=seed, markers=seed % 4 != 3)
    reading = read_sheet(rendered.image)
    truth = content.truth()["grid"]
    asked = _question_cells(reading)
    wrong = [(r, c) for r in range(9) for c in range(9) if reading.grid_rows[r][c] != truth[r][c]]
    assert all(cell in asked for cell in wrong), (wrong, reading.questions)
    assert len(wrong) <= 2
    if content.bonus is not None:
        assert reading.bonus == content.bonus or content.bonus in asked


def test_erased_traces_are_empty() -> None:
    content = SheetContent(tiles=(tuple((4, c) for c in range(1, 9)),), bonus=None)
    rendered = render_sheet(content, style="pencil", seed=5, effects=[], erasures=6)
    erased = [tuple(c) for c in rendered.log["erased"]]
    assert len(erased) == 6
    reading = read_sheet(rendered.image)
    for r, c in erased:
        assert reading.grid_rows[r][c] == "."
    assert reading.check.empty == 73


def test_tiles_without_outlines_are_asked_about_not_guessed() -> None:
    # two tiles side by side, filled alike, no outlines: one blob of 8 cells off the centre
    tiles = (tuple((4, c) for c in range(1, 9)), ((0, 0), (0, 1), (0, 2)),
             ((0, 3), (0, 4), (0, 5), (0, 6), (0, 7)))
    content = SheetContent(tiles=tiles)
    rendered = render_sheet(content, style="pencil", seed=3, effects=[], outline_probability=0.0,
                            fills=["hatch"], erasures=0)
    reading = read_sheet(rendered.image)
    top = {(0, c) for c in range(8)}
    if not any(set(map(tuple, q["cells"])) >= top for q in reading.questions):
        # the blob was read as one tile: then the check flags it, never a silent legal split
        assert any(p.code in ("illegal-shape", "unsegmented") and set(p.cells) >= top
                   for p in reading.check.problems)


def test_a_deck_flags_tiles_that_are_no_card() -> None:
    deck = load_deck()
    content = SheetContent(tiles=(tuple((4, c) for c in range(1, 9)),
                                  ((0, 0), (0, 2), (1, 0), (1, 1), (1, 2))))
    rendered = render_sheet(content, style="pen", seed=2, effects=[])
    reading = read_sheet(rendered.image, deck=deck)
    codes = [p.code for p in reading.check.problems]
    assert "not-in-deck" in codes  # the U pentomino and the straight start are not in the demo


def test_a_frame_without_a_sheet_is_refused() -> None:
    table = np.full((480, 640, 3), 120, np.uint8)
    with pytest.raises(FrameRefusedError) as info:
        read_sheet(table)
    assert info.value.exit_code == 4
