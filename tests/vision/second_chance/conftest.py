"""Fixtures shared by the Second Chance vision tests: a recorded game, sheet contents from
seeded games, and the small helpers several test files read readings with."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.record import parse_record
from companion.second_chance.simulate import simulate_game
from vision.second_chance.synth.sheet import SheetContent, content_from_record

Cell = tuple[int, int]


@pytest.fixture(scope="session")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A recorded game of Ana and Ben (seed 8), as ``companion render sheet`` reads it."""
    path = tmp_path_factory.mktemp("sc") / "game.json"
    path.write_text(json.dumps(simulate_game(["Ana", "Ben"], rng=random.Random(8))))
    return path


def _sheet_content(seed: int, players: int = 2) -> SheetContent:
    record = parse_record(simulate_game(["Ana", "Ben", "Cleo"][:players], rng=random.Random(seed)))
    return content_from_record(record, "Ana")


@pytest.fixture(scope="session")
def sheet_content() -> Callable[..., SheetContent]:
    """``sheet_content(seed, players=2)``: Ana's sheet at the end of a seeded game of that
    many players (Ana, Ben, Cleo); the bench's sheet ``seed`` has ``2 + seed % 2``."""
    return _sheet_content


def _question_cells(reading: Any) -> set[Cell]:
    return {(r, c) for q in reading.questions for r, c in q["cells"]}


@pytest.fixture(scope="session")
def question_cells() -> Callable[[Any], set[Cell]]:
    """``question_cells(reading)``: every cell some question of a sheet reading names."""
    return _question_cells


def _border_scores(scored: dict[tuple[Cell, Cell], float]) -> tuple[np.ndarray, np.ndarray]:
    right, below = np.zeros((9, 8)), np.zeros((8, 9))
    for (a, b), score in scored.items():
        (right if a[0] == b[0] else below)[a] = score
    return right, below


@pytest.fixture(scope="session")
def border_scores() -> Callable[[dict[tuple[Cell, Cell], float]], tuple[np.ndarray, np.ndarray]]:
    """``border_scores({border: score})``: the (right, below) outline-score arrays of a sheet
    with those scores, 0 elsewhere."""
    return _border_scores
