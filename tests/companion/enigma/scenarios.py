"""Hand-checked Enigma game records shared by the scenario and replay tests.

Each scenario is (record, expected result); the expected values were worked out by hand in
the comments, not by running the engine.
"""

from __future__ import annotations

from typing import Any

FORMAT = "tabletop-companion/record/1"


def record(players: list[str], events: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    return {"format": FORMAT, "game": "enigma", "players": players, "options": options,
            "events": events}


def rnd(choices: dict[str, str], solved: list[str]) -> dict[str, Any]:
    return {"type": "round", "choices": choices, "solved": solved}


def put(player: str, cells: dict[str, str], links: list[list[str]], at: list[int],
        rotation: int = 0, networker: str | None = None) -> dict[str, Any]:
    return {"type": "place", "player": player, "tile": {"cells": cells, "links": links},
            "at": at, "rotation": rotation, "networker": networker}


C3 = {"Black": "weight", "White": "conduit", "Green": "fragment"}

# The seed's example. The crossroads start (0,0) is capped on all four sides.
# Black's red cap E (no networker), White's blue cap W (networker on blue), Green's tile N has a
# yellow cap on S (joins the system) and a separate blue dead end facing E (Green's networker).
# Round 2 (start White): only Black solved; his red cap S closes the system with his networker
# on it: reds 2 -> Black 2, blue 1 -> White 1. Green's networker stays (open system).
SEED_EXAMPLE = record(
    ["Black", "White", "Green"],
    [
        rnd(C3, ["Black", "White", "Green"]),
        put("Black", {"a": "red"}, [["W", "a"]], [1, 0]),
        put("White", {"a": "blue"}, [["E", "a"]], [-1, 0], networker="a"),
        put("Green", {"a": "yellow", "b": "blue"}, [["S", "a"], ["E", "b"]], [0, -1],
            networker="b"),
        rnd(C3, ["Black"]),
        put("Black", {"a": "red"}, [["N", "a"]], [0, 1], networker="a"),
    ],
)
SEED_EXAMPLE_RESULT = {
    "game": "enigma", "over": False, "winners": [],
    "scores": {"Black": 2, "White": 1, "Green": 0},
    "networkers": {"Black": 0, "White": 0, "Green": 1},
    "systems": {"open": 1, "closed": 1},
}

# Two systems closed at once. The start tile holds two dead ends on its E side (E0 red, E2
# blue). Ana's tile at (1,0) has W2 -> red c and W0 -> blue d: W2 meets E0, W0 meets E2.
# Ana stands on c: the red system has 2 red cells -> 2 points; the blue one scores nobody.
TWO_AT_ONCE = record(
    ["Ana", "Ben"],
    [
        rnd({"Ana": "angular", "Ben": "weight"}, ["Ana"]),
        put("Ana", {"c": "red", "d": "blue"}, [["W2", "c"], ["W0", "d"]], [1, 0],
            networker="c"),
    ],
    start={"cells": {"a": "red", "b": "blue"}, "links": [["E0", "a"], ["E2", "b"]]},
)
TWO_AT_ONCE_RESULT = {
    "game": "enigma", "over": False, "winners": [], "scores": {"Ana": 2, "Ben": 0},
    "networkers": {"Ana": 0, "Ben": 0}, "systems": {"open": 0, "closed": 2},
}

# A merge bringing two red networkers into one system, then closing it.
# Start: a channel E-W without cells. R1 (start Ana): Ana (1,0): blue b caps the start's E,
# red a is a dead end facing S (Ana's networker). Ben (-1,0): blue b caps the start's W -> the
# start system closes (2 blue, nobody on it); red a faces S (Ben's networker).
# R2 (start Ben): Ben (0,1): blue d joins E and W (N blank, the start has no S port).
# Ana (1,1): red c joins N (Ana's red system) and W (Ben's (0,1) tile).
# R3 (start Ana): Ben (-1,1): yellow e joins N (Ben's red system) and E -> one system, closed:
# reds a(1,0), c(1,1), a(-1,0) = 3; blue d = 1; yellow e = 1. Systems: the start one and
# this one, both closed.
# Ana (red) 3; Ben (red) 3 + his new networker on yellow e 1 = 4.
MERGE = record(
    ["Ana", "Ben"],
    [
        rnd({"Ana": "weight", "Ben": "conduit"}, ["Ana", "Ben"]),
        put("Ana", {"a": "red", "b": "blue"}, [["W", "b"], ["S", "a"]], [1, 0], networker="a"),
        put("Ben", {"a": "red", "b": "blue"}, [["E", "b"], ["S", "a"]], [-1, 0], networker="a"),
        rnd({"Ana": "weight", "Ben": "conduit"}, ["Ana", "Ben"]),
        put("Ben", {"d": "blue"}, [["E", "d"], ["d", "W"]], [0, 1]),
        put("Ana", {"c": "red"}, [["N", "c"], ["c", "W"]], [1, 1]),
        rnd({"Ana": "weight", "Ben": "conduit"}, ["Ben"]),
        put("Ben", {"e": "yellow"}, [["N", "e"], ["e", "E"]], [-1, 1], networker="e"),
    ],
    start={"cells": {}, "links": [["E", "W"]]},
)
MERGE_RESULT = {
    "game": "enigma", "over": False, "winners": [], "scores": {"Ana": 3, "Ben": 4},
    "networkers": {"Ana": 0, "Ben": 0}, "systems": {"open": 0, "closed": 2},
}


def _big(colour: str, port: str, count: int = 15) -> tuple[dict[str, str], list[list[str]]]:
    """A tile with ``count`` cells of one colour chained to one port (schema-legal)."""
    cells = {f"c{i}": colour for i in range(count)}
    links = [[port, "c0"]] + [[f"c{i}", f"c{i + 1}"] for i in range(count - 1)]
    return cells, links


_RED = _big("red", "W")
_BLUE = _big("blue", "E")


def tie(ben_keeps_a_networker: bool) -> dict[str, Any]:
    """Ana and Ben both reach 15 in round 2; the tie-break counts networkers on the board.

    R1 (start Ana): Ana's 15 red cells E of the start (her networker on c0), Ben's 15 blue W
    (his networker on c0). R2 (start Ben): Ben caps N with yellow (and, in one variant, a
    separate blue dead end facing E with his networker); Ana caps S: the system closes,
    Ana 15 (red), Ben 15 (blue).
    """
    ben_cells: dict[str, str] = {"a": "yellow"}
    ben_links = [["S", "a"]]
    networker = None
    if ben_keeps_a_networker:
        ben_cells["b"] = "blue"
        ben_links.append(["E", "b"])
        networker = "b"
    return record(
        ["Ana", "Ben"],
        [
            rnd({"Ana": "weight", "Ben": "conduit"}, ["Ana", "Ben"]),
            put("Ana", _RED[0], _RED[1], [1, 0], networker="c0"),
            put("Ben", _BLUE[0], _BLUE[1], [-1, 0], networker="c0"),
            rnd({"Ana": "weight", "Ben": "conduit"}, ["Ana", "Ben"]),
            put("Ben", ben_cells, ben_links, [0, -1], networker=networker),
            put("Ana", {"a": "yellow"}, [["N", "a"]], [0, 1]),
        ],
    )
