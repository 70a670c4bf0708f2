"""What is visible on an Indigo table (:class:`BoardView`) and its JSON in the read format.

The reader returns a view and the renderer draws one; :func:`truth_of` is a view's read-format
JSON with confidence 1.0 everywhere, the same JSON that ``companion read indigo`` prints.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.indigo import CENTRE_STOCK, CHIPS, CORNER_BY_CELL, Gem, Tile
from companion.indigo.geometry import Cell, EdgePoint
from companion.indigo.state import IndigoState
from vision.indigo.pack import IndigoPack


@dataclass(frozen=True)
class BoardView:
    """What is visible on the table: the input of the renderer and the output of the reader."""

    tiles: Mapping[Cell, Tile]
    gems: Mapping[EdgePoint, Gem]
    centre: tuple[Gem, ...]  # the gems still on the centre tile
    chips: tuple[tuple[int, int], ...] | None  # per gateway, the two chips as player indices
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of_state(cls, state: IndigoState) -> BoardView:
        left = state.centre_left
        return cls(
            tiles=dict(state.tiles),
            gems=dict(state.gems),
            centre=tuple(CENTRE_STOCK[len(CENTRE_STOCK) - left :]) if left else (),
            chips=CHIPS[state.layout],
        )


# ---------------------------------------------------------------- truth in the read format


def gem_location(point: EdgePoint) -> dict[str, Any]:
    """The read format's ``at`` of a resting gem (a corner's unmoved amber is ``corner``)."""
    cell, edge = point
    corner = CORNER_BY_CELL.get(cell)
    if corner is not None and corner.arrow_edge == edge:
        return {"corner": [cell[0], cell[1]]}
    return {"cell": [cell[0], cell[1]], "edge": edge}


def gem_place(point: EdgePoint) -> str:
    """A resting gem's place in the words of a question: ``corner (q,r)`` for a corner's
    unmoved amber, else ``cell (q,r) edge e``."""
    loc = gem_location(point)
    if "corner" in loc:
        return f"corner ({loc['corner'][0]},{loc['corner'][1]})"
    return f"cell ({loc['cell'][0]},{loc['cell'][1]}) edge {loc['edge']}"


def tile_entry(cell: Cell, tile: Tile, confidence: float = 1.0) -> dict[str, Any]:
    return {
        "cell": [cell[0], cell[1]],
        "type": tile.kind,
        "rotation": tile.rotation,
        "paths": [list(p) for p in tile.paths],
        "confidence": round(float(confidence), 4),
    }


def truth_of(view: BoardView, pack: IndigoPack | None = None) -> dict[str, Any]:
    """The read-format JSON of a view (confidence 1.0 everywhere)."""
    tiles = [tile_entry(c, t) for c, t in sorted(view.tiles.items())]
    gems: list[dict[str, Any]] = [
        {"gem": g.value, "at": gem_location(p), "confidence": 1.0}
        for p, g in sorted(view.gems.items())
    ]
    gems += [{"gem": g.value, "at": {"centre": True}, "confidence": 1.0} for g in view.centre]
    out: dict[str, Any] = {"game": "indigo", "tiles": tiles, "gems": gems, "questions": []}
    if view.chips is not None:
        names = list(pack.chips) if pack is not None else None
        out["chips"] = [
            {
                "gate": g,
                "slot": s,
                "player": p,
                **({"colour": names[p]} if names and p < len(names) else {}),
                "confidence": 1.0,
            }
            for g, pair in enumerate(view.chips)
            for s, p in enumerate(pair)
        ]
    return out
