"""Sheets filled by other hands: more tools, fills and marks than :mod:`.sheet` draws.

A second way of drawing the players' marks on the printed sheet, written to teach and test the
reader on what other people do at the table:

- tools: a pencil, ballpoint pens, coloured pencils (2 to 4 per player) and a felt marker that
  is thick and translucent, so that it is darker where two strokes cross;
- outlines: wobbly strokes along the grid lines that overshoot the corners, leave small gaps
  and are sometimes traced twice;
- fills: hatching at an angle of its own per tile (along a printed line too), cross-hatching,
  scribbled loops, dense shading, a dot or an X in each square, light fills;
- marks: erased mistakes left as smudges; the bonus 1 slanted, with a flag, sometimes a foot.

Every style draws its own mixture of these (:data:`HAND_STYLES`). ``marks`` -- a dot or an X
per square, in any tool -- is the held-apart style: the reader is never tuned on it.

:mod:`.photo` then lays the sheet on a table and photographs it, or scans it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.second_chance.shapes import Cell
from vision.second_chance.layout import SheetLayout
from vision.second_chance.printing import sheet_image
from vision.second_chance.synth.sheet import SheetContent

HAND_STYLES = ("pencil", "ballpoint", "coloured", "marker", "mixed", "marks")
#: the style the reader is never tuned on
HELD_APART_STYLE = "marks"
HAND_FILLS = ("hatch", "crosshatch", "loops", "dense", "light", "dot", "x")

#: the fills each style draws from, and the tools it takes
STYLE_FILLS: dict[str, tuple[str, ...]] = {
    "pencil": ("hatch", "crosshatch", "loops", "dense", "light"),
    "ballpoint": ("hatch", "crosshatch", "loops", "dense"),
    "coloured": ("hatch", "dense", "light", "loops", "crosshatch"),
    "marker": ("hatch", "dense", "loops"),
    "mixed": ("hatch", "crosshatch", "loops", "dense", "light"),
    "marks": ("dot", "x"),
}
STYLE_TOOLS: dict[str, tuple[str, ...]] = {
    "pencil": ("pencil",),
    "ballpoint": ("ballpoint",),
    "coloured": ("coloured",),
    "marker": ("marker",),
    "mixed": ("pencil", "ballpoint", "coloured", "marker"),
    "marks": ("pencil", "ballpoint", "marker", "coloured"),
}

ERASE_CHANCE = 0.5                 # a sheet with one or two erased mistakes
DOUBLE_TRACE = 0.25                # an outline side traced twice
GAP_CHANCE = 0.25                  # an outline run left with a small gap


@dataclass(frozen=True)
class Tool:
    """What draws a stroke: its colour (BGR), width, how much light one pass takes, and how
    much of the paper's tooth shows through it."""

    colour: tuple[int, int, int]
    width_mm: float
    opacity: float
    grain: float


BALLPOINT_INKS = ((150, 60, 20), (35, 30, 30), (40, 40, 170), (120, 40, 70))
PENCIL_COLOURS = ((40, 40, 200), (30, 130, 235), (30, 190, 225), (60, 160, 40),
                  (190, 110, 30), (150, 60, 120), (150, 110, 230), (40, 80, 130))
MARKER_INKS = ((200, 120, 30), (60, 170, 60), (40, 60, 220), (40, 40, 40), (160, 60, 160),
               (40, 170, 230))


def _tool(kind: str, rng: np.random.Generator) -> Tool:
    if kind == "pencil":
        return Tool((55, 52, 50), rng.uniform(0.35, 0.6), rng.uniform(0.55, 0.85), 0.4)
    if kind == "ballpoint":
        ink = BALLPOINT_INKS[int(rng.integers(len(BALLPOINT_INKS)))]
        return Tool(ink, rng.uniform(0.3, 0.5), rng.uniform(0.8, 0.95), 0.05)
    if kind == "coloured":
        ink = PENCIL_COLOURS[int(rng.integers(len(PENCIL_COLOURS)))]
        return Tool(ink, rng.uniform(0.5, 0.8), rng.uniform(0.45, 0.75), 0.45)
    ink = MARKER_INKS[int(rng.integers(len(MARKER_INKS)))]
    return Tool(ink, rng.uniform(1.2, 2.2), rng.uniform(0.45, 0.7), 0.0)


class _Page:
    """The paper (float BGR) and the way ink goes on it: each stroke multiplies the light."""

    def __init__(self, layout: SheetLayout, px_per_mm: float, rng: np.random.Generator) -> None:
        tint = (int(rng.integers(236, 256)), int(rng.integers(238, 256)),
                int(rng.integers(240, 256)))
        self.image = sheet_image(layout, px_per_mm=px_per_mm, paper=tint).astype(np.float32)
        self.s = px_per_mm
        self.layout = layout
        self.rng = rng
        h, w = self.image.shape[:2]
        tooth = rng.random((h // 2 + 1, w // 2 + 1)).astype(np.float32)
        self.tooth = cv2.resize(tooth, (w, h), interpolation=cv2.INTER_LINEAR)

    def ink(self, coverage: np.ndarray, tool: Tool) -> None:
        """Lay one pass of ``tool`` where ``coverage`` (0..1) says."""
        ys, xs = np.nonzero(coverage.any(axis=1))[0], np.nonzero(coverage.any(axis=0))[0]
        if ys.size == 0:
            return
        box = (slice(ys[0], ys[-1] + 1), slice(xs[0], xs[-1] + 1))
        alpha = np.clip(coverage[box] * tool.opacity * (1 - tool.grain * self.tooth[box]), 0, 1)
        absorb = 1 - np.array(tool.colour, np.float32) / 255
        self.image[box] *= 1 - alpha[..., None] * absorb

    def blank(self) -> np.ndarray:
        return np.zeros(self.image.shape[:2], np.float32)

    def corner(self, row: float, col: float) -> np.ndarray:
        x0, y0 = self.layout.grid_origin_mm
        cell = self.layout.cell_mm
        return np.array([(x0 + col * cell) * self.s, (y0 + row * cell) * self.s])


def _wobbly(p: np.ndarray, q: np.ndarray, rng: np.random.Generator, wobble: float,
            ends: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """A hand-drawn line from p to q, its ends pushed on (or pulled back) by ``ends``."""
    length = float(np.hypot(*(q - p))) or 1.0
    unit = (q - p) / length
    normal = np.array([-unit[1], unit[0]])
    t = np.linspace(-ends[0], length + ends[1], max(4, int(length / 3)))
    # a random walk whose whole drift is about ``wobble`` whatever the resolution
    drift = np.cumsum(rng.normal(0, wobble / math.sqrt(t.size), t.size))
    drift -= np.linspace(drift[0], drift[-1], t.size) * rng.uniform(0.3, 1.0)
    drift += wobble * math.sin(rng.uniform(0, 2 * math.pi)) * np.sin(math.pi * t / length)
    return p + np.outer(t, unit) + np.outer(drift, normal)


def _line(layer: np.ndarray, pts: np.ndarray, width_px: float, strength: float = 1.0) -> None:
    """A polyline on a coverage layer; passes over one spot add up (1 - product of misses)."""
    if len(pts) < 2:
        return
    w = max(1, int(round(width_px)))
    pad = w + 2
    x0 = max(0, int(pts[:, 0].min()) - pad)
    y0 = max(0, int(pts[:, 1].min()) - pad)
    x1 = min(layer.shape[1], int(pts[:, 0].max()) + pad + 1)
    y1 = min(layer.shape[0], int(pts[:, 1].max()) + pad + 1)
    if x1 <= x0 or y1 <= y0:
        return
    tmp = np.zeros((y1 - y0, x1 - x0), np.float32)
    poly = np.round((pts - [x0, y0]) * 4).astype(np.int32).reshape(-1, 1, 2)
    cv2.polylines(tmp, [poly], False, float(strength), w, cv2.LINE_AA, shift=2)
    roi = layer[y0:y1, x0:x1]
    roi[:] = 1 - (1 - roi) * (1 - tmp)


def _runs(cells: Sequence[Cell]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The tile's outline as straight runs between grid corners (row, col)."""
    cell_set = set(cells)
    runs: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for r, c in sorted(cell_set):
        for (dr, dc), a, b in (((-1, 0), (r, c), (r, c + 1)), ((1, 0), (r + 1, c), (r + 1, c + 1)),
                               ((0, -1), (r, c), (r + 1, c)), ((0, 1), (r, c + 1), (r + 1, c + 1))):
            if (r + dr, c + dc) not in cell_set:
                runs.append((a, b))
    merged = True
    while merged:
        merged = False
        for i, (a, b) in enumerate(runs):
            for j, (c2, d) in enumerate(runs):
                if i != j and b == c2 and (a[0] == d[0] or a[1] == d[1]):
                    runs[i] = (a, d)
                    del runs[j]
                    merged = True
                    break
            if merged:
                break
    return runs


def draw_outline(page: _Page, tile: Sequence[Cell], tool: Tool) -> None:
    """Each straight run of the outline, by hand: overshooting corners, with the odd gap, some
    sides traced twice."""
    rng, s = page.rng, page.s
    layer = page.blank()
    width = max(tool.width_mm, 0.3) * s * rng.uniform(1.0, 1.4)
    wobble = rng.uniform(0.15, 0.5) * s
    for a, b in _runs(tile):
        p, q = page.corner(*a), page.corner(*b)
        ends = (rng.uniform(-0.6, 2.0) * s, rng.uniform(-0.6, 2.0) * s)
        traces = 2 if rng.random() < DOUBLE_TRACE else 1
        for _ in range(traces):
            pts = _wobbly(p, q, rng, wobble, ends)
            if rng.random() < GAP_CHANCE and len(pts) > 12:
                cut = int(rng.integers(3, len(pts) - 6))
                gap = max(1, int(rng.uniform(1.0, 2.5) * s / 3))
                _line(layer, pts[:cut], width)
                _line(layer, pts[cut + gap:], width)
            else:
                _line(layer, pts, width)
    page.ink(layer, tool)


def _tile_mask(page: _Page, tile: Sequence[Cell], inset_px: float) -> np.ndarray:
    mask = np.zeros(page.image.shape[:2], np.uint8)
    for r, c in tile:
        (x0, y0), (x1, y1) = page.corner(r, c), page.corner(r + 1, c + 1)
        cv2.rectangle(mask, (int(x0), int(y0)), (int(x1), int(y1)), 255, -1)
    size = int(abs(inset_px)) * 2 + 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    grown = cv2.erode(mask, kernel) if inset_px > 0 else cv2.dilate(mask, kernel)
    soft: np.ndarray = cv2.GaussianBlur(grown.astype(np.float32) / 255, (0, 0), 0.6)
    return soft


def _hatch(page: _Page, layer: np.ndarray, tile: Sequence[Cell], angle: float, spacing: float,
           width: float, strength: float = 1.0) -> None:
    """Parallel wobbly strokes at ``angle`` over the tile's bounding box."""
    rows = [r for r, _ in tile]
    cols = [c for _, c in tile]
    lo = page.corner(min(rows), min(cols))
    hi = page.corner(max(rows) + 1, max(cols) + 1)
    centre, reach = (lo + hi) / 2, float(np.hypot(*(hi - lo))) / 2 + spacing
    along = np.array([math.cos(angle), math.sin(angle)])
    across = np.array([-along[1], along[0]])
    for offset in np.arange(-reach, reach, spacing):
        start = centre + across * (offset + page.rng.normal(0, spacing * 0.1))
        pts = _wobbly(start - along * reach, start + along * reach, page.rng, spacing * 0.2)
        _line(layer, pts, width * page.rng.uniform(0.8, 1.2),
              strength * page.rng.uniform(0.85, 1.0))


def _loops(page: _Page, layer: np.ndarray, tile: Sequence[Cell], width: float) -> None:
    """A scribble of loops wandering over every square of the tile."""
    rng, s = page.rng, page.s
    cell = page.layout.cell_mm * s
    radius = cell * rng.uniform(0.18, 0.32)
    path = []
    for r, c in tile:
        centre = page.corner(r + 0.5, c + 0.5)
        for _ in range(int(rng.integers(2, 4))):
            path.append(centre + rng.uniform(-0.3, 0.3, 2) * cell)
    points = []
    for a, b in zip(path, path[1:] + path[:1], strict=True):
        for t in np.linspace(0, 1, 28, endpoint=False):
            turn = 2 * math.pi * t * 2
            points.append(a + (b - a) * t + radius * np.array([math.cos(turn), math.sin(turn)]))
    _line(layer, np.array(points), width)


def _marks(page: _Page, layer: np.ndarray, tile: Sequence[Cell], kind: str,
           width: float) -> None:
    """A dot or an X in each square."""
    rng, s = page.rng, page.s
    cell = page.layout.cell_mm * s
    for r, c in tile:
        centre = page.corner(r + 0.5, c + 0.5) + rng.normal(0, 0.06 * cell, 2)
        size = cell * rng.uniform(0.12, 0.22) if kind == "dot" else cell * rng.uniform(0.25, 0.4)
        if kind == "dot":
            cv2.circle(layer, (int(centre[0]), int(centre[1])), max(2, int(size)), 1.0, -1,
                       cv2.LINE_AA)
            continue
        for sign in (1, -1):
            d = np.array([size, sign * size]) * rng.uniform(0.85, 1.15)
            _line(layer, _wobbly(centre - d, centre + d, rng, 0.2 * s), width * 1.3)


def draw_fill(page: _Page, tile: Sequence[Cell], tool: Tool, fill: str) -> None:
    """Fill the tile's squares in ``fill`` (one of :data:`HAND_FILLS`), a little inside its
    outline or a little over it."""
    rng, s = page.rng, page.s
    cell = page.layout.cell_mm * s
    width = tool.width_mm * s
    layer = page.blank()
    angle = rng.uniform(0, math.pi)          # a tile's own angle, along a printed line too
    pass_tool = tool
    if fill == "hatch":
        _hatch(page, layer, tile, angle, cell * rng.uniform(0.1, 0.22), width)
    elif fill == "crosshatch":
        spacing = cell * rng.uniform(0.12, 0.24)
        _hatch(page, layer, tile, angle, spacing, width)
        _hatch(page, layer, tile, angle + rng.uniform(0.35, 0.65) * math.pi, spacing, width)
    elif fill == "loops":
        _loops(page, layer, tile, width)
    elif fill == "dense":
        _hatch(page, layer, tile, angle, max(width * 0.6, 1.0), width * 1.4)
    elif fill == "light":
        _hatch(page, layer, tile, angle, cell * rng.uniform(0.08, 0.14), width)
        pass_tool = Tool(tool.colour, tool.width_mm, tool.opacity * rng.uniform(0.35, 0.55),
                         tool.grain)
    elif fill in ("dot", "x"):
        _marks(page, layer, tile, fill, max(width, 0.4 * s))
    else:
        raise ValueError(f"unknown fill {fill!r}; fills: {', '.join(HAND_FILLS)}")
    if fill not in ("dot", "x"):
        layer *= _tile_mask(page, tile, rng.uniform(-0.3, 1.2) * s)
    page.ink(layer, pass_tool)


def write_one(page: _Page, cell: Cell, tool: Tool) -> None:
    """The bonus 1: a slanted down stroke, usually a flag, sometimes a foot."""
    rng, s = page.rng, page.s
    size = page.layout.cell_mm * s
    centre = page.corner(cell[0] + 0.5, cell[1] + 0.5) + rng.normal(0, 0.05 * size, 2)
    height = size * rng.uniform(0.45, 0.75)
    slant = math.radians(rng.uniform(-8, 22))
    down = np.array([-math.sin(slant), math.cos(slant)]) * height / 2
    top, bottom = centre - down, centre + down
    layer = page.blank()
    width = max(tool.width_mm, 0.4) * s * rng.uniform(1.0, 1.5)
    _line(layer, _wobbly(top, bottom, rng, 0.15 * s), width)
    if rng.random() < 0.8:
        flag = top + np.array([-0.18, 0.22]) * size * rng.uniform(0.7, 1.2)
        _line(layer, _wobbly(flag, top, rng, 0.1 * s), width)
    if rng.random() < 0.35:
        foot = np.array([0.13 * size, 0])
        _line(layer, _wobbly(bottom - foot, bottom + foot, rng, 0.1 * s), width)
    page.ink(layer, Tool(tool.colour, tool.width_mm, max(tool.opacity, 0.8), tool.grain))


def erase_smudge(page: _Page, cell: Cell) -> None:
    """What a rubber leaves of a pencil mistake: a grey smear, most of the graphite gone."""
    rng, s = page.rng, page.s
    layer = page.blank()
    _hatch(page, layer, [cell], rng.uniform(0, math.pi),
           page.layout.cell_mm * s * rng.uniform(0.1, 0.2), 0.5 * s)
    layer *= _tile_mask(page, [cell], 0.8 * s)
    layer = cv2.GaussianBlur(layer, (0, 0), 0.5 * s) * rng.uniform(0.08, 0.2)
    page.ink(layer, Tool((60, 58, 56), 0.5, 1.0, 0.3))


@dataclass(frozen=True)
class HandPlan:
    """What a player draws with: the tools per tile and the fills they use."""

    tools: tuple[Tool, ...]
    outline_tool: Tool | None          # one pen for every outline, or each tile's own tool
    fills: tuple[str, ...]


def player_plan(style: str, rng: np.random.Generator) -> HandPlan:
    """A player's kit for ``style``: 1 tool, or 2 to 4 coloured pencils, or a mixture."""
    if style not in HAND_STYLES:
        raise ValueError(f"unknown hand style {style!r}; styles: {', '.join(HAND_STYLES)}")
    kinds = STYLE_TOOLS[style]
    if style == "coloured":
        tools = tuple(_tool("coloured", rng) for _ in range(int(rng.integers(2, 5))))
    elif len(kinds) > 1:
        tools = tuple(_tool(str(k), rng) for k in rng.choice(kinds, int(rng.integers(2, 4))))
    else:
        tools = (_tool(kinds[0], rng),)
    outline = None
    if rng.random() < 0.5:
        outline = _tool(str(rng.choice(["pencil", "ballpoint"])), rng)
    fills = STYLE_FILLS[style]
    favourite = fills[int(rng.integers(len(fills)))]
    return HandPlan(tools, outline, fills + (favourite,) * len(fills))


def draw_hand_sheet(content: SheetContent, *, style: str, seed: int,
                    layout: SheetLayout | None = None, px_per_mm: float = 5.0,
                    ) -> np.ndarray:
    """The flat sheet (BGR uint8) with ``content`` drawn in ``style``."""
    rng = np.random.default_rng([seed, 0x4A4D])
    layout = layout or SheetLayout.for_page()
    page = _Page(layout, px_per_mm, rng)
    plan = player_plan(style, rng)
    for tile in content.tiles:
        tool = plan.tools[int(rng.integers(len(plan.tools)))]
        fill = plan.fills[int(rng.integers(len(plan.fills)))]
        draw_outline(page, tile, plan.outline_tool or tool)
        draw_fill(page, tile, tool, fill)
    empty = list(content.grid.empty_cells)
    if content.bonus is not None:
        empty = [cell for cell in empty if cell != content.bonus]
        write_one(page, content.bonus, plan.outline_tool or plan.tools[0])
    if empty and rng.random() < ERASE_CHANCE:
        for i in rng.permutation(len(empty))[:int(rng.integers(1, 3))]:
            erase_smudge(page, empty[int(i)])
    return np.clip(page.image, 0, 255).astype(np.uint8)


def render_hand_sheet(content: SheetContent, *, style: str, condition: str,
                      seed: int) -> np.ndarray:
    """``content`` drawn in ``style`` and photographed (or scanned) under ``condition``."""
    from vision.second_chance.synth.photo import (
        CONDITIONS,
        PHOTO_PX_PER_MM,
        SCAN_PX_PER_MM,
        photograph,
    )

    if condition not in CONDITIONS:
        raise ValueError(f"unknown condition {condition!r}; conditions: {', '.join(CONDITIONS)}")
    scale = SCAN_PX_PER_MM if condition == "scan" else PHOTO_PX_PER_MM
    sheet = draw_hand_sheet(content, style=style, seed=seed, px_per_mm=scale)
    return photograph(sheet, condition, np.random.default_rng([seed, 0x9407]))
