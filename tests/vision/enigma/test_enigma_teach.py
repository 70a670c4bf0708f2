"""Teaching an Enigma pack: the start tile's face and size, colours at points the players
show, and a reader that then reads a table drawn in another style."""

from __future__ import annotations

import pytest

from companion.enigma.tiles import CROSSROADS
from vision.enigma.pack import load_enigma_pack
from vision.enigma.reader import read_enigma
from vision.enigma.synth.art import draw_pack
from vision.enigma.synth.render import PlacedView, TableView, render_frame
from vision.enigma.synth.scenes import random_record
from vision.enigma.synth.truth import score_read
from vision.enigma.teach import parse_samples, teach_colours, teach_start
from vision.errors import ArtPackError, FrameRefusedError

FRAME = (1920, 1080)


def test_a_pack_taught_from_photos_reads_tiles_drawn_in_another_style() -> None:
    ink, demo = draw_pack("ink"), load_enigma_pack()
    alone = render_frame(TableView({(0, 0): PlacedView(CROSSROADS)}), ink, seed=5,
                         frame_size=FRAME)
    taught = teach_start(alone.image, demo)
    assert abs(taught.tile_mm - 60.0) < 1.5
    assert taught.start.shape == (128, 128, 3)
    _, state = random_record(8, tiles=20)
    frame = render_frame(TableView.of_state(state, ink), ink, seed=8, frame_size=FRAME)
    x0, y0 = frame.scene.start_mm

    def at_mm(at, xy):
        return (x0 + (at[0] + xy[0] - 0.5) * 60.0, y0 + (at[1] + xy[1] - 0.5) * 60.0)

    samples = {"channel": at_mm((0, 0), (0.5, 0.08))}
    for entry in frame.truth["tiles"]:
        at = tuple(entry["at"])
        for cell, colour in entry.get("cells", {}).items():
            if not any(n["at"] == list(at) and n["cell"] == cell
                       for n in frame.truth["networkers"]):
                samples.setdefault(f"cells.{colour}", at_mm(at, frame.cell_xy[at][cell]))
    for n in frame.truth["networkers"]:
        at = tuple(n["at"])
        samples.setdefault(f"networkers.{n['colour']}", at_mm(at, frame.cell_xy[at][n["cell"]]))
    taught = teach_colours(frame.image, taught, samples)
    assert taught.cells != demo.cells
    score = score_read(frame.truth, frame.cell_xy, read_enigma(frame.image, taught))
    assert score.confident_wrong == 0
    assert score.tiles_exact >= 0.8 * score.tiles
    # the untaught demo pack does not know these colours: it reads far less
    untaught = score_read(frame.truth, frame.cell_xy, read_enigma(frame.image, demo))
    assert untaught.tiles_exact < score.tiles_exact


def test_teaching_refuses_what_it_cannot_use() -> None:
    demo = load_enigma_pack()
    with pytest.raises(ArtPackError):
        parse_samples(["cells.red=12"])
    assert parse_samples(["cells.red=1.5,-2"]) == {"cells.red": (1.5, -2.0)}
    empty = render_frame(TableView({}), demo, seed=1, frame_size=FRAME)
    with pytest.raises(FrameRefusedError):
        teach_start(empty.image, demo)
