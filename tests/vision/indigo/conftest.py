"""Fixtures several Indigo vision test files share: the shipped demo pack and the ``ink``
style (drawn unlike the demo, so a test can check the reader never leans on one art)."""

from __future__ import annotations

import pytest

from vision.indigo.pack import IndigoPack, load_indigo_pack
from vision.indigo.synth.art import draw_pack


@pytest.fixture(scope="module")
def demo() -> IndigoPack:
    return load_indigo_pack()


@pytest.fixture(scope="module")
def ink() -> IndigoPack:
    return draw_pack("ink")
