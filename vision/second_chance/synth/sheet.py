"""Render a Second Chance sheet as a player would have drawn it, then as a camera sees it.

``companion render sheet RECORD.json --player NAME`` replays the record, takes that player's
tiles (start, draws, second chances) and the bonus 1, and draws them by hand on the printed
sheet (with markers) or on a plain pad: wobbly outlines traced along the grid lines, each tile
filled by hatching, cross-hatching, scribble, solid shading or a cross per cell, with pencil
grain and pressure, faint erased traces in some empty cells, the handwritten 1, the name. The
paper may be bent or creased. The camera effects of :mod:`vision.synth.effects` follow, seeded.

The ground truth (``--truth FILE``) is the grid in the ``companion sheet fits`` notation, the
tiles with their canonical shapes, and the bonus cell.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.record import Record
from companion.replay import replay
from companion.second_chance.grid import Grid
from companion.second_chance.shapes import Cell, Shape
from vision.second_chance.layout import GRID_CELLS, SheetLayout
from vision.second_chance.printing import sheet_image
from vision.synth.effects import (
    BAND_ROWS,
    DEFAULT_EFFECTS,
    apply_effects,
    normal_field,
    with_grain,
)

STYLES = ("pencil", "pen", "colour")
FILLS = ("hatch", "crosshatch", "scribble", "solid", "cross")

GRAPHITE = (52, 50, 48)
PEN_COLOURS = ((140, 60, 25), (40, 30, 30), (120, 40, 60))  # blue, black, violet ballpoint
PENCIL_COLOURS = (  # coloured pencils, BGR
    (40, 40, 200),
    (30, 130, 235),
    (30, 200, 230),
    (60, 160, 40),
    (190, 110, 30),
    (150, 60, 120),
    (150, 110, 230),
    (40, 80, 130),
    (170, 160, 40),
)


@dataclass(frozen=True)
class SheetContent:
    """What is on one player's sheet: tiles in drawing order and the bonus 1."""

    tiles: tuple[tuple[Cell, ...], ...]
    bonus: Cell | None = None
    name: str = ""

    @property
    def grid(self) -> Grid:
        return Grid.from_cells([c for t in self.tiles for c in t], bonus=self.bonus)

    def truth(self) -> dict[str, Any]:
        """The ground truth in the shape of ``companion read sheet``'s output."""
        grid = self.grid
        return {
            "grid": grid.rows(),
            "shapes": [
                {
                    "cells": [list(c) for c in sorted(t)],
                    "shape": Shape.from_cells(t).canonical().text,
                }
                for t in sorted(self.tiles, key=lambda t: sorted(t))
            ],
            "empty": grid.empty_count,
            "bonus": list(self.bonus) if self.bonus is not None else None,
        }


def content_from_record(record: Record, player: str) -> SheetContent:
    """The player's tiles and bonus at the end of a Second Chance record (replayed first)."""
    if record.game != "second-chance":
        raise ValueError(f"the record is a {record.game} game, not second-chance")
    if player not in record.players:
        raise ValueError(
            f"no player {player!r} in the record; players: {', '.join(record.players)}"
        )
    outcome = replay(record)
    if outcome.exit_code != 0:
        raise ValueError(f"the record does not replay: {outcome.error}")
    tiles: list[tuple[Cell, ...]] = []
    bonus: Cell | None = None
    for event in record.events:
        if event.get("player") != player:
            continue
        kind = event.get("type")
        if kind in ("start", "draw", "second-chance") and event.get("cells"):
            tiles.append(tuple((int(r), int(c)) for r, c in event["cells"]))
        elif kind == "bonus":
            bonus = (int(event["cell"][0]), int(event["cell"][1]))
    return SheetContent(tuple(tiles), bonus, player)


# ---------------------------------------------------------------- strokes


@dataclass
class _Ink:
    """Per-colour coverage layers (0..1) that are composited onto the paper at the end."""

    shape: tuple[int, int]
    layers: dict[tuple[int, int, int], np.ndarray] = field(default_factory=dict)

    def layer(self, colour: tuple[int, int, int]) -> np.ndarray:
        if colour not in self.layers:
            self.layers[colour] = np.zeros(self.shape, np.float32)
        return self.layers[colour]


def _wobbly(
    p: np.ndarray, q: np.ndarray, rng: np.random.Generator, amp: float, overshoot: float
) -> np.ndarray:
    """Points of a hand-drawn line from p to q: a smooth sideways wobble, ends over/undershot."""
    d = q - p
    length = float(np.hypot(*d)) or 1.0
    unit = d / length
    normal = np.array([-unit[1], unit[0]])
    start = -overshoot * rng.uniform(-0.5, 1.0)
    end = length + overshoot * rng.uniform(-0.5, 1.0)
    n = max(4, int(length / 3))
    t = np.linspace(start, end, n)
    phase = rng.uniform(0, 2 * math.pi, 2)
    waves = rng.uniform(0.5, 2.0, 2)
    off = amp * (
        np.sin(2 * math.pi * waves[0] * t / length + phase[0])
        + 0.5 * np.sin(2 * math.pi * waves[1] * 2.3 * t / length + phase[1])
    )
    off += rng.normal(0, amp * 0.15, n)
    return p + np.outer(t, unit) + np.outer(off, normal)


def _stroke(layer: np.ndarray, pts: np.ndarray, width: float, strength: float) -> None:
    """Draw a polyline; coverage accumulates like graphite (two strokes are darker than one)."""
    w = max(1, int(round(width)))
    pad = w + 2
    h_img, w_img = layer.shape
    x0 = max(0, int(np.floor(pts[:, 0].min())) - pad)
    y0 = max(0, int(np.floor(pts[:, 1].min())) - pad)
    x1 = min(w_img, int(np.ceil(pts[:, 0].max())) + pad)
    y1 = min(h_img, int(np.ceil(pts[:, 1].max())) + pad)
    if x1 <= x0 or y1 <= y0:
        return
    tmp = np.zeros((y1 - y0, x1 - x0), np.float32)
    poly = np.round((pts - [x0, y0]) * 4).astype(np.int32).reshape(-1, 1, 2)  # sub-pixel
    cv2.polylines(tmp, [poly], False, float(strength), w, cv2.LINE_AA, shift=2)
    roi = layer[y0:y1, x0:x1]
    roi[:] = 1.0 - (1.0 - roi) * (1.0 - tmp)


class _Hand:
    """One player's hand: pressure, wobble and grain for a style."""

    def __init__(self, style: str, rng: np.random.Generator, px_per_mm: float) -> None:
        self.style = style
        self.rng = rng
        self.s = px_per_mm
        if style == "pen":
            self.outline_colour = PEN_COLOURS[int(rng.integers(0, len(PEN_COLOURS)))]
            self.width = 0.45 * px_per_mm
            self.strength = (0.85, 1.0)
            self.grain = 0.05
        else:
            self.outline_colour = GRAPHITE
            self.width = 0.5 * px_per_mm
            self.strength = (0.6, 0.9)
            self.grain = 0.35
        self.wobble = rng.uniform(0.15, 0.45) * px_per_mm

    def pressure(self) -> float:
        lo, hi = self.strength
        return float(self.rng.uniform(lo, hi))

    def line(
        self,
        layer: np.ndarray,
        p: Sequence[float],
        q: Sequence[float],
        *,
        strength: float | None = None,
        width: float | None = None,
    ) -> None:
        pts = _wobbly(
            np.asarray(p, float),
            np.asarray(q, float),
            self.rng,
            self.wobble,
            overshoot=0.8 * self.s,
        )
        _stroke(
            layer,
            pts,
            width or self.width * self.rng.uniform(0.8, 1.3),
            self.pressure() if strength is None else strength,
        )


def _tile_mask(
    shape: tuple[int, int], cells: Sequence[Cell], layout: SheetLayout, s: float, inset_mm: float
) -> np.ndarray:
    mask = np.zeros(shape, np.float32)
    for r, c in cells:
        x, y, w, h = layout.cell_rect_mm(r, c)
        cv2.rectangle(
            mask,
            (int((x + inset_mm) * s), int((y + inset_mm) * s)),
            (int((x + w - inset_mm) * s), int((y + h - inset_mm) * s)),
            1.0,
            -1,
        )
    # cells of one tile are filled across their shared lines: close the gaps the inset left
    cell_set = set(cells)
    for r, c in cells:
        x, y, w, h = layout.cell_rect_mm(r, c)
        if (r, c + 1) in cell_set:
            cv2.rectangle(
                mask,
                (int((x + w - inset_mm) * s), int((y + inset_mm) * s)),
                (int((x + w + inset_mm) * s), int((y + h - inset_mm) * s)),
                1.0,
                -1,
            )
        if (r + 1, c) in cell_set:
            cv2.rectangle(
                mask,
                (int((x + inset_mm) * s), int((y + h - inset_mm) * s)),
                (int((x + w - inset_mm) * s), int((y + h + inset_mm) * s)),
                1.0,
                -1,
            )
    return mask


def _boundary_runs(cells: Sequence[Cell]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The tile's outline as straight runs between grid points (row, col) corners."""
    cell_set = set(cells)
    horizontal: dict[int, list[int]] = {}
    vertical: dict[int, list[int]] = {}
    for r, c in cell_set:
        if (r - 1, c) not in cell_set:
            horizontal.setdefault(r, []).append(c)
        if (r + 1, c) not in cell_set:
            horizontal.setdefault(r + 1, []).append(c)
        if (r, c - 1) not in cell_set:
            vertical.setdefault(c, []).append(r)
        if (r, c + 1) not in cell_set:
            vertical.setdefault(c + 1, []).append(r)
    runs: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for r, cols in horizontal.items():
        for a, b in _spans(sorted(cols)):
            runs.append(((r, a), (r, b + 1)))
    for c, rows in vertical.items():
        for a, b in _spans(sorted(rows)):
            runs.append(((a, c), (b + 1, c)))
    return runs


def _spans(values: list[int]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for v in values:
        if spans and v == spans[-1][1] + 1:
            spans[-1] = (spans[-1][0], v)
        else:
            spans.append((v, v))
    return spans


def _hatch(hand: _Hand, tmp: np.ndarray, centre: np.ndarray, radius: float, angle: float,
           spacing: float, width: float, strength: float, zigzag: bool = False) -> None:
    """Parallel strokes at ``angle`` over the disc (``centre``, ``radius``) around a tile, or
    one zigzag stroke through them (a scribble)."""
    rng = hand.rng
    direction = np.array([math.cos(angle), math.sin(angle)])
    normal = np.array([-direction[1], direction[0]])
    offsets = np.arange(-radius, radius, spacing)
    pts_chain = []
    for i, o in enumerate(offsets):
        a = centre + normal * o - direction * radius
        b = centre + normal * o + direction * radius
        if zigzag:
            pts_chain.append(b if i % 2 else a)
            pts_chain.append(a if i % 2 else b)
        else:
            pts = _wobbly(a, b, rng, hand.wobble * 0.6, overshoot=0)
            _stroke(tmp, pts, width * rng.uniform(0.8, 1.2), strength * rng.uniform(0.85, 1.1))
    if zigzag and pts_chain:
        chain = np.array(pts_chain) + rng.normal(0, spacing * 0.15, (len(pts_chain), 2))
        _stroke(tmp, chain, width, strength)


def _fill(
    hand: _Hand,
    layer: np.ndarray,
    cells: Sequence[Cell],
    layout: SheetLayout,
    fill: str,
    *,
    strength_scale: float = 1.0,
) -> None:
    """Fill a tile's cells in one of the FILLS, clipped to the tile (a little inside the lines)."""
    rng = hand.rng
    s = hand.s
    cell_px = layout.cell_mm * s
    tmp = np.zeros_like(layer)
    xs = [layout.cell_rect_mm(r, c)[0] * s for r, c in cells]
    ys = [layout.cell_rect_mm(r, c)[1] * s for r, c in cells]
    x0, y0 = min(xs) - cell_px * 0.2, min(ys) - cell_px * 0.2
    x1, y1 = max(xs) + cell_px * 1.2, max(ys) + cell_px * 1.2
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    radius = math.hypot(x1 - x0, y1 - y0) / 2
    base_angle = rng.choice([math.pi / 4, 3 * math.pi / 4]) + rng.normal(0, 0.15)
    strength = hand.pressure() * strength_scale
    if fill == "hatch":
        _hatch(hand, tmp, centre, radius, base_angle, cell_px * rng.uniform(0.12, 0.22),
               hand.width, strength)
    elif fill == "crosshatch":
        spacing = cell_px * rng.uniform(0.14, 0.24)
        _hatch(hand, tmp, centre, radius, base_angle, spacing, hand.width, strength)
        _hatch(hand, tmp, centre, radius, base_angle + math.pi / 2 + rng.normal(0, 0.1),
               spacing, hand.width, strength)
    elif fill == "scribble":
        _hatch(hand, tmp, centre, radius, base_angle + rng.normal(0, 0.3),
               cell_px * rng.uniform(0.08, 0.14), hand.width, strength, zigzag=True)
    elif fill == "solid":
        width = hand.width * 2.2
        # shading pressed lightly, so the outline drawn first still shows through
        _hatch(hand, tmp, centre, radius, base_angle, width * 0.55, width,
               strength * rng.uniform(0.45, 0.6))
    elif fill == "cross":
        for r, c in cells:
            x, y, w, h = (v * s for v in layout.cell_rect_mm(r, c))
            inset = w * rng.uniform(0.12, 0.22)
            hand.line(tmp, (x + inset, y + inset), (x + w - inset, y + h - inset))
            hand.line(tmp, (x + w - inset, y + inset), (x + inset, y + h - inset))
    else:
        raise ValueError(f"unknown fill {fill!r}; fills: {', '.join(FILLS)}")
    mask = _tile_mask(layer.shape, cells, layout, s, inset_mm=layout.cell_mm * 0.06)
    # a band of rows at a time: the blend's four float copies of the sheet were the drawing's
    # high (every pixel's arithmetic is its own: the same layer to the bit)
    for rows in _bands(layer.shape[0]):
        layer[rows] = 1.0 - (1.0 - layer[rows]) * (1.0 - tmp[rows] * mask[rows])


def _write_one(hand: _Hand, layer: np.ndarray, cell: Cell, layout: SheetLayout) -> None:
    """A handwritten 1: a flag, a down stroke, sometimes a foot."""
    rng = hand.rng
    x, y, w, _ = (v * hand.s for v in layout.cell_rect_mm(*cell))
    cx = x + w * rng.uniform(0.42, 0.58)
    cy = y + w * rng.uniform(0.45, 0.55)
    h = w * rng.uniform(0.5, 0.72)
    top = (cx + w * rng.uniform(-0.04, 0.04), cy - h / 2)
    bottom = (cx + w * rng.uniform(-0.05, 0.03), cy + h / 2)
    width = hand.width * 1.3
    hand.line(
        layer,
        (cx - w * rng.uniform(0.1, 0.18), cy - h / 2 + h * 0.22),
        top,
        strength=1.0,
        width=width,
    )
    hand.line(layer, top, bottom, strength=1.0, width=width)
    if rng.random() < 0.5:
        hand.line(
            layer,
            (bottom[0] - w * 0.12, bottom[1]),
            (bottom[0] + w * 0.12, bottom[1]),
            strength=1.0,
            width=width,
        )


def _bands(height: int) -> list[slice]:
    """The bands of rows a whole-sheet computation is cut into (see effects.BAND_ROWS)."""
    return [slice(top, min(height, top + BAND_ROWS)) for top in range(0, height, BAND_ROWS)]


def _composite(
    paper: np.ndarray, ink: _Ink, rng: np.random.Generator, grain: float, opacity: float
) -> np.ndarray:
    h, w = ink.shape
    small = rng.random((h // 2 + 1, w // 2 + 1)).astype(np.float32)
    texture = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)[:h, :w]
    sheet = np.empty_like(paper)
    # a band of rows at a time: the float sheet and each layer's alpha and colour (9, 3 and
    # 9 MB) were the demo's Second Chance high; every pixel is its own: the same to the bit
    for rows in _bands(h):
        out = paper[rows].astype(np.float32)
        for colour, layer in ink.layers.items():
            alpha = np.clip(layer[rows] * opacity * (1 - grain * texture[rows]), 0, 1)[..., None]
            out *= 1 - alpha
            out += np.array(colour, np.float32) * alpha
        sheet[rows] = np.clip(out, 0, 255, out=out).astype(np.uint8)
    return sheet


def bend_sheet(image: np.ndarray, rng: np.random.Generator, amount: float) -> np.ndarray:
    """A sheet that is not flat: a smooth sideways and up-down displacement."""
    h, w = image.shape[:2]
    # a band of rows at a time, the grid float32 from the start: the demo camera draws a
    # sheet while the players play, and the whole sheet's grid, maps and their float64
    # products (numpy 2 promotes by the float64 phases) were the render's high (24 MB);
    # each output pixel's source is its own map entry: the same sheet to the bit
    ax, ay = rng.uniform(-amount, amount, 2) * min(h, w)
    px, py = rng.uniform(0, 2 * math.pi, 2)
    bent = np.empty_like(image)
    for rows in _bands(h):
        yy, xx = np.indices((rows.stop - rows.start, w), dtype=np.float32)
        yy += rows.start  # whole numbers: exact in float32, the whole grid's rows
        map_x = (xx + ax * np.sin(math.pi * yy / h + px) * np.sin(math.pi * xx / w)
                 ).astype(np.float32)
        map_y = (yy + ay * np.sin(math.pi * xx / w + py) * np.sin(math.pi * yy / h)
                 ).astype(np.float32)
        bent[rows] = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    return bent


def crease_sheet(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A fold across the sheet: a faint line with one side a little darker."""
    h, w = image.shape[:2]
    if rng.random() < 0.5:
        y = rng.uniform(0.3, 0.7) * h
        a, b = (0.0, y + rng.normal(0, h * 0.03)), (float(w), y + rng.normal(0, h * 0.03))
    else:
        x = rng.uniform(0.3, 0.7) * w
        a, b = (x + rng.normal(0, w * 0.03), 0.0), (x + rng.normal(0, w * 0.03), float(h))
    # each full-size float array goes once used, and the float copy of the sheet is made
    # only to be shaded (see bend_sheet: the same pixels to the bit, fewer copies at once)
    grid = np.indices((h, w), dtype=np.float32)
    yy, xx = grid
    d = ((b[0] - a[0]) * (a[1] - yy) - (a[0] - xx) * (b[1] - a[1])) / math.hypot(
        b[0] - a[0], b[1] - a[1]
    )
    del grid, yy, xx
    side = np.where(d > 0, 1.0 - rng.uniform(0.02, 0.07), 1.0)
    line = 1.0 - 0.12 * np.exp(-((d / 1.5) ** 2)) + 0.06 * np.exp(-(((d - 3) / 2.0) ** 2))
    del d
    shade = side * line
    del side, line
    out = image.astype(np.float32)
    out *= shade[..., None]
    del shade
    return np.clip(out, 0, 255, out=out).astype(np.uint8)


@dataclass(frozen=True)
class RenderedSheet:
    """A rendered camera frame of a sheet, with what is really on it."""

    image: np.ndarray
    content: SheetContent
    style: str
    seed: int
    markers: bool
    log: Mapping[str, Any]

    def truth(self) -> dict[str, Any]:
        data = self.content.truth()
        data.update(
            style=self.style,
            seed=self.seed,
            markers=self.markers,
            player=self.content.name,
            effects=dict(self.log),
        )
        return data


def draw_sheet(
    content: SheetContent,
    *,
    style: str = "pencil",
    seed: int = 0,
    layout: SheetLayout | None = None,
    px_per_mm: float = 5.0,
    erasures: int | None = None,
    outline_probability: float = 1.0,
    fills: Sequence[str] | None = None,
) -> tuple[np.ndarray, dict[str, Any]]:
    """The flat, top-down sheet with the hand-drawn marks (before bending and camera)."""
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r}; styles: {', '.join(STYLES)}")
    rng = np.random.default_rng(seed)
    layout = layout or SheetLayout.for_page()
    s = px_per_mm
    paper_tint = (
        int(rng.integers(238, 256)),
        int(rng.integers(240, 256)),
        int(rng.integers(242, 256)),
    )
    paper = sheet_image(layout, px_per_mm=s, paper=paper_tint)
    shape = paper.shape[:2]
    ink = _Ink(shape)
    hand = _Hand(style, rng, s)
    if fills is None:
        fills = ("hatch", "crosshatch", "scribble", "cross") if style == "pen" else FILLS
    favourite = str(rng.choice(list(fills)))
    log: dict[str, Any] = {"fill": favourite}
    # the tiles (by drawing order) whose outline the player skipped
    log["no_outline"] = _draw_tiles(hand, ink, content, layout, style, list(fills), favourite,
                                    outline_probability)
    log["erased"] = _erased_traces(hand, ink, content, layout, erasures)
    if content.bonus is not None:
        _write_one(hand, ink.layer(hand.outline_colour), content.bonus, layout)
    if content.name:
        _write_name(hand, ink, content.name, layout)
    opacity = 0.95 if style == "pen" else 0.9
    return _composite(paper, ink, rng, hand.grain, opacity), log


def _draw_tiles(hand: _Hand, ink: _Ink, content: SheetContent, layout: SheetLayout, style: str,
                fills: list[str], favourite: str, outline_probability: float) -> list[int]:
    """Fill each tile and draw its outline (skipped with ``1 - outline_probability``); the
    tiles (by drawing order) left without an outline."""
    rng = hand.rng
    colour_of: dict[Cell, tuple[int, int, int]] = {}
    no_outline: list[int] = []
    for index, tile in enumerate(content.tiles):
        fill = favourite if rng.random() < 0.7 else str(rng.choice(fills))
        if style == "colour":
            # a player takes another pencil than the neighbouring tiles' (that is the point)
            near = {colour_of.get((r + dr, c + dc)) for r, c in tile
                    for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))}
            choices = [p for p in PENCIL_COLOURS if p not in near] or list(PENCIL_COLOURS)
            colour = choices[int(rng.integers(0, len(choices)))]
            colour_of.update({cell: colour for cell in tile})
            if fill == "cross":
                fill = "hatch"
        else:
            colour = hand.outline_colour
        _fill(hand, ink.layer(colour), tile, layout, fill)
        if rng.random() >= outline_probability:
            no_outline.append(index)
        else:
            outline_colour = hand.outline_colour if rng.random() < 0.8 else colour
            _draw_outline(hand, ink.layer(outline_colour), tile, layout)
    return no_outline


def _draw_outline(hand: _Hand, layer: np.ndarray, tile: Sequence[Cell],
                  layout: SheetLayout) -> None:
    """The tile's outline, traced by hand along the grid lines, a little harder and wider."""
    s = hand.s
    for (r0, c0), (r1, c1) in _boundary_runs(tile):
        x0, y0 = layout.grid_origin_mm
        p = ((x0 + c0 * layout.cell_mm) * s, (y0 + r0 * layout.cell_mm) * s)
        q = ((x0 + c1 * layout.cell_mm) * s, (y0 + r1 * layout.cell_mm) * s)
        hand.line(
            layer,
            p,
            q,
            strength=min(1.0, hand.pressure() + 0.3),
            width=hand.width * 1.5,
        )


def _erased_traces(hand: _Hand, ink: _Ink, content: SheetContent, layout: SheetLayout,
                   erasures: int | None) -> list[list[int]]:
    """Faint, smudged traces of erased marks in some empty cells (0-3 when ``erasures`` is
    None); the cells."""
    rng = hand.rng
    empty = [cell for cell in content.grid.empty_cells]
    n_erased = int(rng.integers(0, 4)) if erasures is None else erasures
    erased: list[list[int]] = []
    if empty and n_erased:
        ghost = np.zeros(ink.shape, np.float32)
        for i in rng.permutation(len(empty))[:n_erased]:
            cell = empty[int(i)]
            _fill(
                hand,
                ghost,
                [cell],
                layout,
                str(rng.choice(["hatch", "cross", "scribble"])),
                strength_scale=1.0,
            )
            erased.append(list(cell))
        # what an eraser leaves: a faint, smudged trace of the marks
        trace: np.ndarray = cv2.GaussianBlur(ghost, (0, 0), 1.2 * hand.s / 5)
        del ghost
        trace *= float(rng.uniform(0.06, 0.15))  # where it lies (one float sheet fewer)
        layer = ink.layer(hand.outline_colour)
        np.maximum(layer, trace, out=layer)
    return erased


def _write_name(hand: _Hand, ink: _Ink, name: str, layout: SheetLayout) -> None:
    """The player's name in the name box (where the layout has one)."""
    s = hand.s
    nx, ny, nw, nh = layout.name_box_mm
    if nw <= 0:
        return
    text = np.zeros(ink.shape, np.uint8)
    cv2.putText(
        text,
        name,
        (int((nx + 16) * s), int((ny + nh * 0.85) * s)),
        cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
        nh * s / 32,
        255,
        max(1, int(0.5 * s)),
        cv2.LINE_AA,
    )
    coverage = text.astype(np.float32)
    del text
    coverage /= 255  # where it lies (one float sheet fewer)
    layer = ink.layer(hand.outline_colour)
    np.maximum(layer, coverage, out=layer)


def render_sheet(
    content: SheetContent,
    *,
    style: str = "pencil",
    seed: int = 0,
    markers: bool = True,
    effects: Sequence[str] = DEFAULT_EFFECTS,
    frame_size: tuple[int, int] = (1280, 960),
    bend: float = 0.012,
    crease: float = 0.3,
    erasures: int | None = None,
    outline_probability: float = 1.0,
    fills: Sequence[str] | None = None,
    max_tilt_deg: float = 25.0,
) -> RenderedSheet:
    """Draw the sheet by hand, bend and crease it, lay it on a table, and photograph it."""
    layout = SheetLayout.for_page(markers=markers)
    sheet, log = draw_sheet(
        content,
        style=style,
        seed=seed,
        layout=layout,
        erasures=erasures,
        outline_probability=outline_probability,
        fills=fills,
    )
    rng = np.random.default_rng(seed + 7919)
    if bend > 0:
        sheet = bend_sheet(sheet, rng, bend)
    if rng.random() < crease:
        sheet = crease_sheet(sheet, rng)
        log["crease"] = True
    h, w = sheet.shape[:2]
    pad_y, pad_x = int(h * 0.1), int(w * 0.14)
    table_colour = rng.integers(60, 170, 3)
    scene = np.empty((h + 2 * pad_y, w + 2 * pad_x, 3), np.uint8)
    scene[:] = table_colour.astype(np.uint8)
    # neither the grain nor the drawn sheet is kept while the camera effects run (5 and 4 MB)
    scene = with_grain(scene, cv2.GaussianBlur(normal_field(rng, scene.shape[:2], 6), (0, 0), 3))
    scene[pad_y : pad_y + h, pad_x : pad_x + w] = sheet
    del sheet
    protect = np.zeros(scene.shape[:2], np.uint8)
    protect[pad_y : pad_y + h, pad_x : pad_x + w] = 255
    # the scene is not returned: the effects draw over it rather than beside it
    result = apply_effects(
        scene, rng, list(effects), frame_size=frame_size, protect=protect,
        max_tilt_deg=max_tilt_deg, overwrite_scene=True,
    )
    log.update(result.applied)
    return RenderedSheet(result.image, content, style, seed, markers, log)


def grid_cells_of(content: SheetContent) -> int:
    """Number of filled cells (tiles and the 1)."""
    return GRID_CELLS * GRID_CELLS - content.grid.empty_count
