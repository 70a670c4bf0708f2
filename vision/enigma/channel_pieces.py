"""Enigma reader, a tile's channel pieces: each piece's stroke, the cells and openings it
joins (:func:`piece_links`), the doubts it raises, the joins the picture leaves open
(:class:`Joins`), and the short stubs from an opening into a cell beside it
(:func:`stub_links`). See :mod:`vision.enigma.tile`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.enigma.tiles import SIDES, Endpoint, Port, Tile
from vision.enigma.cells import Cell, disc
from vision.enigma.crossings import may_cross
from vision.enigma.layout import port_point
from vision.enigma.networkers import PAWN_IN_HOLE_PX
from vision.enigma.openings import OpeningWindows
from vision.enigma.pack import EnigmaPack
from vision.enigma.skeleton import endpoints, skeletonize
from vision.enigma.tile_doubts import (
    DOUBTFUL_CONFIDENCE,
    HIDDEN_CONFIDENCE,
    UNCLEAR_CONFIDENCE,
    TileDoubts,
)

#: a piece of channel smaller than this many channel widths squared is noise
MIN_PIECE = 0.6
#: a piece thinner than this share of the channel width is a sliver (an edge line, a shadow)
MIN_PIECE_WIDTH = 0.6
#: a hole in a piece larger than this share of a pawn's disc is something round on it
ROUND_HOLE = 0.25
#: a piece of channel as wide as this many cell radii somewhere holds something round
ROUND_BLOB = 0.85
#: a hole in a piece no larger than this many cell discs is where something round stands on
#: it (a pawn on a cell the picture took for channel ink): the piece is as wide as if the
#: hole were filled. A loop of channels closes in more tile than that
PAWN_HOLE_CELLS = 1.0
#: a hole in a piece holding this many pixels of a colour only a cell or a pawn shows holds
#: a cell (a pawn's middle is as many: networkers.PAWN_IN_HOLE_PX)
CELL_SIGN_PX = PAWN_IN_HOLE_PX
#: a spot of touching pixels of such a colour on a piece itself, as large as this share of
#: a pawn's disc, is a cell's or a pawn's: noise on the ink makes smaller spots
#: (:func:`_spot_of_a_cell`)
CELL_SPOT = 0.1
#: the channels are cut this many cell radii round each cell (its dark outline is no channel)
CHANNEL_CUT = 1.3
#: a piece reaching within this many pixels of that cut runs into the cell (the cut's own
#: rounding); one that comes no nearer than the contact ring only passes close by
CUT_REACH_PX = 1.0
#: a piece the cut ended has pixels within this many pixels of the cut's edge; one that
#: only touches the cut's reach, a pixel off, must end at the cell to run into it
CUT_EDGE_PX = 0.5
#: ... and the contact ring: pixels past the cut within which a piece may have touched the
#: cell under blur
CONTACT_SLACK_PX = 2.5
#: a piece the cut round a cell with a pawn on it ended, with no stroke end at the cell,
#: runs into the cell only when its stroke turns away from the cell there (two channels
#: meeting at the cell, their joint cut off, leave a V whose arms leave the cell): the
#: skeleton this far on (pixels) from where it comes nearest the cell lies a median of at
#: least PASS_RISE_PX farther from the cell. A pawn hides the cell's middle, which is read a
#: pixel or two off, so a channel of another network running past the cell, its side within
#: the cut under blur, runs along the cell and rises less: a join to choose, asked (tuning
#: independent table 2019 harsh, square [-1, 1]: such a channel read joined to a yellow cell
#: under a green pawn, sure). On a cell with no pawn, true joins rise less too (a branch into
#: the cell cut away, harsh tuning 2000-2010: seven such sure right reads), and its middle
#: is read where it lies: the cut is trusted there
PASS_SPAN_PX = (4.5, 6.5)
PASS_RISE_PX = 2.5
#: a channel that runs into a cell meets the cut across its width: the piece's pixels within
#: CONTACT_BAND_PX of where it comes nearest the cell span at least LEAST_CONTACT channel
#: widths round the cell. A stroke that runs past the cell with no end of its own there and
#: touches it over less is the corner of a channel passing by, bent or curving away (tuning
#: independent table 19015 clean, square [2, -3]: a channel from a blue cell to E2 bending
#: past a red cell touched the cut over 0.27 channel widths and was read as a link blue -
#: red, sure). Census of the cells such strokes reach (98, every look of every square) on
#: tuning independent clean 0-28 and 19000-19019, harsh 5000-5019, any-tile clean 0-15 and
#: harsh 7000-7015: on tiles read right and sure 0.81 channel widths and more, right and
#: asked 0.61 and more (bench/figures/enigma_false_link_s23.txt)
CONTACT_BAND_PX = 1.0
LEAST_CONTACT = 0.5
#: a piece that comes no nearer a cell than the contact ring, with no end at it, passes it
#: by when its pixels within this many channel widths of where it comes nearest face only
#: tile colour between the cell's rim and its cut: no channel colour, no dark stroke. A
#: pawn on the cell hides its middle (read a pixel or two off), so there the join stays a
#: choice. Census (session 30, scratch ninst.py) of the pieces asked "passes close to a
#: cell": independent clean tuning 0-19, 14 tiles, all read right; the 11 on cells with no
#: pawn faced only tile colour (gap to the rim 0.66-0.90 channel widths), none joined in
#: truth. Harsh 5000-5039 and 6000-6019: the 11 pieces asked so and joined in truth all
#: stood by a pawn's cell; the 16 settled by this rule are joined in no truth
PASS_GAP_BAND = 0.5
#: a piece the cut round a cell with a pawn on it ended, with no stroke end at the cell and
#: not running past it (the V of :data:`PASS_RISE_PX`), is sure to run into the cell only
#: when it meets the cut across a whole channel's width (a channel ending at the cell meets
#: it so; a V of two, more): less may be the side of a channel bending close by, grazing the
#: pawn's blurred edge (tuning independent table 6002 harsh at 30-45 tiles, square [-4, -3]:
#: a channel N2-W2 turning past a blue cell under a black pawn touched the cut over 0.71
#: channel widths and was read joined to the cell, sure). Such a join is still read (most
#: are Vs: census of such joins on harsh tuning 5000-5039 and 6000-6009, scratch
#: vcensus.py, 33 seen, the exact ones 1.06 channel widths and more but two, 0.60 and 0.79)
#: but asked, when the piece has two ends without the cell
V_CONTACT = 1.0
#: ... and, as wide or wider, when its stroke runs along the cell where it comes nearest (its
#: arms, :data:`PASS_SPAN_PX` on, leave that point this many radians apart or more: a V into
#: a cell opens less) and touches the cut no wider than a straight stroke tangent to it would
#: (:func:`_tangent_contact`): the side of a channel bending past the pawn's cell, its convex
#: side towards it (tuning independent table 9017 harsh, square [0, 1]: a channel N1-W1 bending
#: past a red cell under a black pawn touched the cut over 1.27 channel widths, its arms 2.63
#: apart, read joined to the cell, sure). A channel passing the cell with a branch into it
#: cut away touches it wider, the branch's stump and all. Census of the pawns' cells the cut
#: alone reached (scratch census2.py, clean 0-19, harsh 5000-5039 and 9000-9099), arms 2.36
#: apart or more: joined in truth, touching 1.76 widths and more but one (9047 [-1, 1], 1.17,
#: asked already), the bend 1.27; a tangent stroke there touches 1.69
ALONG_SPREAD = 0.75 * math.pi
#: a skeleton end of a channel that runs into a cell lies within the cut, a channel's width
#: and this many pixels of blur from the cell's centre...
END_SLACK_PX = 3.0
#: ... and, where the channel is a stub from an opening beside the cell, within the cut,
#: half a channel's width (the skeleton stops that short of a stroke's end) and this many
#: pixels
STUB_END_SLACK_PX = 1.5
#: a stub of channel from an opening ends at a cell when it comes within this many cell
#: radii of the cell's centre (its rim, the blur and a pixel of the cut)
STUB_REACH = 1.3
#: a shred of a cell's rim left outside the cut is this much longer than wide, and its long
#: axis lies across the way out from the cell (the cosine between them below this)
RIM_ELONGATION = 2.0
RIM_ALONG = 0.5
#: the most joins left to choose (each close cell joined or not) whose structures are given
#: for a catalogue to settle; more is asked
MAX_JOIN_CHOICES = 3


@dataclass(frozen=True)
class _Stroke:
    """A channel piece's skeleton, made once: the piece's bounding box (x0, y0 its corner),
    the piece and its skeleton cut to it, and the skeleton's ends (patch pixels)."""

    x0: int
    y0: int
    crop: np.ndarray
    skeleton: np.ndarray
    ends: list[tuple[int, int]]

    @classmethod
    def of(cls, piece: np.ndarray, box: tuple[int, int, int, int]) -> _Stroke:
        x0, y0, width, height = box
        crop = piece[y0:y0 + height, x0:x0 + width]
        sk = skeletonize(crop)
        return cls(x0, y0, crop, sk, [(ex + x0, ey + y0) for ex, ey in endpoints(sk)])

    def stops(self, cw: float) -> list[tuple[int, int]]:
        """Where the stroke stops: its skeleton's ends; a stroke no longer than a channel
        is wide (a stub between a cell and the side beside it) thins to a dot or a clump
        with no end, and stops wherever that lies."""
        if self.ends:
            return self.ends
        ys, xs = np.nonzero(self.skeleton)
        if xs.size and max(int(np.ptp(xs)), int(np.ptp(ys))) <= cw:
            return [(int(x) + self.x0, int(y) + self.y0) for x, y in zip(xs, ys, strict=True)]
        return []


def _at_side(end: tuple[int, int], p: int, w: OpeningWindows, cw: float,
             opening_points: list[tuple[float, float]]) -> bool:
    """Whether a skeleton end lies at one of the openings a piece reaches (unit-tile
    ``opening_points``: channels leave a tile only there) or on a side's very edge (a band
    along it: the gap to the next tile)."""
    gx, gy = end
    return (min(gx, gy, p - 1 - gx, p - 1 - gy) <= w.depth0 + cw / 2 + 1
            or any(math.hypot(gx - px * p, gy - py * p) <= w.depth1 + 2
                   for px, py in opening_points))


def _end_reach(rc: float, cw: float) -> float:
    """How far from a cell's centre a skeleton end of a channel running into the cell lies
    at most: the cut round the cell, a channel's width, and the blur."""
    return rc * CHANNEL_CUT + cw + END_SLACK_PX


def _holes(mask: np.ndarray) -> list[np.ndarray]:
    """The outlines of the holes in a piece (``mask``, 0/1)."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    return [c for c, h in zip(contours, hierarchy[0], strict=True) if h[3] >= 0]


def _hole_mask(shape: tuple[int, ...], hole: np.ndarray) -> np.ndarray:
    """The pixels within a hole's outline, the outline (the piece's own pixels) too."""
    filled = np.zeros(shape[:2], np.uint8)
    cv2.drawContours(filled, [hole], -1, 1, thickness=-1)
    return filled.astype(bool)


def _round_on_it(piece: np.ndarray, holes: list[np.ndarray], rn: float,
                 signs: np.ndarray | None) -> bool:
    """Whether something round sits in a hole of the piece: a hole a pawn's size, or one of
    any size holding pixels of a colour only a cell or a pawn shows (``signs``). A channel is
    a stroke of ink: light that shifts a cell's colour to the channel's, or blur, may leave
    of the cell or the pawn on it only a few pixels of its colour, closed in by what reads
    as ink (tuning any-tile table 15006 harsh, square [4, 3]: a red cell darkened to the
    channel's colour under a green pawn left a hole of 9 green pixels; independent table
    14017 harsh, square [-3, 1]: a red cell paled to the channel's colour, a hole of 9 red
    ones; both tiles read sure with the cell lost). Or a spot of such colour lies on the
    piece itself (:func:`_spot_of_a_cell`)."""
    for hole in holes:
        if cv2.contourArea(hole) >= ROUND_HOLE * math.pi * rn * rn:
            return True
        inside = _hole_mask(piece.shape, hole) & ~piece
        if signs is not None and int((signs & inside).sum()) >= CELL_SIGN_PX:
            return True
    return signs is not None and _spot_of_a_cell(piece, signs, rn)


def _spot_of_a_cell(piece: np.ndarray, signs: np.ndarray, rn: float) -> bool:
    """Whether a spot of touching pixels of a colour only a cell or a pawn shows
    (``signs``), :data:`CELL_SPOT` of a pawn's disc (radius ``rn``) or more, lies on the
    piece. The channels are cut round every cell found, pawn and all, so such a spot on what
    is left is a cell the picture took for ink: a red cell under a green pawn blurs to the
    channel's brown, and the mask of ink is closed over the pawn's top, leaving no hole
    (tuning any-tile table 29006 harsh, square [-1, -1]: a spot of 13 green pixels where
    three channels meet, read sure as a bare junction). Noise makes smaller spots: on the
    pieces of tiles read right and sure (tuning any-tile harsh 7000-7015 and 20000-30007,
    independent harsh 5000-5019 and 11000-16013) the largest is 3 pixels, against 6.3 here
    (p 64)."""
    on_it = (signs & piece).astype(np.uint8)
    least = CELL_SPOT * math.pi * rn * rn
    if int(on_it.sum()) < least:
        return False
    _, _, stats, _ = cv2.connectedComponentsWithStats(on_it, connectivity=8)
    return int(stats[1:, cv2.CC_STAT_AREA].max()) >= least


def _widest(mask: np.ndarray, holes: list[np.ndarray], rc: float) -> float:
    """How far the piece's pixels lie from its edge at most (pixels), its holes no larger
    than a cell (:data:`PAWN_HOLE_CELLS`) filled: a pawn standing on a cell taken for
    channel ink makes a hole in the cell's disc, which is still as wide as a cell."""
    filled = mask
    for hole in holes:
        if cv2.contourArea(hole) <= PAWN_HOLE_CELLS * math.pi * rc * rc:
            if filled is mask:
                filled = mask.copy()
            cv2.drawContours(filled, [hole], -1, 1, thickness=-1)
    return float(cv2.distanceTransform(filled, cv2.DIST_L2, 3).max())


def _judge_piece(piece: np.ndarray, stroke: _Stroke, nodes: list[Endpoint], cells: list[Cell],
                 w: OpeningWindows, pack: EnigmaPack, doubts: TileDoubts,
                 signs: np.ndarray | None = None) -> None:
    """The doubts one channel piece raises: a hole (something round on it), a crossing, or
    a skeleton end at neither a cell nor a side. ``signs``: the pixels of a colour only a
    cell or a pawn shows (:func:`~vision.enigma.networkers.signs_of_a_cell`)."""
    p = piece.shape[0]
    rc, rn, cw = pack.cell_radius * p, pack.networker_radius * p, pack.channel_width * p
    # a channel is a stroke: a hole in it means something round sits on it (a cell under
    # a networker whose ring was not seen)
    mask = piece.astype(np.uint8)
    holes = _holes(mask)
    if _round_on_it(piece, holes, rn, signs):
        doubts.add("something round sits on a channel: a cell under a networker?",
                   HIDDEN_CONFIDENCE)
    # a stroke is a channel wide: a round blob a cell wide on a channel between two ends
    # (where no junction of strokes widens it) is a cell whose colour the picture lost
    # (blurred into the channel's under a dark pawn), not a channel; the pawn's hole in it
    # is filled first
    if len(nodes) == 2 and _widest(mask, holes, rc) >= ROUND_BLOB * rc:
        doubts.add("something round sits on a channel: a cell under a networker?",
                   HIDDEN_CONFIDENCE)
    # skeleton ends must lie at a cell or an opening: otherwise a channel ends in nowhere
    opening_points = [port_point(q, pack.ports) for q in nodes if isinstance(q, Port)]
    # openings only: channels that meet are joined unless two of them could run straight
    # on through the meeting (a crossing, which the picture cannot tell from a crossroads)
    cell_count = sum(1 for e in nodes if isinstance(e, str))
    if cell_count == 0 and len(nodes) >= 4 and may_cross(stroke.crop, cw, stroke.skeleton):
        doubts.add("channels cross or join at one point: cannot tell which",
                   DOUBTFUL_CONFIDENCE)
    for gx, gy in stroke.ends:
        # at a side: at one of the openings this piece reaches (channels leave a tile only
        # there), or on the side's very edge (a band along it: the gap to the next tile);
        # an end a little way in from a side elsewhere is a channel stopping at something
        # it should reach, such as a cell hidden under a standing pawn
        near_side = _at_side((gx, gy), p, w, cw, opening_points)
        near_cell = any(
            math.hypot(gx - c.centre[0], gy - c.centre[1]) <= _end_reach(rc, cw) for c in cells
        )
        if not (near_side or near_cell):
            doubts.add("a channel ends in the middle of the tile: a join hidden?",
                       UNCLEAR_CONFIDENCE)
            break


def _cells_reached(piece: np.ndarray, cells: list[Cell], cell_ids: list[str], rc: float,
                   cw: float, stroke: _Stroke, inner_ends: list[tuple[int, int]],
                   ink: np.ndarray | None
                   ) -> tuple[list[Endpoint], list[str], list[str]]:
    """The cells a channel piece runs into, and those it only passes close to. A channel
    that ends at a cell was cut at the cell's cut, so it reaches it and its skeleton ends
    there; one that comes near but stops short of the cut, or touches the cut but runs on
    past the cell with no end at it (its side grazing the cell's rim under blur), passes the
    cell by (a lone cell beside another network's channel, a few millimetres off), and only
    a blur, or a cell's middle read off under a pawn, could have hidden a join there: such a
    join is a choice, not a read, unless the picture shows none: a piece with no end at a
    cell no pawn stands on, tile colour all along its side there (:func:`_tile_gap_beside`
    on ``ink``), passes it by, sure. ``stroke``: the piece's skeleton, and where it stops
    (:meth:`_Stroke.stops`); ``inner_ends``: those stops away from the openings and the
    sides (an end at an opening beside the cell may be the channel leaving the tile, unless
    it lies right at the cut: a short stub's). A stroke running past a cell with no end of
    its own there, touching it over less than :data:`LEAST_CONTACT` of a channel's width,
    passes it close by too: a corner or a pixel of its side, not a channel's end. And the
    cells reached that the cut alone ended the piece at, under a pawn, that it may only
    graze (``grazed``, :func:`_may_graze`): read joined, but doubted."""
    ys, xs = np.nonzero(piece)
    ends = stroke.stops(cw)
    reached: list[Endpoint] = []
    close: list[str] = []
    grazed: list[str] = []
    for k, (cid, c) in enumerate(zip(cell_ids, cells, strict=True)):
        from_centre = np.hypot(xs - c.centre[0], ys - c.centre[1])
        nearest = float(from_centre.min())
        stub_reach = rc * CHANNEL_CUT + cw / 2 + STUB_END_SLACK_PX
        ends_here = (
            any(math.hypot(x - c.centre[0], y - c.centre[1]) <= _end_reach(rc, cw)
                for x, y in inner_ends)
            or any(math.hypot(x - c.centre[0], y - c.centre[1]) <= stub_reach for x, y in ends))
        cut_off = nearest <= rc * CHANNEL_CUT + CUT_EDGE_PX
        if nearest <= rc * CHANNEL_CUT + CUT_REACH_PX and (
                ends_here or cut_off and not (c.networker is not None
                                              and _runs_past(stroke, c.centre))):
            contact = _contact(xs, ys, from_centre, c.centre)
            if (_runs_past(stroke, c.centre) and not _own_end(k, cells, inner_ends, ends, rc, cw)
                    and contact < LEAST_CONTACT * cw):
                close.append(cid)  # the corner of a channel passing by
            else:
                reached.append(cid)
                if not ends_here and c.networker is not None and _may_graze(
                        stroke, c.centre, contact, nearest, cw):
                    grazed.append(cid)  # a V into the cell, or a channel bending past it
        elif nearest <= rc * CHANNEL_CUT + CONTACT_SLACK_PX and not (
                c.networker is None and not ends_here
                and _tile_gap_beside(xs, ys, from_centre, c.centre, rc, cw, ink)):
            close.append(cid)
    return reached, close, grazed


def _facing(xs: np.ndarray, ys: np.ndarray, from_centre: np.ndarray,
            centre: tuple[float, float], band_px: float) -> tuple[float, np.ndarray]:
    """Where a piece (its pixels ``xs``, ``ys``, their distances ``from_centre`` of a
    cell's centre) faces the cell: the mean direction from the centre (radians) of its
    pixels within ``band_px`` of where it comes nearest, and each one's angle from it."""
    band = from_centre <= float(from_centre.min()) + band_px
    angles = np.arctan2(ys[band] - centre[1], xs[band] - centre[0])
    middle = math.atan2(float(np.sin(angles).mean()), float(np.cos(angles).mean()))
    return middle, np.angle(np.exp(1j * (angles - middle)))


def _tile_gap_beside(xs: np.ndarray, ys: np.ndarray, from_centre: np.ndarray,
                     centre: tuple[float, float], rc: float, cw: float,
                     ink: np.ndarray | None) -> bool:
    """Whether tile colour lies all along a piece's side where it passes close to a cell
    (:data:`PASS_GAP_BAND`): between the cell's rim and its cut, across the directions
    from the cell's centre of the piece's pixels there, not one pixel of ``ink`` (channel
    colour, uncut, or a dark stroke). A channel that runs into the cell crosses that ring,
    blurred or not; one that only passes by leaves it blank. ``ink``: None, not told."""
    if ink is None:
        return False
    middle, turned = _facing(xs, ys, from_centre, centre, PASS_GAP_BAND * cw)
    half = float(np.abs(turned).max())
    reach = int(math.ceil(rc * CHANNEL_CUT)) + 1
    x0, y0 = int(centre[0]) - reach, int(centre[1]) - reach
    gy, gx = np.mgrid[max(y0, 0):min(y0 + 2 * reach + 1, ink.shape[0]),
                      max(x0, 0):min(x0 + 2 * reach + 1, ink.shape[1])]
    dx, dy = gx - centre[0], gy - centre[1]
    away = np.hypot(dx, dy)
    beside = (np.abs(np.angle(np.exp(1j * (np.arctan2(dy, dx) - middle)))) <= half) & (
        away > rc) & (away <= rc * CHANNEL_CUT)
    return bool(beside.any()) and not bool(ink[gy[beside], gx[beside]].any())


def _own_end(k: int, cells: list[Cell], inner_ends: list[tuple[int, int]],
             ends: list[tuple[int, int]], rc: float, cw: float) -> bool:
    """Whether a stroke stops at cell ``k`` (as :func:`_cells_reached` reaches it) at an
    end lying nearer to it than to any other cell: an end between two close cells stops at
    the nearer one, not at both."""
    c = cells[k]
    stub_reach = rc * CHANNEL_CUT + cw / 2 + STUB_END_SLACK_PX

    def nearest_here(x: int, y: int) -> bool:
        mine = math.hypot(x - c.centre[0], y - c.centre[1])
        return all(mine <= math.hypot(x - o.centre[0], y - o.centre[1]) for o in cells)

    return (any(math.hypot(x - c.centre[0], y - c.centre[1]) <= _end_reach(rc, cw)
                and nearest_here(x, y) for x, y in inner_ends)
            or any(math.hypot(x - c.centre[0], y - c.centre[1]) <= stub_reach
                   and nearest_here(x, y) for x, y in ends))


def _contact(xs: np.ndarray, ys: np.ndarray, from_centre: np.ndarray,
             centre: tuple[float, float]) -> float:
    """How wide (pixels, round the cell) a piece (its pixels ``xs``, ``ys``, their distances
    ``from_centre`` of a cell's centre) touches the cell: the span of its pixels within
    :data:`CONTACT_BAND_PX` of where it comes nearest (:data:`LEAST_CONTACT`)."""
    _, turned = _facing(xs, ys, from_centre, centre, CONTACT_BAND_PX)
    return float(turned.max() - turned.min()) * (float(from_centre.min()) + CONTACT_BAND_PX / 2)


@dataclass(frozen=True)
class _Arms:
    """A stroke's skeleton near a cell: its pixels (``sx``, ``sy``: patch pixels), their
    distances ``from_centre`` of the cell's centre, the nearest one's index ``k``, and which
    lie :data:`PASS_SPAN_PX` on from it (``on``: the stroke's arms there)."""

    sx: np.ndarray
    sy: np.ndarray
    from_centre: np.ndarray
    k: int
    on: np.ndarray

    @classmethod
    def of(cls, stroke: _Stroke, centre: tuple[float, float]) -> _Arms | None:
        """None when the skeleton has no pixel that far on from its nearest."""
        sy, sx = np.nonzero(stroke.skeleton)
        if not sx.size:
            return None
        sx, sy = sx + stroke.x0, sy + stroke.y0
        from_centre = np.hypot(sx - centre[0], sy - centre[1])
        k = int(np.argmin(from_centre))
        along = np.hypot(sx - sx[k], sy - sy[k])
        lo, hi = PASS_SPAN_PX
        on = (along >= lo) & (along <= hi)
        return cls(sx, sy, from_centre, k, on) if on.any() else None


def _runs_past(stroke: _Stroke, centre: tuple[float, float]) -> bool:
    """Whether a stroke runs along past ``centre`` where it comes nearest it, not away
    from it (:data:`PASS_RISE_PX`)."""
    arms = _Arms.of(stroke, centre)
    if arms is None:
        return False
    rise = float(np.median(arms.from_centre[arms.on])) - float(arms.from_centre[arms.k])
    return rise < PASS_RISE_PX


def _runs_along(stroke: _Stroke, centre: tuple[float, float]) -> bool:
    """Whether a stroke's arms leave where it comes nearest ``centre`` at least
    :data:`ALONG_SPREAD` apart, seen from the cell (the way out from it): the stroke runs
    along the cell there, as a bend does, rather than into it, as a V does."""
    arms = _Arms.of(stroke, centre)
    if arms is None:
        return False
    x, y = float(arms.sx[arms.k]), float(arms.sy[arms.k])
    out = math.atan2(y - centre[1], x - centre[0])
    ways = np.arctan2(arms.sy[arms.on] - y, arms.sx[arms.on] - x)
    turned = np.angle(np.exp(1j * (ways - out)))
    return float(turned.max() - turned.min()) >= ALONG_SPREAD


def _tangent_contact(nearest: float) -> float:
    """How wide (pixels, as :func:`_contact` measures) a straight stroke whose side passes
    ``nearest`` pixels from a cell's centre touches it: the arc of its side within
    :data:`CONTACT_BAND_PX` of that. A bent stroke, its convex side towards the cell,
    touches less."""
    band = CONTACT_BAND_PX
    reach = math.sqrt(2 * nearest * band + band * band)
    return 2 * math.atan2(reach, nearest) * (nearest + band / 2)


def _may_graze(stroke: _Stroke, centre: tuple[float, float], contact: float, nearest: float,
               cw: float) -> bool:
    """Whether a stroke the cut alone ended at a pawn's cell (centre ``centre``, touching
    it over ``contact`` pixels, coming ``nearest`` pixels to its centre) may only graze the
    cell: it touches it over less than :data:`V_CONTACT` of a channel's width (``cw``), or
    runs along it there touching it no wider than a straight stroke would
    (:data:`ALONG_SPREAD`)."""
    if contact < V_CONTACT * cw:
        return True
    return contact <= _tangent_contact(nearest) and _runs_along(stroke, centre)


def _rim_fragment(piece: np.ndarray, cell: Cell, rc: float, cw: float) -> bool:
    """Whether a piece that reaches ``cell`` and nothing else is a shred of the cell's dark
    rim or of a pawn's shadow on it, left outside the cut: it lies wholly within a channel's
    width of the cut and runs along the rim, not away from it (a stub of channel leaving the
    cell, towards a cell the picture lost, runs away; seeded turn 3013)."""
    ys, xs = np.nonzero(piece)
    dx, dy = xs - cell.centre[0], ys - cell.centre[1]
    if float(np.hypot(dx, dy).max()) > rc * CHANNEL_CUT + cw or xs.size < 3:
        return False
    spread = np.cov(np.vstack([xs, ys]).astype(np.float64))
    values, vectors = np.linalg.eigh(spread)
    if values[1] < RIM_ELONGATION * max(float(values[0]), 1e-6):
        return False  # a blob, not a shred along anything
    radial = np.array([dx.mean(), dy.mean()]) / max(float(np.hypot(dx.mean(), dy.mean())), 1e-6)
    return abs(float(vectors[:, 1] @ radial)) < RIM_ALONG


@dataclass
class Joins:
    """The channel pieces that pass close to a cell: joined to it or not is a choice the
    picture leaves open (each a piece's nodes and the cells it comes close to), and the
    doubts that choice alone raises."""

    choices: list[tuple[list[Endpoint], list[str]]]
    doubts: TileDoubts

    def structures(self, cells: dict[str, str], links: list[tuple[Endpoint, Endpoint]]
                   ) -> tuple[Tile, ...]:
        """Every other structure the choices allow (each close cell joined or not), beside
        the one read with ``links``; none when there are too many to weigh."""
        options = [(nodes, cid) for nodes, close in self.choices for cid in close]
        if not options or len(options) > MAX_JOIN_CHOICES:
            return ()
        out: list[Tile] = []
        for mask in range(1, 2 ** len(options)):
            extra: list[tuple[Endpoint, Endpoint]] = []
            for k, (nodes, cid) in enumerate(options):
                if mask >> k & 1:
                    extra += [(node, cid) for node in nodes[:1]]
            if extra:
                out.append(Tile.make(cells, list(dict.fromkeys(links + extra))))
        return tuple(out)


@dataclass(frozen=True)
class PieceLinks:
    """What the channel pieces of a tile make: the ``links`` between the cells they touch and
    the openings they reach, the openings ``used``, the openings a linking piece's stroke
    ``ended`` at (it runs to that opening itself, not only past its window) and the
    ``joins`` left to choose (pieces passing close to a cell)."""

    links: list[tuple[Endpoint, Endpoint]]
    used: set[Port]
    ended: set[Port]
    joins: Joins


def _ends_at(stops: list[tuple[int, int]], q: Port, p: int, w: OpeningWindows,
             fractions: tuple[float, float, float]) -> bool:
    """Whether a stroke stops at the opening ``q``: within its window's depth of the
    opening's point on the side."""
    px, py = port_point(q, fractions)
    return any(math.hypot(x - px * p, y - py * p) <= w.depth1 + 2 for x, y in stops)


def piece_links(channel: np.ndarray, cells: list[Cell], cell_ids: list[str],
                present: set[Port], w: OpeningWindows, pack: EnigmaPack, doubts: TileDoubts,
                signs: np.ndarray | None = None, ink: np.ndarray | None = None
                ) -> PieceLinks:
    """The links each channel piece makes between the cells it touches and the openings it
    reaches, and what goes with them (:class:`PieceLinks`). ``signs``: the pixels of a
    colour only a cell or a pawn shows (one in a hole of a piece is a cell there); ``ink``:
    the channel-coloured pixels before the cut round the cells, and the dark strokes (where
    none lies between a cell and a piece passing it, they are not joined)."""
    p = channel.shape[0]
    rc, cw = pack.cell_radius * p, pack.channel_width * p
    n, lab, stats, _ = cv2.connectedComponentsWithStats(channel, connectivity=8)
    links: list[tuple[Endpoint, Endpoint]] = []
    used_ports: set[Port] = set()
    ended: set[Port] = set()
    joins = Joins([], TileDoubts())
    for k in range(1, n):
        if stats[k, cv2.CC_STAT_AREA] < MIN_PIECE * cw * cw:
            continue
        # a sliver thinner than a channel (a neighbour's edge line, a shadow) is no channel
        if min(stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]) < MIN_PIECE_WIDTH * cw:
            continue
        piece = lab == k
        left, top, width, height = (int(v) for v in stats[k, :4])
        stroke = _Stroke.of(piece, (left, top, width, height))
        ports_here = [
            q
            for q in sorted(present, key=lambda q: (SIDES.index(q.side), q.position))
            if piece[w.boxes[q]].any()
        ]
        at_openings = [port_point(q, pack.ports) for q in ports_here]
        stops = stroke.stops(cw)
        inner_ends = [e for e in stops if not _at_side(e, p, w, cw, at_openings)]
        reached, close, grazed = _cells_reached(piece, cells, cell_ids, rc, cw, stroke,
                                                inner_ends, ink)
        nodes: list[Endpoint] = list(reached)
        nodes.extend(ports_here)
        used_ports.update(ports_here)
        if (not close and not ports_here and len(reached) == 1
                and _rim_fragment(piece, cells[cell_ids.index(str(reached[0]))], rc, cw)):
            continue
        if close:
            joins.choices.append((nodes, close))
            joins.doubts.add("a channel passes close to a cell: joined or not?",
                             DOUBTFUL_CONFIDENCE)
        if grazed and len(nodes) - len(grazed) >= 2:
            # the piece has two ends without the grazed cell: it may only bend past it
            joins.doubts.add("a channel passes close to a cell: joined or not?",
                             DOUBTFUL_CONFIDENCE)
        if len(nodes) < 2:
            # a piece that ends nowhere, unless it joins the cell it passes close to
            (joins.doubts if close and nodes else doubts).add(
                "a channel ends without reaching a cell or a side", DOUBTFUL_CONFIDENCE)
            if close and nodes:
                _judge_piece(piece, stroke, [*nodes, *close[:1]], cells, w, pack, doubts,
                             signs)
            continue
        _judge_piece(piece, stroke, nodes, cells, w, pack, doubts, signs)
        for a, b2 in zip(nodes, nodes[1:], strict=False):
            links.append((a, b2))
        ended.update(q for q in ports_here if _ends_at(stops, q, p, w, pack.ports))
    return PieceLinks(links, used_ports, ended, joins)


def stub_links(at_sides: np.ndarray, cells: list[Cell], cell_ids: list[str],
                unused: set[Port], w: OpeningWindows, rc: float) -> list[tuple[Port, str]]:
    """Openings whose channel is only a short stub into a cell near the side: cutting the
    cells' surroundings away leaves no piece of it, but the stub itself (in ``at_sides``,
    cut only at the cells' rims) runs from the opening's window to exactly one cell's rim.
    A channel ends at a cell or an opening, so the opening joins that cell."""
    if not unused or not cells:
        return []
    p = at_sides.shape[0]
    _, comp = cv2.connectedComponents(at_sides.astype(np.uint8), connectivity=8)
    rims = [disc((p, p), c.centre, rc * STUB_REACH) for c in cells]
    links: list[tuple[Port, str]] = []
    for q in sorted(unused, key=lambda q: (SIDES.index(q.side), q.position)):
        labels = set(np.unique(comp[w.boxes[q]]).tolist()) - {0}
        stub = np.isin(comp, list(labels)) if labels else np.zeros((p, p), bool)
        touched = [cid for cid, rim in zip(cell_ids, rims, strict=True) if (stub & rim).any()]
        if len(touched) == 1:
            links.append((q, touched[0]))
    return links
