"""The angular puzzle: build all 4 pieces of unit cubes so that the top view matches the card.

The top view is, for every column (x, y), the colour letter of the piece owning the highest
cube there; '.' marks an empty column. It must equal the card's picture under one of the four
quarter turns (a mirror image is a different picture unless ``allow_mirror``). Every piece is
used, keeps its shape (any of the 24 turns in space), every cube stands on the table (z = 0)
or on another cube, no two cubes share a place, and the footprint has no gaps: its columns
are connected and, the top view being equal to the card, fill the card's shape exactly
(rules/enigma.md section 6.4). Piece shapes are DEMO data.

Coordinates: x to the right, y downward (as on the table seen from the camera), z up.

>>> top_view({"R": [(0, 0, 0), (1, 0, 0)], "B": [(1, 0, 1)]})
('RB',)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from companion.enigma.errors import PuzzleError

Cube = tuple[int, int, int]
Picture = tuple[str, ...]
EMPTY = "."


@dataclass(frozen=True)
class AngularPiece:
    """A piece: its one-letter code (used in pictures), colour name and cubes."""

    id: str
    colour: str
    cubes: tuple[Cube, ...]


@dataclass(frozen=True)
class AngularCard:
    """The picture on the card: rows of colour letters, '.' for empty."""

    id: str
    top: Picture


def _rotations() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """The 24 proper rotation matrices of the cube (determinant +1)."""
    found = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            matrix = tuple(
                tuple(signs[r] if c == perm[r] else 0 for c in range(3)) for r in range(3)
            )
            (a, b, c), (d, e, f), (g, h, i) = matrix
            det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
            if det == 1:
                found.append(tuple(tuple(row) for row in matrix))
    return tuple(found)  # type: ignore[arg-type]


ROTATIONS = _rotations()


def normalise(cubes: Iterable[Cube]) -> frozenset[Cube]:
    """Cubes moved so that their smallest x, y and z are 0."""
    cubes = list(cubes)
    mx = min(c[0] for c in cubes)
    my = min(c[1] for c in cubes)
    mz = min(c[2] for c in cubes)
    return frozenset((x - mx, y - my, z - mz) for x, y, z in cubes)


def orientations(cubes: Sequence[Cube]) -> list[frozenset[Cube]]:
    """The distinct shapes a piece takes when turned in space, normalised."""
    seen: list[frozenset[Cube]] = []
    for m in ROTATIONS:
        turned = normalise(
            (
                m[0][0] * x + m[0][1] * y + m[0][2] * z,
                m[1][0] * x + m[1][1] * y + m[1][2] * z,
                m[2][0] * x + m[2][1] * y + m[2][2] * z,
            )
            for x, y, z in cubes
        )
        if turned not in seen:
            seen.append(turned)
    return seen


def top_view(cubes_by_piece: Mapping[str, Iterable[Cube]]) -> Picture:
    """The picture seen from above: per column the letter of the highest cube's piece,
    cropped to the footprint's bounding box, '.' where a column is empty.

    The camera reader calls :func:`picture_matches` on the grid it sees; this function gives
    the same grid for a structure described by its cubes.
    """
    highest: dict[tuple[int, int], tuple[int, str]] = {}
    for piece, cubes in cubes_by_piece.items():
        for x, y, z in cubes:
            if (x, y) not in highest or z > highest[(x, y)][0]:
                highest[(x, y)] = (z, piece)
    if not highest:
        return ()
    xs = [x for x, _ in highest]
    ys = [y for _, y in highest]
    return tuple(
        "".join(highest[(x, y)][1] if (x, y) in highest else EMPTY
                for x in range(min(xs), max(xs) + 1))
        for y in range(min(ys), max(ys) + 1)
    )


def crop(picture: Sequence[str]) -> Picture:
    """The picture without empty border rows and columns."""
    rows = [r for r in picture]
    filled = [(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch != EMPTY]
    if not filled:
        return ()
    x0 = min(x for x, _ in filled)
    x1 = max(x for x, _ in filled)
    y0 = min(y for _, y in filled)
    y1 = max(y for _, y in filled)
    return tuple(rows[y][x0:x1 + 1].ljust(x1 - x0 + 1, EMPTY) for y in range(y0, y1 + 1))


def turn_picture(picture: Picture) -> Picture:
    """The picture turned a quarter clockwise."""
    if not picture:
        return picture
    height, width = len(picture), len(picture[0])
    return tuple("".join(picture[height - 1 - r][c] for r in range(height)) for c in range(width))


def picture_matches(
    seen: Sequence[str], card: Sequence[str], *, allow_mirror: bool = False
) -> bool:
    """True when ``seen`` equals the card's picture under a quarter turn (or mirror)."""
    target = crop(card)
    current = crop(seen)
    candidates = [current]
    if allow_mirror:
        candidates.append(tuple(row[::-1] for row in current))
    for picture in candidates:
        for _ in range(4):
            if picture == target:
                return True
            picture = turn_picture(picture)
    return False


def angular_problem(
    card: AngularCard,
    pieces: Sequence[AngularPiece],
    placement: Mapping[str, Sequence[Cube]],
    *,
    allow_mirror: bool = False,
) -> str | None:
    """Why ``placement`` (piece id -> its cubes on the table) does not solve ``card``."""
    by_id = {p.id: p for p in pieces}
    for piece_id in placement:
        if piece_id not in by_id:
            return f"there is no piece {piece_id!r}"
    unused = sorted(set(by_id) - set(placement))
    if unused:
        return f"all {len(by_id)} pieces must be used; unused: {', '.join(unused)}"
    occupied: dict[Cube, str] = {}
    for piece_id, cubes in sorted(placement.items()):
        shape = normalise(cubes) if cubes else frozenset()
        if len(set(cubes)) != len(cubes) or shape not in orientations(by_id[piece_id].cubes):
            return f"piece {piece_id}'s cubes are not its shape"
        for cube in cubes:
            if cube[2] < 0:
                return f"piece {piece_id} goes below the table at {list(cube)}"
            if cube in occupied:
                return f"pieces {occupied[cube]} and {piece_id} share the place {list(cube)}"
            occupied[cube] = piece_id
    for (x, y, z), piece_id in sorted(occupied.items()):
        if z > 0 and (x, y, z - 1) not in occupied:
            return (f"piece {piece_id}'s cube at {[x, y, z]} stands on nothing: every cube "
                    "rests on the table or on a cube")
    columns = {(x, y) for x, y, _ in occupied}
    start = next(iter(columns))
    reached, stack = {start}, [start]
    while stack:
        x, y = stack.pop()
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nxt in columns and nxt not in reached:
                reached.add(nxt)
                stack.append(nxt)
    if reached != columns:
        return "the structure has a gap: its footprint falls apart"
    view = top_view({pid: cubes for pid, cubes in placement.items()})
    if not picture_matches(view, card.top, allow_mirror=allow_mirror):
        return f"seen from above it shows {'/'.join(view)}, the card shows {'/'.join(card.top)}"
    return None


def check(
    card: AngularCard,
    pieces: Sequence[AngularPiece],
    placement: Mapping[str, Sequence[Cube]],
    *,
    allow_mirror: bool = False,
) -> bool:
    """True when the structure uses all pieces legally and its top view is the card's."""
    return angular_problem(card, pieces, placement, allow_mirror=allow_mirror) is None


def _candidates(
    piece: AngularPiece, target: Picture, max_height: int
) -> list[tuple[Cube, ...]]:
    """Placements of ``piece`` whose columns lie in the footprint and that reach every column
    the target shows in the piece's letter (the piece must own those tops)."""
    footprint = {
        (x, y) for y, row in enumerate(target) for x, ch in enumerate(row) if ch != EMPTY
    }
    own = {(x, y) for y, row in enumerate(target) for x, ch in enumerate(row) if ch == piece.id}
    width, height = len(target[0]), len(target)
    found = []
    for shape in orientations(piece.cubes):
        sx = max(c[0] for c in shape)
        sy = max(c[1] for c in shape)
        sz = max(c[2] for c in shape)
        for dz in range(max_height - sz):
            for dy in range(height - sy):
                for dx in range(width - sx):
                    cubes = tuple((x + dx, y + dy, z + dz) for x, y, z in shape)
                    columns = {(x, y) for x, y, _ in cubes}
                    if columns <= footprint and own <= columns:
                        found.append(cubes)
    return found


class _Search:
    """Combines candidate placements without overlap and keeps the full solutions."""

    def __init__(
        self,
        card: AngularCard,
        pieces: Sequence[AngularPiece],
        target: Picture,
        allow_mirror: bool,
        limit: int | None,
        solutions: list[dict[str, tuple[Cube, ...]]],
    ) -> None:
        self.card, self.pieces, self.target = card, pieces, target
        self.allow_mirror, self.limit, self.solutions = allow_mirror, limit, solutions
        self.chosen: dict[str, tuple[Cube, ...]] = {}
        self.used: set[Cube] = set()
        self.owner = {
            (x, y): ch for y, row in enumerate(target) for x, ch in enumerate(row) if ch != EMPTY
        }
        #: per column: (highest z of the column's owner piece, highest z of any other piece)
        self.tops: dict[tuple[int, int], list[int]] = {c: [-1, -1] for c in self.owner}

    def _fits(self, piece_id: str, cubes: tuple[Cube, ...]) -> bool:
        """The owner of a column must end up highest in it: prune as soon as it cannot."""
        highest: dict[tuple[int, int], int] = {}
        for x, y, z in cubes:
            highest[(x, y)] = max(highest.get((x, y), -1), z)
        for column, z in highest.items():
            own, other = self.tops[column]
            if self.owner[column] == piece_id:
                if z <= other:
                    return False
            elif own >= 0 and z >= own:
                return False
        return True

    def _deficit(self) -> int:
        """Cubes still needed: every column of the picture must become a full stack from the
        table up to its highest cube (nothing floats), so the gaps must be filled later."""
        present: dict[tuple[int, int], int] = {}
        top: dict[tuple[int, int], int] = {}
        for x, y, z in self.used:
            present[(x, y)] = present.get((x, y), 0) + 1
            top[(x, y)] = max(top.get((x, y), -1), z)
        return sum(top.get(c, 0) + 1 - present.get(c, 0) for c in self.owner)

    def run(self, remaining: list[tuple[str, list[tuple[Cube, ...]]]]) -> bool:
        """Place the remaining pieces; True once ``limit`` solutions are found."""
        if not remaining:
            if top_view(self.chosen) == self.target and angular_problem(
                self.card, self.pieces, self.chosen, allow_mirror=self.allow_mirror
            ) is None:
                self.solutions.append(dict(self.chosen))
                return self.limit is not None and len(self.solutions) >= self.limit
            return False
        if self._deficit() > sum(len(opts[0]) for _, opts in remaining if opts):
            return False
        piece_id, options = remaining[0]
        for cubes in options:
            if self.used.isdisjoint(cubes) and self._fits(piece_id, cubes):
                saved = {(x, y): list(self.tops[(x, y)]) for x, y, _ in cubes}
                for x, y, z in cubes:
                    slot = 0 if self.owner[(x, y)] == piece_id else 1
                    self.tops[(x, y)][slot] = max(self.tops[(x, y)][slot], z)
                self.chosen[piece_id] = cubes
                self.used.update(cubes)
                stop = self.run(remaining[1:])
                self.used.difference_update(cubes)
                del self.chosen[piece_id]
                self.tops.update(saved)
                if stop:
                    return True
        return False


def solve(
    card: AngularCard,
    pieces: Sequence[AngularPiece],
    *,
    allow_mirror: bool = False,
    max_height: int = 3,
    limit: int | None = None,
) -> list[dict[str, tuple[Cube, ...]]]:
    """Structures (piece id -> cubes) whose top view is the card's picture in one of its
    quarter turns (each turn gives its own, turned, structures); at most ``limit``.

    Each piece must reach every column showing its letter, which leaves few candidates per
    piece; the pieces are then combined without overlap and checked in full.
    """
    targets: list[Picture] = []
    picture = crop(card.top)
    bases = [picture] + ([tuple(r[::-1] for r in picture)] if allow_mirror else [])
    for base in bases:
        for _ in range(4):
            if base not in targets:
                targets.append(base)
            base = turn_picture(base)
    solutions: list[dict[str, tuple[Cube, ...]]] = []
    for target in targets:
        options = [_candidates(p, target, max_height) for p in pieces]
        order = sorted(range(len(pieces)), key=lambda i: len(options[i]))
        search = _Search(card, pieces, target, allow_mirror, limit, solutions)
        if search.run([(pieces[i].id, options[i]) for i in order]):
            break
    return solutions


def _cube(value: object, where: str) -> Cube:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 3
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise PuzzleError(f"{where}: a cube is [x, y, z], got {value!r}")
    return (value[0], value[1], value[2])


def parse_angular_pieces(data: object) -> tuple[AngularPiece, ...]:
    """``[{"id": "R", "colour": "red", "cubes": [[0, 0, 0], ...]}, ...]``."""
    if not isinstance(data, list):
        raise PuzzleError("angular pieces: must be a list")
    pieces = []
    for item in data:
        if not isinstance(item, Mapping) or not isinstance(item.get("id"), str):
            raise PuzzleError(f"angular pieces: each needs an 'id', got {item!r}")
        where = f"angular piece {item['id']}"
        if len(item["id"]) != 1 or item["id"] == EMPTY:
            raise PuzzleError(f"{where}: the id is the one letter used in pictures")
        cubes = item.get("cubes")
        if not isinstance(cubes, list) or not cubes:
            raise PuzzleError(f"{where}: 'cubes' must be a non-empty list")
        pieces.append(AngularPiece(item["id"], str(item.get("colour", item["id"])),
                                   tuple(_cube(c, where) for c in cubes)))
    if len({p.id for p in pieces}) != len(pieces):
        raise PuzzleError("angular pieces: ids must be unique")
    return tuple(pieces)


def parse_angular_card(data: object) -> AngularCard:
    """``{"id": ..., "top": ["RRB", "GRB", "GYY"]}``."""
    if not isinstance(data, Mapping):
        raise PuzzleError("angular card: must be an object")
    top = data.get("top")
    if (
        not isinstance(top, list) or not top
        or not all(isinstance(r, str) for r in top)
        or len({len(r) for r in top}) != 1
    ):
        raise PuzzleError(f"angular card {data.get('id')!r}: 'top' must be rows of equal length")
    return AngularCard(str(data.get("id", "")), tuple(top))


def parse_angular_solution(data: object) -> dict[str, tuple[Cube, ...]]:
    """``{"R": [[x, y, z], ...], ...}``."""
    if not isinstance(data, Mapping):
        raise PuzzleError("angular solution: must be an object of piece id -> cubes")
    return {
        str(pid): tuple(_cube(c, f"angular solution {pid}") for c in cubes)
        for pid, cubes in data.items()
        if isinstance(cubes, list)
    }


def format_angular_solution(solution: Mapping[str, Sequence[Cube]]) -> dict[str, object]:
    return {pid: [list(c) for c in sorted(cubes)] for pid, cubes in sorted(solution.items())}


__all__ = [
    "AngularCard",
    "AngularPiece",
    "Cube",
    "EMPTY",
    "Picture",
    "ROTATIONS",
    "angular_problem",
    "check",
    "crop",
    "format_angular_solution",
    "normalise",
    "orientations",
    "parse_angular_card",
    "parse_angular_pieces",
    "parse_angular_solution",
    "solve",
    "picture_matches",
    "top_view",
    "turn_picture",
]
