"""The Enigma table reader: one camera frame -> the tiles as seen and the networkers on them.

``read_enigma(frame, pack, settings=...) -> EnigmaRead``. The stages:

1. :func:`~vision.markers.locate` finds the four table markers and checks the homography;
   the picture of the table (the marker frame, as the sensor gave it) is checked by
   :mod:`vision.picture`: a picture past a limit is refused with its cause, one near a limit
   lowers every confidence of the read by ``confidence_factor`` of its quality; the frame
   is straightened onto the marker plane at ``px_per_tile`` pixels per tile side,
   record north = image up;
2. :func:`find_start` finds the start tile near the middle by its face (the pack's image) and
   anchors the grid on it; the frame's colour cast is removed with the start tile's colours,
   and the start tile's drawing must then come back in the pack's colours
   (:mod:`vision.enigma.pack_fit`), else every tile is asked about;
3. :func:`see_squares` marks each grid square holding a tile (tile colour, not table);
4. :func:`read_tile` reads each tile *structurally*: power cells from the pack's cell colours,
   channels from the channel colour (a mask, then a skeleton), ports where channels reach the
   sides at the records.md positions, links from which cells and ports each channel joins,
   the networker on each cell from the colour inside the cell's ring;
5. crossings, channels ending nowhere and openings off the three positions lower a tile's
   confidence and become questions: nothing is guessed.

No tile art and no catalogue is used: every reference is a colour or size of the pack.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.enigma.tiles import Pos, Tile, format_tile
from vision.enigma.colours import ColourModel, colour_model
from vision.enigma.geometry import TableGeometry, table_geometry
from vision.enigma.layout import seen_tile, spacing_for
from vision.enigma.lazy_table import LazyTable
from vision.enigma.mirror import mirrored_openings
from vision.enigma.pack import EnigmaPack
from vision.enigma.pack_fit import MISFIT_CONFIDENCE_FACTOR, PACK_FIT_LIMIT, start_face_misfit
from vision.enigma.read_types import EDGE_CONFIDENCE, EnigmaRead, NetworkerRead, TileRead
from vision.enigma.settings import DEFAULT_SETTINGS, ReaderSettings
from vision.enigma.squares import (
    COVER_STEP,
    EdgeNote,
    SquaresSeen,
    balance,
    clipped_boxes,
    eroded_seen,
    find_start,
    marker_zones,
    rectify_seen,
    rectify_seen_boxes,
    see_squares,
    start_gains,
    start_window,
    straightened_placement,
)
from vision.enigma.table_colour import measured_table_colour, ring_boxes, with_table_colour
from vision.enigma.table_memory import (
    TableMemory,
    changed_squares,
    markers_kept,
    small_grey,
    squares_to_look_at,
)
from vision.enigma.tile import finish_tile, look_at_tile, read_tile, with_networkers
from vision.errors import FrameRefusedError, UnreadableImageError
from vision.markers import PlaneFit, locate
from vision.picture import (
    PictureMeasures,
    check_picture,
    confidence_factor,
    measure_inside,
)
from vision.warp import is_seen_whole

__all__ = ["confidence_question", "new_and_beside", "read_enigma", "table_outline",
           "tile_question"]

#: the straightened table reaches this many tiles past the marker frame: a table reaching
#: past the markers is seen (and asked about), not cut off
MARGIN_TILES = 1.5
#: a start-face match scoring this or more gives the pack's start tile full confidence
FULL_FACE_SCORE = 0.7
#: the highest confidence of a start tile with a networker seen on it
PAWN_ON_START_CONFIDENCE = 0.5
#: the highest confidence of a start tile that is not the one the game expects
WRONG_START_CONFIDENCE = 0.3
#: power cells and networkers are told apart by colour on every table (the picture check)
NEEDS_COLOUR = True
#: times a square is cut again where its openings say the tile lies
RECUT_ROUNDS = 2
#: a square is cut again when its openings lie at least this far off (pixels: less is noise)
RECUT_MIN_PX = 1.0
#: ... and at most this share of a tile off (farther is a misread, not a shifted tile)
RECUT_MAX_SHARE = 0.15
#: a read after a placement straightens this many pixels more round its squares; a start
#: tile found farther than this from its last place means the table moved: read it whole
START_SLACK_PX = 3
#: the squares (either way from the start tile) the picture round the middle is measured on
#: can reach: the start lies within 1.3 tiles of the middle, the region 1.5 round it
START_REACH_SQUARES = 3


#: a square of the balanced straightened table: ``cut(side, centre)``, as
#: ``cv2.getRectSubPix`` cuts it
Cut = Callable[[int, tuple[float, float]], np.ndarray]

# ---------------------------------------------------------------------------- the reader


def _same_structure(a: Tile, b: Tile, pack: EnigmaPack) -> bool:
    """Whether two tiles are the same as seen (cells named in reading order)."""
    spacing = spacing_for(pack)
    return format_tile(seen_tile(a, 0, pack.ports, spacing=spacing)[0]) == format_tile(
        seen_tile(b, 0, pack.ports, spacing=spacing)[0])


def _read_start(cut: Cut, xy: tuple[float, float], score: float, pack: EnigmaPack,
                model: ColourModel, st: ReaderSettings, expected: Tile | None
                ) -> tuple[TileRead, list[NetworkerRead]]:
    """The start tile as seen, never swapped in: read like any tile when its channels and
    cells read cleanly; else, when its face is the pack's start face (the match found it),
    it is the pack's start tile with the match's confidence. A start tile the game expects
    (``expected``) that differs from the one seen is a question."""
    p = st.px_per_tile
    read, found = read_tile(cut(p, xy), (0, 0), pack, model, st)
    found = _not_face_art(read, found, pack, model, st)
    face_conf = float(np.clip(score / FULL_FACE_SCORE, 0.0, 1.0))
    if not read.problems and read.confidence >= st.min_confidence and read.tile.links:
        seen, conf, nets = read.tile, read.confidence, found
    else:
        # the pack's start face (a picture, not tile art): its structure is the pack's
        seen, conf, nets = pack.start_conduit, face_conf, []
    problems: tuple[str, ...] = ()
    if found and not nets:
        # networkers never stand on the start tile, but a pawn seen there is said, not dropped
        conf = min(conf, PAWN_ON_START_CONFIDENCE)
        colours = ", ".join(sorted({n.colour for n in found}))
        problems = (f"a networker ({colours}) seems to stand on the start tile: "
                    "is it read right?",)
    if expected is not None and not _same_structure(seen, expected, pack):
        conf = min(conf, WRONG_START_CONFIDENCE)
        problems = (*problems,
                    f"the start tile seen ({_describe(seen)}) is not the game's start tile "
                    f"({_describe(expected)}): is the right start tile on the table?")
    return TileRead((0, 0), seen, conf, "start", problems), nets


def _not_face_art(read: TileRead, found: list[NetworkerRead], pack: EnigmaPack,
                  model: ColourModel, st: ReaderSettings) -> list[NetworkerRead]:
    """The networkers seen on the start tile less those its face itself shows: what the
    reader takes for a pawn on the pack's own start face (a pale disc in the middle of a
    star, say) is art, wherever the start tile lies."""
    if not found:
        return found
    p = st.px_per_tile
    face = cv2.resize(pack.start, (p, p), interpolation=cv2.INTER_AREA)
    art_read, art = read_tile(face, (0, 0), pack, model, st)
    art_at = [(n.colour, art_read.centres[art_read.tile.cell_ids.index(n.cell)]) for n in art]
    reach = pack.networker_radius

    def is_art(n: NetworkerRead) -> bool:
        x, y = read.centres[read.tile.cell_ids.index(n.cell)]
        return any(colour == n.colour and math.hypot(x - ax, y - ay) <= reach
                   for colour, (ax, ay) in art_at)

    return [n for n in found if not is_art(n)]


def _describe(tile: Tile) -> str:
    # a port's str() is its notation name (N, E2), a cell end is its cell id
    links = " ".join("-".join(str(end) for end in link) for link in tile.links) or "no channels"
    cells = ", ".join(f"{k} {v}" for k, v in tile.cells)
    return f"{links}; cells {cells}" if cells else links


def _check_frame(frame: object) -> np.ndarray:
    if not isinstance(frame, np.ndarray) or frame.size == 0:
        raise UnreadableImageError("the frame is not an image")
    # the shape and dtype before converting: OpenCV's grey-to-BGR conversion raises its own
    # error for most dtypes, and the message should name the frame as it was given
    grey_or_colour = frame.ndim == 2 or (frame.ndim == 3 and frame.shape[2] in (3, 4))
    if not grey_or_colour or frame.dtype != np.uint8:
        raise UnreadableImageError(
            f"the frame has shape {frame.shape} and dtype {frame.dtype}, "
            "expected an 8-bit BGR image"
        )
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    return np.ascontiguousarray(frame[:, :, :3])


def _straighten(frame: np.ndarray, fit: PlaneFit, geo: TableGeometry, st: ReaderSettings
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Straighten the table with a margin around its markers. Returns the straightened
    image, the plane-to-image map, the mask of what the camera saw and the margin (pixels)."""
    p = st.px_per_tile
    margin = int(round(MARGIN_TILES * p))
    canon, plane_to_canon, seen = rectify_seen(frame, fit, geo, p, margin_px=margin)
    return canon, plane_to_canon, seen, margin


def table_outline(fit: PlaneFit, geo: TableGeometry) -> np.ndarray:
    """The marker frame (the rectangle of the markers' centres) in the frame, image points:
    where the table lies, so where the picture must carry what the reader needs."""
    return _centred_rectangle(fit, geo.frame_mm[0] / 2, geo.frame_mm[1] / 2)


def _centred_rectangle(fit: PlaneFit, half_w: float, half_h: float) -> np.ndarray:
    """The rectangle round the marker frame's middle, ``half_w`` by ``half_h`` mm either side,
    in the frame (image points)."""
    corners = np.array([[[-half_w, -half_h], [half_w, -half_h], [half_w, half_h],
                         [-half_w, half_h]]], np.float64)
    outline: np.ndarray = cv2.perspectiveTransform(corners, fit.plane_to_image)[0]
    return outline


#: the square round the marker frame's middle (in tiles) that always holds the whole start
#: tile: the start is looked for within a tile of the middle
START_REGION_TILES = 3.0


def start_region_outline(fit: PlaneFit, geo: TableGeometry) -> np.ndarray:
    """The square round the middle of the marker frame where the start tile lies, in the
    frame (image points)."""
    half = START_REGION_TILES * geo.tile_mm / 2
    return _centred_rectangle(fit, half, half)


def _picture_quality(frame: np.ndarray, grey: np.ndarray, fit: PlaneFit, geo: TableGeometry,
                     st: ReaderSettings, region: np.ndarray | None = None,
                     middle: PictureMeasures | None = None) -> tuple[float, PictureMeasures]:
    """Refuse a picture of the table that carries too little to read any tile (burnt out,
    dark, flat, noisy, without colour, out of focus); else its quality in 0..1, and the
    measures round the middle. Power cells and networkers are told apart by colour on every
    table, so colour is needed.

    Early in a game the table is mostly bare, and a bare table is plain by nature: over the
    whole marker frame a grey cloth with the start tile alone has neither contrast nor colour.
    Contrast and colour are therefore also measured round the middle, where the start tile
    always lies, and the better of the two counts.

    ``region``: the part of the table the read looks at (image points), when not the whole
    marker frame (a read after a placement checks the picture round the squares it reads);
    ``middle``: the measures round the middle, when the last read's still hold there;
    ``grey``: the frame's grey (``cv2.COLOR_BGR2GRAY``), made once a read."""
    whole = measure_inside(frame, table_outline(fit, geo) if region is None else region,
                           gray=grey)
    if middle is None:
        middle = measure_inside(frame, start_region_outline(fit, geo), gray=grey)
    if whole is None or middle is None:  # the markers were found in this frame: never
        raise ValueError("measure_picture: the mask covers no pixel")
    measures = replace(whole, contrast=max(whole.contrast, middle.contrast),
                       colour=max(whole.colour, middle.colour))
    return check_picture(measures, st.picture, needs_colour=NEEDS_COLOUR), middle


def _scaled(tiles: dict[Pos, TileRead], nets: list[NetworkerRead], factor: float
            ) -> tuple[dict[Pos, TileRead], list[NetworkerRead]]:
    """Every confidence times ``factor``: a picture that only just passes is asked about."""
    if factor >= 1.0:
        return tiles, nets
    return ({at: replace(read, confidence=read.confidence * factor,
                         shape_confidence=_times(read.shape_confidence, factor))
             for at, read in tiles.items()},
            [replace(n, confidence=n.confidence * factor) for n in nets])


def _times(confidence: float | None, factor: float) -> float | None:
    return None if confidence is None else confidence * factor


def _capped(confidence: float | None, cap: float) -> float | None:
    return None if confidence is None else min(confidence, cap)


def _refuse_blurred(gray: np.ndarray, start_xy: tuple[float, float], st: ReaderSettings
                    ) -> None:
    """Refuse the frame when the start tile is too blurred to read."""
    p = st.px_per_tile
    sharp = float(cv2.Laplacian(cv2.getRectSubPix(gray, (p, p), start_xy), cv2.CV_32F).var())
    if sharp < st.blur_min_variance:
        raise FrameRefusedError(
            f"the table is too blurred to read (sharpness {sharp:.0f}, needs "
            f"{st.blur_min_variance:.0f}): hold the camera still and refocus",
            reason="blurred",
        )


def _read_placed(cut: Cut, at: Pos, squares: dict[Pos, tuple[float, float]],
                 final: dict[Pos, tuple[float, float]], pack: EnigmaPack, model: ColourModel,
                 st: ReaderSettings) -> tuple[TileRead, list[NetworkerRead]]:
    """Read the tile at ``at``: its square is predicted from its neighbours' final places,
    then moved to where its own openings say the tile lies (lens distortion and hand
    placement bend the ideal grid by a few pixels). Records the square's final place."""
    p = st.px_per_tile
    preds = [(final[nb][0] + (at[0] - nb[0]) * p, final[nb][1] + (at[1] - nb[1]) * p)
             for nb in ((at[0] - 1, at[1]), (at[0] + 1, at[1]), (at[0], at[1] - 1),
                        (at[0], at[1] + 1)) if nb in final]
    cx, cy = ((float(np.mean([q[0] for q in preds])), float(np.mean([q[1] for q in preds])))
              if preds else squares[at])
    look = look_at_tile(cut(p, (cx, cy)), pack, model)
    for _ in range(RECUT_ROUNDS):
        dx, dy = look.offset
        if math.hypot(dx, dy) < RECUT_MIN_PX or math.hypot(dx, dy) > RECUT_MAX_SHARE * p:
            break
        cx, cy = cx + dx, cy + dy
        look = look_at_tile(cut(p, (cx, cy)), pack, model)
    read, found = finish_tile(with_networkers(look, pack, model), at, pack, model, st)
    final[at] = (cx, cy)
    return read, found


def _read_tiles(cut: Cut, squares: dict[Pos, tuple[float, float]],
                start: tuple[float, float, float], pack: EnigmaPack, st: ReaderSettings,
                start_tile: Tile | None, only: set[Pos] | None = None
                ) -> tuple[dict[Pos, TileRead], list[NetworkerRead]]:
    """Read every square (or those in ``only``) from the start tile outwards (``start``: its
    x, y and face score; ``cut``: a square of the balanced straightened table)."""
    sx, sy, score = start
    model = colour_model(pack)
    tiles: dict[Pos, TileRead] = {}
    nets: list[NetworkerRead] = []
    final: dict[Pos, tuple[float, float]] = {(0, 0): (sx, sy)}
    order = sorted((a for a in squares if only is None or a in only),
                   key=lambda a: (abs(a[0]) + abs(a[1]), a[1], a[0]))
    for at in order:
        if at == (0, 0):
            read, found = _read_start(cut, (sx, sy), score, pack, model, st, start_tile)
        else:
            read, found = _read_placed(cut, at, squares, final, pack, model, st)
        tiles[at] = read
        nets.extend(found)
    return tiles, nets


def new_and_beside(occupied: Collection[Pos], placed: Collection[Pos]) -> set[Pos]:
    """The occupied squares the game does not know yet, and the occupied squares beside
    them: what is read after a placement."""
    known = set(placed)
    new = {at for at in occupied if at not in known}
    beside = {(x + dx, y + dy) for x, y in new
              for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    return new | (beside & set(occupied))


def _mark_edges(tiles: dict[Pos, TileRead], edge_notes: list[EdgeNote]) -> None:
    """A tile at the table's seen edge is read but not trusted: the table may go on there."""
    for note in edge_notes:
        if note.at in tiles:
            read = tiles[note.at]
            tiles[note.at] = replace(read, confidence=min(read.confidence, EDGE_CONFIDENCE),
                                     shape_confidence=_capped(read.shape_confidence,
                                                              EDGE_CONFIDENCE),
                                     problems=(*read.problems, note.text))


def _reachable(tiles: Collection[Pos]) -> set[Pos]:
    """The squares joined to the start tile through tiles."""
    reach = {(0, 0)}
    stack = [(0, 0)]
    while stack:
        x, y = stack.pop()
        for nb in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nb in tiles and nb not in reach:
                reach.add(nb)
                stack.append(nb)
    return reach


def tile_question(at: Pos, problem: str) -> str:
    """The question about a problem the reader names on the tile at ``at``."""
    return f"tile [{at[0]}, {at[1]}]: {problem}"


def confidence_question(read: TileRead) -> str:
    """The question about a tile read with too little confidence and no problem named."""
    return (f"tile [{read.at[0]}, {read.at[1]}]: is it read right? "
            f"(confidence {read.confidence:.2f})")


def _questions(tiles: dict[Pos, TileRead], nets: list[NetworkerRead], st: ReaderSettings,
               occupied: Collection[Pos], known: Collection[Pos] = ()) -> list[str]:
    """What to ask the players: tiles cut off from the start tile (through the ``occupied``
    squares), every tile's problems, and tiles and networkers read with too little
    confidence; nothing about the ``known`` squares (the game knows their tiles, and the
    networkers on them)."""
    reach = _reachable(occupied)
    questions: list[str] = []
    nets = [n for n in nets if n.at not in known]
    for at, read in sorted(tiles.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if at in known:
            continue
        where = f"tile [{at[0]}, {at[1]}]"
        if at not in reach:
            questions.append(f"{where}: it touches no tile connected to the start tile")
        for problem in read.problems:
            questions.append(tile_question(at, problem))
        if read.confidence < st.min_confidence and not read.problems:
            questions.append(confidence_question(read))
    for n in nets:
        if n.confidence < st.min_confidence:
            questions.append(
                f"tile [{n.at[0]}, {n.at[1]}] cell {n.cell}: is there a {n.colour} "
                f"networker? (confidence {n.confidence:.2f})"
            )
    return questions


def read_enigma(
    frame: np.ndarray,
    pack: EnigmaPack,
    *,
    settings: ReaderSettings = DEFAULT_SETTINGS,
    geometry: TableGeometry | None = None,
    start_tile: Tile | None = None,
    placed: Collection[Pos] | None = None,
    previous: TableMemory | None = None,
) -> EnigmaRead:
    """Read the Enigma table from one BGR frame. The table lies where ``settings.table``
    says (with the pack's tile size when it gives none), unless ``geometry`` is given.

    ``placed``: the squares whose tiles the game already knows. Then only the tiles on other
    squares (the one just placed) and the known tiles beside them are read: the app's read
    after a placement, a few tiles instead of the whole table.

    ``previous``: what the last read of this table found (its ``memory``). With ``placed``,
    when the markers are where they were and the picture changed on few squares, only those
    squares and their neighbours are straightened, checked and looked at
    (:mod:`vision.enigma.table_memory`); else the whole table is, as without it.

    Raises FrameRefusedError (exit 4) for a frame without the table markers, a bad homography,
    a picture of the table that fails :func:`vision.picture.check_picture`, a blurred frame
    or one without the start tile near the middle; UnreadableImageError
    (exit 2) for something that is not an image.
    """
    t0, cpu0 = time.perf_counter(), time.process_time()
    frame = _check_frame(frame)
    geo = geometry or table_geometry(settings.table, pack)
    # the frame made grey once: the table's memory, the markers and the picture check use it
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    small = small_grey(grey)
    changed = _changed_squares(frame, grey, small, pack, settings, geo, placed, previous)
    if changed is not None and previous is not None and placed is not None:
        look = squares_to_look_at(previous, changed, placed)
        table = _Straightened.local(frame, previous.fit, geo, settings, previous.start, look,
                                    changed)
        read = _read(frame, grey, small, pack, settings, geo, previous.fit, table, start_tile,
                     placed, previous, (t0, cpu0))
        if read is not None:
            return read
    fit = locate(grey, geo.layout, checks=settings.checks)
    # a read after a placement reads a few tiles: the table is straightened where it looks
    part_by_part = (None if placed is None
                    else _Straightened.made_where_looked(frame, fit, geo, settings))
    whole = _read(frame, grey, small, pack, settings, geo, fit,
                  part_by_part or _Straightened.whole(frame, fit, geo, settings), start_tile,
                  placed, None, (t0, cpu0))
    assert whole is not None  # only a local read gives up
    return whole


def _changed_squares(frame: np.ndarray, grey: np.ndarray, small: np.ndarray, pack: EnigmaPack,
                     st: ReaderSettings, geo: TableGeometry, placed: Collection[Pos] | None,
                     previous: TableMemory | None) -> set[Pos] | None:
    """The squares whose picture changed since the last read of the table, for a read after
    a placement; None when the whole table must be read (no such read, or a stale one)."""
    if previous is None or placed is None or not previous.is_for(frame, pack, st, geo):
        return None
    if not markers_kept(grey, previous.fit):
        return None
    return changed_squares(previous, small)


@dataclass(frozen=True)
class _Straightened:
    """The table straightened for a read: the image, the plane-to-image map, the mask of
    what the camera saw, the margin (pixels), and the squares looked at (None: all of them;
    else the image is straightened round those and the start tile only)."""

    canon: np.ndarray
    plane_to_canon: np.ndarray
    seen: np.ndarray
    margin: int
    look: set[Pos] | None = None
    changed: set[Pos] | None = None
    #: the parts straightened (x0, y0, x1, y1), None for the whole image
    boxes: list[tuple[int, int, int, int]] | None = None
    #: the table straightened part by part where the read looks (``canon`` is its image)
    lazy: LazyTable | None = None

    @staticmethod
    def whole(frame: np.ndarray, fit: PlaneFit, geo: TableGeometry, st: ReaderSettings
              ) -> _Straightened:
        return _Straightened(*_straighten(frame, fit, geo, st))

    @staticmethod
    def made_where_looked(frame: np.ndarray, fit: PlaneFit, geo: TableGeometry,
                          st: ReaderSettings) -> _Straightened | None:
        """The table straightened part by part (:mod:`vision.enigma.lazy_table`), the
        start tile's window first; None when the camera does not see all of it (its seen
        mask is then made by the whole warp)."""
        p = st.px_per_tile
        margin = int(round(MARGIN_TILES * p))
        plane_to_canon, (width, height) = straightened_placement(geo, p, margin)
        matrix = plane_to_canon @ fit.image_to_plane
        if not is_seen_whole(matrix, (width, height), frame.shape):
            return None
        lazy = LazyTable(frame, matrix, (width, height))
        x0, y0, x1, y1 = start_window((height, width), p)
        box = (x0 - 2, y0 - 2, x1 + 2, y1 + 2)
        lazy.make(*box)
        seen = eroded_seen(np.ones((height, width), bool))
        return _Straightened(lazy.canon, plane_to_canon, seen, margin, boxes=[box], lazy=lazy)

    @staticmethod
    def local(frame: np.ndarray, fit: PlaneFit, geo: TableGeometry, st: ReaderSettings,
              start: tuple[float, float, float], look: set[Pos], changed: set[Pos]
              ) -> _Straightened:
        """Straightened round the ``look`` squares (a tile each way: a square is cut again
        where its openings say the tile lies) and where the start tile is looked for."""
        p = st.px_per_tile
        margin = int(round(MARGIN_TILES * p))
        _, (width, height) = straightened_placement(geo, p, margin)
        x0, y0, x1, y1 = start_window((height, width), p)
        boxes = [(x0 - 2, y0 - 2, x1 + 2, y1 + 2), *_row_boxes(_around(look, 1), start, p)]
        canon, plane_to_canon, seen = rectify_seen_boxes(frame, fit, geo, p, boxes,
                                                         margin_px=margin)
        return _Straightened(canon, plane_to_canon, seen, margin, look, changed, boxes)


def _read(frame: np.ndarray, grey: np.ndarray, small: np.ndarray, pack: EnigmaPack,
          settings: ReaderSettings,
          geo: TableGeometry, fit: PlaneFit, table: _Straightened, start_tile: Tile | None,
          placed: Collection[Pos] | None, previous: TableMemory | None,
          started: tuple[float, float]) -> EnigmaRead | None:
    """The read after the markers: the picture checked, the start tile found, the squares
    found and the tiles read (see :func:`read_enigma`). None when a local read finds the
    start tile moved off its place (the table was pushed): the whole table is read then."""
    t0, cpu0 = started
    p = settings.px_per_tile
    canon, plane_to_canon, seen, margin = (table.canon, table.plane_to_canon, table.seen,
                                           table.margin)
    gray = _grey(canon, table.boxes)
    t1 = time.perf_counter()
    sx, sy, score = find_start(gray, pack, p, settings)
    if previous is not None and max(abs(sx - previous.start[0]),
                                    abs(sy - previous.start[1])) > START_SLACK_PX:
        return None
    # with nothing to look at again, the picture is checked round the start tile
    region = None if table.look is None else _looked_at(table.look or {(0, 0)}, (sx, sy), p,
                                                         fit, plane_to_canon)
    quality, middle = _picture_quality(frame, grey, fit, geo, settings, region,
                                       _middle_unchanged(previous, table))
    factor = confidence_factor(quality)
    _refuse_blurred(gray, (sx, sy), settings)
    balanced = _balanced(table, (sx, sy), pack, p, geo)
    # which squares hold tiles is told against the players' own table; the tiles' faces are
    # read against the pack, whose channels a dark table's colour would take for table
    table_colour = (measured_table_colour(balanced, geo, plane_to_canon, seen, pack)
                    if table.look is None or previous is None else previous.table_colour)
    on_this_table = with_table_colour(pack, table_colour)
    misfit = start_face_misfit(balanced, (sx, sy), pack, p)
    pack_fits = misfit < PACK_FIT_LIMIT
    if not pack_fits:
        factor *= MISFIT_CONFIDENCE_FACTOR
    h, w = canon.shape[:2]
    found = see_squares(
        balanced, (sx, sy), on_this_table, p, marker_zones(geo, plane_to_canon), settings,
        seen=seen, area=(margin, margin, w - margin, h - margin),
        only=None if table.look is None else _around(table.look, 0),
        sampled=None if table.lazy is None else table.lazy.sampled(COVER_STEP),
    )
    if table.look is not None and previous is not None:
        found = _with_remembered(found, table.look, previous, (sx, sy), p)
    squares, edge_notes = found.squares, found.notes
    questions = found.questions
    t2, cpu2 = time.perf_counter(), time.process_time()
    cut = (table.lazy.cut if table.lazy is not None
           else lambda size, xy: cv2.getRectSubPix(balanced, (size, size), xy))
    tiles, nets = _read_tiles(cut, squares, (sx, sy, score), pack, settings, start_tile,
                              None if placed is None else new_and_beside(squares, placed))
    tiles = mirrored_openings(tiles, settings)
    _mark_edges(tiles, edge_notes)
    tiles, nets = _scaled(tiles, nets, factor)
    if not pack_fits:
        questions.insert(0, _misfit_question(misfit))
    questions.extend(_questions(tiles, nets, settings, squares, set(placed or ())))
    t3 = time.perf_counter()
    timings = _timings((t0, t1, t2, t3), (cpu0, cpu2))
    edges = tuple(sorted({(n.kind, n.side) for n in edge_notes}))
    memory = TableMemory(pack, settings, geo, frame.shape, fit, plane_to_canon,
                         (sx, sy, score), table_colour, found, small, middle)
    return EnigmaRead(tiles, nets, questions, fit, timings, pack_fits, table_edges=edges,
                      memory=memory,
                      looked_at=None if table.look is None else frozenset(table.look))


def _middle_unchanged(previous: TableMemory | None, table: _Straightened
                      ) -> PictureMeasures | None:
    """Round the middle the picture is as the last read measured it, unless it changed there:
    the last read's measure, or None to measure it again."""
    if previous is None or table.changed is None:
        return None
    if all(max(abs(i), abs(j)) > START_REACH_SQUARES for i, j in table.changed):
        return previous.middle_picture
    return None


def _balanced(table: _Straightened, start_xy: tuple[float, float], pack: EnigmaPack, p: int,
              geo: TableGeometry) -> np.ndarray:
    """The straightened table with its light evened by the start tile's own gains: only the
    boxes a local read looks at when the table is made lazily."""
    if table.lazy is None:
        return balance(table.canon, start_xy, pack, p, boxes=table.boxes)
    table.lazy.balance(start_gains(table.canon, start_xy, pack, p))
    for box in ring_boxes(geo, table.plane_to_canon):
        table.lazy.make(*box)
    return table.lazy.canon


def _misfit_question(misfit: float) -> str:
    return (f"the tiles do not look like the ones the camera was taught (the start tile's "
            f"colours are {misfit:.0f} off the pack's): teach them, or check the light")


def _timings(marks: tuple[float, float, float, float], cpu: tuple[float, float]
             ) -> dict[str, float]:
    """Wall times of the read's stages from its four marks, and the CPU time of the tiles and
    of the whole read: what the reader costs, whatever else the machine runs."""
    t0, t1, t2, t3 = marks
    cpu0, cpu2 = cpu
    return {"locate": (t1 - t0) * 1000, "grid": (t2 - t1) * 1000,
            "tiles": (t3 - t2) * 1000, "total": (t3 - t0) * 1000,
            "tiles_cpu": (time.process_time() - cpu2) * 1000,
            "total_cpu": (time.process_time() - cpu0) * 1000}



def _grey(canon: np.ndarray, boxes: list[tuple[int, int, int, int]] | None) -> np.ndarray:
    """The straightened image in grey: all of it, or the ``boxes`` straightened only."""
    if boxes is None:
        whole: np.ndarray = cv2.cvtColor(canon, cv2.COLOR_BGR2GRAY)
        return whole
    grey = np.zeros(canon.shape[:2], np.uint8)
    for x0, y0, x1, y1 in clipped_boxes(boxes, canon.shape):
        grey[y0:y1, x0:x1] = cv2.cvtColor(canon[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    return grey


def _around(squares: set[Pos], corners: int) -> set[Pos]:
    """``squares`` and their four neighbours; with ``corners``, their eight."""
    steps = [(di, dj) for di in (-1, 0, 1) for dj in (-1, 0, 1)
             if corners or abs(di) + abs(dj) <= 1]
    return {(i + di, j + dj) for i, j in squares for di, dj in steps}


def _row_boxes(squares: set[Pos], start: tuple[float, float, float], p: int
               ) -> list[tuple[int, int, int, int]]:
    """The straightened pixels of the ``squares`` (a tile side each, and the start tile's
    slack and two pixels more round them), as one box per run of squares along a row: a few
    warps, none overlapping much."""
    sx, sy, _score = start
    pad = START_SLACK_PX + 2
    boxes = []
    for j in sorted({j for _, j in squares}):
        row = sorted(i for i, jj in squares if jj == j)
        first = row[0]
        for k, i in enumerate(row):
            if k + 1 == len(row) or row[k + 1] != i + 1:
                boxes.append((int(sx + (first - 0.5) * p) - pad, int(sy + (j - 0.5) * p) - pad,
                              int(sx + (i + 0.5) * p) + pad + 1,
                              int(sy + (j + 0.5) * p) + pad + 1))
                if k + 1 < len(row):
                    first = row[k + 1]
    return boxes


def _with_remembered(found: SquaresSeen, look: set[Pos], previous: TableMemory,
                     start_xy: tuple[float, float], p: int) -> SquaresSeen:
    """What was seen of the ``look`` squares (their neighbours were looked at only to tell
    where the table goes on), and what the last read saw of the others."""
    sx, sy = start_xy
    before = previous.found
    squares = {at: (sx + at[0] * p, sy + at[1] * p) for at in before.squares if at not in look}
    squares.update({at: xy for at, xy in found.squares.items() if at in look})
    asked = sorted([q for q in before.asked if q[0] not in look]
                   + [q for q in found.asked if q[0] in look], key=lambda q: (q[0][1], q[0][0]))
    notes = ([n for n in before.notes if n.at not in look]
             + [n for n in found.notes if n.at in look])
    return SquaresSeen(squares, asked, notes)


def _looked_at(look: set[Pos], start_xy: tuple[float, float], p: int, fit: PlaneFit,
               plane_to_canon: np.ndarray) -> np.ndarray:
    """The box round the ``look`` squares, in the frame (image points): where the picture
    of a read after a placement is checked."""
    sx, sy = start_xy
    xs = [sx + i * p for i, _ in look]
    ys = [sy + j * p for _, j in look]
    box = np.array([[[min(xs) - p / 2, min(ys) - p / 2], [max(xs) + p / 2, min(ys) - p / 2],
                     [max(xs) + p / 2, max(ys) + p / 2], [min(xs) - p / 2, max(ys) + p / 2]]],
                   np.float64)
    canon_to_image = fit.plane_to_image @ np.linalg.inv(plane_to_canon)
    outline: np.ndarray = cv2.perspectiveTransform(box, canon_to_image)[0]
    return outline
