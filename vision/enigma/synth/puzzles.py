"""Drawing Enigma puzzle cards with their pieces laid on the mat, for tests and the demo.

Each card is drawn upright in millimetres (the card side is the pack's ``tile_mm``): a dark
orientation triangle in the top-left corner, then the kind's picture:

- **weight**: a beam, the cups (left half, right half), the value under each cup and the
  count in the lower-right corner; weights are grey discs in the cups;
- **fragment**: the silhouette in ``silhouette`` grey, ``fragment_unit_mm`` per unit, centred;
  pieces are near-black polygons;
- **angular**: the card's top-view picture as coloured squares; the structure is built
  beside the card (right half of the mat), drawn as its top view, ``cube_mm`` per column;
- **conduit**: a grid of cells with the printed stubs; pieces are squares with channels from
  the middle to each opening.

The card's regions come from :mod:`vision.enigma.puzzles.cards`, which the checkers read
with, so they are defined once. :func:`near_misses` gives wrong answers that look right.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.enigma import puzzle_angular as angular
from companion.enigma import puzzle_conduit as conduit
from companion.enigma import puzzle_fragment as fragment
from companion.enigma import puzzle_weight as weight
from companion.enigma.puzzles import PuzzleBox, load_puzzles
from vision.enigma.mat import BUILD_AT, CARD_AT, MARK, mat_layout
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.cards import (
    Cup,
    Point,
    conduit_grid,
    fragment_transform,
    parse_card,
    parse_solution,
    picture_cell_mm,
    weight_cups,
)
from vision.enigma.settings import DEFAULT_MAT, MatSettings
from vision.enigma.synth.cubes import draw_cubes, structure_side_px
from vision.markers import paste_marker
from vision.synth.effects import apply_effects
from vision.synth.pinhole import Pinhole, Viewpoint, draw_pinhole
from vision.warp import warp_affine

PUZZLE_EFFECTS = ("whitebalance", "light", "shadow", "perspective", "lens", "noise", "jpeg")


# ---------------------------------------------------------------------------- drawing helpers


def _poly(img: np.ndarray, pts_mm: Sequence[Point], s: float, colour: Any) -> None:
    pts = np.array([[round(x * s * 16), round(y * s * 16)] for x, y in pts_mm], np.int32)
    cv2.fillPoly(img, [pts], colour, cv2.LINE_AA, 4)


# the font each style prints its cards' numbers in (font, stroke width over the height): the
# ink style's serif font is not among the digit reader's templates, so the bench tells how
# the reader does with a font it has never seen
CARD_FONTS = {"demo": (cv2.FONT_HERSHEY_SIMPLEX, 0.09), "ink": (cv2.FONT_HERSHEY_COMPLEX, 0.07)}


def _text(img: np.ndarray, text: str, centre_mm: Point, height_mm: float, s: float,
          colour: Any, style: str = "demo") -> None:
    font, stroke = CARD_FONTS.get(style, CARD_FONTS["demo"])
    scale = height_mm * s / 22.0
    thick = max(1, int(round(stroke * height_mm * s)))
    (w, h), _ = cv2.getTextSize(text, font, scale, thick)
    org = (int(centre_mm[0] * s - w / 2), int(centre_mm[1] * s + h / 2))
    cv2.putText(img, text, org, font, scale, colour, thick, cv2.LINE_AA)


def _disc(img: np.ndarray, centre_mm: Point, r_mm: float, s: float, colour: Any,
          rim: Any | None = None) -> None:
    c = (round(centre_mm[0] * s * 16), round(centre_mm[1] * s * 16))
    if rim is not None:
        cv2.circle(img, c, round(r_mm * s * 16), rim, -1, cv2.LINE_AA, 4)
        cv2.circle(img, c, round(r_mm * 0.82 * s * 16), colour, -1, cv2.LINE_AA, 4)
    else:
        cv2.circle(img, c, round(r_mm * s * 16), colour, -1, cv2.LINE_AA, 4)


def _card_base(pack: EnigmaPack, side_mm: float, s: float, pad_mm: float) -> np.ndarray:
    """A transparent-padded canvas (BGRA) with the card drawn at ``pad_mm`` from the edge."""
    size = int(round((side_mm + 2 * pad_mm) * s))
    img = np.zeros((size, size, 4), np.uint8)
    x0 = pad_mm
    card = [(x0, x0), (x0 + side_mm, x0), (x0 + side_mm, x0 + side_mm), (x0, x0 + side_mm)]
    _poly(img, card, s, (*pack.colour("card"), 255))
    tri = [(x0, x0), (x0 + MARK * side_mm, x0), (x0, x0 + MARK * side_mm)]
    _poly(img, tri, s, (*pack.colour("ink"), 255))
    return img


def _shift(points: Sequence[Point], dx: float, dy: float) -> list[Point]:
    return [(x + dx, y + dy) for x, y in points]


# ---------------------------------------------------------------------------- the four kinds


def _lay_weights(cups: Sequence[Cup], per_cup: Sequence[int], wr: float, pad: float,
                 rng: random.Random, *, overlap: float, height_mm: float
                 ) -> list[tuple[Point, float]]:
    """Each weight's centre on the card (mm) and the height its base stands on: side by side
    in its cup, touching; with ``overlap``, the fullest cup's last weight on its first."""
    fullest = per_cup.index(max(per_cup))
    laid: list[tuple[Point, float]] = []
    for n, (cup, k) in enumerate(zip(cups, per_cup, strict=True)):
        offsets: list[Point] = []
        for j in range(k):
            if k == 1:
                off = (0.0, 0.0)
            else:
                # side by side, touching (a camera cannot count weights on weights)
                ring = wr / math.sin(math.pi / k) * 1.02
                a = 2 * math.pi * j / k + rng.uniform(-0.1, 0.1)
                off = (ring * math.cos(a), ring * math.sin(a))
            on = 0.0
            if overlap > 0 and n == fullest and k > 1 and j == k - 1:
                a = rng.uniform(0, 2 * math.pi)
                off = (offsets[0][0] + overlap * wr * math.cos(a),
                       offsets[0][1] + overlap * wr * math.sin(a))
                on = height_mm  # it lies on the first weight
            offsets.append(off)
            laid.append(((cup.centre[0] + pad + off[0], cup.centre[1] + pad + off[1]), on))
    return laid


def draw_weight(card: weight.WeightCard, counts: weight.WeightSolution | None,
                pack: EnigmaPack, s: float, *, pad_mm: float, rng: random.Random,
                outside: int = 0, overlap: float = 0.0, shine: float = 0.0,
                height_mm: float = 0.0, eye: Viewpoint | None = None) -> np.ndarray:
    """``overlap`` > 0: in the fullest cup the last weight lies partly on the first, its centre
    that many weight radii from the first's (a camera sees less metal than weights).
    ``shine`` > 0: each weight carries its own highlight (polished metal under a lamp), that
    much of the way to white. ``height_mm`` > 0: the weights stand that tall, as the camera
    at ``eye`` (mm in this drawing) sees them (:func:`_tall_weights`); 0 draws them flat."""
    if height_mm > 0 and eye is None:
        raise ValueError(f"weights {height_mm} mm tall need the camera that sees them (eye)")
    side = pack.tile_mm
    img = _card_base(pack, side, s, pad_mm)
    ink = (*pack.colour("ink"), 255)
    p = pad_mm
    beam_y = p + 0.3 * side
    _poly(img, [(p + 0.08 * side, beam_y - 0.6), (p + 0.92 * side, beam_y - 0.6),
                (p + 0.92 * side, beam_y + 0.6), (p + 0.08 * side, beam_y + 0.6)], s, ink)
    _poly(img, [(p + 0.5 * side, beam_y), (p + 0.46 * side, beam_y + 0.1 * side),
                (p + 0.54 * side, beam_y + 0.1 * side)], s, ink)
    cups = weight_cups(card, side)
    for cup in cups:
        cx, cy = cup.centre[0] + p, cup.centre[1] + p
        c = (round(cx * s * 16), round(cy * s * 16))
        cv2.circle(img, c, round(cup.radius * s * 16), ink, max(1, round(0.5 * s)), cv2.LINE_AA,
                   4)
        value = (card.left if cup.side == "left" else card.right)[cup.index]
        _text(img, str(value), (cx, p + 0.76 * side), 0.08 * side, s, ink, pack.style)
    _text(img, str(card.count), (p + 0.88 * side, p + 0.92 * side), 0.08 * side, s, ink,
          pack.style)
    if counts is not None:
        wr = pack.sizes["weight_mm"] / 2
        metal = (*pack.colour("weight"), 255)
        rim = (*(int(v * 0.6) for v in pack.colour("weight")), 255)
        per_cup = [(counts.left if cup.side == "left" else counts.right)[cup.index]
                   for cup in cups]
        laid = _lay_weights(cups, per_cup, wr, p, rng, overlap=overlap, height_mm=height_mm)
        for j in range(outside):  # weights left beside the card
            laid.append(((p + side + 0.6 * p, p + 0.2 * side + j * 2.4 * wr), 0.0))
        if height_mm > 0 and eye is not None:
            _tall_weights(img, laid, wr, pack, s, height_mm, eye, rng, shine=shine)
            return img
        for at, _on in laid:
            _disc(img, at, wr, s, metal, rim)
            _highlight(img, at, wr, s, pack.colour("weight"), shine)
    return img


#: where a lamp's highlight sits on a weight's face (share of its radius, up and left)
HIGHLIGHT_AT, HIGHLIGHT_R = 0.35, 0.3


def _tall_weights(img: np.ndarray, laid: Sequence[tuple[Point, float]], wr: float,
                  pack: EnigmaPack, s: float, height_mm: float, eye: Viewpoint,
                  rng: random.Random, *, shine: float) -> None:
    """Weights ``height_mm`` tall (short metal cylinders) as the camera at ``eye`` sees them:
    the lamp's soft shadow off each on the card, then each weight whole, its side (shaded
    metal: all the camera sees between its base and its top circle) under its top face, which
    shows enlarged and moved away from the nadir (:meth:`Viewpoint.raised`). The weights
    farther from the nadir come first, so that a nearer one's side hides them, and the ones
    standing on another after all that stand on the card. ``laid``: each weight's centre (mm)
    and the height its base stands on."""
    sun = rng.uniform(0, 2 * math.pi)  # the lamp stands anywhere, whatever the camera
    reach = height_mm * rng.uniform(0.4, 1.0)
    shadow: np.ndarray = np.zeros(img.shape[:2], np.float32)
    for (x, y), on in laid:
        c = (round((x + (on + reach) * math.cos(sun)) * s * 16),
             round((y + (on + reach) * math.sin(sun)) * s * 16))
        cv2.circle(shadow, c, round(wr * s * 16), 1.0, -1, cv2.LINE_AA, 4)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, 0.6 * reach * s))
    img[..., :3] = (img[..., :3] * (1 - 0.4 * shadow[..., None])).astype(np.uint8)
    shade = rng.uniform(0.35, 0.6)  # a side lit at a grazing angle, as dark as the rim or more
    side = (*(int(c * shade) for c in pack.colour("weight")), 255)
    metal = (*pack.colour("weight"), 255)
    rim = (*(int(v * 0.6) for v in pack.colour("weight")), 255)

    def far_first(weight_laid: tuple[Point, float]) -> tuple[float, float]:
        (x, y), on = weight_laid
        return on, -math.hypot(x - eye.nadir[0], y - eye.nadir[1])

    for at, on in sorted(laid, key=far_first):
        top = eye.raised(at, on + height_mm)
        top_r = wr * eye.scale(on + height_mm)
        _poly(img, _hull_of_circles((eye.raised(at, on), wr * eye.scale(on)), (top, top_r)), s,
              side)
        _disc(img, top, top_r, s, metal, rim)
        _highlight(img, top, top_r, s, pack.colour("weight"), shine)


def _hull_of_circles(*circles: tuple[Point, float]) -> list[Point]:
    """The outline (mm) of the smallest convex shape holding the circles (centre, radius):
    a cylinder seen from a camera, from its base circle to its top circle."""
    turns = np.linspace(0, 2 * math.pi, 64, endpoint=False)
    rims = np.concatenate([np.column_stack([c[0] + r * np.cos(turns), c[1] + r * np.sin(turns)])
                           for c, r in circles]).astype(np.float32)
    hull = cv2.convexHull(rims).reshape(-1, 2)
    return [(float(x), float(y)) for x, y in hull]


def _highlight(img: np.ndarray, centre_mm: Point, r_mm: float, s: float, metal: Any,
               shine: float) -> None:
    if shine <= 0:
        return
    bright = tuple(int(v + (255 - v) * shine) for v in metal)
    at = (centre_mm[0] - HIGHLIGHT_AT * r_mm, centre_mm[1] - HIGHLIGHT_AT * r_mm)
    _disc(img, at, HIGHLIGHT_R * r_mm, s, (*bright, 255))


def draw_fragment(card: fragment.FragmentCard, pieces: Sequence[fragment.FragmentPiece],
                  placements: Sequence[fragment.FragmentPlacement], pack: EnigmaPack,
                  s: float, *, pad_mm: float, rng: random.Random, height_mm: float = 0.0,
                  eye: Viewpoint | None = None) -> np.ndarray:
    """The fragment card with its silhouette and the pieces placed on it; ``height_mm``: the
    pieces' thickness, as the camera at ``eye`` (mm in this drawing) sees them
    (:func:`_thick_pieces`); 0 draws them flat."""
    if height_mm > 0 and eye is None:
        raise ValueError(f"pieces {height_mm} mm thick need the camera that sees them (eye)")
    side = pack.tile_mm
    img = _card_base(pack, side, s, pad_mm)
    unit, dx, dy = fragment_transform(card, side, float(pack.sizes["fragment_unit_mm"]))
    for part in card.silhouette:
        _poly(img, [(pad_mm + dx + x * unit, pad_mm + dy + y * unit) for x, y in part], s,
              (*pack.colour("silhouette"), 255))
    black = (*pack.colour("fragment"), 255)
    placed = []
    for poly in fragment.placed_polygons(pieces, placements):
        jx, jy = rng.uniform(-0.12, 0.12), rng.uniform(-0.12, 0.12)
        placed.append([(pad_mm + dx + x * unit + jx, pad_mm + dy + y * unit + jy)
                       for x, y in poly])
    tops = placed
    if height_mm > 0 and eye is not None:
        tops = _thick_pieces(img, placed, pack, s, height_mm, eye, rng)
    for poly_mm in tops:
        _poly(img, poly_mm, s, black)
    return img


def _thick_pieces(img: np.ndarray, placed: Sequence[Sequence[Point]], pack: EnigmaPack,
                  s: float, height_mm: float, eye: Viewpoint, rng: random.Random
                  ) -> list[list[Point]]:
    """Pieces ``height_mm`` thick as the camera at ``eye`` sees them: the lamp's soft shadow
    off each on the card, then each piece's sides (shaded, darker than the top): every edge
    swept from the table up to where its top edge shows. Returns the top faces as seen
    (mm): each corner moved away from the nadir (:meth:`Viewpoint.raised`); all tops stand
    at the same height, so no piece's side hides another's top."""
    sun = rng.uniform(0, 2 * math.pi)  # the lamp stands anywhere, whatever the camera
    reach = height_mm * rng.uniform(0.4, 1.0)
    shadow: np.ndarray = np.zeros(img.shape[:2], np.float32)
    for poly_mm in placed:
        pts = np.round(np.array(_shift(poly_mm, reach * math.cos(sun), reach * math.sin(sun)))
                       * s * 16).astype(np.int32)
        cv2.fillPoly(shadow, [pts], 1.0, cv2.LINE_AA, 4)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, 0.6 * reach * s))
    img[..., :3] = (img[..., :3] * (1 - 0.45 * shadow[..., None])).astype(np.uint8)
    side = (*(int(c * 0.55) for c in pack.colour("fragment")), 255)
    tops = [[eye.raised(p, height_mm) for p in poly_mm] for poly_mm in placed]
    for base, top in zip(placed, tops, strict=True):
        for k in range(len(base)):  # each side face: an edge at the table and at the top
            j = (k + 1) % len(base)
            _poly(img, [base[k], base[j], top[j], top[k]], s, side)
    return tops


def draw_picture(img: np.ndarray, top: Sequence[str], pack: EnigmaPack, s: float,
                 centre_mm: Point, cell_mm: float, *, heights: Mapping[tuple[int, int], int]
                 | None = None, outline: Any = None) -> None:
    """A top view: one square per filled column, in its piece's colour."""
    rows, cols = len(top), max(len(r) for r in top)
    x0 = centre_mm[0] - cols * cell_mm / 2
    y0 = centre_mm[1] - rows * cell_mm / 2
    for y, row in enumerate(top):
        for x, ch in enumerate(row):
            if ch == angular.EMPTY:
                continue
            colour = pack.angular[ch]
            if heights is not None:
                k = 0.88 + 0.08 * heights.get((x, y), 0)
                b, g, r = colour
                colour = (min(255, int(b * k)), min(255, int(g * k)), min(255, int(r * k)))
            sq = [(x0 + x * cell_mm, y0 + y * cell_mm), (x0 + (x + 1) * cell_mm, y0 + y * cell_mm),
                  (x0 + (x + 1) * cell_mm, y0 + (y + 1) * cell_mm),
                  (x0 + x * cell_mm, y0 + (y + 1) * cell_mm)]
            _poly(img, sq, s, (*colour, 255))
            if outline is not None:
                pts = np.array([[round(a * s * 16), round(b * s * 16)] for a, b in sq], np.int32)
                cv2.polylines(img, [pts], True, outline, 1, cv2.LINE_AA, 4)


def draw_angular_card(card: angular.AngularCard, pack: EnigmaPack, s: float, *,
                      pad_mm: float) -> np.ndarray:
    side = pack.tile_mm
    img = _card_base(pack, side, s, pad_mm)
    top = angular.crop(card.top)
    draw_picture(img, top, pack, s, (pad_mm + side / 2, pad_mm + side / 2),
                 picture_cell_mm(top, side), outline=(*pack.colour("ink"), 255))
    return img


def draw_structure(cubes: Mapping[str, Sequence[angular.Cube]], pack: EnigmaPack, s: float
                   ) -> np.ndarray:
    """The built structure seen from above (BGRA, transparent around it)."""
    top = angular.top_view(cubes)
    cube = float(pack.sizes["cube_mm"])
    xs = [x for piece in cubes.values() for x, _, _ in piece]
    ys = [y for piece in cubes.values() for _, y, _ in piece]
    heights: dict[tuple[int, int], int] = {}
    for piece in cubes.values():
        for x, y, z in piece:
            key = (x - min(xs), y - min(ys))
            heights[key] = max(heights.get(key, 0), z)
    rows, cols = len(top), max(len(r) for r in top) if top else 0
    size = int(round((max(rows, cols) + 2) * cube * s))
    img = np.zeros((size, size, 4), np.uint8)
    draw_picture(img, top, pack, s, (size / s / 2, size / s / 2), cube, heights=heights,
                 outline=(40, 40, 40, 255))
    return img


def draw_conduit(card: conduit.ConduitCard, pieces: Sequence[conduit.ConduitPiece],
                 solution: conduit.ConduitSolution, pack: EnigmaPack, s: float, *,
                 pad_mm: float, rng: random.Random) -> np.ndarray:
    side = pack.tile_mm
    img = _card_base(pack, side, s, pad_mm)
    cell, gx, gy = conduit_grid(card, side)
    ink = (*pack.colour("ink"), 255)
    chan = (*pack.colour("channel"), 255)
    w = 0.22 * cell
    for cx, cy in card.cells:
        x, y = pad_mm + gx + cx * cell, pad_mm + gy + cy * cell
        pts = np.array([[x, y], [x + cell, y], [x + cell, y + cell], [x, y + cell]]) * s * 16
        cv2.polylines(img, [np.round(pts).astype(np.int32)], True, ink, 1, cv2.LINE_AA, 4)
    # frozensets iterate in an order that follows PYTHONHASHSEED, and where anti-aliased
    # edges overlap the drawing order shows in the pixels: draw in a fixed order
    for (cx, cy), sd in sorted(card.stubs):
        x, y = pad_mm + gx + (cx + 0.5) * cell, pad_mm + gy + (cy + 0.5) * cell
        ux, uy = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}[sd]
        a = (x + ux * 0.5 * cell, y + uy * 0.5 * cell)
        b = (x + ux * 0.68 * cell, y + uy * 0.68 * cell)
        hx, hy = -uy * w / 2, ux * w / 2
        _poly(img, [(a[0] + hx, a[1] + hy), (b[0] + hx, b[1] + hy), (b[0] - hx, b[1] - hy),
                    (a[0] - hx, a[1] - hy)], s, chan)
    by_id = {p.id: p for p in pieces}
    base = (*pack.colour("piece"), 255)
    for piece_id, (at, rotation) in solution.items():
        openings = by_id[piece_id].turned(rotation)
        jx, jy = rng.uniform(-0.25, 0.25), rng.uniform(-0.25, 0.25)
        x = pad_mm + gx + (at[0] + 0.5) * cell + jx
        y = pad_mm + gy + (at[1] + 0.5) * cell + jy
        h = 0.47 * cell
        _poly(img, [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)], s, base)
        for sd in sorted(openings):
            ux, uy = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}[sd]
            hx, hy = -uy * w / 2, ux * w / 2
            b = (x + ux * h, y + uy * h)
            _poly(img, [(x + hx, y + hy), (b[0] + hx, b[1] + hy), (b[0] - hx, b[1] - hy),
                        (x - hx, y - hy)], s, chan)
        _disc(img, (x, y), w * 0.75, s, chan)
    return img


# ---------------------------------------------------------------------------- scene


def _paste_matrix(shape: tuple[int, ...], centre_px: Point, angle_deg: float) -> np.ndarray:
    """Layer pixels to canvas pixels: a layer of ``shape`` turned by ``angle_deg`` about its
    middle, which goes to ``centre_px``."""
    h, w = shape[:2]
    m: np.ndarray = cv2.getRotationMatrix2D((w / 2, h / 2), -angle_deg, 1.0)
    m[0, 2] += centre_px[0] - w / 2
    m[1, 2] += centre_px[1] - h / 2
    return m


def _paste(canvas: np.ndarray, layer: np.ndarray, centre_px: Point, angle_deg: float) -> None:
    m = _paste_matrix(layer.shape, centre_px, angle_deg)
    size = (canvas.shape[1], canvas.shape[0])
    warped = warp_affine(layer, m, size)
    a = warped[:, :, 3:4].astype(np.float32) / 255
    canvas[:] = (warped[:, :, :3] * a + canvas * (1 - a)).astype(np.uint8)


def default_solution(kind: str, card: Any, box: PuzzleBox) -> Any:
    """A correct solution: the one stored with the card, else the engine solver's first."""
    section = getattr(box, kind)
    stored = section.solutions.get(card.id)
    if kind == "weight":
        return (stored[0] if stored else weight.solve(card)[0])
    if stored:
        return stored
    if kind == "conduit":
        return conduit.solve(card, box.conduit.pieces, limit=1)[0]
    if kind == "angular":
        return angular.solve(card, box.angular.pieces, limit=1)[0]
    raise ValueError(f"fragment card {card.id} has no stored solution")


@dataclass(frozen=True)
class PuzzleScene:
    image: np.ndarray
    kind: str
    card: Any
    solution: Any


def render_puzzle_scene(kind: str, card: Any, pack: EnigmaPack, *, solution: Any = None,
                        box: PuzzleBox | None = None, seed: int = 0,
                        mat: MatSettings = DEFAULT_MAT,
                        px_per_mm: float = 6.0, outside_weights: int = 0,
                        overlap: float = 0.0,
                        apart: Mapping[str, Sequence[angular.Cube]] | None = None,
                        surface: Callable[[tuple[int, int]], np.ndarray] | None = None,
                        shine: float = 0.0, fragment_height_mm: float = 0.0,
                        weight_height_mm: float = 0.0, cube_height_mm: float = 0.0,
                        camera: Pinhole | None = None) -> np.ndarray:
    """The mat seen straight down with the card and its pieces (BGR, before camera effects).

    ``apart``: angular pieces left on the table away from the structure. ``surface``: the
    table under the mat, (height, width) -> BGR image (default: the pack's flat table colour).
    ``shine``: the weights' own highlights (:func:`draw_weight`). ``fragment_height_mm``: the
    fragment pieces' thickness (:func:`draw_fragment`), ``weight_height_mm`` the weights' height
    (:func:`draw_weight`), ``cube_height_mm`` the angular cubes' height
    (:func:`~vision.enigma.synth.cubes.draw_cubes`); 0 draws them flat (the cubes as their top
    view). ``camera``: the pinhole the scene is seen through (:func:`table_camera`), which
    pieces standing up need: each is drawn as that camera shows it."""
    rng = random.Random(seed)
    box = box or load_puzzles()
    layout = mat_layout(mat)
    xs = [c[0] for c in layout.centres_mm]
    ys = [c[1] for c in layout.centres_mm]
    margin = layout.size_mm * 1.3
    x0, y0 = min(xs) - margin, min(ys) - margin
    s = px_per_mm
    width = int(round((max(xs) - min(xs) + 2 * margin) * s))
    height = int(round((max(ys) - min(ys) + 2 * margin) * s))
    canvas = np.empty((height, width, 3), np.uint8)
    if surface is None:
        canvas[:] = pack.colour("table")
    else:
        canvas[:] = surface((height, width))
    pad = 0.35 * pack.tile_mm
    place: tuple[Point, float] | None = None
    eye: Viewpoint | None = None
    if {"weight": weight_height_mm, "fragment": fragment_height_mm}.get(kind, 0.0) > 0:
        # the card's place first: its pieces stand in the camera's view, so the camera is
        # taken into the card's own drawing (a turn and a shift on the table move no ray)
        place = _card_place(rng, (x0, y0), s)
        eye = _eye_over_layer(camera, (width, height), place, (pack.tile_mm + 2 * pad) * s, s)
    if kind == "weight":
        layer = draw_weight(card, solution, pack, s, pad_mm=pad, rng=rng,
                            outside=outside_weights, overlap=overlap, shine=shine,
                            height_mm=weight_height_mm, eye=eye)
    elif kind == "fragment":
        layer = draw_fragment(card, box.fragment.pieces, solution, pack, s, pad_mm=pad, rng=rng,
                              height_mm=fragment_height_mm, eye=eye)
    elif kind == "angular":
        layer = draw_angular_card(card, pack, s, pad_mm=pad)
    else:
        layer = draw_conduit(card, box.conduit.pieces, solution, pack, s, pad_mm=pad, rng=rng)
    centre_px, angle = place or _card_place(rng, (x0, y0), s)
    _paste(canvas, layer, centre_px, angle)
    if kind == "angular" and solution:
        _build_structure(canvas, solution, apart or {}, pack, s, rng,
                         origin_mm=(x0, y0), apart_y_mm=max(ys) - 25,
                         height_mm=cube_height_mm, camera=camera)
    side = int(round(layout.size_mm * s))
    for marker_id, (mx, my) in zip(layout.ids, layout.centres_mm, strict=True):
        paste_marker(canvas, marker_id, ((mx - x0) * s, (my - y0) * s), side,
                     dictionary_name=layout.dictionary)
    return canvas


def _build_structure(canvas: np.ndarray, solution: Mapping[str, Sequence[angular.Cube]],
                     apart: Mapping[str, Sequence[angular.Cube]], pack: EnigmaPack, s: float,
                     rng: random.Random, *, origin_mm: Point, apart_y_mm: float,
                     height_mm: float, camera: Pinhole | None) -> None:
    """The angular structure built beside the card and the pieces left ``apart`` in a row at
    ``apart_y_mm``: each layer's place is drawn before the layer, so that cubes standing up
    are drawn for the camera over that place (the flat top view draws nothing at random)."""
    x0, y0 = origin_mm
    bx = (BUILD_AT[0] + rng.uniform(-6, 6) - x0) * s
    by = (BUILD_AT[1] + rng.uniform(-6, 6) - y0) * s
    place = ((bx, by), 90 * rng.randrange(4) + rng.uniform(-6, 6))
    scene_size = (canvas.shape[1], canvas.shape[0])
    layers = [(solution, place)]
    for n, piece in enumerate(apart.items()):
        layers.append(({piece[0]: piece[1]},
                       (((BUILD_AT[0] - 20 + 40 * n - x0) * s, (apart_y_mm - y0) * s), 0.0)))
    for cubes, at in layers:
        if height_mm <= 0:
            layer = draw_structure(cubes, pack, s)
        else:
            eye = _eye_over_layer(camera, scene_size, at, structure_side_px(cubes, pack, s), s)
            layer = draw_cubes(cubes, pack, s, height_mm=height_mm, eye=eye, rng=rng)
        _paste(canvas, layer, *at)


def _card_place(rng: random.Random, origin_mm: Point, s: float) -> tuple[Point, float]:
    """Where the card lies on the mat (its middle, canvas pixels) and its turn (degrees)."""
    cx = (CARD_AT[0] + rng.uniform(-8, 8) - origin_mm[0]) * s
    cy = (CARD_AT[1] + rng.uniform(-8, 8) - origin_mm[1]) * s
    return (cx, cy), rng.uniform(-8, 8)


def _eye_over_layer(camera: Pinhole | None, scene_size: tuple[int, int],
                    place: tuple[Point, float], layer_px: float, s: float) -> Viewpoint:
    """The camera's centre over a layer's own drawing (mm): its nadir in the scene taken
    back through the layer's place (a square ``layer_px`` wide, as :func:`_card_base` and
    :func:`~vision.enigma.synth.cubes.draw_cubes` draw them)."""
    if camera is None:
        raise ValueError("pieces standing up need the camera that sees them (camera=...)")
    eye = camera.view(scene_size).eye
    side = int(round(layer_px))
    back = cv2.invertAffineTransform(_paste_matrix((side, side), *place))
    nx, ny = back @ np.array([eye.nadir[0], eye.nadir[1], 1.0])
    return Viewpoint((float(nx) / s, float(ny) / s), eye.height / s)


#: the options of :func:`render_puzzle_scene` that stand pieces up (their height, mm)
STANDING = ("weight_height_mm", "fragment_height_mm", "cube_height_mm")


def table_camera(extra: Mapping[str, Any], entropy: Sequence[int], frame_size: tuple[int, int],
                 *, max_tilt_deg: float) -> Pinhole | None:
    """The pinhole (seeded by ``entropy``) a scene is drawn for when its pieces stand up
    (``extra``: :func:`render_puzzle_scene`'s options: weights, fragment pieces or cubes with
    a height); None for a flat scene, which keeps the camera
    :func:`~vision.synth.effects.apply_effects` draws from the frame's own stream, so that
    its frames, and every figure measured on them, stay the same to the bit."""
    if all(float(extra.get(name, 0.0)) <= 0 for name in STANDING):
        return None
    return draw_pinhole(np.random.default_rng(list(entropy)), frame_size,
                        max_tilt_deg=max_tilt_deg)


def _is_json(value: Any) -> bool:
    if isinstance(value, list):
        return all(isinstance(v, Mapping) for v in value)
    if isinstance(value, Mapping):
        return all(isinstance(v, list | Mapping) for v in value.values())
    return False


def render_puzzle_frame(kind: str, card_data: Any, pack: EnigmaPack, *, solution: Any = None,
                        seed: int = 0, mat: MatSettings = DEFAULT_MAT,
                        frame_size: tuple[int, int] = (1920, 1080),
                        effects: Sequence[str] = PUZZLE_EFFECTS, **extra: Any) -> np.ndarray:
    """A camera frame of the mat (seeded effects). ``card_data`` and ``solution`` may be JSON
    or engine objects; without a solution the card's own (or the solver's) is laid."""
    box = load_puzzles()
    card = parse_card(kind, card_data) if isinstance(card_data, Mapping) else card_data
    if solution is None:
        solution = default_solution(kind, card, box)
    elif _is_json(solution):
        solution = parse_solution(kind, solution)
    camera = table_camera(extra, (seed, 31), frame_size, max_tilt_deg=15.0)
    scene = render_puzzle_scene(kind, card, pack, solution=solution, box=box, seed=seed,
                                mat=mat, camera=camera, **extra)
    result = apply_effects(scene, np.random.default_rng(seed + 31), list(effects),
                           frame_size=frame_size, max_tilt_deg=15.0, camera=camera)
    return result.image


# ---------------------------------------------------------------------------- near misses


def is_right(kind: str, card: Any, solution: Any, box: PuzzleBox, *,
             outside_weights: int = 0, apart: Mapping[str, Any] | None = None,
             overlap: float = 0.0) -> bool:
    """The engine's own verdict on what a scene shows (pieces left apart are not used)."""
    if kind == "weight":
        return outside_weights == 0 and weight.check(
            card, solution, allow_empty_cups=box.weight.allow_empty_cups)
    if kind == "fragment":
        return fragment.check(card, box.fragment.pieces, solution,
                              tolerance=box.fragment.tolerance)
    if kind == "angular":
        return not apart and angular.check(card, box.angular.pieces, solution,
                                           allow_mirror=box.angular.allow_mirror)
    return conduit.check(card, box.conduit.pieces, solution)


def near_misses(kind: str, card: Any, solution: Any, box: PuzzleBox, rng: random.Random
                ) -> list[tuple[str, Any, dict[str, Any]]]:
    """Wrong answers that look nearly right: (what is wrong, solution, render extras).
    Every one is wrong by the engine's own check (a turned square is no near miss)."""
    return [(what, s, extra) for what, s, extra in _near_misses(kind, card, solution, box, rng)
            if not is_right(kind, card, s, box, **extra)]


NearMiss = tuple[str, Any, dict[str, Any]]


def _weight_misses(solution: weight.WeightSolution, rng: random.Random) -> list[NearMiss]:
    """A weight in the wrong pan, one left beside the card, one too many lying partly on
    another (a camera that counts discs sees the right number)."""
    out: list[NearMiss] = []
    left, right = list(solution.left), list(solution.right)
    moved = False
    for side_a, side_b in ((left, right), (right, left)):
        for i in range(len(side_a)):
            if side_a[i] > 0 and not moved:
                side_a[i] -= 1
                side_b[0] += 1
                moved = True
    out.append(("a weight in the wrong pan", weight.WeightSolution(tuple(left), tuple(right)),
                {}))
    l2, r2 = list(solution.left), list(solution.right)
    k = next(i for i, v in enumerate(l2) if v > 0) if any(l2) else None
    if k is not None:
        l2[k] -= 1
        out.append(("a weight left beside the card",
                    weight.WeightSolution(tuple(l2), tuple(r2)), {"outside_weights": 1}))
    l3, r3 = list(solution.left), list(solution.right)
    fullest = max(l3 + r3)
    side_list = l3 if fullest in l3 else r3
    side_list[side_list.index(fullest)] += 1
    out.append(("a weight too many, partly on another",
                weight.WeightSolution(tuple(l3), tuple(r3)),
                {"overlap": rng.uniform(0.8, 1.4)}))
    return out


def _fragment_misses(solution: Any, box: PuzzleBox, rng: random.Random) -> list[NearMiss]:
    """One piece pushed off its place, missing, or turned over the same spot."""
    out: list[NearMiss] = []
    pl = list(solution)
    i = rng.randrange(len(pl))
    p = pl[i]
    shifted = fragment.FragmentPlacement(p.piece, p.rotation, p.mirror,
                                         (p.at[0] + 0.6, p.at[1] + 0.3))
    out.append(("a piece pushed off its place", [*pl[:i], shifted, *pl[i + 1:]], {}))
    out.append(("a piece missing", [*pl[:i], *pl[i + 1:]], {}))
    poly = next(x for x in box.fragment.pieces if x.id == p.piece).polygon
    cx = sum(x for x, _ in poly) / len(poly)
    cy = sum(y for _, y in poly) / len(poly)
    # keep the turned piece over the same spot (turn about its own centre)
    a = math.radians(p.rotation + 90)
    b = math.radians(p.rotation)
    rx = cx * math.cos(b) - cy * math.sin(b) - (cx * math.cos(a) - cy * math.sin(a))
    ry = cx * math.sin(b) + cy * math.cos(b) - (cx * math.sin(a) + cy * math.cos(a))
    turned = fragment.FragmentPlacement(p.piece, p.rotation + 90, p.mirror,
                                        (p.at[0] + rx, p.at[1] + ry))
    out.append(("a piece turned", [*pl[:i], turned, *pl[i + 1:]], {}))
    return out


def _angular_misses(card: Any, solution: Any, rng: random.Random) -> list[NearMiss]:
    """A piece left apart, and the mirror image when the card's picture tells it apart."""
    out: list[NearMiss] = []
    ids = sorted(solution)
    gone = ids[rng.randrange(len(ids))]
    rest = {k: v for k, v in solution.items() if k != gone}
    out.append(("a piece left apart", rest, {"apart": {gone: solution[gone]}}))
    mirrored = {k: tuple((-x, y, z) for x, y, z in v) for k, v in solution.items()}
    if not angular.picture_matches(angular.top_view(mirrored), card.top):
        out.append(("the mirror image", mirrored, {}))
    return out


def _conduit_misses(solution: Any, box: PuzzleBox, rng: random.Random) -> list[NearMiss]:
    """The first piece whose turn shows, turned; and a piece missing."""
    out: list[NearMiss] = []
    pieces = {p.id: p for p in box.conduit.pieces}
    for pid, (at, r) in sorted(solution.items()):
        if pieces[pid].turned(r + 1) != pieces[pid].turned(r):
            changed = dict(solution)
            changed[pid] = (at, r + 1)
            out.append((f"piece {pid} turned", changed, {}))
            break
    pid = sorted(solution)[rng.randrange(len(solution))]
    out.append((f"piece {pid} missing", {k: v for k, v in solution.items() if k != pid}, {}))
    return out


def _near_misses(kind: str, card: Any, solution: Any, box: PuzzleBox, rng: random.Random
                 ) -> list[NearMiss]:
    if kind == "weight":
        return _weight_misses(solution, rng)
    if kind == "fragment":
        return _fragment_misses(solution, box, rng)
    if kind == "angular":
        return _angular_misses(card, solution, rng)
    return _conduit_misses(solution, box, rng)


__all__ = ["PUZZLE_EFFECTS", "PuzzleScene", "default_solution", "draw_structure", "is_right",
           "near_misses", "render_puzzle_frame", "render_puzzle_scene", "table_camera"]
