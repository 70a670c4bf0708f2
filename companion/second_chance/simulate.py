"""Seeded random play that writes legal game records: test corpora, renderer input, benchmarks.

Each player chooses at random among the cards that fit, preferring placements that touch the
tiles already drawn (as people do). Every event is applied through the engine as it is made,
so a record from here always replays.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.record import FORMAT
from companion.second_chance.deck import Deck, load_deck
from companion.second_chance.grid import CENTRE, SIZE, Grid, Placement, placements
from companion.second_chance.rules import RULES, SecondChanceState
from companion.second_chance.shapes import Cell, Shape


def _touching(grid: Grid, cells: Placement) -> int:
    count = 0
    for r, c in cells:
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < SIZE and 0 <= nc < SIZE and grid.is_filled((nr, nc)):
                count += 1
    return count


def _choose_placement(rng: random.Random, grid: Grid, shape: Shape) -> Placement | None:
    options = placements(grid, shape)
    if not options:
        return None
    best = max(_touching(grid, p) for p in options)
    # Mostly snug, sometimes anywhere: real sheets have both.
    pool = [p for p in options if _touching(grid, p) == best] if rng.random() < 0.85 else options
    return rng.choice(pool)


def _start_cells(rng: random.Random, shape: Shape) -> list[Cell]:
    orient = rng.choice(shape.orientations())
    anchors = list(orient.cells)
    rng.shuffle(anchors)
    for ar, ac in anchors:
        cells = [(r - ar + CENTRE[0], c - ac + CENTRE[1]) for r, c in orient.cells]
        if all(0 <= r < SIZE and 0 <= c < SIZE for r, c in cells):
            return cells
    raise AssertionError("an 8-cell shape always fits around the centre")  # pragma: no cover


def _cells_json(cells: Sequence[Cell]) -> list[list[int]]:
    return [[r, c] for r, c in cells]


def simulate_game(
    players: Sequence[str],
    *,
    rng: random.Random,
    deck: Deck | None = None,
    deck_size: int | None = None,
) -> dict[str, Any]:
    """Play one random legal game and return its record (a JSON-ready dict)."""
    deck = deck if deck is not None else load_deck()
    cards = deck.puzzle_cards()
    rng.shuffle(cards)
    if deck_size is not None:
        cards = cards[:deck_size]
    options: dict[str, Any] = {} if deck_size is None else {"deck_size": deck_size}
    events: list[dict[str, Any]] = []
    state: SecondChanceState = RULES.new_game(players, {"deck_size": len(cards)})

    def apply(event: dict[str, Any]) -> None:
        nonlocal state
        events.append(event)
        state = RULES.apply_event(state, event, index=len(events))

    starts = rng.sample(list(deck.start_tiles), len(players))
    for name, tile in zip(players, starts, strict=True):
        cells = _cells_json(_start_cells(rng, tile.shape))
        apply({"type": "start", "player": name, "cells": cells})
    while not state.over:
        if state.cards_left < 2:
            apply({"type": "end"})
            break
        a, b = cards.pop(), cards.pop()
        apply({"type": "reveal", "cards": [a.text, b.text]})
        needing = []
        for p in state.players:
            if p.is_out:
                continue
            choices = [i for i, card in enumerate((a, b)) if placements(p.grid, card)]
            if not choices:
                needing.append(p.name)
                continue
            i = rng.choice(choices)
            spot = _choose_placement(rng, p.grid, (a, b)[i])
            assert spot is not None
            apply({"type": "draw", "player": p.name, "card": i, "cells": _cells_json(spot)})
        if state.shortage:
            apply({"type": "end"})
            break
        for name in needing:
            card = cards.pop()
            spot = _choose_placement(rng, state.player(name).grid, card)
            apply({"type": "second-chance", "player": name, "card": card.text,
                   "cells": None if spot is None else _cells_json(spot)})
            if spot is None and state.may_write_bonus(name) and not state.over:
                empty = state.player(name).grid.empty_cells
                apply({"type": "bonus", "player": name, "cell": list(rng.choice(empty))})
    for p in state.players:  # the last players out together may still write their 1
        if state.may_write_bonus(p.name):
            apply({"type": "bonus", "player": p.name,
                   "cell": list(rng.choice(p.grid.empty_cells))})
    return {"format": FORMAT, "game": "second-chance", "players": list(players),
            "options": options, "events": events}
