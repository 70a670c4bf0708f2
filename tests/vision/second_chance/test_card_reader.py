"""Revealed puzzle cards: render, read back the canonical shape, teach a style, refuse."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from companion.second_chance import load_deck
from ui.cli import main
from vision.errors import FrameRefusedError
from vision.second_chance.card_reader import read_card, teach_card_style
from vision.second_chance.card_style import DEMO_STYLE, CardStyle
from vision.second_chance.synth.card import render_card

SHAPES = [shape for shape, _ in load_deck().puzzle]


@pytest.mark.parametrize("seed", range(0, 34, 3))
def test_cards_read_back_their_shape(seed: int) -> None:
    shape = SHAPES[seed % len(SHAPES)]
    reading = read_card(render_card(shape, seed=seed).image)
    assert reading.shape == shape.text
    assert reading.cells == shape.size and reading.confidence > 0.3


def test_a_taught_style_reads_cards_of_another_look() -> None:
    style = CardStyle(name="mine", square_mm=9.0, square=(160, 60, 40), face=(240, 240, 240),
                      border=(40, 40, 150))
    photo = render_card("###/#..", style=style, seed=3).image
    taught = teach_card_style(photo, "#./#./##")
    assert abs(taught.square_mm - 9.0) < 0.8
    assert read_card(render_card("##./.##/..#", style=style, seed=5).image, taught).shape \
        == "##./.##/..#"
    assert CardStyle.from_json(json.loads(json.dumps(taught.to_json()))) == taught


def test_no_card_is_refused() -> None:
    with pytest.raises(FrameRefusedError):
        read_card(np.full((480, 640, 3), 100, np.uint8), DEMO_STYLE)


def test_card_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frame = tmp_path / "card.png"
    assert main(["render", "card", "#./#./##", "-o", str(frame), "--seed", "1"]) == 0
    capsys.readouterr()
    assert main(["read", "card", str(frame)]) == 0
    assert json.loads(capsys.readouterr().out)["shape"] == "###/#.."
    assert main(["render", "card", "#.#", "-o", str(frame)]) == 2
    style = tmp_path / "style.json"
    assert main(["teach", "card", str(frame), "--shape", "###/#..", "-o", str(style)]) == 0
    assert main(["read", "card", str(frame), "--style", str(style)]) == 0
