"""Random legal Second Chance games (random start shapes, random cards of 1-7 squares, random
placements, second chances, drop-outs, bonuses at random times, deck shortages) replayed through
the engine and through the rules as written in ``shared/records.md`` (Second Chance, Edge cases)
and ``shared/rules/second_chance.md``, modelled here: empty squares, out, over, winners agree."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from companion.record import FORMAT, parse_record
from companion.replay import replay

Cell = tuple[int, int]
NAMES = ["Ana", "Ben", "Cleo", "Dan", "Eve", "Fay"]
ALL = {(r, c) for r in range(9) for c in range(9)}


def grow(size: int, rng: random.Random, seed_cell: Cell = (0, 0)) -> set[Cell]:
    cells = {seed_cell}
    while len(cells) < size:
        r, c = rng.choice(sorted(cells))
        dr, dc = rng.choice([(0, 1), (1, 0), (0, -1), (-1, 0)])
        cells.add((r + dr, c + dc))
    return cells


def normal(cells: set[Cell]) -> frozenset[Cell]:
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def orientations(cells: set[Cell]) -> set[frozenset[Cell]]:
    out = set()
    shape = set(cells)
    for _ in range(4):
        shape = {(c, -r) for r, c in shape}
        out.add(normal(shape))
        out.add(normal({(r, -c) for r, c in shape}))
    return out


def text(cells: set[Cell]) -> str:
    n = normal(cells)
    rows = max(r for r, _ in n) + 1
    cols = max(c for _, c in n) + 1
    return "/".join("".join("#" if (r, c) in n else "." for c in range(cols)) for r in range(rows))


def placements(shape: set[Cell], filled: set[Cell]) -> list[list[Cell]]:
    found = []
    for orient in sorted(orientations(shape), key=sorted):
        for dr in range(9):
            for dc in range(9):
                cells = [(r + dr, c + dc) for r, c in sorted(orient)]
                if all(cell in ALL and cell not in filled for cell in cells):
                    found.append(cells)
    return found


def fits(shape: set[Cell], filled: set[Cell]) -> bool:
    free = ALL - filled
    for orient in orientations(shape):
        for dr in range(9):
            for dc in range(9):
                if all((r + dr, c + dc) in free for r, c in orient):
                    return True
    return False


@dataclass
class Table:
    """A game being made up: what the model knows of it so far."""

    rng: random.Random
    players: list[str]
    left: int
    grids: dict[str, set[Cell]] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    out: list[str] = field(default_factory=list)
    bonus: dict[str, Cell] = field(default_factory=dict)
    first_out: list[str] = field(default_factory=list)
    pending_bonus: list[str] = field(default_factory=list)


def deal_starts(table: Table) -> None:
    for p in table.players:
        start = grow(8, table.rng, (4, 4))
        while not start <= ALL:
            start = grow(8, table.rng, (4, 4))
        table.grids[p] = set(start)
        table.events.append({"type": "start", "player": p,
                             "cells": [list(c) for c in sorted(start)]})


def resolve_round(table: Table, cards: list[set[Cell]], needing: list[str],
                  shortage: bool) -> tuple[list[dict[str, Any]], list[str]]:
    """Each active player's draw, or second chance: the round's events and who dropped out."""
    rng, grids = table.rng, table.grids
    resolutions: list[dict[str, Any]] = []
    dropped: list[str] = []
    for p in [p for p in table.players if p not in table.out]:
        if p in needing:
            continue
        k = rng.choice([i for i in (0, 1) if fits(cards[i], grids[p])])
        cells = rng.choice(placements(cards[k], grids[p]))
        grids[p] |= set(cells)
        resolutions.append({"type": "draw", "player": p, "card": k,
                            "cells": [list(c) for c in cells]})
    if not shortage:
        for p in needing:
            table.left -= 1
            card = grow(rng.choice([1, 2, 5, 7, 7]), rng)
            spots = placements(card, grids[p])
            chosen = rng.choice(spots) if spots else None
            if chosen is None:
                dropped.append(p)
            else:
                grids[p] |= set(chosen)
            resolutions.append({"type": "second-chance", "player": p, "card": text(card),
                                "cells": None if chosen is None else [list(c) for c in chosen]})
    return resolutions, dropped


def give_bonus(table: Table, player: str) -> None:
    cell = table.rng.choice(sorted(ALL - table.grids[player]))
    table.bonus[player] = cell
    table.grids[player].add(cell)
    table.events.append({"type": "bonus", "player": player, "cell": list(cell)})


def play_round(table: Table) -> bool:
    """One round of two cards; True when the game is over."""
    rng, players = table.rng, table.players
    if table.left < 2:
        table.events.append({"type": "end"})
        return True
    cards = [grow(rng.choice([3, 4, 5, 6, 7, 7]), rng) for _ in range(2)]
    table.left -= 2
    table.events.append({"type": "reveal", "cards": [text(c) for c in cards]})
    active = [p for p in players if p not in table.out]
    needing = [p for p in active if not any(fits(c, table.grids[p]) for c in cards)]
    shortage = len(needing) > table.left
    resolutions, dropped = resolve_round(table, cards, needing, shortage)
    rng.shuffle(resolutions)  # within a round, any order (records.md Edge cases)
    table.events += resolutions
    table.out += [p for p in players if p in dropped]
    if dropped and not table.first_out and len(players) > 1:
        table.first_out = [p for p in players if p in dropped]
        table.pending_bonus = list(table.first_out)
    for p in list(table.pending_bonus):  # a bonus now or later (even after the end)
        if rng.random() < 0.5:
            table.pending_bonus.remove(p)
            give_bonus(table, p)
    if any(table.grids[p] == ALL for p in players) or len(table.out) == len(players):
        return True
    if shortage:
        table.events.append({"type": "end"})
        return True
    return False


def expected_winners(table: Table, empty: dict[str, int]) -> list[str]:
    full = [p for p in table.players if empty[p] == 0]
    if full:
        return full
    best = min(empty.values())
    tied = [p for p in table.players if empty[p] == best]
    with_one = [p for p in tied if p in table.bonus]
    return with_one or tied


def random_game(seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    rng = random.Random(seed)
    n = rng.choice([1, 2, 2, 3, 4, 6])
    deck = rng.choice([6, 11, 20, 40])
    table = Table(rng, NAMES[:n], deck)
    deal_starts(table)
    while not play_round(table):
        pass
    for p in table.pending_bonus:
        give_bonus(table, p)
    empty = {p: 81 - len(table.grids[p]) for p in table.players}
    record = {"format": FORMAT, "game": "second-chance", "players": table.players,
              "options": {"deck_size": deck}, "events": table.events}
    want = {"over": True, "empty": empty, "scores": {p: -e for p, e in empty.items()},
            "out": table.out, "winners": expected_winners(table, empty)}
    return record, want


@pytest.mark.parametrize("seed", range(24))
def test_random_game_matches_rules(seed: int) -> None:
    record, want = random_game(seed)
    outcome = replay(parse_record(record))
    assert outcome.exit_code == 0, outcome.error
    assert outcome.result is not None
    got = {key: outcome.result[key] for key in want}
    # records.md gives no order for Second Chance's "out" (Break the Code's is "in order")
    got["out"], want["out"] = sorted(got["out"]), sorted(want["out"])
    if len(record["players"]) == 1:  # solo winners are not settled by the documents
        got.pop("winners")
        want = {k: v for k, v in want.items() if k != "winners"}
    else:
        got["winners"] = sorted(got["winners"])
        want["winners"] = sorted(want["winners"])
    assert got == want, f"seed {seed}"
