"""The sheet reader's questions on the Second Chance screen: worded for the players in their
language, with the squares of each marked on the sheet to check (never as the green "fits"
placement, which Draw it would take as the drawing)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from ui.reading import SheetQuestion

pytestmark = pytest.mark.ui

START = [(4, col) for col in range(8)]
#: two tiles drawn side by side in the top row with no outline around either: the reader
#: cannot tell where one ends, so it asks
UNOUTLINED = (((0, 0), (0, 1), (0, 2)), ((0, 3), (0, 4), (0, 5), (0, 6), (0, 7)))
#: the split question as each language words it (its first square is row 1, column 1)
SPLIT_WORDED = {
    "en": "Near row 1, column 1: is there an outline between the marked squares?",
    "es": "Cerca de la fila 1, columna 1: ¿hay un borde dibujado entre las casillas marcadas?",
    "uk": "Біля рядка 1, стовпця 1: чи є лінія контуру між позначеними клітинками?",
}


def _sheet_screen(driver: Any, language: str) -> Any:
    """A game of the setup's players in ``language`` at its first round (where a drawing is
    read): the start cards entered, two cards turned up."""
    driver.screen("settings").change("app", "language", language)
    driver.tap(driver.screen("home").ids.game_second_chance)
    driver.tap(driver.screen("setup").ids.start_button)
    screen = driver.screen("second_chance")
    for player in driver.app.session.players:
        screen.view(player)
        screen.ids.sheet.selected = [list(c) for c in START]
        screen.enter_start()
    screen.rng.seed(5)
    screen.reveal_random()
    screen.view(driver.app.session.players[0])
    return screen


def _rendered_sheet_without_outlines() -> Any:
    from vision.second_chance.synth.sheet import SheetContent, render_sheet

    content = SheetContent(tiles=(tuple(START), *UNOUTLINED))
    return render_sheet(content, style="pencil", seed=3, effects=[], outline_probability=0.0,
                        fills=["hatch"], erasures=0).image


@pytest.mark.parametrize("language", ["en", "es", "uk"])
def test_a_split_question_of_a_rendered_sheet_is_worded_and_its_squares_marked(
        make_driver: Any, language: str) -> None:
    driver = make_driver()
    try:
        screen = _sheet_screen(driver, language)
        driver.app.last_frame = _rendered_sheet_without_outlines()
        screen.read_sheet()  # the real reader, on a worker thread
        reading = screen.status
        assert driver.wait_for(lambda: screen.status != reading, frames=900), screen.status
        drawn = sorted(c for tile in UNOUTLINED for c in tile)
        assert sorted(map(tuple, screen.selection())) == drawn  # the new drawing, to enter
        assert SPLIT_WORDED[language] in screen.status
        # neither the reader's own English nor the rules' check of the shape read (8 cells in
        # a row, no card), which the question settles
        assert "which no tile can be" not in screen.status
        assert "has 8 cells" not in screen.status
        sheet = screen.ids.sheet
        assert set(drawn) <= set(map(tuple, sheet.doubtful))
        assert sheet.ghost == []
        driver.screenshot(f"second-chance-question-{language}")
    finally:
        driver.screen("settings").change("app", "language", "en")


def _reading(*questions: SheetQuestion, doubtful: tuple[tuple[int, int], ...] = ()) -> Any:
    return SimpleNamespace(new_cells=[(4, 3), (4, 4)], missing=[], doubtful=list(doubtful),
                           questions=list(questions), problems=[], problem_cells=[])


@pytest.mark.parametrize(("size", "status"), [
    ((800, 480), "The camera sees 2 new squares. Is the square at row 5, column 6 filled? "
                 "(+4 more)"),
    ((720, 1280), "The camera sees 2 new squares\nIs the square at row 5, column 6 filled?\n"
                  "Near row 3, column 3: an outline does not close. One shape or several? "
                  "(+3 more)"),
])
def test_every_question_marks_its_squares_and_the_first_are_worded(
        make_driver: Any, size: tuple[int, int], status: str) -> None:
    driver = make_driver(size=size)
    screen = _sheet_screen(driver, "en")
    questions = [
        SheetQuestion("outline", ((2, 2), (2, 3)), "an outline between [2, 2] and [2, 3] ..."),
        SheetQuestion("bonus", ((7, 7),), "is there a handwritten 1 here? ..."),
        SheetQuestion("cell", ((4, 5), (4, 3), (4, 4)), "is cell [4, 5] filled? ...",
                      square=(4, 5)),
        SheetQuestion("orientation", (), "which side of the sheet is up? ..."),
    ]
    screen._read_done(_reading(*questions, doubtful=((0, 8),)), None)
    # the question about the new drawing ((4, 3) and (4, 4)) first, then the reader's order,
    # then the doubtful square no question is about: one worded beside the sheet, two under
    # it, the rest counted
    assert screen.status == status
    marked = {tuple(c) for c in screen.ids.sheet.doubtful}
    assert marked == {(2, 2), (2, 3), (7, 7), (4, 5), (4, 3), (4, 4), (0, 8)}
    assert screen.ids.sheet.ghost == []
    screen.view(screen.viewer)  # another look (or player) clears the marks
    assert screen.ids.sheet.doubtful == []


@pytest.mark.parametrize(("question", "worded"), [
    (SheetQuestion("cell", ((0, 8), (0, 6), (0, 7)), square=(0, 8)),
     "Is the square at row 1, column 9 filled?"),
    (SheetQuestion("cell", ((0, 0), (0, 1), (8, 8))),
     "Are the marked squares that look empty really empty?"),
    (SheetQuestion("split", ((6, 2), (5, 3), (5, 2))),
     "Near row 6, column 3: is there an outline between the marked squares?"),
    (SheetQuestion("bonus", ((2, 6),)), "Is there a handwritten 1 at row 3, column 7?"),
    (SheetQuestion("bonus", ((2, 6), (3, 1))), "Which marked square has the handwritten 1?"),
    (SheetQuestion("orientation"), "Which side of the sheet is up? The title is not clear"),
    (SheetQuestion("smudge", ((1, 1),)),
     "Near row 2, column 2: please check the marked squares"),  # a kind the screen does
    # not know yet
])
def test_each_kind_of_question_is_worded_in_1_based_rows_and_columns(
        question: SheetQuestion, worded: str) -> None:
    from ui.screens.second_chance_words import question_text

    assert question_text(question) == worded


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("language", ["es", "uk"])
def test_the_longest_questions_fit_in_the_longest_languages(
        make_driver: Any, language: str, size: tuple[int, int]) -> None:
    from test_layout_text_fits import (
        english_only_words,
        english_texts,
        parts_outside,
        spilling_labels,
    )

    driver = make_driver(size=size, start_camera=True)  # a sheet is read with the camera on
    try:
        screen = _sheet_screen(driver, language)
        driver.set_size(size)
        panel = screen.ids.panel
        for first, second in [("split", "outline"), ("cell", "bonus"), ("orientation", "cell")]:
            screen._read_done(SimpleNamespace(
                new_cells=[(4, 8)], missing=[(4, 0)], doubtful=[(3, 3)], problems=[],
                questions=[SheetQuestion(first, ((8, 7), (8, 8))),
                           SheetQuestion(second, ((7, 8),), square=(7, 8)),
                           SheetQuestion("split", ((0, 0), (0, 1)))]), None)
            driver.pump(3)
            assert screen.status.endswith(")")  # the rest counted
            root = driver.app.root
            assert not spilling_labels(root), (first, second)
            assert not english_texts(root, english_only_words()), (first, second)
            # nothing in the panel is pushed out of it (over the tabs or off the screen)
            outside = parts_outside(panel)
            assert not outside, (first, second)
    finally:
        driver.screen("settings").change("app", "language", "en")
