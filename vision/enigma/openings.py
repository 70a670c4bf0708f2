"""Enigma reader, a tile's openings: the windows by its sides where openings are looked for
(:func:`opening_windows`), the judgement of which openings are present and how clearly
(:func:`judge_openings`, :func:`dark_openings`), and how far the openings lie off the pack's
positions (:func:`opening_offset`). See :mod:`vision.enigma.tile`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.enigma.tiles import SIDES, Port
from vision.enigma.cells import Cell
from vision.enigma.layout import inward_point, port_point
from vision.enigma.patch_labels import EDGE_SHARE, PatchLabels
from vision.enigma.settings import ReaderSettings
from vision.enigma.small_stats import clip01, median
from vision.enigma.tile_doubts import UNCLEAR_CONFIDENCE, TileDoubts, opening_question

#: an opening's window reaches this share of a tile in from its side
WINDOW_DEPTH = 0.13
#: a dark-stroke score of an opening at or above this says "channel"; between the two
#: bounds of :data:`UNCLEAR_OPENING` it says nothing clearly
DARK_OPENING = 0.5
UNCLEAR_OPENING = (0.3, 0.7)
#: why an opening is asked whose colour and dark or faint stroke disagree or say nothing
UNCLEAR_STROKE = "the channel there is unclear"
#: the fewest pixels of an opening's window, away from the cells, to judge it by
MIN_WINDOW_PX = 4
#: the fewest pixels across a side's band, away from the cells, to judge a column by
MIN_BAND_PX = 2
#: an opening whose window a cell covers this much is judged on what lies between the cell's
#: rim and the side, where this many pixels of channel make it a question
HIDDEN_WINDOW_SHARE = 0.5
HIDDEN_STUB_PX = 2


@dataclass(frozen=True)
class OpeningWindows:
    """Where openings are looked for: the band ``depth0..depth1`` pixels in from each side and
    each opening position's window in it (``half_w`` pixels either side of the position), as
    a mask and as the box (rows, columns) the mask fills: a window's pixels are read through
    its box, a few dozen pixels instead of the whole patch."""

    depth0: int
    depth1: int
    half_w: float
    windows: dict[Port, np.ndarray]
    boxes: dict[Port, tuple[slice, slice]]
    away: np.ndarray  # the bands away from the windows and the corners


@lru_cache(maxsize=16)
def opening_windows(p: int, fractions: tuple[float, float, float], cw: float) -> OpeningWindows:
    """Each opening position's window: across its side, a channel's width either side of the
    position, from the outermost pixels in to :data:`WINDOW_DEPTH` (cached, read-only: every
    tile of a pack has the same windows)."""
    depth0, depth1 = max(2, int(round(EDGE_SHARE * p))), max(4, int(WINDOW_DEPTH * p))
    half_w = max(2.0, cw)
    windows: dict[Port, np.ndarray] = {}
    boxes: dict[Port, tuple[slice, slice]] = {}
    for side in SIDES:
        for pos in range(3):
            port = Port(side, pos)
            x, y = port_point(port, fractions)
            u = x * p if side in "NS" else y * p
            along = slice(int(round(u - half_w)), int(round(u + half_w)) + 1)
            if side == "N":
                box = (slice(depth0, depth1), along)
            elif side == "S":
                box = (slice(p - depth1, p - depth0), along)
            elif side == "W":
                box = (along, slice(depth0, depth1))
            else:
                box = (along, slice(p - depth1, p - depth0))
            win = np.zeros((p, p), bool)
            win[box] = True
            win.setflags(write=False)
            windows[port], boxes[port] = win, box
    return OpeningWindows(depth0, depth1, half_w, windows, boxes,
                    _away_from_openings(p, depth0, depth1, windows))


def judge_openings(at_sides: np.ndarray, dark: np.ndarray, usable: np.ndarray, w: OpeningWindows,
                   fractions: tuple[float, float, float], settings: ReaderSettings,
                   doubts: TileDoubts, *, seen_at: dict[Port, tuple[float, float]] | None = None,
                   faint: np.ndarray | None = None) -> tuple[set[Port], dict[Port, float]]:
    """The openings present: enough channel in the ``usable`` part of their window (away
    from the cells; ``at_sides``: the channel mask before the cells' surroundings are cut
    away, as a cell near a side leaves its channel only a short stub there). A second opinion
    from brightness alone (a channel is a dark stroke across the side, whatever its colour
    looks like after blur and compression) makes an opening doubtful. A share near the
    threshold caps the confidence: returned per opening position (below 1 only), for the
    neighbour's mirrored opening to settle (:mod:`vision.enigma.mirror`). ``seen_at``, when
    given, is filled with each position's share of channel in its window and its dark-stroke
    score (:func:`dark_openings`), for :func:`settled_by_own_evidence`. ``faint``, when
    given (:func:`faint_strokes`), is a third look at the positions read absent
    (:func:`_doubt_faint_strokes`)."""
    port_fraction: dict[Port, float] = {}
    usual = usual_side_share(at_sides, usable, w)
    for q, box in w.boxes.items():
        seen = usable[box]
        n_seen = int(np.count_nonzero(seen))
        # the mask holds 0 and 1 only: its mean is the count of ones over the pixels (the
        # same division numpy's mean makes after its exact float sum)
        f = (np.count_nonzero(at_sides[box][seen]) / n_seen if n_seen >= MIN_WINDOW_PX
             else 0.0)
        # a band of channel colour along the whole side (the gap to the next tile or the
        # table, when the square is cut a little off the tile) is no opening
        port_fraction[q] = max(0.0, f - usual[q.side]) / max(1e-6, 1.0 - usual[q.side])
        if seen_at is not None:
            seen_at[q] = (f, 0.0)
        if seen.size and n_seen < MIN_WINDOW_PX:
            doubts.ask_opening(q, "a cell hides the side there",
                          UNCLEAR_CONFIDENCE)
    present = {q for q, f in port_fraction.items() if f >= settings.port_min_fraction}
    _doubt_hidden_stubs(at_sides, usable, w, fractions, present, doubts)
    dark_scores = dark_openings(dark & usable, fractions, w.depth0, w.depth1, w.half_w, usable)
    for q, score in dark_scores.items():
        if seen_at is not None:
            seen_at[q] = (seen_at[q][0], score)
        lo, hi = UNCLEAR_OPENING
        if (score >= DARK_OPENING) != (q in present) or lo <= score < hi:
            doubts.ask_opening(q, UNCLEAR_STROKE, UNCLEAR_CONFIDENCE)
    if faint is not None:
        _doubt_faint_strokes(faint, usable, w, fractions,
                             {q for q, score in dark_scores.items()
                              if q not in present and score < UNCLEAR_OPENING[0]}, doubts)
    margins: dict[Port, float] = {}
    for q, f in port_fraction.items():
        cap = clip01(0.5 + abs(f - settings.port_min_fraction) / settings.port_min_fraction)
        if cap < 1.0:
            margins[q] = cap
    return present, margins


#: a faint stroke: darker than the tile by at least this share of the way to a channel's
#: brightness (the dark-stroke mask of :mod:`~vision.enigma.patch_labels` takes half of it),
#: or its colour at least this share of the way from the tile's to the channel's
FAINT_SHARE = 0.4
#: an opening position read absent, with no dark stroke, where a faint stroke crosses the
#: side's band at least this clearly (:func:`dark_openings` on the faint mask) is asked
FAINT_OPENING = 0.8


def faint_strokes(named: PatchLabels) -> np.ndarray:
    """Where a pixel is darker than the tile by :data:`FAINT_SHARE` of the way to a
    channel, or lies that share of the way from the tile's colour to the channel's (all
    features, brightness and chromaticity): a channel washed out by strong light keeps its
    stroke here, as neither channel colour nor dark. Glare may lift a channel's brightness
    back to the tile's while its chromaticity stays half way to the channel's (tuning
    independent harsh 5030 at 30-45 tiles, [1, 1] W0: features (43, 90, 50) against the
    tile's (61, 71, 52) and the channel's (25, 110, 45), named table, then tile by its
    brightness, on both tiles of that side)."""
    model = named.model
    tile = model.centres[model.index("tile")].astype(np.float32)
    channel = model.centres[model.index("channel")].astype(np.float32)
    toward = channel - tile
    way = (named.feats - tile) @ toward / float(toward @ toward)
    darker = named.feats[..., 2] < tile[2] - FAINT_SHARE * (tile[2] - channel[2])
    faint: np.ndarray = darker | (way >= FAINT_SHARE)
    return faint


def _doubt_faint_strokes(faint: np.ndarray, usable: np.ndarray, w: OpeningWindows,
                         fractions: tuple[float, float, float], absent: set[Port],
                         doubts: TileDoubts) -> None:
    """Ask about each position read ``absent`` (no channel colour, no dark stroke) where a
    faint stroke crosses the side's band: a channel washed out by strong light, lighter than
    both the channel colour and the dark-stroke mask expect, reaches the side there. On a
    side facing no tile nothing else would doubt it (tuning independent 25076 harsh [3, 2]:
    W0 read absent at 1.0, its channel to the side at 0.46 of the way from the tile's
    brightness to a channel's). The cue asks, it does not decide: on the tuning tables
    absences in truth show it too, most of them on tiles asked about anyway (figures in
    bench/figures/enigma_openwood_s25.txt)."""
    if not absent:
        return
    scores = dark_openings(faint & usable, fractions, w.depth0, w.depth1, w.half_w, usable)
    for q in sorted(absent, key=lambda q: (SIDES.index(q.side), q.position)):
        if scores[q] >= FAINT_OPENING and q not in doubts.openings:
            doubts.ask_opening(q, UNCLEAR_STROKE, UNCLEAR_CONFIDENCE)


#: a present opening near the threshold is settled by the tile's own evidence only where a
#: dark stroke crosses its side's band at least this clearly (:func:`dark_openings`)
FULL_DARK_STROKE = 0.95


def settled_by_own_evidence(margins: dict[Port, float], present: set[Port], ended: set[Port],
                            named: set[Port], seen_at: dict[Port, tuple[float, float]]
                            ) -> set[Port]:
    """The openings read present near the threshold that the tile's own pixels settle: a
    channel of the tile's own, joining a cell or another opening, ends at the opening
    (``ended``: a channel ends only at a cell or an opening), a dark stroke crosses the whole
    band there (the brightness view agrees with the colour one), no problem names it, and
    every position the tile reads absent shows no channel pixel and no dark stroke at all.
    The margin there is the table's channels drawn thinner than the pack's window expects
    (a share of a third of the window: census of independent clean 0-59, every such opening
    present in truth). The last condition keeps the margin on a tile whose sides are not
    seen cleanly: a channel lost at one position (glare, a shadow) leaves a trace there, and
    a margin elsewhere may be the tile's only question (tuning independent 5003 harsh
    [0, -1]: N1 lost, a trace of 0.045 in its window, N2 the only margin)."""
    if any(q not in present and (share > 0.0 or dark > 0.0)
           for q, (share, dark) in seen_at.items()):
        return set()
    return {q for q in margins if q in present and q in ended and q not in named
            and seen_at[q][1] >= FULL_DARK_STROKE}


def weak_openings(present: set[Port], seen_at: dict[Port, tuple[float, float]],
                  problems: list[str]) -> frozenset[Port]:
    """The openings read present with a dark stroke across the whole band
    (:data:`FULL_DARK_STROKE`) where the colour's share fell short (a thin channel, its
    colour washed into the tile), asked only because colour and darkness disagree
    (:data:`UNCLEAR_STROKE`): the neighbour's clear read of the mirrored opening settles
    them (:mod:`vision.enigma.mirror`). An absence asked so is never settled by a blank
    side beside it: glare washes a channel out on both tiles alike (tuning independent
    5030 harsh at 30-45 tiles, [1, 1] W0), and a faint stroke on one of them is all that
    is left of it."""
    out: set[Port] = set()
    for q in present:
        asked = [p for p in problems if p.startswith(opening_question(q))]
        if (asked and all(p.endswith(UNCLEAR_STROKE) for p in asked)
                and q in seen_at and seen_at[q][1] >= FULL_DARK_STROKE):
            out.add(q)
    return frozenset(out)


def faint_openings(present: set[Port], seen_at: dict[Port, tuple[float, float]]
                   ) -> set[Port]:
    """The positions read absent where the side still shows the channel: some channel
    pixels in the window (a share below the threshold) and a dark stroke across the whole
    band (:data:`FULL_DARK_STROKE`). On harsh frames blur, JPEG and a dim corner thin a
    channel's colour at the side while its darkness stays (tuning independent harsh 5007
    [0, 2] E2: share 0.24, dark 1.00, the channel from the tile's yellow cell to E2 then
    "ends without reaching a cell or a side"). Only a candidate: the tile's own channel must
    end there too (:func:`vision.enigma.tile.finish_tile`)."""
    return {q for q, (share, dark) in seen_at.items()
            if q not in present and share > 0.0 and dark >= FULL_DARK_STROKE}


def _doubt_hidden_stubs(at_sides: np.ndarray, usable: np.ndarray, w: OpeningWindows,
                        fractions: tuple[float, float, float], present: set[Port],
                        doubts: TileDoubts) -> None:
    """An opening found absent where a cell right at the side covers most of its window:
    the cell's channel to the side is a stub in the pixel or two between its rim and the
    cleared outer edge. Any channel left there is asked about, never read as no opening;
    so is a cell whose rim covers the window's outermost line at the opening's position:
    a blur there turns the whole stub into the cell's colour."""
    p = at_sides.shape[0]
    for q, box in w.boxes.items():
        covered = ~usable[box]
        if q in present or np.count_nonzero(covered) < HIDDEN_WINDOW_SHARE * covered.size:
            continue
        ex, ey = inward_point(q, fractions, (w.depth0 + 0.5) / p)
        at_edge = not usable[min(p - 1, int(ey * p)), min(p - 1, int(ex * p))]
        if at_edge or int(at_sides[box][covered].sum()) >= HIDDEN_STUB_PX:
            doubts.ask_opening(q, "a cell hides the side there",
                          UNCLEAR_CONFIDENCE)


def short_stub_openings(cells: list[Cell], present: set[Port], named: set[Port],
                         fractions: tuple[float, float, float], p: int, rc: float, cw: float
                         ) -> list[Port]:
    """The openings read absent where a cell's rim lies no more than a channel's width in
    from the side, straight in from the opening's position, anywhere across the stub's
    width (a stub a channel wide meets the rim off its middle line where the cell lies
    beside it: tuning independent table 3036 harsh, square [1, 2], E2 read absent, sure):
    a stub there would be a stroke no longer than it is wide, which a blur can merge wholly
    into the rim and the gap beside the tile. Such an absence is not clear: the neighbour's
    mirrored opening settles it, or it is asked (:mod:`vision.enigma.mirror`)."""
    out: list[Port] = []
    for side in SIDES:
        for position in range(3):
            q = Port(side, position)
            if q in present or q in named:
                continue
            if any(gap <= cw for gap in _rim_gaps(cells, q, fractions, p, rc, cw).values()):
                out.append(q)
    return out


def stub_cells(cells: list[Cell], absent: set[Port], fractions: tuple[float, float, float],
               p: int, rc: float, cw: float) -> dict[Port, int]:
    """Per opening position read absent with a doubt (``absent``), the one cell a stub from
    it would join: the only cell whose rim lies within :data:`STUB_REACH` channel widths of
    the side straight in from the position. There the stub is a stroke no longer than a
    channel or two between the rim and the tile's cleared edge, whose pixels the blur of the
    rim names neither channel nor cell (tuning independent tables 0, 1, 2, 7 clean: E0,
    E2, S0 read absent beside a neighbour that reads the mirrored opening clearly); a
    channel that ends there, at a cell, is how a tile draws an opening by a cell. The
    neighbour's read of the mirrored opening settles it (:mod:`vision.enigma.mirror`)."""
    out: dict[Port, int] = {}
    for q in absent:
        near = [i for i, gap in _rim_gaps(cells, q, fractions, p, rc, cw).items()
                if gap <= STUB_REACH * cw]
        if len(near) == 1:
            out[q] = near[0]
    return out


#: a cell whose rim lies within this many channel widths of a side, in from an opening
#: position, is the cell a stub from that opening joins (:func:`stub_cells`)
STUB_REACH = 2.0
#: such a stub is read present (and still asked, unless the neighbour settles it) where
#: the dark-stroke score crosses the side at least this clearly: the colour of a stub that
#: short blurs with the rim's, its darkness does not (tuning clean 0-19, the stubs read
#: absent with a doubt: present in truth at 1.00, absent at 0.00-0.40)
STUB_DARK_OPENING = 0.7


def _rim_gaps(cells: list[Cell], q: Port, fractions: tuple[float, float, float], p: int,
              rc: float, cw: float) -> dict[int, float]:
    """Per cell whose rim lies straight in from the opening position ``q`` (anywhere across
    a stub's width), the gap in pixels from the side to the rim."""
    x, y = port_point(q, fractions)
    ix, iy = inward_point(q, fractions, 1.0)
    nx, ny = ix - x, iy - y  # a unit step in from the side, square to it
    out: dict[int, float] = {}
    for i, c in enumerate(cells):
        dx, dy = c.centre[0] - x * p, c.centre[1] - y * p
        depth, along = dx * nx + dy * ny, abs(dx * ny - dy * nx)
        # the stub's edge nearest the cell's middle
        edge = max(0.0, along - cw / 2)
        if edge < rc:
            out[i] = depth - math.sqrt(rc * rc - edge * edge)
    return out


def usual_side_share(channel: np.ndarray, usable: np.ndarray, w: OpeningWindows
                    ) -> dict[str, float]:
    """Per side, the share of channel pixels across the side's band that its columns usually
    show (the median along the side, corners left out): what the whole side shows alike."""
    p = channel.shape[0]
    d0, d1 = w.depth0, w.depth1
    hit = (channel.astype(bool) & usable).astype(np.float32)
    ok = usable.astype(np.float32)
    cuts = {"N": (slice(d0, d1), slice(d1, p - d1), 0),
            "S": (slice(p - d1, p - d0), slice(d1, p - d1), 0),
            "W": (slice(d1, p - d1), slice(d0, d1), 1),
            "E": (slice(d1, p - d1), slice(p - d1, p - d0), 1)}
    out: dict[str, float] = {}
    for side, (rows, cols, axis) in cuts.items():
        n = ok[rows, cols].sum(axis=axis)
        shares = hit[rows, cols].sum(axis=axis)[n >= MIN_BAND_PX] / n[n >= MIN_BAND_PX]
        out[side] = float(median(shares)) if shares.size else 0.0
    return out


def has_stray_opening(channel: np.ndarray, w: OpeningWindows, cw: float) -> bool:
    """Whether a channel reaches a side away from the three opening positions (and the
    corners, where two sides' bands meet)."""
    stray = channel.astype(bool) & w.away
    return bool(stray.sum() > cw * (w.depth1 - w.depth0) * 0.6)


def _away_from_openings(p: int, depth0: int, depth1: int, windows: dict[Port, np.ndarray]
                        ) -> np.ndarray:
    """The sides' bands away from the opening positions (each window grown by two pixels)
    and from the corners (read-only)."""
    band = np.zeros((p, p), bool)
    band[depth0:depth1, :] = band[p - depth1 : p - depth0, :] = True
    band[:, depth0:depth1] = band[:, p - depth1 : p - depth0] = True
    for win in windows.values():
        band &= ~cv2.dilate(win.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    cc = depth1 + 1
    band[:cc, :cc] = band[:cc, -cc:] = band[-cc:, :cc] = band[-cc:, -cc:] = False
    band.setflags(write=False)
    return band


def opening_offset(channel: np.ndarray, fractions: tuple[float, float, float], depth0: int,
                    depth1: int, cw: float) -> tuple[float, float]:
    """Where the channels cross the sides, against the pack's three positions: the median
    shift in x (from the N and S sides) and in y (from E and W). Openings sit at fixed places
    on a tile, so a consistent shift means the square was cut a little off the tile."""
    p = channel.shape[0]
    wanted = [f * p for f in fractions]
    shifts: dict[str, list[float]] = {"x": [], "y": []}
    # per side, the columns across its band more than half channel (counted in integers:
    # the same as a mean above 0.5, and a list reads faster than an array, pixel by pixel)
    rows = depth1 - depth0
    bands = {"N": channel[depth0:depth1, :].sum(axis=0),
             "S": channel[p - depth1:p - depth0, :].sum(axis=0),
             "W": channel[:, depth0:depth1].sum(axis=1),
             "E": channel[:, p - depth1:p - depth0].sum(axis=1)}
    for side, counts in bands.items():
        on = (2 * counts > rows).tolist()
        k = 0
        while k < p:
            if not on[k]:
                k += 1
                continue
            j = k
            while j < p and on[j]:
                j += 1
            width = j - k
            if 0.5 * cw <= width <= 2.5 * cw:
                centre = (k + j - 1) / 2
                near = min(wanted, key=lambda w: abs(w - centre))
                if abs(centre - near) <= 0.11 * p:
                    shifts["x" if side in "NS" else "y"].append(centre - near)
            k = j
    return (float(median(shifts["x"])) if shifts["x"] else 0.0,
            float(median(shifts["y"])) if shifts["y"] else 0.0)


def dark_openings(dark: np.ndarray, fractions: tuple[float, float, float], depth0: int,
                   depth1: int, half_w: float, usable: np.ndarray | None = None
                   ) -> dict[Port, float]:
    """Per opening position, how clearly a dark stroke crosses the side there (0 none, 1 a
    channel's full depth): the share of dark pixels across the side's band (of its
    ``usable`` pixels: a cell near the side hides the rest), at its darkest column near the
    position, above the side's usual share (the gap to the next tile, seen when the square is
    cut a little off the tile, darkens a whole side alike)."""
    p = dark.shape[0]
    ok = np.ones_like(dark, bool) if usable is None else usable
    hit = (dark & ok).astype(np.float32)
    seen = ok.astype(np.float32)

    def share(a: np.ndarray, b: np.ndarray, axis: int) -> np.ndarray:
        n = b.sum(axis=axis)
        out: np.ndarray = np.where(n >= MIN_BAND_PX, a.sum(axis=axis) / np.maximum(n, 1), 0.0)
        return out

    bands = {"N": share(hit[depth0:depth1, :], seen[depth0:depth1, :], 0),
             "S": share(hit[p - depth1:p - depth0, :], seen[p - depth1:p - depth0, :], 0),
             "W": share(hit[:, depth0:depth1], seen[:, depth0:depth1], 1),
             "E": share(hit[:, p - depth1:p - depth0], seen[:, p - depth1:p - depth0], 1)}
    out: dict[Port, float] = {}
    for side, profile in bands.items():
        usual = float(median(profile[depth1:p - depth1]))
        for pos in range(len(fractions)):
            # positions run clockwise: along S and W they count from the far end
            x, y = port_point(Port(side, pos), fractions)
            u = (x if side in "NS" else y) * p
            a, b = max(0, int(round(u - half_w))), min(p, int(round(u + half_w)) + 1)
            out[Port(side, pos)] = clip01(profile[a:b].max() - usual) \
                / max(1e-6, 1.0 - usual)
    return out
