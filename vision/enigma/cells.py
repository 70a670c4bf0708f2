"""Enigma reader, one tile's power cells: found in the colour labels of the straightened patch
(:func:`find_cells`), with the small geometry both cells and networkers use. See
:mod:`vision.enigma.tile`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.enigma.colours import ColourModel
from vision.enigma.pack import EnigmaPack
from vision.enigma.small_stats import clip01, median


@lru_cache(maxsize=8)
def _grid(shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Pixel rows (a column) and columns (a row) of a patch (cached: every tile's patch has
    the same size)."""
    ys = np.arange(shape[0], dtype=np.float32)[:, None]
    xs = np.arange(shape[1], dtype=np.float32)[None, :]
    return ys, xs


def disc(shape: tuple[int, int], centre: tuple[float, float], radius: float) -> np.ndarray:
    """A boolean mask of the pixels within ``radius`` of ``centre`` (squared distances along
    each axis once, added by broadcasting: the same float32 sums as over whole grids)."""
    ys, xs = _grid(shape)
    mask: np.ndarray = ((xs - centre[0]) ** 2 + (ys - centre[1]) ** 2) <= radius**2
    return mask


def member_mask(labels: np.ndarray, members: list[int]) -> np.ndarray:
    """Where ``labels`` (non-negative integers) is one of ``members`` (a table look-up per
    pixel: ``np.isin`` sorts, and is slow on a tile's small patch)."""
    table = np.zeros(max(int(labels.max()), *members, 0) + 1, bool)
    table[members] = True
    mask: np.ndarray = table[labels]
    return mask


def margin_conf(d_best: float, d_second: float) -> float:
    """1.0 when the best class is much nearer than the second, 0 when equally near."""
    if d_second <= 0:
        return 0.0
    return clip01((math.sqrt(d_second) - math.sqrt(d_best)) / max(math.sqrt(d_second), 1e-6)
                  / 0.35)


#: the fewest pixels of a cell's own colour, a pixel in from its edges, to judge its colour by
CORE_MIN = 6
#: the colour confidence of a cell whose ring is nearest another cell colour than it was
#: found as
RING_DISAGREES_CONFIDENCE = 0.3
#: a piece of a cell colour too small for a cell, this share of a ring's area or more, beside
#: a dark pawn: a dark pawn seen from the side hides all its cell but a sliver
SLIVER_SHARE = 0.1
#: ... within this many cell radii of the sliver, this share of a pawn's disc darker than
#: midway between the channels and the darkest pawn (a channel's blurred ink shows none)
SLIVER_REACH = 1.3
DARK_PAWN_SHARE = 0.6
#: the confidence a sliver beside a pawn leaves: the cell under it is asked about
SLIVER_CONFIDENCE = 0.3
#: a cell is a disc of its colour, or a ring of it round a pawn: together they fill the disc,
#: and at least :data:`CORE_MIN` of their pixels within this many cell radii lie a pixel in
#: from their edges. A channel blurred into the tile takes a cell's colour along its rims
#: (a brown channel on cream tile looks yellow there), in strokes a pixel or two wide only
#: (tuning independent tables 1012, 1015 and 1024 harsh: such rims, where channels meet or
#: run side by side, read as sure yellow cells)
BODY_REACH = 1.2
#: the confidence a cell of thin strokes only leaves: asked about, never read as sure
THIN_CELL_CONFIDENCE = 0.3
#: a run of a cell's colour longer than a cell whose pixels round the cell found in it lie
#: in a band no wider than this many channel widths is a stroke, asked like thin strokes
#: (:func:`_is_a_stroke`): a channel's core is narrower than the channel, a cell (or the
#: ring round its pawn) wider. Census of such runs on tuning harsh tables (see
#: bench/figures/enigma_stroke_cells_s22.txt): the channels' cores read as sure cells spread
#: 0.92 and 1.14 px across the run (1.29 px in another cut of the second), those on tiles
#: read right and sure 2.06 px and more (the threshold 1.48 px at 64 px a tile)
STROKE_BAND = 1.0
#: a blob of the icons' colour this many cell discs in area, within this many cell radii of
#: its middle and filling this share of that circle, is a disc, not an icon's strokes (the
#: demo icons fit in a square 0.13 of a tile wide: at most 0.45 of a cell's disc)
ICON_DISC_AREA = (0.6, 1.6)
ICON_DISC_RADIUS = 1.3
ICON_DISC_FILL = 0.6
#: a cell as read whose own colour fills less than this share of its disc is an arc of a
#: ring, the rest hidden by the pawn on it (read as tile or channel ink): its centre lies
#: towards the arc, on the ring, not at the cell's middle. Whole cells fill 0.7 and more on
#: clean tables; the arcs of rings split by a pawn 0.17-0.31 (tuning any-tile tables 7009
#: and 14004 harsh)
WHOLE_CELL_FILL = 0.5
_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))

#: two cells' centres closer than this many cell radii mean their discs overlap (two
#: touching cells lie two radii apart; the rest allows for the error of a centre)
OVERLAP = 1.6
#: ... and an arc of a ring (:func:`~vision.enigma.cells.fills_its_disc`) has its centre
#: pulled towards the arc, up to a radius off the cell's middle: two cells closer than two
#: touching ones, one of them an arc, are one cell its pawn split (tuning any-tile table
#: 14004 harsh, square [1, 3]: a black pawn read as channel ink split a yellow cell into two
#: arcs 1.62 radii apart, read sure as two cells)
ARC_OVERLAP = 2.0
#: ... and two arcs, each up to a radius off the middle of the one cell they may share, lie up
#: to two radii apart, and the centres' error on top (the 0.4 radii OVERLAP allows): the same
#: table 14004 drawn by the Pi floor's numpy 1.24 and OpenCV 4.10 splits that cell into two
#: arcs 2.06 radii apart, read sure as two cells
ARCS_OVERLAP = 2.4


@dataclass(frozen=True)
class Cell:
    """A power cell as read: its centre in patch pixels, colour, and the networker on it."""

    centre: tuple[float, float]
    colour: str
    confidence: float
    networker: str | None = None
    net_confidence: float = 1.0
    #: a cell under a pawn whose colour its ring tells but not its place: where it may lie
    #: (:func:`~vision.enigma.ring_places.ring_places`), the first where it is put; the tile
    #: settles it only when its links agree at them all (:func:`vision.enigma.tile.finish_tile`)
    places: tuple[tuple[float, float], ...] = ()


def _ring_pieces(lab: np.ndarray, stats: np.ndarray, cents: np.ndarray, n: int, rc: float
                 ) -> list[list[int]]:
    """The pieces of one cell colour grouped into cells. A pawn on a cell can break the
    cell's ring into arcs: pieces that fit together in one cell's circle are one cell (two
    cells' pixels never do); arcs on opposite sides of a ring lie almost a cell's diameter
    apart."""
    pieces = [k for k in range(1, n) if stats[k, cv2.CC_STAT_AREA] >= 3]
    groups: list[list[int]] = []
    points: list[np.ndarray] = []
    for k in sorted(pieces, key=lambda k: -stats[k, cv2.CC_STAT_AREA]):
        ys, xs = np.nonzero(lab == k)
        pts = np.column_stack([xs, ys]).astype(np.float32)
        for g, group in enumerate(groups):
            near = math.hypot(cents[k][0] - cents[group[0]][0],
                              cents[k][1] - cents[group[0]][1]) < 2.2 * rc
            if near and cv2.minEnclosingCircle(np.vstack([points[g], pts]))[1] <= 1.4 * rc:
                group.append(k)
                points[g] = np.vstack([points[g], pts])
                break
        else:
            groups.append([k])
            points.append(pts)
    return groups


def _colour_confidence(centre: tuple[float, float], any_cell: np.ndarray, feats: np.ndarray,
                       model: ColourModel, cell_classes: list[int], rc: float, rn: float,
                       found_as: int, pawns: np.ndarray | None) -> float:
    """Colour confidence from the median colour of the cell's own pixels (of any cell
    colour, so a cell half one colour, half another stays doubtful), a pixel in from their
    edges: the blur there mixes in the tile and a pawn's rim. A cell found as one colour
    whose own ring is nearest another (a pawn of a cell colour standing on a cell of
    another, its rim showing round the pawn) cannot be vouched for. The middle, where a pawn
    would stand, is left out only when pixels of a player colour (``pawns``; None: not told)
    lie there: a ring a cell's edge wide, a pixel in from both its edges, keeps too few
    pixels, and the disc that stands in for it is blurred with the tile (census of harsh
    5000-5039, s31: 416 of 417 red cells judged on that disc, the warm light and the cream
    tile putting 220 below the threshold, 101 nearer yellow, 0.30: the largest class of
    right tiles asked there)."""
    p = any_cell.shape[0]
    ringmask = disc((p, p), centre, rc * 1.3)
    if pawns is None or (pawns & disc((p, p), centre, rn * 1.15)).sum() >= CORE_MIN:
        ringmask &= ~disc((p, p), centre, rn * 1.15)
    core = cv2.erode((any_cell & ringmask).astype(np.uint8), _CROSS).astype(bool)
    if core.sum() < CORE_MIN:
        core = disc((p, p), centre, rc * 0.95) & ~disc((p, p), centre, rn * 1.15)
    med = median(feats[core], axis=0)
    d = ((model.centres - med) ** 2).sum(axis=1)
    nearest = min(cell_classes, key=lambda i: float(d[i]))
    if model.names[nearest] != model.names[found_as]:
        return RING_DISAGREES_CONFIDENCE
    cell_d = sorted(float(d[i]) for i in cell_classes)
    return margin_conf(cell_d[0], cell_d[1] if len(cell_d) > 1 else 1e9)


def find_cells(
    labels: np.ndarray, feats: np.ndarray, model: ColourModel, pack: EnigmaPack,
    pawns: np.ndarray | None = None,
) -> tuple[list[Cell], list[str], float]:
    """The power cells in a patch's colour ``labels`` (networker classes left out), with the
    problems seen and the confidence they leave. Networkers are read afterwards; ``pawns``
    (the pixels of a player colour, when known) fill a cell's disc with its own colour."""
    p = labels.shape[0]
    problems: list[str] = []
    conf = 1.0
    rc = pack.cell_radius * p
    rn = pack.networker_radius * p
    cells: list[Cell] = []
    slivers: list[tuple[float, float]] = []
    cell_classes = [i for i, k in enumerate(model.kinds) if k == "cell"]
    any_cell = model.kind_mask(labels, ("cell",))
    # a pawn of a cell's colour on a cell of another reads as that colour: the cell's body too
    body = _inner_pixels(any_cell if pawns is None else any_cell | pawns)
    for ci in cell_classes:
        mask = (labels == ci).astype(np.uint8)
        if not cv2.countNonZero(mask):
            continue  # no pixel of this colour: no cell of it (and no labelling to pay for)
        n, lab, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
        for group in _ring_pieces(lab, stats, cents, n, rc):
            area = sum(int(stats[k, cv2.CC_STAT_AREA]) for k in group)
            ring = math.pi * (rc**2 - rn**2)
            if area < SLIVER_SHARE * ring:
                continue
            member = member_mask(lab, group)
            ys, xs = np.nonzero(member)
            (ex, ey), radius = cv2.minEnclosingCircle(np.column_stack([xs, ys]).astype(np.float32))
            if area < 0.3 * ring or radius < 0.55 * rc:
                slivers.append((float(xs.mean()), float(ys.mean())))
                continue
            centre, stroke = (float(ex), float(ey)), False
            if radius > 1.15 * rc:
                centre, touching, stroke = _wider_than_a_cell(member, pawns, rc,
                                                              pack.channel_width * p)
                if touching:
                    problems.append("two cells of one colour touch, or a cell is misread")
                    conf = min(conf, 0.3)
            doubt = _body_doubt(str(model.names[ci]), body, labels == ci, pawns, centre, rc,
                                stroke)
            if doubt:
                problems.append(doubt)
                conf = min(conf, THIN_CELL_CONFIDENCE)
            colour_conf = _colour_confidence(centre, any_cell, feats, model, cell_classes, rc, rn,
                                             ci, pawns)
            cells.append(Cell(centre, str(model.names[ci]), colour_conf))
    for centre, ci in _discs_of_icon_colour(labels, feats, model, cells, rc):
        problems.append(f"is there a {model.names[ci]} cell? it shows in the colour of the "
                        "category icons")
        conf = min(conf, THIN_CELL_CONFIDENCE)
        cells.append(Cell(centre, str(model.names[ci]), THIN_CELL_CONFIDENCE))
    if _sliver_by_pawn(slivers, cells, feats, model, rc, rn):
        problems.append("a networker stands where no cell was read: is a cell hidden?")
        conf = min(conf, SLIVER_CONFIDENCE)
    return cells, problems, conf


def _wider_than_a_cell(member: np.ndarray, pawns: np.ndarray | None, rc: float, cw: float
                       ) -> tuple[tuple[float, float], bool, bool]:
    """A cell's colour over more than one cell's circle: a blurred channel's rim in the
    cell's colour may trail off it (thin), or a second cell touches it (a cell's area), or it
    is no cell but a channel's core in the cell's colour (a stroke). Returns the densest
    cell's centre, whether a second cell's area lies beyond it, and whether it is a stroke."""
    p = member.shape[0]
    centre = _densest_cell(member, rc)
    beyond = member & ~disc((p, p), centre, 1.4 * rc)
    touching = bool(beyond.sum() > 0.35 * math.pi * rc * rc)
    stroke = _is_a_stroke(member if pawns is None else member | pawns, centre, rc, cw)
    return centre, touching, stroke


def _discs_of_icon_colour(labels: np.ndarray, feats: np.ndarray, model: ColourModel,
                          cells: list[Cell], rc: float) -> list[tuple[tuple[float, float], int]]:
    """Filled discs a cell wide in the icons' colour, away from the cells found, with the
    cell colour nearest their own: a category icon is strokes in a square smaller than a
    cell (:data:`ICON_DISC_AREA`), so such a disc is a cell whose colour the light shifted
    towards the icons' (tuning independent table 6003 harsh, square [2, 1]: a pale blue
    cell labelled icon, the tile read sure without it)."""
    icon = model.kind_mask(labels, ("icon",)).astype(np.uint8)
    if not cv2.countNonZero(icon):
        return []
    cell_classes = [i for i, k in enumerate(model.kinds) if k == "cell"]
    disc_area = math.pi * rc * rc
    found: list[tuple[tuple[float, float], int]] = []
    n, lab, stats, _ = cv2.connectedComponentsWithStats(icon, connectivity=8)
    for k in range(1, n):
        area = int(stats[k, cv2.CC_STAT_AREA])
        if not ICON_DISC_AREA[0] * disc_area <= area <= ICON_DISC_AREA[1] * disc_area:
            continue
        ys, xs = np.nonzero(lab == k)
        (ex, ey), radius = cv2.minEnclosingCircle(np.column_stack([xs, ys]).astype(np.float32))
        if radius > ICON_DISC_RADIUS * rc or area < ICON_DISC_FILL * math.pi * radius * radius:
            continue
        centre = (float(ex), float(ey))
        if any(math.dist(centre, c.centre) < 2 * rc for c in cells):
            continue
        core = cv2.erode((lab == k).astype(np.uint8), _CROSS).astype(bool)
        med = median(feats[core if core.sum() >= CORE_MIN else lab == k], axis=0)
        nearest = min(cell_classes,
                      key=lambda i: float(((model.centres[i] - med) ** 2).sum()))
        found.append((centre, nearest))
    return found


def fills_its_disc(labels: np.ndarray, model: ColourModel, cell: Cell, rc: float) -> bool:
    """Whether the cell's own colour (in ``labels``) fills :data:`WHOLE_CELL_FILL` of its
    disc as read: a cell, or a ring round its pawn, not an arc of a ring a pawn broke."""
    within = disc(labels.shape[:2], cell.centre, rc)
    own = labels == model.index("cell", cell.colour)
    return int((own & within).sum()) >= WHOLE_CELL_FILL * int(within.sum())


def _inner_pixels(mask: np.ndarray) -> np.ndarray:
    """The pixels of ``mask`` a pixel in from its edges."""
    inner: np.ndarray = cv2.erode(mask.astype(np.uint8), _CROSS).astype(bool)
    return inner


def _body_doubt(name: str, body: np.ndarray, own: np.ndarray, pawns: np.ndarray | None,
                centre: tuple[float, float], rc: float, stroke: bool) -> str | None:
    """The question a cell found as ``name`` at ``centre`` leaves when its colour (``own``)
    shows there no cell's body: only thin strokes (or a channel's core, ``stroke``), or
    scattered pixels with no networker among them (:func:`_neither_disc_nor_ring`)."""
    if stroke or not _has_body(body, centre, rc):
        return (f"is there a {name} cell? only thin strokes of its colour show there, as "
                "along a channel's edge")
    if pawns is not None and _neither_disc_nor_ring(own, pawns, centre, rc):
        return (f"is there a {name} cell? its colour shows only in specks there, as where "
                "channels meet")
    return None


def _neither_disc_nor_ring(own: np.ndarray, pawns: np.ndarray, centre: tuple[float, float],
                           rc: float) -> bool:
    """Whether a cell's colour (``own``) fills less than :data:`WHOLE_CELL_FILL` of the disc
    round ``centre`` with no pawn in it (fewer than :data:`CORE_MIN` pixels of a player
    colour, ``pawns``): a cell fills its disc, a pawn leaves a ring of it or an arc round
    the pawn's own pixels; specks of it among channel ink are the ink tinted where channels
    meet and widen (tuning independent tables 9003 and 10006 harsh, squares [2, -1] and
    [1, 0]: junctions of bare channels read as sure yellow cells filling 0.21-0.22 of the
    disc with no pixel of a player colour, one with a white pawn judged on it; the cells
    read right on harsh 5000-5039 and clean 0-19 show 7 pixels of a pawn and more wherever
    their colour fills less than half the disc)."""
    within = disc(own.shape, centre, rc)
    return (int((own & within).sum()) < WHOLE_CELL_FILL * int(within.sum())
            and int((pawns & within).sum()) < CORE_MIN)


def _has_body(body: np.ndarray, centre: tuple[float, float], rc: float) -> bool:
    """Whether enough of the ``body`` pixels (of a cell colour or a pawn, a pixel in from
    their edges) lie round ``centre`` for a cell, not only strokes of its colour."""
    return int((body & disc(body.shape, centre, BODY_REACH * rc)).sum()) >= CORE_MIN


def _is_a_stroke(body: np.ndarray, centre: tuple[float, float], rc: float, cw: float
                 ) -> bool:
    """Whether the pixels of a cell's colour that run on beyond one cell's circle (with
    the pawns', ``body``) lie, round the cell found among them, in a band narrower than a
    channel: the core of a channel blurred to the cell's colour, its rims labelled channel
    (tuning independent table 20015 harsh, square [0, 1]: an ochre channel's core read as a
    yellow cell 3 px wide, 34 px long). A cell with such trails fills its disc, or rings
    its pawn, round the centre: its pixels spread across every way."""
    ys, xs = np.nonzero(body & disc(body.shape, centre, BODY_REACH * rc))
    if len(xs) < 3:
        return False
    least = float(np.linalg.eigvalsh(np.cov(np.vstack([xs, ys]).astype(np.float64)))[0])
    # a straight band w wide spreads w / sqrt(12) across its axis
    return math.sqrt(max(least, 0.0)) < STROKE_BAND * cw / math.sqrt(12.0)


def _sliver_by_pawn(slivers: list[tuple[float, float]], cells: list[Cell], feats: np.ndarray,
                    model: ColourModel, rc: float, rn: float) -> bool:
    """Whether a sliver of a cell colour, away from every cell found, lies beside a pawn
    darker than any channel: a black pawn seen from the side covers its cell but for a
    crescent, and the pawn alone reads as a channel's ink (tuning independent tables 56 and
    90 harsh: a red and a blue cell lost under black pawns, the tile read sure without
    them)."""
    away = [s for s in slivers if all(math.dist(s, c.centre) >= 2 * rc for c in cells)]
    pawns = [i for i, k in enumerate(model.kinds) if k == "net"]
    if not away or not pawns:
        return False
    channel = model.centres[model.index("channel"), 2]
    darkest = min(float(model.centres[i, 2]) for i in pawns)
    if darkest >= channel:
        return False  # no pawn darker than the channels: this sign cannot be seen
    very_dark = feats[..., 2] < 0.5 * (channel + darkest)
    least = DARK_PAWN_SHARE * math.pi * rn * rn
    shape = very_dark.shape[:2]
    return any(int((very_dark & disc(shape, s, SLIVER_REACH * rc)).sum()) >= least
               for s in away)


def _densest_cell(member: np.ndarray, rc: float) -> tuple[float, float]:
    """Where a disc of a cell's radius covers the most of ``member``: the cell's centre
    when thin trails of its colour hang off it (their pixels would pull a fitted circle)."""
    k = int(math.ceil(rc))
    yy, xx = np.mgrid[-k : k + 1, -k : k + 1]
    kernel = ((xx * xx + yy * yy) <= rc * rc).astype(np.float32)
    cover = cv2.filter2D(member.astype(np.float32), -1, kernel, borderType=cv2.BORDER_CONSTANT)
    ys, xs = np.nonzero(cover >= 0.97 * cover.max())
    return float(xs.mean()), float(ys.mean())


def discs_overlap(a: Cell, b: Cell, rc: float, a_whole: bool, b_whole: bool) -> bool:
    """Whether cells ``a`` and ``b`` lie too near to be two printed cells (:data:`OVERLAP`,
    :data:`ARC_OVERLAP`, :data:`ARCS_OVERLAP`); ``a_whole``, ``b_whole``: whether each fills
    its disc (an arc's centre lies off its cell's middle)."""
    reach = (OVERLAP, ARC_OVERLAP, ARCS_OVERLAP)[(not a_whole) + (not b_whole)]
    return math.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]) < reach * rc
