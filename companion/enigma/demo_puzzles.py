"""Generate the DEMO puzzle data: piece sets and a few cards of each kind, with solutions.

The real puzzle pieces and cards are not known (rules/enigma.md sections 6 and 9) except the
weight example of seed 001, so these are plausible inventions, made deterministically and
checked in as ``companion/data/enigma/puzzles.json``. Every stored solution is verified by
the puzzle's own check while generating. Regenerate with::

    python -m companion.enigma.demo_puzzles > companion/data/enigma/puzzles.json
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from companion.enigma import puzzle_angular as angular
from companion.enigma import puzzle_conduit as conduit
from companion.enigma import puzzle_fragment as fragment
from companion.enigma import puzzle_weight as weight
from companion.enigma.demo_catalogue import DEMO_CARDS_PER_KIND

DEMO_SEED = 2012
PUZZLES_FORMAT = "tabletop-companion/enigma-puzzles/1"

#: Demo conduit inventory: 9 pieces (seed 001 gives the count; openings are invented).
CONDUIT_PIECES = [
    ("P1", "NE"), ("P2", "NE"), ("P3", "NE"), ("P4", "NS"), ("P5", "NS"),
    ("P6", "NES"), ("P7", "NES"), ("P8", "N"), ("P9", "NESW"),
]
#: The standard 7-piece tangram (rules/enigma.md appendix A), area 16.
TANGRAM = [
    ("L1", [(0, 0), (4, 0), (2, 2)], False),
    ("L2", [(0, 0), (2, 2), (0, 4)], False),
    ("M", [(4, 4), (2, 4), (4, 2)], False),
    ("S1", [(4, 0), (4, 2), (3, 1)], False),
    ("S2", [(2, 2), (3, 3), (1, 3)], False),
    ("Q", [(2, 2), (3, 1), (4, 2), (3, 3)], False),
    ("P", [(0, 4), (1, 3), (3, 3), (2, 4)], True),
]
#: The pieces below the square's NE-SW diagonal (they make the triangle (4,0) (4,4) (0,4)).
_LOWER_HALF = ("M", "S1", "S2", "Q", "P")
#: Demo angular pieces: four small polycubes, one per colour (shapes invented).
ANGULAR_PIECES = [
    ("R", "red", [(0, 0, 0), (1, 0, 0), (0, 1, 0)]),
    ("G", "green", [(0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0)]),
    ("B", "blue", [(0, 0, 0), (1, 0, 0), (1, 0, 1)]),
    ("Y", "yellow", [(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)]),
]


def _weight_cards(rng: random.Random) -> list[dict[str, Any]]:
    cards = [{"id": "weight-demo-1", "left": [13, 6], "right": [5, 7], "count": 5,
              "source": "seed 001 example"}]
    while len(cards) < DEMO_CARDS_PER_KIND:
        n = len(cards) + 1
        card = weight.WeightCard(
            left=tuple(rng.randint(2, 15) for _ in range(rng.choice((1, 2)))),
            right=tuple(rng.randint(2, 15) for _ in range(2)),
            count=rng.randint(4, 6),
            id=f"weight-demo-{n}",
        )
        solutions = weight.solve(card)
        if len(solutions) == 1 and 0 not in (*solutions[0].left, *solutions[0].right):
            cards.append({**weight.format_weight_card(card), "source": "DEMO"})
    for item in cards:
        card = weight.parse_weight_card(item)
        item["solutions"] = [weight.format_weight_solution(s) for s in weight.solve(card)]
    return cards


def _conduit_cards(rng: random.Random) -> list[dict[str, Any]]:
    pieces = conduit.parse_conduit_pieces([{"id": i, "openings": o} for i, o in CONDUIT_PIECES])
    cells = [(x, y) for y in range(3) for x in range(3)]
    cards = []
    for n, excluded in enumerate(([], ["P9"], ["P2", "P8"]), start=1):
        made = conduit.random_card(f"conduit-demo-{n}", cells, pieces, excluded, rng)
        assert made is not None
        card, solution = made
        assert conduit.check(card, pieces, solution)
        cards.append({**conduit.format_conduit_card(card),
                      "solution": conduit.format_conduit_solution(solution)})
    return cards


def _fragment_cards() -> list[dict[str, Any]]:
    pieces = fragment.parse_fragment_pieces(
        [{"id": i, "polygon": [list(p) for p in poly], "mirror": m} for i, poly, m in TANGRAM]
    )
    square = [fragment.FragmentPlacement(i) for i, _, _ in TANGRAM]
    # The lower half slid up the diagonal by (2, -2): a sheared, six-sided silhouette.
    slid = [fragment.FragmentPlacement(i, at=(2.0, -2.0)) if i in _LOWER_HALF
            else fragment.FragmentPlacement(i) for i, _, _ in TANGRAM]
    # The lower half turned 270 degrees and moved by (-4, 4) lands left of the upper half:
    # together a right triangle with an 8-long base.
    triangle = [fragment.FragmentPlacement(i, rotation=270.0, at=(-4.0, 4.0))
                if i in _LOWER_HALF else fragment.FragmentPlacement(i) for i, _, _ in TANGRAM]
    silhouettes = [
        [[(0, 0), (4, 0), (4, 4), (0, 4)]],
        [[(0, 0), (4, 0), (6, -2), (6, 2), (2, 2), (0, 4)]],
        [[(-4, 0), (4, 0), (0, 4)]],
    ]
    cards = []
    for n, (outline, placements) in enumerate(zip(silhouettes, (square, slid, triangle),
                                                  strict=True), start=1):
        card = fragment.FragmentCard(f"fragment-demo-{n}",
                                     tuple(tuple((float(x), float(y)) for x, y in part)
                                           for part in outline))
        problem = fragment.fragment_problem(card, pieces, placements, tolerance=1e-9)
        assert problem is None, (card.id, problem)
        cards.append({**fragment.format_fragment_card(card),
                      "solution": fragment.format_fragment_solution(placements)})
    return cards


def _angular_cards(rng: random.Random) -> list[dict[str, Any]]:
    pieces = angular.parse_angular_pieces(
        [{"id": i, "colour": c, "cubes": [list(q) for q in cubes]} for i, c, cubes in
         ANGULAR_PIECES]
    )
    cards: list[dict[str, Any]] = []
    seen: set[angular.Picture] = set()
    while len(cards) < DEMO_CARDS_PER_KIND:
        placement: dict[str, tuple[angular.Cube, ...]] = {}
        occupied: set[angular.Cube] = set()
        for piece in pieces:
            shape = rng.choice(angular.orientations(piece.cubes))
            dx, dy = rng.randint(0, 2), rng.randint(0, 2)
            for dz in range(4):  # drop the piece to the lowest free height
                cubes = tuple((x + dx, y + dy, z + dz) for x, y, z in shape)
                if occupied.isdisjoint(cubes):
                    break
            placement[piece.id] = cubes
            occupied.update(cubes)
        top = angular.top_view(placement)
        stacked = any(z > 0 for z in (c[2] for c in occupied))
        if (len(top) > 4 or len(top[0]) > 4 or not stacked or top in seen
                or not all(any(ch == p.id for row in top for ch in row) for p in pieces[:3])):
            continue
        card = angular.AngularCard(f"angular-demo-{len(cards) + 1}", top)
        if angular.angular_problem(card, pieces, placement) is None:
            seen.add(top)
            cards.append({"id": card.id, "top": list(top),
                          "solution": angular.format_angular_solution(placement)})
    return cards


def generate_demo_puzzles(seed: int = DEMO_SEED) -> dict[str, Any]:
    """The demo puzzle document (deterministic for a given seed)."""
    rng = random.Random(seed)
    return {
        "format": PUZZLES_FORMAT,
        "status": "demo",
        "note": (
            "DEMO puzzle data: piece shapes and cards are invented (except weight-demo-1, the "
            "example of seed 001), generated by companion/enigma/demo_puzzles.py with seed "
            f"{seed}. Replace them with your own pieces and cards."
        ),
        "weight": {"weights_in_box": 6, "allow_empty_cups": True,
                   "cards": _weight_cards(rng)},
        "conduit": {"pieces": [{"id": i, "openings": o} for i, o in CONDUIT_PIECES],
                    "cards": _conduit_cards(rng)},
        "fragment": {"tolerance": fragment.DEFAULT_TOLERANCE,
                     "pieces": [{"id": i, "polygon": [list(p) for p in poly], "mirror": m}
                                for i, poly, m in TANGRAM],
                     "cards": _fragment_cards()},
        "angular": {"allow_mirror": False,
                    "pieces": [{"id": i, "colour": c, "cubes": [list(q) for q in cubes]}
                               for i, c, cubes in ANGULAR_PIECES],
                    "cards": _angular_cards(rng)},
    }


def dumps_puzzles(document: dict[str, Any]) -> str:
    """JSON text with one piece or card per line (readable diffs)."""
    lines = ["{"]
    keys = list(document)
    for k, key in enumerate(keys):
        value = document[key]
        comma = "," if k < len(keys) - 1 else ""
        if not isinstance(value, dict):
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}{comma}")
            continue
        lines.append(f"  {json.dumps(key)}: {{")
        inner = list(value)
        for i, name in enumerate(inner):
            end = "," if i < len(inner) - 1 else ""
            item = value[name]
            if isinstance(item, list):
                lines.append(f"    {json.dumps(name)}: [")
                lines.extend(
                    "      " + json.dumps(entry) + ("," if j < len(item) - 1 else "")
                    for j, entry in enumerate(item)
                )
                lines.append(f"    ]{end}")
            else:
                lines.append(f"    {json.dumps(name)}: {json.dumps(item)}{end}")
        lines.append(f"  }}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> int:
    sys.stdout.write(dumps_puzzles(generate_demo_puzzles()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
