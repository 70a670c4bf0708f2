"""The sheet read that the Second Chance screen shows: the reader's questions as its words."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

import vision.sheet_reader as sheet_reader
from ui.reading import read_sheet_frame


def test_questions_are_shown_as_the_readers_message_and_config_is_passed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: dict[str, Any] = {}

    def fake_read_sheet(frame: Any, cfg: Any) -> Any:
        seen["cfg"] = cfg
        return SimpleNamespace(
            filled=[(4, 4), (4, 5)],
            doubtful=[(0, 0)],
            questions=({"kind": "cell", "cells": [[0, 0]],
                        "message": "is cell [0, 0] filled? the marks are not clear"},),
            check=SimpleNamespace(problems=[]),
        )

    monkeypatch.setattr(sheet_reader, "read_sheet", fake_read_sheet)
    result = read_sheet_frame(object(), {(4, 4)}, cfg=None)
    assert result.questions == ["is cell [0, 0] filled? the marks are not clear"]
    assert result.new_cells == [(4, 5)] and result.doubtful == [(0, 0)]
    assert seen["cfg"] == sheet_reader.reader_config(None)
