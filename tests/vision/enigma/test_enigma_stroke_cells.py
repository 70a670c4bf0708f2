"""A channel's core blurred to a cell's colour is no cell (tuning independent table 20015
harsh, square [0, 1]: an ochre channel from N1 bending to W1, its core labelled yellow 3 px
wide for 34 px from the side, its rims labelled channel; read as a yellow cell by the side,
and the neighbour's clear opening at the mirrored position joined it to N1 and dropped the
tile's question: read sure with a cell that is not there; the hunt of session 22 found
another, independent 24019 harsh [-1, 2]: an S0-S1 channel read as a yellow cell by the
south side joined to S0 and S1). A run of a cell's colour longer than a cell and narrower
than a channel round the cell found in it is asked about."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from vision.enigma.cells import find_cells
from vision.enigma.colours import colour_features, colour_model
from vision.enigma.pack import EnigmaPack
from vision.enigma.settings import DEFAULT_SETTINGS

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.enigma_judge import read_and_judge  # noqa: E402
from independent_scenes.enigma_table import enigma_scene, truth_of  # noqa: E402

P = 64
THIN = "only thin strokes of its colour show there"


def _channel_with_a_yellow_core(pack: EnigmaPack, cell_at: tuple[float, float] | None
                                ) -> tuple[np.ndarray, np.ndarray]:
    """Labels and features of a channel a channel's width wide running south from the north
    side, its 3 px core labelled yellow, its rims channel: 35 px long, or ending at a yellow
    cell at ``cell_at`` when given."""
    model = colour_model(pack)
    labels = np.full((P, P), model.index("tile"))
    end = 35 if cell_at is None else int(cell_at[1])
    labels[0:end, 30:35] = model.index("channel")
    labels[0:end, 31:34] = model.index("cell", "yellow")
    if cell_at is not None:
        yy, xx = np.mgrid[0:P, 0:P]
        labels[np.hypot(xx - cell_at[0], yy - cell_at[1]) <= pack.cell_radius * P] = \
            model.index("cell", "yellow")
    feats = colour_features(np.array(pack.cells["yellow"], np.float32)) * np.ones((P, P, 1))
    return labels, feats.astype(np.float32)


def test_a_channels_core_in_a_cells_colour_is_no_sure_cell(demo_pack) -> None:
    labels, feats = _channel_with_a_yellow_core(demo_pack, None)
    cells, problems, conf = find_cells(labels, feats, colour_model(demo_pack), demo_pack)
    assert not cells or (any(THIN in p for p in problems)
                         and conf < DEFAULT_SETTINGS.min_confidence)


def test_a_cell_the_yellow_cored_channel_ends_at_is_a_sure_cell(demo_pack) -> None:
    labels, feats = _channel_with_a_yellow_core(demo_pack, (32.0, 24.0))
    cells, problems, conf = find_cells(labels, feats, colour_model(demo_pack), demo_pack)
    assert [c.colour for c in cells] == ["yellow"] and not problems and conf == 1.0
    assert abs(cells[0].centre[0] - 32.0) < 1.5 and abs(cells[0].centre[1] - 24.0) < 1.5


@pytest.mark.parametrize("seed", [20015, 24019])
def test_the_channels_core_taken_for_a_cell_on_a_harsh_table_is_asked_about(seed) -> None:
    frame, table = enigma_scene(seed, "harsh")
    score = read_and_judge(frame, *truth_of(table))
    assert not score.refused
    assert score.silent_wrong == 0, score.wrong
