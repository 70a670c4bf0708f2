"""Enigma reader, cells close together on a tile: the short channel between two near cells
(:func:`near_cell_links`), the doubtful pairs settled by the brightness along their line
(:func:`settle_near_cells`, :func:`bright_gap`), and cells whose discs overlap
(:func:`doubt_overlapping_cells`). See :mod:`vision.enigma.tile`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import cv2
import numpy as np

from companion.enigma.tiles import Endpoint
from vision.enigma.cells import Cell, disc, discs_overlap
from vision.enigma.channel_pieces import CHANNEL_CUT, MIN_PIECE_WIDTH
from vision.enigma.patch_labels import PatchLabels
from vision.enigma.tile_doubts import DOUBTFUL_CONFIDENCE, TileDoubts

#: two cells farther apart than this share of a tile are never joined by a short channel
NEAR_CELLS = 0.6
#: half-width (share of a tile) of the corridor along the line between two near cells
CORRIDOR = 0.09
#: cells whose outlines come within this share of a tile may hide a short channel in the blur
OUTLINE_REACH = 0.08
#: near cells whose line shows a bright gap of at most this many pixels are joined...
JOINED_GAP_PX = 1.5
#: ... and of at least this many pixels are apart; between the two, the tile is asked about
APART_GAP_PX = 3.0
#: channel ink along the line between two cells' outlines for this share of a channel's
#: width is a stroke between them (census of the close pairs the corridor neither joins nor
#: doubts on tuning tables, any-tile harsh 7000-7015 and 20000-34007, independent harsh
#: 5000-5019: 76 pairs apart show runs of at most 1.5 px, 0.3 channel widths; the strokes
#: lost in the cuts 3.0-4.0 px, any-tile 34004 harsh [1, 0] 4.0)
STROKE_ALONG = 0.5


class NearPairs(NamedTuple):
    """What :func:`near_cell_links` finds: the links the corridors show; the near pairs the
    corridor did not join but whose outlines nearly touch (a short channel may hide in the
    blur: settled by the brightness along the line); and those whose cuts leave no piece
    between them over a stroke (:func:`_stroke_lost_in_cuts`: asked unless joined)."""

    links: list[tuple[Endpoint, Endpoint]]
    doubtful: list[tuple[int, int]]
    lost: list[tuple[int, int]]


def near_cell_links(named: PatchLabels, cells: list[Cell], cell_ids: list[str], rc: float,
                    cw: float) -> NearPairs:
    """Two cells close together: the short channel between them is judged along the line
    (:class:`NearPairs`)."""
    p = named.labels.shape[0]
    links: list[tuple[Endpoint, Endpoint]] = []
    if len(cells) < 2:
        return NearPairs(links, [], [])  # no pair of cells: nothing to judge (nor masks)
    # whatever is not bare tile art conducts (channel, cells, their outlines)
    conductive = (~named.of_kind("tile", "edge", "icon")).astype(np.uint8)
    for c in cells:  # a pawn hides the cell's middle: the whole cell conducts
        conductive[disc((p, p), c.centre, rc * 0.9)] = 1
    yy, xx = np.mgrid[0:p, 0:p].astype(np.float32)
    doubtful: list[tuple[int, int]] = []
    lost: list[tuple[int, int]] = []
    for i, ci in enumerate(cells):
        for j in range(i + 1, len(cells)):
            cj = cells[j]
            dx, dy = cj.centre[0] - ci.centre[0], cj.centre[1] - ci.centre[1]
            dist = math.hypot(dx, dy)
            if dist > NEAR_CELLS * p or dist < 1e-6:
                continue
            # a corridor along the straight line between the two cells
            t = np.clip(((xx - ci.centre[0]) * dx + (yy - ci.centre[1]) * dy) / dist**2, 0, 1)
            off = np.hypot(xx - ci.centre[0] - t * dx, yy - ci.centre[1] - t * dy)
            corridor = (off <= max(3.0, CORRIDOR * p)).astype(np.uint8)
            _, comp = cv2.connectedComponents(conductive & corridor, connectivity=8)
            la = comp[int(round(ci.centre[1])), int(round(ci.centre[0]))]
            lb = comp[int(round(cj.centre[1])), int(round(cj.centre[0]))]
            if la and la == lb:
                links.append((cell_ids[i], cell_ids[j]))
            else:
                k = 2 * max(2, int(round(OUTLINE_REACH * p))) + 1
                near = cv2.dilate((comp == la).astype(np.uint8), np.ones((k, k), np.uint8))
                if (near.astype(bool) & (comp == lb)).any():
                    doubtful.append((i, j))
                elif _stroke_lost_in_cuts(named, ci, cj, rc, cw):
                    lost.append((i, j))
    return NearPairs(links, doubtful, lost)


def _stroke_lost_in_cuts(named: PatchLabels, a: Cell, b: Cell, rc: float, cw: float) -> bool:
    """Two cells whose channel cuts (``CHANNEL_CUT`` radii round each) leave less between
    them than a piece as wide as a channel's sliver limit, with channel ink along the line
    between their outlines: the stroke there is lost with the cut, and the corridor may miss
    it where the blurred outlines take another ink's colour (tuning any-tile 34004 harsh,
    square [1, 0]: two blue cells 2.85 radii apart, their outlines labelled icon ink across
    the short stroke between them, read sure as two networks)."""
    between_cuts = math.hypot(b.centre[0] - a.centre[0], b.centre[1] - a.centre[1]) \
        - 2 * CHANNEL_CUT * rc
    if between_cuts >= MIN_PIECE_WIDTH * cw:
        return False  # a piece of the stroke is left between the cuts, and judged
    return _runs_along(named.of_kind("channel"), a.centre, b.centre, rc)[1] \
        >= STROKE_ALONG * cw


def settle_near_cells(near: NearPairs, links: list[tuple[Endpoint, Endpoint]],
                      cells: list[Cell], cell_ids: list[str], stroke_only: np.ndarray,
                      rc: float, doubts: TileDoubts) -> None:
    """Near cells the corridor did not join: settled only when the channel pieces and the
    brightness along the line between them agree (a continuous dark stroke and a piece
    joining both; or a bare gap and no piece), else asked. A stroke lost in the cuts is
    asked about unless the links join its two cells anyway: no piece shows it, so the
    brightness cannot settle it apart."""
    joined = _joined(links)
    if any(joined(cell_ids[i]) != joined(cell_ids[j]) for i, j in near.lost):
        doubts.add("a channel between two cells is broken: joined or not?",
                   DOUBTFUL_CONFIDENCE)
    for i, j in near.doubtful:
        gap = bright_gap(stroke_only, cells[i].centre, cells[j].centre, rc)
        pieces_join = joined(cell_ids[i]) == joined(cell_ids[j])
        if not ((pieces_join and gap <= JOINED_GAP_PX)
                or (not pieces_join and gap >= APART_GAP_PX)):
            doubts.add("a channel between two cells is broken: joined or not?",
                       DOUBTFUL_CONFIDENCE)


def _joined(links: list[tuple[Endpoint, Endpoint]]) -> Callable[[Endpoint], Endpoint]:
    """The representative of each endpoint's connected group under ``links``."""
    parent: dict[Endpoint, Endpoint] = {}

    def find(e: Endpoint) -> Endpoint:
        parent.setdefault(e, e)
        while parent[e] != e:
            parent[e] = parent[parent[e]]
            e = parent[e]
        return e

    for a, b in links:
        parent[find(a)] = find(b)
    return find


def bright_gap(dark: np.ndarray, a: tuple[float, float], b: tuple[float, float],
                rc: float) -> float:
    """The longest stretch (pixels) of the straight line between two cells' rims with no
    dark pixel within 1.5 px across it: a channel between them leaves none."""
    return _runs_along(dark, a, b, rc)[0]


def _runs_along(mask: np.ndarray, a: tuple[float, float], b: tuple[float, float],
                rc: float) -> tuple[float, float]:
    """Along the straight line between two cells' rims, in half-pixel steps: the longest
    stretch (pixels) with no pixel of ``mask`` within 1.5 px across it, and the longest
    with one."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    dist = math.hypot(dx, dy)
    if dist <= 2 * rc:
        return 0.0, 0.0
    ux, uy = dx / dist, dy / dist
    p = mask.shape[0]
    bare = covered = longest_bare = longest_covered = 0.0
    step = 0.5
    for t in np.arange(rc, dist - rc + 1e-6, step):
        hit = False
        for o in (-1.5, -0.75, 0.0, 0.75, 1.5):
            x = int(round(a[0] + t * ux - o * uy))
            y = int(round(a[1] + t * uy + o * ux))
            if 0 <= x < p and 0 <= y < p and mask[y, x]:
                hit = True
                break
        bare, covered = (0.0, covered + step) if hit else (bare + step, 0.0)
        longest_bare, longest_covered = max(longest_bare, bare), max(longest_covered, covered)
    return longest_bare, longest_covered


def doubt_overlapping_cells(cells: list[Cell], rc: float, doubts: TileDoubts,
                            whole: Callable[[Cell], bool] = lambda _: True) -> None:
    """Two cells whose discs would overlap are one cell read twice (a ring broken by a
    pawn or by something lying on it) or a misread: printed cells never overlap. ``whole``
    says whether a cell fills its disc (an arc's centre lies off its cell's middle)."""
    for i, a in enumerate(cells):
        for b in cells[i + 1:]:
            if discs_overlap(a, b, rc, whole(a), whole(b)):
                doubts.add("two cells overlap: is one cell read as two?", DOUBTFUL_CONFIDENCE)
                return

