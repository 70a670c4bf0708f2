"""Random legal Indigo games replayed through the engine and through the independent model of
``indigo_model.py`` (written from the digest, not the engine): every result field must agree."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.record import FORMAT, parse_record
from companion.replay import replay

from .indigo_model import ROUTE_CELLS, TYPE_COUNT, Model, blocked

LAYOUTS = {2: ["2p"], 3: ["3p", "3p-alt"], 4: ["4p"]}
NAMES = ["Ana", "Ben", "Cleo", "Dan"]


def random_game(seed: int) -> tuple[dict[str, Any], Model]:
    """A random legal game, played to its end, and the model's final state."""
    rng = random.Random(seed)
    n = rng.choice([2, 3, 4])
    layout = rng.choice(LAYOUTS[n])
    players = NAMES[:n]
    model = Model(players, layout)
    events: list[dict[str, Any]] = []
    # Bias placements towards the gems so that games end and collisions happen.
    while not model.over():
        empty = [c for c in ROUTE_CELLS if c not in model.tiles]
        near = [c for c in empty if max(abs(c[0]), abs(c[1]), abs(c[0] + c[1])) in (1, 3, 4)]
        cell = rng.choice(near if near and rng.random() < 0.5 else empty)
        options = [(t, r) for t in TYPE_COUNT for r in range(6)
                   if model.used[t] < TYPE_COUNT[t] and not blocked(cell, t, r)]
        tile, rotation = rng.choice(options)
        model.place(cell, tile, rotation)
        events.append({"type": "place", "player": players[len(events) % n],
                       "cell": list(cell), "tile": tile, "rotation": rotation})
    record = {"format": FORMAT, "game": "indigo", "players": players,
              "options": {"layout": layout}, "events": events}
    return record, model


def expected(model: Model) -> dict[str, Any]:
    return {"over": model.over(), "scores": model.scores(), "gems": model.gems,
            "gems_on_board": model.on_board_count(), "gems_removed": model.removed}


@pytest.mark.parametrize("seed", range(40))
def test_random_game_matches_model(seed: int) -> None:
    record, model = random_game(seed)
    outcome = replay(parse_record(record))
    assert outcome.exit_code == 0, outcome.error
    assert outcome.result is not None
    want = expected(model)
    got = {key: outcome.result[key] for key in want}
    assert got == want, f"seed {seed}: {record['options']}"
    assert sorted(outcome.result["winners"]) == sorted(model.winners())


@pytest.mark.parametrize("seed", range(40, 52))
def test_random_prefix_matches_model(seed: int) -> None:
    """Mid-game states too: resting gems, centre stock and ambers on the board."""
    rng = random.Random(seed)
    record, _ = random_game(seed)
    events = record["events"]
    cut = rng.randrange(1, len(events))
    model = Model(list(record["players"]), record["options"]["layout"])
    for event in events[:cut]:
        model.place(tuple(event["cell"]), event["tile"], event["rotation"])
    outcome = replay(parse_record({**record, "events": events[:cut]}))
    assert outcome.exit_code == 0, outcome.error
    assert outcome.result is not None
    want = expected(model)
    assert {key: outcome.result[key] for key in want} == want
    assert outcome.result["winners"] == []
