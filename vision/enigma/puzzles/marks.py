"""The marks a puzzle check leaves for a screen (:mod:`vision.enigma.puzzles.verdicts`): the
weights and cups, a mask's outline, a conduit cell or spot, a blob's box; and their mapping
from the card view or the mat image back to the camera frame.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

import cv2
import numpy as np

from companion.enigma import puzzle_conduit as conduit
from companion.enigma.tiles import OPPOSITE, neighbour
from vision.enigma.mat import CARD_PX_PER_MM
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.cards import Cup, conduit_grid
from vision.enigma.puzzles.verdicts import Mark, MarkKind, Point
from vision.enigma.puzzles.view import CardView

#: a disc or ring is drawn as a polygon of this many corners
DISC_CORNERS = 24
#: a mask's outline is simplified to this many pixels off its true edge
OUTLINE_TOLERANCE_PX = 1.5
#: at most this many outlines of a mask are marked (the largest): the rest is noise
MAX_OUTLINES = 6
#: an outline smaller than this (pixels of its space) is no mark
MIN_OUTLINE_AREA = 12.0
#: a pan's sum is written this far above its cups (share of the cups' radius)
PAN_LABEL_ABOVE = 1.9
#: where a conduit spot lies from its cell's centre (share of a cell): an opening's edge
SPOT_AT = 0.5

Cell = tuple[int, int]


def disc(centre: Point, radius: float) -> tuple[Point, ...]:
    cx, cy = centre
    return tuple((cx + radius * math.cos(a), cy + radius * math.sin(a))
                 for a in np.linspace(0, 2 * math.pi, DISC_CORNERS, endpoint=False))


def cup_centre_px(view: CardView, cup: Cup) -> Point:
    return view.mm_to_px(*cup.centre)


def weight_marks(view: CardView, cups: Sequence[Cup], counts: Mapping[tuple[str, int], int],
                 discs: Iterable[Point], pans: Mapping[str, int], weight_px: float
                 ) -> tuple[Mark, ...]:
    """Each whole weight seen, each cup with the weights counted in it, each pan's sum."""
    marks = [Mark(MarkKind.WEIGHT, disc(centre, weight_px)) for centre in discs]
    for cup in cups:
        marks.append(Mark(MarkKind.CUP, disc(cup_centre_px(view, cup),
                                             cup.radius * CARD_PX_PER_MM),
                          label=str(counts.get((cup.side, cup.index), 0))))
    for side, total in pans.items():
        mine = [cup for cup in cups if cup.side == side]
        if not mine:
            continue
        xs = [cup_centre_px(view, cup)[0] for cup in mine]
        top = min(cup_centre_px(view, cup)[1] - PAN_LABEL_ABOVE * cup.radius * CARD_PX_PER_MM
                  for cup in mine)
        marks.append(Mark(MarkKind.PAN, ((sum(xs) / len(xs), top),), label=str(total)))
    return tuple(marks)


def cup_doubt_marks(view: CardView, cups: Sequence[Cup], names: Iterable[str]) -> tuple[Mark,
                                                                                       ...]:
    """The cups named in a weight check's doubts ("the left cup 1")."""
    wanted = set(names)
    return tuple(Mark(MarkKind.DOUBT, disc(cup_centre_px(view, cup),
                                           1.2 * cup.radius * CARD_PX_PER_MM))
                 for cup in cups if f"the {cup.side} cup {cup.index + 1}" in wanted)


def mask_marks(mask: np.ndarray, kind: MarkKind, *, space: str = "view") -> tuple[Mark, ...]:
    """The outlines of a mask's largest parts."""
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_SIMPLE)
    big = sorted((c for c in contours if cv2.contourArea(c) >= MIN_OUTLINE_AREA),
                 key=cv2.contourArea, reverse=True)[:MAX_OUTLINES]
    out = []
    for contour in big:
        poly = cv2.approxPolyDP(contour, OUTLINE_TOLERANCE_PX, True).reshape(-1, 2)
        out.append(Mark(kind, tuple((float(x), float(y)) for x, y in poly), space=space))
    return tuple(out)


def box_mark(box: Sequence[float] | np.ndarray, kind: MarkKind, *, space: str = "view"
             ) -> Mark:
    """A rectangle (x, y, width, height: a connected component's stats) as a mark."""
    x, y, w, h = (float(v) for v in box[:4])
    return Mark(kind, ((x, y), (x + w, y), (x + w, y + h), (x, y + h)), space=space)


def cell_centre_px(view: CardView, card: conduit.ConduitCard, pack: EnigmaPack, at: Cell
                   ) -> tuple[Point, float]:
    """A conduit card cell's centre in the card view, and a cell's side (pixels)."""
    cell_mm, gx, gy = conduit_grid(card, pack.tile_mm)
    x0, y0 = view.mm_to_px(gx + at[0] * cell_mm, gy + at[1] * cell_mm)
    side = cell_mm * CARD_PX_PER_MM
    return (x0 + side / 2, y0 + side / 2), side


def cells_named(names: Iterable[str]) -> list[Cell]:
    """The conduit cells the check names in its doubts ("[1, 0]"); a doubt worded otherwise
    names no cell to mark (the verdict stands without its mark)."""
    cells = []
    for name in names:
        try:
            x, y = (int(v) for v in name.strip("[] ").split(","))
        except ValueError:
            continue
        cells.append((x, y))
    return cells


def cell_marks(view: CardView, card: conduit.ConduitCard, pack: EnigmaPack,
               cells: Iterable[Cell], kind: MarkKind) -> tuple[Mark, ...]:
    out = []
    for at in dict.fromkeys(cells):
        (cx, cy), side = cell_centre_px(view, card, pack, at)
        h = 0.45 * side
        out.append(box_mark((cx - h, cy - h, 2 * h, 2 * h), kind))
    return tuple(out)


def spot_marks(view: CardView, card: conduit.ConduitCard, pack: EnigmaPack,
               spots: Iterable[tuple[Cell, str]], kind: MarkKind) -> tuple[Mark, ...]:
    """Points at the edge of a cell, on side N, E, S or W."""
    steps = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    out = []
    for at, side in sorted(set(spots)):
        (cx, cy), cell = cell_centre_px(view, card, pack, at)
        ux, uy = steps[side]
        out.append(Mark(kind, ((cx + ux * SPOT_AT * cell, cy + uy * SPOT_AT * cell),)))
    return tuple(out)


def open_channels(card: conduit.ConduitCard, layout: Mapping[Cell, frozenset[str]]
                  ) -> list[tuple[Cell, str]]:
    """Where a channel stays open: an opening facing no opening and no stub, and a stub no
    opening meets (what the engine's :func:`conduit_problem` names first, all of them)."""
    spots = []
    for at, openings in sorted(layout.items()):
        for side in sorted(openings):
            if (at, side) in card.stubs:
                continue
            other = layout.get(neighbour(at, side))
            if other is None or OPPOSITE[side] not in other:
                spots.append((at, side))
    spots += [(at, side) for at, side in sorted(card.stubs)
              if side not in layout.get(at, frozenset())]
    return spots


def _mapped(points: Sequence[Point], matrix: np.ndarray) -> tuple[Point, ...]:
    pts = np.array(points, np.float64).reshape(-1, 1, 2)
    out = cv2.perspectiveTransform(pts, matrix).reshape(-1, 2)
    return tuple((float(x), float(y)) for x, y in out)


def to_frame(marks: Iterable[Mark], view: CardView) -> tuple[Mark, ...]:
    """The marks in the camera frame's pixels (those the view cannot map are left out)."""
    inverse = {}
    if view.frame_to_view is not None:
        inverse["view"] = np.linalg.inv(view.frame_to_view)
    if view.frame_to_mat is not None:
        inverse["mat"] = np.linalg.inv(view.frame_to_mat)
    out = []
    for mark in marks:
        if mark.space == "frame":
            out.append(mark)
        elif mark.space in inverse:
            out.append(Mark(mark.kind, _mapped(mark.points, inverse[mark.space]), mark.label,
                            "frame"))
    return tuple(out)


__all__ = ["Cell", "box_mark", "cell_centre_px", "cell_marks", "cells_named", "cup_doubt_marks",
           "disc", "mask_marks", "open_channels", "spot_marks", "to_frame", "weight_marks"]
