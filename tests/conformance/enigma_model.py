"""An independent model of Enigma's conduit systems, networkers and scoring, written from
``shared/records.md`` (Enigma) and ``shared/rules/enigma.md`` §3-§5 alone, for differential
tests of the engine. Recomputes everything from scratch after each placement: slow, plain."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SIDES = "NESW"
OFFSET = [(0, -1), (1, 0), (0, 1), (-1, 0)]
Port = tuple[int, int]  # (side 0..3 = N E S W, position 0..2)


def parse_port(name: str) -> Port | None:
    if not name or name[0] not in SIDES:
        return None
    rest = name[1:]
    if rest == "":
        return (SIDES.index(name[0]), 1)
    if rest in ("0", "1", "2"):
        return (SIDES.index(name[0]), int(rest))
    return None


@dataclass
class PlacedTile:
    at: tuple[int, int]
    cells: dict[str, str]
    links: list[tuple[Any, Any]]  # endpoints: ("cell", id) or ("port", Port) after rotation

    def ports(self) -> set[Port]:
        return {e[1] for link in self.links for e in link if e[0] == "port"}


def place_tile(tile: dict[str, Any], at: tuple[int, int], rotation: int) -> PlacedTile:
    def end(name: str) -> tuple[str, Any]:
        if name in tile["cells"]:
            return ("cell", name)
        port = parse_port(name)
        assert port is not None, name
        return ("port", ((port[0] + rotation) % 4, port[1]))

    links = [(end(a), end(b)) for a, b in tile["links"]]
    return PlacedTile(at, dict(tile["cells"]), links)


CROSSROADS = {"cells": {}, "links": [["N", "E"], ["E", "S"], ["S", "W"]]}


@dataclass
class Model:
    players: list[str]
    target: int = 15
    start: dict[str, Any] = field(default_factory=lambda: CROSSROADS)
    tiles: list[PlacedTile] = field(default_factory=list)
    networkers: dict[tuple[int, str], str] = field(default_factory=dict)  # (tile, cell) -> owner
    scores: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.tiles = [place_tile(self.start, (0, 0), 0)]
        self.scores = dict.fromkeys(self.players, 0)

    def by_square(self) -> dict[tuple[int, int], int]:
        return {t.at: i for i, t in enumerate(self.tiles)}

    def matched(self, i: int, port: Port) -> bool:
        side, pos = port
        x, y = self.tiles[i].at
        j = self.by_square().get((x + OFFSET[side][0], y + OFFSET[side][1]))
        return j is not None and ((side + 2) % 4, 2 - pos) in self.tiles[j].ports()

    def components(self) -> list[set[tuple[int, Any]]]:
        parent: dict[tuple[int, Any], tuple[int, Any]] = {}

        def find(a: tuple[int, Any]) -> tuple[int, Any]:
            parent.setdefault(a, a)
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        def union(a: tuple[int, Any], b: tuple[int, Any]) -> None:
            parent[find(a)] = find(b)

        squares = self.by_square()
        for i, t in enumerate(self.tiles):
            for cell in t.cells:
                find((i, ("cell", cell)))
            for a, b in t.links:
                union((i, a), (i, b))
            for side, pos in t.ports():
                x, y = t.at
                j = squares.get((x + OFFSET[side][0], y + OFFSET[side][1]))
                mirror = ((side + 2) % 4, 2 - pos)
                if j is not None and mirror in self.tiles[j].ports():
                    union((i, ("port", (side, pos))), (j, ("port", mirror)))
        groups: dict[tuple[int, Any], set[tuple[int, Any]]] = {}
        for node in list(parent):
            groups.setdefault(find(node), set()).add(node)
        return list(groups.values())

    def is_open(self, comp: set[tuple[int, Any]]) -> bool:
        return any(kind == "port" and not self.matched(i, port) for i, (kind, port) in comp)

    def systems(self) -> dict[str, int]:
        comps = self.components()
        opened = sum(1 for c in comps if self.is_open(c))
        return {"open": opened, "closed": len(comps) - opened}

    def on_board(self, player: str) -> int:
        return sum(1 for owner in self.networkers.values() if owner == player)

    def networker_ok(self, player: str, tile: int, cell: str) -> bool:
        """§3 B / §5 step 2, checked on the board with the tile already placed."""
        if self.on_board(player) >= 3 or (tile, cell) in self.networkers:
            return False
        colour = self.tiles[tile].cells[cell]
        comp = next(c for c in self.components() if (tile, ("cell", cell)) in c)
        return not any((i, ("cell", c)) in comp and self.tiles[i].cells[c] == colour
                       for (i, c) in self.networkers)

    def place(self, player: str, tile: dict[str, Any], at: tuple[int, int], rotation: int,
              networker: str | None) -> None:
        self.tiles.append(place_tile(tile, at, rotation))
        new = len(self.tiles) - 1
        if networker is not None:
            assert self.networker_ok(player, new, networker)
            self.networkers[(new, networker)] = player
        for comp in self.components():
            if self.is_open(comp) or not any(i == new for i, _ in comp):
                continue  # only the systems this placement closed are scored
            cells = [(i, c) for i, (kind, c) in comp if kind == "cell"]
            for (i, c), owner in list(self.networkers.items()):
                if (i, c) in cells:
                    colour = self.tiles[i].cells[c]
                    same = [(j, d) for j, d in cells if self.tiles[j].cells[d] == colour]
                    self.scores[owner] += len(same)
            for key in [k for k in self.networkers if k in cells]:
                del self.networkers[key]

    def over(self) -> bool:
        return max(self.scores.values()) >= self.target

    def winners(self) -> list[str]:
        if not self.over():
            return []
        key = {p: (self.scores[p], self.on_board(p)) for p in self.players}
        best = max(key.values())
        return [p for p in self.players if key[p] == best]
