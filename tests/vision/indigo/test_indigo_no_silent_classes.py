"""Classes of wrong reads the Indigo reader gave with no question (issue 19), each drawn on
purpose: the read may be wrong, but then it is asked."""

from __future__ import annotations

import dataclasses

from companion.indigo.state import all_legal_placements, new_game, play
from vision.indigo.pack import IndigoPack
from vision.indigo.reader import read_indigo
from vision.indigo.settings import DEFAULT_SETTINGS
from vision.indigo.synth.render import render_frame
from vision.indigo.view import BoardView

FRAME = (1280, 720)
SURE = DEFAULT_SETTINGS.min_confidence
#: a player index the renderer has no chip colour for: the space is drawn empty
NO_CHIP = 9


def test_a_chip_space_seen_empty_among_chips_is_asked(demo: IndigoPack) -> None:
    """Every layout fills the twelve chip spaces: one read empty (a red chip on an orange
    gateway in the scans look, independent seed 1005) is a chip missed, never sure."""
    before = new_game(2)
    view = BoardView.of_state(play(before, all_legal_placements(before)[0])[0])
    assert view.chips is not None
    chips = ((NO_CHIP, view.chips[0][1]), *view.chips[1:])
    rendered = render_frame(dataclasses.replace(view, chips=chips), demo, seed=11,
                            frame_size=FRAME)
    read = read_indigo(rendered.image, demo)
    missing = next(c for c in read.chips if (c.gate, c.slot) == (0, 0))
    assert missing.player is None
    assert missing.confidence < SURE
    assert any(q.startswith("gateway 0 chip 0") for q in read.questions)
    assert all(c.confidence >= SURE for c in read.chips if c is not missing)


