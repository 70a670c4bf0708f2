"""How well the table seen fits the art pack: the start tile's drawing against the pack's face.

The reader tells cells, channels and networkers apart by the pack's colours. The start tile is
the one piece whose whole look the pack holds (its face), so once the frame's colour cast is
taken out on it (:func:`vision.enigma.squares.balance`), its drawing (channels, outlines: the
pixels of the face that are not tile body) must come back in the pack's colours. They do not
when the pieces are not the ones the pack was taught from (another print, another art style),
or when the picture bent the colours though it passed the picture check (burnt-out highlights
turn a brown channel yellow; a dim picture greys them). Then no colour on the table can be
trusted to mean what the pack says, and every tile read is asked about.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.enigma.pack import EnigmaPack

#: a face pixel this far (Lab) from the face's body colour is part of its drawing
DRAWING_MIN_DISTANCE = 40.0
#: the start tile's drawing seen this far (median Lab distance) from the pack's face, or more,
#: does not fit the pack. Rendered frames of a pack's own style measure 6 to 10 (up to 12
#: with every camera effect, defocus and motion blur included); the ink style read with the
#: demo pack 45 to 57; demo tables overexposed within the picture's limits 21 and up
PACK_FIT_LIMIT = 20.0
#: the softnesses (Gaussian sigma, pixels of a tile :data:`FACE_PX` wide) the start face is
#: compared at: sharp, a soft lens, defocus and motion blur as the renderer draws them
SOFTNESS_SIGMAS = (0.0, 1.0, 2.0, 3.0)
FACE_PX = 64
#: every confidence of a table that does not fit the pack is multiplied by this: a tile read
#: with full confidence falls below the app's threshold, so it is asked, not applied
MISFIT_CONFIDENCE_FACTOR = 0.5


def start_face_misfit(balanced: np.ndarray, start_xy: tuple[float, float], pack: EnigmaPack,
                      p: int) -> float:
    """The median colour distance (Lab) between the start tile's drawing as seen on the
    balanced straightened image and the pack's start face, in the face's best turn."""
    patch = cv2.getRectSubPix(balanced, (p, p), start_xy)
    face = cv2.resize(pack.start, (p, p), interpolation=cv2.INTER_AREA)
    patch_gray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    turns = [np.ascontiguousarray(np.rot90(face, k)) for k in range(4)]
    likeness = [float(cv2.matchTemplate(patch_gray, cv2.cvtColor(t, cv2.COLOR_BGR2GRAY),
                                        cv2.TM_CCOEFF_NORMED)[0, 0]) for t in turns]
    face = turns[int(np.argmax(likeness))]
    face_lab = cv2.cvtColor(face, cv2.COLOR_BGR2LAB).astype(np.float32)
    seen_lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    body = np.median(face_lab.reshape(-1, 3), axis=0)
    drawing = np.linalg.norm(face_lab - body, axis=2) > DRAWING_MIN_DISTANCE
    # the drawing's edges are left out: a pixel of placement there is not a colour change
    drawing = cv2.erode(drawing.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    if not drawing.any():
        return 0.0
    # a soft camera mixes a thin drawing with the tile body: that is no colour change, so the
    # face is compared as sharp as the picture is, the best of a few softnesses
    misfits = []
    for sigma in SOFTNESS_SIGMAS:
        soft = face if sigma == 0 else cv2.GaussianBlur(face, (0, 0), sigma * p / FACE_PX)
        soft_lab = cv2.cvtColor(soft, cv2.COLOR_BGR2LAB).astype(np.float32)
        misfits.append(float(np.median(np.linalg.norm(seen_lab - soft_lab, axis=2)[drawing])))
    return min(misfits)


__all__ = ["MISFIT_CONFIDENCE_FACTOR", "PACK_FIT_LIMIT", "start_face_misfit"]
