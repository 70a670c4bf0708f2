"""Pieces that do not look like the art pack (issue 19, pack fit): the demo board with gems
and chips of other colours, read with the demo pack, is never read as sure. Before, half the
gems were missed without a question and chips were read as the nearest colour at 1.0."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from companion.indigo.state import IndigoState, all_legal_placements, new_game, play
from config import Config
from vision.indigo.model import GAIN_RANGE, balance_gains
from vision.indigo.pack import IndigoPack
from vision.indigo.pack_fit import fit_to_pack
from vision.indigo.read_types import ChipRead, GemSpot
from vision.indigo.reader import read_indigo
from vision.indigo.settings import DEFAULT_SETTINGS
from vision.indigo.synth.render import RenderedFrame, render_frame

FRAME = (1280, 720)
SEED = 4000
SURE = DEFAULT_SETTINGS.min_confidence


@pytest.fixture(scope="module")
def mixed_turn(demo: IndigoPack, ink: IndigoPack) -> tuple[IndigoState, RenderedFrame]:
    """A first turn drawn with the demo board and tiles but the ink look's gems and chips."""
    before = new_game(2)
    after = play(before, all_legal_placements(before)[0])[0]
    pieces = dataclasses.replace(demo, gems=ink.gems, chips=ink.chips)
    return before, render_frame(after, pieces, seed=SEED, frame_size=FRAME)


def test_gems_and_chips_unlike_the_pack_are_all_asked_about(
        mixed_turn: tuple[IndigoState, RenderedFrame], demo: IndigoPack) -> None:
    _before, rendered = mixed_turn
    read = read_indigo(rendered.image, demo)
    assert read.pieces_unlike_pack
    assert "teach" in read.questions[0]
    assert all(g.confidence < SURE for g in read.gems)
    assert all(c.confidence < SURE for c in read.chips)


def test_the_app_says_to_teach_the_pieces(mixed_turn: tuple[IndigoState, RenderedFrame],
                                          demo: IndigoPack) -> None:
    from ui.reading import read_indigo_frame

    before, rendered = mixed_turn
    reading = read_indigo_frame(rendered.image, Config(), before, pack=demo)
    assert reading.pieces_unlike_pack
    assert reading.proposal is None or reading.questions


def test_the_pack_s_own_pieces_fit(demo: IndigoPack) -> None:
    before = new_game(2)
    after = play(before, all_legal_placements(before)[0])[0]
    read = read_indigo(render_frame(after, demo, seed=SEED, frame_size=FRAME).image, demo)
    assert not read.pieces_unlike_pack
    assert all(c.confidence >= SURE for c in read.chips)


def test_one_odd_chip_is_asked_about_alone() -> None:
    from companion.indigo import Gem

    spots = [GemSpot(Gem.AMBER, None, 1.0)]
    chips = [ChipRead(i // 2, i % 2, 0, "red", 1.0) for i in range(12)]
    unlike = [i == 5 for i in range(12)]
    spots_after, chips_after, questions = fit_to_pack(spots, chips, unlike)
    assert spots_after == spots and not questions
    assert [c.confidence < SURE for c in chips_after] == unlike
    _spots, _chips, questions = fit_to_pack(spots, chips, [i < 3 for i in range(12)])
    assert questions and _spots[0].confidence < SURE


#: a dim room under a warm lamp that the picture check still lets through: the frame at about
#: a third of its light, less in blue than in red (BGR)
DARK_WARM = (0.29, 0.32, 0.36)


def _dark(image: np.ndarray, seed: int) -> np.ndarray:
    """The frame in that light, with a sensor's read noise."""
    noise = np.random.default_rng(seed).normal(0.0, 1.5, image.shape)
    dark = image.astype(np.float32) * np.array(DARK_WARM, np.float32) + noise
    return np.clip(np.rint(dark), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pieces_unlike_the_pack_are_seen_so_in_a_dark_frame(
        mixed_turn: tuple[IndigoState, RenderedFrame], demo: IndigoPack, seed: int) -> None:
    """Before, a dark frame's exposure gain was clipped as a cast's, one channel less than the
    others: every chip came out tinted towards the pack's colours, the misfit went unseen and
    the ink ambers were missed without a question."""
    _before, rendered = mixed_turn
    read = read_indigo(_dark(rendered.image, seed), demo)
    assert read.pieces_unlike_pack
    assert all(g.confidence < SURE for g in read.gems)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_pack_s_own_pieces_fit_in_a_dark_frame(demo: IndigoPack, seed: int) -> None:
    before = new_game(2)
    after = play(before, all_legal_placements(before)[0])[0]
    frame = render_frame(after, demo, seed=SEED, frame_size=FRAME).image
    read = read_indigo(_dark(frame, seed), demo)
    assert not read.pieces_unlike_pack
    assert sorted(g.gem.value for g in read.gems) == ["amber"] * 6 + ["emerald"] * 5 + [
        "sapphire"]


def test_the_balance_keeps_a_dark_frame_s_cast() -> None:
    """The exposure gain of a dark frame is no cast: the channels keep their ratios."""
    fitted = np.array([3.25, 3.1, 2.84], np.float32)
    gains = balance_gains(fitted)
    assert np.allclose(gains / gains[2], fitted / fitted[2], rtol=1e-4)
    # a cast past its limit is still held to it, round the exposure
    assert balance_gains(np.array([1.0, 1.0, 9.0]))[2] / 9 ** (1 / 3) == pytest.approx(
        GAIN_RANGE[1])
