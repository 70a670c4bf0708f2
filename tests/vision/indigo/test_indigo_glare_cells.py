"""Cells under a lamp's reflection (issue 20): an empty cell is decided by what is left of it
when that rules out every tile; a tile under the same reflection is never read empty surely."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from companion.indigo.geometry import Cell
from companion.indigo.state import all_legal_placements, new_game, play
from config import Config
from vision.indigo.board import cell_xy
from vision.indigo.pack import IndigoPack
from vision.indigo.read_types import IndigoRead
from vision.indigo.reader import read_indigo
from vision.indigo.settings import DEFAULT_SETTINGS
from vision.indigo.synth.render import render_frame
from vision.markers import PlaneFit

FRAME = (1280, 720)
SURE = DEFAULT_SETTINGS.min_confidence
#: a cell away from the treasure tiles, the centre and the first placement
EMPTY_CELL = (2, 1)


def _with_reflection(image: np.ndarray, fit: PlaneFit, cell: Cell) -> np.ndarray:
    """The frame with a lamp's reflection half over ``cell``: a clipped core off its middle
    and the pale wash round it, covering about 60% of the cell."""
    to_frame = fit.plane_to_image @ DEFAULT_SETTINGS.geometry.board_to_frame()

    def at(xy: tuple[float, float]) -> np.ndarray:
        u, v, w = to_frame @ np.array([*xy, 1.0])
        return np.array([u / w, v / w])

    middle = at(cell_xy(cell))
    x, y = cell_xy(cell)
    radius = float(np.linalg.norm(at((x + 1.0, y)) - middle))  # one cell radius
    spot = middle + np.array([0.45 * radius, -0.2 * radius])
    out = image.copy()
    centre = (int(round(spot[0])), int(round(spot[1])))
    cv2.circle(out, centre, int(0.75 * radius), (236, 240, 242), -1)  # the wash
    cv2.circle(out, centre, int(0.3 * radius), (255, 255, 255), -1)  # clipped
    return out


#: the first turn: the tile laid on a cell away from EMPTY_CELL
TURN = next(p for p in all_legal_placements(new_game(2)) if p.cell == (-2, -1))


@pytest.fixture(scope="module")
def laid(demo: IndigoPack) -> tuple[np.ndarray, PlaneFit, Cell]:
    """A clean frame of the board after the first turn, where the reader puts the board in
    it, and the new tile's cell."""
    rendered = render_frame(play(new_game(2), TURN)[0], demo, seed=3, frame_size=FRAME,
                            effects=())
    fit = read_indigo(rendered.image, demo).fit
    assert fit is not None
    return rendered.image, fit, TURN.cell


def test_an_empty_cell_half_under_a_reflection_is_read_empty_surely(
        demo: IndigoPack, laid: tuple[np.ndarray, PlaneFit, Cell]) -> None:
    """The part of an empty cell left outside the glare still shows the flat print where any
    tile would show its paths: it is read empty, not asked (empty cells under glare were the
    most frequent question in harsh frames, independent tuning seeds 1000-1039)."""
    image, fit, _ = laid
    cell = read_indigo(_with_reflection(image, fit, EMPTY_CELL), demo).cells[EMPTY_CELL]
    assert cell.tile is None
    assert cell.confidence >= SURE


def test_a_tile_under_the_same_reflection_is_never_a_sure_empty_cell(
        demo: IndigoPack, laid: tuple[np.ndarray, PlaneFit, Cell]) -> None:
    image, fit, tile_cell = laid
    cell = read_indigo(_with_reflection(image, fit, tile_cell), demo).cells[tile_cell]
    assert cell.tile is not None or cell.confidence < SURE


def test_a_tile_partly_under_glare_a_shift_only_sharpens_is_read_surely(
        demo: IndigoPack, laid: tuple[np.ndarray, PlaneFit, Cell]) -> None:
    """A tile laid a little off its cell, a reflection over one side of it: unshifted it fits
    its own pattern best without a margin, shifted it fits the same pattern with one. It was
    asked (a cell under glare was sure only unshifted, for independent tuning seed 1036
    harsh, scans: a tile a fifth under glare read as another turn of its pattern at 0.94
    once shifted); the shift kept its class, so it is read surely. A cell whose class the
    shift changes is still asked (test_indigo_glare_hand_laid.py)."""
    image, fit, tile_cell = laid
    to_frame = fit.plane_to_image @ DEFAULT_SETTINGS.geometry.board_to_frame()
    middle, beside = ((to_frame @ np.array([*xy, 1.0])) for xy in (
        cell_xy(tile_cell), (cell_xy(tile_cell)[0] + 1.0, cell_xy(tile_cell)[1])))
    middle, beside = middle[:2] / middle[2], beside[:2] / beside[2]
    radius = float(np.linalg.norm(beside - middle))
    nudge = np.array([[1, 0, 0.1 * radius], [0, 1, 0.05 * radius]], np.float32)  # 2 mm
    moved = cv2.warpAffine(image, nudge, (image.shape[1], image.shape[0]))
    cell_mask = np.zeros(image.shape[:2], np.uint8)
    cv2.circle(cell_mask, (int(middle[0]), int(middle[1])), int(0.95 * radius), 255, -1)
    off = image.copy()
    off[cell_mask > 0] = moved[cell_mask > 0]
    spot = (int(middle[0] + 0.75 * radius), int(middle[1]))
    cv2.circle(off, spot, int(0.35 * radius), (236, 240, 242), -1)  # the wash
    cv2.circle(off, spot, int(0.14 * radius), (255, 255, 255), -1)  # clipped
    cell = read_indigo(off, demo).cells[tile_cell]
    assert cell.tile is not None and cell.tile.same_pattern(TURN.tile)
    assert cell.confidence >= SURE


def _read_doubting(monkeypatch: pytest.MonkeyPatch, doubted: list[Cell]) -> None:
    """The reader as the app calls it, with the cells ``doubted`` read at 0.5 (as a
    reflection over them would leave them)."""
    import vision.indigo.reader as reader

    real = reader.read_indigo

    def doubting(frame: np.ndarray, pack: IndigoPack, **options: object) -> IndigoRead:
        read = real(frame, pack, **options)  # type: ignore[arg-type]
        for cell in doubted:
            read.cells[cell] = dataclasses.replace(read.cells[cell], confidence=0.5)
        return read

    monkeypatch.setattr(reader, "read_indigo", doubting)


def test_the_app_does_not_ask_a_cell_that_cannot_have_changed(
        demo: IndigoPack, laid: tuple[np.ndarray, PlaneFit, Cell],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty cell, empty before, that the reader doubts is not asked once the turn's one
    placement is found (sure, legal, the gems where it moves them): one tile a turn, so the
    cell cannot have changed. While the placement itself is in doubt, it is still asked."""
    from ui.reading import read_indigo_frame

    image, _, tile_cell = laid
    _read_doubting(monkeypatch, [EMPTY_CELL])
    reading = read_indigo_frame(image, Config(), new_game(2), pack=demo)
    assert reading.proposal == (TURN.cell, TURN.tile.kind, TURN.tile.rotation)
    assert EMPTY_CELL not in reading.questions
    _read_doubting(monkeypatch, [EMPTY_CELL, tile_cell])
    reading = read_indigo_frame(image, Config(), new_game(2), pack=demo)
    assert reading.questions.get(EMPTY_CELL) == "unsure"
