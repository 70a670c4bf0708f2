"""check_sheet: what the camera reader and the manual entry screen rely on."""

from __future__ import annotations

import json

from companion.second_chance import Grid, check_sheet, load_deck

START = [(4, c) for c in range(1, 9)]


def test_a_clean_sheet_without_outlines() -> None:
    report = check_sheet(START + [(0, 0), (0, 1), (1, 0), (8, 8)])
    assert report.ok and report.is_segmented
    assert report.empty == 81 - 12 and report.start_covers_centre
    assert [(s.shape, s.is_start) for s in report.shapes] == [
        ("##/#.", False), ("########", True), ("#", False)
    ]
    data = report.to_json()
    json.dumps(data)
    assert data["grid"][0] == "##......." and data["bonus"] is None


def test_touching_tiles_without_outlines_are_unsegmented_not_illegal() -> None:
    report = check_sheet(START + [(3, 1), (3, 2)] + [(0, c) for c in range(9)])
    codes = [p.code for p in report.problems]
    assert codes.count("unsegmented") == 2
    assert not report.is_segmented and len(report.unsegmented) == 2
    assert "illegal-shape" not in codes


def test_outlined_shapes_are_checked_one_by_one() -> None:
    nine = [(0, c) for c in range(9)]
    report = check_sheet(START + nine + [(2, 0), (2, 2)],
                         shapes=[START, nine[:4], nine[4:], [(2, 0), (2, 2)]])
    problems = {p.code: p for p in report.problems}
    assert set(problems) == {"illegal-shape"}
    assert problems["illegal-shape"].cells == ((2, 0), (2, 2))
    assert [s.shape for s in report.shapes if s.is_legal] == ["####", "#####", "########"]


def test_outline_problems_overlap_unassigned_and_empty() -> None:
    report = check_sheet(START + [(0, 0), (0, 1), (7, 7)],
                         shapes=[START, [(0, 0), (0, 1), (0, 2)], [(0, 1)]])
    codes = {p.code: p.cells for p in report.problems}
    assert codes["shape-cell-empty"] == ((0, 2),)
    assert codes["overlap"] == ((0, 1),)
    assert codes["unassigned"] == ((7, 7),)


def test_the_start_must_cover_the_centre_and_have_8_cells() -> None:
    top_row = [(0, c) for c in range(8)]
    report = check_sheet(top_row)
    assert not report.start_covers_centre
    assert [p.code for p in report.problems] == ["unsegmented", "centre-empty"]
    report = check_sheet(top_row, shapes=[top_row])
    assert [p.code for p in report.problems] == ["centre-empty", "illegal-shape"]
    report = check_sheet(START[:6])
    assert report.start_covers_centre
    assert [p.code for p in report.problems] == ["start-size"]


def test_cells_outside_the_grid_and_the_bonus() -> None:
    report = check_sheet(START + [(9, 0), (-1, 3)], bonus=(8, 8))
    assert report.outside == ((-1, 3), (9, 0))
    assert report.bonus == (8, 8) and report.empty == 81 - 9
    assert report.grid.rows()[8] == "........1"
    assert [p.code for p in report.problems] == ["outside"]
    grid = Grid.from_cells(START, bonus=(0, 0))
    assert check_sheet(grid).bonus == (0, 0) and check_sheet(grid).empty == 72
    assert [p.code for p in check_sheet(START, bonus=(4, 4)).problems][0] == "bonus"


def test_with_a_deck_every_tile_must_be_a_card() -> None:
    deck = load_deck()
    start = deck.start_tiles[0].shape
    r0, c0 = start.cells[0]
    start_cells = [(r - r0 + 4, c - c0 + 4) for r, c in start.cells]
    singles = deck.copies_of("#")
    monos = [(0, 2 * i) for i in range(singles + 1)]
    report = check_sheet(start_cells + monos + [(8, 0), (8, 1), (8, 2), (7, 0), (7, 2)],
                         deck=deck)
    codes = [p.code for p in report.problems]
    assert codes == ["not-in-deck", "too-many-copies"]
    u_shape = [s for s in report.shapes if s.shape == "###/#.#"]
    assert u_shape and u_shape[0].in_deck is False and not u_shape[0].is_legal
    starts = [s for s in report.shapes if s.is_start]
    assert starts and starts[0].in_deck is True
