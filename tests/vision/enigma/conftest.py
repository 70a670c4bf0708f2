"""Fixtures the Enigma vision tests share: the shipped demo pack and the drawn ink pack."""

from __future__ import annotations

import pytest

from vision.enigma.pack import EnigmaPack, load_enigma_pack
from vision.enigma.synth.art import draw_pack


@pytest.fixture(scope="module")
def demo_pack() -> EnigmaPack:
    return load_enigma_pack()


@pytest.fixture(scope="module")
def ink_pack() -> EnigmaPack:
    return draw_pack("ink")


@pytest.fixture(scope="module")
def packs() -> dict[str, EnigmaPack]:
    return {"demo": load_enigma_pack(), "ink": draw_pack("ink")}
