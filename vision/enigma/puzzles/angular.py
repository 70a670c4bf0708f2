"""The angular puzzle seen by the camera: the structure's top view against the card's picture."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import cv2
import numpy as np

from companion.enigma import puzzle_angular as angular
from companion.enigma.puzzles import PuzzleBox
from vision.enigma.mat import (
    CARD_PX_PER_MM,
    MAT_PX_PER_MM,
)
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.angular_cloth import local_table, piece_not_table
from vision.enigma.puzzles.angular_light import (
    apart_of_piece_colours,
    fewer_of_table_colours,
    grown_by,
    of_table_pattern,
    pieces_unseen,
    table_as_piece,
    table_like_colours,
    table_pattern,
)
from vision.enigma.puzzles.angular_tall import (
    ASK_STRAIGHT,
    TallReader,
    grid_angle,
    structure_crop,
)
from vision.enigma.puzzles.cards import (
    picture_cell_mm,
)
from vision.enigma.puzzles.marks import box_mark, mask_marks
from vision.enigma.puzzles.verdicts import Mark, MarkKind, Reason
from vision.enigma.puzzles.view import (
    CANNOT_TELL,
    NOT_SOLVED,
    SOLVED,
    CardView,
    mat_features,
    nearest_colour,
    open_mask,
    table_colour,
    verdict,
)
from vision.enigma.settings import PuzzleSettings
from vision.warp import warp_affine


def _grid_colours(image: np.ndarray, mask: np.ndarray, cell: float, pack: EnigmaPack,
                  background: Mapping[str, Any], table_like: tuple[str, ...] = ()
                  ) -> tuple[tuple[str, ...] | None, str]:
    """Read a top view: straighten the coloured region, divide it into cells, name each.
    Pixels of a ``table_like`` colour outside ``mask`` (the region, told from the table by
    the table beside it) count as table."""
    if not mask.any():
        return None, "nothing built"
    image, mask, centre, _ = structure_crop(image, mask)
    m = cv2.getRotationMatrix2D(centre, grid_angle(mask), 1.0)
    h, w = mask.shape
    straight = warp_affine(image, m, (w, h))
    smask = warp_affine(mask.astype(np.uint8), m, (w, h), nearest=True) > 0
    ys, xs = np.nonzero(smask)
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    cols_f, rows_f = (x1 - x0) / cell, (y1 - y0) / cell
    cols, rows = int(round(cols_f)), int(round(rows_f))
    if cols < 1 or rows < 1 or abs(cols_f - cols) > 0.3 or abs(rows_f - rows) > 0.3:
        return None, (f"the structure does not fit a grid of cubes ({cols_f:.1f} x "
                      f"{rows_f:.1f}): set it square on the mat, in even light, and check again")
    colours = {**{k: v for k, v in pack.angular.items()}, **background}
    labels, names = nearest_colour(straight, colours)
    if table_like:
        outside = ~smask & np.isin(labels, [names.index(k) for k in table_like])
        labels[outside] = names.index(next(iter(background)))
    rows_out = []
    for r in range(rows):
        row = ""
        for c in range(cols):
            ya, yb = int(y0 + (r + 0.25) * cell), int(y0 + (r + 0.75) * cell)
            xa, xb = int(x0 + (c + 0.25) * cell), int(x0 + (c + 0.75) * cell)
            top, n, total = cell_vote(labels[ya:yb, xa:xb], names)
            if n < 0.6 * max(1, total):
                return None, (f"the colour of column {c + 1}, row {r + 1} is unclear: light "
                              "the structure evenly, and check again")
            row += top if top in pack.angular else angular.EMPTY
        rows_out.append(row)
    return tuple(rows_out), ""


def cell_vote(cell: np.ndarray, names: list[str]) -> tuple[str, int, int]:
    """The colour most of a cell's ``labels`` name, its count and the cell's pixels: what
    ``Counter`` of the names gives (a tie goes to the name seen first; a tie is no 60%
    majority either way), counted by ``np.bincount`` rather than pixel by pixel in Python
    (the votes were 12 ms of an angular check)."""
    flat = cell.ravel()
    if flat.size == 0:  # as Counter(...).most_common(1)[0] of nothing
        raise IndexError("a cell of no pixels")
    counts = np.bincount(flat, minlength=len(names))
    n = int(counts.max())
    tied = np.flatnonzero(counts == n)
    top = int(tied[0]) if len(tied) == 1 else int(flat[np.isin(flat, tied)][0])
    return names[top], n, int(flat.size)


#: the largest picture (squares a side) looked for on a card
MAX_PICTURE = 8


def _read_picture(view: CardView, pack: EnigmaPack) -> tuple[str, ...] | None:
    """The card's picture read from its coloured squares: the first grid size whose read
    spans the whole grid; None when none does."""
    inside = view.inside_card()
    labels, names = nearest_colour(view.image, {**pack.angular, "card": pack.colour("card"),
                                                "ink": pack.colour("ink")})
    coloured = np.isin(labels, [names.index(k) for k in pack.angular]) & inside
    coloured = open_mask(coloured, 2)
    for n in range(1, MAX_PICTURE + 1):
        cell_mm = picture_cell_mm(["." * n] * n, pack.tile_mm)
        top, _ = _grid_colours(view.image, coloured, cell_mm * CARD_PX_PER_MM, pack,
                               {"card": pack.colour("card"), "ink": pack.colour("ink")})
        if top is not None and max(len(top), len(top[0])) == n:
            return top
    return None


def _building_area(view: CardView, pack: EnigmaPack) -> np.ndarray:
    """The mat where a structure is built: all of it but the card and the markers."""
    area = np.ones(view.mat.shape[:2], bool)
    cx, cy = view.card_centre_mat
    r = pack.tile_mm * MAT_PX_PER_MM * 0.8
    area[max(0, int(cy - r)):int(cy + r), max(0, int(cx - r)):int(cx + r)] = False
    for mx, my in view.marker_centres:
        half = view.marker_px
        area[max(0, int(my - half)):int(my + half), max(0, int(mx - half)):int(mx + half)] = False
    return area


def _building_blobs(view: CardView, pack: EnigmaPack, cube: float, area: np.ndarray,
                    table: tuple[int, int, int]) -> tuple[list[int], np.ndarray, np.ndarray]:
    """The structures built on the mat (blobs of the angular colours at least half a cube's
    face, away from the card and the markers, ``table`` the table's colour): the blob ids,
    the label image and stats."""
    labels, names = nearest_colour(view.mat, {**pack.angular,
                                              "table": table,
                                              "card": pack.colour("card"),
                                              "white": (250, 250, 250), "black": (20, 20, 20)},
                                   features=mat_features(view))
    coloured = np.isin(labels, [names.index(k) for k in pack.angular])
    like = table_like_colours(table, pack)
    if like:
        coloured &= ~_cloth_of_piece_colour(view.mat, labels, names, like, table, cube, pack)
    coloured &= area
    k = max(3, int(0.15 * cube)) | 1
    closed = cv2.morphologyEx(coloured.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((k, k),
                                                                                   np.uint8))
    closed = open_mask(closed.astype(bool), max(1, int(0.2 * cube))).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
    blobs = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] > 0.5 * cube * cube]
    return blobs, lab, stats


def _cloth_of_piece_colour(mat: np.ndarray, labels: np.ndarray, names: list[str],
                           like: list[str], table: tuple[int, int, int], cube: float,
                           pack: EnigmaPack) -> np.ndarray:
    """The pixels of a table-like piece colour (``like``) that the table beside them,
    under the same light, explains better than the piece does."""
    tableish = np.isin(labels, [names.index(k) for k in ("table", *like)])
    field = local_table(mat, tableish, cube)
    # a camera's noise moves single pixels of cloth across the line: judged on the mean of
    # a fifth of a cube round each
    k = max(3, int(0.2 * cube)) | 1
    smooth = cv2.blur(mat, (k, k))
    cloth = np.zeros(labels.shape, bool)
    for name in like:
        candidates = labels == names.index(name)
        cloth |= candidates & ~piece_not_table(smooth, candidates, pack.angular[name], table,
                                               field)
    return cloth


#: a piece left apart lies at least this many cubes from the structure: nearer, the seam
#: between two touching pieces may be what the camera lost (defocus blends a red and a green
#: cube into the wood's brown)
APART_MIN_CUBES = 0.5


def _apart_but_close(lab: np.ndarray, main: int, blobs: list[int], cube: float) -> bool:
    """Whether a blob apart from the main structure lies within APART_MIN_CUBES of it."""
    to_main = cv2.distanceTransform((lab != main).astype(np.uint8), cv2.DIST_L2, 3)
    return any(float(to_main[lab == i].min()) < APART_MIN_CUBES * cube
               for i in blobs if i != main)


#: a blob whose surroundings (from a tenth to half a cube out) are card paper in at least
#: this share lies on a card: the card's own printed picture. On a pale table the card may be
#: found over the table beside it (independent scenes, painted wood, tuning seeds 0 mild and
#: 4 moderate): its picture was then left in the building area and read as a piece set apart
#: from a right structure ("not solved")
ON_PAPER_SHARE = 0.5
#: the weight of chromaticity against brightness when paper is told from the table
PAPER_CHROMA_WEIGHT = 0.3


def _on_card_paper(view: CardView, pack: EnigmaPack, blob: np.ndarray, area: np.ndarray,
                   cube: float, table: tuple[int, int, int]) -> bool:
    """Whether the blob ``blob`` (a mask of the mat) lies on card paper, not on the table
    (judged in ``area``, the mat where one builds)."""
    near, far = grown_by(blob, (0.1 * cube, 0.5 * cube))
    x, y, w, h = cv2.boundingRect(far.view(np.uint8))
    box = (slice(y, y + h), slice(x, x + w))
    ring = (far & ~near)[box]
    if not ring.any():
        return False
    # paper and a pale table differ mostly in brightness (a cast moves their chromaticity)
    labels, names = nearest_colour(view.mat[box], {"card": pack.colour("card"), "table": table,
                                                   **pack.angular, "black": (20, 20, 20)},
                                   chroma_weight=PAPER_CHROMA_WEIGHT,
                                   features=mat_features(view)[box])
    # the paper's share of what round the blob is paper or table: the card's other printed
    # squares and its ink lines beside it, and the area left out round the card, tell nothing
    seen = labels[ring & area[box]]
    paper = int(np.sum(seen == names.index("card")))
    bare = paper + int(np.sum(seen == names.index("table")))
    return bare > 0 and paper >= ON_PAPER_SHARE * bare


#: with a piece of the table's colour in the box, a blob set apart within this many cubes of
#: the structure may be joined to it by that piece, seen as table (independent scenes, green
#: felt, tuning seed 0 moderate: the green cubes between the blue piece and the rest were read
#: as felt and a right structure was "not solved: a piece lies apart", 0.74 cubes apart); one
#: cube seen as table leaves a gap of at most a cube. Our renderer lays a piece apart 1.2 to
#: 3 cubes off (tuning cloth and wood, seeds 0-5): at 2 cubes those wrong builds were
#: "cannot tell"
BRIDGE_CUBES = 1.0


def _bridged_by_table_like(lab: np.ndarray, main: int, blobs: list[int], cube: float,
                           like: list[str]) -> bool:
    """Whether a table-like piece colour (``like``) may join a blob apart to the structure."""
    if not like:
        return False
    to_main = cv2.distanceTransform((lab != main).astype(np.uint8), cv2.DIST_L2, 3)
    return any(float(to_main[lab == i].min()) < BRIDGE_CUBES * cube
               for i in blobs if i != main)


def _larger_than_card(seen: tuple[str, ...], card: tuple[str, ...]) -> bool:
    """Whether the top view seen spans more columns or rows than the card's picture, either
    way round. Cubes are 12 mm tall: seen from a tilt, a column's top lies off its base
    along the tilt, a third of a cube and more a layer, and its sides fill the sweep between,
    so a structure's image grows along the tilt by a column or more, and the grid read over
    it is not its top view (independent scenes, tuning seed 4 moderate: a right 3 x 3
    structure three layers tall read as 3 x 4, "not solved"). A structure larger than the
    card is no solution either way, but the camera cannot tell which it sees."""
    rows, cols = len(angular.crop(seen)), max(len(r) for r in angular.crop(seen))
    card_rows, card_cols = len(angular.crop(card)), max(len(r) for r in angular.crop(card))
    return not ((rows <= card_rows and cols <= card_cols) or
                (rows <= card_cols and cols <= card_rows))


def _differs(seen: tuple[str, ...], card: tuple[str, ...], built: tuple[Mark, ...]
             ) -> dict[str, str]:
    """The verdict on a top view ``seen`` that is not the card's picture: "not solved", or
    "cannot tell" where it is larger than the picture (:func:`_larger_than_card`)."""
    shown = "/".join(angular.crop(seen))
    if _larger_than_card(seen, card):
        return verdict(CANNOT_TELL, f"seen from above it shows {shown}, larger than the "
                       "card's picture (cubes seen from the side?): hold the camera "
                       "straight above the structure, and check again",
                       code=Reason.STRUCTURE_UNCLEAR, marks=built)
    return verdict(NOT_SOLVED, f"seen from above it shows {shown}, the card shows "
                   f"{'/'.join(angular.crop(card))}", code=Reason.PICTURE_DIFFERS,
                   facts={"seen": angular.crop(seen), "card": angular.crop(card)},
                   marks=built)


def _top_view(view: CardView, pack: EnigmaPack, structure: np.ndarray, cube: float,
              table: tuple[int, int, int], card: tuple[str, ...], allow_mirror: bool
              ) -> tuple[tuple[str, ...] | None, str, bool]:
    """The structure's top view, whether it may rest on which column hides which, and why
    there is none. Read first as one grid over the whole region (a flat top view, or cubes
    seen nearly straight down), as before session 27; where that does not show the card's
    picture and the camera's pose is known, read on the columns' lit tops at their own
    heights (:mod:`vision.enigma.puzzles.angular_tall`), unless every top was found on the
    table (a flat structure: its reading stands)."""
    seen, why = _grid_colours(view.mat, structure, cube, pack, {"table": table},
                              tuple(table_like_colours(table, pack)))
    if seen is not None and angular.picture_matches(seen, card, allow_mirror=allow_mirror):
        return seen, why, False
    if view.frame_to_mat is not None and view.frame_size is not None:
        reader = TallReader(view.mat, structure, cube, pack, {"table": table},
                            np.linalg.inv(view.frame_to_mat), view.frame_size)
        tall = reader.read()
        asks = tall.top is None or (tall.overlapped and not angular.picture_matches(
            tall.top, card, allow_mirror=allow_mirror))
        if asks and not tall.flat:
            # its fits bettered column by column: a few times the time, for a read that asks
            tall = reader.read(thorough=True)
        if not tall.flat:
            return tall.top, tall.why, tall.overlapped
    return seen, why, False


def _card_read(view: CardView, pack: EnigmaPack) -> angular.AngularCard | None:
    """The card whose picture is read from the frame; None when it cannot be read."""
    best_top = _read_picture(view, pack)
    return None if best_top is None else angular.AngularCard("read", best_top)


def _structure_blobs(view: CardView, pack: EnigmaPack, cube: float, area: np.ndarray,
                     table: tuple[int, int, int]
                     ) -> tuple[list[int], int, np.ndarray, np.ndarray] | None:
    """The pieces' blobs beside the card (none on the card's paper), the structure among
    them (the largest), their labels and stats; None when nothing is built. A checked
    cloth's checks of a piece's colour lie all round the structure, some close to it: they
    are table, neither a piece set apart nor one that may be part of the structure, and are
    left out (:func:`~vision.enigma.puzzles.angular_light.of_table_pattern`)."""
    blobs, lab, stats = _building_blobs(view, pack, cube, area, table)
    blobs = [i for i in blobs if not _on_card_paper(view, pack, lab == i, area, cube, table)]
    if not blobs:
        return None
    main = max(blobs, key=lambda i: stats[i, cv2.CC_STAT_AREA])
    pattern = table_pattern(view, pack, table)
    checks = set(of_table_pattern(view, pack, lab, [i for i in blobs if i != main], pattern))
    return [i for i in blobs if i not in checks], main, lab, stats


def check_angular(view: CardView, pack: EnigmaPack, card: angular.AngularCard | None,
                  box: PuzzleBox, st: PuzzleSettings) -> dict[str, str]:
    """The angular verdict: the structure's top view beside the card against the card's
    picture (entered, or read from the card), up to rotation."""
    piece_ids = [p.id for p in box.angular.pieces]
    card = card if card is not None else _card_read(view, pack)
    if card is None:
        return verdict(CANNOT_TELL, "the card's picture could not be read: enter the card",
                       code=Reason.CARD_UNREAD)
    cube = float(pack.sizes["cube_mm"]) * MAT_PX_PER_MM
    area = _building_area(view, pack)
    # measured once: the rings round the markers cost about 7 ms of CPU a time, and the
    # blobs, the top view and the doubts about the light all ask for the same colour
    table = table_colour(view, pack)
    found = _structure_blobs(view, pack, cube, area, table)
    if found is None:
        return verdict(NOT_SOLVED, "no structure is built beside the card",
                       code=Reason.NOTHING_BUILT)
    blobs, main, lab, stats = found
    built = mask_marks(lab == main, MarkKind.STRUCTURE, space="mat")
    unclear = verdict(CANNOT_TELL, "in this light the pieces cannot be told from the table: "
                      "light it evenly, or build on a surface of another colour",
                      code=Reason.PIECES_LIKE_TABLE, marks=built)
    if table_as_piece(stats, blobs, cube, box):
        return unclear
    if len(blobs) > 1:
        if pieces_unseen(view, area, np.isin(lab, blobs), cube):
            return unclear
        if _apart_but_close(lab, main, blobs, cube):
            return verdict(CANNOT_TELL, "a piece lies so close to the structure that it may be "
                           "part of it: move it away, or set it on the structure, and check "
                           "again", code=Reason.STRUCTURE_UNCLEAR, marks=built)
        if _bridged_by_table_like(lab, main, blobs, cube, table_like_colours(table, pack)):
            return unclear
        apart = apart_of_piece_colours(view, pack, lab, [i for i in blobs if i != main],
                                       table)
        if not apart:
            return unclear
        return verdict(NOT_SOLVED, "a piece lies apart from the structure: all four pieces "
                       "must be used, none left on the table", code=Reason.PIECE_APART,
                       facts={"apart": len(apart)},
                       marks=built + tuple(box_mark(stats[i], MarkKind.PIECE, space="mat")
                                           for i in apart))
    seen, why, overlapped = _top_view(view, pack, lab == main, cube, table, card.top,
                                      box.angular.allow_mirror)
    if seen is None:
        return verdict(CANNOT_TELL, why, code=Reason.STRUCTURE_UNCLEAR, marks=built)
    shown = "/".join(angular.crop(seen))
    if not angular.picture_matches(seen, card.top, allow_mirror=box.angular.allow_mirror):
        if pieces_unseen(view, area, lab == main, cube) or \
                fewer_of_table_colours(seen, card.top, table_like_colours(table, pack)):
            return unclear
        if overlapped:
            return verdict(CANNOT_TELL, ASK_STRAIGHT, code=Reason.STRUCTURE_UNCLEAR, marks=built)
        return _differs(seen, card.top, built)
    hidden = [p for p in piece_ids if not any(p in row for row in seen)]
    if hidden:
        return verdict(CANNOT_TELL, f"the top view matches, but piece(s) {', '.join(hidden)} "
                       "cannot be seen from above: the players confirm they are used",
                       code=Reason.PIECES_HIDDEN, facts={"hidden": len(hidden)}, marks=built)
    return verdict(SOLVED, f"seen from above it shows {shown}, as the card; the players "
                   "confirm that every piece stands on the table or on another piece",
                   code=Reason.MATCHES, marks=built)


__all__ = ["cell_vote", "check_angular"]
