"""The rules' check of a sheet read, on the Second Chance screen: each problem of
``companion.second_chance.check_sheet`` kept with its code and squares (its English message
for the log only), worded for the players in en/es/uk and its squares marked on the sheet."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import vision.second_chance.reader as sheet_reader
from companion.second_chance import SheetProblem, check_sheet, load_deck
from companion.second_chance.shapes import free_polyominoes
from ui.i18n import set_language
from ui.reading import SheetProblemSeen, read_sheet_frame

START = [(4, col) for col in range(8)]
#: what the screen says of a problem it has no wording for
UNKNOWN = {"en": "check the marked squares", "es": "revisa las casillas marcadas",
           "uk": "еревірте позначені клітинки"}


def _shape_not_in_deck(deck: Any) -> list[tuple[int, int]]:
    shape = next(s for size in (4, 5, 6) for s in free_polyominoes(size)
                 if deck.copies_of(s) == 0)
    return [(r, c) for r, c in shape.cells]


def _every_kind_of_problem() -> list[SheetProblem]:
    """The problems of real checks of sheets, one of every code the check documents."""
    deck = load_deck()
    card = min((shape for shape, _copies in deck.puzzle), key=lambda shape: shape.size)
    copies = deck.copies_of(card)
    twice = [[(r, c + 3 * i) for r, c in card.cells] for i in range(copies + 1)]
    odd = _shape_not_in_deck(deck)
    checks = [
        check_sheet([(0, 0), (0, 1), (9, 2)], bonus=(4, 4)),  # outside, centre-empty, bonus
        check_sheet(START, bonus=(9, 9)),  # the 1 off the grid
        check_sheet([*START[:7], *[(0, c) for c in range(9)]]),  # start-size, unsegmented
        check_sheet(START + [(0, 0), (0, 2)], shapes=[START, [(0, 0), (0, 2)]]),  # illegal
        check_sheet(START + [(0, 0)], shapes=[START, [(0, 0), (0, 1)]]),  # shape-cell-empty
        check_sheet(START + [(0, 0), (0, 1), (0, 2), (8, 8)],
                    shapes=[START, [(0, 0), (0, 1)], [(0, 1), (0, 2)]]),  # overlap, unassigned
        check_sheet(START + [(r + 6, c) for r, c in odd], deck=deck),  # not-in-deck
        check_sheet(START + [c for t in twice for c in t],
                    shapes=[START, *twice], deck=deck),  # too-many-copies
    ]
    return [p for check in checks for p in check.problems]


def _documented_codes() -> set[str]:
    return set(re.findall(r"``([a-z-]+)``", SheetProblem.__doc__ or "")) - {"code"}


def _seen(monkeypatch: pytest.MonkeyPatch, problems: list[SheetProblem]) -> list[Any]:
    """The problems as :func:`read_sheet_frame` hands them to the screen."""
    monkeypatch.setattr(sheet_reader, "read_sheet", lambda frame, *, settings, **_cards:
                        SimpleNamespace(
        filled=[], doubtful=[], questions=(), check=SimpleNamespace(problems=problems),
        cell_confidence=np.ones((9, 9)), confidence=1.0))
    return read_sheet_frame(object(), set(), cfg=None).problems


def test_a_problem_is_kept_with_its_code_squares_and_message(
        monkeypatch: pytest.MonkeyPatch) -> None:
    problems = check_sheet([(0, 0), (0, 1)]).problems
    assert [p.code for p in problems] == ["centre-empty"]  # the check as it is
    assert _seen(monkeypatch, list(problems)) == [SheetProblemSeen(
        code="centre-empty", cells=((4, 4),),
        message="the start tile must cover the centre square (the circle)")]


@pytest.mark.parametrize("language", ["en", "es", "uk"])
def test_every_problem_the_check_makes_is_worded_in_the_players_language(
        monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    from ui.screens.second_chance_words import problem_text

    problems = _every_kind_of_problem()
    assert {p.code for p in problems} == _documented_codes()
    seen = _seen(monkeypatch, problems)
    try:
        set_language(language)
        worded = {p.code + str(p.cells): problem_text(p) for p in seen}
    finally:
        set_language("en")
    english = {p.code + str(p.cells): p.message for p in problems}
    for key, text in worded.items():
        assert UNKNOWN[language] not in text, key  # a wording of its own
        assert text != english[key], key  # never the check's own English
    assert len(set(worded.values())) == len(worded)  # no two problems worded alike
    if language == "uk":
        assert not [t for t in worded.values() if re.search("[a-z]{3}", t)]


@pytest.mark.parametrize(("problem", "worded"), [
    (SheetProblemSeen("centre-empty", ((4, 4),)),
     "The start card must cover the centre square (the circle)"),
    (SheetProblemSeen("not-in-deck", ((7, 2), (6, 3), (6, 2))),
     "Near row 7, column 3: no card has the shape of the marked squares"),
    (SheetProblemSeen("bonus", ((4, 4),)), "The 1 is on the centre, where the start card must be"),
    (SheetProblemSeen("bonus", ((9, 9),)), "The 1 is off the grid"),
    (SheetProblemSeen("outside", ((9, 2),)), "Squares filled outside the grid"),
    (SheetProblemSeen("smudge", ((1, 1),)),  # a code the screen does not know yet
     "Near row 2, column 2: please check the marked squares"),
    (SheetProblemSeen("smudge"), "Please check the marked squares"),
])
def test_a_problem_says_near_which_square_counted_from_1(problem: Any, worded: str) -> None:
    from ui.screens.second_chance_words import problem_text

    assert problem_text(problem) == worded


def _round_screen(driver: Any, language: str) -> Any:
    driver.screen("settings").change("app", "language", language)
    driver.tap(driver.screen("home").ids.game_second_chance)
    driver.tap(driver.screen("setup").ids.start_button)
    return driver.screen("second_chance")


@pytest.mark.ui
@pytest.mark.parametrize(("size", "language", "worded"), [
    # beside the sheet one thing to check is worded (a question first), the others counted
    ((800, 480), "en", "The camera sees 2 new squares. Near row 9, column 8: is there an "
                       "outline between the marked squares? (+2 more)"),
    ((800, 480), "uk", "Камера бачить 2 нові клітинки. Біля рядка 9, стовпця 8: чи є лінія "
                       "контуру між позначеними клітинками? (+ще 2)"),
    # under the sheet two
    ((720, 1280), "en", "The camera sees 2 new squares\nNear row 9, column 8: is there an "
                        "outline between the marked squares?\nThe start card must cover the "
                        "centre square (the circle) (+1 more)"),
])
def test_the_screen_words_the_problems_and_marks_their_squares(
        make_driver: Any, size: tuple[int, int], language: str, worded: str) -> None:
    from ui.reading import SheetQuestion

    driver = make_driver(size=size)
    try:
        screen = _round_screen(driver, language)
        reading = SimpleNamespace(
            new_cells=[(0, 0), (0, 1)], missing=[], doubtful=[],
            questions=[SheetQuestion("split", ((8, 7), (8, 8)))],
            problems=[SheetProblemSeen("centre-empty", ((4, 4),), "the start tile must ..."),
                      SheetProblemSeen("not-in-deck", ((0, 0), (0, 1)), "no card of the ..."),
                      # on squares a question asks about: the question settles it
                      SheetProblemSeen("illegal-shape", ((8, 7), (8, 8)), "a tile ...")])
        screen._read_done(reading, None)
        driver.pump(2)
        assert screen.status == worded
        marked = {tuple(c) for c in screen.ids.sheet.doubtful}
        assert marked == {(4, 4), (0, 0), (0, 1), (8, 7), (8, 8)}
        assert screen.ids.sheet.ghost == []
    finally:
        driver.screen("settings").change("app", "language", "en")


@pytest.mark.ui
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_problems_without_questions_are_worded_first_and_the_panel_still_fits(
        make_driver: Any, size: tuple[int, int]) -> None:
    from test_layout_text_fits import parts_outside, spilling_labels

    driver = make_driver(size=size, start_camera=True)  # a sheet is read with the camera on
    try:
        screen = _round_screen(driver, "uk")
        screen.ids.sheet.selected = [list(c) for c in START]
        screen.enter_start()
        driver.set_size(size)
        screen.view(screen.viewer)
        screen._read_done(SimpleNamespace(
            new_cells=[(0, 0), (0, 1)], missing=[(4, 0)], doubtful=[], questions=[],
            problems=[SheetProblemSeen("not-in-deck", ((0, 0), (0, 1)), "no card of the ..."),
                      SheetProblemSeen("too-many-copies", ((0, 0), (0, 1), (2, 2), (2, 3)),
                                       "2 tiles '##' drawn, the deck has 1 such card(s)")]),
            None)
        driver.pump(3)
        assert "Біля рядка 1, стовпця 1: жодна карта не має форми позначених клітинок" \
            in screen.status
        panel = screen.ids.panel
        outside = parts_outside(panel)
        assert not outside
        assert not spilling_labels(driver.app.root)
    finally:
        driver.screen("settings").change("app", "language", "en")
