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


Band = tuple[tuple[int, int], tuple[float, float], tuple[float, float]]


def _band_box(band: Band) -> tuple[float, float, float, float]:
    """The least and most x, then y, of a band's (unit, along, across) rectangle's corners,
    in cells from the centre: :func:`band_colour`'s rectangle is the pixels between them."""
    (ux, uy), along, across = band
    xs = [ux * a - uy * b for a in along for b in across]
    ys = [uy * a + ux * b for a in along for b in across]
    return min(xs), max(xs), min(ys), max(ys)


def bands_means(sums: np.ndarray, centres: np.ndarray, bands: list[Band], cell: float
                ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`band_colour` of each of ``bands`` at each of ``centres`` (rows of x, y) at once,
    from the image's integral ``sums`` (cv2's, float64): the mean colours (band, centre,
    colour), and whether each rectangle lies on the image at all (where it does not, its mean
    is 0)."""
    h, w = sums.shape[0] - 1, sums.shape[1] - 1
    box = np.array([_band_box(band) for band in bands]) * cell
    cx, cy = centres[None, :, 0], centres[None, :, 1]
    x0 = np.minimum(np.maximum((cx + box[:, 0:1]).astype(int), 0), w)
    x1 = np.minimum(np.maximum((cx + box[:, 1:2]).astype(int) + 1, 0), w)
    y0 = np.minimum(np.maximum((cy + box[:, 2:3]).astype(int), 0), h)
    y1 = np.minimum(np.maximum((cy + box[:, 3:4]).astype(int) + 1, 0), h)
    total = sums[y1, x1] - sums[y0, x1] - sums[y1, x0] + sums[y0, x0]
    area = np.maximum((x1 - x0) * (y1 - y0), 1)[..., None]
    out: np.ndarray = total / area
    return out, (x1 > x0) & (y1 > y0)


#: the windows of a print, in :func:`_prints_measured`'s order: the disc, the four corners,
#: then per side its arm and the face on either side of it
PRINT_BANDS: list[Band] = [
    ((1, 0), (-DISC_HALF, DISC_HALF), (-DISC_HALF, DISC_HALF)),
    *((unit, CORNER, CORNER) for unit in OFFSETS.values()),
    *((unit, ARM_ALONG, across) for unit in OFFSETS.values()
      for across in (ARM_ACROSS, FACE_ACROSS, (-FACE_ACROSS[1], -FACE_ACROSS[0]))),
]


def _prints_measured(sums: np.ndarray, centres: np.ndarray, cell: float
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per centre (rows of x, y): the disc's darkness (:attr:`PiecePrint.disc`), the arms
    (a column per side, :data:`OFFSETS`' order) and whether every window lies on the image,
    from the image's integral ``sums``: :func:`piece_print`'s measures, the same windows."""
    means, seen = bands_means(sums, centres, PRINT_BANDS, cell)
    disc, face = means[0], np.mean(means[1:5], axis=0)
    depth = face - disc
    norm = np.maximum((depth * depth).sum(axis=1), 1e-6)
    arms = [(((means[k + 1] + means[k + 2]) / 2 - means[k]) * depth).sum(axis=1) / norm
            for k in range(5, 5 + 3 * len(OFFSETS), 3)]
    darker: np.ndarray = (1.0 - disc / np.maximum(face, 1.0)).max(axis=1)
    on_image: np.ndarray = np.all(seen, axis=0)
    return darker, np.stack(arms, axis=1), on_image


def print_arms(sums: np.ndarray, centres: np.ndarray, cell: float) -> np.ndarray:
    """Where each arm of the prints at ``centres`` lies from the face (0) to the disc (1),
    one row per centre: :func:`piece_print`'s arms, from the image's integral ``sums``."""
    return _prints_measured(sums, centres, cell)[1]


def piece_prints(sums: np.ndarray, centres: np.ndarray, cell: float
                 ) -> list[PiecePrint | None]:
    """:func:`piece_print` of the cells at ``centres`` (rows of x, y), from the image's
    integral ``sums`` (cv2's, float64): each window's mean is its rectangle's sum over its
    area, the same pixels, so one integral serves every cell and every offset tried."""
    darker, arms, ok = _prints_measured(sums, centres, cell)
    return [PiecePrint(float(darker[i]), dict(zip(OFFSETS, arms[i].tolist(), strict=True)))
            if ok[i] else None for i in range(len(centres))]


__all__ = ["PRINT_BANDS", "Band", "PiecePrint", "band_colour", "bands_means", "piece_print",
           "piece_prints", "print_arms"]
