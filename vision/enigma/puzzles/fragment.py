"""The fragment puzzle seen by the camera: dark pieces over the printed silhouette."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from companion.enigma import puzzle_fragment as fragment
from companion.enigma.geometry import area
from companion.enigma.puzzles import PuzzleBox
from vision.enigma.mat import (
    CARD_PX_PER_MM,
    MARK,
)
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.card_find import (
    MAX_CHROMA,
    TRIANGLE_SEEN,
    chroma,
    triangle_contrasts,
)
from vision.enigma.puzzles.cards import (
    fragment_transform,
)
from vision.enigma.puzzles.changed_blur import Box, blur_again, changed_places, gaussian_reach
from vision.enigma.puzzles.fragment_inner import INNER_MAX, beyond_blur
from vision.enigma.puzzles.fragment_pale import pale_share
from vision.enigma.puzzles.fragment_shade import shade_beside, unlifted_middle
from vision.enigma.puzzles.fragment_top import swept, top_faces
from vision.enigma.puzzles.marks import box_mark, mask_marks
from vision.enigma.puzzles.verdicts import MarkKind, Reason
from vision.enigma.puzzles.view import (
    CANNOT_TELL,
    NOT_SOLVED,
    SOLVED,
    CardView,
    flatten_light,
    open_mask,
    verdict,
)
from vision.enigma.settings import PuzzleSettings

#: a dark blob beside the card larger than this share of the smallest piece is a piece
PIECE_BESIDE = 0.3
#: how far (mm) the printed silhouette may sit off where the card data puts it
ALIGN_REACH_MM = 2.0
#: slivers thinner than this share of a fragment unit along the outline are blur, not gaps
SLIVER_UNITS = 0.12
#: pieces covering less than this share of the silhouette's area: a piece missing or two
#: pieces overlapping
MIN_AREA_RATIO = 0.92
#: the pieces' area, as a share of the silhouette's, of a solved puzzle
SOLVED_AREA = (0.95, 1.06)


#: the card's edge band (pixels of the card view) where nothing is measured
EDGE_PX = 9
#: beside the card a piece is this much darker than the table around it (a near-black
#: piece on the darkest cloth; a shadow's soft edge or the wood's grain is not)
BESIDE_DARK = 0.5
#: the table around a spot: the median over this many mm (wider than a piece)
TABLE_WINDOW_MM = 25.0
#: the table's median is taken on the card view shrunk this much (a median is costly)
TABLE_SHRINK = 4
#: a piece is wider than this share of a fragment unit everywhere but its tips (the thinnest,
#: S1, is a right triangle of legs 1.4 units, whose inscribed circle is 0.82 units across):
#: beside the card a dark blob narrower than this is no piece. On a checked cloth the table's
#: median near the card takes in the card's white, and the dark checks along the card's
#: edge, strips 11 to 16 pixels wide (0.2 to 0.3 units), were told pieces: a right build
#: read "a piece lies beside the card" (independent scenes, fragment mild seeds 1, 2, 4)
BESIDE_WIDTH_UNITS = 0.45
#: beside the card a piece is a grey with at most this much colour (max less min of its
#: channels, share of the card's grey): the dark crossings of a navy checked cloth, 0.5 of
#: the table's median, were told pieces (own renders, checked cloth mild seeds 4, 5, 9: a
#: right build read "a piece lies beside the card"); the black pieces show a few levels
BESIDE_CHROMA = 0.12
#: the card's paper stands at least this much (share of the card's grey) above the table
#: across each side of the card found: on the tuning frames (seeds below 70000, every
#: condition of vision.synth.conditions but overexposed) its weakest side stands 0.31 or
#: more; overexposed 0.45 to 0.9, where the light washes the table as white as the card,
#: the card finder took a square of table for the card (fragment seed 33, a right solution
#: told "a piece lies beside the card": the card itself), and its weakest side stood 0.013
#: at most
MIN_OUTLINE_STEP = 0.1
#: the bands (pixels of the card view) inside and outside each side where the step is taken
OUTLINE_BAND = (6, 18)
#: past this share of the card's bare paper coloured, the square found is no card: on a blue
#: checked cloth the card finder took a square of its white and pale checks for the card
#: and the outline's step passed (0.12), and the pieces on the real card beside it read "a
#: piece lies beside the card" (independent scenes, fragment mild seeds 5 and 6, right
#: builds; 14 to 21% coloured). A card found right is 0.1% coloured at most (those scenes'
#: tuning seeds 0 to 12, mild and moderate)
MAX_COLOURED_PAPER = 0.05


def _dark_pieces(view: CardView, pack: EnigmaPack, not_paper: np.ndarray | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, GreyLevels]:
    """The dark pieces on the card and the dark blobs beside it (a piece left on the table).

    On the card the light is taken out first (:func:`flatten_light`), then dark pieces on the
    light silhouette are split at the middle of the two greys, so that a blurred outline is
    shared fairly between them and a shadow over the silhouette leaves it grey. Beside the
    card the table may be any colour: a piece is what is much darker than the table around
    it. Also returns the card's grey with the light taken out and the black and silhouette
    greys expected under it (:func:`_grey_levels`)."""
    flat = flatten_light(view, pack, greys=True, not_paper=not_paper)
    gray = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY).astype(np.float32)
    levels = _grey_levels(gray, pack, needed=_levels_read(view, not_paper))
    # the pieces are told on the card alone (:func:`check_fragment` keeps only those inside
    # its edge band): the opening's border, three pixels past the card, changes none there
    a, b = int(round(view.margin_px)) - 3, int(round(view.margin_px + view.side_px)) + 3
    card = np.s_[max(0, a):b, max(0, a):b]
    black = np.zeros(gray.shape, bool)
    black[card] = open_mask(gray[card] < (levels.black[card] + levels.sil[card]) / 2, 1)
    raw = cv2.cvtColor(view.image, cv2.COLOR_BGR2GRAY)
    dark = raw.astype(np.float32) < BESIDE_DARK * _table_around(raw, view.inside_card())
    return black, dark, gray, levels


def _table_around(raw: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """The table's grey around each pixel: a median over :data:`TABLE_WINDOW_MM`, the card
    taken as the table's own median grey (its white is no table: beside it, the dark checks
    of a checked cloth were told pieces, fragment independent scenes mild seeds 1, 2, 4)."""
    table_only = raw.copy()
    table_only[inside] = int(np.median(raw[~inside])) if (~inside).any() else 0
    h, w = raw.shape
    small = cv2.resize(table_only, (w // TABLE_SHRINK, h // TABLE_SHRINK),
                       interpolation=cv2.INTER_AREA)
    k = int(TABLE_WINDOW_MM * CARD_PX_PER_MM / TABLE_SHRINK) | 1
    table = cv2.resize(cv2.medianBlur(small, k), (w, h), interpolation=cv2.INTER_LINEAR)
    out: np.ndarray = table.astype(np.float32)
    return out


#: between black and the silhouette's grey, this share of the way from each, a pixel is
#: neither
WASHED_BAND = (0.25, 0.2)
#: a silhouette this much neither (share of its area, past the blurred outline) is not told
MAX_WASHED = 0.03
#: a lamp's glare adds light: the black pieces may be washed up to this share of the card's
#: grey and still be told from the silhouette (whose grey the same glare lifts further);
#: lifted further, a silhouette not seen black near them is a question. With the light no
#: longer measured on the pieces (:func:`_footprint`) 0.65 of the card's grey still leaves
#: the two greys about 60 levels apart (0.8 read a right solution 4% uncovered on the tuning
#: frames: fragment cloth/strong seed 7)
MAX_WASH_FLOOR = 0.65
#: the darkest grey near a pixel is looked for in a square of this side (pixels of the card
#: view), then smoothed over half of it: within a quarter of it from a black piece (its
#: blurred outline) the floor stays the black's own
FLOOR_PX = 41


@dataclass(frozen=True)
class GreyLevels:
    """Per pixel of the card view, the black pieces' grey and the silhouette's grey under the
    light there, and where a glare lifts the pieces' black past what the darkest grey nearby
    can tell (:data:`MAX_WASH_FLOOR`)."""

    black: np.ndarray
    sil: np.ndarray
    strong_glare: np.ndarray

    @property
    def middle(self) -> np.ndarray:
        """Darker than this, a pixel is a black piece."""
        out: np.ndarray = (self.black + self.sil) / 2
        return out


def _levels_read(view: CardView, footprint: np.ndarray | None) -> Box:
    """Where :func:`check_fragment` reads the grey levels: the card, where the pieces are
    told, and the ``footprint`` (where the silhouette is aligned to them, :func:`_washed`),
    with the reach round them of a glare's neighbourhood (:data:`FLOOR_PX`) and of the
    pieces' opening (two pixels)."""
    a, b = int(round(view.margin_px)), int(round(view.margin_px + view.side_px))
    x0, y0, x1, y1 = a, a, b, b
    if footprint is not None and footprint.any():
        fx, fy, fw, fh = cv2.boundingRect(footprint.astype(np.uint8))
        x0, y0, x1, y1 = min(x0, fx), min(y0, fy), max(x1, fx + fw), max(y1, fy + fh)
    reach = FLOOR_PX // 2 + 2
    h, w = view.image.shape[:2]
    return (max(0, x0 - reach), max(0, y0 - reach), min(w, x1 + reach), min(h, y1 + reach))


def _grey_levels(gray: np.ndarray, pack: EnigmaPack, *, needed: Box | None = None
                 ) -> GreyLevels:
    """Per pixel the black pieces' grey and the silhouette's grey under the light there. A
    glare adds the same light to both: the darkest grey nearby (never above
    :data:`MAX_WASH_FLOOR` of the card), or on and near the pieces their own grey
    (:func:`own_black`), tells how much, and lifts the silhouette's grey by as much of the
    way to the card's. A silhouette left uncovered is never darker than the black it is
    compared with, so it is never read as covered. ``needed``: the box (x0, y0, x1, y1)
    where the levels are read; only there are they right (:func:`own_black`)."""
    g_card = float(np.mean(pack.colour("card")))
    g_black = float(np.mean(pack.colour("fragment")))
    g_sil = float(np.mean(pack.colour("silhouette")))
    smooth = cv2.GaussianBlur(gray, (0, 0), 2.0)
    floor = cv2.erode(smooth, np.ones((FLOOR_PX, FLOOR_PX), np.uint8))
    floor = cv2.blur(floor, (FLOOR_PX // 2 | 1, FLOOR_PX // 2 | 1))
    capped = MAX_WASH_FLOOR * g_card
    floor = np.clip(floor, g_black, capped)
    black = own_black(smooth, floor, lambda b: _sil_grey(b, g_black, g_card, g_sil), g_card,
                      needed=needed)
    return GreyLevels(black, _sil_grey(black, g_black, g_card, g_sil), black > capped)


def _sil_grey(black: np.ndarray, g_black: float, g_card: float, g_sil: float) -> np.ndarray:
    """The silhouette's grey where the black pieces look ``black``: a glare adds the same
    light to both, so the silhouette is lifted by as much of the way to the card's grey."""
    wash = (black - g_black) / max(g_card - g_black, 1.0)
    sil: np.ndarray = g_sil + (g_card - g_sil) * wash
    return sil


#: a glare lifts a black piece smoothly towards its middle: on and near the pieces their
#: black is taken as their own grey averaged over this many pixels of the card view (the
#: darkest nearby, :data:`FLOOR_PX`, lies lower down the glare's slope, and the pieces under
#: a glare's middle looked grey: fragment wood/strong seed 1)
OWN_BLACK_SIGMA = 6.0
#: the pieces' own grey tells the black where they are this much of the average
OWN_BLACK_WEIGHT = 0.3
#: and it is believed up to this share of the card's grey: past it the black and the
#: silhouette are too close to tell and the pieces are washed (a question)
MAX_OWN_BLACK = 0.8
#: the pieces' own grey is followed up a glare's slope this many times, each a few
#: :data:`OWN_BLACK_SIGMA` further: measured once, only the pieces the darkest nearby already
#: told were averaged, and the pieces at a glare's middle were left grey (fragment
#: wood/strong seeds 12 to 14, right solutions: 'the pieces look grey')
OWN_BLACK_STEPS = 4


def own_black(smooth: np.ndarray, floor: np.ndarray, sil_of: Callable[[np.ndarray], np.ndarray],
              g_card: float, *, needed: Box | None = None) -> np.ndarray:
    """The black under the light there: on and near what is already told as black pieces
    (under the middle of the black so far, first the darkest nearby ``floor``, and the
    silhouette's grey ``sil_of`` gives for it), their own grey averaged; elsewhere ``floor``;
    :data:`OWN_BLACK_STEPS` times. A silhouette left uncovered is not darker than that
    middle, so it never lifts the black it is compared with.

    ``needed`` (x0, y0, x1, y1): only that box is read; the black is right there (the same
    values as over the whole view) and is not made beyond the reach it draws on."""
    h, w = smooth.shape
    regions = _step_regions(needed or (0, 0, w, h), w, h)
    sil_floor = sil_of(floor)
    pieces = (smooth < (floor + sil_floor) / 2).astype(np.float32)
    # the pieces' grey, kept up to date where the pieces change (not made again over the
    # whole view each step)
    weighted = smooth * pieces
    if needed is None:
        weight = cv2.GaussianBlur(pieces, (0, 0), OWN_BLACK_SIGMA)
        total = cv2.GaussianBlur(weighted, (0, 0), OWN_BLACK_SIGMA)
    else:  # the blurs made in the first step's region alone, to the bit
        weight = blur_again(np.zeros_like(pieces), pieces, regions[:1], OWN_BLACK_SIGMA)
        total = blur_again(np.zeros_like(pieces), weighted, regions[:1], OWN_BLACK_SIGMA)
    out, sil = floor.copy(), sil_floor.copy()
    x0, y0, x1, y1 = regions[0]
    first = np.s_[y0:y1, x0:x1]
    out[first] = lifted_black(weight[first], total[first], floor[first], g_card)
    sil[first] = sil_of(out[first])
    moved: list[Box] = regions[:1]  # where the black changed in the last step
    for region in regions[1:]:
        # a step changes a few thousand pixels in a few dozen places: the next is made
        # again only where those reach (the same values as a step over the whole view)
        changed = np.zeros((h, w), np.uint8)
        for x0, y0, x1, y1 in moved:
            part = np.s_[y0:y1, x0:x1]
            now = (smooth[part] < (out[part] + sil[part]) / 2).astype(np.float32)
            # or'ed: where two places overlap, the first has already updated the pieces
            changed[part] |= now != pieces[part]
            pieces[part] = now
            weighted[part] = smooth[part] * now
        moved = _clipped(changed_places(changed, OWN_BLACK_SIGMA), region)
        weight = blur_again(weight, pieces, moved, OWN_BLACK_SIGMA)
        total = blur_again(total, weighted, moved, OWN_BLACK_SIGMA)
        for x0, y0, x1, y1 in moved:
            part = np.s_[y0:y1, x0:x1]
            out[part] = lifted_black(weight[part], total[part], floor[part], g_card)
            sil[part] = sil_of(out[part])
    return out


def _step_regions(needed: Box, w: int, h: int) -> list[Box]:
    """Where each step of :func:`own_black` must be right for the last to be right on
    ``needed``: each step a blur's reach wider than the next (a step's black draws on the
    pieces, told by the step before, within the blur's reach)."""
    reach = gaussian_reach(OWN_BLACK_SIGMA)
    x0, y0, x1, y1 = needed
    return [(max(0, x0 - k * reach), max(0, y0 - k * reach), min(w, x1 + k * reach),
             min(h, y1 + k * reach)) for k in range(OWN_BLACK_STEPS - 1, -1, -1)]


def outline_step(view: CardView, g_card: float) -> float:
    """How far the card's paper stands above the table beside it, on the card's weakest side
    (share of the card's grey): the middle half of each side (the printed mark is in a
    corner), medians of a band inside and one outside."""
    gray = cv2.cvtColor(view.image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    a, b = int(round(view.margin_px)), int(round(view.margin_px + view.side_px))
    m0, m1 = a + (b - a) // 4, b - (b - a) // 4
    near, far = OUTLINE_BAND
    sides = ((gray[a + near:a + far, m0:m1], gray[a - far:a - near, m0:m1]),
             (gray[b - far:b - near, m0:m1], gray[b + near:b + far, m0:m1]),
             (gray[m0:m1, a + near:a + far], gray[m0:m1, a - far:a - near]),
             (gray[m0:m1, b - far:b - near], gray[m0:m1, b + near:b + far]))
    return min(float(np.median(inner)) - float(np.median(outer))
               for inner, outer in sides) / g_card


def _clipped(boxes: list[Box], region: Box) -> list[Box]:
    """``boxes`` cut to ``region``; those left empty dropped."""
    rx0, ry0, rx1, ry1 = region
    cut = [(max(x0, rx0), max(y0, ry0), min(x1, rx1), min(y1, ry1)) for x0, y0, x1, y1 in boxes]
    return [(x0, y0, x1, y1) for x0, y0, x1, y1 in cut if x0 < x1 and y0 < y1]


def lifted_black(weight: np.ndarray, total: np.ndarray, floor: np.ndarray, g_card: float
                 ) -> np.ndarray:
    """The black where the pieces' blurred mask is ``weight`` and their blurred grey
    ``total``: their own grey where they weigh enough, never below ``floor``."""
    # the same operations in the same order, each into one array (no temporary per step)
    lifted: np.ndarray = np.maximum(weight, 1e-6)
    np.divide(total, lifted, out=lifted)
    np.minimum(lifted, MAX_OWN_BLACK * g_card, out=lifted)
    np.maximum(floor, lifted, out=lifted)
    np.copyto(lifted, floor, where=weight < OWN_BLACK_WEIGHT)
    return lifted


def _washed(gray: np.ndarray, levels: GreyLevels, target: np.ndarray, outline_px: int
            ) -> float:
    """The share of the silhouette neither black nor silhouette-grey. Near pieces a strong
    glare lifts, the silhouette not seen black is washed too: past the lifted pieces the
    glare's middle may lift black to the silhouette's own grey (fragment wood/strong seed
    4, a right solution, read 34% uncovered), and an uncovered silhouette there is not
    told from covered."""
    # each pixel's doubt is its own: told only in the silhouette's box (a fifth of the view)
    x, y, w, h = cv2.boundingRect(target.view(np.uint8))
    box = np.s_[y:y + h, x:x + w]
    black, sil, grey = levels.black[box], levels.sil[box], gray[box]
    span = sil - black
    between = (grey > black + WASHED_BAND[0] * span) & (grey < sil - WASHED_BAND[1] * span)
    doubt = np.zeros(target.shape, bool)
    doubt[box] = between & target[box]
    if levels.strong_glare.any():  # most frames have none: the dilation is skipped
        near_glare = cv2.dilate(levels.strong_glare.astype(np.uint8),
                                np.ones((FLOOR_PX, FLOOR_PX), np.uint8)) > 0
        doubt |= near_glare & (gray >= levels.middle) & target
    return float(open_mask(doubt, outline_px).sum()) / max(float(target.sum()), 1.0)


def _orientation_mark(view: CardView, shape: tuple[int, int]) -> np.ndarray:
    """The printed orientation triangle's corner (nothing can be told under it)."""
    mark = np.zeros(shape, bool)
    a = int(view.margin_px)
    t = int(view.side_px * MARK * 1.15)
    mark[max(0, a - 3):a + t, max(0, a - 3):a + t] = True
    return mark


def printed_silhouette(view: CardView, card: fragment.FragmentCard, pack: EnigmaPack,
                       shape: tuple[int, int]) -> np.ndarray:
    """Where the card data puts the silhouette in the card view."""
    unit = float(pack.sizes["fragment_unit_mm"])
    scale, dx, dy = fragment_transform(card, pack.tile_mm, unit)
    sil = np.zeros(shape, np.uint8)
    for part in card.silhouette:
        pts = [view.mm_to_px(dx + x * scale, dy + y * scale) for x, y in part]
        cv2.fillPoly(sil, [np.round(np.array(pts) * 16).astype(np.int32)], 1, cv2.LINE_AA, 4)
    return sil.astype(bool)


def _footprint(sil: np.ndarray) -> np.ndarray:
    """Where the pieces of a solution may lie: the silhouette widened by as far as it may sit
    off the card data (:data:`ALIGN_REACH_MM`). The light is never measured there: a lamp's
    glare lifts black pieces to within the paper test's share of the paper beside them, and
    the light field took the pieces for paper, lit as brightly as their grey, and flattened
    them to the card's white (fragment wood/strong seed 16 and cloth/strong seeds 6 to 9,
    right solutions: 'the pieces look grey, not black')."""
    reach = 2 * int(round(ALIGN_REACH_MM * CARD_PX_PER_MM)) + 1
    out: np.ndarray = cv2.dilate(sil.astype(np.uint8), np.ones((reach, reach), np.uint8)) > 0
    return out


def _aligned(black: np.ndarray, sil_b: np.ndarray) -> tuple[float, np.ndarray]:
    """The silhouette shifted (within :data:`ALIGN_REACH_MM`) to its largest overlap with
    the pieces, and the coverage (IoU) there. The areas do not change with a shift, so the
    best shift is a correlation's peak."""
    reach = int(ALIGN_REACH_MM * CARD_PX_PER_MM)
    ys, xs = np.nonzero(sil_b)
    ya, yb, xa, xb = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    padded = np.zeros((yb - ya + 2 * reach, xb - xa + 2 * reach), np.float32)
    src = black[max(0, ya - reach):yb + reach, max(0, xa - reach):xb + reach]
    oy, ox = max(0, ya - reach) - (ya - reach), max(0, xa - reach) - (xa - reach)
    padded[oy:oy + src.shape[0], ox:ox + src.shape[1]] = src
    corr = cv2.matchTemplate(padded, sil_b[ya:yb, xa:xb].astype(np.float32), cv2.TM_CCORR)
    _, top, _, (lx, ly) = cv2.minMaxLoc(corr)
    sx, sy = lx - reach, ly - reach
    inter = float(top)
    iou = inter / max(float(black.sum() + sil_b.sum()) - inter, 1.0)
    return iou, np.roll(np.roll(sil_b, sy, axis=0), sx, axis=1)


def _judge_cover(black: np.ndarray, target: np.ndarray, iou: float, unit: float,
                 box: PuzzleBox, st: PuzzleSettings, *, beyond: np.ndarray | None = None
                 ) -> dict[str, str]:
    """The verdict from coverage, gaps, overhangs and the pieces' area. ``beyond``: black
    seen past the pieces' sides (:func:`_top_read`), counted as overhang too."""
    sil_area = float(target.sum())
    # thin slivers along the outline are the camera's blur, not gaps
    sliver = max(1, int(round(SLIVER_UNITS * unit * CARD_PX_PER_MM)))
    # each opened once: the measures and the marks show the same gaps and overhangs; inside
    # the silhouette, beyond the outline's blur, a thin gap counts (:mod:`fragment_inner`)
    gaps, inner_gaps = beyond_blur(target & ~black, target, sliver)
    gap = gaps.sum() / sil_area
    inner_gap = float(inner_gaps.sum()) / sil_area
    outside = black & ~target if beyond is None else (black & ~target) | beyond
    overhangs = open_mask(outside, sliver)
    over = overhangs.sum() / sil_area
    area_ratio = float(black.sum()) / sil_area
    measures = (f"coverage {iou:.1%}, uncovered {gap:.1%}, overhang {over:.1%}, "
                f"pieces' area {area_ratio:.0%} of the silhouette")
    facts = {"coverage": iou, "uncovered": float(gap), "overhang": float(over),
             "area": area_ratio}
    marks = mask_marks(gaps, MarkKind.UNCOVERED) + mask_marks(overhangs, MarkKind.OVERHANG)
    if gap > st.fragment_clear_gap:
        return verdict(NOT_SOLVED, f"part of the silhouette is not covered ({measures})",
                       code=Reason.UNCOVERED, facts=facts, marks=marks)
    if over > st.fragment_clear_gap:
        return verdict(NOT_SOLVED, f"the pieces reach outside the silhouette ({measures})",
                       code=Reason.OVERHANG, facts=facts, marks=marks)
    if area_ratio < MIN_AREA_RATIO:
        return verdict(NOT_SOLVED, f"the pieces cover too little: a piece is missing or two "
                       f"pieces overlap ({measures})", code=Reason.TOO_LITTLE, facts=facts,
                       marks=marks)
    low, high = SOLVED_AREA
    if inner_gap > INNER_MAX:
        return verdict(CANNOT_TELL, f"a gap shows between the pieces inside the silhouette "
                       f"({inner_gap:.1%}; {measures}): check that each piece lies turned the "
                       "right way, push the pieces together and check again",
                       code=Reason.INNER_GAP, facts={**facts, "inner_uncovered": inner_gap},
                       marks=marks)
    if (iou >= st.fragment_min_iou and gap <= st.fragment_max_gap
            and over <= st.fragment_max_gap and low <= area_ratio <= high):
        return verdict(SOLVED, f"all the silhouette is covered ({measures}); the players "
                       f"confirm that all {len(box.fragment.pieces)} pieces are used",
                       code=Reason.COVERED, facts={**facts, "pieces": len(box.fragment.pieces)})
    return verdict(CANNOT_TELL, f"the pieces nearly cover the silhouette, too close to call "
                   f"({measures}): push the pieces together along the silhouette's outline",
                   code=Reason.TOO_CLOSE, facts=facts, marks=marks)


def check_fragment(view: CardView, pack: EnigmaPack, card: fragment.FragmentCard | None,
                   box: PuzzleBox, st: PuzzleSettings) -> dict[str, str]:
    """The fragment verdict: the dark pieces against the printed silhouette (the card data
    gives it; it lies under the pieces and is not read)."""
    if card is None:
        return verdict(CANNOT_TELL, "the silhouette lies under the pieces and is not read: "
                       "enter the card", code=Reason.CARD_NEEDED)
    sil_drawn = printed_silhouette(view, card, pack, view.image.shape[:2])
    edge_unseen = outline_step(view, float(np.mean(pack.colour("card")))) < MIN_OUTLINE_STEP
    refused = _no_card_found(view, pack, sil_drawn, edge_unseen=edge_unseen)
    if refused is not None:
        return refused
    said = _read_fragment(view, pack, card, box, st, sil_drawn)
    if edge_unseen and said["verdict"] == NOT_SOLVED:
        return _pale_table_doubt()
    return said


def _read_fragment(view: CardView, pack: EnigmaPack, card: fragment.FragmentCard,
                   box: PuzzleBox, st: PuzzleSettings, sil_drawn: np.ndarray
                   ) -> dict[str, str]:
    """:func:`check_fragment`'s verdict on the card found: the pieces beside it and on its
    silhouette (``sil_drawn``, where it is printed in the view)."""
    black, black_beside, gray, levels = _dark_pieces(view, pack, _footprint(sil_drawn))
    inside = view.inside_card()
    mark = _orientation_mark(view, black.shape)
    black &= ~mark
    unit = float(pack.sizes["fragment_unit_mm"])
    sil_b = sil_drawn & ~mark
    piece_px = min(area(p.polygon) for p in box.fragment.pieces) * (
        unit * CARD_PX_PER_MM) ** 2
    # the card's own ink (its orientation mark) is no piece beside it: the width is measured
    # on the table alone
    width = BESIDE_WIDTH_UNITS * unit * CARD_PX_PER_MM
    beside = open_mask(black_beside & ~inside, max(2, int(width / 2)))
    pieces = _pieces_beside(view, beside, PIECE_BESIDE * piece_px, pack)
    if pieces:
        return verdict(NOT_SOLVED, "a piece lies beside the card: all the pieces must cover "
                       "the silhouette", code=Reason.PIECE_BESIDE,
                       marks=tuple(box_mark(s, MarkKind.PIECE) for s in pieces))
    # the card's found outline may be a pixel or two off: the table seen along it is no piece
    # (no silhouette reaches the card's edge)
    black &= cv2.erode(inside.astype(np.uint8), np.ones((EDGE_PX, EDGE_PX), np.uint8)) > 0
    iou, target = _aligned(black, sil_b)
    outline = max(1, int(round(SLIVER_UNITS * unit * CARD_PX_PER_MM)))
    shade = shade_beside(black, target, gray, unlifted_middle(
        float(np.mean(pack.colour("fragment"))), float(np.mean(pack.colour("silhouette")))),
        outline)
    if shade.any():  # the pieces' shadow beside them is paper: aligned again without it
        black &= ~shade
        iou, target = _aligned(black, sil_b)
    washed = _washed(gray, levels, target, outline)
    if washed > MAX_WASHED:
        return verdict(CANNOT_TELL, f"the pieces look grey, not black, over {washed:.0%} of the "
                       "silhouette (a lamp's glare?): move the lamp or the card so that no "
                       "reflection lies on it", code=Reason.GLARE, facts={"washed": washed},
                       marks=mask_marks(target, MarkKind.DOUBT))
    said = _judge_cover(black, target, iou, unit, box, st)
    # more black than the silhouette: thick pieces' sides may add to it, and their top faces
    # are what covers the silhouette. Near the camera's nadir the sides add as little as 5%,
    # and the tops, enlarged, still left a right build "too close to call" (coverage 94 to
    # 96%, pieces' area 105 to 106%: fragment wood/mild seeds 0, 2, 3 and 5, 4.5 mm thick)
    if said["verdict"] == SOLVED or float(black.sum()) <= float(sil_b.sum()):
        return said
    top, top_target, top_iou, beyond = _top_read(black, target, sil_b)
    if top_iou <= iou:
        return said
    said = _judge_cover(top, top_target, top_iou, unit, box, st, beyond=beyond)
    pale = pale_share(gray, levels.sil, top & top_target, top_target, outline)
    if said["verdict"] == SOLVED and (pale.share > st.fragment_max_gap
                                      or pale.inner > INNER_MAX):
        return verdict(CANNOT_TELL, f"part of the silhouette looks lighter than the pieces "
                       f"on it ({pale.share:.1%}; a gap between pieces, in their shade?): "
                       "check that each piece lies turned the right way, push the pieces "
                       "together, light the card evenly and check again",
                       code=Reason.INNER_GAP if pale.inner > INNER_MAX else Reason.TOO_CLOSE,
                       facts={"pale": pale.share, "inner_pale": pale.inner},
                       marks=mask_marks(top_target, MarkKind.DOUBT))
    return said


def _no_card_found(view: CardView, pack: EnigmaPack, sil_drawn: np.ndarray, *,
                   edge_unseen: bool) -> dict[str, str] | None:
    """"cannot tell" when the square found may be table, not the card (no verdict rests on
    it): its paper coloured (:func:`coloured_paper`), or no step up from the table to it on a
    side (``edge_unseen``, :func:`outline_step`) and no card's orientation triangle in its
    corner (:func:`shows_card_triangle`); None when it is the card."""
    coloured = coloured_paper(view, sil_drawn)
    if coloured > MAX_COLOURED_PAPER:
        return verdict(CANNOT_TELL, f"the frame cannot be read: {coloured:.0%} of the card's "
                       "paper found is coloured: a square of the table was taken for the "
                       "card: lay the card on a plain part of the mat and check again",
                       code=Reason.FRAME_UNREADABLE,
                       facts={"refusal": "no-card", "coloured_paper": round(coloured, 3)})
    if edge_unseen and not shows_card_triangle(view):
        return verdict(CANNOT_TELL, "the frame cannot be read: the light washes the table as "
                       "white as the card: dim the lamp or move it away from the mat",
                       code=Reason.FRAME_UNREADABLE, facts={"refusal": "overexposed"})
    return None


def shows_card_triangle(view: CardView) -> bool:
    """Whether the card found shows the card's printed orientation triangle in a corner
    (:data:`TRIANGLE_SEEN`): a square of a pale table has none, so the card found is the
    card even where the table beside a side is as pale as its paper."""
    a, b = view.margin_px, view.margin_px + view.side_px
    corners = np.array([[a, a], [b, a], [b, b], [a, b]], np.float32)
    return any(c is not None and c >= TRIANGLE_SEEN
               for c in triangle_contrasts(view.image, corners))


def _pale_table_doubt() -> dict[str, str]:
    """"cannot tell" for a card found by its triangle whose edge the table beside it hides on
    a side (white checks of a checked cloth, white paint, a broad glare): a build read as
    not solved there may be read so from the table or a shade beside the pieces (independent
    puzzle scenes, fragment mild seed 0, a right build: its pieces' deep shadow read as an
    overhang), and the player can lay the card where the table shows its edge. A build read
    solved is told, and a doubt of the reading's own (a glare on the pieces) names its cause.
    The light was blamed before on the same cloth, and nothing was washed out (mild seeds 0,
    5 and 6, blue gingham)."""
    return verdict(CANNOT_TELL, "the frame cannot be read: the table beside the card looks "
                   "as pale as the card's paper: lay the card on a darker part of the table, "
                   "or move the lamp so that its light does not wash the table",
                   code=Reason.FRAME_UNREADABLE,
                   facts={"refusal": "pale-table"})


def coloured_paper(view: CardView, sil_drawn: np.ndarray) -> float:
    """The share of the card's bare paper found (inside its edge band, off the silhouette's
    footprint and the orientation mark: no piece of a build lies there) that is coloured
    (chroma past the card finder's :data:`MAX_CHROMA`); the view is balanced on the markers'
    white paper, so a card's paper is grey or white under any light."""
    inside = view.inside_card().astype(np.uint8)
    bare = cv2.erode(inside, np.ones((EDGE_PX, EDGE_PX), np.uint8)) > 0
    bare &= ~_footprint(sil_drawn) & ~_orientation_mark(view, sil_drawn.shape)
    if not bare.any():
        return 0.0
    # each pixel's chroma is its own: made on the card alone (a third of the view)
    a, b = int(round(view.margin_px)), int(round(view.margin_px + view.side_px))
    card = np.s_[a:b, a:b]
    return float((chroma(view.image[card])[bare[card]] > MAX_CHROMA).mean())


def _pieces_beside(view: CardView, beside: np.ndarray, least_px: float, pack: EnigmaPack
                   ) -> list[np.ndarray]:
    """The stats (cv2's) of the dark blobs beside the card that are pieces: larger than
    ``least_px`` and of the pieces' colour, a grey with no more colour in it than
    :data:`BESIDE_CHROMA` (the view is balanced on the card's white)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(beside.astype(np.uint8),
                                                           connectivity=8)
    g_card = float(np.mean(pack.colour("card")))
    return [stats[k] for k in range(1, n) if stats[k, cv2.CC_STAT_AREA] > least_px
            and blob_chroma(view.image, labels, stats[k], k) <= BESIDE_CHROMA * g_card]


def blob_chroma(image: np.ndarray, labels: np.ndarray, stat: np.ndarray, k: int) -> float:
    """The median colour (max less min of the channels) of blob ``k`` of ``labels``, its
    pixels taken in its bounding box ``stat`` (cv2's): the same pixels in the same order as
    over the whole view, whose colour most frames never needed (no blob beside the card,
    and the whole view's was 40 ms a check)."""
    x, y, w, h = (int(v) for v in stat[:4])
    box = np.s_[y:y + h, x:x + w]
    pixels = image[box][labels[box] == k].astype(np.int16)
    return float(np.median(pixels.max(axis=1) - pixels.min(axis=1)))


def _top_read(black: np.ndarray, target: np.ndarray, sil_b: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, float, np.ndarray]:
    """The pieces' top faces (:func:`top_faces`: their sides, and the offset and enlargement a
    tilted camera sees them at, taken away), the silhouette aligned to them, the coverage
    there, and the black seen beyond what a right build would show (that silhouette swept to
    its tops): undoing the sweep took some black away, and a piece reaching out there is an overhang
    still."""
    top, top_map = top_faces(black, target)
    iou, top_target = _aligned(top, sil_b)
    return top, top_target, iou, black & ~swept(top_target, top_map)


__all__ = ["MAX_COLOURED_PAPER", "MIN_OUTLINE_STEP", "blob_chroma", "check_fragment",
           "coloured_paper", "lifted_black", "outline_step", "printed_silhouette"]
