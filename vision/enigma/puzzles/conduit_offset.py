"""Where the conduit pieces' prints lie against the card's grid: one offset for the card.

The pieces stand a few millimetres above the card, and a camera that looks at the card at a
slant sees their top faces, where the print is, displaced from the grid printed beneath them,
by nearly the same amount over the whole card (the card is small beside the camera's
distance). The card found may also sit a pixel or two off. Read at the grid's centres, the
arm's window then lies on the channel's blurred edge, half channel and half face, and the
piece is "not seen clearly". The offset is found once per card, over every cell that shows a
piece: the shift, within :data:`PRINT_REACH` of a cell, at which the arms read most clearly
(each as face or as channel), so a single cell's glare or shadow does not move it, and a
piece's openings are never read from a window moved onto another piece.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

from vision.enigma.puzzles.conduit_print import PiecePrint, piece_prints, print_arms

Centre = tuple[float, float]

#: the farthest (share of a cell) the prints are looked for off the grid: a piece 5 mm thick
#: seen 25 degrees off the vertical, and the card found 2 pixels off, come to 0.1 of a cell
PRINT_REACH = 0.12
#: the offsets are tried on a grid of the first step (share of a cell) over the reach, then
#: round the best at each finer step: an arm's window is 0.12 of a cell across, the channel
#: 0.22, so the last step leaves the window within a hundredth of a cell of the best
PRINT_STEPS = (0.04, 0.02, 0.01)
#: a shift is taken only when it makes the arms read clearer by at least this much (the sum
#: over the pieces of each arm's distance from face or channel): noise alone moves none
MIN_GAIN = 0.1


def unclearness(arms: np.ndarray) -> np.ndarray:
    """How unclear prints' arms are (``arms``: one row per print, where each arm lies from
    the face, 0, to the disc, 1): per arm its distance from the face or the channel,
    whichever is nearer, past either too (a window half on a channel's blurred edge reads
    between them, one moved off the print's own face beside it reads past them), summed
    over the arms."""
    out: np.ndarray = np.minimum(np.abs(arms), np.abs(1.0 - arms)).sum(axis=1)
    return out


def print_offset(image: np.ndarray, centres: Sequence[Centre], cell: float,
                 shows_piece: Callable[[PiecePrint | None], bool], *,
                 sums: np.ndarray | None = None) -> Centre:
    """The offset (pixels) to add to the grid's cell ``centres`` where the pieces' prints
    lie: the shift at which the cells that show a piece there (``shows_piece`` of the print
    at the grid's centre) read their arms most clearly; (0, 0) when no cell shows a piece or
    no shift reads them clearer by :data:`MIN_GAIN`. ``sums``: the image's integral (cv2's,
    float64), when the caller has it."""
    if sums is None:
        sums = cv2.integral(image, sdepth=cv2.CV_64F)
    grid = np.array(centres, np.float64).reshape(-1, 2)
    pieces = grid[[shows_piece(p) for p in piece_prints(sums, grid, cell)]]
    if not len(pieces):
        return (0.0, 0.0)
    best = np.zeros(2)
    at_grid = best_cost = float(unclearness(print_arms(sums, pieces, cell)).sum())
    for k, step in enumerate(PRINT_STEPS):
        reach = int(round(PRINT_REACH / step)) if k == 0 else 1
        ij = np.arange(-reach, reach + 1) * step * cell
        shifts = best + np.stack(np.meshgrid(ij, ij), axis=-1).reshape(-1, 2)
        shifts = shifts[np.abs(shifts).max(axis=1) <= PRINT_REACH * cell + 1e-6]
        moved = (pieces[None, :, :] + shifts[:, None, :]).reshape(-1, 2)
        costs = unclearness(print_arms(sums, moved, cell)).reshape(len(shifts), -1).sum(axis=1)
        if float(costs.min()) < best_cost:
            best, best_cost = shifts[int(np.argmin(costs))], float(costs.min())
    if at_grid - best_cost < MIN_GAIN:
        return (0.0, 0.0)
    return (float(best[0]), float(best[1]))


__all__ = ["MIN_GAIN", "PRINT_REACH", "PRINT_STEPS", "print_offset", "unclearness"]
