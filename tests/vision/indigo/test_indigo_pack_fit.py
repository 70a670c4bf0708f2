"""Pieces that do not look like the art pack (issue 19, pack fit): the demo board with gems
and chips of other colours, read with the demo pack, is never read as sure. Before, half the
gems were missed without a question and chips were read as the nearest colour at 1.0."""

from __future__ import annotations

import dataclasses

import pytest

from companion.indigo.state import IndigoState, all_legal_placements, new_game, play
from config import Config
from vision.indigo.pack import IndigoPack
from vision.indigo.pack_fit import fit_to_pack
from vision.indigo.pieces import GemSpot
from vision.indigo.read_types import ChipRead
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
