"""The sheet read that the Second Chance screen shows: the reader's questions kept as asked
(kind, squares, its message), for the screen to word."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import vision.second_chance.reader as sheet_reader
from ui.reading import SheetProblemSeen, SheetQuestion, read_sheet_frame
from vision.second_chance.settings import DEFAULT_SETTINGS


def test_questions_are_kept_with_their_kind_and_squares_and_config_is_passed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: dict[str, Any] = {}

    def fake_read_sheet(frame: Any, *, settings: Any, choices: Any = None,
                        one_possible: bool = True) -> Any:
        seen["settings"] = settings
        seen["choices"], seen["one_possible"] = choices, one_possible
        return SimpleNamespace(
            filled=[(4, 4), (4, 5)],
            doubtful=[(0, 0)],
            questions=({"kind": "cell", "cells": [[0, 0]],
                        "message": "is cell [0, 0] filled? the marks are not clear"},),
            check=SimpleNamespace(problems=[]),
            cell_confidence=np.full((9, 9), 0.9), confidence=0.7,
        )

    monkeypatch.setattr(sheet_reader, "read_sheet", fake_read_sheet)
    cards = (frozenset({"##"}),)
    result = read_sheet_frame(object(), {(4, 4)}, cfg=None, choices=cards, one_possible=False)
    assert seen["choices"] == cards and seen["one_possible"] is False
    assert result.questions == [SheetQuestion(
        kind="cell", cells=((0, 0),), message="is cell [0, 0] filled? the marks are not clear",
        square=(0, 0))]
    assert result.new_cells == [(4, 5)] and result.doubtful == [(0, 0)]
    assert seen["settings"] == DEFAULT_SETTINGS
    # a square is never surer than the sheet it is on
    assert len(result.cell_confidence) == 81
    assert set(result.cell_confidence.values()) == {0.7}


def _read_with(monkeypatch: pytest.MonkeyPatch, filled: list[tuple[int, int]],
               questions: list[dict[str, Any]], problems: list[Any] = ()) -> Any:
    monkeypatch.setattr(sheet_reader, "read_sheet", lambda frame, *, settings, **_cards:
                        SimpleNamespace(
        filled=filled, doubtful=[tuple(c) for q in questions for c in q["cells"]],
        questions=tuple(questions), check=SimpleNamespace(problems=list(problems)),
        cell_confidence=np.ones((9, 9)), confidence=1.0))
    return read_sheet_frame(object(), set(), cfg=None)


def test_a_cell_question_asks_about_its_first_square_the_tiles_beside_it_follow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the reader's doubtful cell (3, 3), read empty, then the tile next to it, read filled
    result = _read_with(monkeypatch, [(3, 4), (3, 5)], [
        {"kind": "cell", "cells": [[3, 3], [3, 4], [3, 5]],
         "message": "is cell [3, 3] filled? the marks are not clear"}])
    assert result.questions[0].square == (3, 3)
    assert result.questions[0].cells == ((3, 3), (3, 4), (3, 5))


def test_a_cell_question_about_many_empty_squares_names_none_of_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    result = _read_with(monkeypatch, [(3, 4)], [
        {"kind": "cell", "cells": [[0, 0], [0, 1], [3, 4]],
         "message": "9 cells are unclear, so the empty ones may be misread too: are these "
                    "cells empty?"}])
    assert result.questions[0].square is None


def test_split_outline_and_bonus_questions_keep_their_squares_and_problems_theirs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    questions = [
        {"kind": "split", "cells": [[0, 0], [0, 1], [0, 2]],
         "message": "is there an outline between [0, 0] and [0, 1]? the drawing does not show "
                    "it clearly"},
        {"kind": "outline", "cells": [[2, 2], [2, 3]],
         "message": "an outline between [2, 2] and [2, 3] does not close: are these one tile "
                    "or several?"},
        {"kind": "bonus", "cells": [[7, 7]],
         "message": "is there a handwritten 1 here? the marks look a little like one"},
    ]
    problem = SimpleNamespace(code="illegal-shape", message="not a tile", cells=((0, 0), (0, 1)))
    result = _read_with(monkeypatch, [(0, 0), (0, 1), (0, 2), (2, 2), (2, 3)], questions,
                        [problem])
    assert [(q.kind, q.cells, q.square) for q in result.questions] == [
        ("split", ((0, 0), (0, 1), (0, 2)), None),
        ("outline", ((2, 2), (2, 3)), None),
        ("bonus", ((7, 7),), None),
    ]
    assert [q.message for q in result.questions] == [q["message"] for q in questions]
    assert result.problems == [SheetProblemSeen(code="illegal-shape", cells=((0, 0), (0, 1)),
                                                message="not a tile")]
