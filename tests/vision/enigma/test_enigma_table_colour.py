"""The players' own table: grey cloth, green felt or black wood, not the pack's brown.

The reader tells tile from table by colour, so it measures the table round the markers
(:mod:`vision.enigma.table_colour`) instead of trusting the pack's table colour. A bare table
early in a game is plain by nature: the picture check measures contrast and colour where the
start tile lies as well, so the first reads of a game are neither refused nor asked about.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from vision.enigma.reader import read_enigma
from vision.enigma.synth.render import TableView, render_frame
from vision.enigma.synth.scenes import categories_of, random_record
from vision.enigma.synth.truth import score_read
from vision.enigma.table_colour import measured_table_colour, with_table_colour

FRAME = (1920, 1080)
#: tables as players have them (BGR)
TABLES = {"grey cloth": (105, 105, 105), "green felt": (55, 105, 45), "black wood": (28, 30, 34)}


def _drawn(pack: Any, table: tuple[int, int, int], tiles: int, seed: int) -> Any:
    record, state = random_record(seed, tiles=tiles)
    drawn_with = with_table_colour(pack, table)
    view = TableView.of_state(state, drawn_with, categories=categories_of(record))
    return render_frame(view, drawn_with, seed=seed, frame_size=FRAME)


@pytest.mark.parametrize("table", sorted(TABLES))
def test_the_start_tile_alone_on_the_players_table_is_read_without_a_question(demo_pack,
                                                                               table):
    rendered = _drawn(demo_pack, TABLES[table], 0, seed=31)
    read = read_enigma(rendered.image, demo_pack)
    assert list(read.tiles) == [(0, 0)]
    assert read.questions == []


@pytest.mark.parametrize("table", sorted(TABLES))
def test_a_young_table_on_the_players_table_has_no_phantom_tiles(demo_pack, table):
    rendered = _drawn(demo_pack, TABLES[table], 4, seed=32)
    read = read_enigma(rendered.image, demo_pack)
    truth_at = {(t["at"][0], t["at"][1]) for t in rendered.truth["tiles"]}
    assert set(read.tiles) == truth_at
    score = score_read(rendered.truth, rendered.cell_xy, read, min_confidence=0.85)
    assert score.confident_wrong == 0


def test_the_table_colour_is_measured_round_the_markers(demo_pack):
    from vision.enigma.geometry import table_geometry
    from vision.enigma.settings import DEFAULT_SETTINGS
    from vision.enigma.squares import rectify_seen
    from vision.markers import locate

    rendered = _drawn(demo_pack, TABLES["green felt"], 2, seed=33)
    geo = table_geometry(DEFAULT_SETTINGS.table, demo_pack)
    fit = locate(rendered.image, geo.layout, checks=DEFAULT_SETTINGS.checks)
    canon, plane_to_canon, seen = rectify_seen(rendered.image, fit, geo,
                                               DEFAULT_SETTINGS.px_per_tile)
    measured = measured_table_colour(canon, geo, plane_to_canon, seen, demo_pack)
    assert measured is not None
    # green felt under the camera's cast and light: green stays the strongest channel
    b, g, r = measured
    assert g > b and g > r
    assert np.linalg.norm(np.subtract(measured, demo_pack.colour("table"))) > 40
