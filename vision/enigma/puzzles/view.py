"""The puzzle mat's card, cut out upright, and what every puzzle check shares: the verdicts,
the doubt margins, light flattening and nearest-colour labels.

A wrong "solved" hands a player points, so every measurement carries a doubt margin and any
doubt gives "cannot tell": the players decide.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.enigma.colours import colour_features
from vision.enigma.mat import (
    CARD_PX_PER_MM,
    MAT_PX_PER_MM,
    locate_mat,
)
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.card_find import (
    brightness,
    chroma,
    find_card_square,
    paper_gains,
    triangle_contrasts,
    whiteness,
)
from vision.enigma.puzzles.verdicts import Mark, PuzzleVerdict, Reason
from vision.enigma.settings import DEFAULT_MAT, MatSettings
from vision.enigma.table_colour import ring_median
from vision.gains import times_gains
from vision.warp import warp_perspective

SOLVED, NOT_SOLVED, CANNOT_TELL = "solved", "not solved", "cannot tell"


def verdict(kind: str, reason: str, *, code: Reason = Reason.UNKNOWN,
            facts: Mapping[str, Any] | None = None, marks: tuple[Mark, ...] = ()
            ) -> PuzzleVerdict:
    """The ``{"verdict", "reason"}`` dict, with what a screen shows of it attached."""
    return PuzzleVerdict(kind, reason, code=code, facts=facts, marks=marks)


# ---------------------------------------------------------------------------- the card


@dataclass(frozen=True)
class CardView:
    """The card cut out upright at CARD_PX_PER_MM, with ``margin_px`` of mat around it."""

    image: np.ndarray
    side_px: float
    margin_px: float
    mat: np.ndarray  # the balanced mat image (MAT_PX_PER_MM)
    card_centre_mat: tuple[float, float]
    marker_centres: tuple[tuple[float, float], ...] = ()
    marker_px: float = 0.0
    #: homographies from the camera frame to this view and to the mat image (marks drawn
    #: over the camera picture are mapped back with them)
    frame_to_view: np.ndarray | None = None
    frame_to_mat: np.ndarray | None = None
    #: the camera frame's (width, height): with ``frame_to_view``, the camera's pose
    frame_size: tuple[int, int] | None = None

    def mm_to_px(self, x: float, y: float) -> tuple[float, float]:
        return (self.margin_px + x * CARD_PX_PER_MM, self.margin_px + y * CARD_PX_PER_MM)

    def inside_card(self) -> np.ndarray:
        h, w = self.image.shape[:2]
        m = np.zeros((h, w), bool)
        a, b = int(round(self.margin_px)), int(round(self.margin_px + self.side_px))
        m[a:b, a:b] = True
        return m


#: the light field is measured on blocks of this many pixels of the card view
LIGHT_BLOCK = 16
#: a block tells the light when this share of it is bare card
LIGHT_BARE_SHARE = 0.15
#: bare card: at least this share of the brightest pixel near it (a weight, a piece or ink is
#: darker than the paper around it under any light), and on a card printed in greys no more
#: coloured than this (the chroma of :func:`chroma`; the view is balanced on the markers'
#: paper)
BARE_OF_LOCAL_MAX, BARE_CHROMA = 0.85, 0.25
#: on a card with coloured pieces (conduit) the paper is also this white (:func:`whiteness`,
#: brightness and colour together: a pale piece under a cast is nearly as grey as paper)
BARE_WHITENESS = 0.3
#: how far (pixels of the card view) the brightest pixel near a pixel is looked for
LOCAL_MAX_PX = 41
#: on a card printed in greys with grey or black pieces (weight, fragment), bare card is
#: instead at least this share of the card's brightest paper (this quantile of the card): a
#: hand's shadow dims the paper to about half. The floor is relative, not a whiteness: paper
#: deep in a shadow is as grey as ink in full light
BARE_OF_CARD_TOP, CARD_TOP_QUANTILE = 0.25, 98
#: and it is joined to paper at least this share of the card's brightest: a shadow's soft edge
#: joins the paper under it to the lit paper, while a black piece lit unevenly (a lamp's
#: glare on a covered silhouette) is parted from the paper by its own sharp outline
BARE_SEED_OF_CARD_TOP = 0.6


def view_card(frame: np.ndarray, pack: EnigmaPack, mat_settings: MatSettings = DEFAULT_MAT, *,
              margin: float = 0.35) -> CardView:
    """The card found on the mat, cut out upright with ``margin`` (share of its side) of mat
    around it, its colours balanced on the markers' white paper (the three gains lowered
    together where a lamp would burn the card out: :func:`_balanced_view`)."""
    mat = locate_mat(frame, mat_settings)
    on_paper = paper_gains(mat)
    target = np.array(pack.colour("card"), np.float32)
    gains = (on_paper * target / 255.0).astype(np.float32)
    balanced = times_gains(mat.image, gains)
    half = mat.layout.size_mm * MAT_PX_PER_MM * 1.05  # marker and its white margin
    rect = find_card_square(balanced, pack.tile_mm,
                            exclude=tuple((*mat.to_px(x, y), half)
                                          for x, y in mat.layout.centres_mm))
    side_mm = pack.tile_mm
    c = side_mm * CARD_PX_PER_MM
    off = c * margin
    size = int(round(c + 2 * off))
    dst = np.array([[off, off], [off + c, off], [off + c, off + c], [off, off + c]], np.float32)
    corners = rect.corners()
    src = np.roll(corners, -upright_turn(balanced, corners), axis=0)
    assert mat.fit is not None
    frame_to_mat = mat.plane_to_image @ mat.fit.image_to_plane
    m = cv2.getPerspectiveTransform(src, dst)
    raw = warp_perspective(frame, m @ frame_to_mat, (size, size))
    a, b = int(round(off)), int(round(off + c))
    card_gains = _unclipped_gains(raw[a:b, a:b], on_paper) * target / 255.0
    image = _balanced_view(raw, card_gains, target, (a, b))
    markers = tuple(mat.to_px(x, y) for x, y in mat.layout.centres_mm)
    return CardView(image, c, off, balanced, rect.centre, markers,
                    mat.layout.size_mm * MAT_PX_PER_MM * 1.1, m @ frame_to_mat, frame_to_mat,
                    (frame.shape[1], frame.shape[0]))


#: the card's brightest pixels (this percentile per channel) are kept below this level when
#: the view is balanced on the markers' paper
HEADROOM_PERCENTILE, HEADROOM_LEVEL = 99.5, 250.0
#: a channel of the markers' paper measured at or above this level is clipped by the sensor:
#: its gain is only a bound. A colour cast and a lamp clip one channel of all the paper in
#: view while the paper in a hand's shadow keeps it, and with that gain the shadowed paper
#: looked coloured, was no bare card, and its dimness read as black pieces
CLIPPED_LEVEL = 250.0
#: paper that tells the clipped channel's gain: every channel below this level (the sensor's
#: noise spreads a clipped channel some levels down), at least this many pixels of it
UNCLIPPED_LEVEL, MIN_UNCLIPPED_PAPER = 235.0, 400


def _unclipped_gains(raw_card: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """``gains`` (that make the markers' paper white, :func:`paper_gains`) with the gain of a
    channel clipped on that paper measured instead on the card's paper where no channel is
    clipped (its colour, at the level of the markers' unclipped channels); unchanged where
    nothing is clipped or no such paper is seen."""
    white = 255.0 / np.maximum(gains[:3].astype(np.float64), 1e-6)
    clipped = white >= CLIPPED_LEVEL
    if not clipped.any():
        return gains
    # on the card at half size: a colour, no detail, is wanted
    half = cv2.resize(raw_card, (raw_card.shape[1] // 2, raw_card.shape[0] // 2),
                      interpolation=cv2.INTER_AREA)
    gray = brightness(half)
    paper = (_joined_paper(gray, np.ones(gray.shape, bool), (0, min(gray.shape)))
             & (half.max(axis=2) < UNCLIPPED_LEVEL))
    if int(paper.sum()) * 4 < MIN_UNCLIPPED_PAPER:
        return gains
    tint = np.maximum(np.median(half[paper], axis=0).astype(np.float64), 1.0)
    if clipped.all():  # the least light consistent with every channel's clipped paper
        level = float(np.max(white / tint))
    else:
        level = float(np.median(white[~clipped] / tint[~clipped]))
    true_white = np.where(clipped, np.maximum(level * tint, white), white)
    out: np.ndarray = (gains[:3] * white / true_white).astype(np.float32)
    return out


def _balanced_view(raw: np.ndarray, gains: np.ndarray, paper: np.ndarray,
                   card: tuple[int, int]) -> np.ndarray:
    """The view times ``gains`` (that make the paper ``paper``), on the card each channel the
    sensor clipped raised to what the pixel's other channels give for paper-coloured light
    (:func:`unclip`), then the three gains lowered together where the card would burn out:
    a lamp's hotspot on the card makes it brighter than the markers' paper the gains are
    measured on, and a pale piece clipped to white with the paper around it is lost, while
    the frame still tells them apart."""
    a, b = card
    raw_card = raw[a:b, a:b]
    # the top percentile on every third pixel each way: as good, nine times cheaper
    sample = unclip(channel_planes(raw_card[::3, ::3]), gains, paper)
    top = np.percentile(sample, HEADROOM_PERCENTILE, axis=1)
    lower = min(1.0, HEADROOM_LEVEL / max(float(top.max()), 1.0))
    image = times_gains(raw, gains * lower)
    n_high = count_per_pixel(raw_card >= UNCLIPPED_LEVEL)
    # a lamp clips one or two channels of most of the card: the pixels are taken by a mask
    # (in the order of their places, row by row) and unclipped channel by channel
    partial = (n_high > 0) & (n_high < 3)
    if partial.any():
        fill = np.clip(unclip(channel_planes(raw_card, partial), gains, paper) * lower,
                       0, 255).astype(np.uint8)
        for c in range(3):  # a channel at a time: four times faster than the pixels' rows
            image[a:b, a:b, c][partial] = fill[c]
    return image


def channel_planes(image: np.ndarray, where: np.ndarray | None = None) -> np.ndarray:
    """The pixels of a 3-channel ``image`` as three rows (3 x N, each contiguous), row by
    row; with ``where``, only the pixels it marks."""
    if where is None:
        planes: np.ndarray = np.ascontiguousarray(image.transpose(2, 0, 1)).reshape(3, -1)
        return planes
    return np.stack([image[..., c][where] for c in range(3)])


def unclip(planes: np.ndarray, gains: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """The pixels ``planes`` (3 x N, raw, :func:`channel_planes`) times ``gains``, each
    clipped channel (at :data:`UNCLIPPED_LEVEL` or above) of a pixel with an unclipped one
    raised to the share of the paper's light the unclipped channels show: a clipped channel
    is only a floor, and with the gains measured on unclipped paper clipped paper would look
    tinted. (The channels as rows: the same values as the pixels as rows, a third of the
    time on a card a lamp clips.) Each pixel's values are its own: made
    :data:`UNCLIP_BAND_PIXELS` pixels at a time, the same values."""
    n = planes.shape[1]
    if n <= UNCLIP_BAND_PIXELS:
        return _unclip_at_once(planes, gains, paper)
    result = np.empty(planes.shape, np.float32)
    for a in range(0, n, UNCLIP_BAND_PIXELS):
        result[:, a:a + UNCLIP_BAND_PIXELS] = _unclip_at_once(
            planes[:, a:a + UNCLIP_BAND_PIXELS], gains, paper)
    return result


#: :func:`unclip` is made this many pixels at a time: a band's floats and flags stay in the
#: processor's cache (a lamp clips a third of a card's 230 000 pixels)
UNCLIP_BAND_PIXELS = 1 << 14


def _unclip_at_once(planes: np.ndarray, gains: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """:func:`unclip` of all of ``planes`` in one go."""
    out = planes.astype(np.float32) * gains[:3, np.newaxis]
    high = planes >= UNCLIPPED_LEVEL
    n_low = 3 - count_per_pixel(high, axis=0).astype(np.int64)
    known = out / paper[:, np.newaxis]
    known[high] = 0.0
    # the three channels added in their order, as a sum along the channels adds them
    share = (known[0] + known[1] + known[2]) / np.maximum(n_low, 1)
    raise_ = high & (n_low > 0)
    result: np.ndarray = out.copy()
    # a float32 channel is exact in float64: the larger of the two, rounded once to float32
    result[raise_] = np.maximum(out[raise_], (share * paper[:, np.newaxis])[raise_])
    return result


def count_per_pixel(flags: np.ndarray, *, axis: int = -1) -> np.ndarray:
    """How many of a pixel's three channel ``flags`` (booleans, along ``axis``: the last, or
    the first for :func:`channel_planes`) are set, as uint8: what
    ``flags.sum(axis=axis, dtype=np.uint8)`` gives, channel by channel (numpy's sum over a
    short last axis costs ten times more; a lamp clips a third of a card's pixels)."""
    ones = np.moveaxis(flags.view(np.uint8), axis, 0)
    count: np.ndarray = ones[0] + ones[1] + ones[2]
    return count


def upright_turn(balanced: np.ndarray, corners: np.ndarray) -> int:
    """Which corner of the card (0..3, clockwise from the image's top-left) carries the dark
    orientation triangle: the one whose corner is darkest against the paper just past the
    triangle's edge (:func:`~vision.enigma.puzzles.card_find.triangle_contrasts`). A hand's
    shadow over a corner dims the paper on both sides of that edge alike, while the printed
    triangle stays darker than the paper beside it under any light (nearest the ink's
    colour, a shadowed corner under a strong cast won over the triangle under a lamp, and
    the card was read upside down: conduit cloth/strong seed 9)."""
    best = (-math.inf, 0)
    for turn, contrast in enumerate(triangle_contrasts(balanced, corners)):
        if contrast is not None and contrast > best[0]:
            best = (contrast, turn)
    return best[1]


def light_field(image: np.ndarray, bare: np.ndarray) -> np.ndarray:
    """The light falling on the card, per channel (float32, the image's size): the bare card's
    colour measured on blocks, carried smoothly over the blocks without bare card (under a
    piece, a weight, a printed picture), so a shadow's edge or a lamp's hotspot is followed."""
    h, w = bare.shape
    bw, bh = max(2, w // LIGHT_BLOCK), max(2, h // LIGHT_BLOCK)
    weight, sums = block_sums(image, bare, (bw, bh))
    known = (weight >= LIGHT_BARE_SHARE).astype(np.float32)
    means = sums / np.maximum(weight, 1e-6)[..., None] * known[..., None]
    field = means.copy()
    have = known.copy()
    for sigma in (1.0, 2.5, 6.0):
        num = cv2.GaussianBlur(means, (0, 0), sigma)
        den = cv2.GaussianBlur(known, (0, 0), sigma)
        fill = (have == 0) & (den > 1e-3)
        field[fill] = num[fill] / den[fill][..., None]
        have[fill] = 1
    if not have.all():
        field[have == 0] = means[known > 0].mean(axis=0) if known.any() else 255.0
    out: np.ndarray = cv2.resize(field, (w, h), interpolation=cv2.INTER_LINEAR)
    return out


def block_sums(image: np.ndarray, bare: np.ndarray, blocks: tuple[int, int]
                ) -> tuple[np.ndarray, np.ndarray]:
    """The share of bare card on each of the ``blocks`` (width, height) and the image's mean
    over it times that share (float32, area averages). Where the blocks tile the image
    exactly, OpenCV averages each block on its own, so only the blocks round the bare card
    are averaged (the card is a third of the view): the others are 0, as averaged."""
    h, w = bare.shape
    bw, bh = blocks
    if w % bw or h % bh:  # blocks of unequal sizes: the whole image averaged at once
        return (cv2.resize(bare.astype(np.float32), (bw, bh), interpolation=cv2.INTER_AREA),
                cv2.resize(image.astype(np.float32) * bare[..., None], (bw, bh),
                           interpolation=cv2.INTER_AREA))
    weight = np.zeros((bh, bw), np.float32)
    sums = np.zeros((bh, bw, image.shape[2]), np.float32)
    x, y, rw, rh = cv2.boundingRect(bare.astype(np.uint8))
    if rw == 0 or rh == 0:
        return weight, sums
    sx, sy = w // bw, h // bh
    bx0, by0, bx1, by1 = x // sx, y // sy, -(-(x + rw) // sx), -(-(y + rh) // sy)
    part = np.s_[by0 * sy:by1 * sy, bx0 * sx:bx1 * sx]
    size = (bx1 - bx0, by1 - by0)
    weight[by0:by1, bx0:bx1] = cv2.resize(bare[part].astype(np.float32), size,
                                          interpolation=cv2.INTER_AREA)
    sums[by0:by1, bx0:bx1] = cv2.resize(image[part].astype(np.float32) * bare[part][..., None],
                                        size, interpolation=cv2.INTER_AREA)
    return weight, sums


def bare_card(view: CardView, *, greys: bool = False) -> np.ndarray:
    """The card's bare paper: without colour and nearly as bright as the brightest pixel near
    it; white (:data:`BARE_WHITENESS`), or with ``greys`` (a card printed in greys whose pieces
    are grey or black) not far darker than the card's brightest paper
    (:data:`BARE_OF_CARD_TOP`) and joined to clearly lit paper (:data:`BARE_SEED_OF_CARD_TOP`)."""
    h, w = view.image.shape[:2]
    a, b = int(round(view.margin_px)), int(round(view.margin_px + view.side_px))
    # measured on the card and the reach of its brightest-near round it, not on the mat
    # beyond (two thirds of the view): bare card lies on the card only, and a pixel's
    # brightest near it lies within half the square's side, so the card's pixels get the
    # same values as from the whole view
    o = max(0, a - LOCAL_MAX_PX // 2)
    part = view.image[o:min(h, b + LOCAL_MAX_PX // 2), o:min(w, b + LOCAL_MAX_PX // 2)]
    gray = brightness(part)
    near_max = cv2.dilate(gray, np.ones((LOCAL_MAX_PX, LOCAL_MAX_PX), np.uint8))
    bare = np.zeros((h, w), bool)
    inside = bare[o:o + part.shape[0], o:o + part.shape[1]]  # a view: filled in place
    if not greys:
        card = np.zeros(gray.shape, bool)
        card[max(0, a - o):b - o, max(0, a - o):b - o] = True
        inside[...] = ((gray >= BARE_OF_LOCAL_MAX * near_max)
                       & (whiteness(part) >= BARE_WHITENESS) & card)
        return bare
    inside[...] = _joined_paper(gray, chroma(part) <= BARE_CHROMA, (a - o, b - o),
                                near_max=near_max)
    return bare


def _joined_paper(gray: np.ndarray, allowed: np.ndarray, card: tuple[int, int], *,
                  near_max: np.ndarray | None = None) -> np.ndarray:
    """The paper of a card printed in greys (spanning pixels ``card[0]`` to ``card[1] - 1``
    in both directions): ``allowed`` pixels nearly as bright as the brightest near them, not
    far darker than the card's brightest paper, joined to clearly lit paper
    (:data:`BARE_OF_CARD_TOP`, :data:`BARE_SEED_OF_CARD_TOP`)."""
    if near_max is None:
        near_max = cv2.dilate(gray, np.ones((LOCAL_MAX_PX, LOCAL_MAX_PX), np.uint8))
    a, b = card
    inside = np.zeros(gray.shape, bool)
    inside[a:b, a:b] = True
    top = float(np.percentile(gray[a:b, a:b], CARD_TOP_QUANTILE)) if b > a else 255.0
    paper = ((gray >= BARE_OF_LOCAL_MAX * near_max) & (gray >= BARE_OF_CARD_TOP * top)
             & allowed & inside)
    n, labels = cv2.connectedComponents(paper.astype(np.uint8), connectivity=8)
    lit = np.zeros(n, bool)
    lit[labels[paper & (gray >= BARE_SEED_OF_CARD_TOP * top)]] = True
    lit[0] = False
    bare: np.ndarray = lit[labels]
    return bare


def flatten_light(view: CardView, pack: EnigmaPack, *, others: Mapping[str, Any] | None = None,
                  greys: bool = False, not_paper: np.ndarray | None = None) -> np.ndarray:
    """The card view with uneven light, shadows and colour cast taken out: each pixel divided
    by the light falling there (:func:`light_field`), scaled so the bare card reads as the
    pack's card colour everywhere. ``others`` is kept for callers; the field needs no
    colours. ``greys``: the card is printed in greys and its pieces are grey or black
    (:func:`bare_card`). ``not_paper``: where the light is never measured (where the pieces
    may lie: a glare can lift a dark piece to nearly the paper's grey)."""
    target = np.array(pack.colour("card"), np.float32)
    key = (greys, tuple(float(v) for v in target))
    if not_paper is None:
        for image, kept_key, kept in _FLAT_KEPT:
            if image is view.image and kept_key == key:
                return kept.copy()  # the weight check flattens the same view twice
    bare = bare_card(view, greys=greys)
    if not_paper is not None:
        bare &= ~not_paper
    out = divided_by_light(view.image, light_field(view.image, bare), target)
    if not_paper is None:
        _FLAT_KEPT[:] = [(view.image, key, out.copy())]
    return out


#: the view is divided by the light this many pixels at a time: a band's floats stay in
#: the processor's cache (the whole view's are 8 MB, each pass over them read from memory)
FLATTEN_BAND_PIXELS = 1 << 14


def divided_by_light(image: np.ndarray, field: np.ndarray, target: np.ndarray) -> np.ndarray:
    """``clip(image * target / max(field, 8), 0, 255)`` as uint8, the steps in that order
    pixel by pixel (float32), a band of rows at a time (:data:`FLATTEN_BAND_PIXELS`): the
    same values as over the whole image at once. ``field`` is raised to 8 in place."""
    h, w = image.shape[:2]
    out = np.empty(image.shape, np.uint8)
    rows = max(1, FLATTEN_BAND_PIXELS // max(w, 1))
    for r0 in range(0, h, rows):
        band = np.s_[r0:r0 + rows]
        flat = image[band].astype(np.float32)
        flat *= target
        flat /= np.maximum(field[band], 8.0, out=field[band])
        out[band] = np.clip(flat, 0, 255, out=flat)  # truncated, as astype(np.uint8)
    return out


#: the last view :func:`flatten_light` flattened without ``not_paper``: (the view's image,
#: (greys, the card colour), the flattened image); the view's image is held, so it is that
#: image (a new frame's view is a new array)
_FLAT_KEPT: list[tuple[np.ndarray, tuple[bool, tuple[float, ...]], np.ndarray]] = []


#: the bare table is measured on a square ring round each marker of the mat, from and to
#: these many halves of the marker's paper (``CardView.marker_px``) from its centre: just
#: past the paper
TABLE_RING_OF_PAPER = (1.1, 1.55)


def table_colour(view: CardView, pack: EnigmaPack) -> tuple[int, int, int]:
    """The bare table's colour round the mat's markers (the median over the rings, marker by
    marker, then the median of those), or the pack's table colour where no ring is seen. A
    pack's table is only the table it was drawn on: on the players' blue cloth its brown
    lies farther from the cloth than a blue piece does, and the whole cloth read as piece."""
    medians = [m for m in (ring_median(view.mat, centre, view.marker_px, np.eye(3),
                                       sides_out=TABLE_RING_OF_PAPER)
                           for centre in view.marker_centres) if m is not None]
    if not medians:
        b, g, r = pack.colour("table")
        return (int(b), int(g), int(r))
    b, g, r = (int(round(float(v))) for v in np.median(np.array(medians), axis=0))
    return (b, g, r)


def nearest_colour(image: np.ndarray, colours: Mapping[str, Any], *,
                   chroma_weight: float = 1.0, features: np.ndarray | None = None
                   ) -> tuple[np.ndarray, list[str]]:
    """Per pixel the index of the nearest named colour (chromaticity and brightness).
    ``chroma_weight`` < 1 trusts brightness more: greys differ from a white card mostly in
    brightness, and a camera's colour cast moves their chromaticity. ``features``: the
    image's :func:`~vision.enigma.colours.colour_features` where already made (left as
    they are)."""
    names = list(colours)
    scale = np.array([chroma_weight, chroma_weight, 1.0], np.float32)
    feats = colour_features(image) if features is None else features
    if chroma_weight != 1.0:  # times 1.0 is each value itself: a pass over the whole mat saved
        # the features given are the caller's: scaled into a new array
        feats = feats * scale if features is not None else np.multiply(feats, scale, out=feats)
    centres = np.array([colour_features(np.array(colours[name], np.float32)) * scale
                        for name in names], np.float32)
    # |f - c|^2 = |f|^2 - 2 f.c + |c|^2, and |f|^2 is the same for every colour: one affine
    # transform gives all the colours' -2 f.c + |c|^2 (the numpy pass per colour was most of
    # the angular check's time)
    affine = np.hstack([-2.0 * centres, (centres * centres).sum(axis=1, keepdims=True)])
    closeness = cv2.transform(feats.reshape(-1, 1, 3), affine.astype(np.float32))
    best = closeness.reshape(-1, len(names)).argmin(axis=1).astype(np.int32)
    return best.reshape(image.shape[:2]), names


def mat_features(view: CardView) -> np.ndarray:
    """The :func:`~vision.enigma.colours.colour_features` of the view's whole mat, made once
    a view: each pixel's features are its own, so a box of them is the box's features (the
    angular check named the mat's colours three times, a box of it twice, about 12 ms of CPU
    each for the whole mat). Not to be written to."""
    for mat, kept in _MAT_FEATURES_KEPT:
        if mat is view.mat:
            return kept
    feats = colour_features(view.mat)
    feats.flags.writeable = False  # shared by the check's callers
    _MAT_FEATURES_KEPT[:] = [(view.mat, feats)]
    return feats


#: the last view's mat and its colour features (:func:`mat_features`); the mat is held, so it
#: is that image (a new frame's view has a new mat)
_MAT_FEATURES_KEPT: list[tuple[np.ndarray, np.ndarray]] = []


def open_mask(mask: np.ndarray, radius: int) -> np.ndarray:
    """``mask`` opened by a disc of ``radius``, made only round the mask's set pixels: an
    opening keeps nothing past them, and within ``radius`` of them every pixel its erosion
    and dilation read lies in that box or off the image, where the box's own border is read
    alike (the whole view was opened for masks a fraction of it: 7 openings a fragment check)."""
    ones = mask.astype(np.uint8)
    out = np.zeros(mask.shape, bool)
    x, y, w, h = cv2.boundingRect(ones)
    if w == 0 or h == 0:
        return out
    rows, cols = ones.shape
    x0, y0 = max(0, x - radius - 1), max(0, y - radius - 1)
    x1, y1 = min(cols, x + w + radius + 1), min(rows, y + h + radius + 1)
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    out[y0:y1, x0:x1] = cv2.morphologyEx(ones[y0:y1, x0:x1], cv2.MORPH_OPEN, k) > 0
    return out



__all__ = ["CANNOT_TELL", "NOT_SOLVED", "SOLVED", "CardView", "bare_card", "channel_planes",
           "count_per_pixel", "divided_by_light", "flatten_light", "light_field",
           "mat_features", "nearest_colour", "open_mask", "table_colour", "upright_turn",
           "verdict", "view_card"]
