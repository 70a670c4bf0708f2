"""The rules as a second opinion: is a read one legal placement after the last accepted state?

``check_after(previous, read)`` compares a frame's reading with the last accepted engine state.
The difference must be exactly one new tile, placed legally, plus the gem moves the engine
predicts for it. Anything else becomes a question such as ``"cell (1,-3): T3 rot 2 or T0 rot
5?"``; nothing is ever applied here. The session applies ``result.placement`` only when
``result.consistent`` is true (and then through the engine, as any other move).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from companion.errors import IllegalMoveError
from companion.indigo import CENTRE_STOCK, ROUTE_CELLS, Gem, Tile
from companion.indigo.geometry import Cell, EdgePoint
from companion.indigo.state import IndigoState, Placement, check_placement, play
from vision.indigo.read_types import CellRead, IndigoRead
from vision.indigo.settings import DEFAULT_SETTINGS
from vision.indigo.view import gem_location


@dataclass
class AfterCheck:
    """The verdict: ``consistent`` with one ``placement``, or questions for the players."""

    consistent: bool
    placement: Placement | None
    questions: list[str] = field(default_factory=list)
    expected: IndigoState | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"consistent": self.consistent, "placement": None}
        if self.placement is not None:
            cell, tile = self.placement.cell, self.placement.tile
            out["placement"] = {
                "cell": [cell[0], cell[1]],
                "tile": tile.kind,
                "rotation": tile.rotation,
            }
        return out


def _fmt_cell(cell: Cell) -> str:
    return f"({cell[0]},{cell[1]})"


def _fmt_tile(tile: Tile | None) -> str:
    return "empty" if tile is None else f"T{tile.kind} rot {tile.rotation}"


def _same(a: Tile | None, b: Tile | None) -> bool:
    if a is None or b is None:
        return a is b
    return a.paths == b.paths


def _fmt_point(point: EdgePoint) -> str:
    at = gem_location(point)
    if "corner" in at:
        return f"corner ({at['corner'][0]},{at['corner'][1]})"
    return f"cell ({at['cell'][0]},{at['cell'][1]}) edge {at['edge']}"


def _gems_of_read(read: IndigoRead) -> tuple[dict[EdgePoint, Gem], Counter[Gem]]:
    on_points = {g.point: g.gem for g in read.gems if g.point is not None}
    centre = Counter(g.gem for g in read.gems if g.point is None)
    return on_points, centre


def _gems_of_state(state: IndigoState) -> tuple[dict[EdgePoint, Gem], Counter[Gem]]:
    left = state.centre_left
    centre = Counter(CENTRE_STOCK[len(CENTRE_STOCK) - left :]) if left else Counter()
    return dict(state.gems), centre


def gem_differences(expected: IndigoState, read: IndigoRead) -> list[str]:
    """Where the read gems differ from the state's, in words (empty when they agree)."""
    exp_points, exp_centre = _gems_of_state(expected)
    got_points, got_centre = _gems_of_read(read)
    out = []
    for point in sorted(set(exp_points) | set(got_points)):
        e, g = exp_points.get(point), got_points.get(point)
        if e == g:
            continue
        if g is None:
            out.append(f"{_fmt_point(point)}: expected {e.value if e else 'no gem'}, read none")
        elif e is None:
            out.append(f"{_fmt_point(point)}: read {g.value}, expected none")
        else:
            out.append(f"{_fmt_point(point)}: read {g.value}, expected {e.value}")
    if exp_centre != got_centre:

        def fmt(c: Counter[Gem]) -> str:
            return ", ".join(f"{n} {gem.value}" for gem, n in sorted(c.items())) or "none"

        out.append(f"centre: read {fmt(got_centre)}, expected {fmt(exp_centre)}")
    return out


def check_after(
    previous: IndigoState,
    read: IndigoRead,
    *,
    min_confidence: float = DEFAULT_SETTINGS.min_confidence,
) -> AfterCheck:
    """Check a read against the last accepted state (see the module docstring)."""
    new_cells, questions = _changed_cells(previous, read)
    if not new_cells:
        if not questions:
            diffs = gem_differences(previous, read)
            questions.extend(f"no new tile, but {d}" for d in diffs)
        return AfterCheck(not questions, None, questions, previous)
    if len(new_cells) > 1:
        cells = ", ".join(_fmt_cell(c) for c in new_cells)
        questions.append(
            f"{len(new_cells)} new tiles read at {cells}; one placement per turn: which is new?"
        )
        return AfterCheck(False, None, questions, None)
    if questions:
        return AfterCheck(False, None, questions, None)
    return _check_new_tile(previous, read, new_cells[0], min_confidence)


def _changed_cells(previous: IndigoState, read: IndigoRead) -> tuple[list[Cell], list[str]]:
    """The cells that gained a tile, and questions about accepted tiles that changed or went."""
    questions: list[str] = []
    new_cells: list[Cell] = []
    for cell in ROUTE_CELLS:
        before = previous.tiles.get(cell)
        cell_read = read.cells.get(cell)
        now = cell_read.tile if cell_read is not None else None
        if _same(before, now):
            continue
        if before is None:
            new_cells.append(cell)
        elif now is None:
            questions.append(
                f"cell {_fmt_cell(cell)}: {_fmt_tile(before)} was accepted, the camera sees it "
                "empty: was it taken away or is it covered?"
            )
        else:
            questions.append(
                f"cell {_fmt_cell(cell)}: {_fmt_tile(before)} or {_fmt_tile(now)}? "
                f"({_fmt_tile(before)} was accepted)"
            )
    return new_cells, questions


def _candidates(cell_read: CellRead) -> list[Tile]:
    """The read tile, then its alternatives, each pattern once (best first)."""
    candidates: list[Tile] = []
    for tile in [cell_read.tile, *(t for t, _ in cell_read.alternatives)]:
        if tile is not None and not any(_same(tile, c) for c in candidates):
            candidates.append(tile)
    return candidates


def _placements_that_fit(
    previous: IndigoState, read: IndigoRead, cell: Cell, candidates: list[Tile]
) -> tuple[list[tuple[Tile, IndigoState]], dict[Tile, str]]:
    """The candidates whose legal placement moves the gems as read (with the state after),
    and why each illegal candidate is illegal."""
    fits: list[tuple[Tile, IndigoState]] = []
    illegal: dict[Tile, str] = {}
    for tile in candidates:
        placement = Placement(cell, tile)
        try:
            check_placement(previous, placement)
        except IllegalMoveError as exc:
            illegal[tile] = str(exc)
            continue
        after = play(previous, placement)[0]
        if not gem_differences(after, read):
            fits.append((tile, after))
    return fits, illegal


def _check_new_tile(
    previous: IndigoState, read: IndigoRead, cell: Cell, min_confidence: float
) -> AfterCheck:
    """The verdict on the one new tile at ``cell``: legal, and the gems moved as it moves them."""
    cell_read = read.cells[cell]
    candidates = _candidates(cell_read)
    best = candidates[0]
    fits, illegal = _placements_that_fit(previous, read, cell, candidates)
    questions: list[str] = []
    if best in illegal:
        alt = next((t for t in candidates if t not in illegal), None)
        questions.append(
            f"cell {_fmt_cell(cell)}: {_fmt_tile(best)} is not a legal placement "
            f"({illegal[best]}); {_fmt_tile(best)} or {_fmt_tile(alt)}?"
        )
        return AfterCheck(False, None, questions, None)
    if fits and _same(fits[0][0], best):
        tile, after = fits[0]
        questions = _doubts(read, cell, candidates, min_confidence)
        return AfterCheck(not questions, Placement(cell, tile), questions, after)
    if fits:
        other = fits[0][0]
        questions.append(
            f"cell {_fmt_cell(cell)}: {_fmt_tile(best)} or {_fmt_tile(other)}? "
            f"(the gems agree with {_fmt_tile(other)})"
        )
        return AfterCheck(False, None, questions, fits[0][1])
    expected = play(previous, Placement(cell, best))[0]
    diffs = gem_differences(expected, read)
    questions.append(
        f"cell {_fmt_cell(cell)}: {_fmt_tile(best)} read, but the gems are not where the rules "
        f"move them: " + "; ".join(diffs)
    )
    return AfterCheck(False, None, questions, expected)


def _doubts(
    read: IndigoRead, cell: Cell, candidates: list[Tile], min_confidence: float
) -> list[str]:
    """Questions about a placement the rules accept: the new tile or gems read unsure."""
    best = candidates[0]
    low = [g for g in read.gems if g.confidence < min_confidence]
    if read.cells[cell].confidence < min_confidence:
        alt = next((t for t in candidates if not _same(t, best)), None)
        return [f"cell {_fmt_cell(cell)}: {_fmt_tile(best)} or {_fmt_tile(alt)}?"]
    if low:
        return [
            "the gems agree with the rules but some were read with low confidence: please "
            "check "
            + ", ".join(
                # several gems in the centre's stock are one place to look at
                dict.fromkeys(
                    _fmt_point(g.point) if g.point is not None else "the centre" for g in low
                )
            )
        ]
    return []
