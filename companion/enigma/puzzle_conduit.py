"""The conduit puzzle: lay square pieces on the card's grid so that every channel is closed.

Pieces have openings on some of N/E/S/W and may be turned. The card gives its cells, the
border stubs printed around them, and the pieces marked X (set aside, not used). Every other
piece is used once, on a distinct cell; every opening meets the neighbour's opening or a stub;
every stub is met; no opening faces an empty cell or a bare border (rules/enigma.md 6.3).

The solver propagates constraints: each cell's sides are known open (a stub, or a placed
neighbour's opening), known closed (a bare border, an empty or placed neighbour without an
opening) or still free; it always fills the cell with the fewest candidates left and stops a
branch as soon as some cell has none (forward checking with the most-constrained-first rule).
Pieces with the same openings are interchangeable, so solutions are distinct layouts.

>>> pieces = (ConduitPiece("P1", frozenset("NS")), ConduitPiece("P2", frozenset("NS")))
>>> card = ConduitCard("demo", ((0, 0), (0, 1)), frozenset({((0, 0), "N"), ((0, 1), "S")}))
>>> [sorted(s.items()) for s in solve(card, pieces)]
[[('P1', ((0, 0), 0)), ('P2', ((0, 1), 0))]]
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from companion.enigma.errors import PuzzleError
from companion.enigma.tiles import OPPOSITE, SIDES, Pos, neighbour

Openings = frozenset[str]
#: A solution: piece id -> (cell, clockwise quarter turns).
ConduitSolution = dict[str, tuple[Pos, int]]


@dataclass(frozen=True)
class ConduitPiece:
    """A conduit piece and its openings, unturned."""

    id: str
    openings: Openings

    def turned(self, quarter_turns: int) -> Openings:
        return turn_openings(self.openings, quarter_turns)


@dataclass(frozen=True)
class ConduitCard:
    """The card: its cells, its stubs (cell, side) and the pieces marked X."""

    id: str
    cells: tuple[Pos, ...]
    stubs: frozenset[tuple[Pos, str]]
    excluded: frozenset[str] = field(default_factory=frozenset)


def turn_openings(openings: Iterable[str], quarter_turns: int) -> Openings:
    """Openings after turning a piece ``quarter_turns`` clockwise."""
    return frozenset(SIDES[(SIDES.index(s) + quarter_turns) % 4] for s in openings)


def parse_openings(text: str, *, where: str = "conduit piece") -> Openings:
    if not text or any(c not in SIDES for c in text) or len(set(text)) != len(text):
        raise PuzzleError(f"{where}: openings must be distinct letters of NESW, got {text!r}")
    return frozenset(text)


def format_openings(openings: Iterable[str]) -> str:
    return "".join(s for s in SIDES if s in set(openings))


def parse_conduit_pieces(data: object) -> tuple[ConduitPiece, ...]:
    """``[{"id": "P1", "openings": "NE"}, ...]``."""
    if not isinstance(data, list):
        raise PuzzleError("conduit pieces: must be a list")
    pieces = []
    for item in data:
        if not isinstance(item, Mapping) or not isinstance(item.get("id"), str):
            raise PuzzleError(f"conduit pieces: each needs an 'id', got {item!r}")
        openings = item.get("openings")
        if not isinstance(openings, str):
            raise PuzzleError(f"conduit piece {item['id']}: 'openings' must be a string")
        pieces.append(ConduitPiece(item["id"], parse_openings(openings, where=item["id"])))
    if len({p.id for p in pieces}) != len(pieces):
        raise PuzzleError("conduit pieces: ids must be unique")
    return tuple(pieces)


def _pos(value: object, where: str) -> Pos:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise PuzzleError(f"{where}: a cell is [x, y], got {value!r}")
    return (value[0], value[1])


def parse_conduit_card(data: object) -> ConduitCard:
    """``{"id", "cells": [[x, y], ...], "stubs": [{"cell": [x, y], "side": "N"}], "excluded"}``."""
    if not isinstance(data, Mapping):
        raise PuzzleError("conduit card: must be an object")
    where = f"conduit card {data.get('id')!r}"
    raw_cells = data.get("cells")
    if not isinstance(raw_cells, list) or not raw_cells:
        raise PuzzleError(f"{where}: 'cells' must be a non-empty list")
    cells = tuple(_pos(c, where) for c in raw_cells)
    if len(set(cells)) != len(cells):
        raise PuzzleError(f"{where}: a cell is listed twice")
    stubs = set()
    for stub in data.get("stubs", []):
        if not isinstance(stub, Mapping) or stub.get("side") not in SIDES:
            raise PuzzleError(f"{where}: a stub is {{'cell': [x, y], 'side': N/E/S/W}}")
        cell = _pos(stub.get("cell"), where)
        if cell not in cells:
            raise PuzzleError(f"{where}: stub on {list(cell)}, which is not a card cell")
        stubs.add((cell, str(stub["side"])))
    excluded = data.get("excluded", [])
    if not isinstance(excluded, list) or not all(isinstance(e, str) for e in excluded):
        raise PuzzleError(f"{where}: 'excluded' must be a list of piece ids")
    return ConduitCard(str(data.get("id", "")), cells, frozenset(stubs), frozenset(excluded))


def format_conduit_card(card: ConduitCard) -> dict[str, object]:
    return {
        "id": card.id,
        "cells": [list(c) for c in card.cells],
        "stubs": [{"cell": list(c), "side": s} for c, s in sorted(card.stubs)],
        "excluded": sorted(card.excluded),
    }


def parse_conduit_solution(data: object) -> ConduitSolution:
    """``{"P1": {"cell": [0, 0], "rotation": 1}, ...}``."""
    if not isinstance(data, Mapping):
        raise PuzzleError("conduit solution: must be an object of piece id -> placement")
    solution: ConduitSolution = {}
    for piece_id, item in data.items():
        if not isinstance(item, Mapping) or not isinstance(item.get("rotation"), int):
            raise PuzzleError(f"conduit solution: {piece_id} needs 'cell' and 'rotation'")
        solution[str(piece_id)] = (_pos(item.get("cell"), "conduit solution"), item["rotation"])
    return solution


def format_conduit_solution(solution: ConduitSolution) -> dict[str, object]:
    return {pid: {"cell": list(cell), "rotation": r} for pid, (cell, r) in sorted(solution.items())}


def conduit_problem(
    card: ConduitCard, pieces: Sequence[ConduitPiece], solution: ConduitSolution
) -> str | None:
    """Why ``solution`` does not solve ``card``, or None when it does."""
    by_id = {p.id: p for p in pieces}
    for piece_id in solution:
        if piece_id not in by_id:
            return f"there is no piece {piece_id!r}"
        if piece_id in card.excluded:
            return f"piece {piece_id} is marked X on the card and must be set aside"
    missing = sorted(set(by_id) - set(card.excluded) - set(solution))
    if missing:
        return f"every piece not marked X must be used; unused: {', '.join(missing)}"
    cells = set(card.cells)
    layout: dict[Pos, Openings] = {}
    for piece_id, (cell, rotation) in sorted(solution.items()):
        if cell not in cells:
            return f"piece {piece_id} lies on {list(cell)}, outside the card"
        if cell in layout:
            return f"two pieces lie on {list(cell)}"
        layout[cell] = by_id[piece_id].turned(rotation)
    for cell, openings in sorted(layout.items()):
        for side in sorted(openings):
            if (cell, side) in card.stubs:
                continue
            other = layout.get(neighbour(cell, side))
            if other is None or OPPOSITE[side] not in other:
                what = "a bare border" if neighbour(cell, side) not in cells else (
                    "an empty cell" if other is None else "a closed side")
                return f"the opening {side} of the piece on {list(cell)} faces {what}"
    for cell, side in sorted(card.stubs):
        if side not in layout.get(cell, frozenset()):
            return f"the stub on side {side} of {list(cell)} is not met by an opening"
    return None


def check(card: ConduitCard, pieces: Sequence[ConduitPiece], solution: ConduitSolution) -> bool:
    """True when every channel is connected or closed and the pieces are used as required."""
    return conduit_problem(card, pieces, solution) is None


# ---------------------------------------------------------------------------- solver
def _orientations(openings: Openings) -> list[tuple[int, Openings]]:
    seen: dict[Openings, int] = {}
    for r in range(4):
        seen.setdefault(turn_openings(openings, r), r)
    return [(r, o) for o, r in seen.items()]


def _side_state(
    card_cells: frozenset[Pos],
    stubs: frozenset[tuple[Pos, str]],
    layout: Mapping[Pos, Openings | None],
    cell: Pos,
    side: str,
    *,
    free_border: bool,
) -> bool | None:
    """True: this side must be open; False: must be closed; None: either."""
    if (cell, side) in stubs:
        return True
    other_cell = neighbour(cell, side)
    if other_cell not in card_cells:
        return None if free_border else False
    if other_cell not in layout:
        return None
    other = layout[other_cell]
    return other is not None and OPPOSITE[side] in other


#: a piece laid on a cell: its shape, the quarter turns it is laid at and the openings so
#: turned; None for a cell left empty
_Laid = tuple[Openings, int, Openings] | None


class _ConduitSearch:
    """Lays the card's pieces cell by cell, depth first, always on the free cell with the
    fewest pieces that fit it, and keeps every full layout found (up to ``limit``)."""

    def __init__(self, card: ConduitCard, pieces: Sequence[ConduitPiece], *,
                 limit: int | None, free_border: bool, rng: random.Random | None) -> None:
        self.card, self.limit, self.free_border, self.rng = card, limit, free_border, rng
        self.card_cells = frozenset(card.cells)
        self.stubs: frozenset[tuple[Pos, str]] = frozenset() if free_border else card.stubs
        used = [p for p in pieces if p.id not in card.excluded]
        self.stock: Counter[Openings] = Counter(p.openings for p in used)
        self.empties_left = len(card.cells) - len(used)
        self.orientations = {shape: _orientations(shape) for shape in self.stock}
        self.layout: dict[Pos, Openings | None] = {}
        self.chosen: dict[Pos, _Laid] = {}
        self.found: list[dict[Pos, _Laid]] = []

    def candidates(self, cell: Pos) -> list[_Laid]:
        """Every piece left, at every distinct turn, that fits the sides round ``cell``; an
        empty cell too while empties are left and no side needs an opening."""
        needs = {side: _side_state(self.card_cells, self.stubs, self.layout, cell, side,
                                   free_border=self.free_border)
                 for side in SIDES}
        options: list[_Laid] = []
        for shape, count in self.stock.items():
            if count == 0:
                continue
            for rotation, turned in self.orientations[shape]:
                if all(need is None or need == (side in turned) for side, need in needs.items()):
                    options.append((shape, rotation, turned))
        if self.empties_left > 0 and not any(needs.values()):
            options.append(None)
        if self.rng is not None:
            self.rng.shuffle(options)
        return options

    def _fewest_options(self, free: list[Pos]) -> tuple[Pos, list[_Laid]]:
        best_cell, best = free[0], self.candidates(free[0])
        for cell in free[1:]:
            if len(best) <= 1:
                break
            options = self.candidates(cell)
            if len(options) < len(best):
                best_cell, best = cell, options
        return best_cell, best

    def _lay(self, cell: Pos, option: _Laid, step: int) -> None:
        """Lay ``option`` on ``cell`` (step 1) or lift it off again (step -1)."""
        if option is None:
            self.empties_left -= step
        else:
            self.stock[option[0]] -= step
        if step > 0:
            self.layout[cell] = None if option is None else option[2]
            self.chosen[cell] = option
        else:
            del self.layout[cell], self.chosen[cell]

    def run(self) -> bool:
        """Search on from the layout so far; True once ``limit`` layouts are found."""
        free = [c for c in self.card.cells if c not in self.layout]
        if not free:
            self.found.append(dict(self.chosen))
            return self.limit is not None and len(self.found) >= self.limit
        cell, options = self._fewest_options(free)
        for option in options:
            self._lay(cell, option, 1)
            stop = self.run()
            self._lay(cell, option, -1)
            if stop:
                return True
        return False


def _search(
    card: ConduitCard,
    pieces: Sequence[ConduitPiece],
    *,
    limit: int | None,
    free_border: bool,
    rng: random.Random | None,
) -> list[dict[Pos, _Laid]]:
    search = _ConduitSearch(card, pieces, limit=limit, free_border=free_border, rng=rng)
    if search.empties_left < 0:
        return []
    search.run()
    return search.found


def _to_solution(
    layout: Mapping[Pos, _Laid],
    pieces: Sequence[ConduitPiece],
    excluded: frozenset[str],
) -> ConduitSolution:
    free: dict[Openings, list[str]] = {}
    for piece in pieces:
        if piece.id not in excluded:
            free.setdefault(piece.openings, []).append(piece.id)
    solution: ConduitSolution = {}
    for cell in sorted(layout, key=lambda c: (c[1], c[0])):
        option = layout[cell]
        if option is not None:
            shape, rotation, _ = option
            solution[free[shape].pop(0)] = (cell, rotation)
    return solution


def solve(
    card: ConduitCard, pieces: Sequence[ConduitPiece], *, limit: int | None = None
) -> list[ConduitSolution]:
    """Distinct solutions of ``card`` (at most ``limit``), identical pieces taken in id order."""
    return [
        _to_solution(layout, pieces, card.excluded)
        for layout in _search(card, pieces, limit=limit, free_border=False, rng=None)
    ]


def random_card(
    card_id: str,
    cells: Sequence[Pos],
    pieces: Sequence[ConduitPiece],
    excluded: Iterable[str],
    rng: random.Random,
) -> tuple[ConduitCard, ConduitSolution] | None:
    """A card with a known solution: lay the pieces at random so inner sides agree, then
    print a stub wherever an opening reaches the border. None when no layout exists."""
    skeleton = ConduitCard(card_id, tuple(cells), frozenset(), frozenset(excluded))
    layouts = _search(skeleton, pieces, limit=1, free_border=True, rng=rng)
    if not layouts:
        return None
    layout = layouts[0]
    stubs = frozenset(
        (cell, side)
        for cell, option in layout.items()
        if option is not None
        for side in option[2]
        if neighbour(cell, side) not in set(cells)
    )
    card = ConduitCard(card_id, tuple(cells), stubs, frozenset(excluded))
    return card, _to_solution(layout, pieces, card.excluded)


__all__ = [
    "ConduitCard",
    "ConduitPiece",
    "ConduitSolution",
    "check",
    "conduit_problem",
    "format_conduit_card",
    "format_conduit_solution",
    "format_openings",
    "parse_conduit_card",
    "parse_conduit_pieces",
    "parse_conduit_solution",
    "parse_openings",
    "random_card",
    "solve",
    "turn_openings",
]
