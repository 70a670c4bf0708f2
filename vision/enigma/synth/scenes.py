"""Seeded random Enigma games for tests, the benchmark and the demo: records the engine accepts.

:func:`random_record` plays rounds with the demo catalogue: random choices and solvers, each
solver placing a random unused tile on a legal square near the start tile (so the table stays
inside the marker frame) and putting a networker where the rule allows about half the time.
"""

from __future__ import annotations

import random
from typing import Any

from companion.enigma.catalogue import CATEGORIES, Catalogue, load_catalogue
from companion.enigma.game import EnigmaOptions, EnigmaState, PlaceMove, RoundMove, apply, new_game
from companion.enigma.rules import format_move
from companion.enigma.tiles import Pos

RECORD_FORMAT = "tabletop-companion/record/1"


def _fits(at: Pos, bounds: tuple[int, int]) -> bool:
    return abs(at[0]) <= bounds[0] and abs(at[1]) <= bounds[1]


def _next_placeable(state: EnigmaState, pool: list[Any], bounds: tuple[int, int]
                    ) -> tuple[Any, list[Any]] | None:
    """The next catalogue tile of ``pool`` with a legal place within ``bounds``, and those
    places; tiles without one go to the back of the pool. None when no tile has one."""
    for _ in range(len(pool)):
        entry = pool.pop()
        options_here = [p for p in state.legal_placements(entry.conduit) if _fits(p.at, bounds)]
        if options_here:
            return entry, options_here
        pool.insert(0, entry)
    return None


def _place(state: EnigmaState, player: str, entry: Any, options_here: list[Any],
           rng: random.Random, networker_chance: float) -> tuple[EnigmaState, dict[str, Any]]:
    """Place ``entry`` at a random one of its places, with a networker by chance; the state
    reached and the record's event."""
    choice = rng.choice(options_here)
    cells = state.networker_choices(player, entry.conduit, choice.at, choice.rotation)
    networker = rng.choice(cells) if cells and rng.random() < networker_chance else None
    pmove = PlaceMove(player, entry.conduit, choice.at, choice.rotation, networker)
    state = apply(state, pmove)
    event = format_move(pmove)
    event["tile_id"] = entry.id  # extra field: which catalogue tile (for its icon)
    return state, event


def random_record(
    seed: int,
    *,
    tiles: int = 12,
    players: int = 3,
    bounds: tuple[int, int] = (5, 4),
    networker_chance: float = 0.5,
    catalogue: Catalogue | None = None,
) -> tuple[dict[str, Any], EnigmaState]:
    """A record (and the state it reaches) with up to ``tiles`` placed tiles besides the start
    tile, all within ``bounds`` squares of it. The target is set out of reach."""
    rng = random.Random(seed)
    cat = catalogue or load_catalogue()
    names = ["Ana", "Ben", "Cleo", "Dan"][:players]
    options = {"target": 999}
    state = new_game(names, EnigmaOptions(target=999))
    pool = list(cat.tiles)
    rng.shuffle(pool)
    events: list[dict[str, Any]] = []
    placed = 0
    stuck = 0
    while placed < tiles and pool and stuck < 20:
        cats = list(CATEGORIES)
        rng.shuffle(cats)
        choices = {p: cats[i] for i, p in enumerate(names)}
        solved = [p for p in names if rng.random() < 0.7] or [rng.choice(names)]
        move = RoundMove.make(choices, solved)
        state = apply(state, move)
        events.append(format_move(move))
        for player in list(state.pending):
            if placed >= tiles:
                break
            found = _next_placeable(state, pool, bounds)
            if found is None:
                stuck += 1
                break
            state, event = _place(state, player, *found, rng, networker_chance)
            events.append(event)
            placed += 1
        if state.pending:
            # a solver without a legal square: end the round early (record the rest unsolved)
            break
    record = {
        "format": RECORD_FORMAT,
        "game": "enigma",
        "players": names,
        "options": options,
        "events": events,
    }
    return record, state


def categories_of(record: dict[str, Any], catalogue: Catalogue | None = None) -> dict[Pos, str]:
    """Square -> category for place events that name their catalogue tile (``tile_id``)."""
    cat = catalogue or load_catalogue()
    out: dict[Pos, str] = {}
    for event in record.get("events", []):
        tile_id = event.get("tile_id") if isinstance(event, dict) else None
        if event.get("type") == "place" and isinstance(tile_id, str):
            try:
                out[(int(event["at"][0]), int(event["at"][1]))] = cat.entry(tile_id).category
            except (KeyError, TypeError, ValueError, IndexError):
                continue
    return out


__all__ = ["RECORD_FORMAT", "categories_of", "random_record"]
