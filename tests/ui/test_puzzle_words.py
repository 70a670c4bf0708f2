"""Every reason code of a puzzle check is one sentence in the player's language, without
English or notation in Spanish and Ukrainian; a "cannot tell" says what to fix."""

from __future__ import annotations

import inspect
import re
from types import ModuleType

import pytest

from tests.ui.notation import english_in, notation_in
from ui.i18n import set_language
from ui.puzzle_words import FACT_DEFAULTS, KIND_WORDS, headline, verdict_sentence
from vision.enigma.puzzles import angular, conduit, fragment, weight
from vision.enigma.puzzles.verdicts import PuzzleVerdict, Reason

KIND_OF = {
    "weight": ("weight-hidden", "camera-slanted", "glare", "weights-outside", "weights-unused",
               "cup-empty", "unbalanced", "balanced", "no-weight-seen"),
    "fragment": ("piece-beside", "glare", "uncovered", "overhang", "too-little", "too-close",
                 "inner-gap", "covered"),
    "conduit": ("cells-unclear", "stubs-differ", "openings-unclear", "piece-not-in-set",
                "channel-open", "pieces-unused", "connected"),
    "angular": ("nothing-built", "piece-apart", "structure-unclear", "pieces-like-table",
                "picture-differs", "pieces-hidden", "matches"),
}
SHARED = ("unknown", "card-not-of-kind", "frame-unreadable", "colours-burnt-out", "card-unread",
          "card-needed")


#: the module of each kind's check: the codes it gives are read from its source
CHECK_OF: dict[str, ModuleType] = {"weight": weight, "fragment": fragment,
                                   "conduit": conduit, "angular": angular}


def _codes_given(kind: str) -> set[str]:
    names = re.findall(r"\bReason\.([A-Z_]+)\b", inspect.getsource(CHECK_OF[kind]))
    return {str(Reason[name]) for name in names} - set(SHARED)


@pytest.mark.parametrize("language", ["en", "es", "uk"])
@pytest.mark.parametrize("kind", sorted(CHECK_OF))
def test_every_code_a_check_gives_has_its_kind_s_own_sentence(kind, language) -> None:
    """Not the catch-all "cannot tell" sentence: a code a check gives without its kind's
    words (a weight's glare worded only for fragments) fails here."""
    set_language(language)
    try:
        for code in sorted(_codes_given(kind)):
            assert code in KIND_OF[kind], (kind, code)
            for cups in (1, 2, 5):
                facts = {**FACT_DEFAULTS, "cups": cups, "code": code}
                assert KIND_WORDS[kind](facts), (language, kind, code, cups)
    finally:
        set_language("en")


def test_a_weight_glare_is_worded_as_a_reflection_on_the_weights_not_on_pieces() -> None:
    sentence = KIND_WORDS["weight"]({**FACT_DEFAULTS, "cups": 2, "code": "glare"})
    assert "weights in the circled cups" in sentence and "lamp" in sentence


@pytest.mark.parametrize("language", ["en", "es", "uk"])
@pytest.mark.parametrize("code", ["weight-hidden", "camera-slanted", "glare"])
def test_a_weight_doubt_in_two_cups_speaks_of_both_cups(code, language) -> None:
    """The check circles every cup it doubts: two circled cups are not "the circled cup"."""
    set_language(language)
    try:
        one, two = (KIND_WORDS["weight"]({**FACT_DEFAULTS, "cups": cups, "code": code})
                    for cups in (1, 2))
    finally:
        set_language("en")
    assert one and two and one != two, (language, code, one)


#: the reasons of vision.picture.check_picture's refusals
PICTURE_REFUSALS = ("overexposed", "too-dark", "low-contrast", "noisy", "no-colour", "blurred")


def _cases():
    for kind, codes in KIND_OF.items():
        for code in (*codes, *SHARED):
            for verdict in ("solved", "not solved", "cannot tell"):
                yield kind, Reason(code), verdict


def test_every_code_is_a_kind_s_code_or_shared() -> None:
    named = {c for codes in KIND_OF.values() for c in codes} | set(SHARED)
    assert named == {str(r) for r in Reason}


@pytest.mark.parametrize("language", ["en", "es", "uk"])
def test_every_verdict_is_one_sentence_in_the_language(language) -> None:
    set_language(language)
    try:
        for kind, code, verdict in _cases():
            for refusal in ("no-card", "no-markers", "too-small", "wrong-layout",
                            *PICTURE_REFUSALS):
                facts = {"left": 12, "right": 9, "count": 5, "used": 4, "outside": 1,
                         "open": 2, "pieces": 7, "refusal": refusal}
                said = PuzzleVerdict(verdict, "the check's English", code=code, facts=facts)
                _one_sentence(language, kind, code, verdict, verdict_sentence(kind, said))
    finally:
        set_language("en")


def test_a_picture_the_check_cannot_use_says_what_to_fix() -> None:
    """The picture check's refusals round the card are each their own sentence, not "the
    camera does not see the mat" (a grayscale frame of a right structure)."""
    sentences = set()
    for refusal in PICTURE_REFUSALS:
        said = PuzzleVerdict("cannot tell", "the check's English", code=Reason.FRAME_UNREADABLE,
                             facts={"refusal": refusal})
        sentences.add(verdict_sentence("angular", said))
    assert len(sentences) == len(PICTURE_REFUSALS)
    assert not any("mat" in s for s in sentences), sentences
    said = PuzzleVerdict("cannot tell", "", code=Reason.FRAME_UNREADABLE,
                         facts={"refusal": "no-colour"})
    assert "colour camera" in verdict_sentence("angular", said)


def _one_sentence(language, kind, code, verdict, sentence) -> None:
    where = (language, kind, str(code), verdict, sentence)
    assert sentence and headline(verdict), where
    assert len(re.findall(r"[.!?](?:\s|$)", sentence)) == 1, where
    assert not notation_in(sentence), where
    if language != "en":
        assert not english_in(sentence) and "English" not in sentence, where
    if verdict == "cannot tell" and code in (Reason.UNKNOWN, Reason.FRAME_UNREADABLE):
        assert ":" in sentence, where  # what was seen: what to fix
