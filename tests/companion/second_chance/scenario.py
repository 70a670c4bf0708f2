"""Build Second Chance records that reach a chosen grid, for the rule scenarios.

Every player starts with the 8 cells of row 4 from column 1, then fills the cells of a plan
with horizontal bars (at most 7 long), one bar per round, the two revealed cards being the bars
of two players. Plans are padded by splitting bars so that every player draws every round.
"""

from __future__ import annotations

from typing import Any

from companion.record import FORMAT

Cell = tuple[int, int]
START: list[Cell] = [(4, c) for c in range(1, 9)]


def bars(cells: set[Cell]) -> list[list[Cell]]:
    """Cover ``cells`` with horizontal runs of at most 7, row by row."""
    runs: list[list[Cell]] = []
    for r in range(9):
        run: list[Cell] = []
        for c in range(10):
            if (r, c) in cells and len(run) < 7:
                run.append((r, c))
                continue
            if run:
                runs.append(run)
            run = [(r, c)] if (r, c) in cells else []
    return runs


def _split_to(runs: list[list[Cell]], n: int) -> list[list[Cell]]:
    runs = [list(r) for r in runs]
    while len(runs) < n:
        longest = max(range(len(runs)), key=lambda i: len(runs[i]))
        run = runs.pop(longest)
        if len(run) < 2:
            raise ValueError("cannot split further")
        half = len(run) // 2
        runs[longest:longest] = [run[:half], run[half:]]
    return runs


def bar_text(run: list[Cell]) -> str:
    return "#" * len(run)


def cells_json(cells: list[Cell]) -> list[list[int]]:
    return [[r, c] for r, c in cells]


def filling_events(empties: dict[str, set[Cell]]) -> list[dict[str, Any]]:
    """Start events then rounds that leave each player exactly ``empties[player]`` empty.

    Works for 1 or 2 players (two cards a round).
    """
    names = list(empties)
    assert 1 <= len(names) <= 2
    events: list[dict[str, Any]] = [
        {"type": "start", "player": n, "cells": cells_json(START)} for n in names
    ]
    plans = {}
    for n in names:
        todo = {(r, c) for r in range(9) for c in range(9)} - set(START) - empties[n]
        plans[n] = bars(todo)
    rounds = max(len(p) for p in plans.values())
    plans = {n: _split_to(p, rounds) for n, p in plans.items()}
    for i in range(rounds):
        runs = [plans[n][i] for n in names]
        cards = [bar_text(runs[0]), bar_text(runs[-1])]
        events.append({"type": "reveal", "cards": cards})
        for k, n in enumerate(names):
            events.append({"type": "draw", "player": n, "card": k, "cells": cells_json(runs[k])})
    return events


def record(players: list[str], events: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    return {"format": FORMAT, "game": "second-chance", "players": players, "options": options,
            "events": events}
