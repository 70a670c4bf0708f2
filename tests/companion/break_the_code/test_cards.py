"""Every question card on hand-built racks (5 tiles and the 4-player racks of 4)."""

from __future__ import annotations

import pytest

from companion.break_the_code.cards import CARD_IDS, CARDS, answer, describe_answer
from companion.break_the_code.tiles import Code
from companion.errors import IllegalMoveError

AB, BC, CD, DE = ["A", "B"], ["B", "C"], ["C", "D"], ["D", "E"]

# rack -> {card or (card, number): answer}
CASES: dict[str, dict[str | tuple[str, int], object]] = {
    # green 5s in the middle, a 0 and a 9
    "0b 1w 5g 5g 9b": {
        "Q01": ["A"], ("Q02", 1): ["B"], ("Q02", 2): [], ("Q03", 3): [], ("Q03", 4): [],
        "Q04": ["C", "D"], ("Q05", 6): [], ("Q05", 7): [], ("Q06", 8): [], ("Q06", 9): ["E"],
        "Q07": [AB], "Q08": [CD],            # the two greens are a same-colour pair
        "Q09": 4, "Q10": 1, "Q11": 2, "Q12": 1, "Q13": 2,   # 0 is even; green not counted
        "Q14": 6, "Q15": 19, "Q16": 11, "Q17": 9, "Q18": 1, "Q19": 20, "Q20": True, "Q21": 9,
    },
    # two pairs: Q13 counts tiles (4)
    "3b 3w 5g 5g 8w": {
        ("Q03", 3): ["A", "B"], ("Q03", 4): [], "Q04": ["C", "D"], ("Q06", 8): ["E"],
        "Q07": [], "Q08": [CD], "Q09": 4, "Q10": 1, "Q11": 1, "Q12": 2, "Q13": 4,
        "Q14": 11, "Q15": 18, "Q16": 13, "Q17": 3, "Q18": 11, "Q19": 24, "Q20": True, "Q21": 5,
    },
    # all black and even: "none" answers are [] and 0
    "0b 2b 4b 6b 8b": {
        "Q01": ["A"], "Q04": [], ("Q02", 1): [], "Q07": [], "Q08": [AB, BC, CD, DE],
        "Q09": 0, "Q10": 5, "Q11": 5, "Q12": 0, "Q13": 0, "Q17": 20, "Q18": 0,
        "Q20": False,                       # C is 4: not greater than 4
        "Q21": 8, "Q14": 6, "Q15": 18, "Q16": 12, "Q19": 20,
    },
    # a run through the green 5: 4-5 are consecutive whatever the colours
    "1w 2w 3b 4b 5g": {
        "Q07": [AB, BC, CD, DE], "Q08": [AB, CD], "Q09": 3, "Q10": 2, "Q11": 2, "Q12": 2,
        "Q17": 7, "Q18": 3, "Q19": 15, "Q20": False, "Q21": 4, "Q14": 6, "Q15": 12, "Q16": 9,
        "Q04": ["E"],
    },
    "4w 5g 5g 6b 7w": {
        "Q07": [AB, CD, DE], "Q08": [BC], "Q11": 1, "Q12": 2, "Q17": 6, "Q18": 11, "Q13": 2,
        ("Q03", 4): ["A"], ("Q05", 6): ["D"], ("Q05", 7): ["E"], "Q20": True, "Q21": 3,
    },
    "9b 9w 8b 8w 7b": {  # written out of order on purpose: the rack is sorted first
        "Q07": [AB, CD], "Q08": [AB], ("Q06", 9): ["D", "E"], ("Q06", 8): ["B", "C"],
        "Q13": 4, "Q21": 2, "Q14": 23, "Q15": 26, "Q16": 25, "Q19": 41,
    },
    # 4 players: no column E; Q15 is B+C+D, Q16 B+C, Q20 the third tile, Q21 D-A
    "0b 1w 5g 9b": {
        "Q14": 6, "Q15": 15, "Q16": 6, "Q20": True, "Q21": 9, "Q19": 15, "Q07": [AB],
        "Q08": [], "Q04": ["C"], ("Q06", 9): ["D"], "Q10": 1, "Q09": 3,
    },
    "2b 2w 3b 4w": {
        "Q14": 7, "Q15": 9, "Q16": 5, "Q20": False, "Q21": 2, "Q13": 2, "Q07": [BC, CD],
        "Q08": [], ("Q02", 2): ["A", "B"], ("Q03", 4): ["D"], "Q11": 2, "Q12": 2,
        "Q17": 5, "Q18": 6,
    },
    "5g 5g 6w 7w": {
        "Q08": [AB, CD], "Q07": [BC, CD], "Q16": 11, "Q15": 18, "Q21": 2, "Q11": 0, "Q17": 0,
        "Q12": 2, "Q18": 13, "Q20": True, "Q13": 2,
    },
}


def _flatten() -> list[tuple[str, str, int | None, object]]:
    rows = []
    for rack, answers in CASES.items():
        for key, expected in answers.items():
            card, number = key if isinstance(key, tuple) else (key, None)
            rows.append((rack, card, number, expected))
    return rows


@pytest.mark.parametrize(("rack", "card", "number", "expected"), _flatten())
def test_answer(rack: str, card: str, number: int | None, expected: object) -> None:
    assert answer(card, Code.parse(rack), number=number) == expected


def test_every_card_is_covered_on_five_and_four_tiles() -> None:
    for size in (4, 5):
        covered = {
            (k[0] if isinstance(k, tuple) else k)
            for rack, answers in CASES.items() if len(rack.split()) == size
            for k in answers
        }
        assert covered >= set(CARD_IDS) - ({"Q01", "Q05"} if size == 4 else set())


def test_there_are_21_distinct_cards_and_four_choose_one() -> None:
    assert CARD_IDS == tuple(f"Q{i:02d}" for i in range(1, 22))
    assert len({c.text for c in CARDS.values()}) == 21
    assert [c.id for c in CARDS.values() if c.is_choice] == ["Q02", "Q03", "Q05", "Q06"]


@pytest.mark.parametrize(
    ("card", "number", "message"),
    [
        ("Q02", None, "choose-one"),
        ("Q02", 3, "1 or 2, not 3"),
        ("Q06", 7, "8 or 9, not 7"),
        ("Q19", 4, "takes no number"),
        ("Q22", None, "no question card 'Q22'"),
        ("q01", None, "no question card"),
    ],
)
def test_bad_questions_are_refused(card: str, number: int | None, message: str) -> None:
    with pytest.raises(IllegalMoveError, match=message):
        answer(card, Code.parse("0b 1w 5g 5g 9b"), number=number)


def test_answers_are_described_as_runs() -> None:
    assert describe_answer("Q07", [AB, BC, DE]) == "A-B-C and D-E"
    assert describe_answer("Q08", []) == "none"
    assert describe_answer("Q01", []) == "none"
    assert describe_answer("Q04", ["C", "D"]) == "C D"
    assert describe_answer("Q20", False) == "no"
    assert describe_answer("Q19", 20) == "20"
