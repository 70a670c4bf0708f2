"""The cards a player's sheet holds, from the game's events, and whether tiles read from a
sheet can be those cards.

The app journals every reveal and every drawing, so it knows which card each round gave a
player (and, for the round being drawn now, the two it may give). A sheet reader that is unsure
where an outline runs can hold its candidate tiles against these: the sheet holds one tile per
round, each the shape of that round's card.

>>> events = [{"type": "start", "player": "Ana", "cells": [[4, 4], [4, 5]]},
...           {"type": "reveal", "cards": ["#", "##/##"]},
...           {"type": "draw", "player": "Ana", "card": 1, "cells": []},
...           {"type": "reveal", "cards": ["###", "#"]}]
>>> [sorted(c) for c in tile_choices(events, "Ana")]
[['##'], ['##/##'], ['#', '###']]
>>> can_be_drawn(["###", "##/##", "##"], tile_choices(events, "Ana"))
True
>>> can_be_drawn(["#", "#", "##/##", "##"], tile_choices(events, "Ana"))
False
>>> may_have_the_one(events, "Ana")  # only a player who dropped out writes the 1
False
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.second_chance.shapes import Shape, canonical_text

#: one entry per tile the sheet may hold: the canonical shapes that tile may have
TileChoices = tuple[frozenset[str], ...]


def tile_choices(events: Iterable[Mapping[str, Any]], player: str) -> TileChoices:
    """What each of ``player``'s tiles may be, in the order they were drawn: the start tile's
    shape, each round's card the player drew (or took as a second chance) and, when the
    player has not drawn yet in the round under way, either of its two cards."""
    choices: list[frozenset[str]] = []
    revealed: list[str] = []
    pending = False
    out = False
    for event in events:
        kind = event.get("type")
        if kind == "reveal":
            revealed = [canonical_text(str(card)) for card in event.get("cards", ())]
            pending = not out
            continue
        if event.get("player") != player:
            continue
        if kind == "start" and event.get("cells"):
            cells = [(int(r), int(c)) for r, c in event["cells"]]
            choices.append(frozenset({canonical_text(Shape.from_cells(cells))}))
        elif kind == "draw":
            choices.append(frozenset({revealed[int(event["card"])]}))
            pending = False
        elif kind == "second-chance":
            pending = False
            if event.get("cells"):
                choices.append(frozenset({canonical_text(str(event["card"]))}))
            else:
                out = True
    if pending and revealed:
        choices.append(frozenset(revealed))
    return tuple(choices)


def may_have_the_one(events: Iterable[Mapping[str, Any]], player: str) -> bool:
    """True when ``player`` may have written the bonus 1: only the players who drop out first
    in a game (a second chance that did not fit, in the first round anyone drops out) write
    one."""
    round_number = 0
    first_out: int | None = None
    for event in events:
        kind = event.get("type")
        if kind == "reveal":
            round_number += 1
        elif kind == "bonus" and event.get("player") == player:
            return True
        elif kind == "second-chance" and not event.get("cells"):
            first_out = round_number if first_out is None else first_out
            if event.get("player") == player:
                return round_number == first_out
    return False


def can_be_drawn(shapes: Sequence[str], choices: TileChoices) -> bool:
    """True when each of ``shapes`` (canonical texts, one a tile) can be the card of a round
    of its own in ``choices`` (a matching of tiles to rounds; some rounds may stay unmatched:
    a tile not drawn yet)."""
    if len(shapes) > len(choices):
        return False
    round_of: dict[int, int] = {}  # round -> the tile matched to it

    def place(tile: int, seen: set[int]) -> bool:
        for r, allowed in enumerate(choices):
            if r in seen or shapes[tile] not in allowed:
                continue
            seen.add(r)
            if r not in round_of or place(round_of[r], seen):
                round_of[r] = tile
                return True
        return False

    return all(place(tile, set()) for tile in range(len(shapes)))
