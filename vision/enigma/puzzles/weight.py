"""The weight puzzle seen by the camera: the card's cups and numbers, the weights in each cup."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.enigma.mat import (
    CARD_PX_PER_MM,
)
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.cards import (
    Cup,
    Point,
)
from vision.enigma.puzzles.view import CardView, flatten_light, open_mask
from vision.enigma.puzzles.weight_card import MAX_CUPS
from vision.enigma.puzzles.weight_pose import Lean, likeness_at, side_shows

#: the weight as the camera sees it from above: a face of the pack's weight colour and, from
#: this share of its radius out, a bevelled rim this share of the face's brightness
RIM_FROM, RIM_SHADE = 0.82, 0.6
#: weights are looked for on the card view shrunk this much (a weight is still 20 px across)
FIND_SHRINK = 2
#: a place looks like a weight where the weight's picture (face, rim and a little card around)
#: correlates this well with the view; the correlation is normalised, so a shadow or a glare
#: over the weight changes it little. Only a first sieve: each place is then judged
#: (:func:`judge_weight`)
WEIGHT_LIKENESS = 0.3
#: the weight's picture reaches this far (share of its radius): little of the card around it,
#: which a weight beside it may cover
TEMPLATE_REACH = 1.1
#: the face in the weight's picture: this share of the way from the card to the rim. The
#: pack's weight lies at 0.63; a lamp's glare that burns the card out brings the face nearer
#: the card than the rim, so the picture takes a middle way
TEMPLATE_FACE = 0.45
#: two weights' centres lie at least this far apart (share of the radius): side by side they
#: touch at 2; one lying partly on another is read from the crescent it leaves
WEIGHTS_APART = 1.5
#: a whole weight's face lies between the card around it and its rim, this share of the way
#: from the card to the rim (a printed ring has bare card inside, a blot of ink no lighter face)
FACE_SHARE = (0.2, 0.9)
#: its rim is darker than its face all the way round: in each of this many sectors, the darker
#: part (this quantile) of a band around the rim wide enough for a centre a few pixels off, by
#: this share of the rim's depth below the card (the rim of a weight partly under another is
#: not)
RIM_SECTORS, RIM_QUANTILE, RIM_STEP = 8, 30, 0.06
RIM_BAND = (0.75, 1.08)
#: a weight is told only where its rim is this much darker than the card around it (share of
#: the card's level): a weight washed out further by a lamp's glare is asked about. The bare
#: card in a cup, its noise, lies 0.008-0.029 below the card (:data:`FAINT_DEPTH`); weights
#: under a glare near burning out 0.078-0.098 (tuning cloth/strong 7 and 15, wood/strong 12
#: and 13, right builds: "move the lamp" at 0.1), the weights' shape tells them from there on
MIN_RIM_DEPTH = 0.05
#: the rings measured on a weight (shares of its radius): its face, its rim, the card around
FACE_RING, RIM_RING, CARD_RING = (0.0, 0.6), (0.84, 0.98), (1.15, 1.6)
#: the card around a weight is this high a quantile of the ring around it (the weights beside
#: it and the printed ring are darker)
CARD_QUANTILE = 80


#: why a weight-like place is not told: a lamp's glare washes its rim out
WASHED_OUT = "washed out"


@dataclass(frozen=True)
class Weight:
    """One weight-like place: its centre, whether it shows whole, and if not, why not (its
    face is no weight's, its rim is hidden, or a glare washes it out). ``card``, ``face`` and
    ``rim`` are the levels measured around it, on its face and on its rim."""

    centre: Point
    whole: bool
    doubt: str
    card: float
    face: float
    rim: float
    #: where a weight seen standing tall stands on the card (its top face, ``centre``, shows
    #: off it, away from the camera's nadir); None for a weight seen flat
    base: Point | None = None


def weight_radius_px(pack: EnigmaPack) -> float:
    return float(pack.sizes["weight_mm"]) / 2 * CARD_PX_PER_MM


def level_image(view: CardView, pack: EnigmaPack) -> np.ndarray:
    """The card view's brightness with the light taken out, the bare card at 1."""
    flat = flatten_light(view, pack, greys=True)
    gray = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY).astype(np.float32)
    out: np.ndarray = gray / float(np.mean(pack.colour("card")))
    return out


def weight_template(pack: EnigmaPack, radius: float) -> np.ndarray:
    """A weight's picture on the card (levels, the card at 1), ``radius`` px, drawn smooth:
    its rim as the pack's weight colour shaded, its face :data:`TEMPLATE_FACE` of the way
    from the card to the rim."""
    rim = RIM_SHADE * float(np.mean(pack.colour("weight"))) / float(np.mean(pack.colour("card")))
    face = 1.0 - TEMPLATE_FACE * (1.0 - rim)
    half = int(math.ceil(TEMPLATE_REACH * radius))
    yy, xx = np.mgrid[-half:half + 1, -half:half + 1].astype(np.float32)
    d = np.hypot(xx, yy) / radius
    picture = np.where(d <= RIM_FROM, face, np.where(d <= 1.0, rim, 1.0))
    out: np.ndarray = cv2.GaussianBlur(picture.astype(np.float32), (0, 0), 0.6)
    return out


@functools.lru_cache(maxsize=4)
def _ring_masks(wr: float) -> tuple[int, dict[str, np.ndarray], np.ndarray]:
    """The patch's half side, the face, rim, card and rim band rings as masks, and each
    pixel's sector (kept: every place judged on a card takes the same, and the tall weights'
    sieve judges a few dozen)."""
    half = int(math.ceil(CARD_RING[1] * wr)) + 1
    yy, xx = np.mgrid[-half:half + 1, -half:half + 1].astype(np.float32)
    d = np.hypot(xx, yy) / wr
    sector = ((np.arctan2(yy, xx) + math.pi) / (2 * math.pi) * RIM_SECTORS).astype(int)
    rings = {name: (d >= lo) & (d <= hi) for name, (lo, hi) in
             (("face", FACE_RING), ("rim", RIM_RING), ("card", CARD_RING), ("band", RIM_BAND))}
    return half, rings, np.minimum(sector, RIM_SECTORS - 1)


def judge_weight(level: np.ndarray, centre: Point, wr: float) -> Weight:
    """Whether the weight-like place at ``centre`` is a whole weight: a face
    between the card and a darker rim, the rim whole all the way round, and enough contrast
    to tell. The face's median is taken: its own highlight is a small part of it."""
    half, rings, sector = _ring_masks(wr)
    x, y = int(round(centre[0])), int(round(centre[1]))
    h, w = level.shape
    if x - half < 0 or y - half < 0 or x + half >= w or y + half >= h:
        return Weight(centre, False, "at the picture's edge", 1.0, 1.0, 1.0)
    patch = level[y - half:y + half + 1, x - half:x + half + 1]
    face = float(np.median(patch[rings["face"]]))
    rim = float(np.median(patch[rings["rim"]]))
    card = float(np.percentile(patch[rings["card"]], CARD_QUANTILE))
    depth = card - rim
    if depth < MIN_RIM_DEPTH * card:
        return Weight(centre, False, WASHED_OUT, card, face, rim)
    if not FACE_SHARE[0] <= (card - face) / depth <= FACE_SHARE[1]:
        return Weight(centre, False, "no weight's face", card, face, rim)
    for k in range(RIM_SECTORS):
        part = patch[rings["band"] & (sector == k)]
        if float(np.percentile(part, RIM_QUANTILE)) > face - RIM_STEP * depth:
            return Weight(centre, False, "its rim is hidden", card, face, rim)
    return Weight(centre, True, "", card, face, rim)


def weight_places(level: np.ndarray, pack: EnigmaPack, near: np.ndarray, *,
                  likeness: float = WEIGHT_LIKENESS, apart: float = WEIGHTS_APART,
                  peak: float = WEIGHTS_APART,
                  picture: Callable[[EnigmaPack, float], np.ndarray] | None = None
                  ) -> list[Point]:
    """The centres (card view px) of the places within ``near`` that look like a weight:
    peaks (the best within ``peak`` radii) of the correlation with the weight's picture
    (``picture``: :func:`weight_template` unless given) at least ``likeness``, ``apart``
    radii apart (shares of the radius), the best first."""
    wr = weight_radius_px(pack)
    h, w = level.shape
    small = cv2.resize(level, (w // FIND_SHRINK, h // FIND_SHRINK), interpolation=cv2.INTER_AREA)
    template = (picture or weight_template)(pack, wr / FIND_SHRINK)
    score = cv2.matchTemplate(small, template, cv2.TM_CCOEFF_NORMED)
    off = template.shape[0] // 2
    k = 2 * int(peak * wr / FIND_SHRINK / 2) + 1
    peaks = (score >= likeness) & (score >= cv2.dilate(score, np.ones((k, k), np.uint8)))
    ys, xs = np.nonzero(peaks)
    found: list[Point] = []
    for i in np.argsort(-score[ys, xs]).tolist():
        x = (float(xs[i] + off) + 0.5) * FIND_SHRINK - 0.5
        y = (float(ys[i] + off) + 0.5) * FIND_SHRINK - 0.5
        if not near[min(h - 1, int(y)), min(w - 1, int(x))]:
            continue
        if all(math.dist((x, y), c) >= apart * wr for c in found):
            found.append(_refine(level, template, (x, y)))
    return found


def _refine(level: np.ndarray, template: np.ndarray, at: Point) -> Point:
    """The centre to the pixel: the correlation's peak at full size within a shrunk pixel."""
    big = cv2.resize(template, None, fx=FIND_SHRINK, fy=FIND_SHRINK,
                     interpolation=cv2.INTER_LINEAR)
    found = _best_match_near(level, big, at, FIND_SHRINK + 1)
    return at if found is None else found


def _best_match_near(level: np.ndarray, template: np.ndarray, at: Point, reach: int
                     ) -> Point | None:
    """Where ``template`` correlates best with ``level`` with its middle within ``reach``
    pixels of ``at`` (None when that window leaves the picture)."""
    half = template.shape[0] // 2
    x, y = int(round(at[0])), int(round(at[1]))
    x0, y0 = x - reach - half, y - reach - half
    h, w = level.shape
    if x0 < 0 or y0 < 0 or x + reach + half + 1 > w or y + reach + half + 1 > h:
        return None
    window = level[y0:y + reach + half + 1, x0:x + reach + half + 1]
    score = cv2.matchTemplate(window, template, cv2.TM_CCOEFF_NORMED)
    _, _, _, (px, py) = cv2.minMaxLoc(score)
    return float(x - reach + px), float(y - reach + py)


#: the card beside a place: the brightest (smoothed) level within this many weight radii
CARD_NEAR = 1.6


def local_card(level: np.ndarray, wr: float) -> np.ndarray:
    """Per pixel the card's level near it: the brightest of the smoothed levels within
    :data:`CARD_NEAR` radii (wider than a weight's crescent, so its middle still sees card)."""
    side = 2 * int(round(CARD_NEAR * wr)) + 1
    out: np.ndarray = cv2.dilate(smooth_level(level), np.ones((side, side), np.uint8))
    return out


#: the levels' median over this many pixels is taken before the crescents are looked for:
#: the sensor's noise then neither lifts the card's brightest level nor drops card below the
#: crescent's level, and the print's thin lines keep their width (a mean would widen them)
SMOOTH_PX = 5


def smooth_level(level: np.ndarray) -> np.ndarray:
    out: np.ndarray = cv2.medianBlur(level.astype(np.float32), SMOOTH_PX)
    return out


#: a hidden weight's crescent is at least this thick (share of the radius) and this large
#: (share of a weight's face); the print's lines are thinner
CRESCENT_THICK, CRESCENT_AREA = 0.2, 0.15
#: around a whole weight, this much of its radius is its own (the camera's blur, a pixel off)
OWN_DISC = 1.08
#: a weight partly under a whole one reaches this far from the top one's centre (shares of the
#: radius: its centre at most 1.4 radii off, then its own radius, and the blur), and its
#: crescent touches the top one: it comes this near the top one's own disc
CRESCENT_REACH, CRESCENT_TOUCH = 2.5, 0.2
#: a crescent (a weight's face and rim) is darker than this share of the way from the card
#: down to the face (a shadow's soft edge is nearer the card)
CRESCENT_LEVEL = 0.6
#: the face taken for that step lies at least this share of the way from the card to the top
#: weight's rim, as the pack's weights' faces do (0.6-0.67 on the tuning frames). A glare near
#: burning out lifts a weight's face nearer the card than its rim (0.25-0.38 of the way on
#: tuning cloth/strong 7, wood/strong 12): the step from that face alone lies within the
#: glare's own unevenness beside the weight (wood/strong 12, right build: a crescent of bare
#: card 1.25 radii off a lone weight in its cup, asked about)
CRESCENT_FACE_SHARE = 0.6
#: and its darkest part (this percentile: the hidden weight's rim) reaches this share of the
#: way from the card down to the top weight's rim. A glare that washes the top weight's face
#: to within a few per cent of the card brings CRESCENT_LEVEL's step within the light's own
#: unevenness inside a cup, where the light field is least known (tuning seed 8, cloth,
#: strong: a lone weight's cup read as crescents all round it, its darkest part 0.31 of the
#: way to the rim); a weight under another shows its own rim, 0.94 to 1.3 of the way
#: (cloth/strong seeds 2, 5, 8, 11, 14, near misses with a weight partly on another; every
#: strong near miss of tuning seeds 0-56 and the broad glare's, 0.97 and more). Washed weights
#: side by side leave the bare card beside them, under the glare's slope and the print's blur,
#: down to 0.53-0.69 of the way (tuning cloth/strong 7 and 15, right builds: "a weight does
#: not show whole" where only the glare is; 0.88 on a piece too small to count), so 0.8
CRESCENT_RIM, CRESCENT_RIM_PERCENTILE = 0.8, 5
#: metal in the notch between the top weight and another whole one is cut by both weights'
#: own discs and loses its tips to the opening: a weight under the top one there leaves only
#: 0.05-0.15 of a face (drawn tall cups, tuning: 57-187 px where 188-380 px of it differ from
#: the cup without it), less than :data:`CRESCENT_AREA`. It counts from this share of a face
#: when its lightest part (this percentile) is the hidden weight's own face: no lighter than
#: the top weight's face by more than this share of the way from that face to the card. The
#: drawn hidden faces lie at -0.09 to 0.02 of the way; the sides and lamp shadows of tall
#: weights side by side that reach the notch (independent puzzle scenes, tuning seeds 0-5)
#: are blurred towards the card, at 0.07 to 0.36 (0.25 to 0.31 in the right builds solved)
NOTCH_AREA, NOTCH_PERCENTILE, NOTCH_FACE_STEP = 0.05, 90, 0.045


def crescents(smooth: np.ndarray, card_level: np.ndarray, top: Weight, whole: list[Weight],
              wr: float, inside: np.ndarray) -> list[Point]:
    """The crescents of weights lying partly under the whole weight ``top``: metal beside it
    that no whole weight (``whole``) explains, touching it (a printed line is thinner, the
    card lighter, and a shadow's edge has no reason to hug a weight). The metal's level
    (``smooth``, :func:`smooth_level`), against the card beside it (``card_level``,
    :func:`local_card`), is darker than :data:`CRESCENT_LEVEL` of the way to the top
    weight's face (at least :data:`CRESCENT_FACE_SHARE` of the way to its rim): a glare that
    lessens the weight's contrast lessens the step with it; and
    its darkest part is a rim, :data:`CRESCENT_RIM` of the way down to the top one's, beyond
    the whole weights' sides (:func:`beyond_sides`)."""
    reach = CRESCENT_REACH * wr
    h, w = smooth.shape
    x0, y0 = max(0, int(top.centre[0] - reach)), max(0, int(top.centre[1] - reach))
    x1, y1 = min(w, int(top.centre[0] + reach) + 1), min(h, int(top.centre[1] + reach) + 1)
    box = smooth[y0:y1, x0:x1] / np.maximum(card_level[y0:y1, x0:x1], 1e-3)
    at = (int(round(top.centre[0])) - x0, int(round(top.centre[1])) - y0)
    region = np.zeros(box.shape, np.uint8)
    cv2.circle(region, at, int(reach), 1, -1)
    for wt in whole:
        _own_outline(region, wt, (x0, y0), OWN_DISC * wr, 0)
    # a weight under a tall one touches its outline, its side and base too: the side explains
    # only the metal within it (a flat weight taken for a tall one would otherwise explain
    # away the crescent of the weight under it, the part touching its top face's disc lost
    # in its claimed side; session 27's held-apart flat near miss "solved")
    touch = np.zeros(box.shape, np.uint8)
    _own_outline(touch, top, (x0, y0), (OWN_DISC + CRESCENT_TOUCH) * wr, 1)
    # the print's lines near a cup are thinner than a crescent: the opening takes them off
    face_step = max(top.card - top.face, CRESCENT_FACE_SHARE * (top.card - top.rim))
    upper = 1 - CRESCENT_LEVEL * face_step / max(top.card, 1e-3)
    metal = (box < upper) & region.astype(bool) & inside[y0:y1, x0:x1]
    metal = open_mask(metal, max(1, int(round(CRESCENT_THICK * wr))))
    n, lab, stats, cents = cv2.connectedComponentsWithStats(metal.astype(np.uint8),
                                                            connectivity=8)
    touching = set(np.unique(lab[touch.astype(bool)]).tolist())
    rim_level = 1 - CRESCENT_RIM * (top.card - top.rim) / max(top.card, 1e-3)
    notch = _notch_faces(box, lab, stats, top, whole, (x0, y0), wr)
    beyond = beyond_sides(box.shape, whole, (x0, y0), wr)
    return [(float(cents[k][0]) + x0, float(cents[k][1]) + y0) for k in range(1, n)
            if k in touching and (stats[k, cv2.CC_STAT_AREA] >= CRESCENT_AREA * math.pi * wr * wr
                                  or k in notch)
            and _darkest(box, (lab == k) & (beyond | (k in notch))) < rim_level]


#: a whole weight standing tall shows its side, darker than its rim, beyond its top face as
#: far as its lean (at most 0.54 radii: 3 mm weights 5 mm across under a camera tilted tan
#: 0.45) and the blur: within this many radii of a whole weight's centre dark metal may be
#: its side, in whatever direction the camera lies (its pose is not always known). A weight
#: partly under another (its centre 0.8 to 1.4 radii off) shows its rim beyond, 1.62 to 2.4
#: radii off the top one: a crescent's rim is looked for only there (its notch pieces, which
#: lie nearer, keep their own face test)
SIDE_REACH = 1.6


def beyond_sides(shape: tuple[int, ...], whole: list[Weight], origin: tuple[int, int],
                 wr: float) -> np.ndarray:
    """Where (a box of ``shape`` whose corner is ``origin``) lies beyond every whole weight's
    side (:data:`SIDE_REACH` of the radius from its centre)."""
    yy, xx = np.mgrid[0:shape[0], 0:shape[1]]
    out = np.ones(shape[:2], bool)
    for wt in whole:
        out &= np.hypot(xx + origin[0] - wt.centre[0],
                        yy + origin[1] - wt.centre[1]) >= SIDE_REACH * wr
    return out


def _darkest(box: np.ndarray, part: np.ndarray) -> float:
    """The darkest level (:data:`CRESCENT_RIM_PERCENTILE`) of ``box`` within ``part``; the
    card's (1) where ``part`` is empty."""
    return float(np.percentile(box[part], CRESCENT_RIM_PERCENTILE)) if part.any() else 1.0


def _own_outline(canvas: np.ndarray, wt: Weight, origin: tuple[int, int], reach: float,
                 value: int) -> None:
    """Paint ``value`` on ``canvas`` (its corner at ``origin``) over the weight's own
    outline out to ``reach`` px: its disc and, for a weight standing tall, its side down to
    its base."""
    own = (int(round(wt.centre[0])) - origin[0], int(round(wt.centre[1])) - origin[1])
    cv2.circle(canvas, own, int(round(reach)), value, -1)
    if wt.base is not None:
        foot = (int(round(wt.base[0])) - origin[0], int(round(wt.base[1])) - origin[1])
        cv2.line(canvas, own, foot, value, 2 * int(round(reach)) + 1)
        cv2.circle(canvas, foot, int(round(reach)), value, -1)


def _notch_faces(box: np.ndarray, lab: np.ndarray, stats: np.ndarray, top: Weight,
                 whole: list[Weight], origin: tuple[int, int], wr: float) -> set[int]:
    """The metal pieces (labels of ``lab``, over ``box`` whose corner is ``origin``) in a
    notch between ``top`` and another whole weight that show a hidden weight's face: at least
    :data:`NOTCH_AREA` of a face, touching both weights' own discs, their lightest part no
    lighter than ``top``'s face (:data:`NOTCH_FACE_STEP`)."""
    touch = np.zeros(box.shape, np.uint8)
    reach = int(round((OWN_DISC + CRESCENT_TOUCH) * wr))
    for wt in whole:
        if wt.centre != top.centre:
            cv2.circle(touch, (int(round(wt.centre[0])) - origin[0],
                               int(round(wt.centre[1])) - origin[1]), reach, 1, -1)
    face = top.face / max(top.card, 1e-3)
    lightest = face + NOTCH_FACE_STEP * (1 - face)
    return {k for k in set(np.unique(lab[touch.astype(bool)]).tolist()) - {0}
            if stats[k, cv2.CC_STAT_AREA] >= NOTCH_AREA * math.pi * wr * wr
            and float(np.percentile(box[lab == k], NOTCH_PERCENTILE)) <= lightest}


#: the band (mm wide) along a cup's printed ring where its ink, blurred, may lie
PRINTED_RING_MM = 1.6
#: metal this close to a cup's centre (share of the cup's radius) lies in that cup
IN_CUP = 1.2
#: a doubt about metal this close to a cup (share of its radius) changes that cup's count
NEAR_CUP = 1.5


def cup_at(view: CardView, cups: list[Cup], x: float, y: float, reach: float) -> Cup | None:
    """The cup whose centre is nearest (x, y), within ``reach`` of its radius."""
    best: tuple[float, Cup] | None = None
    for cup in cups:
        d = math.dist((x, y), view.mm_to_px(*cup.centre)) / (cup.radius * CARD_PX_PER_MM)
        if d <= reach and (best is None or d < best[0]):
            best = (d, cup)
    return best[1] if best else None


def cups_mask(view: CardView, cups: list[Cup], reach: float) -> np.ndarray:
    """Where the card view lies within ``reach`` of a cup's radius from its centre."""
    mask = np.zeros((view.image.shape[0], view.image.shape[1]), np.uint8)
    for cup in cups:
        cx, cy = view.mm_to_px(*cup.centre)
        cv2.circle(mask, (int(round(cx)), int(round(cy))),
                   int(round(reach * cup.radius * CARD_PX_PER_MM)), 1, -1)
    out: np.ndarray = mask > 0
    return out


def cup_name(cup: Cup) -> str:
    return f"the {cup.side} cup {cup.index + 1}"


def find_weights(view: CardView, pack: EnigmaPack) -> tuple[np.ndarray, list[Weight]]:
    """The level image and every weight-like place on the card, judged whole or not
    (:func:`judge_weight`). The table beside the card is not searched: its grain and the
    card's corner can look like a weight there, and a weight left on it shows anyway in the
    count of the weights used."""
    level = level_image(view, pack)
    wr = weight_radius_px(pack)
    places = [judge_weight(level, c, wr) for c in weight_places(level, pack, view.inside_card())]
    return level, tall_faces(level, places, wr, pack)


#: a tall weight seen from a tilted camera shows its top face off its base and its side, as
#: dark as a rim, between the two: the sieve's peak lies between the top face and the base,
#: and judged there the face ring takes in the side ("no weight's face") or the rim on the
#: far side is missed ("its rim is hidden"). Its top face is looked for within this share of
#: the radius of the sieve's peak, by the top face's picture alone: the face and its rim to
#: this share of the radius, not the card around (the side beyond the rim would pull it back)
TOP_LOOK, TOP_REACH = 0.6, 0.9
#: one camera over weights of one height: every top face lies off its base the same way. A
#: place is judged again at its top face only where that lies at least LEAN_LEAST of the
#: radius off the peak (a flat weight's face is at its peak) and another place's top face
#: lies off its own peak the same way, within LEAN_AGREE of the radius. Drawn tall cups
#: (tests/vision/enigma/test_weight_top.py, sweeps 0.25-0.6 radii): the top face found lies
#: 0.3-3 px (0.02-0.15 radii) from the drawn one where the peaks lie 2-12 px off
LEAN_LEAST, LEAN_AGREE = 0.1, 0.2


def top_face_template(pack: EnigmaPack, radius: float) -> np.ndarray:
    """A weight's top face alone (levels, the card at 1): the face as in
    :func:`weight_template` and its rim out to :data:`TOP_REACH` of ``radius``."""
    rim = RIM_SHADE * float(np.mean(pack.colour("weight"))) / float(np.mean(pack.colour("card")))
    face = 1.0 - TEMPLATE_FACE * (1.0 - rim)
    half = int(math.ceil(TOP_REACH * radius))
    yy, xx = np.mgrid[-half:half + 1, -half:half + 1].astype(np.float32)
    picture = np.where(np.hypot(xx, yy) / radius <= RIM_FROM, face, rim)
    out: np.ndarray = cv2.GaussianBlur(picture.astype(np.float32), (0, 0), 0.6)
    return out


def top_face_near(level: np.ndarray, template: np.ndarray, at: Point, wr: float
                   ) -> Point | None:
    """Where the top face's picture correlates best within :data:`TOP_LOOK` of ``at``."""
    return _best_match_near(level, template, at, int(math.ceil(TOP_LOOK * wr)))


def tall_faces(level: np.ndarray, places: list[Weight], wr: float, pack: EnigmaPack
               ) -> list[Weight]:
    """``places`` (judged at the sieve's peaks) with each one that is not whole judged again
    at its top face (:data:`TOP_LOOK`), where that shows whole, lies off the peak
    (:data:`LEAN_LEAST`) and another place's top face lies off its peak the same way
    (:data:`LEAN_AGREE`). A top face within :data:`WEIGHTS_APART` of another whole weight
    stays as it was (two whole weights do not overlap). The whole weight's own disc is its
    top face alone: its side beyond it is still metal a crescent may show (a weight under
    it is asked about)."""
    template = top_face_template(pack, wr)
    again: dict[int, Weight] = {}
    for i, p in enumerate(places):
        top = None if p.whole else top_face_near(level, template, p.centre, wr)
        if top is not None:
            judged = judge_weight(level, top, wr)
            if judged.whole and math.dist(top, p.centre) >= LEAN_LEAST * wr:
                again[i] = judged
    shifts = {i: (j.centre[0] - places[i].centre[0], j.centre[1] - places[i].centre[1])
              for i, j in again.items()}
    out = list(places)
    for i, j in again.items():
        if not any(k != i and math.dist(shifts[i], sh) <= LEAN_AGREE * wr
                   for k, sh in shifts.items()):
            continue
        if any(k != i and wt.whole and math.dist(j.centre, wt.centre) < WEIGHTS_APART * wr
               for k, wt in enumerate(out)):
            continue
        out[i] = j
    return out


#: a weight the sieve missed beside a whole one (a lamp's glare lowers its contrast, so its
#: correlation peak is weak, or a few pixels off, or lost beside a stronger one) is looked for
#: again within this many radii of the crescent it leaves: at the peaks of the correlation
#: with the weight's picture at full size, each the best within this many pixels
SECOND_LOOK_REACH, SECOND_LOOK_PEAK = 1.0, 3
#: and only this far from every whole weight's centre (shares of the radius): weights side
#: by side lie 2.04 radii apart; one partly under another, at most 1.4
SIDE_BY_SIDE = 1.8


def weight_in_crescent(level: np.ndarray, template: np.ndarray, spot: Point,
                       whole: list[Weight], wr: float) -> Weight | None:
    """A whole weight whose crescent lies at ``spot``, beside the whole weights and not
    partly under one; None when there is none. Only a peak of the correlation with the
    weight's picture (``template``, full size) can be its centre, so a disc pushed half off
    a hidden weight onto the card (the rim test alone can pass it in a crowded cup) is not
    taken; the peaks are judged by :func:`judge_weight` unchanged, the best first."""
    half = template.shape[0] // 2
    reach = int(math.ceil(SECOND_LOOK_REACH * wr))
    x, y = int(round(spot[0])), int(round(spot[1]))
    x0, y0 = max(0, x - reach - half), max(0, y - reach - half)
    x1 = min(level.shape[1], x + reach + half + 1)
    y1 = min(level.shape[0], y + reach + half + 1)
    if x1 - x0 <= template.shape[1] or y1 - y0 <= template.shape[0]:
        return None
    score = cv2.matchTemplate(level[y0:y1, x0:x1], template, cv2.TM_CCOEFF_NORMED)
    k = 2 * SECOND_LOOK_PEAK + 1
    peaks = (score >= WEIGHT_LIKENESS) & (score >= cv2.dilate(score, np.ones((k, k), np.uint8)))
    ys, xs = np.nonzero(peaks)
    for i in np.argsort(-score[ys, xs]).tolist():
        at = (float(x0 + xs[i] + half), float(y0 + ys[i] + half))
        if math.dist(at, spot) > reach or any(
                math.dist(at, wt.centre) < SIDE_BY_SIDE * wr for wt in whole):
            continue
        found = judge_weight(level, at, wr)
        if found.whole:
            return found
    return None


def crescent_mask(view: CardView, cups: list[Cup]) -> np.ndarray:
    """Where crescents are looked for: inside the card, off the cups' printed rings."""
    inside = cv2.erode(view.inside_card().astype(np.uint8), np.ones((9, 9), np.uint8))
    for printed in cups:
        cx, cy = view.mm_to_px(*printed.centre)
        cv2.circle(inside, (int(round(cx)), int(round(cy))),
                   int(round(printed.radius * CARD_PX_PER_MM)), 0,
                   int(round(PRINTED_RING_MM * CARD_PX_PER_MM)))
    out: np.ndarray = inside > 0
    return out


def whole_and_hidden(level: np.ndarray, pack: EnigmaPack, whole: list[Weight],
                     inside: np.ndarray, in_cup: Callable[[Point], bool]
                     ) -> tuple[list[Weight], list[Point]]:
    """The whole weights (``whole``, from the sieve), with those found a second time in a
    crescent beside a whole one (:func:`weight_in_crescent`), and the centres of the whole
    weights in a cup (``in_cup``) that leave a crescent (within ``inside``) no whole weight
    explains: a weight lies partly under them."""
    wr = weight_radius_px(pack)
    template = weight_template(pack, wr)
    smooth = smooth_level(level)
    card_level = local_card(level, wr)
    whole = list(whole)
    hidden: list[Point] = []
    for _ in range(4 * MAX_CUPS):  # each pass finds a weight again or ends
        hidden = []
        for wt in whole:
            if not in_cup(wt.centre):
                continue
            spots = crescents(smooth, card_level, wt, whole, wr, inside)
            found = next((f for f in (weight_in_crescent(level, template, c, whole, wr)
                                      for c in spots) if f is not None), None)
            if found is not None:
                whole.append(found)
                break
            if spots:
                hidden.append(wt.centre)
        else:
            break
    return whole, hidden


#: a lamp's glare can wash a cup's weights so far that their correlation with the weight's
#: picture falls below the sieve's :data:`WEIGHT_LIKENESS` (tuning cloth/strong 46,
#: wood/strong 75 and 86, right solutions: the two weights of the right cup 2 at 0.25-0.30,
#: nothing found there, and the cup counted empty: "not solved" with no question). In a cup's
#: middle, where a weight lying in it has its centre (within the cup's radius less its own:
#: 0.57-0.62 of it on the demo cards), places down to this likeness are looked at too
FAINT_LIKENESS, FAINT_IN_CUP = 0.2, 0.65
#: such a faint place is a weight the glare washes where it shows a weight's face between
#: the card and a rim (:data:`FACE_SHARE`) this much below the card (share of its level):
#: the missed weights 0.049-0.17, the bare card of a cup, its noise, 0.008-0.029
FAINT_DEPTH = 0.035


def faint_weights(view: CardView, level: np.ndarray, pack: EnigmaPack, cups: list[Cup],
                  found: list[Point]) -> list[Cup]:
    """The cups in whose middle a weight washed by glare may lie that the sieve did not find
    (:data:`FAINT_LIKENESS`): a place :data:`WEIGHTS_APART` from every place ``found`` with a
    weight's face and a rim :data:`FAINT_DEPTH` below the card. Such a weight is asked
    about, never counted: the likeness is too weak to tell it from the print."""
    wr = weight_radius_px(pack)
    middle = cups_mask(view, cups, FAINT_IN_CUP)
    washed: list[Cup] = []
    # every peak is judged: a stronger one beside it may be a blur of the pair's middle
    for at in weight_places(level, pack, middle, likeness=FAINT_LIKENESS,
                            apart=0.0):
        if any(math.dist(at, c) < WEIGHTS_APART * wr for c in found):
            continue
        wt = judge_weight(level, at, wr)
        depth = wt.card - wt.rim
        in_cup = cup_at(view, cups, *at, FAINT_IN_CUP)
        if (in_cup is not None and depth >= FAINT_DEPTH * wt.card
                and FACE_SHARE[0] <= (wt.card - wt.face) / depth <= FACE_SHARE[1]):
            washed.append(in_cup)
    return washed


#: two whole weights' centres lie at least this far apart (shares of the radius). Side by side
#: their bases touch at 2 radii and a camera only spreads their top faces further (each
#: enlarged and moved away from the nadir in proportion to its distance from it); each
#: centre is found within 0.15 of the radius (tests/vision/enigma/test_weight_top.py), so 2
#: less twice that. Closer, one of the two is no whole weight: the bare card between tall
#: weights' sides and a cup's printed ring, ringed dark like a rim (tuning cloth/mild 6 and
#: cloth/moderate 2, right builds: 1.52 and 1.63 radii from a weight, counted, "not solved"
#: with no question). No margin to count by: most real pairs are found 1.80 radii apart and
#: more, but one at 1.64 (wood/strong 11, a strong tilt): so the cup is asked about, never
#: counted with one of the two dropped
WHOLE_APART = 1.7


def overlapping_cups(view: CardView, cups: list[Cup], whole: list[Weight], wr: float
                     ) -> list[str]:
    """The cups (their names) near which two of the ``whole`` weights lie closer than whole
    weights can (:data:`WHOLE_APART`): which of the two is a weight cannot be told, so that
    cup's count is asked about, never taken."""
    names: list[str] = []
    for i, a in enumerate(whole):
        for b in whole[i + 1:]:
            if math.dist(a.centre, b.centre) >= WHOLE_APART * wr:
                continue
            for wt in (a, b):
                cup = cup_at(view, cups, *wt.centre, NEAR_CUP)
                if cup is not None:
                    names.append(cup_name(cup))
    return names


#: a tall weight's sieve: the weight's picture, and its top face's picture alone, peak within
#: this share of the radius (the sieve's own WEIGHTS_APART lets the bare card between touching
#: tall weights and a cup's print take the peak of the weight beside it)
CANDIDATE_PEAK = 0.5
#: and a top face found by them counts only where its face lies at least this share of the way
#: from the card to its rim: the bare card in the pocket between touching tall weights and a
#: cup's print, ringed dark, passes :func:`judge_weight` just over FACE_SHARE's 0.2 (0.21 on
#: tuning cloth/mild 2, 0.24-0.29 on cloth/mild 6 and cloth/moderate 2 in session 25), the
#: weights' own faces at 0.49-0.70 (the card beside them dimmed by their neighbours' sides)
TALL_FACE_SHARE = 0.35
#: the top face is looked for round the middle of the way from a place to where its top face
#: would show, out to this share of the radius beyond
TOP_SLACK = 0.2


def posed_judge(level: np.ndarray, template: np.ndarray, at: Point, wr: float, lean: Lean
                ) -> Weight | None:
    """The weight standing tall whose sieve peak is at ``at`` (the peak lies between a tall
    weight's base and its top face): judged at its top face where the camera's pose
    (``lean``) puts that off it, whole and showing its side down to its base (its ``base``
    set); None where none stands."""
    shift = lean(at)
    if shift is None:
        return None
    if math.hypot(*shift) < LEAN_LEAST * wr:
        # nearly under the camera a weight shows as if flat: its top face on its base
        near = _best_match_near(level, template, at, int(math.ceil(TOP_SLACK * wr)))
        flat = None if near is None else judge_weight(level, near, wr)
        return replace(flat, base=flat.centre) if flat is not None and flat.whole else None
    mid = (at[0] + shift[0] / 2, at[1] + shift[1] / 2)
    reach = int(math.ceil(math.hypot(*shift) / 2 + TOP_SLACK * wr))
    top = _best_match_near(level, template, mid, reach)
    if top is None:
        return None
    judged = judge_weight(level, top, wr)
    if not judged.whole or not side_shows(level, top, shift, wr, judged.card, judged.rim):
        return None
    return replace(judged, base=(top[0] - shift[0], top[1] - shift[1]))


def posed_places(level: np.ndarray, pack: EnigmaPack, near: np.ndarray, lean: Lean,
                 near_cups: np.ndarray) -> list[Weight]:
    """Every weight-like place within ``near``, as :func:`weight_places` and
    :func:`judge_weight`, with tall weights judged at their top faces (:func:`posed_judge`).
    Tall weights side by side hide each other's sieve peak, so the weights standing tall are
    looked for first at the peaks of both pictures (:data:`CANDIDATE_PEAK`) near the cups
    (``near_cups``: the finer sieves peak all over the print, and a weight that is not in a
    cup counts the same standing or flat), the most top face-like first; then the sieve's
    places that lie apart from them, as before."""
    wr = weight_radius_px(pack)
    template = top_face_template(pack, wr)
    fine = near & near_cups
    spots = weight_places(level, pack, fine, apart=CANDIDATE_PEAK, peak=CANDIDATE_PEAK)
    spots += weight_places(level, pack, fine, apart=CANDIDATE_PEAK, peak=CANDIDATE_PEAK,
                           picture=top_face_template)
    # only a top face that shows its side counts from these finer sieves: bare card ringed
    # by tall weights' sides and a cup's print looks like a top face, but stands on nothing
    tall = [j for j in (posed_judge(level, template, c, wr, lean) for c in spots)
            if j is not None and j.card - j.face >= TALL_FACE_SHARE * (j.card - j.rim)]
    tall.sort(key=lambda j: -likeness_at(level, template, j.centre))
    # then today's places (:func:`tall_faces`: the top face by the leans' agreement, which
    # also serves a camera whose principal point is off the frame's middle), those still not
    # whole judged again through the pose
    sieved = [judge_weight(level, c, wr) for c in weight_places(level, pack, near)]
    today = tall_faces(level, sieved, wr, pack)
    out: list[Weight] = []
    for wt in tall + [p if p.whole else posed_judge(level, template, p.centre, wr, lean) or p
                      for p in today]:
        if wt.base is None and wt.whole and is_pocket(wt):
            if any(math.dist(wt.centre, t.centre) < POCKET_REACH * wr for t in tall):
                continue  # the bare card between tall weights: no weight
            wt = replace(wt, whole=False, doubt="no weight's face")
        if all(math.dist(wt.centre, o.centre) >= WEIGHTS_APART * wr for o in out):
            out.append(wt)
    return out


#: the bare card in the pocket between two touching tall weights and a cup's print lies
#: this close to them (shares of the radius; the pocket's middle, 1.65-1.78 on tuning
#: wood/mild 11 and cloth/mild 6; two touching weights' centres lie 2 apart)
POCKET_REACH = 2.0


def is_pocket(place: Weight) -> bool:
    """Whether a whole place judged where the sieve found it, on a card whose weights stand
    tall, looks like the bare card in the pocket between tall weights and a cup's print: its
    face nearer the card than a weight's (:data:`TALL_FACE_SHARE`). Within
    :data:`POCKET_REACH` of a tall weight it is that pocket; elsewhere it is asked about,
    never counted (tuning cloth/mild 6, right build: 1.77 radii from two tall weights, its
    face 0.24 of the way to its rim, counted: 6 of 5 weights, "not solved" with no
    question)."""
    return place.card - place.face < TALL_FACE_SHARE * (place.card - place.rim)


def stands_tall(wt: Weight) -> bool:
    """Whether ``wt`` was seen standing tall, its top face off its base."""
    return wt.base is not None and wt.base != wt.centre


__all__ = ["IN_CUP", "NEAR_CUP", "OWN_DISC", "POCKET_REACH", "SIDE_REACH", "WASHED_OUT",
           "Weight", "beyond_sides", "crescent_mask", "crescents", "cup_at", "cup_name",
           "cups_mask", "faint_weights",
           "find_weights", "is_pocket", "judge_weight", "level_image", "local_card",
           "overlapping_cups", "posed_judge", "posed_places", "smooth_level", "stands_tall",
           "tall_faces", "top_face_near", "top_face_template", "weight_in_crescent",
           "weight_places", "weight_radius_px", "weight_template", "whole_and_hidden"]
