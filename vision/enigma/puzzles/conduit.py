"""The conduit puzzle seen by the camera: each card cell's piece and its openings."""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np

from companion.enigma import puzzle_conduit as conduit
from companion.enigma.puzzles import PuzzleBox
from vision.enigma.mat import (
    CARD_PX_PER_MM,
)
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.cards import (
    conduit_grid,
)
from vision.enigma.puzzles.marks import cell_marks, cells_named, open_channels, spot_marks
from vision.enigma.puzzles.verdicts import MarkKind, Reason, as_verdict
from vision.enigma.puzzles.view import (
    CANNOT_TELL,
    NOT_SOLVED,
    SOLVED,
    CardView,
    flatten_light,
    nearest_colour,
    verdict,
)
from vision.enigma.settings import PuzzleSettings

#: sides and the grid step towards each
OFFSETS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
#: half the side (share of a grid cell) of a cell's middle, where a piece is looked for
CELL_MIDDLE = 0.3
#: a cell's middle covered by piece or channel at least this much holds a piece; between
#: the lower bound and this, it is a question
PIECE_COVER = 0.6
UNCLEAR_COVER = 0.25
#: where (share of a cell from its centre) a piece's opening is looked for, and the half
#: side of the window there
OPENING_AT, OPENING_HALF = 0.38, 0.08
#: an opening's window this share dark says "open"; above the lower bound, a question
OPEN_SHARE, UNCLEAR_OPEN = 0.5, 0.2

Cell = tuple[int, int]


def _shape(openings: frozenset[str]) -> frozenset[str]:
    """The openings turned to their first form: one per piece shape, whatever its turn."""
    return min((conduit.turn_openings(openings, r) for r in range(4)),
               key=conduit.format_openings)


def _window(mask: np.ndarray, centre: tuple[float, float], half: float) -> np.ndarray:
    wx, wy = centre
    return mask[int(wy - half):int(wy + half) + 1, int(wx - half):int(wx + half) + 1]


#: a channel is darker than this share of the brightest pixel within this many channel
#: widths of it (the piece's or the card's paper), however a glare washes it
CHANNEL_OF_LOCAL_MAX, CHANNEL_REACH = 0.72, 1.3
#: or, however a glare washes it, a channel lies this share of the way from the brightest
#: pixel near it down to the darkest within this share of a cell (a piece's channel runs
#: within half a cell of any point of it; the piece's face lies a third of the way), where
#: that depth is at least this many levels
CHANNEL_OF_DEPTH, CHANNEL_SPAN, CHANNEL_MIN_DEPTH, CHANNEL_SMOOTH = 0.55, 0.5, 30.0, 2.0
#: a cell's middle this much channel surely holds a piece (the printed grid lies at the
#: cells' borders): such cells show the pieces' colour as this camera sees it
SURE_PIECE_CHANNEL = 0.3


def _cell_middles(view: CardView, card: conduit.ConduitCard, pack: EnigmaPack
                  ) -> dict[Cell, tuple[slice, slice]]:
    cell_mm, gx, gy = conduit_grid(card, pack.tile_mm)
    cell = cell_mm * CARD_PX_PER_MM
    out = {}
    for at in card.cells:
        x0, y0 = view.mm_to_px(gx + at[0] * cell_mm, gy + at[1] * cell_mm)
        cx, cy = x0 + cell / 2, y0 + cell / 2
        out[at] = (slice(int(cy - CELL_MIDDLE * cell), int(cy + CELL_MIDDLE * cell)),
                   slice(int(cx - CELL_MIDDLE * cell), int(cx + CELL_MIDDLE * cell)))
    return out


def cell_covers(view: CardView, card: conduit.ConduitCard, pack: EnigmaPack,
                flat: np.ndarray, open_m: np.ndarray) -> dict[Cell, float]:
    """How much of each cell's middle a piece covers: its channel, plus the rest as far as
    the rest's colour (its median: a pale piece differs from the card by less than the
    noise, pixel by pixel) lies the way from the card's colour to the pieces' colour as seen
    on the cells that surely hold a piece (a lamp's glare and the print's tint make a piece
    paler than the pack says, alike on every piece)."""
    card_c = np.array(pack.colour("card"), np.float32)
    middles = _cell_middles(view, card, pack)
    shares: dict[Cell, float] = {}
    shaped: dict[Cell, bool] = {}
    rests: dict[Cell, np.ndarray | None] = {}
    shaded = shadowed_cells(view, flat, middles)
    for at, inner in middles.items():
        channel = open_m[inner]
        rest = flat[inner][~channel]
        shares[at] = float(channel.mean()) if channel.size else 0.0
        shaped[at] = channel_from_centre(channel)
        rests[at] = np.median(rest, axis=0) - card_c if len(rest) else None
        if at in shaded and shares[at] < NO_CHANNEL:
            rests[at] = None  # empty: see shadowed_cells
    sure = [r for at, r in rests.items() if r is not None and shares[at] >= SURE_PIECE_CHANNEL]
    towards = (np.median(np.array(sure), axis=0) if sure
               else np.array(pack.colour("piece"), np.float32) - card_c)
    covers = {}
    for at, share in shares.items():
        rest_c = rests[at]
        t = 0.0 if rest_c is None else _piece_likeness(rest_c, towards)
        # the card prints nothing in a cell's middle and every piece's channel runs to its
        # centre: this much channel is a piece, however pale a lamp makes its face
        covers[at] = 1.0 if share >= SURE_PIECE_CHANNEL or shaped[at] else (
            share + (1.0 - share) * min(1.0, max(0.0, t)))
    return covers


#: a cell whose middle is less than this share channel shows no channel at all
NO_CHANNEL = 0.01
#: a cell lies in a shadow where the light on it is below this share of the card's median
#: light
SHADOWED = 0.9


def shadowed_cells(view: CardView, flat: np.ndarray, middles: dict[Cell, tuple[slice, slice]]
                   ) -> set[Cell]:
    """The cells whose middle lies in a shadow (:data:`SHADOWED`), by the light the
    flattening divided out (the view's level over the flattened level). In a shadow a piece's
    channel keeps its contrast against the piece's face (a shadow multiplies the light; only
    a lamp's glare, which lifts it, washes a channel out), so a shadowed cell with no channel
    (:data:`NO_CHANNEL`) holds no piece, whatever its colour: the light field takes a pale
    piece's face for paper, the pieces' colour as seen is then a few levels off the card's,
    and the residue of a hand's shadow on an empty cell read as a piece with no opening or
    as a question (conduit wood/strong seeds 13, 14 and 17, cloth/strong seed 19). A piece
    a glare washes out (cloth/strong seed 8: 3% channel, the light at 0.96 of the card's) is
    not in a shadow, and stays a question."""
    a, b = int(round(view.margin_px)), int(round(view.margin_px + view.side_px))
    light = channel_mean(view.image) / np.maximum(channel_mean(flat), 1.0)
    card_light = float(np.median(light[a:b, a:b]))
    return {at for at, inner in middles.items()
            if float(np.median(light[inner])) < SHADOWED * card_light}


#: a cell's centre (this share of a cell each way) this much channel: every piece's channel
#: runs through it
CENTRE_HALF, CENTRE_CHANNEL = 0.06, 0.5


def channel_from_centre(channel: np.ndarray) -> bool:
    """Whether a cell's middle (``channel``: its channel pixels) shows a piece's channel by
    its shape: over the cell's centre and running on, unbroken, to the middle's border. The
    card prints nothing in a cell's middle and every piece's channel runs from its centre to
    a side, so this is a piece however pale a glare makes its face and however thin its
    channel: an elbow or a dead end under a glare covers less of the middle than
    :data:`SURE_PIECE_CHANNEL` (conduit wood/strong seed 4: a right solution 'not seen
    clearly')."""
    h, w = channel.shape
    if h < 3 or w < 3:
        return False
    n, labels = cv2.connectedComponents(channel.astype(np.uint8), connectivity=8)
    r = max(1, int(round(CENTRE_HALF / (2 * CELL_MIDDLE) * min(h, w))))
    centre = labels[h // 2 - r:h // 2 + r + 1, w // 2 - r:w // 2 + r + 1]
    if n < 2 or float((centre > 0).mean()) < CENTRE_CHANNEL:
        return False
    through = set(np.unique(centre[centre > 0]).tolist())
    border = np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]])
    return bool(through & set(np.unique(border[border > 0]).tolist()))


#: the pieces' hue is measured when the sure pieces differ from the card in hue by at least
#: this many levels (a glare can wash it out, and then brightness alone is left)
MIN_PIECE_HUE = 2.0


def _piece_likeness(rest: np.ndarray, towards: np.ndarray) -> float:
    """How far a cell's colour ``rest`` (less the card's) lies the way from the card's colour
    to the pieces' (``towards``). Past the pieces' own colour (darker than they are) only
    the pieces' hue tells: a hand's shadow the light field leaves on the card darkens it
    without that hue, and an empty cell under it read as a piece with no opening (conduit
    cloth/strong seeds 1 and 2, right solutions: 'not seen clearly'). Short of the pieces'
    colour (a piece a glare washes) brightness and hue fade together, and the hue alone
    read a washed piece as an empty cell (cloth/strong seed 4: 'not solved')."""
    along = float(np.dot(rest, towards)) / max(float(np.dot(towards, towards)), 1.0)
    hue = towards - towards.mean()
    if along <= 1.0 or float(np.linalg.norm(hue)) < MIN_PIECE_HUE:
        return along
    return min(along, float(np.dot(rest - rest.mean(), hue)) / float(np.dot(hue, hue)))


def channel_mean(image: np.ndarray) -> np.ndarray:
    """The mean of an 8-bit image's three channels as float32, the same to the bit as
    ``image.astype(np.float32).mean(axis=2)`` (the sum of whole levels is exact in float32,
    and a third of it is rounded once either way) in a twentieth of the time: numpy's mean
    over a short last axis is slow (14 ms a check)."""
    b, g, r = cv2.split(image)
    total = cv2.add(cv2.add(b, g, dtype=cv2.CV_32F), r, dtype=cv2.CV_32F)
    mean: np.ndarray = total / np.float32(3)
    return mean


def flat_card_and_channel(view: CardView, pack: EnigmaPack, cell_px: float
                         ) -> tuple[np.ndarray, np.ndarray]:
    """The light-flattened card and its open (channel) pixels (``cell_px``: the card grid's
    cell)."""
    flat = flatten_light(view, pack, others={"piece": pack.colour("piece"),
                                             "channel": pack.colour("channel")})
    # labelled on the card only: every window the check reads lies on it (the view around
    # it is two thirds of the pixels)
    a, b = int(round(view.margin_px)), int(round(view.margin_px + view.side_px))
    labels, names = nearest_colour(flat[a:b, a:b], {
        "card": pack.colour("card"), "ink": pack.colour("ink"), "piece": pack.colour("piece"),
        "channel": pack.colour("channel"), "table": pack.colour("table")})
    named = np.zeros(flat.shape[:2], bool)
    named[a:b, a:b] = (labels == names.index("channel")) | (labels == names.index("ink"))
    # a lamp's glare lifts a channel towards the piece's colour, but it stays much darker
    # than the piece or card beside it (within a channel's width)
    gray = channel_mean(flat)
    reach = int(CHANNEL_REACH * float(pack.sizes["channel"]) * pack.tile_mm * CARD_PX_PER_MM)
    # on levels smoothed over a few pixels: washed out, the channel is as faint as the noise,
    # and the brightest pixel of a noisy patch lies some noise widths over its paper (a pale
    # piece's face then read darker than 0.72 of it in specks over a quarter of an
    # opening's window, a question: conduit cloth/strong seed 10)
    smooth = cv2.GaussianBlur(gray, (0, 0), CHANNEL_SMOOTH)
    top = cv2.dilate(smooth, np.ones((2 * reach + 1,) * 2, np.uint8))
    darker = (smooth < CHANNEL_OF_LOCAL_MAX * top) & view.inside_card()
    # a strong glare adds white: the channel is then far less than 0.72 darker, but the
    # light-flattened levels change by one scale and one offset across a small patch, so
    # the channel still lies as far from the paper, relative to the darkest nearby
    span = int(CHANNEL_SPAN * cell_px)
    depth = top - cv2.erode(smooth, np.ones((2 * span + 1,) * 2, np.uint8))
    deep = ((top - smooth >= CHANNEL_OF_DEPTH * depth) & (depth >= CHANNEL_MIN_DEPTH)
            & view.inside_card())
    # on a piece nothing is printed: a dark pixel there is channel even if nearer the ink
    return flat, named | darker | deep


def read_conduit_grid(view: CardView, pack: EnigmaPack, card: conduit.ConduitCard,
                      flat: np.ndarray, open_m: np.ndarray
                     ) -> tuple[dict[Cell, frozenset[str]], set[tuple[Cell, str]],
                                set[tuple[Cell, str]], list[str]]:
    """Per card cell: the openings of the piece laid there (cells without a piece left out),
    the printed stubs seen at the grid's border, the places at the border where a stub is
    not seen clearly either way (:func:`stub_contrast`), and the doubts."""
    cell_mm, gx, gy = conduit_grid(card, pack.tile_mm)
    cell = cell_mm * CARD_PX_PER_MM
    seen: dict[Cell, frozenset[str]] = {}
    doubts: list[str] = []
    stubs_seen: set[tuple[Cell, str]] = set()
    stubs_unclear: set[tuple[Cell, str]] = set()
    cells = set(card.cells)
    covers = cell_covers(view, card, pack, flat, open_m)
    for at in card.cells:
        x0, y0 = view.mm_to_px(gx + at[0] * cell_mm, gy + at[1] * cell_mm)
        cx, cy = x0 + cell / 2, y0 + cell / 2
        cover = covers[at]
        if UNCLEAR_COVER < cover < PIECE_COVER:
            doubts.append(f"{list(at)}")
            continue
        if cover >= PIECE_COVER:
            seen[at] = frozenset()
            for sd, (ux, uy) in OFFSETS.items():
                win = _window(open_m, (cx + ux * OPENING_AT * cell, cy + uy * OPENING_AT * cell),
                              OPENING_HALF * cell)
                f = float(win.mean()) if win.size else 0.0
                if UNCLEAR_OPEN < f < OPEN_SHARE:
                    doubts.append(f"{list(at)}")
                if f >= OPEN_SHARE:
                    seen[at] = seen[at] | {sd}
        for sd, (ux, uy) in OFFSETS.items():
            if (at[0] + ux, at[1] + uy) in cells:
                continue
            contrast = stub_contrast(view.image, (cx, cy), (ux, uy), cell, pack)
            if contrast >= STUB_SEEN:
                stubs_seen.add((at, sd))
            elif contrast > STUB_NONE:
                stubs_unclear.add((at, sd))
    return seen, stubs_seen, stubs_unclear, doubts


#: a printed stub runs from the grid's edge (half a cell from the cell's centre) to 0.68 of a
#: cell, 0.22 of a cell wide: its print is read from just past the grid's line to short of
#: its end (shares of a cell from the cell's centre), across its middle, and the card's
#: paper beside it on both sides, at the same distance (a lamp's light and a hand's shadow
#: change little over a third of a cell)
STUB_ALONG, STUB_ACROSS, PAPER_ACROSS = (0.55, 0.66), (-0.07, 0.07), (0.2, 0.32)
#: a stub's place showing at least this share of the print's own contrast against the paper
#: is a stub, at most this share none, and between the two it is not seen clearly (wood and
#: cloth, tuning seeds 0-59: under a strong glare stubs from 0.10 and bare paper up to 0.04,
#: in moderate light stubs from 0.50 and bare paper up to 0.02)
STUB_SEEN, STUB_NONE = 0.08, 0.06


def _band_colour(image: np.ndarray, centre: tuple[float, float], unit: tuple[int, int],
                 along: tuple[float, float], across: tuple[float, float], cell: float
                 ) -> np.ndarray | None:
    """The mean colour of the rectangle from ``along[0]`` to ``along[1]`` cells from
    ``centre`` towards ``unit`` and from ``across[0]`` to ``across[1]`` cells to its side."""
    (cx, cy), (ux, uy) = centre, unit
    xs = [cx + (ux * a - uy * b) * cell for a in along for b in across]
    ys = [cy + (uy * a + ux * b) * cell for a in along for b in across]
    x0, x1 = max(0, int(min(xs))), int(max(xs)) + 1
    y0, y1 = max(0, int(min(ys))), int(max(ys)) + 1
    patch = image[y0:y1, x0:x1]
    if not patch.size:
        return None
    mean: np.ndarray = patch.reshape(-1, 3).astype(np.float32).mean(axis=0)
    return mean


def stub_contrast(image: np.ndarray, centre: tuple[float, float], unit: tuple[int, int],
                  cell: float, pack: EnigmaPack) -> float:
    """How much of a printed stub's own contrast the place of a stub off the cell at
    ``centre``, towards ``unit``, shows against the card's paper beside it (1: as printed,
    0: bare paper): the lesser on its two sides (a shadow's edge darkens one side only), in
    the colour where the print is darkest against the paper. Read on the camera's view, not
    the light-flattened card: the light field under a hand's shadow or a lamp's glare errs
    by more than a washed stub's contrast (conduit wood/strong seeds 12, 23, 31 and 44: a
    stub the camera shows read as none, and the right solution 'shows no stub'), while the
    light changes little over a third of a cell. A glare's white lowers the share; bare
    paper keeps it near 0."""
    paper = np.array(pack.colour("card"), np.float32)
    ink = np.array(pack.colour("channel"), np.float32)
    darkest = int(np.argmin(ink / np.maximum(paper, 1.0)))
    depth = 1.0 - float(ink[darkest] / max(float(paper[darkest]), 1.0))
    band = _band_colour(image, centre, unit, STUB_ALONG, STUB_ACROSS, cell)
    sides = [_band_colour(image, centre, unit, STUB_ALONG, across, cell)
             for across in (PAPER_ACROSS, (-PAPER_ACROSS[1], -PAPER_ACROSS[0]))]
    if band is None or depth <= 0:
        return 0.0
    return min((1.0 - float(band[darkest]) / max(float(side[darkest]), 1.0)) / depth
               if side is not None else 0.0 for side in sides)


def _card_as_read(card: conduit.ConduitCard, seen: dict[Cell, frozenset[str]],
                  stubs_seen: set[tuple[Cell, str]], box: PuzzleBox) -> conduit.ConduitCard:
    """Which pieces are marked X is not read: the card as if every piece not laid were
    marked."""
    laid_shapes = Counter(_shape(o) for o in seen.values())
    unused: list[str] = []
    for piece in box.conduit.pieces:
        shape = min((piece.turned(r) for r in range(4)), key=conduit.format_openings)
        if laid_shapes[shape] > 0:
            laid_shapes[shape] -= 1
        else:
            unused.append(piece.id)
    return conduit.ConduitCard("read", card.cells, frozenset(stubs_seen), frozenset(unused))


def _one_opening_from(openings: frozenset[str], shapes: list[frozenset[str]]) -> bool:
    """Whether ``openings``, turned some way, differ from one of ``shapes`` by one opening."""
    return any(len(conduit.turn_openings(openings, r) ^ shape) <= 1
               for shape in shapes for r in range(4))


def _openings_unclear(at: Cell) -> dict[str, str]:
    """"Cannot tell": the openings of the piece on ``at`` are unclear, and what to do."""
    return verdict(CANNOT_TELL, f"the openings of the piece on {list(at)} are not seen "
                   "clearly: move the lamp or the hand off the card", code=Reason.OPENINGS_UNCLEAR,
                   facts={"cell": at})


def laid_pieces(seen: dict[Cell, frozenset[str]], card: conduit.ConduitCard, box: PuzzleBox
                 ) -> tuple[conduit.ConduitSolution, dict[str, str] | None]:
    """Each laid piece given an id of the box's pieces with those openings (a solution), and
    the verdict that ends the check when a piece is unclear or not one to use."""
    free: dict[frozenset[str], list[str]] = {}
    for piece in box.conduit.pieces:
        if piece.id in card.excluded:
            continue
        shape = min((piece.turned(r) for r in range(4)), key=lambda o: conduit.format_openings(o))
        free.setdefault(shape, []).append(piece.id)
    by_id = {p.id: p for p in box.conduit.pieces}
    every_shape = {min((p.turned(r) for r in range(4)), key=conduit.format_openings)
                   for p in box.conduit.pieces}
    solution: conduit.ConduitSolution = {}
    for at, openings in sorted(seen.items()):
        shape = _shape(openings) if openings else frozenset()
        if shape not in every_shape:
            # no piece of the box looks like this: the camera misread it
            return solution, _openings_unclear(at)
        if not free.get(shape) and _one_opening_from(openings, [s for s, ids in free.items()
                                                            if ids]):
            # a piece read one opening away from a piece still to use is likelier that piece
            # with an opening misread than a piece the card does not use
            return solution, _openings_unclear(at)
        if not free.get(shape):
            return solution, verdict(NOT_SOLVED, f"the piece on {list(at)} (openings "
                                     f"{conduit.format_openings(openings)}) is not one of the "
                                     "pieces to use (or one too many of its kind)",
                                     code=Reason.PIECE_NOT_IN_SET, facts={"cell": at})
        pid = free[shape].pop(0)
        rotation = next(r for r in range(4) if by_id[pid].turned(r) == openings)
        solution[pid] = (at, rotation)
    return solution, None


def _unclear_cells(cells: list[str]) -> str:
    """One sentence: which cells are unclear and what to do about it."""
    named = list(dict.fromkeys(cells))
    where = " and ".join(named[:3]) + (f" and {len(named) - 3} more" if len(named) > 3 else "")
    return (f"the pieces on {where} are not seen clearly: move the lamp or the hand so that "
            "no reflection or shadow lies on the card")


def _stubs_differ(seen: set[tuple[Cell, str]], entered: set[tuple[Cell, str]],
                  unclear: set[tuple[Cell, str]]) -> str:
    """One sentence: which stub differs between the card in the frame and the card entered,
    or is not seen clearly either way."""
    def names(stubs: set[tuple[Cell, str]]) -> str:
        return " and ".join(f"{sd} of {list(at)}" for at, sd in sorted(stubs))
    extra, missing = seen - entered, entered - seen - unclear
    parts = []
    if extra:
        parts.append(f"shows a stub at {names(extra)} that the card entered has not")
    if missing:
        parts.append(f"shows no stub at {names(missing)} where the card entered has one")
    if unclear:
        parts.append(f"does not show clearly whether a stub is printed at {names(unclear)}")
    return (f"the card in the frame {' and '.join(parts)}: check that the card entered is this "
            "card, or move the lamp so that no reflection lies on the card's edge")


def check_conduit(view: CardView, pack: EnigmaPack, card: conduit.ConduitCard | None,
                  box: PuzzleBox, st: PuzzleSettings) -> dict[str, str]:
    """The conduit verdict: the pieces laid on the card's grid, their openings matched to the
    box's pieces and judged by the engine; without the card entered, never "solved"."""
    given = card is not None
    if card is None:
        card = conduit.ConduitCard("read", tuple((x, y) for y in range(3) for x in range(3)),
                                   frozenset(), frozenset())
    flat, open_m = flat_card_and_channel(view, pack,
                              conduit_grid(card, pack.tile_mm)[0] * CARD_PX_PER_MM)
    seen, stubs_seen, stubs_unclear, doubts = read_conduit_grid(view, pack, card, flat, open_m)
    if doubts:
        unclear = cells_named(doubts)
        return verdict(CANNOT_TELL, _unclear_cells(doubts), code=Reason.CELLS_UNCLEAR,
                       facts={"cells": len(set(doubts))},
                       marks=cell_marks(view, card, pack, unclear, MarkKind.DOUBT))
    if given and (stubs_unclear or stubs_seen != set(card.stubs)):
        differ = (stubs_seen ^ set(card.stubs)) | stubs_unclear
        return verdict(CANNOT_TELL, _stubs_differ(stubs_seen, set(card.stubs), stubs_unclear),
                       code=Reason.STUBS_DIFFER,
                       facts={"extra": len(stubs_seen - set(card.stubs)),
                              "missing": len(set(card.stubs) - stubs_seen - stubs_unclear),
                              "unclear": len(stubs_unclear)},
                       marks=spot_marks(view, card, pack, differ, MarkKind.STUB))
    if not given:
        card = _card_as_read(card, seen, stubs_seen, box)
    solution, refusal = laid_pieces(seen, card, box)
    if refusal is not None:
        said = as_verdict(refusal)
        return said.with_marks(cell_marks(view, card, pack, [said.facts["cell"]],
                                          MarkKind.DOUBT) if "cell" in said.facts else ())
    problem = conduit.conduit_problem(card, box.conduit.pieces, solution)
    if problem is not None:
        spots = open_channels(card, seen)
        unused = set(p.id for p in box.conduit.pieces) - set(card.excluded) - set(solution)
        return verdict(NOT_SOLVED, problem,
                       code=Reason.CHANNEL_OPEN if spots else Reason.PIECES_UNUSED,
                       facts={"open": len(spots), "unused": len(unused)},
                       marks=spot_marks(view, card, pack, spots, MarkKind.CHANNEL))
    if not given:
        return verdict(CANNOT_TELL, "every channel is closed, but the pieces marked X are not "
                       "read from the card: enter the card", code=Reason.CARD_NEEDED)
    return verdict(SOLVED, f"every channel is connected or closed, {len(solution)} pieces used"
                   + (f", {', '.join(sorted(card.excluded))} set aside" if card.excluded else ""),
                   code=Reason.CONNECTED, facts={"pieces": len(solution)})


__all__ = ["channel_mean", "check_conduit", "laid_pieces"]
