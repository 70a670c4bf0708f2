"""Random Break the Code deals, every card asked in a random order, answers computed here from
the card table of ``shared/rules/break_the_code.md`` §5 (not from the engine) and compared with
the engine's ``answers`` through replay."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from companion.record import FORMAT, parse_record
from companion.replay import replay

TILES = [f"{n}{c}" for n in range(10) if n != 5 for c in "bw"] + ["5g", "5g"]
CHOICES = {"Q02": (1, 2), "Q03": (3, 4), "Q05": (6, 7), "Q06": (8, 9)}
NAMES = ["Ana", "Ben", "Cleo", "Dan"]


def canonical(tiles: list[str]) -> list[str]:
    order = {"b": 0, "w": 1, "g": 2}
    return sorted(tiles, key=lambda t: (int(t[0]), order[t[1]]))


def answer(card: str, number: int | None, rack: list[str]) -> Any:
    """The answer of one rack, straight from the card table (k = 5, or 4 with 4 players)."""
    nums = [int(t[0]) for t in rack]
    cols = [t[1] for t in rack]
    k = len(rack)
    letters = "ABCDE"
    positions = {"Q01": 0, "Q04": 5}
    if card in positions or card in CHOICES:
        wanted = positions.get(card, number)
        return [letters[i] for i in range(k) if nums[i] == wanted]
    if card in ("Q07", "Q08"):
        same: Callable[[int], bool] = (lambda i: nums[i + 1] == nums[i] + 1) if card == "Q07" \
            else (lambda i: cols[i + 1] == cols[i])
        return [[letters[i], letters[i + 1]] for i in range(k - 1) if same(i)]
    table: dict[str, Callable[[], Any]] = {
        "Q09": lambda: sum(n % 2 for n in nums),
        "Q10": lambda: sum(1 - n % 2 for n in nums),
        "Q11": lambda: cols.count("b"),
        "Q12": lambda: cols.count("w"),
        "Q13": lambda: sum(1 for n in nums if nums.count(n) == 2),
        "Q14": lambda: sum(nums[:3]),
        "Q15": lambda: sum(nums[-3:]),
        "Q16": lambda: sum(nums[1:4]) if k == 5 else nums[1] + nums[2],
        "Q17": lambda: sum(n for n, c in zip(nums, cols, strict=True) if c == "b"),
        "Q18": lambda: sum(n for n, c in zip(nums, cols, strict=True) if c == "w"),
        "Q19": lambda: sum(nums),
        "Q20": lambda: nums[2] > 4,
        "Q21": lambda: nums[-1] - nums[0],
    }
    return table[card]()


def answerers(asker: int, n: int) -> list[int]:
    """2p: the opponent; 3p: the two others; 4p: the three others, then the asker."""
    others = [(asker + i) % n for i in range(1, n)]
    return others + [asker] if n == 4 else others


@pytest.mark.parametrize("seed", range(24))
def test_random_deal_all_cards(seed: int) -> None:
    rng = random.Random(seed)
    n = [2, 3, 4][seed % 3]
    players = NAMES[:n]
    size = 4 if n == 4 else 5
    tiles = TILES[:]
    rng.shuffle(tiles)
    racks = {p: canonical(tiles[i * size:(i + 1) * size]) for i, p in enumerate(players)}
    deal: dict[str, Any] = {"type": "deal", "racks": {p: " ".join(r) for p, r in racks.items()}}
    if n > 2:
        deal["central"] = " ".join(canonical(tiles[n * size:]))
    cards = [f"Q{i:02d}" for i in range(1, 22)]
    rng.shuffle(cards)
    events: list[dict[str, Any]] = [deal]
    want: list[dict[str, Any]] = []
    for turn, card in enumerate(cards):
        asker = turn % n
        event: dict[str, Any] = {"type": "ask", "player": players[asker], "card": card}
        number = rng.choice(CHOICES[card]) if card in CHOICES else None
        if number is not None:
            event["number"] = number
        events.append(event)
        for who in answerers(asker, n):
            entry: dict[str, Any] = {"event": len(events), "card": card}
            if number is not None:
                entry["number"] = number
            entry.update(by=players[who], answer=answer(card, number, racks[players[who]]))
            want.append(entry)
    record = {"format": FORMAT, "game": "break-the-code", "players": players, "events": events}
    outcome = replay(parse_record(record))
    assert outcome.exit_code == 0, outcome.error
    assert outcome.result is not None
    got = outcome.result["answers"]
    for mine, theirs in zip(want, got, strict=False):
        assert theirs == mine, f"seed {seed}, racks {racks}"
    assert len(got) == len(want)
    assert outcome.result["over"] is True
    assert outcome.result["winners"] == []
