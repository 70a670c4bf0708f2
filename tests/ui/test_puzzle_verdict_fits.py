"""Every puzzle verdict fits the check screen (issue #26, the players' words): in English,
Spanish and Ukrainian, at 800x480 and 720x1280, the headline ("Cannot tell"), the whole
sentence and the buttons all show, none pushed off the screen or over another.

Session 30 found a six-line Ukrainian sentence at 800x480 that pushed the headline off the
screen; nothing guarded it. Here the longest sentences the check can say are laid out for
real. A sentence longer than the room left scrolls (the screen's words view), so the headline
and the buttons stay in sight whatever a translation adds.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui

SIZES = {"landscape": (800, 480), "portrait": (720, 1280)}
KINDS = ("weight", "fragment", "conduit", "angular")
#: the refusals a frame can be given (the picture check's, the card finder's, the markers')
REFUSALS = ("overexposed", "too-dark", "low-contrast", "noisy", "no-colour", "blurred",
            "no-card", "pale-table", "no-markers", "bad-homography", "too-small", "refused")
#: the sentences laid out per language: the longest, which wrap to the most lines (all of them
#: take a minute and a half of the suite on a loaded machine)
LONGEST = 10
#: facts that make the counted sentences as long as they get on a real card
FACTS = {"left": 18, "right": 17, "count": 9, "used": 8, "outside": 2, "pieces": 5,
         "open": 3, "cups": 2}


def every_sentence() -> set[str]:
    """What the check can say, for every kind, reason code and frame refusal, in the
    language in use."""
    from ui.puzzle_words import verdict_sentence
    from vision.enigma.puzzles.verdicts import PuzzleVerdict, Reason

    said = set()
    for kind in KINDS:
        for code in Reason:
            for verdict in ("solved", "not solved", "cannot tell"):
                said.add(verdict_sentence(kind, PuzzleVerdict(verdict, "", code=code,
                                                              facts=FACTS)))
        for refusal in REFUSALS:
            said.add(verdict_sentence(kind, PuzzleVerdict(
                "cannot tell", "", code=Reason.FRAME_UNREADABLE, facts={"refusal": refusal})))
    return said


def hidden_parts(screen) -> list[str]:
    """What of the verdict's column does not show whole (in the screen's own coordinates):
    the headline above the screen, the sentence longer than the room left for it (it would
    have to be scrolled), the buttons below the screen."""
    headline, words, view, actions = (screen.ids[name] for name in (
        "headline_label", "words_label", "words_view", "actions"))
    hidden = []
    if headline.top > screen.height + 1 or headline.height < headline.texture_size[1]:
        hidden.append("headline")
    if words.texture_size[1] > view.height or view.y < actions.top - 1:
        hidden.append("sentence")
    if actions.y < -1:
        hidden.append("buttons")
    return hidden


@pytest.mark.parametrize("language", ["en", "es", "uk"])
def test_every_verdict_shows_whole_at_both_sizes(make_driver, language) -> None:
    from ui.puzzle_cards import card_ids
    from ui.puzzle_words import headline

    driver = make_driver()
    driver.screen("settings").change("app", "language", language)
    try:
        driver.tap(driver.screen("home").ids.puzzle_button)
        screen = driver.screen()
        screen.pick_kind("weight")
        screen.pick_card(card_ids("weight")[0])
        screen.show_step("checked")
        sentences = sorted(every_sentence(), key=len, reverse=True)[:LONGEST]
        problems = []
        for size in SIZES.values():
            driver.set_size(size)
            for sentence in sentences:
                screen.headline, screen.words = headline("cannot tell"), sentence
                driver.pump(4)
                if hidden := hidden_parts(screen):
                    problems.append((size, hidden, sentence))
        assert screen.ids.headline_label.text == headline("cannot tell")
        assert not problems, "\n".join(map(str, problems))
    finally:
        driver.set_size(SIZES["landscape"])
        driver.screen("settings").change("app", "language", "en")
