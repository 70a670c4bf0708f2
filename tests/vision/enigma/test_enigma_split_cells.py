"""A cell whose pawn splits its ring into arcs (tuning any-tile tables, harsh): the arcs may
be read as cells of their own; the tile is then asked about, never read sure with a cell
too many and its pawn lost."""

from __future__ import annotations

import pytest

from vision.enigma.reader import read_enigma
from vision.enigma.settings import DEFAULT_SETTINGS
from vision.enigma.synth.any_tiles import random_catalogue
from vision.enigma.synth.render import TableView, render_frame
from vision.enigma.synth.scenes import categories_of, random_record
from vision.enigma.synth.truth import score_read
from vision.synth.effects import ALL_EFFECTS

#: bench/enigma_any_tile.py's table size and frame
TILES = 20
FRAME = (1920, 1080)


def _read_harsh_table(pack, seed: int):
    catalogue = random_catalogue(seed, pack)
    record, state = random_record(seed, tiles=TILES, catalogue=catalogue)
    view = TableView.of_state(state, pack, categories=categories_of(record, catalogue))
    frame = render_frame(view, pack, seed=seed, effects=ALL_EFFECTS, frame_size=FRAME)
    return frame, read_enigma(frame.image, pack)


def _asked(read, at: tuple[int, int]) -> bool:
    tile = read.tiles.get(at)
    named = any(q.startswith(f"tile [{at[0]}, {at[1]}]") for q in read.questions)
    return named or (tile is not None and tile.confidence < DEFAULT_SETTINGS.min_confidence)


@pytest.mark.parametrize("seed,at", [(7009, (-2, -2))])
def test_a_pale_pawn_between_the_arcs_of_its_cell_is_asked_about(demo_pack, seed, at) -> None:
    """7009 harsh [-2, -2]: a white pawn on a yellow cell, blurred to the tile's colour, broke
    the cell's ring into two arcs read as two yellow cells; the pawn between them was taken
    for tile beside a cell whose middle shows its colour, and the tile was read sure with
    three cells and no networker. An arc's middle lies on its ring: the pawn is asked about."""
    frame, read = _read_harsh_table(demo_pack, seed)
    score = score_read(frame.truth, frame.cell_xy, read, min_confidence=0.0)
    wrong_here = [w for w in score.wrong if w.startswith(f"tile [{at[0]}, {at[1]}]")]
    assert not wrong_here or _asked(read, at), (wrong_here, read.tiles.get(at))


@pytest.mark.parametrize("seed,at", [(14004, (1, 3))])
def test_two_arcs_of_one_cell_closer_than_touching_cells_are_asked_about(demo_pack, seed,
                                                                         at) -> None:
    """14004 harsh [1, 3]: a black pawn on a yellow cell, read as channel ink, split the
    cell's ring into two arcs 1.62 cell radii apart, read sure as two linked yellow cells.
    Printed cells never overlap, and an arc's centre lies off its cell's middle: asked."""
    frame, read = _read_harsh_table(demo_pack, seed)
    score = score_read(frame.truth, frame.cell_xy, read, min_confidence=0.0)
    wrong_here = [w for w in score.wrong if w.startswith(f"tile [{at[0]}, {at[1]}]")]
    assert not wrong_here or _asked(read, at), (wrong_here, read.tiles.get(at))
