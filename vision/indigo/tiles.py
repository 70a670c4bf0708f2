"""Indigo reader stage 5, route tiles: each route cell compared with the pack's patterns in
every rotation and with the empty cell (gems and glare left out), a doubtful cell again a
little shifted; a cell too washed out, or read empty in another colour than the print, is
asked; a cell whose best pattern changes when the patterns may lie a hand's offset and turn
off is read as that posed best, and asked unless it is sure there; a cell under glare left
unsure is read again from what the lamp's clipped core leaves of it, each pixel against the
levels round it, and a tile sure under glare that this read names otherwise is asked. See
:mod:`vision.indigo.reader`.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.indigo import ROUTE_CELLS
from companion.indigo.geometry import Cell, neighbour, opposite
from vision.indigo.board import cell_xy
from vision.indigo.discs import DOUBTFUL, disc_pixels
from vision.indigo.light_slope import slope_free_sums, without_light_slope
from vision.indigo.model import (
    COMPARE_RADIUS,
    GREY_CHROMA,
    HAND_TURNS_DEG,
    PackModel,
    to_canonical,
)
from vision.indigo.read_types import CellRead, GemSpot
from vision.indigo.settings import IndigoSettings
from vision.one_thread import one_thread_product

#: around each gem on a cell's edge, this many gem radii are left out of the tile comparison
GEM_MASK = 1.45


#: a tile is read from what the glare mask (:func:`~vision.indigo.glare.glare_mask`) leaves
#: of it, and asked when less than this share of its compared disc is left
GLARE_MIN_LEFT = 0.55


#: a doubtful cell is compared again with its patch shifted up to this many canonical pixels
#: each way (a hand-placed tile lies up to 2 mm off, a tall piece is seen shifted by the
#: camera's tilt, a lens bends the grid): the shift that fits a pattern best decides
REFINE_SHIFT = 2


#: an empty cell is flat print: a cell read empty whose grey spread (gems and glare left out)
#: is more than this share of the pack's tile spread shows a tile's contrast (a tile blurred
#: or shifted past matching its pattern, a fingertip), so it is asked, never read empty surely
EMPTY_MAX_SPREAD = 0.5


#: round a lamp's clipped core the reflection only adds white to the print: the paths still
#: show there, their contrast lowered. A tile the glare mask leaves too little of is compared
#: again with only the clipped pixels (:func:`~vision.indigo.glare.clipped_mask`) left out,
#: each pixel's grey level taken relative to the levels round it (a Gaussian of
#: LOCAL_MEAN_RADII cell radii) and divided by their spread (LOCAL_SPREAD_RADII), which undoes
#: an added white and a lowered contrast alike ...
LOCAL_MEAN_RADII = 0.1875


LOCAL_SPREAD_RADII = 0.3125


#: ... a flat patch is not stretched into a pattern: the spread is floored at this share of the
#: pack's tile spread (of the templates' unit spread for the templates)
LOCAL_SPREAD_FLOOR = 0.1


def _gem_weights(gem_spots_found: list[GemSpot], model: PackModel,
                 gem_size: float) -> np.ndarray:
    """(cells, D) weights: 1 inside each cell's compared disc, 0 under a resting gem."""
    gem_at: dict[Cell, list[int]] = {}
    for spot in gem_spots_found:
        if spot.point is None:
            continue
        cell, edge = spot.point
        gem_at.setdefault(cell, []).append(edge)
        other = neighbour(cell, edge)
        gem_at.setdefault(other, []).append(opposite(edge))
    under = _gem_covers(model, gem_size)
    weights = np.ones((len(ROUTE_CELLS), under.shape[1]), np.float32)
    for i, cell in enumerate(ROUTE_CELLS):
        for edge in gem_at.get(cell, []):
            weights[i, under[edge]] = 0
    return weights


def _gem_covers(model: PackModel, gem_size: float) -> np.ndarray:
    """(6, D) per edge of a cell, the compared pixels a gem resting on that edge covers
    (worked out once per model and gem size: drawn per cell and read, it cost a read a
    millisecond)."""
    key = ("gem-covers", round(gem_size * 1000))
    if key not in model.cache:
        cell_px = model.cell_px
        half = model.patch // 2
        yy, xx = np.mgrid[-half : half + 1, -half : half + 1].astype(np.float32)
        covers = []
        for edge in range(6):
            ang = math.radians(240 + 60 * edge)
            gx = math.cos(ang) * math.sqrt(3) / 2 * cell_px
            gy = math.sin(ang) * math.sqrt(3) / 2 * cell_px
            disc = (xx - gx) ** 2 + (yy - gy) ** 2 <= (gem_size * GEM_MASK * cell_px) ** 2
            covers.append(disc[model.mask])
        model.cache[key] = np.array(covers)
    covered: np.ndarray = model.cache[key]
    return covered


def _spreads(p: np.ndarray, w: np.ndarray) -> np.ndarray:
    """(cells,) weighted standard deviation of each raw patch's grey levels."""
    wsum = np.maximum(w.sum(axis=1, keepdims=True), 1.0)
    mean = (p * w).sum(axis=1, keepdims=True) / wsum
    spread: np.ndarray = np.sqrt(((p - mean) ** 2 * w).sum(axis=1) / wsum[:, 0])
    return spread


def _template_columns(model: PackModel) -> tuple[np.ndarray, np.ndarray]:
    """The turned templates as (D, turns * classes) columns, and their squares: what the
    patches are multiplied with, worked out once per model."""
    key = ("template-columns", 0)
    if key not in model.cache:
        turns, classes, size = model.turned_templates.shape
        t = model.turned_templates.reshape(turns * classes, size)
        model.cache[key] = t.T
        model.cache[("template-squares", 0)] = (t * t).T
    return model.cache[key], model.cache[("template-squares", 0)]


def _turned_distances(p: np.ndarray, w: np.ndarray,
                      model: PackModel) -> tuple[np.ndarray, np.ndarray]:
    """(cells, classes) twice: the weighted squared distance of each normalised patch to each
    class upright, and to the class at its nearest hand's turn."""
    wsum = np.maximum(w.sum(axis=1, keepdims=True), 1.0)
    mean = (p * w).sum(axis=1, keepdims=True) / wsum
    var = ((p - mean) ** 2 * w).sum(axis=1, keepdims=True) / wsum
    pn = (p - mean) / np.maximum(np.sqrt(var), model.std_floor)
    turns, classes, _ = model.turned_templates.shape
    t, t_squared = _template_columns(model)
    # sum w (p - t)^2 / sum w, vectorised, for every turn of every class
    every = (((w * pn * pn).sum(axis=1, keepdims=True) - 2 * one_thread_product(w * pn, t)
              + one_thread_product(w, t_squared)) / wsum).reshape(len(p), turns, classes)
    upright: np.ndarray = every[:, HAND_TURNS_DEG.index(0.0)]
    turned: np.ndarray = every.min(axis=1)
    return upright, turned


def _patches(gray: np.ndarray, model: PackModel, cells: list[Cell]) -> np.ndarray:
    """(cells, D) the compared pixels of each cell's patch."""
    return _wide_patches(gray, model, cells, 0)[:, model.mask]


def _wide_patches(gray: np.ndarray, model: PackModel, cells: list[Cell],
                  reach: int) -> np.ndarray:
    """(cells, side, side) squares round each cell, ``reach`` pixels wider than a patch each
    way: the patch moved by (dx, dy) is ``[:, reach + dy : ..., reach + dx : ...]``."""
    side = model.patch + 2 * reach
    out = []
    for cell in cells:
        x, y = to_canonical(cell_xy(cell), model.cell_px)
        out.append(cv2.getRectSubPix(gray, (side, side), (x, y)))
    return np.array(out, np.float32)


def _refined(gray: np.ndarray, model: PackModel, cells: list[Cell], w: np.ndarray,
             dist: np.ndarray, turned: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For ``cells``: the upright distances at the shift (within REFINE_SHIFT) where the
    classes fit best, and each class's least distance over every shift and hand's turn."""
    best, least = dist.copy(), turned.copy()
    reach, p = REFINE_SHIFT, model.patch
    wide = _wide_patches(gray, model, cells, reach)
    for dx in range(-reach, reach + 1):
        for dy in range(-reach, reach + 1):
            if dx == dy == 0:
                continue
            moved = wide[:, reach + dy : reach + dy + p, reach + dx : reach + dx + p]
            d, t = _turned_distances(moved[:, model.mask], w, model)
            better = d.min(axis=1) < best.min(axis=1)
            best[better] = d[better]
            np.minimum(least, t, out=least)
    return best, least


#: an empty cell shows the board's empty print: a cell read empty whose colour (chromaticity,
#: which a shadow keeps) lies farther than this from the print's is covered by something
#: else (a fingertip over a tile read as an empty cell at 0.95), so it is asked. Empty cells
#: of rendered frames with every camera effect lie within 2.1 of the pack's print;
#: fingertips 3.5 and more
EMPTY_MAX_CHROMA = 3.0


#: the print's colour is the median of the cells read empty when there are at least this
#: many (a colour cast the gains leave moves every empty cell alike: independent tuning seed
#: 1014 demo harsh had all 51 empty cells beyond 3.0 of the pack's print), else the pack's
EMPTY_REFERENCE_CELLS = 6


#: a reflection mixes the print with the lamp's white: a cell under glare whose colour lies
#: within EMPTY_MAX_CHROMA of the line from the print's colour to white may be the print
#: washed out (empty cells read empty under glare on independent tuning seeds 1000-1039,
#: harsh: 93% within 3.0 of it, against 30% within 3.0 of the print's colour itself). The
#: line does not rule a tile out: cream tiles lie on it too (see ``_doubted``)
WHITE_CHROMA = np.array([GREY_CHROMA, GREY_CHROMA], np.float32)


#: outside the glare mask a light of another colour tints the print along the same line (white
#: and grey share one chromaticity): a lamp's pale wash short of clipping, or a shade lit by
#: the room's cooler light instead of the warm lamp. Such a cell is the print when it lies
#: within EMPTY_MAX_CHROMA of the line, at most this share of the way from the print's colour
#: to grey: the print is still most of what is seen. Nearer grey, something neutral may lie
#: over a tile, and it is asked. (Independent tuning seeds 1000-1025 harsh and 2000-2019 mild,
#: demo and demo-taught, session 29: of 3294 empty cells outside the glare, 35 lay beyond 3.0
#: of the print and were asked, 17 of them within 3.0 of the line, at shares 0.17-0.40 but
#: one at 0.73; a fingertip lies off the line, towards red, and no tile read empty outside the
#: glare lay on it but two asked for their contrast.)
PRINT_TINT_MOST = 0.5


#: fewer pixels than this left outside the glare say nothing of a cell's colour
LEAST_SEEN_PIXELS = 12


def _disc_indices(model: PackModel, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Per route cell, the flat indices into a canonical board of ``shape`` of the pixels of
    its compared disc (the pixels :func:`~vision.indigo.discs.disc_pixels` takes), padded to
    the longest, and which of them are the disc's (worked out once per model)."""
    key = ("cell-discs", shape[0] * shape[1])
    if key not in model.cache:
        radius = COMPARE_RADIUS * model.cell_px
        whole = np.arange(shape[0] * shape[1]).reshape(shape)
        discs = []
        for cell in ROUTE_CELLS:
            discs.append(disc_pixels(whole, to_canonical(cell_xy(cell), model.cell_px), radius))
        longest = max(len(d) for d in discs)
        indices = np.zeros((len(discs), longest), np.intp)
        inside = np.zeros((len(discs), longest), bool)
        for i, disc in enumerate(discs):
            indices[i, : len(disc)] = disc
            inside[i, : len(disc)] = True
        model.cache[key] = indices
        model.cache[("cell-discs-inside", shape[0] * shape[1])] = inside
    return model.cache[key], model.cache[("cell-discs-inside", shape[0] * shape[1])]


def cells_chroma(lab: np.ndarray, model: PackModel, cells: list[Cell],
                  glare: np.ndarray | None) -> dict[Cell, tuple[np.ndarray | None, bool]]:
    """Each of ``cells``' median chromaticity inside the compared disc, outside the glare
    (None off the board or when too little is left), and whether glare lies in the disc; all
    at once: each disc's pixels outside the glare sorted together, their median picked as
    numpy's median takes it (the middle one, or the float32 mean of the middle two). Cell by
    cell it cost a read 5 ms."""
    if not cells:
        return {}
    order = {c: i for i, c in enumerate(ROUTE_CELLS)}
    indices, inside = _disc_indices(model, lab.shape[:2])
    rows = [order[c] for c in cells]
    indices, inside = indices[rows], inside[rows]
    under = np.zeros(len(cells), bool)
    seen = inside
    if glare is not None:
        burnt = np.take(glare.ravel(), indices).astype(bool) & inside
        under = burnt.any(axis=1)
        seen = inside & ~burnt
    chroma = np.take(lab.reshape(-1, lab.shape[-1]), indices, axis=0)[..., :2]
    chroma[~seen] = np.inf  # sorted past every pixel seen
    chroma.sort(axis=1)
    counts = seen.sum(axis=1)
    low, high = chroma[np.arange(len(cells)), (counts - 1) // 2], \
        chroma[np.arange(len(cells)), counts // 2]
    medians = (low + high) / np.float32(2)
    return {c: (medians[i] if counts[i] >= LEAST_SEEN_PIXELS else None, bool(under[i]))
            for i, c in enumerate(cells)}


def _off_washed_print(chroma: np.ndarray, reference: np.ndarray,
                      most: np.ndarray) -> np.ndarray:
    """(n,) how far each of ``chroma`` (n, 2) lies from the print's colour washed toward
    white by at most ``most`` (n,) of the way; all at once (cell by cell, a read's empty
    cells cost it a millisecond or two in calls)."""
    towards = WHITE_CHROMA - reference
    length = float(towards @ towards)
    off = chroma - reference
    share = np.clip(off @ towards / length, 0.0, most) if length else np.zeros(len(off), np.float32)
    away: np.ndarray = np.hypot(*(off - share[:, None] * towards).T)
    return away


def _unlike_empty_print(lab: np.ndarray, model: PackModel, empty: list[Cell],
                        glare: np.ndarray | None = None) -> set[Cell]:
    """The cells of ``empty`` (read empty) whose colour outside the glare is unlike the
    board's empty print washed toward white (or grey) by any share under the glare, by at
    most :data:`PRINT_TINT_MOST` outside it; a cell with too little left outside the glare
    is unlike."""
    seen = cells_chroma(lab, model, empty, glare)
    chroma = {c: v for c, (v, _) in seen.items() if v is not None}
    if len(chroma) >= EMPTY_REFERENCE_CELLS:
        reference = np.median(np.array(list(chroma.values())), axis=0)
    else:
        reference = model.empty_lab[:2]
    unlike = {c for c, (v, _) in seen.items() if v is None}
    if chroma:
        most = np.array([1.0 if seen[c][1] else PRINT_TINT_MOST for c in chroma], np.float32)
        off = _off_washed_print(np.array(list(chroma.values())), reference, most)
        unlike |= {c for c, o in zip(chroma, off, strict=True) if o > EMPTY_MAX_CHROMA}
    return unlike


#: under glare, a cell read empty is decided by what is left of it when every pattern, in
#: every rotation and hand's turn, would show at least this share of its contrast there (the
#: weighted spread of its normalised template over the pixels left): no tile can then hide
#: wholly under the reflection (independent tuning seeds 1000-1039, harsh, all four looks:
#: the tiles read empty under glare would show 0.19 to 0.96 of it, the ones below 0.6 with 1%
#: of their disc left; the light's slope is taken out first, see :func:`_rules_out_tiles`) ...
GLARE_TILE_SHOWS = 0.6


#: ... and no pattern correlates with what is left more than this (the normalised patch
#: against each template normalised over the same pixels, the light's slope taken out of
#: both: see :func:`_rules_out_tiles`). Set on seeds 1000-1039 with the slope left in (empty
#: cells under glare 0.19 in the median, the tile the shifted comparison fitted to the empty
#: print at 1.00, seed 1027, 0.44); with it out, the empty cells lie lower (0.12) and that
#: tile higher (0.63)
GLARE_MAX_CORRELATION = 0.3


def _light_slope(model: PackModel) -> np.ndarray:
    """(3, D) a level and the two slopes of light across a patch's compared pixels."""
    half = model.patch // 2
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1].astype(np.float32) / max(half, 1)
    return np.array([np.ones_like(xx), xx, yy])[:, model.mask]


def _rules_out_tiles(patches: np.ndarray, w: np.ndarray, model: PackModel) -> np.ndarray:
    """(cells,) whether the pixels of weight ``w`` left of each patch (cells, D) rule out
    every tile pattern at every hand's turn: each would show itself there, and none is
    seen. The light's level and slope across what is left are taken out of the patch and
    the patterns first: round a reflection the print brightens toward the lamp, and that
    slope alone fitted a tile's paths part-way, so an empty cell there was asked; a shade's
    edge across a cell does the same (independent tuning seeds 1000-1045 harsh, demo and
    demo-taught, session 30: the 267 empty cells read empty with glare in them correlated
    0.12 in the median with the slope out, 0.27 at the 90th percentile, at most 0.46; the
    one tile read empty there in the print's colour and flat correlated 0.63; every tile
    read empty outside the glare showed a tile's contrast or not the print's colour)."""
    patterns = [i for i, cls in enumerate(model.classes) if cls is not None]
    tiles = model.turned_templates[:, patterns]  # (turns, patterns, D)
    slope = _light_slope(model)
    wsum = np.maximum(w.sum(axis=1), 1.0)[:, None]
    seen = without_light_slope(patches[:, None, :], w, slope)[:, 0]
    spread = np.sqrt((seen * seen * w).sum(axis=1, keepdims=True) / wsum)
    seen = w * seen / np.maximum(spread, model.std_floor)
    every = tiles.reshape(-1, tiles.shape[-1])  # (turns * patterns, D)
    squares, against = slope_free_sums(every, w, seen, slope)
    shown = np.sqrt(squares / wsum)
    correlation = against / wsum / np.maximum(shown, 1e-3)
    ruled_out: np.ndarray = (shown.min(axis=1) >= GLARE_TILE_SHOWS) & (
        correlation.max(axis=1) < GLARE_MAX_CORRELATION)
    return ruled_out


def _locally_normalised(gray: np.ndarray, valid: np.ndarray, cell_px: int,
                        floor: float) -> np.ndarray:
    """``gray`` less the mean of the ``valid`` levels round each pixel, over their spread
    (floored at ``floor``): the print's own contrast whatever white a lamp added to it."""
    v = valid.astype(np.float32)
    near, spread_near = LOCAL_MEAN_RADII * cell_px, LOCAL_SPREAD_RADII * cell_px
    mean = cv2.GaussianBlur(gray * v, (0, 0), near) / np.maximum(
        cv2.GaussianBlur(v, (0, 0), near), 1e-3)
    off = gray - mean
    var = cv2.GaussianBlur(off * off * v, (0, 0), spread_near) / np.maximum(
        cv2.GaussianBlur(v, (0, 0), spread_near), 1e-3)
    out: np.ndarray = (off / np.sqrt(var + floor * floor)).astype(np.float32)
    return out


def _local_templates(model: PackModel) -> tuple[np.ndarray, np.ndarray]:
    """The turned templates locally normalised as a frame is, as (D, turns * classes)
    columns, and their squares (worked out once per model)."""
    key = ("local-templates", 0)
    if key not in model.cache:
        turns, classes, size = model.turned_templates.shape
        out = np.zeros((turns * classes, size), np.float32)
        square = np.zeros((model.patch, model.patch), np.float32)
        for i, template in enumerate(model.turned_templates.reshape(turns * classes, size)):
            square[model.mask] = template
            out[i] = _locally_normalised(square, model.mask, model.cell_px,
                                         LOCAL_SPREAD_FLOOR)[model.mask]
        model.cache[key] = out.T
        model.cache[("local-template-squares", 0)] = (out * out).T
    return model.cache[key], model.cache[("local-template-squares", 0)]


def _locally_normalised_near(gray: np.ndarray, clipped: np.ndarray, cells: list[Cell],
                             model: PackModel) -> np.ndarray:
    """:func:`_locally_normalised` of ``gray`` (clipped pixels left out), worked out only in
    the box round ``cells``' patches and what the two blurs reach from it (zero elsewhere):
    the same values there at a fraction of the cost."""
    xy = np.array([to_canonical(cell_xy(c), model.cell_px) for c in cells])
    blurs = (LOCAL_MEAN_RADII + LOCAL_SPREAD_RADII) * model.cell_px
    pad = model.patch // 2 + REFINE_SHIFT + 2 + int(math.ceil(4 * blurs))
    x0, y0 = (max(0, int(v) - pad) for v in xy.min(axis=0))
    x1, y1 = (int(v) + pad + 1 for v in xy.max(axis=0))
    out = np.zeros(gray.shape, np.float32)
    out[y0:y1, x0:x1] = _locally_normalised(gray[y0:y1, x0:x1], ~clipped[y0:y1, x0:x1],
                                            model.cell_px, LOCAL_SPREAD_FLOOR * model.tile_spread)
    return out


def _read_past_glare(gray: np.ndarray, clipped: np.ndarray, rows: np.ndarray,
                     gem_w: np.ndarray, model: PackModel,
                     settings: IndigoSettings) -> tuple[np.ndarray, np.ndarray]:
    """For the route cells ``rows``: (cells, classes) the distances and (cells,) the
    confidence of a read of each from what the clipped pixels leave (``gem_w`` the weights
    of the cells' gems): the locally normalised patch against each locally normalised class
    upright at its best shift within REFINE_SHIFT, and against each class at its best shift
    and hand's turn; the confidence is the lesser margin of the two, 0 where their best
    classes differ."""
    cells = [ROUTE_CELLS[i] for i in rows]
    local = _locally_normalised_near(gray, clipped, cells, model)
    w = gem_w * (1.0 - _patches(clipped.astype(np.float32), model, cells))
    wsum = np.maximum(w.sum(axis=1, keepdims=True), 1.0)
    t, t_squared = _local_templates(model)
    turns, classes = len(HAND_TURNS_DEG), len(model.classes)
    template_part = one_thread_product(w, t_squared)  # the same at every shift
    reach, p = REFINE_SHIFT, model.patch
    wide = _wide_patches(local, model, cells, reach)
    upright = posed = np.full((len(cells), classes), np.inf, np.float32)
    for dx in range(-reach, reach + 1):
        for dy in range(-reach, reach + 1):
            moved = wide[:, reach + dy : reach + dy + p, reach + dx : reach + dx + p][:, model.mask]
            every = (((w * moved * moved).sum(axis=1, keepdims=True)
                      - 2 * one_thread_product(w * moved, t) + template_part)
                     / wsum).reshape(len(cells), turns, classes)
            upright = np.minimum(upright, every[:, HAND_TURNS_DEG.index(0.0)])
            posed = np.minimum(posed, every.min(axis=1))
    agree = upright.argmin(axis=1) == posed.argmin(axis=1)
    conf = np.where(agree, np.minimum(_confidences(upright, settings),
                                      _confidences(posed, settings)), 0.0)
    return upright, conf


def read_tiles(
    gray: np.ndarray,
    gem_spots_found: list[GemSpot],
    model: PackModel,
    settings: IndigoSettings,
    gem_size: float,
    glare: np.ndarray | None = None,
    lab: np.ndarray | None = None,
    clipped: np.ndarray | None = None,
) -> dict[Cell, CellRead]:
    """Compare every route cell with every pattern and the empty cell (gems and glare masked
    out); a doubtful cell is compared again a little shifted. A cell with too little left
    outside the glare, or (with the colour features ``lab``) read empty in a colour unlike
    the empty print, is asked; an empty cell under glare is not when what is left of it
    rules out every tile (see :func:`_doubted`). With the ``clipped`` pixels
    (:func:`~vision.indigo.glare.clipped_mask`), a cell under glare left unsure is read as a
    tile when what the clipped core leaves of it says so surely (see :func:`_past_glare`)."""
    cells = list(ROUTE_CELLS)
    gem_w, w, left = _compared_weights(gem_spots_found, model, gem_size, glare, cells)
    patches = _patches(gray, model, cells)
    dist, turned = _turned_distances(patches, w, model)
    conf = _confidences(dist, settings)
    upright_sure = conf >= settings.min_confidence
    unshifted_best = dist.argmin(axis=1)
    # a doubtful cell is read again a little shifted; every cell short of a full margin is
    # checked shifted and turned (a tile laid by hand lies up to 2 mm off and 5 degrees
    # turned, and may then fit another class better upright than its own)
    unsure = np.flatnonzero(conf < 1.0)
    if len(unsure):
        refined, turned[unsure] = _refined(gray, model, [cells[i] for i in unsure],
                                           w[unsure], dist[unsure], turned[unsure])
        doubtful = conf[unsure] < settings.min_confidence
        dist[unsure[doubtful]] = refined[doubtful]
        conf = _confidences(dist, settings)
    order = np.argsort(dist, axis=1)
    conf = _posed_confidences(conf, turned, order[:, 0], left, settings)
    order, conf, posed_only = _read_as_posed(order, conf, turned, left, settings)
    doubted, clear = _doubted(order[:, 0] == model.classes.index(None), left, patches, w,
                              model, lab, glare)
    # a cell whose best class changes when each class may be shifted and turned by a
    # hand's offset and turn is asked (independent tuning seed 1027 harsh, a taught scans
    # pack: tile 0 turned once, laid 1.5 mm off and 5 degrees turned, fitted the upright
    # tile 1 better than itself and was read so at 0.89), unless it is read as its posed
    # best class and is sure there (see :func:`_read_as_posed`)
    doubted |= turned.argmin(axis=1) != order[:, 0]
    doubted |= posed_only & ~_sure_as_posed(order[:, 0], conf, left, model, settings)
    # a cell with glare in its disc is sure only upright and unshifted, or when the shift
    # only sharpened what the unshifted comparison read (see :func:`_sharpened_by_shift`):
    # with part of it gone, the shifted and turned comparisons fit the rest too freely
    # (independent tuning seed 1036 harsh, both scans looks: a tile a fifth under glare,
    # 0.20-0.30 upright, read as another turn of its pattern at 0.94 and 0.98 once shifted)
    sharpened = (left < 1.0) & ~upright_sure & _sharpened_by_shift(
        unshifted_best, order[:, 0], conf, turned, settings)
    conf = np.where(sharpened, np.minimum(conf, _confidences(turned, settings)), conf)
    doubted |= (left < 1.0) & ~upright_sure & ~sharpened & ~clear
    # an empty cell clear of every tile is sure whatever its margin: round a lamp's core or
    # across a shade's edge the margin weighs the light's slope against the patterns, and
    # a slope fits a tile's paths part-way (independent tuning seeds 1025 and 1009 harsh
    # beside a lamp, 1008 in a shade; see _doubted)
    conf = np.where(clear & ~doubted, np.maximum(conf, settings.min_confidence), conf)
    scores = np.where(posed_only[:, None], turned, dist)
    if clipped is not None:
        order, conf, doubted, scores = _past_glare(gray, clipped, gem_w, left, order, conf,
                                                   doubted, scores, model, settings)
        order, conf, doubted = _washed_out_read_empty(order, conf, doubted, left, model,
                                                      settings)
    return _cell_reads(cells, order, conf, doubted, scores, model)


def _compared_weights(gem_spots_found: list[GemSpot], model: PackModel, gem_size: float,
                      glare: np.ndarray | None, cells: list[Cell]
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each cell's comparison weights with its gems left out, the same with the glare left
    out too, and the share of the gem-free weight the glare leaves."""
    gem_w = _gem_weights(gem_spots_found, model, gem_size)
    w = gem_w
    if glare is not None and glare.any():
        w = w * (1.0 - _patches(glare.astype(np.float32), model, cells))
    left = w.sum(axis=1) / np.maximum(gem_w.sum(axis=1), 1.0)
    return gem_w, w, left


def _cell_reads(cells: list[Cell], order: np.ndarray, conf: np.ndarray, doubted: np.ndarray,
                scores: np.ndarray, model: PackModel) -> dict[Cell, CellRead]:
    """Each cell's best class, its confidence (at most DOUBTFUL when doubted) and the next
    three classes with their scores."""
    out: dict[Cell, CellRead] = {}
    for i, cell in enumerate(cells):
        c = min(float(conf[i]), DOUBTFUL) if doubted[i] else float(conf[i])
        alts = tuple((model.classes[j], round(float(scores[i, j]), 4)) for j in order[i, 1:4])
        out[cell] = CellRead(cell, model.classes[order[i, 0]], c, alts)
    return out


def _past_glare(gray: np.ndarray, clipped: np.ndarray, gem_w: np.ndarray, left: np.ndarray,
                order: np.ndarray, conf: np.ndarray, doubted: np.ndarray, scores: np.ndarray,
                model: PackModel, settings: IndigoSettings
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``order``, ``conf``, ``doubted`` and ``scores`` of read_tiles with every cell under
    glare (``left`` below 1) read again from what the clipped pixels leave
    (:func:`_read_past_glare`): an unsure cell that read names a tile at min_confidence or
    more is read so, sure at that confidence; a cell sure as a tile that read names another
    class best is asked.

    The read past the glare is taken only where it is sure: its wrong reads on the tuning
    boards stayed far below min_confidence. Below that it is still the cell's answer, asked,
    when its margin is larger than the one the cell is read at (see :func:`_better_answer`).
    Empty cells are left to :func:`_doubted`: a tile whose paths all lie under the clipped
    core leaves a flat remnant that fits the empty print."""
    empty = model.classes.index(None)
    unsure = doubted | (conf < settings.min_confidence)
    rows = np.flatnonzero((left < 1.0) & (unsure | (order[:, 0] != empty)))
    if not len(rows):
        return order, conf, doubted, scores
    dist, past_conf = _read_past_glare(gray, clipped, rows, gem_w[rows], model, settings)
    best = dist.argmin(axis=1)
    order, conf, doubted, scores = order.copy(), conf.copy(), doubted.copy(), scores.copy()
    doubted[rows[~unsure[rows] & (best != order[rows, 0])]] = True
    answer = rows[_better_answer(best != empty, past_conf, conf[rows], doubted[rows],
                                 unsure[rows], settings)]
    pick = np.isin(rows, answer)
    order[answer] = np.argsort(dist[pick], axis=1)
    conf[answer] = past_conf[pick]
    scores[answer] = dist[pick]
    take = unsure[rows] & (best != empty) & (past_conf >= settings.min_confidence)
    taken = rows[take]
    order[taken] = np.argsort(dist[take], axis=1)
    conf[taken] = past_conf[take]
    doubted[taken] = False
    scores[taken] = dist[take]
    return order, conf, doubted, scores


#: a cell the glare mask leaves less than this share of its compared disc has no pattern
#: left to compare: every class fits the few pixels alike, and the best of them is no reading
NOTHING_LEFT = 0.1


def _washed_out_read_empty(order: np.ndarray, conf: np.ndarray, doubted: np.ndarray,
                           left: np.ndarray, model: PackModel, settings: IndigoSettings
                           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``order``, ``conf`` and ``doubted`` of read_tiles with each cell the glare mask leaves
    less than :data:`NOTHING_LEFT` of and that is unsure (doubted, or short of
    min_confidence) after the read past the glare (:func:`_past_glare`) read as the empty
    cell, asked at no confidence.

    Of such a cell only the lamp's white is seen, as over the empty print: a tile's dark
    paths would show round the clipped core, and the read past the glare names none there
    with a margin. Before, its answer was whichever class fitted the few pixels left best
    (the first pattern, tile 0 unturned, when none were left), each a guess the players were
    asked to confirm."""
    empty = model.classes.index(None)
    unsure = doubted | (conf < settings.min_confidence)
    blind = np.flatnonzero((left < NOTHING_LEFT) & unsure & (order[:, 0] != empty))
    if not len(blind):
        return order, conf, doubted
    order, conf, doubted = order.copy(), conf.copy(), doubted.copy()
    rest = order[blind][order[blind] != empty].reshape(len(blind), -1)
    order[blind] = np.concatenate([np.full((len(blind), 1), empty), rest], axis=1)
    conf[blind] = 0.0
    doubted[blind] = True
    return order, conf, doubted


def _better_answer(names_tile: np.ndarray, past_conf: np.ndarray, conf: np.ndarray,
                   doubted: np.ndarray, unsure: np.ndarray,
                   settings: IndigoSettings) -> np.ndarray:
    """(rows,) which unsure cells under glare take the read past the glare as their answer,
    still asked: it names a tile (``names_tile``) at a margin short of min_confidence but
    larger than the one the cell is read at (``conf``, a doubted cell's at most
    :data:`~vision.indigo.discs.DOUBTFUL`), so the question offers the tile the print
    round the lamp's core shows.

    Under a pale reflection the paths still show to the eye: the first read, which leaves the
    whole washed rim out, found the cell empty or another tile, while the read of each pixel
    against the levels round it named the tile (independent tuning seeds 1000-1025 harsh,
    demo and demo-taught: 5 cells read wrong that way were right by this read, at 0.32-0.68
    against 0.18-0.48, a sixth at 0.43 against a doubted 0.50 stayed; no cell read right was
    changed: an empty cell under glare is read past it at 0.00-0.12, below its own read)."""
    shown = np.where(doubted, np.minimum(conf, DOUBTFUL), conf)
    better: np.ndarray = (unsure & names_tile & (past_conf < settings.min_confidence)
                          & (past_conf > shown))
    return better


def _doubted(empty: np.ndarray, left: np.ndarray, patches: np.ndarray, w: np.ndarray,
             model: PackModel, lab: np.ndarray | None,
             glare: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """(cells,) twice: which cells are asked whatever their margin, and which cells read
    empty are clear of every tile.

    Asked: a cell read empty that shows a tile's contrast or (with the colour features
    ``lab``) not the empty print's colour, and a cell with too little left outside the
    glare, unless it is clear of every tile. Clear: read empty, in the print's colour and
    flat, and what is left of it outside the glare rules out every tile (every pattern would
    show itself there and none is seen, the light's slope taken out: see
    :func:`_rules_out_tiles`). Each test alone let a tile through on tuning seeds (1014 demo
    harsh by its flat cream, 1027 by the shifted comparison; the colour of demo tiles lies
    on the print's line to white)."""
    cells = list(ROUTE_CELLS)
    busy = _spreads(patches, w) > EMPTY_MAX_SPREAD * model.tile_spread
    unlike = set() if lab is None else _unlike_empty_print(
        lab, model, [c for i, c in enumerate(cells) if empty[i]], glare)
    doubted = (empty & busy) | np.array([c in unlike for c in cells])
    clear = np.zeros(len(cells), bool)
    candidates = np.flatnonzero(empty & ~doubted)
    if len(candidates) and lab is not None:
        clear[candidates] = _rules_out_tiles(patches[candidates], w[candidates], model)
    result: np.ndarray = doubted | ((left < GLARE_MIN_LEFT) & ~clear)
    return result, clear


def _sharpened_by_shift(unshifted_best: np.ndarray, best: np.ndarray, conf: np.ndarray,
                        turned: np.ndarray, settings: IndigoSettings) -> np.ndarray:
    """(cells,) whether a cell's shifted comparison kept the class its unshifted comparison
    read (``unshifted_best``, ``best``) and is sure both shifted (``conf``) and with every
    class at its own best offset and hand's turn (``turned``).

    A tile laid a hand's offset off with a reflection over part of it fits its pattern only
    a little better unshifted, and with a full margin once shifted: on tuning seeds
    1000-1039 harsh, all four looks, 35 of the 248 cells under glare read right and asked
    were such cells. Of the 28 cells read wrong with glare in them and asked for this alone,
    each either changed its class when shifted (up to 0.84 both ways, seed 1036 scans) or
    fell short of 0.6 shifted or posed."""
    kept: np.ndarray = (unshifted_best == best) & (
        np.minimum(conf, _confidences(turned, settings)) >= settings.min_confidence)
    return kept


def _read_as_posed(order: np.ndarray, conf: np.ndarray, turned: np.ndarray, left: np.ndarray,
                   settings: IndigoSettings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(cells, classes), (cells,), (cells,): the classes of each cell best first, its
    confidence, and whether it is read by the pose alone: a cell with at least GLARE_MIN_LEFT
    of its disc left whose best class with every class at its own best offset and hand's
    turn (``turned``) is not its best upright or shifted class (``order``) is read as that
    posed best, at the posed margin.

    A tile laid a hand's turn off fits another pattern better upright than its own: on tuning
    seeds 1000-1039 harsh, all four looks, of the 51 such cells (most of them tile 0 read as
    tile 1, in the taught looks) the posed best was the tile in 39, the upright best in 5.
    With less than GLARE_MIN_LEFT left the pose fits what is left too freely (there: posed 4,
    upright 4, neither 21), so those keep their upright read."""
    posed_best = turned.argmin(axis=1)
    posed_only = (posed_best != order[:, 0]) & (left >= GLARE_MIN_LEFT)
    order = np.where(posed_only[:, None], np.argsort(turned, axis=1), order)
    conf = np.where(posed_only, _confidences(turned, settings), conf)
    return order, conf, posed_only


def _sure_as_posed(best: np.ndarray, conf: np.ndarray, left: np.ndarray, model: PackModel,
                   settings: IndigoSettings) -> np.ndarray:
    """(cells,) whether a cell read as its posed best (:func:`_read_as_posed`) is sure: a
    tile (not the empty cell), wholly outside the glare, at a posed margin of at least
    min_confidence. On tuning seeds 1000-1039 harsh, all four looks, the posed best was the
    tile in each of the 16 whole cells at 0.85 or more (10 of them at 1.00); where it was not
    (the upright best right, or neither) the posed margin was at most 0.21."""
    sure: np.ndarray = (best != model.classes.index(None)) & (left >= 1.0) & (
        conf >= settings.min_confidence)
    return sure


def _posed_confidences(conf: np.ndarray, turned: np.ndarray, best: np.ndarray,
                       left: np.ndarray, settings: IndigoSettings) -> np.ndarray:
    """(cells,) each cell's confidence, or the margin between the classes each at its own
    best offset and hand's turn (``turned``) when that is larger, for a cell wholly outside
    the glare whose best class there is the one read (``best``).

    A tile laid by hand, or seen through a tilt and a lens, sits up to a few pixels off and
    a few degrees turned: compared upright, its own pattern fits it only a little better than
    the next, and a tile read right was asked (tuning seeds 1000-1019 harsh: 38 of the 95
    cell questions of the demo look, 28 of 97 in the scans look). Every class is given the
    same freedom, so the margin between them is still a fair one: no tile read wrong on those
    seeds had a posed margin past 0.8 of full. A cell with any glare in it keeps its upright
    margin: what is left of it fits the shifted and turned patterns too freely (seed 1036)."""
    posed = _confidences(turned, settings)
    whole = (left >= 1.0) & (turned.argmin(axis=1) == best)
    out: np.ndarray = np.where(whole, np.maximum(conf, posed), conf)
    return out


def _confidences(dist: np.ndarray, settings: IndigoSettings) -> np.ndarray:
    """Per cell: the relative margin between the best and second class, scaled to 0..1."""
    two = np.sort(dist, axis=1)[:, :2]
    margin = (two[:, 1] - two[:, 0]) / np.maximum(two[:, 1], 1e-6)
    conf: np.ndarray = np.clip(margin / settings.margin_full_confidence, 0.0, 1.0)
    return conf

