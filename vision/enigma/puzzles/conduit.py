"""The conduit puzzle seen by the camera: each card cell's piece and its openings."""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np

from companion.enigma import puzzle_conduit as conduit
from companion.enigma.puzzles import PuzzleBox
from vision.enigma.mat import CARD_PX_PER_MM
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.cards import conduit_grid
from vision.enigma.puzzles.conduit_offset import print_offset
from vision.enigma.puzzles.conduit_print import PiecePrint, band_colour, piece_prints
from vision.enigma.puzzles.marks import cell_marks, cells_named, open_channels, spot_marks
from vision.enigma.puzzles.verdicts import MarkKind, Reason, as_verdict
from vision.enigma.puzzles.view import (
    CANNOT_TELL,
    NOT_SOLVED,
    SOLVED,
    CardView,
    verdict,
)
from vision.enigma.settings import PuzzleSettings

#: sides and the grid step towards each
OFFSETS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}

Cell = tuple[int, int]


def _shape(openings: frozenset[str]) -> frozenset[str]:
    """The openings turned to their first form: one per piece shape, whatever its turn."""
    return min((conduit.turn_openings(openings, r) for r in range(4)),
               key=conduit.format_openings)


def cell_centres(view: CardView, pack: EnigmaPack, card: conduit.ConduitCard
                 ) -> tuple[dict[Cell, tuple[float, float]], float]:
    """Per card cell its centre in the card view (pixels), and a cell's side there."""
    cell_mm, gx, gy = conduit_grid(card, pack.tile_mm)
    cell = cell_mm * CARD_PX_PER_MM
    centres = {}
    for at in card.cells:
        x0, y0 = view.mm_to_px(gx + at[0] * cell_mm, gy + at[1] * cell_mm)
        centres[at] = (x0 + cell / 2, y0 + cell / 2)
    return centres, cell


def read_conduit_grid(view: CardView, pack: EnigmaPack, card: conduit.ConduitCard, *,
                      offset: tuple[float, float] = (0.0, 0.0), sums: np.ndarray | None = None,
                      contrasts: dict[tuple[Cell, str], float] | None = None
                      ) -> tuple[dict[Cell, frozenset[str]], set[tuple[Cell, str]],
                                 set[tuple[Cell, str]], list[str]]:
    """Per card cell: the openings of the piece laid there (cells without a piece left out),
    read by the piece's own print (:func:`read_piece`) ``offset`` pixels off the cell's
    centre (:func:`~vision.enigma.puzzles.conduit_offset.print_offset`); the printed stubs
    seen at the grid's border (printed on the card, read at the grid itself), the places at
    the border where a stub is not seen clearly either way (:func:`stub_contrast`), and the
    doubts (the cells not seen clearly). ``sums``: the view's integral (cv2's, float64),
    when the caller has it; ``contrasts``: the stubs' contrasts already measured, filled
    with those measured here (they are read at the grid whatever the offset)."""
    centres, cell = cell_centres(view, pack, card)
    if sums is None:
        sums = cv2.integral(view.image, sdepth=cv2.CV_64F)
    at_prints = np.array([centres[at] for at in card.cells], np.float64) + offset
    prints = dict(zip(card.cells, piece_prints(sums, at_prints, cell), strict=True))
    contrasts = {} if contrasts is None else contrasts
    seen: dict[Cell, frozenset[str]] = {}
    doubts: list[str] = []
    stubs_seen: set[tuple[Cell, str]] = set()
    stubs_unclear: set[tuple[Cell, str]] = set()
    cells = set(card.cells)
    for at in card.cells:
        cx, cy = centres[at]
        read = read_piece(prints[at])
        if read is None:
            doubts.append(f"{list(at)}")
            continue
        if read[0]:
            seen[at] = read[1]
        for sd, (ux, uy) in OFFSETS.items():
            if (at[0] + ux, at[1] + uy) in cells:
                continue
            if (at, sd) not in contrasts:
                contrasts[at, sd] = stub_contrast(view.image, (cx, cy), (ux, uy), cell, pack)
            contrast = contrasts[at, sd]
            if contrast >= STUB_SEEN:
                stubs_seen.add((at, sd))
            elif contrast > STUB_NONE:
                stubs_unclear.add((at, sd))
    return seen, stubs_seen, stubs_unclear, doubts


#: a cell's centre at least this much darker than its corners shows a piece's disc, at most
#: this much is bare paper; between, a question (wood and cloth, tuning seeds 0-59 under a
#: strong glare: pieces from 0.10, empty cells up to 0.07; mild and moderate, seeds 0-39
#: and 0-19: pieces from 0.34, empty cells up to 0.05)
PIECE_DISC, EMPTY_DISC = 0.09, 0.075
#: an arm at least this far from the face to the disc is a channel (an opening), at most this
#: far none; between, a question (the same frames: strong, openings from 0.61 and closed
#: sides up to 0.16; mild and moderate, openings from 0.84 and closed sides up to 0.06)
ARM_OPEN, ARM_CLOSED = 0.45, 0.3


def read_piece(printed: PiecePrint | None) -> tuple[bool, frozenset[str]] | None:
    """(whether a piece is laid, its openings) read from a cell's print
    (:func:`~vision.enigma.puzzles.conduit_print.piece_print`), None when the cell is not
    seen clearly: its disc too faint for a piece and too dark for paper, or an arm neither
    channel nor face. Read on the camera's view, where the light changes little over a
    cell: a light-flattened card and a mask of channel pixels lost arms a lamp's glare
    washed (conduit wood/strong seeds 12, 22 and 28: an open arm read closed) and took
    washed pieces' faces for paper."""
    if printed is None:
        return None
    if printed.disc <= EMPTY_DISC:
        return False, frozenset()
    if printed.disc < PIECE_DISC or any(ARM_CLOSED < t < ARM_OPEN for t in printed.arms.values()):
        return None
    return True, frozenset(sd for sd, t in printed.arms.items() if t >= ARM_OPEN)


#: a printed stub runs from the grid's edge (half a cell from the cell's centre) to 0.68 of a
#: cell, 0.22 of a cell wide: its print is read from just past the grid's line to short of
#: its end (shares of a cell from the cell's centre), across its middle, and the card's
#: paper beside it on both sides, at the same distance, and past its end on its own line
#: (short of the card's edge, 1.03 cells out)
STUB_ALONG, STUB_ACROSS, PAPER_ACROSS = (0.55, 0.66), (-0.07, 0.07), (0.2, 0.32)
PAPER_PAST_END = (0.74, 0.86)
#: a stub's place showing at least this share of the print's own contrast against the paper
#: is a stub, at most this share none, and between the two it is not seen clearly (wood and
#: cloth, tuning seeds 0-59: under a strong glare stubs from 0.10 and bare paper up to 0.04,
#: in moderate light stubs from 0.50 and bare paper up to 0.02)
STUB_SEEN, STUB_NONE = 0.08, 0.06


def stub_contrast(image: np.ndarray, centre: tuple[float, float], unit: tuple[int, int],
                  cell: float, pack: EnigmaPack) -> float:
    """How much of a printed stub's own contrast the place of a stub off the cell at
    ``centre``, towards ``unit``, shows against the card's paper under it (1: as printed,
    0: bare paper), in the colour where the print is darkest against the paper. Read on the
    camera's view, not the light-flattened card: the light field under a hand's shadow or a
    lamp's glare errs by more than a washed stub's contrast (conduit wood/strong seeds 12,
    23, 31 and 44), while the light changes little over a third of a cell. A glare's white
    lowers the share; bare paper keeps it near 0.

    The paper under the stub is the darker of two measures: the mean of the paper on its
    two sides (a lamp's light falling across the stub: the lesser side alone, under the
    glare's slope, is darker than the paper under the stub, and a stub washed by the glare
    read as none, conduit wood/strong seed 17's near miss at W of [0, 0]: 0.08, the mean
    0.15), and the paper past its end on its own line (a hand's shadow whose edge runs
    along the stub darkens one side and the stub's place alike: the mean of the sides
    would be brighter than the paper under the stub and bare paper would show a stub)."""
    paper = np.array(pack.colour("card"), np.float32)
    ink = np.array(pack.colour("channel"), np.float32)
    darkest = int(np.argmin(ink / np.maximum(paper, 1.0)))
    depth = 1.0 - float(ink[darkest] / max(float(paper[darkest]), 1.0))
    band = band_colour(image, centre, unit, STUB_ALONG, STUB_ACROSS, cell)
    sides = [band_colour(image, centre, unit, STUB_ALONG, across, cell)
             for across in (PAPER_ACROSS, (-PAPER_ACROSS[1], -PAPER_ACROSS[0]))]
    past = band_colour(image, centre, unit, PAPER_PAST_END, STUB_ACROSS, cell)
    if band is None or past is None or sides[0] is None or sides[1] is None or depth <= 0:
        return 0.0
    under = min((float(sides[0][darkest]) + float(sides[1][darkest])) / 2,
                float(past[darkest]))
    return (1.0 - float(band[darkest]) / max(under, 1.0)) / depth


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


def _pieces_solve(seen: dict[Cell, frozenset[str]], stubs_seen: set[tuple[Cell, str]],
                  doubts: list[str], card: conduit.ConduitCard, box: PuzzleBox, *,
                  given: bool) -> bool:
    """Whether the pieces read would pass the check: every cell seen clearly, every piece
    one to use, and every channel connected or closed (the stubs aside)."""
    if doubts:
        return False
    as_read = card if given else _card_as_read(card, seen, stubs_seen, box)
    solution, refusal = laid_pieces(seen, as_read, box)
    return refusal is None and conduit.conduit_problem(as_read, box.conduit.pieces,
                                                       solution) is None


def _read_offset(view: CardView, pack: EnigmaPack, card: conduit.ConduitCard, box: PuzzleBox,
                 *, given: bool) -> tuple[dict[Cell, frozenset[str]], set[tuple[Cell, str]],
                                          set[tuple[Cell, str]], list[str]]:
    """:func:`read_conduit_grid`, read again where the pieces' prints lie off the grid
    (:func:`print_offset`) unless the pieces read at the grid pass the check. Any other
    answer is not given on the grid's read alone: a print a tenth of a cell off the grid can
    read clearly and wrongly there (an open arm's window on the channel's blurred edge reads
    as face), and a right build was then told a piece is not one of the pieces to use or a
    channel is open; the offset read, where every piece's arms read clearest, is the one
    judged."""
    sums = cv2.integral(view.image, sdepth=cv2.CV_64F)
    contrasts: dict[tuple[Cell, str], float] = {}
    read = read_conduit_grid(view, pack, card, sums=sums, contrasts=contrasts)
    if _pieces_solve(read[0], read[1], read[3], card, box, given=given):
        return read
    centres, cell = cell_centres(view, pack, card)
    offset = print_offset(view.image, list(centres.values()), cell,
                          lambda printed: printed is not None and printed.disc >= PIECE_DISC,
                          sums=sums)
    if offset == (0.0, 0.0):
        return read
    return read_conduit_grid(view, pack, card, offset=offset, sums=sums, contrasts=contrasts)


def check_conduit(view: CardView, pack: EnigmaPack, card: conduit.ConduitCard | None,
                  box: PuzzleBox, st: PuzzleSettings) -> dict[str, str]:
    """The conduit verdict: the pieces laid on the card's grid, their openings matched to the
    box's pieces and judged by the engine; without the card entered, never "solved"."""
    given = card is not None
    if card is None:
        card = conduit.ConduitCard("read", tuple((x, y) for y in range(3) for x in range(3)),
                                   frozenset(), frozenset())
    seen, stubs_seen, stubs_unclear, doubts = _read_offset(view, pack, card, box,
                                                           given=given)
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


__all__ = ["check_conduit", "laid_pieces", "read_piece"]
