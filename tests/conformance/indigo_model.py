"""An independent model of Indigo's gem movement and scoring, written from
``shared/rules/indigo.md`` §2-§9 alone (not from ``companion/indigo``), to check the engine by
differential testing. Small and slow on purpose: clarity over speed."""

from __future__ import annotations

from dataclasses import dataclass, field

D = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]
CENTRE = (0, 0)
# corner cell -> (arrow edge, U-turn ends); table of §4.3
CORNERS = {
    (0, -4): (3, (2, 4)), (4, -4): (4, (3, 5)), (4, 0): (5, (4, 0)),
    (0, 4): (0, (5, 1)), (-4, 4): (1, (0, 2)), (-4, 0): (2, (1, 3)),
}
# gateway g: its cells (exit edges g, g+1), §4.4
GATEWAY_CELLS = {
    0: [(1, -4), (2, -4), (3, -4)], 1: [(4, -3), (4, -2), (4, -1)],
    2: [(3, 1), (2, 2), (1, 3)], 3: [(-1, 4), (-2, 4), (-3, 4)],
    4: [(-4, 3), (-4, 2), (-4, 1)], 5: [(-3, -1), (-2, -2), (-1, -3)],
}
CHIPS = {  # §4.5 / Appendix A
    "2p": [[0, 0], [1, 1], [0, 0], [1, 1], [0, 0], [1, 1]],
    "3p": [[0, 0], [0, 1], [2, 2], [2, 0], [1, 1], [1, 2]],
    "3p-alt": [[0, 0], [1, 1], [2, 2], [0, 0], [1, 1], [2, 2]],
    "4p": [[0, 1], [1, 2], [0, 3], [3, 1], [2, 0], [2, 3]],
}
TYPE_PATHS = {0: [(0, 2), (1, 4), (3, 5)], 1: [(0, 3), (1, 4), (2, 5)],
              2: [(0, 5), (1, 4), (2, 3)], 3: [(0, 5), (1, 3), (2, 4)],
              4: [(0, 5), (1, 2), (3, 4)]}
TYPE_COUNT = {0: 14, 1: 6, 2: 14, 3: 14, 4: 6}
POINTS = {"amber": 1, "emerald": 2, "sapphire": 3}

Cell = tuple[int, int]
Point = tuple[Cell, int]


def on_board(c: Cell) -> bool:
    q, r = c
    return max(abs(q), abs(r), abs(q + r)) <= 4


def step(c: Cell, k: int) -> Cell:
    return (c[0] + D[k][0], c[1] + D[k][1])


def gateway_of(c: Cell) -> int | None:
    for g, cells in GATEWAY_CELLS.items():
        if c in cells:
            return g
    return None


ROUTE_CELLS = [(q, r) for q in range(-4, 5) for r in range(-4, 5)
               if on_board((q, r)) and (q, r) != CENTRE and (q, r) not in CORNERS]


def rotated(tile: int, rotation: int) -> dict[int, int]:
    ends: dict[int, int] = {}
    for a, b in TYPE_PATHS[tile]:
        a2, b2 = (a + rotation) % 6, (b + rotation) % 6
        ends[a2], ends[b2] = b2, a2
    return ends


def blocked(cell: Cell, tile: int, rotation: int) -> bool:
    g = gateway_of(cell)
    return g is not None and rotated(tile, rotation).get(g) == (g + 1) % 6


@dataclass
class Model:
    players: list[str]
    layout: str
    tiles: dict[Cell, dict[int, int]] = field(default_factory=dict)
    resting: dict[Point, str] = field(default_factory=dict)
    ambers: set[Cell] = field(default_factory=lambda: set(CORNERS))
    stock: list[str] = field(default_factory=lambda: ["emerald"] * 5 + ["sapphire"])
    used: dict[int, int] = field(default_factory=lambda: dict.fromkeys(TYPE_COUNT, 0))
    gems: dict[str, dict[str, int]] = field(default_factory=dict)
    removed: int = 0

    def __post_init__(self) -> None:
        self.gems = {p: {"amber": 0, "emerald": 0, "sapphire": 0} for p in self.players}

    def on_board_count(self) -> int:
        return len(self.stock) + len(self.ambers) + len(self.resting)

    def over(self) -> bool:
        return self.on_board_count() == 0

    def place(self, cell: Cell, tile: int, rotation: int) -> None:
        assert cell in ROUTE_CELLS and cell not in self.tiles and not blocked(cell, tile, rotation)
        assert self.used[tile] < TYPE_COUNT[tile]
        self.used[tile] += 1
        self.tiles[cell] = rotated(tile, rotation)
        movers: dict[Point, str] = {}
        for point, colour in list(self.resting.items()):
            if step(*point) == cell:
                movers[point] = colour
                del self.resting[point]
        for corner in list(self.ambers):
            arrow = CORNERS[corner][0]
            if step(corner, arrow) == cell:
                movers[(corner, arrow)] = "amber"
                self.ambers.discard(corner)
        for k in range(6):
            if step(CENTRE, k) == cell and self.stock:
                movers[(CENTRE, k)] = self.stock.pop(0)
        gone: set[Point] = set()
        for start, colour in movers.items():
            if start in gone:
                continue
            point = start
            for _ in range(500):
                c, k = point
                nxt = step(c, k)
                entry = (nxt, (k + 3) % 6)
                if entry in movers and entry != start:
                    gone |= {start, entry}
                    self.removed += 2
                    break
                if not on_board(nxt):
                    g = gateway_of(c)
                    assert g is not None and k in (g, (g + 1) % 6), f"dead end at {point}"
                    owners = sorted(set(CHIPS[self.layout][g]))
                    for owner in owners:
                        self.gems[self.players[owner]][colour] += 1
                    gone.add(start)
                    break
                if nxt in self.tiles:
                    point = (nxt, self.tiles[nxt][entry[1]])
                elif nxt in CORNERS:
                    ends = CORNERS[nxt][1]
                    assert entry[1] in ends, f"dead end at corner {nxt}"
                    point = (nxt, ends[1] if entry[1] == ends[0] else ends[0])
                elif nxt == CENTRE:
                    raise AssertionError("a gem reached the centre")
                else:
                    self.resting[point] = colour
                    gone.add(start)
                    break
            else:
                raise AssertionError("endless chain")

    def scores(self) -> dict[str, int]:
        return {p: sum(POINTS[c] * n for c, n in g.items()) for p, g in self.gems.items()}

    def winners(self) -> list[str]:
        if not self.over():
            return []
        key = {p: (self.scores()[p], sum(self.gems[p].values())) for p in self.players}
        best = max(key.values())
        return [p for p in self.players if key[p] == best]
