"""Route tiles: the 5 types, their counts, rotations and path sets (rules/indigo.md §3).

A *path set* is the three paths of an oriented tile, each a sorted pair of edges, the three
sorted: the canonical way to compare tiles (type 1 at rotation 4 is the same tile as at
rotation 0). Rotation ``n`` turns every path end ``e`` into ``(e + n) % 6``.

>>> Tile(3, 2).paths
((0, 4), (1, 2), (3, 5))
>>> Tile(3, 2).other_end(4)
0
>>> identify(((0, 3), (1, 4), (2, 5)))
Tile(kind=1, rotation=0)
>>> Tile(2, 1).is_blocking((1, -4))   # path 0-1 joins the two exits of a g0 cell
True
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.indigo.geometry import Cell, blocked_path

#: One path: two edges, the smaller first.
Path = tuple[int, int]
#: Three paths, sorted.
PathSet = tuple[Path, Path, Path]

TILE_TYPES: tuple[int, ...] = (0, 1, 2, 3, 4)
#: Paths of each type at rotation 0.
BASE_PATHS: dict[int, PathSet] = {
    0: ((0, 2), (1, 4), (3, 5)),  # 1 straight + 2 wide curves
    1: ((0, 3), (1, 4), (2, 5)),  # 3 straights
    2: ((0, 5), (1, 4), (2, 3)),  # 1 straight + 2 tight curves
    3: ((0, 5), (1, 3), (2, 4)),  # 1 tight + 2 wide curves
    4: ((0, 5), (1, 2), (3, 4)),  # 3 tight curves
}
#: How many tiles of each type the box holds (54 in all).
TILE_COUNTS: dict[int, int] = {0: 14, 1: 6, 2: 14, 3: 14, 4: 6}
TOTAL_TILES = 54
TYPE_NAMES: dict[int, str] = {
    0: "1 straight + 2 wide curves",
    1: "3 straights",
    2: "1 straight + 2 tight curves",
    3: "1 tight + 2 wide curves",
    4: "3 tight curves",
}


def rotate_paths(paths: PathSet, rotation: int) -> PathSet:
    """The canonical path set of ``paths`` turned ``rotation`` clockwise steps."""
    turned = sorted(
        tuple(sorted(((a + rotation) % 6, (b + rotation) % 6))) for a, b in paths
    )
    return (
        (turned[0][0], turned[0][1]),
        (turned[1][0], turned[1][1]),
        (turned[2][0], turned[2][1]),
    )


_PATHS: dict[tuple[int, int], PathSet] = {
    (kind, n): rotate_paths(BASE_PATHS[kind], n) for kind in TILE_TYPES for n in range(6)
}
# (kind, rotation) -> tuple of 6: the other end of the path at each edge.
_LINKS: dict[tuple[int, int], tuple[int, ...]] = {}
for (_kind, _n), _paths in _PATHS.items():
    _ends = [0] * 6
    for _a, _b in _paths:
        _ends[_a] = _b
        _ends[_b] = _a
    _LINKS[(_kind, _n)] = tuple(_ends)

#: kind -> the distinct rotations (smallest number of each distinct pattern).
DISTINCT_ROTATIONS: dict[int, tuple[int, ...]] = {}
#: path set -> the Tile (type, smallest rotation) that has it; 15 entries.
_BY_PATHS: dict[PathSet, tuple[int, int]] = {}
for _kind in TILE_TYPES:
    _seen: list[int] = []
    for _n in range(6):
        _p = _PATHS[(_kind, _n)]
        if _p not in _BY_PATHS:
            _BY_PATHS[_p] = (_kind, _n)
            _seen.append(_n)
    DISTINCT_ROTATIONS[_kind] = tuple(_seen)


def paths_of(kind: int, rotation: int) -> PathSet:
    """The path set of a type at a rotation."""
    return _PATHS[(kind, rotation % 6)]


@dataclass(frozen=True, order=True)
class Tile:
    """A route tile type (``kind`` 0..4) turned ``rotation`` (0..5) clockwise steps."""

    kind: int
    rotation: int = 0

    def __post_init__(self) -> None:
        if self.kind not in BASE_PATHS:
            raise ValueError(f"no tile type {self.kind!r}; types are 0..4")
        if not 0 <= self.rotation <= 5 or isinstance(self.rotation, bool):
            raise ValueError(f"rotation {self.rotation!r} is not 0..5")

    @property
    def paths(self) -> PathSet:
        """The three paths, canonical: compare tiles by this, not by rotation."""
        return _PATHS[(self.kind, self.rotation)]

    @property
    def links(self) -> tuple[int, ...]:
        """``links[e]`` is the other end of the path that starts at edge ``e``."""
        return _LINKS[(self.kind, self.rotation)]

    def other_end(self, edge: int) -> int:
        """Where a gem entering at ``edge`` leaves the tile."""
        return _LINKS[(self.kind, self.rotation)][edge]

    def canonical(self) -> Tile:
        """The same oriented tile with the smallest rotation number."""
        kind, rotation = _BY_PATHS[self.paths]
        return Tile(kind, rotation)

    def same_pattern(self, other: Tile) -> bool:
        """True when both tiles lie the same way on the board (same path set)."""
        return self.paths == other.paths

    def is_blocking(self, cell: Cell) -> bool:
        """True when this tile on ``cell`` would join two exits of its gateway (§6.1)."""
        blocked = blocked_path(cell)
        return blocked is not None and self.other_end(blocked[0]) == blocked[1]

    def rotated(self, steps: int = 1) -> Tile:
        """The tile turned ``steps`` more clockwise steps."""
        return Tile(self.kind, (self.rotation + steps) % 6)


def identify(paths: tuple[tuple[int, int], ...]) -> Tile:
    """The tile (type and smallest rotation) whose path set is ``paths``, in any order.

    Raises ValueError when no route tile has that pattern.
    """
    if len(paths) != 3:
        raise ValueError(f"a route tile has 3 paths, got {len(paths)}: {paths!r}")
    try:
        key = rotate_paths(
            ((paths[0][0], paths[0][1]), (paths[1][0], paths[1][1]), (paths[2][0], paths[2][1])),
            0,
        )
        kind, rotation = _BY_PATHS[key]
    except (KeyError, IndexError):
        raise ValueError(f"no route tile has the paths {paths!r}") from None
    return Tile(kind, rotation)


def all_patterns() -> tuple[Tile, ...]:
    """The 15 distinct oriented tiles, each at its smallest rotation."""
    return tuple(Tile(kind, n) for kind in TILE_TYPES for n in DISTINCT_ROTATIONS[kind])


def path_kind(path: Path) -> str:
    """``"tight"`` (60°), ``"wide"`` (120°) or ``"straight"`` (180°) for a path's two ends."""
    gap = (path[1] - path[0]) % 6
    gap = min(gap, 6 - gap)
    return {1: "tight", 2: "wide", 3: "straight"}[gap]
