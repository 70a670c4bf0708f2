"""A pale pawn where channels meet, lost in dim light (session 30): the independent tuning
table 8002 drawn harsh, then underexposed 0.3 as bench/silent_reads.py makes it. The verdict
asserted holds on any pixels: the square is read right, or asked (below the threshold, and a
question names it)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from config import Config
from tests.vision.enigma.independent_tile_verdicts import right_or_asked
from vision.enigma.reader import read_enigma
from vision.enigma.settings import ReaderSettings
from vision.synth.conditions import apply_condition

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
from independent_scenes.enigma_table import enigma_scene, truth_of  # noqa: E402


def test_a_pale_pawn_where_channels_meet_in_dim_light_is_asked(demo_pack):
    """Square [1, 0]: a white pawn on a red cell where four channels meet. The dim light
    takes the cell's thin ring for channel and the pawn for bare tile; the channels arc over
    the pawn without closing round it, so no hole is seen: it was read as a bare junction,
    sure (1.0), the cell and its networker lost. The pale spot ringed on most sides by
    what is not tile makes the square asked."""
    seed, strength = 8002, 0.3
    frame, table = enigma_scene(seed, "harsh")
    truth, _ = truth_of(table)
    # the generator silent_reads seeds for this row: [seed, strength * 10, len(condition)]
    rng = np.random.default_rng([seed, int(strength * 10), len("underexposed")])
    image = apply_condition(frame, "underexposed", strength, rng)
    read = read_enigma(image, demo_pack, settings=ReaderSettings.from_config(Config())).to_json()
    right_or_asked(read, truth, (1, 0))
