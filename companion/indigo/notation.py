"""Compact text for Indigo values, used in logs, tests and error messages. Everything round-trips.

=============  ==================================  ============================================
value          form                                example
=============  ==================================  ============================================
cell           ``q,r``                             ``1,-3``
edge point     ``q,r:edge``                        ``1,-3:2``
tile           ``T<type>r<rotation>``              ``T3r2`` (``T3`` alone means rotation 0)
placement      ``<tile>@<cell>``                   ``T3r2@1,-3``
gem            ``A`` / ``E`` / ``S``               ``S``
resting gem    ``<gem>@<edge point>``              ``E@0,-1:4``
state          ``|``-separated sections            see :func:`format_state`
=============  ==================================  ============================================

Parsing checks the syntax and the ranges (type 0..4, rotation and edge 0..5); whether a cell is
on the board or free is for the rules, so ``T1r0@9,9`` parses and is then refused by ``apply``.

>>> parse_placement("T3r2@1,-3")
Placement(cell=(1, -3), tile=Tile(kind=3, rotation=2))
>>> format_placement(parse_placement(" t3R2 @ [1, -3] "))
'T3r2@1,-3'
>>> format_point(parse_point("0,0:3"))
'0,0:3'
"""

from __future__ import annotations

import re

from companion.indigo.errors import NotationError
from companion.indigo.gems import Ending, GemMove
from companion.indigo.geometry import LAYOUT_PLAYERS, LAYOUTS, Cell, EdgePoint
from companion.indigo.pieces import Gem
from companion.indigo.state import GemCounts, IndigoState, Placement, PlacementReport
from companion.indigo.tiles import Tile

_INT = r"[+-]?\d+"
_CELL_RE = re.compile(rf"^[\[(]?\s*({_INT})\s*,\s*({_INT})\s*[\])]?$")
_POINT_RE = re.compile(rf"^[\[(]?\s*({_INT})\s*,\s*({_INT})\s*[\])]?\s*:\s*({_INT})$")
_TILE_RE = re.compile(r"^[Tt]\s*(\d+)\s*(?:[Rr]\s*(\d+))?$")


def parse_cell(text: str) -> Cell:
    """``"1,-3"`` (or ``"[1, -3]"``) -> ``(1, -3)``."""
    match = _CELL_RE.match(text.strip())
    if not match:
        raise NotationError(f"not a cell: {text!r}; expected q,r such as 1,-3")
    return (int(match.group(1)), int(match.group(2)))


def format_cell(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def parse_point(text: str) -> EdgePoint:
    """``"1,-3:2"`` -> ``((1, -3), 2)``: edge 2 of cell (1, -3)."""
    match = _POINT_RE.match(text.strip())
    if not match:
        raise NotationError(f"not an edge point: {text!r}; expected q,r:edge such as 1,-3:2")
    edge = int(match.group(3))
    if not 0 <= edge <= 5:
        raise NotationError(f"edge {edge} in {text!r} is not 0..5")
    return ((int(match.group(1)), int(match.group(2))), edge)


def format_point(point: EdgePoint) -> str:
    return f"{format_cell(point[0])}:{point[1]}"


def parse_tile(text: str) -> Tile:
    """``"T3r2"`` -> ``Tile(3, 2)``; ``"T3"`` is rotation 0."""
    match = _TILE_RE.match(text.strip())
    if not match:
        raise NotationError(f"not a tile: {text!r}; expected T<type>r<rotation> such as T3r2")
    kind = int(match.group(1))
    rotation = int(match.group(2) or 0)
    if not 0 <= kind <= 4:
        raise NotationError(f"tile type {kind} in {text!r} is not 0..4")
    if not 0 <= rotation <= 5:
        raise NotationError(f"rotation {rotation} in {text!r} is not 0..5")
    return Tile(kind, rotation)


def format_tile(tile: Tile) -> str:
    return f"T{tile.kind}r{tile.rotation}"


def parse_placement(text: str) -> Placement:
    """``"T3r2@1,-3"`` -> a Placement."""
    tile_text, at, cell_text = text.partition("@")
    if not at:
        raise NotationError(f"not a placement: {text!r}; expected <tile>@<cell> like T3r2@1,-3")
    return Placement(parse_cell(cell_text), parse_tile(tile_text))


def format_placement(placement: Placement) -> str:
    return f"{format_tile(placement.tile)}@{format_cell(placement.cell)}"


def parse_gem(text: str) -> Gem:
    try:
        return Gem.parse(text)
    except ValueError as exc:
        raise NotationError(str(exc)) from None


def format_gem(gem: Gem) -> str:
    return gem.letter


def parse_resting_gem(text: str) -> tuple[EdgePoint, Gem]:
    """``"E@0,-1:4"`` -> ``(((0, -1), 4), Gem.EMERALD)``."""
    gem_text, at, point_text = text.partition("@")
    if not at:
        raise NotationError(f"not a resting gem: {text!r}; expected <gem>@<q,r:edge>")
    return parse_point(point_text), parse_gem(gem_text)


def format_resting_gem(point: EdgePoint, gem: Gem) -> str:
    return f"{gem.letter}@{format_point(point)}"


def format_move(move: GemMove) -> str:
    """One gem's journey: ``E 0,0:3 -> 2,2:2 exit g2 P0+P3`` / ``A ... rest`` / ``collided #1``."""
    text = f"{move.gem.letter} {format_point(move.start)} -> {format_point(move.end)} "
    if move.ending is Ending.EXIT:
        owners = "+".join(f"P{p}" for p in move.receivers)
        return text + f"exit g{move.gateway}" + (f" {owners}" if owners else "")
    if move.ending is Ending.COLLIDED:
        return text + f"collided #{move.collided_with}"
    return text + "rest"


def format_report(report: PlacementReport) -> str:
    """A placement and its gem moves on one line, for logs."""
    moves = "; ".join(format_move(m) for m in report.moves) or "no gem moves"
    end = " (game over)" if report.game_over else ""
    return f"P{report.player} {format_placement(report.placement)}: {moves}{end}"


# ----------------------------------------------------------------------------- state

def _counts(values: GemCounts) -> str:
    return "/".join(str(v) for v in values)


def _parse_counts(text: str, what: str) -> GemCounts:
    parts = text.split("/")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise NotationError(f"{what}: {text!r} is not amber/emerald/sapphire counts like 1/0/2")
    return (int(parts[0]), int(parts[1]), int(parts[2]))


def format_state(state: IndigoState) -> str:
    """The public and hidden facts of a state on one line (not hands, pile or history).

    ``2p P1 | tiles T1r0@0,-1 | gems A@0,-4:3 E@0,-1:0 | centre 5 | hauls 0/0/0 0/0/0 |
    reserve 6/5/1 | removed 0/0/0`` (on one line). Tiles and gems are listed in board order.
    """
    tiles = " ".join(
        f"{format_tile(t)}@{format_cell(c)}" for c, t in sorted(state.tiles.items(),
                                                               key=lambda i: (i[0][1], i[0][0]))
    )
    gems = " ".join(
        format_resting_gem(p, g)
        for p, g in sorted(state.gems.items(), key=lambda i: (i[0][0][1], i[0][0][0], i[0][1]))
    )
    return " | ".join([
        f"{state.layout} P{state.turn}",
        f"tiles {tiles}".rstrip(),
        f"gems {gems}".rstrip(),
        f"centre {state.centre_left}",
        "hauls " + " ".join(_counts(h) for h in state.hauls),
        f"reserve {_counts(state.reserve)}",
        f"removed {_counts(state.removed)}",
    ])


def parse_state(text: str) -> IndigoState:
    """The state written by :func:`format_state` (history empty, no hands)."""
    sections = [s.strip() for s in text.split("|")]
    names = ["", "tiles", "gems", "centre", "hauls", "reserve", "removed"]
    if len(sections) != len(names):
        raise NotationError(
            f"a state has {len(names)} '|'-separated sections, got {len(sections)}: {text!r}"
        )
    head = sections[0].split()
    if len(head) != 2 or head[0] not in LAYOUTS or not re.fullmatch(r"P\d", head[1]):
        raise NotationError(f"state head {sections[0]!r} must be '<layout> P<seat>', e.g. '2p P0'")
    layout = head[0]
    players = LAYOUT_PLAYERS[layout]
    turn = int(head[1][1:])
    if turn >= players:
        raise NotationError(f"seat P{turn} in {sections[0]!r}: layout {layout} has {players}")
    body: dict[str, list[str]] = {}
    for name, section in zip(names[1:], sections[1:], strict=True):
        words = section.split()
        if not words or words[0] != name:
            raise NotationError(f"expected the {name!r} section, got {section!r}")
        body[name] = words[1:]
    tiles: dict[Cell, Tile] = {}
    for word in body["tiles"]:
        placement = parse_placement(word)
        tiles[placement.cell] = placement.tile
    gems: dict[EdgePoint, Gem] = {}
    for word in body["gems"]:
        point, gem = parse_resting_gem(word)
        gems[point] = gem
    if len(body["centre"]) != 1 or not body["centre"][0].isdigit():
        raise NotationError(f"centre section must be one count 0..6, got {body['centre']!r}")
    centre = int(body["centre"][0])
    if centre > 6:
        raise NotationError(f"the centre holds at most 6 gems, not {centre}")
    hauls = tuple(_parse_counts(w, "hauls") for w in body["hauls"])
    if len(hauls) != players:
        raise NotationError(f"hauls lists {len(hauls)} players, layout {layout} has {players}")
    if len(body["reserve"]) != 1 or len(body["removed"]) != 1:
        raise NotationError("reserve and removed each take one a/e/s count")
    return IndigoState(
        players=players,
        layout=layout,
        tiles=tiles,
        gems=gems,
        centre_left=centre,
        hauls=hauls,
        reserve=_parse_counts(body["reserve"][0], "reserve"),
        removed=_parse_counts(body["removed"][0], "removed"),
        turn=turn,
    )
