"""The Indigo board reader: one camera frame -> the engine's types, each with a confidence.

``read_indigo(frame, pack, settings=...) -> IndigoRead``. Small stages, chained:

1. :func:`~vision.markers.locate` finds the four table markers and checks the homography;
2. :func:`~vision.indigo.picture_check.picture_confidence_factor` checks the picture of the
   board's outline in the frame (exposure, contrast, noise, colour, focus): a picture that
   carries too little is refused, one near a limit has every confidence lowered;
   :func:`~vision.indigo.model.rectify` warps the frame onto the board (board units,
   ``cell_px`` per cell radius) using the calibration in the settings;
3. :func:`~vision.indigo.model.check_sharpness` and :func:`~vision.indigo.model.check_board`
   refuse a blurred frame or one that shows no Indigo board (compared with the pack's
   treasure tiles);
4. :func:`~vision.indigo.model.colour_balance` measures the colour cast and the camera's
   saturation using the board's colours the pack knows (:func:`~vision.gains.times_gains`
   and :func:`~vision.indigo.model.colour_features` remove them);
5. :func:`~vision.indigo.gems.read_gems`, :func:`~vision.indigo.tiles.read_tiles` and
   :func:`~vision.indigo.chips.read_chips` classify
   against the pack: gems (on a board rectified :data:`GEM_SCALE` times finer) and chips by
   colour model, tiles by comparing each cell with the
   pack's tile images in every rotation (and the empty cell); :mod:`vision.indigo.pack_fit`
   doubts every gem and chip when the chips' colours do not fit the pack;
6. :func:`name_gems` turns gem spots into edge points by which side holds a tile, and raises
   questions where a gem sits where the rules say none can rest.
   :func:`~vision.indigo.path_rules.path_questions` asks where the rules put a gem (the end
   of the paths from where it started) that the camera did not see,
   :func:`~vision.indigo.corner_rules.corner_questions` about a corner's amber while the tile
   on its arrow cell is doubtful, and :func:`~vision.indigo.path_rules.without_ruled_out`
   drops a doubtful gem where the sure tiles say none can rest; before the centre's and the
   corners' rules, :func:`~vision.indigo.chain_ends.settle_chain_ends` makes a faint gem sure
   where a sure chain of paths puts its start's gem.

Nothing about any particular art is coded here: every reference comes from the pack.
"""

from __future__ import annotations

import time
from dataclasses import replace

import cv2
import numpy as np

from companion.indigo import CORNER_BY_CELL, CORNERS, Tile
from companion.indigo.geometry import Cell, EdgePoint, neighbour, opposite
from vision.errors import FrameRefusedError, UnreadableImageError
from vision.gains import times_gains
from vision.indigo.centre_rules import centre_least, one_sapphire, settle_centre
from vision.indigo.chain_ends import settle_chain_ends
from vision.indigo.chips import chip_colours, read_chips, settle_by_charts
from vision.indigo.corner_rules import amber_leans, corner_questions, same_spot, settle_corners
from vision.indigo.gems import close_gem_labels, gem_box, gem_pixels, read_gems
from vision.indigo.glare import clipped_mask, glare_mask
from vision.indigo.model import (
    GEM_NAMES,
    TEMPLATE_BLUR,
    canonical_size,
    check_board,
    check_sharpness,
    colour_balance,
    colour_features,
    edge_strength,
    gem_label_map,
    pack_model,
    rectify,
    to_gray,
)
from vision.indigo.pack import IndigoPack
from vision.indigo.pack_fit import chips_unlike_pack, fit_to_pack
from vision.indigo.path_rules import path_questions, without_ruled_out
from vision.indigo.picture_check import picture_confidence_factor, scaled_confidences
from vision.indigo.read_types import (
    CellRead,
    ChipRead,
    GemRead,
    GemSpot,
    IndigoRead,
)
from vision.indigo.settings import DEFAULT_SETTINGS, IndigoSettings
from vision.indigo.tiles import read_tiles
from vision.indigo.view import gem_place
from vision.markers import PlaneFit, locate

__all__ = [
    "BLANK_MAX_CONTRAST",
    "cell_questions",
    "chip_questions",
    "explain_refusal",
    "frame_contrast",
    "name_gems",
    "read_indigo",
    "with_article",
]


# ---------------------------------------------------------------- stage 6: naming, questions

#: the confidence of a gem where the rules say none can rest (below the default
#: min_confidence: it is asked)
IMPOSSIBLE_GEM = 0.5


def _fmt_tile(tile: Tile | None) -> str:
    return "empty" if tile is None else f"T{tile.kind} rot {tile.rotation}"


def _edge_holders(point: EdgePoint, filled: set[Cell]) -> list[EdgePoint]:
    """The sides of the edge ``point`` on which a gem can rest: a tile (or a corner's arrow
    or U-turn) on that side, and no tile on the other."""
    a, edge = point
    holders = []
    for cell, e in ((a, edge), (neighbour(a, edge), opposite(edge))):
        corner = CORNER_BY_CELL.get(cell)
        holds = cell in filled or (
            corner is not None and (e == corner.arrow_edge or corner.uturn_other(e) is not None)
        )
        if holds and neighbour(cell, e) not in filled:
            holders.append((cell, e))
    return holders


def name_gems(
    spots: list[GemSpot], cells: dict[Cell, CellRead], settings: IndigoSettings
) -> tuple[list[GemRead], list[str]]:
    """Name each gem's edge point by which side holds a tile; question the impossible."""
    filled = {c for c, r in cells.items() if r.tile is not None}
    gems: list[GemRead] = []
    questions: list[str] = []
    for spot in spots:
        if spot.point is None:
            gems.append(GemRead(spot.gem, None, spot.confidence))
            continue
        a, edge = spot.point
        b = neighbour(a, edge)
        corner = next((c for c in CORNERS if same_spot(spot.point, c.amber_point)), None)
        if corner is not None:
            # a gem on a corner's arrow point is its unmoved amber (a gem running there along
            # the arrow cell's path would meet the amber's own start): named by the corner,
            # and asked when a tile is read on the arrow's cell, which would have moved it
            conf = spot.confidence if corner.arrow_neighbour not in filled else min(
                spot.confidence, IMPOSSIBLE_GEM)
            gems.append(GemRead(spot.gem, corner.amber_point, conf))
            continue
        holders = _edge_holders(spot.point, filled)
        conf = spot.confidence
        if len(holders) == 1:
            gems.append(GemRead(spot.gem, holders[0], conf))
            continue
        where = f"between cells ({a[0]},{a[1]}) and ({b[0]},{b[1]})"
        if not holders:
            questions.append(
                f"{spot.gem.value} {where}: a gem cannot rest there (it faces a tile or lies "
                "on empty cells); was a move not finished?"
            )
            point = (a, edge) if a in filled else (b, opposite(edge))
        else:
            point = holders[0]
        gems.append(GemRead(spot.gem, point, min(conf, IMPOSSIBLE_GEM)))
    centre = [g for g in gems if g.point is None]
    least = centre_least(cells)
    if len(centre) < least:
        # fewer than the rules leave there: the count is wrong (gems unseen), never silent
        gems = [replace(g, confidence=min(g.confidence, IMPOSSIBLE_GEM)) if g.point is None
                else g for g in gems]
        centre = [g for g in gems if g.point is None]
        if not centre:
            questions.append(f"centre: none seen, but at least {least} must lie there (only "
                             f"tiles next to it take gems away)? please count the gems on the "
                             f"centre tile")
    if any(g.confidence < settings.min_confidence for g in centre):
        counts = {name: sum(1 for g in centre if g.gem.value == name) for name in GEM_NAMES}
        said = ", ".join(f"{n} {name}" for name, n in counts.items() if n) or "none"
        questions.append(f"centre: {said}? please count the gems on the centre tile")
    for g in gems:
        if g.confidence < settings.min_confidence and g.point is not None:
            questions.append(f"{gem_place(g.point)}: is there {with_article(g.gem.value)} gem?")
    return gems, questions


def print_band_questions(bands: list[GemSpot], cells: dict[Cell, CellRead],
                         settings: IndigoSettings) -> list[str]:
    """A spot where only a band of the print in a gem's colour was seen is no gem read, but
    asked: a stone half hidden there would otherwise be lost without a word. Not where the
    tiles say no gem can rest (as for a doubtful gem read there)."""
    filled = {c for c, r in cells.items() if r.tile is not None}
    return [f"{gem_place(b.point)}: is there {with_article(b.gem.value)} gem, or only the "
            f"board's print?" for b in without_ruled_out(bands, cells, settings.min_confidence)
            if b.point is not None and _edge_holders(b.point, filled)]


def with_article(word: str) -> str:
    """``"an amber"``, ``"a sapphire"``: the indefinite article a question needs."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def cell_questions(cells: dict[Cell, CellRead], settings: IndigoSettings) -> list[str]:
    out = []
    for cell, r in sorted(cells.items()):
        if r.confidence >= settings.min_confidence:
            continue
        alt = next((t for t, _ in r.alternatives if t != r.tile and not _same(t, r.tile)), None)
        out.append(f"cell ({cell[0]},{cell[1]}): {_fmt_tile(r.tile)} or {_fmt_tile(alt)}?")
    return out


def chip_questions(chips: list[ChipRead], settings: IndigoSettings) -> list[str]:
    """Chips read with low confidence, and a chip layout that matches no rules chart."""
    out = [
        f"gateway {c.gate} chip {c.slot}: {c.colour or 'empty'}?"
        for c in chips
        if c.confidence < settings.min_confidence
    ]
    read = IndigoRead(cells={}, gems=[], chips=chips)
    if not out and read.chip_layout() is not None:
        found = read.layout()
        if found is None:
            out.append("the chips match no ownership layout (2p, 3p, 3p-alt, 4p): check them")
        elif found[1] != 0:
            out.append(
                f"the chips show layout {found[0]} turned by {found[1]} gateway(s): "
                "recalibrate the board's rotation or set the chips out as the chart shows"
            )
    return out


def _same(a: Tile | None, b: Tile | None) -> bool:
    if a is None or b is None:
        return a is b
    return a.same_pattern(b)


# ---------------------------------------------------------------- the reader


#: a frame whose grey levels (1st to 99th percentile) span less than this shows nothing at all
#: (lens cap on, light off, a black or white frame): "no board", never "blurred"
BLANK_MAX_CONTRAST = 16.0


def frame_contrast(frame: np.ndarray) -> float:
    """Spread of the grey levels, 1st to 99th percentile (0 for a one-colour frame)."""
    g = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    lo, hi = np.percentile(g, [1, 99])
    return float(hi - lo)


def explain_refusal(
    exc: FrameRefusedError,
    frame: np.ndarray,
    settings: IndigoSettings,
) -> FrameRefusedError | None:
    """A clearer refusal than the marker stage's, or None to keep it.

    - no markers in a blank frame: "no board found (no markers)", not "blurred";
    - no markers in a frame with contrast but only weak edges: "blurred";
    - the table markers found but not where Indigo's layout puts them, and they fit another
      game's table layout: "wrong-game" naming that game.
    """
    if exc.reason == "no-markers":
        contrast = frame_contrast(frame)
        if contrast < BLANK_MAX_CONTRAST:
            return FrameRefusedError(
                f"no board found (no markers): the frame is almost one colour (grey levels "
                f"span {contrast:.0f} of 255): is the lens covered or the light off?",
                reason="no-markers",
            )
        strength = edge_strength(frame)
        if strength < settings.blur_min_edge:
            return FrameRefusedError(
                f"the frame is too blurred to find the board markers (edge strength "
                f"{strength:.2f}, needs {settings.blur_min_edge:.2f}): hold still and refocus",
                reason="blurred",
            )
        return None
    if exc.reason == "bad-homography":
        for game, layout in settings.other_tables:
            try:
                locate(frame, layout, checks=settings.checks)
            except FrameRefusedError:
                continue
            return FrameRefusedError(
                f"not an Indigo board (wrong game): the table markers are laid out for {game} "
                f"({layout.size_mm:g} mm markers), not around the Indigo board",
                reason="wrong-game",
            )
    return None


def _check_frame(frame: object) -> np.ndarray:
    if not isinstance(frame, np.ndarray) or frame.size == 0:
        raise UnreadableImageError("the frame is not an image")
    # the dtype first: OpenCV's grey-to-BGR conversion raises its own error for most dtypes
    if frame.dtype != np.uint8:
        raise UnreadableImageError(f"the frame has dtype {frame.dtype}, expected uint8")
    image: np.ndarray = frame
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim != 3 or image.shape[2] not in (3, 4):
        raise UnreadableImageError(f"the frame has shape {image.shape}, expected HxWx3 BGR")
    if image.shape[2] == 4:
        image = np.ascontiguousarray(image[:, :, :3])
    return image


def _locate(gray: np.ndarray, st: IndigoSettings) -> PlaneFit:
    """The table markers in ``gray`` (the frame's grey), searched in a shrunk copy first
    (fast) and, when some are missed, once more at full resolution: small markers far from a
    soft, compressed camera are lost in the shrunk frame while a person still reads them."""
    try:
        return locate(gray, st.geometry.layout, checks=st.checks)
    except FrameRefusedError as exc:
        full = max(gray.shape[:2])
        if exc.reason != "no-markers" or full <= st.checks.max_detect_side:
            raise
        return locate(gray, st.geometry.layout,
                      checks=replace(st.checks, max_detect_side=full, retry_scales=(1.0,)))


#: gems are read on a board rectified this many times finer than the tiles: a gem is a third
#: of a cell radius across, and at the tiles' scale its faceted glass (a dark girdle, a bright
#: table, a highlight) blurs into the print round it (a dark amber on a corner tile read as
#: no gem, a heap of emeralds on the centre as one blob)
GEM_SCALE = 2


def _read_gems_finer(frame: np.ndarray, fit: PlaneFit, pack: IndigoPack, st: IndigoSettings,
                     gains: np.ndarray, saturation: float,
                     print_bands: list[GemSpot]) -> list[GemSpot]:
    """The gem spots, read on the board rectified :data:`GEM_SCALE` times finer (with the
    colour gains and saturation measured at the tiles' scale); the spots showing only the
    print's band of a gem colour appended to ``print_bands``."""
    cell_px = GEM_SCALE * st.cell_px
    model = pack_model(pack, cell_px)
    # only the part of the finer board the gems are looked for in is warped and measured
    left, top, right, bottom = box = gem_box(model, pack.gem_size)
    balanced = times_gains(rectify(frame, fit, st.geometry, cell_px, box), gains)
    size = canonical_size(cell_px)
    lab = np.zeros((size, size, 3), np.float32)
    colour_features(balanced, saturation, out=lab[top:bottom, left:right])
    labels = gem_label_map(lab, model, where=gem_pixels(model, pack.gem_size))
    # the labels outside the box are all 0, a margin wider than the closing's reach
    labels[top:bottom, left:right] = close_gem_labels(labels[top:bottom, left:right],
                                                      pack.gem_size * cell_px)
    return read_gems(labels, pack, model, st, lab, print_bands)


def _located_and_checked(frame: np.ndarray, st: IndigoSettings) -> tuple[PlaneFit, float]:
    """The board's markers found in ``frame`` (a refusal says why, in the words that fit the
    frame best), and the factor the picture's quality scales every confidence by (refused
    when the picture itself cannot be read)."""
    # one grey of the frame, for the markers and the picture check: each made its own
    gray_frame = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    try:
        fit = _locate(gray_frame, st)
    except FrameRefusedError as exc:
        better = explain_refusal(exc, frame, st)
        if better is not None:
            raise better from exc
        raise
    # the picture itself, before any piece: refused, or every confidence scaled by its quality
    return fit, picture_confidence_factor(frame, fit, st.geometry, st.picture, gray=gray_frame)


def read_indigo(
    frame: np.ndarray,
    pack: IndigoPack,
    *,
    settings: IndigoSettings = DEFAULT_SETTINGS,
    keep_rectified: bool = False,
) -> IndigoRead:
    """Read an Indigo board from one BGR frame.

    Raises FrameRefusedError (exit 4) for a frame without the board markers, a bad
    homography, a blurred frame or one that shows no Indigo board; UnreadableImageError
    (exit 2) for something that is not an image.
    """
    t0 = time.perf_counter()
    frame = _check_frame(frame)
    st = settings
    fit, factor = _located_and_checked(frame, st)
    t1 = time.perf_counter()
    canon = rectify(frame, fit, st.geometry, st.cell_px)
    check_sharpness(canon, st)
    model = pack_model(pack, st.cell_px)
    gray0 = to_gray(canon)
    check_board(gray0, model, st)
    gains, saturation = colour_balance(canon, model, st.cell_px)
    balanced = times_gains(canon, gains)
    lab = colour_features(balanced, saturation)
    gray = cv2.GaussianBlur(to_gray(balanced), (0, 0), TEMPLATE_BLUR)
    t2 = time.perf_counter()
    print_bands: list[GemSpot] = []
    found = _read_gems_finer(frame, fit, pack, st, gains, saturation, print_bands)
    glare = glare_mask(canon, st.cell_px)
    cells = read_tiles(gray, found, model, st, pack.gem_size, glare=glare, lab=lab,
                       # only glare leaves a cell to read past it (see read_tiles)
                       clipped=clipped_mask(canon) if glare.any() else None)
    # a faint gem where a sure chain of paths puts one is settled first: the centre's count
    # rests on those gems
    found = settle_chain_ends(found, cells, st.min_confidence)
    settled = one_sapphire(settle_corners(settle_centre(found, cells, st.min_confidence), cells,
                                          min_confidence=st.min_confidence,
                                          leans=amber_leans(lab, model, pack.gem_size, cells)),
                           st.min_confidence)
    spots = scaled_confidences(settled, factor)
    cells = dict(zip(cells, scaled_confidences(list(cells.values()), factor), strict=True))
    seen = chip_colours(lab, pack, model, glare)
    chips = scaled_confidences(read_chips(seen, pack, model, glare), factor)
    spots, chips, unlike_pack = fit_to_pack(spots, chips, chips_unlike_pack(seen, model))
    if not unlike_pack:
        # a chip the rules' charts put on its space, as the sure chips show them: sure
        chips = settle_by_charts(chips, st.min_confidence)
    gems, gem_questions = name_gems(without_ruled_out(spots, cells, st.min_confidence), cells, st)
    questions = (unlike_pack + cell_questions(cells, st) + gem_questions
                 + path_questions(gems, cells) + corner_questions(gems, cells, st.min_confidence)
                 + print_band_questions(print_bands, cells, st) + chip_questions(chips, st))
    t3 = time.perf_counter()
    return IndigoRead(
        cells=cells,
        gems=gems,
        chips=chips,
        questions=questions,
        fit=fit,
        pieces_unlike_pack=bool(unlike_pack),
        timings_ms={
            "locate": (t1 - t0) * 1000,
            "rectify": (t2 - t1) * 1000,
            "classify": (t3 - t2) * 1000,
            "total": (t3 - t0) * 1000,
        },
        rectified=balanced if keep_rectified else None,
    )
