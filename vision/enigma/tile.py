"""Enigma reader, one tile: its structure, ports, links and icon read from the rectified square
(:func:`read_tile`), in named stages. See :mod:`vision.enigma.reader`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache

import cv2
import numpy as np

from companion.enigma.tiles import SIDES, Endpoint, Port, Pos, Tile
from vision.enigma.cells import Cell, disc, find_cells
from vision.enigma.colours import ColourModel, colour_features
from vision.enigma.crossings import may_cross
from vision.enigma.layout import inward_point, port_point, reading_order
from vision.enigma.networkers import read_networkers
from vision.enigma.pack import EnigmaPack
from vision.enigma.read_types import NetworkerRead, OpeningDoubts, TileRead
from vision.enigma.settings import ReaderSettings
from vision.enigma.skeleton import endpoints, skeletonize
from vision.enigma.small_stats import clip01, median

# ---------------------------------------------------------------------------- one tile

#: how far in from the patch's sides (share of a tile) the table and the tile's edge line
#: cannot show: a square placed a little off the tile still has them only outside this
INNER_MARGIN = 0.07
#: the outermost share of a tile may show the gap to the next tile or the table; it is also
#: where an opening's window starts
EDGE_SHARE = 0.035
#: an opening's window reaches this share of a tile in from its side
WINDOW_DEPTH = 0.13
#: two cells farther apart than this share of a tile are never joined by a short channel
NEAR_CELLS = 0.6
#: half-width (share of a tile) of the corridor along the line between two near cells
CORRIDOR = 0.09
#: cells whose outlines come within this share of a tile may hide a short channel in the blur
OUTLINE_REACH = 0.08
#: a dark-stroke score of an opening at or above this says "channel"; between the two
#: bounds of :data:`UNCLEAR_OPENING` it says nothing clearly
DARK_OPENING = 0.5
UNCLEAR_OPENING = (0.3, 0.7)
#: a piece of channel smaller than this many channel widths squared is noise
MIN_PIECE = 0.6
#: a piece thinner than this share of the channel width is a sliver (an edge line, a shadow)
MIN_PIECE_WIDTH = 0.6
#: a hole in a piece larger than this share of a pawn's disc is something round on it
ROUND_HOLE = 0.25
#: a piece of channel as wide as this many cell radii somewhere holds something round
ROUND_BLOB = 0.85
#: near cells whose line shows a bright gap of at most this many pixels are joined...
JOINED_GAP_PX = 1.5
#: ... and of at least this many pixels are apart; between the two, the tile is asked about
APART_GAP_PX = 3.0
#: a cell's rim (drawn dark in some styles, blurred in all) reaches this many cell radii
CELL_RIM = 1.2
#: two cells' centres closer than this many cell radii mean their discs overlap (two
#: touching cells lie two radii apart; the rest allows for the error of a centre)
OVERLAP = 1.6
#: the fewest pixels of an opening's window, away from the cells, to judge it by
MIN_WINDOW_PX = 4
#: the fewest pixels across a side's band, away from the cells, to judge a column by
MIN_BAND_PX = 2
#: an opening whose window a cell covers this much is judged on what lies between the cell's
#: rim and the side, where this many pixels of channel make it a question
HIDDEN_WINDOW_SHARE = 0.5
HIDDEN_STUB_PX = 2
#: the channels by the sides are cut this many cell radii round each cell (the cell itself)
CELL_CUT_FOR_SIDES = 1.05
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
#: the confidence left by an unclear opening, a broken channel end, a crossing, a hidden cell
UNCLEAR_CONFIDENCE = 0.5
DOUBTFUL_CONFIDENCE = 0.4
HIDDEN_CONFIDENCE = 0.3


class TileDoubts:
    """The problems seen on a tile, in the order seen, and the confidence they leave."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.confidence = 1.0
        #: the opening positions a problem names
        self.openings: set[Port] = set()

    def lower(self, cap: float) -> None:
        self.confidence = min(self.confidence, cap)

    def add(self, problem: str, cap: float) -> None:
        self.problems.append(problem)
        self.lower(cap)

    def add_at(self, q: Port, problem: str, cap: float) -> None:
        """A problem about the opening position ``q``."""
        self.openings.add(q)
        self.add(problem.format(f"{q.side}{q.position}"), cap)


@dataclass(frozen=True)
class _Labels:
    """A tile's patch named pixel by pixel (see :func:`_label_patch`)."""

    feats: np.ndarray  # colour features of the balanced patch
    labels: np.ndarray  # colour class per pixel, networkers left out
    all_labels: np.ndarray  # colour class per pixel, networkers in
    model: ColourModel  # the classes the labels name
    dark: np.ndarray  # darker than midway between tile and channel: a stroke by brightness

    def of_kind(self, *kinds: str) -> np.ndarray:
        """Where the pixel's class (networkers left out) is of one of ``kinds``."""
        return self.model.kind_mask(self.labels, kinds)

    @cached_property
    def channel(self) -> np.ndarray:
        """The channel mask (:func:`_channel_mask`), made once: a tile is looked at again
        with its networkers, and its channels cut round the cells anew (read-only)."""
        channel = _channel_mask(self)
        channel.setflags(write=False)
        return channel


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


@lru_cache(maxsize=8)
def _inside(p: int, margin: int) -> np.ndarray:
    """A p x p mask, True at least ``margin`` pixels in from every side (cached, read-only)."""
    mask = np.zeros((p, p), bool)
    mask[margin : p - margin, margin : p - margin] = True
    mask.setflags(write=False)
    return mask


#: the tile's colour is measured on its brightest pixels of a ring near its sides: those at
#: or above this percentile of brightness (the rest may be channels or the table)
BRIGHT_PERCENTILE = 40


@lru_cache(maxsize=8)
def balance_ring(p: int) -> tuple[np.ndarray, int]:
    """The ring (a tenth of a side wide, a tenth in from the sides) a patch's tile colour
    is measured on, and the rank in its sorted brightness sums of the least one kept
    (:func:`brightest_at_rank`)."""
    border = np.zeros((p, p), bool)
    b = max(2, p // 10)
    border[b : 2 * b, b : p - b] = border[p - 2 * b : p - b, b : p - b] = True
    border[b : p - b, b : 2 * b] = border[b : p - b, p - 2 * b : p - b] = True
    border.setflags(write=False)
    # np.percentile's linear rule: the value at (n - 1) * q, between two ranks. Sums of
    # 8-bit pixels are whole numbers, so "at or above it" keeps the upper rank onwards
    # whenever the rule falls between two ranks (the fraction is a multiple of a fifth here,
    # never so small that the interpolated value rounds to the lower one)
    where = (int(border.sum()) - 1) * (BRIGHT_PERCENTILE / 100)
    rank = math.floor(where) + (where > math.floor(where))
    return border, rank


def brightest_at_rank(pixels: np.ndarray, rank: int) -> np.ndarray:
    """The ring's ``pixels`` (n x 3) as floats, those whose sums are at least the
    :data:`BRIGHT_PERCENTILE` percentile of the sums. For 8-bit pixels, those at least the
    sum of rank ``rank``: the same pixels, by one partial sort instead of numpy's percentile
    (other pixels take numpy's)."""
    ring = pixels.astype(np.float32)
    if pixels.dtype == np.uint8:
        # sums of whole numbers, exact in any order: added column by column (numpy's sum
        # along an axis three wide is slow)
        sums = ring[:, 0] + ring[:, 1]
        sums += ring[:, 2]
        least = np.partition(sums, rank)[rank]
    else:
        sums = ring.sum(axis=1)
        least = np.percentile(sums, BRIGHT_PERCENTILE)
    kept: np.ndarray = ring[sums >= least]
    return kept


def _label_patch(patch: np.ndarray, pack: EnigmaPack, model: ColourModel) -> _Labels:
    """Balance the patch to the pack's tile colour (light varies over the table) and name
    each pixel by the nearest pack colour."""
    p = patch.shape[0]
    px = patch.reshape(-1, 3).astype(np.float32)
    border, rank = balance_ring(p)
    bright = brightest_at_rank(patch[border], rank)
    gains = np.array(pack.colour("tile"), np.float32) / np.maximum(median(bright, axis=0), 1)
    balanced = np.clip(px * np.clip(gains, 0.5, 2.0), 0, 255).reshape(patch.shape)
    feats = colour_features(balanced)
    # networkers stand only on cells and are judged there; elsewhere a pixel is tile art
    labels, all_labels = model.labels_with_and_without(feats, ("net",))
    # the table and the tile's edge line show only at the patch's border: inside it, a pixel
    # of their colours is a thin channel's blurred stroke (its chroma bleeds into the tile
    # around it) or the soft rim of one; brightness alone tells channel from tile art there
    inner = _inside(p, max(3, int(round(INNER_MARGIN * p))))
    misnamed = inner & model.kind_mask(labels, ("table", "edge"))
    tile_i, channel_i = model.index("tile"), model.index("channel")
    mid = 0.5 * (model.centres[tile_i, 2] + model.centres[channel_i, 2])
    labels = np.where(misnamed, np.where(feats[..., 2] < mid, channel_i, tile_i), labels)
    dark = feats[..., 2] < 0.5 * (model.centres[model.index("tile"), 2]
                                  + model.centres[model.index("channel"), 2])
    return _Labels(feats, labels, all_labels, model, dark)


def _channel_mask(named: _Labels) -> np.ndarray:
    """The channel-coloured pixels, small gaps closed, the outermost pixels cleared (they may
    show the gap to the next tile or the table: not this tile's)."""
    p = named.labels.shape[0]
    channel: np.ndarray = cv2.morphologyEx(named.of_kind("channel").astype(np.uint8),
                                           cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    edge_px = max(2, int(round(EDGE_SHARE * p)))
    channel[:edge_px, :] = channel[-edge_px:, :] = 0
    channel[:, :edge_px] = channel[:, -edge_px:] = 0
    return channel


def _near_cell_links(named: _Labels, cells: list[Cell], cell_ids: list[str], rc: float
                     ) -> tuple[list[tuple[Endpoint, Endpoint]], list[tuple[int, int]]]:
    """Two cells close together: the short channel between them is judged along the line.
    Returns the links found and the near pairs the corridor did not join but whose outlines
    nearly touch (doubtful: a short channel may hide in the blur)."""
    p = named.labels.shape[0]
    links: list[tuple[Endpoint, Endpoint]] = []
    if len(cells) < 2:
        return links, []  # no pair of cells: nothing to judge (nor masks to make)
    # whatever is not bare tile art conducts (channel, cells, their outlines)
    conductive = (~named.of_kind("tile", "edge", "icon")).astype(np.uint8)
    for c in cells:  # a pawn hides the cell's middle: the whole cell conducts
        conductive[disc((p, p), c.centre, rc * 0.9)] = 1
    yy, xx = np.mgrid[0:p, 0:p].astype(np.float32)
    doubtful: list[tuple[int, int]] = []
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
    return links, doubtful


@lru_cache(maxsize=16)
def _opening_windows(p: int, fractions: tuple[float, float, float], cw: float) -> OpeningWindows:
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
                   doubts: TileDoubts) -> tuple[set[Port], dict[Port, float]]:
    """The openings present: enough channel in the ``usable`` part of their window (away
    from the cells; ``at_sides``: the channel mask before the cells' surroundings are cut
    away, as a cell near a side leaves its channel only a short stub there). A second opinion
    from brightness alone (a channel is a dark stroke across the side, whatever its colour
    looks like after blur and compression) makes an opening doubtful. A share near the
    threshold caps the confidence: returned per opening position (below 1 only), for the
    neighbour's mirrored opening to settle (:mod:`vision.enigma.mirror`)."""
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
        if seen.size and n_seen < MIN_WINDOW_PX:
            doubts.add_at(q, "is there an opening at {}? a cell hides the side there",
                          UNCLEAR_CONFIDENCE)
    present = {q for q, f in port_fraction.items() if f >= settings.port_min_fraction}
    _doubt_hidden_stubs(at_sides, usable, w, fractions, present, doubts)
    for q, score in dark_openings(dark & usable, fractions, w.depth0, w.depth1, w.half_w,
                                  usable).items():
        lo, hi = UNCLEAR_OPENING
        if (score >= DARK_OPENING) != (q in present) or lo <= score < hi:
            doubts.add_at(q, "is there an opening at {}? the channel there is unclear",
                          UNCLEAR_CONFIDENCE)
    margins: dict[Port, float] = {}
    for q, f in port_fraction.items():
        cap = clip01(0.5 + abs(f - settings.port_min_fraction) / settings.port_min_fraction)
        if cap < 1.0:
            margins[q] = cap
    return present, margins


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
            doubts.add_at(q, "is there an opening at {}? a cell hides the side there",
                          UNCLEAR_CONFIDENCE)


def _short_stub_openings(cells: list[Cell], present: set[Port], named: set[Port],
                         fractions: tuple[float, float, float], p: int, rc: float, cw: float
                         ) -> list[Port]:
    """The openings read absent where a cell's rim lies no more than a channel's width in
    from the side, straight in from the opening's position: a stub there would be a stroke
    no longer than it is wide, which a blur can merge wholly into the rim and the gap
    beside the tile. Such an absence is not clear: the neighbour's mirrored opening settles
    it, or it is asked (:mod:`vision.enigma.mirror`)."""
    out: list[Port] = []
    for side in SIDES:
        for position in range(3):
            q = Port(side, position)
            if q in present or q in named:
                continue
            x, y = port_point(q, fractions)
            ix, iy = inward_point(q, fractions, 1.0)
            nx, ny = ix - x, iy - y  # a unit step in from the side, square to it
            for c in cells:
                dx, dy = c.centre[0] - x * p, c.centre[1] - y * p
                depth, along = dx * nx + dy * ny, abs(dx * ny - dy * nx)
                if along < rc and depth - math.sqrt(rc * rc - along * along) <= cw:
                    out.append(q)
                    break
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


def _has_stray_opening(channel: np.ndarray, w: OpeningWindows, cw: float) -> bool:
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


def _judge_piece(piece: np.ndarray, stroke: _Stroke, nodes: list[Endpoint], cells: list[Cell],
                 w: OpeningWindows, pack: EnigmaPack, doubts: TileDoubts) -> None:
    """The doubts one channel piece raises: a hole (something round on it), a crossing, or
    a skeleton end at neither a cell nor a side."""
    p = piece.shape[0]
    rc, rn, cw = pack.cell_radius * p, pack.networker_radius * p, pack.channel_width * p
    # a channel is a stroke: a hole in it means something round sits on it (a cell under
    # a networker whose ring was not seen)
    mask = piece.astype(np.uint8)
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is not None and any(
            h[3] >= 0 and cv2.contourArea(c) >= ROUND_HOLE * math.pi * rn * rn
            for c, h in zip(contours, hierarchy[0], strict=True)):
        doubts.add("something round sits on a channel: a cell under a networker?",
                   HIDDEN_CONFIDENCE)
    # a stroke is a channel wide: a round blob a cell wide on a channel between two ends
    # (where no junction of strokes widens it) is a cell whose colour the picture lost
    # (blurred into the channel's under a dark pawn), not a channel
    if len(nodes) == 2 and float(cv2.distanceTransform(mask, cv2.DIST_L2, 3).max()) \
            >= ROUND_BLOB * rc:
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
                   cw: float, ends: list[tuple[int, int]], inner_ends: list[tuple[int, int]]
                   ) -> tuple[list[Endpoint], list[str]]:
    """The cells a channel piece runs into, and those it only passes close to. A channel
    that ends at a cell was cut at the cell's cut, so it reaches it and its skeleton ends
    there; one that comes near but stops short of the cut, or touches the cut but runs on
    past the cell with no end at it (its side grazing the cell's rim under blur), passes the
    cell by (a lone cell beside another network's channel, a few millimetres off), and only
    a blur, or a cell's middle read off under a pawn, could have hidden a join there: such a
    join is a choice, not a read. ``ends``: where the stroke stops (:meth:`_Stroke.stops`);
    ``inner_ends``: those away from the openings and the sides (an end at an opening beside
    the cell may be the channel leaving the tile, unless it lies right at the cut: a short
    stub's)."""
    ys, xs = np.nonzero(piece)
    reached: list[Endpoint] = []
    close: list[str] = []
    for cid, c in zip(cell_ids, cells, strict=True):
        nearest = float(np.hypot(xs - c.centre[0], ys - c.centre[1]).min())
        stub_reach = rc * CHANNEL_CUT + cw / 2 + STUB_END_SLACK_PX
        ends_here = (
            any(math.hypot(x - c.centre[0], y - c.centre[1]) <= _end_reach(rc, cw)
                for x, y in inner_ends)
            or any(math.hypot(x - c.centre[0], y - c.centre[1]) <= stub_reach for x, y in ends))
        cut_off = nearest <= rc * CHANNEL_CUT + CUT_EDGE_PX
        if nearest <= rc * CHANNEL_CUT + CUT_REACH_PX and (cut_off or ends_here):
            reached.append(cid)
        elif nearest <= rc * CHANNEL_CUT + CONTACT_SLACK_PX:
            close.append(cid)
    return reached, close


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
class _Joins:
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


def _piece_links(channel: np.ndarray, cells: list[Cell], cell_ids: list[str],
                 present: set[Port], w: OpeningWindows, pack: EnigmaPack, doubts: TileDoubts
                 ) -> tuple[list[tuple[Endpoint, Endpoint]], set[Port], _Joins]:
    """The links each channel piece makes between the cells it touches and the openings it
    reaches, the openings used, and the joins left to choose (pieces passing close to a
    cell)."""
    p = channel.shape[0]
    rc, cw = pack.cell_radius * p, pack.channel_width * p
    n, lab, stats, _ = cv2.connectedComponentsWithStats(channel, connectivity=8)
    links: list[tuple[Endpoint, Endpoint]] = []
    used_ports: set[Port] = set()
    joins = _Joins([], TileDoubts())
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
        reached, close = _cells_reached(piece, cells, cell_ids, rc, cw, stops, inner_ends)
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
        if len(nodes) < 2:
            # a piece that ends nowhere, unless it joins the cell it passes close to
            (joins.doubts if close and nodes else doubts).add(
                "a channel ends without reaching a cell or a side", DOUBTFUL_CONFIDENCE)
            if close and nodes:
                _judge_piece(piece, stroke, [*nodes, *close[:1]], cells, w, pack, doubts)
            continue
        _judge_piece(piece, stroke, nodes, cells, w, pack, doubts)
        for a, b2 in zip(nodes, nodes[1:], strict=False):
            links.append((a, b2))
    return links, used_ports, joins


def _doubt_overlapping_cells(cells: list[Cell], rc: float, doubts: TileDoubts) -> None:
    """Two cells whose discs would overlap are one cell read twice (a ring broken by a
    pawn or by something lying on it) or a misread: printed cells never overlap."""
    for i, a in enumerate(cells):
        for b in cells[i + 1:]:
            if math.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]) < OVERLAP * rc:
                doubts.add("two cells overlap: is one cell read as two?", DOUBTFUL_CONFIDENCE)
                return


def _stub_links(at_sides: np.ndarray, cells: list[Cell], cell_ids: list[str],
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


def _settle_near_cells(doubtful: list[tuple[int, int]], links: list[tuple[Endpoint, Endpoint]],
                       cells: list[Cell], cell_ids: list[str], stroke_only: np.ndarray,
                       rc: float, doubts: TileDoubts) -> None:
    """Near cells the corridor did not join: settled only when the channel pieces and the
    brightness along the line between them agree (a continuous dark stroke and a piece
    joining both; or a bare gap and no piece), else asked."""
    joined = _joined(links)
    for i, j in doubtful:
        gap = bright_gap(stroke_only, cells[i].centre, cells[j].centre, rc)
        pieces_join = joined(cell_ids[i]) == joined(cell_ids[j])
        if not ((pieces_join and gap <= JOINED_GAP_PX)
                or (not pieces_join and gap >= APART_GAP_PX)):
            doubts.add("a channel between two cells is broken: joined or not?",
                       DOUBTFUL_CONFIDENCE)


def _networkers_on(at: Pos, cells: list[Cell], cell_ids: list[str], settings: ReaderSettings,
                   doubts: TileDoubts) -> list[NetworkerRead]:
    """The networkers seen on the cells; a doubtful one lowers the tile's confidence, and a
    pawn doubted away is asked about, never dropped without a word."""
    nets = [
        NetworkerRead(at, cid, c.networker, c.net_confidence)
        for cid, c in zip(cell_ids, cells, strict=True)
        if c.networker is not None
    ]
    for cid, c in zip(cell_ids, cells, strict=True):
        if c.net_confidence < settings.min_confidence:
            doubts.lower(c.net_confidence)
            if c.networker is None:
                doubts.problems.append(f"cell {cid}: is there a networker on it? (seen empty, "
                                       f"confidence {c.net_confidence:.2f})")
    return nets


@dataclass
class TileLook:
    """A look at a tile's patch (:func:`look_at_tile`): its pixels named, its cells (with
    the networkers on them once :func:`with_networkers` has read them), its channel mask,
    and how far its openings lie off the pack's positions (``offset``, pixels). When the
    offset says the square was cut off the tile, the square is cut again and looked at
    afresh, before the rest is read."""

    named: _Labels
    doubts: TileDoubts
    cells: list[Cell]
    channel: np.ndarray  # channel pixels without the cells' surroundings
    at_sides: np.ndarray  # channel pixels with only the cells themselves cut away
    windows: OpeningWindows
    offset: tuple[float, float]


def look_at_tile(patch: np.ndarray, pack: EnigmaPack, model: ColourModel) -> TileLook:
    """Name the patch's pixels, find its cells and where its openings lie: enough to tell
    whether the square was cut off the tile. The networkers are read afterwards
    (:func:`with_networkers`), on the square finally kept."""
    doubts = TileDoubts()
    named = _label_patch(patch, pack, model)
    cells, cell_problems, cell_conf = find_cells(named.labels, named.feats, model, pack)
    doubts.problems += cell_problems
    doubts.lower(cell_conf)
    return _with_channels(named, doubts, cells, pack)


def with_networkers(look: TileLook, pack: EnigmaPack, model: ColourModel) -> TileLook:
    """The look with the networkers on its cells (a pawn may show a cell no colour showed,
    or where a cell's middle lies): the cells in reading order, the channels cut again."""
    named = look.named
    cells, net_problems, net_conf = read_networkers(look.cells, named.feats, named.all_labels,
                                                    model, pack)
    look.doubts.problems += net_problems
    look.doubts.lower(net_conf)
    return _with_channels(named, look.doubts, cells, pack, look)


def _with_channels(named: _Labels, doubts: TileDoubts, cells: list[Cell], pack: EnigmaPack,
                   before: TileLook | None = None) -> TileLook:
    """The look at a patch with these cells (put in reading order): the channel masks
    without them, and the openings' offset (those of the look ``before``, when its cells lie
    where these do: the pawns read on them moved none and added none)."""
    p = named.labels.shape[0]
    rc, cw = pack.cell_radius * p, pack.channel_width * p
    order = reading_order([(c.centre[0] / p, c.centre[1] / p) for c in cells])
    cells = [cells[i] for i in order]
    if before is not None and [c.centre for c in cells] == [c.centre for c in before.cells]:
        return TileLook(named, doubts, cells, before.channel, before.at_sides, before.windows,
                        before.offset)
    channel = named.channel.copy()
    at_sides = named.channel.copy()
    for c in cells:
        at_sides[disc((p, p), c.centre, rc * CELL_CUT_FOR_SIDES)] = 0
        channel[disc((p, p), c.centre, rc * CHANNEL_CUT)] = 0
    w = _opening_windows(p, pack.ports, cw)
    offset = _opening_offset(channel, pack.ports, w.depth0, w.depth1, cw)
    return TileLook(named, doubts, cells, channel, at_sides, w, offset)


def finish_tile(look: TileLook, at: Pos, pack: EnigmaPack, model: ColourModel,
                settings: ReaderSettings) -> tuple[TileRead, list[NetworkerRead]]:
    """Read the rest of a tile looked at (with its networkers): openings, channel pieces
    and links, the icon."""
    named, doubts, cells, channel, w = (look.named, look.doubts, look.cells, look.channel,
                                        look.windows)
    p = channel.shape[0]
    rc, cw = pack.cell_radius * p, pack.channel_width * p
    cell_ids = [chr(ord("a") + i) for i in range(len(cells))]
    links, doubtful = _near_cell_links(named, cells, cell_ids, rc)
    # a cell near a side covers part of an opening's window with its disc and dark rim:
    # the opening is judged on the rest of the window
    beside_cells = np.ones((p, p), bool)
    for c in cells:
        beside_cells &= ~disc((p, p), c.centre, rc * CELL_RIM)
    present, margins = judge_openings(look.at_sides, named.dark, beside_cells, w, pack.ports,
                                       settings, doubts)
    short = _short_stub_openings(cells, present, doubts.openings, pack.ports, p, rc, cw)
    margins = {q: min(margins.get(q, 1.0), UNCLEAR_CONFIDENCE if q in short else 1.0)
               for q in w.boxes if q in margins or q in short}
    if _has_stray_opening(channel, w, cw):
        doubts.add("a channel reaches a side away from the three opening positions",
                   DOUBTFUL_CONFIDENCE)
    piece_links, used_ports, joins = _piece_links(channel, cells, cell_ids, present, w, pack,
                                                  doubts)
    links += piece_links
    stub_links = _stub_links(look.at_sides, cells, cell_ids, present - used_ports, w, rc)
    links += stub_links
    used_ports.update(q for q, _ in stub_links)
    for q in sorted(present - used_ports, key=lambda q: (SIDES.index(q.side), q.position)):
        doubts.add_at(q, "an opening at {} joins nothing", DOUBTFUL_CONFIDENCE)
    stroke_only = named.dark & ~named.of_kind("icon")
    _settle_near_cells(doubtful, links, cells, cell_ids, stroke_only, rc, doubts)
    # the cells' colours are doubted apart from the rest: a catalogue may settle them
    shape = TileDoubts()
    _doubt_overlapping_cells(cells, rc, shape)
    links = list(dict.fromkeys(links))
    if not cells and not links:
        # every tile carries channels or a cell: a bare square is the table (balanced to
        # the tile's colour, cloth looks like blank tile) or a tile whose drawing was lost
        doubts.add("is there a tile on this square? nothing is drawn on it",
                   HIDDEN_CONFIDENCE)
    colours = {cid: c.colour for cid, c in zip(cell_ids, cells, strict=True)}
    tile = Tile.make(colours, links)
    # the joins left to choose are doubted apart from the rest too: a catalogue may settle
    # which of the structures they allow the tile is
    alternatives = joins.structures(colours, links)
    if not alternatives:
        doubts.problems += joins.doubts.problems
        doubts.lower(joins.doubts.confidence)
    nets = _networkers_on(at, cells, cell_ids, settings, shape)
    shape_confidence = min(doubts.confidence, shape.confidence)
    for c in cells:
        doubts.lower(c.confidence)
    if alternatives:
        doubts.problems += joins.doubts.problems
        doubts.lower(joins.doubts.confidence)
    doubts.problems += shape.problems
    doubts.lower(shape.confidence)
    unsure = tuple(cid for cid, c in zip(cell_ids, cells, strict=True)
                   if c.confidence < settings.min_confidence)
    category = read_icon(named.labels, model, pack) if pack.icons else None
    centres = tuple((c.centre[0] / p, c.centre[1] / p) for c in cells)
    # the windows, so the margins, come side by side in the order of SIDES
    openings = OpeningDoubts(tuple(margins.items()), frozenset(doubts.openings),
                             doubts.confidence, shape_confidence)
    return TileRead(at, tile, min(doubts.confidence, openings.cap()), category,
                    tuple(dict.fromkeys(doubts.problems)), centres, look.offset,
                    unsure, min(shape_confidence, openings.cap()), alternatives,
                    tuple(dict.fromkeys(joins.doubts.problems)) if alternatives else (),
                    openings), nets


def read_tile(
    patch: np.ndarray, at: Pos, pack: EnigmaPack, model: ColourModel, settings: ReaderSettings
) -> tuple[TileRead, list[NetworkerRead]]:
    """Read one tile's conduit side from its straightened patch (north up)."""
    look = with_networkers(look_at_tile(patch, pack, model), pack, model)
    return finish_tile(look, at, pack, model, settings)


# keyed by id(pack) and holding the pack itself: a freed pack's id can be reused by another
_ICONS: dict[tuple[int, int], tuple[EnigmaPack, tuple[tuple[str, ...], np.ndarray]]] = {}


def _icon_templates(pack: EnigmaPack, side: int) -> tuple[tuple[str, ...], np.ndarray]:
    """The categories, and each one's icon as a mask of its icon-coloured pixels, ``side``
    square, in 4 turns: one stack of masks (category by category, turn by turn)."""
    key = (id(pack), side)
    cached = _ICONS.get(key)
    if cached is not None and cached[0] is pack:
        return cached[1]
    icon_f = colour_features(np.array(pack.colour("icon"), np.float32))
    tile_f = colour_features(np.array(pack.colour("tile"), np.float32))
    masks: list[np.ndarray] = []
    for image in pack.icons.values():
        small = cv2.resize(image, (side, side), interpolation=cv2.INTER_AREA)
        f = colour_features(small)
        mask = ((f - icon_f) ** 2).sum(axis=-1) < ((f - tile_f) ** 2).sum(axis=-1)
        masks += [np.rot90(mask, k) for k in range(4)]
    out = (tuple(pack.icons), np.array(masks, bool).reshape(-1, side, side))
    if len(_ICONS) >= 8:
        _ICONS.clear()  # packs are few in the app; tests and benches make many
    _ICONS[key] = (pack, out)
    return out


def read_icon(labels: np.ndarray, model: ColourModel, pack: EnigmaPack) -> str | None:
    """The category whose icon (in any of 4 turns) best matches the tile's middle, over the
    pixels that channels and cells leave visible; None when too little is seen or two
    categories match about as well."""
    p = labels.shape[0]
    side = max(8, int(round(2.5 * pack.icon_radius * p)))
    a = (p - side) // 2
    middle = labels[a:a + side, a:a + side]
    seen = model.kind_mask(middle, ("tile", "icon"))
    if seen.mean() < 0.5:
        return None
    icon = model.kind_mask(middle, ("icon",))
    categories, turns = _icon_templates(pack, side)
    # every category's every turn at once: intersection over union on the pixels seen
    inter = np.count_nonzero(turns & (icon & seen), axis=(1, 2)).astype(np.float64)
    union = np.count_nonzero((turns | icon) & seen, axis=(1, 2)).astype(np.float64)
    best = (inter / np.maximum(union, 1.0)).reshape(len(categories), 4).max(axis=1)
    scores = {category: max(0.0, float(v)) for category, v in zip(categories, best, strict=True)}
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    if ranked[0][1] < 0.45 or ranked[0][1] - ranked[1][1] < 0.15:
        return None
    return ranked[0][0]


def _opening_offset(channel: np.ndarray, fractions: tuple[float, float, float], depth0: int,
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
    dx, dy = b[0] - a[0], b[1] - a[1]
    dist = math.hypot(dx, dy)
    if dist <= 2 * rc:
        return 0.0
    ux, uy = dx / dist, dy / dist
    p = dark.shape[0]
    run = longest = 0.0
    step = 0.5
    for t in np.arange(rc, dist - rc + 1e-6, step):
        hit = False
        for o in (-1.5, -0.75, 0.0, 0.75, 1.5):
            x = int(round(a[0] + t * ux - o * uy))
            y = int(round(a[1] + t * uy + o * ux))
            if 0 <= x < p and 0 <= y < p and dark[y, x]:
                hit = True
                break
        run = 0.0 if hit else run + step
        longest = max(longest, run)
    return longest
