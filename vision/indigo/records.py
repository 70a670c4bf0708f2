"""Game records and read-format documents -> the Indigo engine's state, for render and --after."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from companion.errors import RecordError
from companion.indigo import CENTRE_STOCK, CORNER_BY_CELL, Gem, Tile
from companion.indigo.geometry import Cell, EdgePoint, is_route_cell
from companion.indigo.rules import RULES
from companion.indigo.state import IndigoState, Placement, all_legal_placements, new_game, play
from companion.record import parse_record


def state_of_record(data: Any) -> IndigoState:
    """Replay an Indigo record (parsed JSON) through the engine; errors name the event."""
    record = parse_record(data)
    if record.game != "indigo":
        article = "an" if record.game[:1] in "aeiou" else "a"
        raise RecordError(f"record: {article} {record.game!r} record, not indigo")
    game = RULES.new_game(record.players, record.options)
    for index, event in enumerate(record.events, start=1):
        game = RULES.apply_event(game, event, index=index)
    return game.state


def state_of_read(data: dict[str, Any], *, players: int = 2) -> IndigoState:
    """An engine state from a read-format document (``companion read indigo`` output).

    Only what the camera sees is known: tiles, resting gems and the centre stock. Hauls and
    turn are unknown and left at their starting values.
    """
    if not isinstance(data, dict) or data.get("game") != "indigo" or "tiles" not in data:
        raise RecordError("not an Indigo read document (needs game 'indigo' and 'tiles')")
    tiles: dict[Cell, Tile] = {}
    for entry in data.get("tiles", []):
        try:
            cell = (int(entry["cell"][0]), int(entry["cell"][1]))
            tiles[cell] = Tile(int(entry["type"]), int(entry["rotation"]))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise RecordError(f"bad tile entry {entry!r}: {exc}") from None
        if not is_route_cell(cell):
            raise RecordError(f"tile entry {entry!r}: {cell} is not a route cell")
    gems: dict[EdgePoint, Gem] = {}
    centre = 0
    for entry in data.get("gems", []):
        try:
            gem = Gem(entry["gem"])
            at = entry["at"]
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"bad gem entry {entry!r}: {exc}") from None
        if at.get("centre"):
            centre += 1
        elif "corner" in at:
            cell = (int(at["corner"][0]), int(at["corner"][1]))
            if cell not in CORNER_BY_CELL:
                raise RecordError(f"gem entry {entry!r}: {cell} is not a corner")
            gems[CORNER_BY_CELL[cell].amber_point] = gem
        else:
            gems[((int(at["cell"][0]), int(at["cell"][1])), int(at["edge"]))] = gem
    base = new_game(players)
    return IndigoState(
        players=players,
        layout=base.layout,
        tiles=tiles,
        gems=gems,
        centre_left=min(centre, len(CENTRE_STOCK)),
        hauls=base.hauls,
        reserve=base.reserve,
        removed=base.removed,
        turn=0,
    )


def load_state(path: str | Path) -> IndigoState:
    """A record or a read document from a JSON file (``-`` is not supported here)."""
    text = Path(path).read_text(encoding="utf-8")
    data = json.loads(text)
    if isinstance(data, dict) and "format" in data and "events" in data:
        return state_of_record(data)
    return state_of_read(data)


def random_state(rng: random.Random, *, placements: int, players: int = 2) -> IndigoState:
    """A state after ``placements`` random legal placements (stops early if the game ends)."""
    state = new_game(players)
    for _ in range(placements):
        if state.is_over:
            break
        options = all_legal_placements(state)
        if not options:
            break
        choice: Placement = rng.choice(options)
        # any rotation of the pattern: draw the rotation number at random among equals
        state = play(state, choice)[0]
    return state
