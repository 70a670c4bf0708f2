"""Random legal Enigma tables of our own, photographed, and the truth a read is judged by.

A table is played by the rules engine (``companion.enigma``, its public API as docs/enigma.md
gives it): players choose categories, the solvers place tiles we make up to fit the squares
they go on (records.md: openings at positions 0..2 of each side, one to three cells, branching
channels, lone cells), and put networkers where the networker rule lets them; closed systems
score and their networkers go home. The table lies between the four table markers (ids 0..3,
40 mm, centres on a 760 x 640 mm rectangle: the ``[vision.enigma]`` defaults; 0 at the
north-west corner, then clockwise, as measured on a ``companion render enigma`` picture),
the start tile near the middle, record north towards markers 0 and 1.

Nothing here imports the reader or the project's scene drawing (``vision``): the pack's colours
and sizes are read from its manifest file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from .camera import table_texture
from .enigma_faces import FACE_PX_PER_MM, Print, hex_bgr, start_face, tile_face
from .enigma_tiles import LayoutError, Sizes, TileGraph, lay_out, random_graph, record_tile
from .printed import REPO
from .tabletop_camera import CONDITIONS, TableCamera, develop, fill_polygon, warp_onto

PACK = REPO / "vision" / "packs" / "enigma-demo"
MARKER_FRAME_MM = (760.0, 640.0)
MARKER_MM = 40.0
MARKER_PAPER_MM = 6.0              # white paper around each printed marker
MARKER_PX_PER_MM = 8.0
MARKER_SLOP_MM, MARKER_SLOP_DEG = 2.0, 4.0   # how carefully the markers were laid
SQUARES_X, SQUARES_Y = 4, 3        # the table grows at most this far from the start tile
START_OFFSET_MM = 15.0
GAP_MM = (0.4, 1.4)                # between neighbouring tiles
PLACE_SLOP_MM, PLACE_SLOP_DEG = 0.8, 1.2     # how far off its square a hand lays a tile
TILE_THICK_MM = (1.8, 3.0)
PAWN_HEIGHT_MM = (9.0, 14.0)
PAWN_SLOP_MM = 1.0                 # how far off a cell's middle a pawn stands
NETWORKER_CHANCE = 0.6
ICON_CHANCE = 0.5                  # a box whose tiles show their category icon
SIDES = "NESW"
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


@cache
def pack_manifest() -> dict:
    return json.loads((PACK / "manifest.json").read_text(encoding="utf-8"))


@dataclass
class PlacedPiece:
    """One tile on our table as it lies: where, its graph, layout and category."""

    at: tuple[int, int]
    graph: TileGraph | None        # None: the start tile
    layout: object
    category: str


@dataclass
class Table:
    """A table snapshot: the engine's state and how each tile was drawn."""

    state: object
    pieces: list[PlacedPiece]
    player_colours: dict[str, str]   # player -> networker colour name (pack order)
    icons: bool


def _required(board, at: tuple[int, int]) -> dict[str, set[int]]:
    """Openings a square must have where a tile lies beside it: the mirror of its ports."""
    required = {}
    for side in SIDES:
        dx, dy = STEP[side]
        neighbour = board.tiles.get((at[0] + dx, at[1] + dy))
        if neighbour is not None:
            required[side] = {2 - p for p in neighbour.turned.ports_on(OPPOSITE[side])}
    return required


def _make_tile(board, at, sizes: Sizes, icons: bool, rng):
    from companion.enigma.tiles import parse_tile

    for _ in range(20):
        try:
            graph, layout = lay_out(random_graph(_required(board, at), rng), sizes, rng, icons)
        except LayoutError:
            continue
        return graph, layout, parse_tile(record_tile(graph, layout))
    raise LayoutError(f"no tile fits square {at}")


def _round(state, rng):
    from companion.enigma.game import RoundMove, apply

    categories = list(rng.permutation(["weight", "conduit", "fragment", "angular"]))
    choices = {p: str(categories[i]) for i, p in enumerate(state.players)}
    solved = [p for p in state.players if rng.random() < 0.8] or [state.players[0]]
    return apply(state, RoundMove.make(choices, solved)), choices


def _place_one(state, player, category, sizes, icons, rng, pieces):
    from companion.enigma.game import PlaceMove, place

    squares = [s for s in state.board.frontier()
               if abs(s[0]) <= SQUARES_X and abs(s[1]) <= SQUARES_Y]
    at = tuple(int(v) for v in squares[int(rng.integers(len(squares)))])
    graph, layout, lying = _make_tile(state.board, at, sizes, icons, rng)
    rotation = int(rng.integers(4))
    tile = lying.rotated(-rotation)
    choices = state.networker_choices(player, tile, at, rotation)
    networker = str(rng.choice(choices)) if choices and rng.random() < NETWORKER_CHANCE \
        else None
    state, _ = place(state, PlaceMove(player, tile, at, rotation, networker))
    pieces.append(PlacedPiece(at, graph, layout, category))
    return state


def random_table(seed: int, tiles: int) -> Table:
    """A legal table of ``tiles`` tiles (the start tile included) played from ``seed``."""
    from companion.enigma.game import new_game

    rng = np.random.default_rng([seed, 0xE16])
    names = ["Ana", "Ben", "Cai", "Dee"][: int(rng.integers(2, 5))]
    state = new_game(names)
    sizes = Sizes.of_manifest(pack_manifest())
    icons = bool(rng.random() < ICON_CHANCE)
    pieces = [PlacedPiece((0, 0), None, None, "start")]
    while len(pieces) < tiles:
        state, choices = _round(state, rng)
        while state.pending and len(pieces) < tiles:
            player = state.pending[0]
            state = _place_one(state, player, choices[player], sizes, icons, rng, pieces)
    colours = list(pack_manifest()["colours"]["networkers"])
    return Table(state, pieces, {p: colours[i] for i, p in enumerate(names)}, icons)


# --- the truth, in the terms the reader reports ---------------------------------------------

def tile_key(tile) -> tuple:
    """What a tile is for play, whatever its cells are called: each network's openings and
    cell colours (records.md ports; ``N`` is ``N1``)."""
    colours = tile.colours
    return tuple(sorted((tuple(sorted((p.side, p.position) for p in c.ports)),
                         tuple(sorted(colours[cell] for cell in c.cells)))
                        for c in tile.components()))


def truth_of(table: Table) -> tuple[dict, set]:
    """Tiles by square (their key) and networkers as (square, player colour, cell colour)."""
    board = table.state.board
    tiles = {pos: tile_key(placed.turned) for pos, placed in board.tiles.items()}
    networkers = {(n.at, table.player_colours[n.player], n.colour)
                  for n in board.occupied.values()}
    return tiles, networkers


# --- the scene -------------------------------------------------------------------------------

def _marker_paper(marker_id: int, rng) -> tuple[np.ndarray, np.ndarray]:
    side = int(round((MARKER_MM + 2 * MARKER_PAPER_MM) * MARKER_PX_PER_MM))
    inner = int(round(MARKER_MM * MARKER_PX_PER_MM))
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    code = cv2.aruco.generateImageMarker(dictionary, marker_id, inner, borderBits=1)
    paper = np.full((side, side, 3), rng.uniform(238, 250), np.float32)
    pad = (side - inner) // 2
    ink = np.where(code[..., None] > 127, paper[:inner, :inner], 22.0)
    paper[pad:pad + inner, pad:pad + inner] = ink
    return paper, np.ones((side, side), np.float32)


def _lay_markers(image: np.ndarray, camera: TableCamera, rng) -> None:
    w, h = MARKER_FRAME_MM
    table_plane = camera.plane_homography(0.0)
    for marker_id, (sx, sy) in enumerate(((-1, -1), (1, -1), (1, 1), (-1, 1))):
        paper, alpha = _marker_paper(marker_id, rng)
        centre = np.array([sx * w / 2, sy * h / 2]) + rng.uniform(-MARKER_SLOP_MM,
                                                                   MARKER_SLOP_MM, 2)
        to_table = _placement(centre, rng.uniform(-MARKER_SLOP_DEG, MARKER_SLOP_DEG),
                              paper.shape[0] / 2, 1 / MARKER_PX_PER_MM)
        warp_onto(image, paper, alpha, table_plane @ to_table)


def _placement(centre_mm, angle_deg: float, half_px: float, mm_per_px: float) -> np.ndarray:
    """Picture pixels (centred at ``half_px``) -> table mm, turned and moved to ``centre_mm``."""
    a = np.radians(angle_deg)
    c, s = np.cos(a) * mm_per_px, np.sin(a) * mm_per_px
    return np.array([[c, -s, centre_mm[0] - c * half_px + s * half_px],
                     [s, c, centre_mm[1] - s * half_px - c * half_px], [0, 0, 1]])


@dataclass
class Lying:
    """Where one tile ended up on the table (mm) and its face."""

    corners: np.ndarray            # 4 x 2, table mm, NW, NE, SE, SW
    to_table: np.ndarray           # face pixels -> table mm
    face: np.ndarray
    pawn: tuple[np.ndarray, str] | None = None   # the networker's spot (mm) and colour


def _lay_tiles(table: Table, sizes: Sizes, look: Print, rng) -> list[Lying]:
    board = table.state.board
    start = rng.uniform(-START_OFFSET_MM, START_OFFSET_MM, 2)
    pitch = sizes.tile + rng.uniform(*GAP_MM)
    half_px = sizes.tile * FACE_PX_PER_MM / 2
    lying = []
    for piece in table.pieces:
        centre = start + np.array(piece.at) * pitch + rng.uniform(-PLACE_SLOP_MM,
                                                                    PLACE_SLOP_MM, 2)
        angle = rng.uniform(-PLACE_SLOP_DEG, PLACE_SLOP_DEG)
        if piece.graph is None:
            face = start_face(sizes, look, rng)
        else:
            face = tile_face(piece.layout, piece.graph.cells, piece.category, sizes, look, rng)
        to_table = _placement(centre, angle, half_px, 1 / FACE_PX_PER_MM)
        n = face.shape[0]
        corners = cv2.perspectiveTransform(
            np.array([[[0, 0], [n, 0], [n, n], [0, n]]], float), to_table)[0]
        here = Lying(corners, to_table, face)
        for networker in board.occupied.values():
            if tuple(networker.at) == piece.at:
                spot = piece.layout.cells[networker.cell] * FACE_PX_PER_MM
                spot_mm = cv2.perspectiveTransform(spot[None, None, :].astype(float),
                                                   to_table)[0, 0]
                spot_mm += rng.uniform(-PAWN_SLOP_MM, PAWN_SLOP_MM, 2)
                here.pawn = (spot_mm, table.player_colours[networker.player])
        lying.append(here)
    return lying


def _with_height(points_mm: np.ndarray, height: float) -> np.ndarray:
    return np.column_stack([points_mm, np.full(len(points_mm), -height)])


def _draw_tiles(image, camera: TableCamera, lying: list[Lying], thick: float,
                lamp: np.ndarray, look: Print) -> None:
    shadow = np.zeros(image.shape[:2], np.float32)
    for tile in lying:
        fill_polygon(shadow, camera.project(_with_height(tile.corners + lamp * thick, 0)), 1.0)
    image *= (1 - 0.45 * cv2.GaussianBlur(shadow, (0, 0), 2.0))[..., None]
    for tile in lying:
        base = camera.project(_with_height(tile.corners, 0))
        top = camera.project(_with_height(tile.corners, thick))
        for i in range(4):
            j = (i + 1) % 4
            side = np.array([base[i], base[j], top[j], top[i]])
            fill_polygon(image, side, look.edge * (0.55 + 0.1 * i))
    plane = camera.plane_homography(thick)
    for tile in lying:
        n = tile.face.shape[0]
        warp_onto(image, tile.face, np.ones((n, n), np.float32), plane @ tile.to_table)


def _disc(centre: np.ndarray, radius: float, height: float) -> np.ndarray:
    turns = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    ring = centre + radius * np.column_stack([np.cos(turns), np.sin(turns)])
    return _with_height(ring, height)


def _draw_pawns(image, camera: TableCamera, lying: list[Lying], thick: float,
                lamp: np.ndarray, sizes: Sizes, rng) -> None:
    colours = pack_manifest()["colours"]["networkers"]
    shadow = np.zeros(image.shape[:2], np.float32)
    pawns = [(t.pawn, rng.uniform(*PAWN_HEIGHT_MM), sizes.pawn_radius * rng.uniform(0.95, 1.05))
             for t in lying if t.pawn is not None]
    for (spot, _), height, radius in pawns:
        for step in np.linspace(0, 1, 6):
            fill_polygon(shadow, camera.project(_disc(spot + lamp * height * step, radius,
                                                      thick)), 1.0)
    image *= (1 - 0.35 * cv2.GaussianBlur(shadow, (0, 0), 2.5))[..., None]
    for (spot, name), height, radius in pawns:
        paint = np.clip(hex_bgr(colours[name]) + rng.uniform(-6, 6, 3), 0, 255)
        for z in np.linspace(thick, thick + height, 8):
            fill_polygon(image, camera.project(_disc(spot, radius, z)), paint * 0.62 + 4)
        fill_polygon(image, camera.project(_disc(spot, radius, thick + height)), paint)
        shine = spot - lamp / max(np.linalg.norm(lamp), 1e-6) * radius * 0.35
        fill_polygon(image, camera.project(_disc(shine, radius * 0.35, thick + height)),
                     np.clip(paint * 0.75 + 70, 0, 255), opacity=0.5)


def photograph_table(table: Table, seed: int, condition: str) -> np.ndarray:
    """The frame a camera in ``condition`` (clean/harsh) takes of ``table``."""
    rng = np.random.default_rng([seed, 0xCA3, len(condition)])
    manifest = pack_manifest()
    sizes = Sizes.of_manifest(manifest)
    look = Print.of_manifest(manifest, np.random.default_rng([seed, 0x9A1]))
    w, h = MARKER_FRAME_MM
    reach = MARKER_MM / 2 + MARKER_PAPER_MM + 10
    camera = TableCamera(rng, CONDITIONS[condition], (-w / 2 - reach, -h / 2 - reach,
                                                       w / 2 + reach, h / 2 + reach))
    image = table_texture(rng, hex_bgr(manifest["colours"]["table"])
                          * rng.uniform(0.94, 1.06, 3))
    _lay_markers(image, camera, rng)
    layout_rng = np.random.default_rng([seed, 0x7AB])
    lying = _lay_tiles(table, sizes, look, layout_rng)
    thick = float(layout_rng.uniform(*TILE_THICK_MM))
    elevation = np.radians(rng.uniform(35, 70))
    turn = rng.uniform(0, 2 * np.pi)
    lamp = np.array([np.cos(turn), np.sin(turn)]) / np.tan(elevation)   # shadow per mm up
    _draw_tiles(image, camera, lying, thick, lamp, look)
    _draw_pawns(image, camera, lying, thick, lamp, sizes, layout_rng)
    return develop(image, rng, CONDITIONS[condition])


MODEST_TABLE = (10, 22)             # tiles, the start tile included
MOST_TILES = 45                    # a game to 15 points; the grid box holds 9 x 7 squares


def table_size(seed: int, tiles: tuple[int, int] = MODEST_TABLE) -> int:
    """How many tiles the table of ``seed`` has, within ``tiles`` (least, most)."""
    least, most = tiles
    if not 1 <= least <= most <= MOST_TILES:
        raise ValueError(f"tiles {tiles}: from 1 to {MOST_TILES}, least first")
    return int(np.random.default_rng([seed, 0x512E]).integers(least, most + 1))


def enigma_scene(seed: int, condition: str, tiles: tuple[int, int] = MODEST_TABLE,
                 ) -> tuple[np.ndarray, Table]:
    """The table of ``seed`` (``tiles`` gives the range of its size) photographed in
    ``condition``; the same seed gives the same table in every condition."""
    table = random_table(seed, table_size(seed, tiles))
    return photograph_table(table, seed, condition), table
