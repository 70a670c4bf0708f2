"""A solved (or wrongly solved) Enigma puzzle on the mat on a real table, photographed.

The mat is the four marker papers (ids 16..19, centres on the 240 x 150 mm rectangle, table
mm with marker 16 at the origin); the card lies in the left half, turned a little the way a
hand puts it down; the angular structure stands in the right half. The pieces stand up from
the card (weights, fragments, conduit pieces) or the table (cubes), throw shadows away from the
lamp; then the camera (tilt and turn, a lamp's fall-off and hotspot, glare, a hand's shadow,
colour cast, lens blur, noise, JPEG) takes the frame. Three strengths: mild, moderate, harsh.

Seeds below 70000 are for whoever tunes a check; 70000 and up are held apart.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .puzzle_builds import Build, make_build, on_card, puzzle_box
from .puzzle_card import (
    CARD_MM,
    MAT_FRAME_MM,
    MAT_IDS,
    MAT_PAPER_MM,
    PX_PER_MM,
    Print,
    angular_card,
    conduit_card,
    fragment_card,
    marker_paper,
    weight_card,
)
from .puzzle_pieces import (
    CONDUIT_PIECE_MM,
    CONDUIT_PX_PER_MM,
    Solid,
    cast_shadows,
    conduit_top,
    draw_solids,
    turn_about,
    weight,
)
from .puzzle_table import SURFACES, table_top
from .tabletop_camera import Condition, TableCamera, develop, warp_onto

HELD_APART_FIRST = 70000
MILD = Condition("mild", tilt_deg=6.0, roll_deg=8.0, height_mm=(420.0, 560.0),
                 fill=(0.8, 0.92), light_falloff=(0.05, 0.15), vignetting=(0.05, 0.12),
                 glare_spots=(0, 0), hand_shadow=0.0, cast=0.04, blur_sigma=(0.4, 0.8),
                 shot_noise=(0.02, 0.06), read_noise=(0.8, 1.5), jpeg_quality=(88, 95),
                 barrel=0.0, exposure=(0.9, 1.0))
MODERATE = Condition("moderate", tilt_deg=14.0, roll_deg=20.0, height_mm=(400.0, 650.0),
                     fill=(0.7, 0.92), light_falloff=(0.15, 0.3), vignetting=(0.1, 0.2),
                     glare_spots=(0, 1), hand_shadow=0.3, cast=0.09, blur_sigma=(0.7, 1.3),
                     shot_noise=(0.06, 0.15), read_noise=(1.5, 3.0), jpeg_quality=(75, 90),
                     barrel=0.02, exposure=(0.82, 1.05))
HARSH = Condition("harsh", tilt_deg=22.0, roll_deg=40.0, height_mm=(380.0, 750.0),
                  fill=(0.6, 0.9), light_falloff=(0.25, 0.45), vignetting=(0.15, 0.3),
                  glare_spots=(1, 3), hand_shadow=0.6, cast=0.15, blur_sigma=(1.0, 1.8),
                  shot_noise=(0.12, 0.25), read_noise=(2.5, 4.5), jpeg_quality=(60, 78),
                  barrel=0.04, exposure=(0.72, 1.1))
CONDITIONS = {c.name: c for c in (MILD, MODERATE, HARSH)}
CARD_TURN_DEG = {"mild": 6.0, "moderate": 15.0, "harsh": 25.0}
HOTSPOT = {"mild": (0.0, 15.0), "moderate": (15.0, 45.0), "harsh": (35.0, 85.0)}
CARD_THICK_MM = (1.6, 2.4)
CUBE_MM = 12.0
PIECE_COLOURS = {"red": [45, 50, 180], "green": [55, 140, 45], "blue": [165, 95, 35],
                 "yellow": [40, 190, 225]}


@dataclass
class PuzzleScene:
    """One frame and what it shows."""

    frame: np.ndarray
    build: Build
    condition: str
    surface: str
    card_to_table: np.ndarray       # card mm -> table mm (3 x 3)
    camera: TableCamera
    card_thick: float
    solids: list[Solid]             # the pieces as drawn (table mm, heights in mm)


def placement(centre_mm, angle_deg: float, half: float, scale: float) -> np.ndarray:
    """Local units (centred at ``half``) -> table mm, ``scale`` mm a unit, turned and moved."""
    a = np.radians(angle_deg)
    c, s = np.cos(a) * scale, np.sin(a) * scale
    return np.array([[c, -s, centre_mm[0] - c * half + s * half],
                     [s, c, centre_mm[1] - s * half - c * half], [0, 0, 1]])


def to_table(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    points = np.asarray(points, float)
    return points @ matrix[:2, :2].T + matrix[:2, 2]


def _lay_mat(image: np.ndarray, camera: TableCamera, rng) -> None:
    w, h = MAT_FRAME_MM
    plane = camera.plane_homography(0.1)
    for marker_id, (x, y) in zip(MAT_IDS, ((0, 0), (w, 0), (w, h), (0, h)), strict=True):
        paper = marker_paper(marker_id, rng)
        centre = np.array([x, y]) + rng.uniform(-0.4, 0.4, 2)
        matrix = placement(centre, rng.uniform(-0.4, 0.4), paper.shape[0] / 2, 1 / PX_PER_MM)
        n = paper.shape[0]
        warp_onto(image, paper, np.ones((n, n), np.float32), plane @ matrix)


def _card_picture(build: Build, look: Print) -> np.ndarray:
    box = puzzle_box()
    if build.kind == "weight":
        card = box.weight.cards[build.card_id]
        return weight_card(card.left, card.right, card.count, look)
    if build.kind == "fragment":
        return fragment_card(box.fragment.cards[build.card_id].silhouette, look)
    if build.kind == "conduit":
        card = box.conduit.cards[build.card_id]
        return conduit_card(card.cells, card.stubs, look)
    colours = {p.id: np.array(PIECE_COLOURS[p.colour], float) * 1.05
               for p in box.angular.pieces}
    return angular_card(box.angular.cards[build.card_id].top, colours, look)


def _card_solid(build: Build, matrix: np.ndarray, thick: float, rng) -> Solid:
    picture = _card_picture(build, Print(rng))
    corners = to_table(matrix, np.array([[0, 0], [CARD_MM, 0], [CARD_MM, CARD_MM],
                                         [0, CARD_MM]]))
    px_to_table = matrix @ np.diag([1 / PX_PER_MM, 1 / PX_PER_MM, 1.0])
    return Solid(corners, 0.0, thick, top=picture[0, 0], side=np.array([150, 160, 170.0]),
                 picture=(picture, px_to_table))


def _card_pieces(build: Build, matrix: np.ndarray, thick: float, rng) -> list[Solid]:
    """The weights, fragments and conduit pieces a player laid on (or beside) the card."""
    solids = []
    for spot in build.weights:
        solids.append(weight(to_table(matrix, spot[None])[0], rng,
                             thick if on_card(spot) else 0.0, rng.uniform(0.2, 0.6)))
    for polygon in build.fragments:
        black = np.array([28, 27, 30.0]) * rng.uniform(0.85, 1.2)
        base = thick if on_card(polygon.mean(axis=0)) else 0.0
        solids.append(Solid(to_table(matrix, polygon), base, rng.uniform(4.0, 5.0),
                            top=black, side=black * 0.8))
    half = CONDUIT_PIECE_MM / 2
    for middle, openings, turn in build.conduits:
        face = conduit_top(openings, rng)
        square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
        square = turn_about(square, np.zeros(2), turn) + middle
        card_angle = np.degrees(np.arctan2(matrix[1, 0], matrix[0, 0]))
        px = placement(to_table(matrix, middle[None])[0], turn + card_angle,
                       face.shape[0] / 2, 1 / CONDUIT_PX_PER_MM)
        solids.append(Solid(to_table(matrix, square), thick, rng.uniform(2.5, 3.5),
                            top=face[0, 0], side=face[0, 0] * 0.85, picture=(face, px),
                            extra={"openings": openings}))
    return solids


def _cube_squares(cubes, middle: np.ndarray, turn: float) -> list[np.ndarray]:
    """The footprints (mm, about the structure's middle) of cubes [x, y, z], turned."""
    half = CUBE_MM / 2 - 0.05
    square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    return [turn_about(square + (np.array([x, y]) - middle) * CUBE_MM, np.zeros(2), turn)
            for x, y, _ in cubes]


def _cube_solids(build: Build, rng, strength: str) -> list[Solid]:
    """The angular pieces as cubes, the structure in the right half; a piece set apart lies
    flat, its own shape, 10 mm clear of the structure towards the mat's long middle."""
    pieces = {p.id: p for p in puzzle_box().angular.pieces}
    standing = [c for piece, cs in build.cubes.items() if piece != build.apart for c in cs]
    every = np.array(standing, float)
    middle = (every[:, :2].min(axis=0) + every[:, :2].max(axis=0)) / 2
    spot = np.array([178.0, 75.0]) + rng.uniform(-8, 8, 2)
    turn = 90 * int(rng.integers(4)) + rng.uniform(-1, 1) * CARD_TURN_DEG[strength]
    reach = max(abs(sq[:, 1]).max() for sq in _cube_squares(standing, middle, turn))
    solids = []
    for piece, cubes in build.cubes.items():
        colour = np.array(PIECE_COLOURS[pieces[piece].colour], float) * rng.uniform(0.9, 1.1)
        at, here, about = spot + rng.uniform(-0.4, 0.4, 2), list(cubes), middle
        if piece == build.apart:
            here = list(pieces[piece].cubes)
            own = np.array(here, float)[:, :2]
            about = (own.min(axis=0) + own.max(axis=0)) / 2
            squares = _cube_squares(here, about, turn)
            extent = max(abs(sq[:, 1]).max() for sq in squares)
            at = spot + np.array([0.0, 1 if spot[1] < 75 else -1]) * (reach + extent + 10)
        for (x, y, z), square in zip(here, _cube_squares(here, about, turn), strict=True):
            solids.append(Solid(square + at, z * CUBE_MM, CUBE_MM, top=colour, side=colour,
                                extra={"piece": piece, "cube": (x, y, z)}))
    return solids


def puzzle_scene(kind: str, card_id: str, right: bool, seed: int, condition: str,
                 ) -> PuzzleScene:
    """The frame of ``card_id`` built right (or with one mistake) on one of our tables."""
    rng = np.random.default_rng([seed, 0x9A22, ord(kind[0]), int(right), len(condition)])
    build = make_build(kind, card_id, right, np.random.default_rng([seed, 0xB1D, int(right)]),
                       condition)
    frame_rng = np.random.default_rng([seed, 0xF4A, ord(condition[1])])
    w, h = MAT_FRAME_MM
    reach = MAT_PAPER_MM / 2 + 4
    camera = TableCamera(frame_rng, CONDITIONS[condition], (-reach, -reach, w + reach, h + reach))
    surface = SURFACES[int(rng.integers(len(SURFACES)))]
    image = table_top(surface, camera, rng)
    _lay_mat(image, camera, rng)
    card_turn = rng.uniform(-1, 1) * CARD_TURN_DEG[condition]
    centre = np.array([64.0, 75.0]) + rng.uniform(-5, 5, 2)
    matrix = placement(centre, card_turn, CARD_MM / 2, 1.0)
    thick = float(rng.uniform(*CARD_THICK_MM))
    elevation = np.radians(rng.uniform(40, 75))
    lamp_turn = rng.uniform(0, 2 * np.pi)
    lamp = np.array([np.cos(lamp_turn), np.sin(lamp_turn)]) / np.tan(elevation)
    card = _card_solid(build, matrix, thick, rng)
    cast_shadows(image, camera, [card], lamp, 0.35)
    draw_solids(image, camera, [card], lamp)
    pieces = _cube_solids(build, rng, condition) if kind == "angular" else \
        _card_pieces(build, matrix, thick, rng)
    cast_shadows(image, camera, pieces, lamp, 0.4)
    draw_solids(image, camera, pieces, lamp)
    _hotspot(image, camera, rng, HOTSPOT[condition], centre)
    frame = develop(image, frame_rng, CONDITIONS[condition])
    return PuzzleScene(frame, build, condition, surface, matrix, camera, thick, pieces)


def _hotspot(image: np.ndarray, camera: TableCamera, rng, strength: tuple[float, float],
             near_mm: np.ndarray) -> None:
    """A desk lamp's bright pool, somewhere over the mat (often over the card)."""
    spot_mm = near_mm + rng.uniform(-60, 60, 2) if rng.random() < 0.6 else \
        np.array([rng.uniform(0, 240), rng.uniform(0, 150)])
    x, y = camera.project(np.array([[*spot_mm, 0.0]]))[0]
    fh, fw = image.shape[:2]
    radius = rng.uniform(0.08, 0.22) * fw
    ys, xs = np.ogrid[0:fh, 0:fw]
    pool = np.exp(-((xs - x) ** 2 + (ys - y) ** 2) / (2 * radius ** 2)).astype(np.float32)
    image += rng.uniform(*strength) * pool[..., None]


def scene_cards(kind: str) -> list[str]:
    return sorted(getattr(puzzle_box(), kind).cards)
