"""The Indigo reader checks the picture of the board before reading any piece (issue 19):
a grayscale, infrared, burnt-out or noisy picture is refused with its reason through the app's
own path, and a picture near a limit is read with every confidence lowered, so it is asked
about rather than applied."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from companion.indigo.state import all_legal_placements, new_game, play
from config import Config
from vision.errors import FrameRefusedError
from vision.indigo.pack import IndigoPack
from vision.indigo.picture_check import board_outline_in_frame
from vision.indigo.reader import read_indigo
from vision.indigo.settings import DEFAULT_SETTINGS
from vision.indigo.synth.render import render_frame
from vision.markers import locate
from vision.picture import measure_picture, region_mask
from vision.synth.conditions import apply_condition

FRAME = (1280, 720)
SEED = 19


@pytest.fixture(scope="module")
def turn(demo: IndigoPack) -> tuple[object, object, np.ndarray]:
    """The first turn of a game (all 12 gems on the board) and a frame of the board after it."""
    before = new_game(2)
    placement = all_legal_placements(before)[0]
    after = play(before, placement)[0]
    frame = render_frame(after, demo, seed=SEED, frame_size=FRAME).image
    return before, placement, frame


@pytest.mark.parametrize(("condition", "strength", "reason"), [
    ("grayscale", 1.0, "no-colour"),  # issue 19: 0 of 12 gems, 12 colourless chips, no question
    ("infrared", 0.5, "no-colour"),
    ("overexposed", 0.3, "overexposed"),  # issue 19: 9 of 12 gems missing, not asked about
    ("dim_room", 0.9, "noisy"),
])
def test_a_picture_that_carries_too_little_is_refused_through_the_app(
        turn: tuple[object, object, np.ndarray], demo: IndigoPack, condition: str,
        strength: float, reason: str) -> None:
    from ui.reading import read_indigo_frame

    before, _placement, frame = turn
    poor = apply_condition(frame, condition, strength, np.random.default_rng(SEED))
    with pytest.raises(FrameRefusedError) as refused:
        read_indigo_frame(poor, Config(), before, pack=demo)
    assert refused.value.reason == reason
    assert "the picture is" in str(refused.value)


def test_the_clean_frame_is_read_as_before(turn: tuple[object, object, np.ndarray],
                                           demo: IndigoPack) -> None:
    from ui.reading import read_indigo_frame

    before, placement, frame = turn
    reading = read_indigo_frame(frame, Config(), before, pack=demo)
    assert reading.proposal == (placement.cell, placement.tile.kind, placement.tile.rotation)


def test_a_picture_near_a_limit_lowers_every_confidence_below_the_threshold(
        turn: tuple[object, object, np.ndarray], demo: IndigoPack) -> None:
    _before, _placement, frame = turn
    fit = locate(frame, DEFAULT_SETTINGS.geometry.layout, checks=DEFAULT_SETTINGS.checks)
    outline = board_outline_in_frame(fit, DEFAULT_SETTINGS.geometry)
    colour = measure_picture(frame, region_mask(frame.shape, outline)).colour
    # this frame's colour only just above the limit: inside the quality band
    limits = dataclasses.replace(DEFAULT_SETTINGS.picture, min_colour=colour * 0.95)
    near = dataclasses.replace(DEFAULT_SETTINGS, picture=limits)
    clean = read_indigo(frame, demo)
    doubtful = read_indigo(frame, demo, settings=near)
    sure = DEFAULT_SETTINGS.min_confidence
    assert all(r.confidence >= sure for r in clean.cells.values())
    for cell, read in doubtful.cells.items():
        assert read.tile == clean.cells[cell].tile
        assert read.confidence < sure
    assert all(g.confidence < sure for g in doubtful.gems)
    assert all(c.confidence < sure for c in doubtful.chips)
    assert doubtful.questions


def test_the_board_outline_is_the_rim_in_the_frame(
        turn: tuple[object, object, np.ndarray], demo: IndigoPack) -> None:
    _before, _placement, frame = turn
    fit = locate(frame, DEFAULT_SETTINGS.geometry.layout, checks=DEFAULT_SETTINGS.checks)
    outline = board_outline_in_frame(fit, DEFAULT_SETTINGS.geometry)
    assert outline.shape == (6, 2)
    middle = outline.mean(axis=0)

    def nearer_the_rim(share: float) -> bool:
        """Whether the frame by every corner, this share of the way out, has the hue of the
        pack's rim rather than its table's (chromaticity: the light falls off to the sides)."""
        def hue(colours: np.ndarray) -> np.ndarray:
            colours = np.asarray(colours, float)
            chroma: np.ndarray = colours / colours.sum(axis=-1, keepdims=True)
            return chroma

        points = np.round(middle + (outline - middle) * share).astype(int)
        seen = hue(frame[points[:, 1], points[:, 0]])
        rim = np.linalg.norm(seen - hue(demo.rim), axis=1)
        table = np.linalg.norm(seen - hue(demo.table), axis=1)
        return bool((rim < table).all())

    assert nearer_the_rim(0.96)
    assert not nearer_the_rim(1.06)


@pytest.mark.parametrize("reason", ["overexposed", "too-dark", "low-contrast", "noisy",
                                    "no-colour", "blurred"])
def test_the_screen_words_each_picture_refusal(reason: str) -> None:
    pytest.importorskip("kivy")
    from ui.screens.indigo import refusal_text

    refused = FrameRefusedError("the reader's own English line", reason=reason)
    worded = refusal_text(refused)
    assert worded.startswith("the picture ")
    assert "English" not in worded
    # a refusal of the table, not of the picture, is worded too, never the reader's English
    other = FrameRefusedError("no board found (no markers)", reason="no-markers")
    assert "no board found" not in refusal_text(other)
    assert not refusal_text(other).startswith("the picture ")
