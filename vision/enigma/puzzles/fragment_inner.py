"""The fragment check's inner gaps: uncovered or pale silhouette that no blur explains.

The outline's blur is forgiven by an opening: slivers thinner than ``outline_px`` along the
silhouette's outline are the camera's blur, not gaps. The same opening, made over the whole
silhouette, also took away what a piece turned a quarter in its place leaves inside it: two
small triangles of card between thick pieces, shaded by their sides, paler than the pieces
only at their cores and thinner there than the opening's disc (independent scenes, fragment
mild and moderate seed 7: S2 turned, a WRONG build called "solved", pale and uncovered 0.0%).
Inside the silhouette, farther from its outline than the widest sliver that opening forgives,
no blur of the outline reaches: a right build is black there, and whatever is not (a wedge, a
thin gap between pieces pushed apart) is kept by an opening only wide enough to take out the
pixels' noise.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.enigma.puzzles.view import open_mask

#: inside the silhouette a gap or pale patch is kept by an opening of this radius (pixels of
#: the card view): wider than single noisy pixels, narrower than the cores of the wedges a
#: turned piece leaves (seed 7 above: its pale wedges keep 0.47% of the silhouette opened
#: at radius 1, 0.42% at 2, 0.25% at 4, nothing at the outline's 6)
INNER_RADIUS = 2
#: inside the silhouette at most this share of it may be uncovered or pale for "solved": a
#: right build shows none there (independent scenes, fragment mild and moderate, tuning
#: seeds 0 to 12: 0.00%), the wedges a small triangle turned a quarter leaves 0.4 to 0.6%
#: pale (seeds 2 and 7, mild), a large one's 0.3 to 0.5% uncovered (seed 5, L2)
INNER_MAX = 0.001


def inner(target: np.ndarray, outline_px: int) -> np.ndarray:
    """The silhouette ``target`` farther from its outline than twice ``outline_px``: the widest
    sliver along the outline that an opening of ``outline_px`` takes out as blur."""
    reach = 2 * outline_px
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    out: np.ndarray = cv2.erode(target.astype(np.uint8), k, borderValue=0) > 0
    return out


def beyond_blur(mask: np.ndarray, target: np.ndarray, outline_px: int, *,
                inside_only: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The parts of ``mask`` (uncovered or pale silhouette) that are no blur of the outline,
    and those of them inside the silhouette (:func:`inner`): along the outline what an opening
    of ``outline_px`` keeps, inside what an opening of :data:`INNER_RADIUS` keeps of ``mask``
    (and of ``inside_only``, when given)."""
    within = mask & inner(target, outline_px)
    if inside_only is not None:
        within &= inside_only
    inside = open_mask(within, INNER_RADIUS)
    return open_mask(mask, outline_px) | inside, inside


__all__ = ["INNER_MAX", "INNER_RADIUS", "beyond_blur", "inner"]
