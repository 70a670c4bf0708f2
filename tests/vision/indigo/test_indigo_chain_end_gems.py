"""A faint gem seen where a sure chain of paths puts its start's gem is sure; a gem the rules
do not put there, in that colour, or behind a doubtful cell stays as the camera read it
(issue 20, session 27's census in bench/figures/indigo_asks_s27.txt)."""

from __future__ import annotations

from dataclasses import replace

from indigo_scenes import state as seeded_state

from companion.indigo import CENTRE, CORNER_BY_CELL, ROUTE_CELLS, Gem
from companion.indigo.geometry import Cell, EdgePoint, neighbour
from companion.indigo.state import IndigoState
from vision.indigo.chain_ends import settle_chain_ends
from vision.indigo.read_types import CellRead, GemSpot
from vision.indigo.settings import DEFAULT_SETTINGS

MIN = DEFAULT_SETTINGS.min_confidence
FAINT = 0.3


def _cells(state: IndigoState) -> dict[Cell, CellRead]:
    return {cell: CellRead(cell, state.tiles.get(cell), 1.0) for cell in ROUTE_CELLS}


def _moved(state: IndigoState) -> list[tuple[EdgePoint, Gem]]:
    """The gems resting on the edges that left a start (not a corner's unmoved amber)."""
    return [(point, gem) for point, gem in state.gems.items()
            if not (point[0] in CORNER_BY_CELL
                    and CORNER_BY_CELL[point[0]].arrow_edge == point[1])]


def _round_centre(state: IndigoState) -> int:
    return sum(1 for e in range(6) if neighbour(CENTRE, e) in state.tiles)


def _settled(spot: GemSpot, cells: dict[Cell, CellRead]) -> float:
    return settle_chain_ends([spot], cells, MIN)[0].confidence


def test_a_faint_gem_at_its_chain_end_in_its_starts_colour_is_sure() -> None:
    settled = 0
    for seed in range(8):
        state = seeded_state(seed, 20)
        cells = _cells(state)
        for point, gem in _moved(state):
            if gem is Gem.SAPPHIRE or (gem is Gem.EMERALD and _round_centre(state) == 6):
                continue
            assert _settled(GemSpot(gem, point, FAINT), cells) == 1.0, (seed, point, gem)
            settled += 1
    assert settled >= 8


def test_a_gem_the_rules_do_not_put_there_stays_faint() -> None:
    checked = 0
    for seed in range(8):
        state = seeded_state(seed, 20)
        cells = _cells(state)
        for point, gem in _moved(state):
            other = Gem.AMBER if gem is not Gem.AMBER else Gem.EMERALD
            # another colour than its start gives, and the sapphire (which of six starts
            # gave it the camera cannot say)
            assert _settled(GemSpot(other, point, FAINT), cells) == FAINT
            assert _settled(GemSpot(Gem.SAPPHIRE, point, FAINT), cells) == FAINT
            # a cell of its chain, or the empty cell it faces, in doubt
            for cell in (point[0], neighbour(*point)):
                if cell in cells:
                    doubtful = dict(cells)
                    doubtful[cell] = replace(cells[cell], confidence=MIN - 0.05)
                    assert _settled(GemSpot(gem, point, FAINT), doubtful) == FAINT
            checked += 1
    assert checked >= 8


def test_with_six_tiles_round_the_centre_an_emerald_is_not_settled() -> None:
    """The sixth tile takes the sapphire: any of the six centre gems may be it."""
    for seed in range(40):
        state = seeded_state(seed, 40)
        if _round_centre(state) < 6:
            continue
        cells = _cells(state)
        for point, gem in _moved(state):
            if gem is Gem.EMERALD:
                assert _settled(GemSpot(gem, point, FAINT), cells) == FAINT
        return
    raise AssertionError("no seeded game with six tiles round the centre")


def test_a_tuning_frame_asks_no_more_about_a_faint_amber_where_its_chain_ends() -> None:
    """Independent tuning board 1001, harsh, demo look (bench/independent_scenes; seeds
    below 70000 are tuning): the amber that left corner (4,-4) rests on cell (3,-3) edge 3,
    where the sure tiles' chain from the corner ends; the camera saw it at 0.5 and asked
    (48ff75f). Now it is sure and right, and no question names it."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    from independent_scenes.indigo_compare import read_frame
    from independent_scenes.indigo_scene import indigo_scene

    scene = indigo_scene(1001, "demo", "harsh")
    out, _ = read_frame(scene.frame, scene.look.pack)
    assert isinstance(out, dict)
    assert ("amber", ("edge", frozenset({(3, -3), (3, -2)}))) in scene.truth.gems
    there = [g for g in out["gems"] if g["at"] == {"cell": [3, -3], "edge": 3}]
    assert [g["gem"] for g in there] == ["amber"]
    assert there[0]["confidence"] >= MIN
    assert not any("(3,-3) edge 3" in q for q in out["questions"])
