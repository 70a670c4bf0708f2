"""A conduit piece read by its own print: every piece prints a channel-coloured disc at its
centre and leaves its face bare at its four corners, so each piece carries its own two
references, seen under the same light. Where an arm's colour lies between the two tells
whether a channel runs there however a lamp's glare or a colour cast washes the piece: a
glare adds white and a cast or a shadow scales each colour, and over half a cell both change
the face, the disc and the arm alike, leaving the arm's place between them as printed
(conduit wood/strong seeds 12, 22 and 28: an open arm under a glare kept by no pixel of the
channel mask, read closed).

The windows are shares of a card cell from the cell's centre, along a side's direction and
across it; a piece is 0.94 of a cell square, its channel 0.22 of a cell wide and its disc
0.33 across, and a piece lies up to a fiftieth of a cell off its cell's centre.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.enigma.tiles import OFFSETS

#: the middle of the centre's disc (half its side)
DISC_HALF = 0.09
#: the face at a piece's corners: from this share of a cell to that from the centre, each way
#: (past the arms' edges at 0.11, short of the piece's edge at 0.47)
CORNER = (0.22, 0.38)
#: an arm from past the disc to short of the piece's edge, across its middle; and the face
#: beside it on either side
ARM_ALONG, ARM_ACROSS, FACE_ACROSS = (0.22, 0.42), (-0.06, 0.06), (0.2, 0.32)

Centre = tuple[float, float]


def band_colour(image: np.ndarray, centre: Centre, unit: tuple[int, int],
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


@dataclass(frozen=True)
class PiecePrint:
    """What a cell shows of a piece's print: ``disc``, how much darker its centre is than its
    corners (the share of the corners' level, in the colour where it is darkest: 0 on bare
    paper); ``arms``, per side, where the arm lies from the face (0) to the disc (1)."""

    disc: float
    arms: dict[str, float]


def piece_print(image: np.ndarray, centre: Centre, cell: float) -> PiecePrint | None:
    """The print of the piece that may lie on the cell at ``centre`` (``cell``: its side in
    pixels), or None where a window falls off the image. The face's colour at the centre is
    the mean of the four corners (a light that changes evenly across the cell cancels out);
    an arm is measured against the face beside it, on both sides, at the same distance from
    the centre, and the contrast between them projected on the face-to-disc contrast (all
    three colours, weighted by how much each tells)."""
    disc = band_colour(image, centre, (1, 0), (-DISC_HALF, DISC_HALF), (-DISC_HALF, DISC_HALF),
                       cell)
    corners = [band_colour(image, centre, unit, CORNER, CORNER, cell) for unit in OFFSETS.values()]
    if disc is None or any(c is None for c in corners):
        return None
    face = np.mean(np.array(corners), axis=0)
    depth = face - disc
    norm = max(float(np.dot(depth, depth)), 1e-6)
    arms: dict[str, float] = {}
    for side, unit in OFFSETS.items():
        arm = band_colour(image, centre, unit, ARM_ALONG, ARM_ACROSS, cell)
        beside = [band_colour(image, centre, unit, ARM_ALONG, across, cell)
                  for across in (FACE_ACROSS, (-FACE_ACROSS[1], -FACE_ACROSS[0]))]
        if arm is None or beside[0] is None or beside[1] is None:
            return None
        arms[side] = float(np.dot((beside[0] + beside[1]) / 2 - arm, depth)) / norm
    darker = 1.0 - disc / np.maximum(face, 1.0)
    return PiecePrint(float(darker.max()), arms)


__all__ = ["PiecePrint", "band_colour", "piece_print"]
