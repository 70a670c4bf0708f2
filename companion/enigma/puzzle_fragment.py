"""The fragment puzzle: cover the card's silhouette with all the (tangram-like) pieces.

Pieces and silhouettes are polygons in the same units (the demo set is the standard 7-piece
tangram of rules/enigma.md appendix A, area 16). A placement turns a piece by ``rotation``
degrees (mirrored first when ``mirror`` is set and the piece allows it) and moves it by ``at``.
The answer is right when every piece is used once, no two pieces overlap, nothing lies
outside the silhouette and nothing of it is left uncovered; each of the three areas may be at
most ``tolerance`` times the silhouette's area (camera and hand placement are not exact).

>>> sq = FragmentPiece("Q", ((0, 0), (1, 0), (1, 1), (0, 1)))
>>> card = FragmentCard("two", (((0, 0), (2, 0), (2, 1), (0, 1)),))
>>> check_polygons(card.silhouette, [sq.polygon, transform(sq.polygon, offset=(1, 0))])
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.enigma.errors import PuzzleError
from companion.enigma.geometry import (
    Point,
    Polygon,
    area,
    overlap_area,
    transform,
)

#: Largest overlap, outside or uncovered area, as a share of the silhouette's area.
DEFAULT_TOLERANCE = 0.005


@dataclass(frozen=True)
class FragmentPiece:
    """A piece: its outline, and whether it may be turned over (the parallelogram)."""

    id: str
    polygon: Polygon
    mirror: bool = False


@dataclass(frozen=True)
class FragmentCard:
    """The silhouette to cover: one or more disjoint simple polygons."""

    id: str
    silhouette: tuple[Polygon, ...]

    @property
    def area(self) -> float:
        return sum(area(part) for part in self.silhouette)


@dataclass(frozen=True)
class FragmentPlacement:
    """Where one piece lies: mirrored?, turned ``rotation`` degrees, moved by ``at``."""

    piece: str
    rotation: float = 0.0
    mirror: bool = False
    at: Point = (0.0, 0.0)


@dataclass(frozen=True)
class CoverReport:
    """Areas that decide a fragment answer, for messages and for the screen."""

    silhouette_area: float
    pieces_area: float
    overlap: float
    outside: float
    uncovered: float
    tolerance: float

    @property
    def limit(self) -> float:
        return self.tolerance * self.silhouette_area

    @property
    def is_covered(self) -> bool:
        return max(self.overlap, self.outside, self.uncovered) <= self.limit

    def problem(self) -> str | None:
        if self.overlap > self.limit:
            return f"pieces overlap by {self.overlap:.3g} (allowed {self.limit:.3g})"
        if self.outside > self.limit:
            return f"{self.outside:.3g} of the pieces lies outside the silhouette"
        if self.uncovered > self.limit:
            return f"{self.uncovered:.3g} of the silhouette is left uncovered"
        return None


def _polygon(value: object, where: str) -> Polygon:
    if not isinstance(value, list) or len(value) < 3:
        raise PuzzleError(f"{where}: a polygon is a list of at least 3 [x, y] points")
    points = []
    for point in value:
        if (
            not isinstance(point, list | tuple)
            or len(point) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in point)
        ):
            raise PuzzleError(f"{where}: a point is [x, y], got {point!r}")
        points.append((float(point[0]), float(point[1])))
    if area(points) <= 0:
        raise PuzzleError(f"{where}: the polygon has no area")
    return tuple(points)


def parse_fragment_pieces(data: object) -> tuple[FragmentPiece, ...]:
    """``[{"id": "L1", "polygon": [[0, 0], [4, 0], [2, 2]], "mirror": false}, ...]``."""
    if not isinstance(data, list):
        raise PuzzleError("fragment pieces: must be a list")
    pieces = []
    for item in data:
        if not isinstance(item, Mapping) or not isinstance(item.get("id"), str):
            raise PuzzleError(f"fragment pieces: each needs an 'id', got {item!r}")
        where = f"fragment piece {item['id']}"
        pieces.append(FragmentPiece(item["id"], _polygon(item.get("polygon"), where),
                                    bool(item.get("mirror", False))))
    if len({p.id for p in pieces}) != len(pieces):
        raise PuzzleError("fragment pieces: ids must be unique")
    return tuple(pieces)


def parse_fragment_card(data: object) -> FragmentCard:
    """``{"id": ..., "silhouette": [[[x, y], ...], ...]}`` (a list of polygons)."""
    if not isinstance(data, Mapping):
        raise PuzzleError("fragment card: must be an object")
    where = f"fragment card {data.get('id')!r}"
    parts = data.get("silhouette")
    if not isinstance(parts, list) or not parts:
        raise PuzzleError(f"{where}: 'silhouette' must be a non-empty list of polygons")
    return FragmentCard(str(data.get("id", "")), tuple(_polygon(p, where) for p in parts))


def format_fragment_card(card: FragmentCard) -> dict[str, object]:
    return {"id": card.id,
            "silhouette": [[[_num(x), _num(y)] for x, y in part] for part in card.silhouette]}


def _num(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(value, 9)


def parse_fragment_solution(data: object) -> tuple[FragmentPlacement, ...]:
    """``[{"piece": "L1", "rotation": 90, "mirror": false, "at": [4, 0]}, ...]``."""
    if not isinstance(data, list):
        raise PuzzleError("fragment solution: must be a list of placements")
    placements = []
    for item in data:
        if not isinstance(item, Mapping) or not isinstance(item.get("piece"), str):
            raise PuzzleError(f"fragment solution: each placement names a 'piece', got {item!r}")
        at = item.get("at", [0, 0])
        rotation = item.get("rotation", 0)
        if (
            not isinstance(at, list) or len(at) != 2
            or not all(isinstance(v, int | float) for v in at)
            or not isinstance(rotation, int | float)
        ):
            raise PuzzleError(f"fragment solution: bad 'at' or 'rotation' in {item!r}")
        placements.append(FragmentPlacement(item["piece"], float(rotation),
                                            bool(item.get("mirror", False)),
                                            (float(at[0]), float(at[1]))))
    return tuple(placements)


def format_fragment_solution(placements: Sequence[FragmentPlacement]) -> list[dict[str, object]]:
    return [{"piece": p.piece, "rotation": _num(p.rotation), "mirror": p.mirror,
             "at": [_num(p.at[0]), _num(p.at[1])]} for p in placements]


def cover_report(
    silhouette: Sequence[Sequence[Point]],
    polygons: Sequence[Sequence[Point]],
    *,
    tolerance: float = DEFAULT_TOLERANCE,
) -> CoverReport:
    """Overlap between pieces, piece area outside the silhouette, silhouette left bare."""
    sil_area = sum(area(part) for part in silhouette)
    pieces_area = sum(area(poly) for poly in polygons)
    overlap = sum(
        overlap_area(polygons[i], polygons[j])
        for i in range(len(polygons))
        for j in range(i + 1, len(polygons))
    )
    inside = sum(overlap_area(part, poly) for poly in polygons for part in silhouette)
    return CoverReport(
        silhouette_area=sil_area,
        pieces_area=pieces_area,
        overlap=overlap,
        outside=max(0.0, pieces_area - inside),
        uncovered=max(0.0, sil_area - inside + overlap),
        tolerance=tolerance,
    )


def check_polygons(
    silhouette: Sequence[Sequence[Point]],
    polygons: Sequence[Sequence[Point]],
    *,
    tolerance: float = DEFAULT_TOLERANCE,
) -> bool:
    """True when ``polygons`` cover ``silhouette`` without overlap, gap or spill."""
    return cover_report(silhouette, polygons, tolerance=tolerance).is_covered


def placed_polygons(
    pieces: Sequence[FragmentPiece], placements: Sequence[FragmentPlacement]
) -> list[Polygon]:
    """The outlines of the placed pieces (unknown piece ids raise PuzzleError)."""
    by_id = {p.id: p for p in pieces}
    polygons = []
    for placement in placements:
        piece = by_id.get(placement.piece)
        if piece is None:
            raise PuzzleError(f"fragment: there is no piece {placement.piece!r}")
        polygons.append(transform(piece.polygon, rotation=placement.rotation,
                                  mirror=placement.mirror, offset=placement.at))
    return polygons


def fragment_problem(
    card: FragmentCard,
    pieces: Sequence[FragmentPiece],
    placements: Sequence[FragmentPlacement],
    *,
    tolerance: float = DEFAULT_TOLERANCE,
) -> str | None:
    """Why ``placements`` do not solve ``card``, or None when they do."""
    by_id = {p.id: p for p in pieces}
    used = [p.piece for p in placements]
    for piece_id in used:
        if piece_id not in by_id:
            return f"there is no piece {piece_id!r}"
    twice = sorted({p for p in used if used.count(p) > 1})
    if twice:
        return f"a piece is used twice: {', '.join(twice)}"
    unused = sorted(set(by_id) - set(used))
    if unused:
        return f"all {len(by_id)} pieces must be used; unused: {', '.join(unused)}"
    for placement in placements:
        if placement.mirror and not by_id[placement.piece].mirror:
            return f"piece {placement.piece} may not be turned over"
    report = cover_report(card.silhouette, placed_polygons(pieces, placements),
                          tolerance=tolerance)
    return report.problem()


def check(
    card: FragmentCard,
    pieces: Sequence[FragmentPiece],
    placements: Sequence[FragmentPlacement],
    *,
    tolerance: float = DEFAULT_TOLERANCE,
) -> bool:
    """True when all pieces are used once and cover the silhouette exactly (within tolerance)."""
    return fragment_problem(card, pieces, placements, tolerance=tolerance) is None


__all__ = [
    "CoverReport",
    "DEFAULT_TOLERANCE",
    "FragmentCard",
    "FragmentPiece",
    "FragmentPlacement",
    "check",
    "check_polygons",
    "cover_report",
    "format_fragment_card",
    "format_fragment_solution",
    "fragment_problem",
    "parse_fragment_card",
    "parse_fragment_pieces",
    "parse_fragment_solution",
    "placed_polygons",
    "transform",
]
