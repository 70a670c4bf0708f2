"""Indigo reader stage 5, glare: the board's pixels a lamp mirrored in the varnish burnt to
white, with the washed-out rim round them (what the tiles, chips and gems are read past), and
the clipped core alone (what the read past the glare leaves out). See
:mod:`vision.indigo.reader` and :mod:`vision.indigo.tiles`.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.indigo.discs import grown_by_disc
from vision.indigo.model import circle_mask
from vision.picture import whole_percentiles

#: a lamp mirrored in the varnish: canonical pixels whose darkest channel is at least this
#: bright are clipped glare (no print is this white in all three channels); a tile is read
#: from what is left of it ...
GLARE_LEVEL = 245


#: round a clipped patch the reflection still washes the print out: the mask reaches this
#: far beyond the clipped pixels, in cell radii
GLARE_WASH = 0.25


#: a lamp's light washes the print out farther than its clipped core: within GLARE_REACH cell
#: radii of clipped pixels, a pixel whose darkest channel lies more than GLARE_WASH_SHARE of
#: the way from the board's bright print (the PRINT_PERCENTILE of the darkest channel over the
#: cells away from the glare) up to white is glare too (a tile half under a pale reflection
#: read as another pattern at 1.00, tuning seed 1001)
GLARE_REACH = 1.0


GLARE_WASH_SHARE = 0.5


PRINT_PERCENTILE = 90.0


#: the cells lie within this many cell radii of the board's centre
CELLS_REACH = 7.5


#: the clipped pixels are grown by this many canonical pixels: the blur of the compared grey
CLIPPED_GROW_PX = 1


def _darkest(image: np.ndarray) -> np.ndarray:
    """The darkest channel per pixel, taken pairwise (numpy's min over a last axis of three
    is slow)."""
    darkest: np.ndarray = np.minimum(np.minimum(image[..., 0], image[..., 1]), image[..., 2])
    return darkest


def glare_mask(canon: np.ndarray, cell_px: int) -> np.ndarray:
    """Canonical pixels burnt to white by a reflection, with the washed-out rim round them:
    the pixels near them far brighter than the board's print."""
    darkest = _darkest(canon)
    white = (darkest >= GLARE_LEVEL).astype(np.uint8)
    grown = grown_by_disc(white, max(1, int(round(GLARE_WASH * cell_px))))
    if not grown.any():
        return grown
    near = grown_by_disc(white, max(1, int(round(GLARE_REACH * cell_px))))
    cells = _cells_disc(canon.shape[0], cell_px) & ~near
    if not cells.any():
        return grown
    # the print's levels are whole: their percentile from the histogram, not a sort
    bright = whole_percentiles(darkest[cells], (PRINT_PERCENTILE,))[0]
    level = bright + GLARE_WASH_SHARE * (255.0 - bright)
    washed: np.ndarray = grown | (near & (darkest >= level))
    return washed


@lru_cache(maxsize=8)
def _cells_disc(size: int, cell_px: int) -> np.ndarray:
    """The disc of a canonical board of side ``size`` holding its cells (worked out once)."""
    disc = circle_mask(size, CELLS_REACH * cell_px)
    disc.setflags(write=False)
    return disc


def clipped_mask(canon: np.ndarray) -> np.ndarray:
    """Canonical pixels a reflection burnt to white (see :data:`GLARE_LEVEL`), grown by
    :data:`CLIPPED_GROW_PX`: the pixels that show nothing of the print, where the glare mask
    also takes the washed rim that still shows it."""
    white = (_darkest(canon) >= GLARE_LEVEL).astype(np.uint8)
    side = 2 * CLIPPED_GROW_PX + 1
    grown: np.ndarray = cv2.dilate(white, cv2.getStructuringElement(cv2.MORPH_ELLIPSE,
                                                                    (side, side))) > 0
    return grown
