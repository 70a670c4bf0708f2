"""A faint gem is made sure at a chain's end only where the position requires a gem there:
never on the chain of two gems that met (both are removed, rules digest §7), nor on a chain
whose move the camera shows unfinished (issue 20, session 28)."""

from __future__ import annotations

from collections.abc import Iterator

from indigo_scenes import state as seeded_state

from companion.indigo import CENTRE, ROUTE_CELLS, Gem
from companion.indigo.gems import Ending, trace_path
from companion.indigo.geometry import Cell, EdgePoint, across, neighbour
from companion.indigo.state import IndigoState
from companion.indigo.tiles import Tile
from vision.indigo.chain_ends import settle_chain_ends
from vision.indigo.path_rules import gem_starts
from vision.indigo.read_types import CellRead, GemSpot
from vision.indigo.settings import DEFAULT_SETTINGS

MIN = DEFAULT_SETTINGS.min_confidence
FAINT = 0.3
SEEN = 0.9


def _cells(tiles: dict[Cell, Tile]) -> dict[Cell, CellRead]:
    return {cell: CellRead(cell, tiles.get(cell), 1.0) for cell in ROUTE_CELLS}


def _colour(start: EdgePoint, gem: Gem | None) -> Gem:
    """The colour a start gives: its amber, or (the centre, in these games) an emerald."""
    return gem if gem is not None else Gem.EMERALD


def _round_centre(tiles: dict[Cell, Tile]) -> int:
    return sum(1 for e in range(6) if neighbour(CENTRE, e) in tiles)


def _collided_chains() -> Iterator[tuple[int, dict[Cell, Tile], EdgePoint, Gem, tuple]]:
    """Seeded games after a collision: each start whose chain runs into another start."""
    for seed in range(60):
        state: IndigoState = seeded_state(seed, 30)
        if not state.gems_removed or _round_centre(dict(state.tiles)) == 6:
            continue
        tiles = dict(state.tiles)
        starts = gem_starts(_cells(tiles))
        points = [point for point, _ in starts]
        for start, gem in starts:
            traced = trace_path(start, tiles, points)
            if traced is not None and traced[1] is Ending.COLLIDED:
                yield seed, tiles, start, _colour(start, gem), traced[0]


def test_no_faint_gem_is_made_sure_on_the_chain_of_two_gems_that_met() -> None:
    """Two gems that meet on one chain are both removed: the chain then joins two starts and
    no gem must lie anywhere on it. A phantom of the start's colour on any of its points (the
    spots the two gems rested on before they met among them) stays as faint as it was seen."""
    checked = set()
    for seed, tiles, _start, colour, chain in _collided_chains():
        spots = [GemSpot(colour, point, FAINT) for point in chain]
        settled = settle_chain_ends(spots, _cells(tiles), MIN)
        assert [s.confidence for s in settled] == [FAINT] * len(spots), seed
        checked.add(seed)
        if len(checked) == 4:
            return
    raise AssertionError(f"collisions in {len(checked)} seeded games only")


def _unfinished_moves() -> Iterator[tuple[int, dict[Cell, Tile], EdgePoint, EdgePoint, Gem]]:
    """Seeded games with a tile laid before a resting gem and the gem not yet moved: (seed,
    the tiles with the new one, where the gem still lies, the chain's new end, its colour)."""
    for seed in range(40):
        state = seeded_state(seed, 12)
        before = dict(state.tiles)
        for start, gem in gem_starts(_cells(before)):
            traced = trace_path(start, before, [p for p, _ in gem_starts(_cells(before))])
            if traced is None or traced[1] is not Ending.REST or not traced[0]:
                continue
            lies = traced[0][-1]
            laid = across(lies)[0]
            for rotation in range(6):
                tiles = {**before, laid: Tile(0, rotation)}
                if _round_centre(tiles) == 6:
                    continue
                starts = [p for p, _ in gem_starts(_cells(tiles))]
                after = trace_path(start, tiles, starts)
                if after is not None and after[1] is Ending.REST:
                    yield seed, tiles, lies, after[0][-1], _colour(start, gem)
                    break


def test_a_faint_gem_at_the_new_end_of_a_move_not_finished_stays_faint() -> None:
    """A tile laid next to a resting gem that was not yet moved: the camera still sees the
    gem before the new tile, and a faint gem seen at the chain's new end is not made sure
    (the gem the rules put there is the one still short of it). Once the gem is no longer
    seen short of the end, the faint gem there is settled."""
    checked = 0
    for seed, tiles, lies, end, colour in _unfinished_moves():
        cells = _cells(tiles)
        unmoved = GemSpot(colour, lies, SEEN)
        phantom = GemSpot(colour, end, FAINT)
        assert settle_chain_ends([unmoved, phantom], cells, MIN)[1].confidence == FAINT, seed
        assert settle_chain_ends([phantom], cells, MIN)[0].confidence == 1.0, seed
        checked += 1
        if checked == 8:
            return
    raise AssertionError(f"{checked} moves not finished only")
