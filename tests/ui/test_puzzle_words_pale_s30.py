"""A card on a table as pale as it (issue #26, session 30): the player is told to lay it on a
darker table, not that the mat is unseen."""

from __future__ import annotations

import pytest

from ui.i18n import set_language
from ui.puzzle_words import verdict_sentence
from vision.enigma.puzzles.verdicts import PuzzleVerdict, Reason


@pytest.mark.parametrize("language", ["en", "es", "uk"])
def test_a_pale_table_is_its_own_sentence(language) -> None:
    set_language(language)
    try:
        pale, mat = (verdict_sentence("fragment", PuzzleVerdict(
            "cannot tell", "English", code=Reason.FRAME_UNREADABLE,
            facts={"refusal": refusal})) for refusal in ("pale-table", "no-markers"))
        english = verdict_sentence("fragment", PuzzleVerdict(
            "cannot tell", "English", code=Reason.FRAME_UNREADABLE,
            facts={"refusal": "pale-table"})) if language == "en" else pale
    finally:
        set_language("en")
    assert pale != mat
    assert pale.count(".") == 1 and pale.endswith(".")
    if language == "en":
        assert "pale" in english and "darker" in english and "lamp" in english
    else:
        assert "pale" not in pale  # translated
