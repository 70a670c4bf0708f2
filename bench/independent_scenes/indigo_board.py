"""An Indigo board in play on a table, seen from above in layers at their real heights.

From the documentation alone (``docs/vision.md``, ``docs/indigo.md``, the rules digest): the
board is a hexagon whose rim corner lies 10.2 cell radii from its centre, ``board_radius_mm``
(250 mm by default) from the middle of the four table markers (ids 0..3, 60 mm, centres on a
580 x 520 mm rectangle); cells are pointy-top with gateway g0 at the top. Where the twelve chip
places lie on the rim was measured on a ``companion render indigo`` picture: two per gateway,
7.97 cell radii out from the centre, half a cell's width (sqrt(3)/2 radii) either side of the
gateway side's middle, slot 0 first going clockwise; the markers' ids run clockwise from the
top left.

A position is a random legal game of the engine played some turns. Everything is drawn on three
top-down canvases (millimetres times ``CANVAS_PX_PER_MM``): the printed board (with the shadows
cast on it), the pieces lying on it (route and treasure tiles laid by hand, chips), and the
gems. The camera (``indigo_camera``) projects each at its own height.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.indigo import CENTRE as CENTRE_CELL
from companion.indigo import (
    CHIPS,
    CORNERS,
    ROUTE_CELLS,
    TREASURE_CELLS,
    Gem,
    IndigoState,
    apply,
    board_snapshot,
    cell_centre,
    edge_midpoint,
    edge_normal_degrees,
    legal_placements,
    new_game,
)

from .indigo_art import CHIP_NAMES, REAL_GEM_BGR, Look
from .indigo_gems import draw_gem, draw_shadow

Cell = tuple[int, int]
#: where a gem lies, in terms that do not depend on which side the reader names:
#: ("centre",), ("corner", cell) for an unmoved amber, ("edge", the two cells of the edge)
Spot = tuple

BOARD_RADIUS_MM = 250.0
CELL_RADIUS_MM = BOARD_RADIUS_MM / 10.2
MARKER_SIZE_MM = 60.0
MARKER_FRAME_MM = (580.0, 520.0)
MARKER_MARGIN_MM = 8.0              # white paper around each printed marker
CHIP_OUT_RADII = 7.97               # chip place centres from the board centre, cell radii
CHIP_ALONG_RADII = np.sqrt(3) / 2   # either side of the gateway side's middle
CHIP_RADIUS_RADII = 0.42
CHIP_SPACE_RADII = 0.47
GEM_RADIUS_RADII = (0.27, 0.32)

CANVAS_PX_PER_MM = 3.0
CANVAS_HALF_MM = 262.0              # the canvases span the board and a little table
TILE_SIZE_SHARE = 0.965             # a tile is a little smaller than its printed cell: gaps

MAX_TURNS = 45                      # the most placements a drawn position has


@dataclass(frozen=True)
class Hand:
    """How carefully pieces were laid: tile offset and turn, gem jitter on its edge."""

    tile_offset_mm: float
    tile_turn_deg: float
    gem_along_mm: float
    gem_across_mm: float


@dataclass
class Truth:
    """What lies on the board, in the terms the reader reports."""

    tiles: dict[Cell, tuple] = field(default_factory=dict)     # route cell -> paths
    gems: list[tuple[str, Spot]] = field(default_factory=list)
    chips: dict[tuple[int, int], str] = field(default_factory=dict)  # (gate, slot) -> colour
    covered: Cell | None = None                                 # under a fingertip
    centre_left: int = 0


@dataclass
class Layers:
    """The three canvases (BGRA float), and the gem layer's height above the board."""

    board: np.ndarray
    pieces: np.ndarray
    gems: np.ndarray


def random_position(rng: random.Random) -> IndigoState:
    """A position some legal turns into a random game (2-4 players, any layout)."""
    players = rng.choice((2, 3, 4))
    layout = rng.choice({2: ("2p",), 3: ("3p", "3p-alt"), 4: ("4p",)}[players])
    state = new_game(players, layout=layout)
    turns = min(int(rng.expovariate(1 / 14)), MAX_TURNS)
    for _ in range(turns):
        kinds = list(range(5))
        rng.shuffle(kinds)
        for kind in kinds:
            options = legal_placements(state, kind, all_rotations=True)
            if options:
                state = apply(state, rng.choice(options))
                break
        if state.is_over:
            break
    return state


def edge_spot(cell: Cell, edge: int) -> Spot:
    """An edge point as the pair of cells the edge lies between."""
    from companion.indigo import neighbour

    return ("edge", frozenset((cell, neighbour(cell, edge))))


def truth_of(state: IndigoState) -> Truth:
    snap = board_snapshot(state)
    truth = Truth(tiles={cell: tile.paths for cell, tile in snap.tiles.items()},
                  centre_left=len(snap.centre))
    truth.gems += [(gem.value, edge_spot(*point)) for point, gem in snap.edge_gems.items()]
    truth.gems += [(Gem.AMBER.value, ("corner", cell)) for cell in snap.corner_ambers]
    truth.gems += [(gem.value, ("centre",)) for gem in snap.centre]
    for gate, pair in enumerate(CHIPS[state.layout]):
        for slot, player in enumerate(pair):
            truth.chips[(gate, slot)] = CHIP_NAMES[player]
    return truth


def to_canvas(point_mm: tuple[float, float] | np.ndarray) -> np.ndarray:
    return (np.asarray(point_mm, np.float64) + CANVAS_HALF_MM) * CANVAS_PX_PER_MM


def canvas_side() -> int:
    return int(round(2 * CANVAS_HALF_MM * CANVAS_PX_PER_MM))


def paste_px(layer: np.ndarray, piece: np.ndarray, centre: np.ndarray, radius_px: float,
             turn_deg: float) -> None:
    """Lay a square BGRA picture (its circumcircle ``radius_px``) turned clockwise, at
    ``centre`` (pixels of ``layer``, BGRA float)."""
    side = piece.shape[0]
    half = int(radius_px) + 3
    x0, y0 = int(centre[0]) - half, int(centre[1]) - half
    matrix = cv2.getRotationMatrix2D((side / 2, side / 2), -turn_deg, radius_px / (side / 2))
    matrix[:, 2] += np.asarray(centre) - np.array([x0, y0]) - side / 2
    patch = cv2.warpAffine(piece, matrix, (2 * half, 2 * half), flags=cv2.INTER_AREA,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    roi = layer[y0:y0 + 2 * half, x0:x0 + 2 * half]
    alpha = patch[..., 3:4] / 255.0
    roi[..., :3] = roi[..., :3] * (1 - alpha) + patch[..., :3] * alpha
    roi[..., 3:4] = np.maximum(roi[..., 3:4], patch[..., 3:4])


def _paste(layer: np.ndarray, piece: np.ndarray, centre_mm: np.ndarray, radius_mm: float,
           turn_deg: float) -> None:
    paste_px(layer, piece, to_canvas(centre_mm), radius_mm * CANVAS_PX_PER_MM, turn_deg)


def _board_outline_px(radius_mm: float) -> np.ndarray:
    angles = np.radians(np.arange(6) * 60.0)
    points = np.stack([radius_mm * np.cos(angles), radius_mm * np.sin(angles)], axis=1)
    return np.round(to_canvas(points) * 16).astype(np.int32)


def chip_place_mm(gate: int, slot: int) -> np.ndarray:
    x = (slot - 0.5) * 2 * CHIP_ALONG_RADII * CELL_RADIUS_MM
    y = -CHIP_OUT_RADII * CELL_RADIUS_MM
    turn = np.radians(60.0 * gate)           # clockwise on screen (y down)
    return np.array([x * np.cos(turn) - y * np.sin(turn), x * np.sin(turn) + y * np.cos(turn)])


def _printed_board(look: Look, rng: np.random.Generator) -> np.ndarray:
    """The board as printed: rim, chip places, the field and every cell's print."""
    side = canvas_side()
    board = np.zeros((side, side, 4), np.float32)
    cv2.fillPoly(board, [_board_outline_px(BOARD_RADIUS_MM)], (*look.rim, 255.0), cv2.LINE_AA,
                 shift=4)
    grain = cv2.resize(rng.normal(0, 1, (side // 16, side // 16)).astype(np.float32),
                       (side, side), interpolation=cv2.INTER_CUBIC)
    board[..., :3] *= (1 + 0.04 * grain)[..., None]
    r_px = CANVAS_PX_PER_MM * CELL_RADIUS_MM
    for gate in range(6):
        for slot in range(2):
            c = to_canvas(chip_place_mm(gate, slot))
            cv2.circle(board, (int(c[0]), int(c[1])), int(CHIP_SPACE_RADII * r_px),
                       (*look.chip_space, 255.0), -1, cv2.LINE_AA)
    for cell in (*ROUTE_CELLS, *TREASURE_CELLS):
        centre = np.array(cell_centre(cell, CELL_RADIUS_MM))
        angles = np.radians(np.arange(6) * 60.0 - 90.0)
        corners = centre + CELL_RADIUS_MM * np.stack([np.cos(angles), np.sin(angles)], axis=1)
        cv2.fillPoly(board, [np.round(to_canvas(corners) * 16).astype(np.int32)],
                     (*look.field, 255.0), cv2.LINE_AA, shift=4)
        _paste(board, look.empty, centre, CELL_RADIUS_MM * 0.97, 0.0)
    return board


def _lay_tiles(pieces: np.ndarray, shade: np.ndarray, state: IndigoState, look: Look,
               hand: Hand, lamp: np.ndarray, rng: np.random.Generator) -> None:
    """Route tiles where the state has them and the seven treasure tiles, laid by hand."""
    laid = [(cell, look.tiles[tile.kind], 60.0 * tile.rotation)
            for cell, tile in state.tiles.items()]
    laid.append((CENTRE_CELL, look.centre, 60.0 * int(rng.integers(6))))
    laid += [(corner.cell, look.corner, 60.0 * k) for k, corner in enumerate(CORNERS)]
    for cell, picture, turn in laid:
        centre = np.array(cell_centre(cell, CELL_RADIUS_MM)) + \
            rng.uniform(-hand.tile_offset_mm, hand.tile_offset_mm, 2)
        turn += rng.uniform(-hand.tile_turn_deg, hand.tile_turn_deg)
        radius = CELL_RADIUS_MM * TILE_SIZE_SHARE
        _paste(pieces, picture, centre, radius, turn)
        # the tile's shadow on the board, away from the lamp
        behind = to_canvas(centre - lamp * 1.2)
        cv2.circle(shade, (int(behind[0]), int(behind[1])), int(radius * 0.93 *
                   CANVAS_PX_PER_MM), 0.7, -1, cv2.LINE_AA)


def _lay_chips(pieces: np.ndarray, shade: np.ndarray, truth: Truth, look: Look,
               lamp: np.ndarray, rng: np.random.Generator) -> None:
    for (gate, slot), colour in truth.chips.items():
        centre = chip_place_mm(gate, slot) + rng.uniform(-1.2, 1.2, 2)
        behind = to_canvas(centre - lamp * 1.5)
        cv2.circle(shade, (int(behind[0]), int(behind[1])),
                   int(CHIP_RADIUS_RADII * CELL_RADIUS_MM * CANVAS_PX_PER_MM), 0.65, -1,
                   cv2.LINE_AA)
        _paste(pieces, look.chips[CHIP_NAMES.index(colour)], centre,
               CHIP_RADIUS_RADII * CELL_RADIUS_MM, rng.uniform(0, 360))


def _centre_heap(count: int, radius_mm: float, rng: np.random.Generator) -> list[np.ndarray]:
    """Where ``count`` stones lie on the centre tile: anywhere on it, touching or a little
    over each other, as a hand leaves them."""
    spots: list[np.ndarray] = []
    closest = 1.75 * radius_mm
    while len(spots) < count:
        for _ in range(200):
            place = rng.uniform(-1, 1, 2) * 0.62 * CELL_RADIUS_MM
            if np.hypot(*place) < 0.62 * CELL_RADIUS_MM and \
                    all(np.hypot(*(place - s)) >= closest for s in spots):
                spots.append(place)
                break
        else:
            closest *= 0.9                    # a tight heap: let them lean on each other
    return spots


def _gem_spots(state: IndigoState, hand: Hand, radius_mm: float,
               rng: np.random.Generator) -> list[tuple[str, np.ndarray]]:
    snap = board_snapshot(state)
    on_edges = [(gem.value, point) for point, gem in snap.edge_gems.items()]
    on_edges += [(Gem.AMBER.value, (corner.cell, corner.arrow_edge)) for corner in CORNERS
                 if corner.cell in snap.corner_ambers]
    spots = []
    for gem, (cell, edge) in on_edges:
        middle = np.array(edge_midpoint(cell, edge, CELL_RADIUS_MM))
        normal = np.radians(edge_normal_degrees(edge))
        across = np.array([np.cos(normal), np.sin(normal)])
        along = np.array([-across[1], across[0]])
        spots.append((gem, middle + along * rng.uniform(-1, 1) * hand.gem_along_mm +
                      across * rng.uniform(-1, 1) * hand.gem_across_mm))
    heap = _centre_heap(len(snap.centre), radius_mm, rng)
    spots += [(gem.value, place) for gem, place in zip(snap.centre, heap, strict=True)]
    return spots


def _lay_gems(gems: np.ndarray, shade: np.ndarray, state: IndigoState, hand: Hand,
              lamp: np.ndarray, rng: np.random.Generator) -> None:
    radius_mm = CELL_RADIUS_MM * rng.uniform(*GEM_RADIUS_RADII)
    spots = _gem_spots(state, hand, radius_mm, rng)
    for gem, place in spots:
        centre = tuple(to_canvas(place))
        draw_shadow(shade, centre, radius_mm * CANVAS_PX_PER_MM, lamp, rng)
        draw_gem(gems, centre, radius_mm * CANVAS_PX_PER_MM, REAL_GEM_BGR[gem], lamp, rng)


def draw_layers(state: IndigoState, truth: Truth, look: Look, hand: Hand,
                rng: np.random.Generator, bare: bool = False) -> Layers:
    """The printed board, the pieces and the gems on their canvases, shadows included;
    ``bare``: the board with its treasure tiles only, before gems and chips go on."""
    side = canvas_side()
    heading = rng.uniform(0, 2 * np.pi)          # where the lamp stands, seen from above
    lamp = np.array([np.cos(heading), np.sin(heading)])
    board = _printed_board(look, rng)
    pieces = np.zeros((side, side, 4), np.float32)
    gems = np.zeros((side, side, 4), np.float32)
    board_shade = np.ones((side, side), np.float32)
    gem_shade = np.ones((side, side), np.float32)
    _lay_tiles(pieces, board_shade, state, look, hand, lamp, rng)
    if not bare:
        _lay_chips(pieces, board_shade, truth, look, lamp, rng)
        _lay_gems(gems, gem_shade, state, hand, lamp, rng)
    soft = 1.5 * CANVAS_PX_PER_MM
    board_shade = cv2.GaussianBlur(board_shade * gem_shade, (0, 0), soft)
    gem_shade = cv2.GaussianBlur(gem_shade, (0, 0), soft * 0.6)
    board[..., :3] *= board_shade[..., None]
    pieces[..., :3] *= gem_shade[..., None]
    return Layers(board=board, pieces=pieces, gems=gems)
