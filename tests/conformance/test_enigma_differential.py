"""Random legal Enigma games (random conduit sides that fit their neighbours, random rounds,
solvers, rotations and networkers) replayed through the engine and through the independent
model of ``enigma_model.py``: scores, networkers, systems, over and winners must agree."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.record import FORMAT, parse_record
from companion.replay import replay

from .enigma_model import OFFSET, SIDES, Model, place_tile

CATEGORIES = ["weight", "fragment", "conduit", "angular"]
COLOURS = ["red", "blue", "yellow"]
NAMES = ["Ana", "Ben", "Cleo", "Dan"]


def port_name(side: int, pos: int, rng: random.Random) -> str:
    if pos == 1 and rng.random() < 0.5:
        return SIDES[side]
    return f"{SIDES[side]}{pos}"


def random_tile(model: Model, at: tuple[int, int], edge_match: bool,
                rng: random.Random) -> tuple[dict[str, Any], int]:
    """A conduit side for square ``at`` (as written before a random rotation) and the rotation."""
    squares = model.by_square()
    ports: list[tuple[int, int]] = []
    for side in range(4):
        j = squares.get((at[0] + OFFSET[side][0], at[1] + OFFSET[side][1]))
        if j is not None and edge_match:
            theirs = model.tiles[j].ports()
            ports += [(side, 2 - p) for s, p in theirs if s == (side + 2) % 4]
        else:
            ports += [(side, p) for p in range(3) if rng.random() < 0.25]
    cells = {f"c{i}": rng.choice(COLOURS) for i in range(rng.choice([0, 1, 1, 2, 2, 3]))}
    rotation = rng.randrange(4)
    names = [port_name((s - rotation) % 4, p, rng) for s, p in ports]
    ends = names + list(cells)
    links: list[list[str]] = []
    for name in names:
        others = [e for e in ends if e != name]
        if others:
            links.append([name, rng.choice(others)])
        else:  # a lone port still needs a link: join it to a new cell
            cells["c9"] = rng.choice(COLOURS)
            links.append([name, "c9"])
    for cell in list(cells):
        if rng.random() < 0.3 and len(ends) > 1:
            links.append([cell, rng.choice([e for e in ends if e != cell])])
    return {"cells": cells, "links": links}, rotation


def random_game(seed: int) -> tuple[dict[str, Any], Model]:
    rng = random.Random(seed)
    n = rng.choice([2, 3, 4])
    players = NAMES[:n]
    edge_match = seed % 4 != 0
    target = rng.choice([3, 5, 8])
    model = Model(players, target=target)
    events: list[dict[str, Any]] = []
    for round_no in range(1, 40):
        cats = rng.sample(CATEGORIES, n)
        solved = [p for p in players if rng.random() < 0.6]
        events.append({"type": "round", "choices": dict(zip(players, cats, strict=True)),
                       "solved": solved})
        start = (round_no - 1) % n
        for k in range(n):
            player = players[(start + k) % n]
            if player not in solved:
                continue
            squares = model.by_square()
            free = sorted({(x + dx, y + dy) for (x, y) in squares for dx, dy in OFFSET}
                          - set(squares))
            at = rng.choice(free)
            tile, rotation = random_tile(model, at, edge_match, rng)
            # choose the networker on the board as it will be, via a trial copy
            trial = Model(players, target=target)
            trial.tiles, trial.networkers = list(model.tiles), dict(model.networkers)
            trial.tiles.append(place_tile(tile, at, rotation))
            legal = [c for c in tile["cells"]
                     if trial.networker_ok(player, len(trial.tiles) - 1, c)]
            networker = rng.choice(legal) if legal and rng.random() < 0.7 else None
            model.place(player, tile, at, rotation, networker)
            events.append({"type": "place", "player": player, "tile": tile, "at": list(at),
                           "rotation": rotation, "networker": networker})
        if model.over() or rng.random() < 0.05:
            break
    record = {"format": FORMAT, "game": "enigma", "players": players,
              "options": {"target": target, "require_edge_match": edge_match}, "events": events}
    return record, model


@pytest.mark.parametrize("seed", range(40))
def test_random_game_matches_model(seed: int) -> None:
    record, model = random_game(seed)
    outcome = replay(parse_record(record))
    assert outcome.exit_code == 0, outcome.error
    assert outcome.result is not None
    want = {"scores": model.scores, "systems": model.systems(), "over": model.over(),
            "networkers": {p: model.on_board(p) for p in model.players}}
    assert {key: outcome.result[key] for key in want} == want, f"seed {seed}"
    assert sorted(outcome.result["winners"]) == sorted(model.winners())
