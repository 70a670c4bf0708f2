"""Enigma reader, the networkers on one tile: a pawn in a player colour standing on a power
cell (:func:`read_networkers`). See :mod:`vision.enigma.tile`.

A pawn is small (about 4 px of radius at 64 px a tile) and the camera blurs its edge into the
cell's ring, so pixel labels alone lose dark and pale pawns (a black pawn's middle looks like
any dark ink, a white one like the tile). The judgement is therefore made where a pawn can
stand: in the middle of each cell, the mean colour of a small core disc is compared with the
cell's own colour and each player colour, at the place within the cell that suits a pawn
best. A pale pawn, or one seen off its cell's middle as read, must stand inside a ring unlike
bare tile. Blobs of player-coloured pixels, and places whose middle is a player colour inside
such a ring all round, say where pawns stand whose cell was read off or not at all.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.enigma.cells import (
    Cell,
    disc,
    discs_overlap,
    fills_its_disc,
    margin_conf,
    member_mask,
)
from vision.enigma.channel_rims import is_rim_colour
from vision.enigma.colours import ColourModel
from vision.enigma.pack import EnigmaPack
from vision.enigma.patch_labels import inner_part
from vision.enigma.pawn_patch import (
    RING_FROM_TILE,
    UNKNOWN_FROM,
    PawnPatch,
    judge_pawn,
    look_at,
    lowest_within,
    pawn_ring,
    ring_colour,
    search_window,
)
from vision.enigma.pawn_rim import CRESCENT_LEAD, CRESCENT_MIN_PX, cell_on_tile, rim_colour
from vision.enigma.read_types import PAWN_MIN_AREA
from vision.enigma.ring_blend import clear_ring_cell, ring_shows_cell
from vision.enigma.ring_fit import side_ring_cell
from vision.enigma.ring_places import ring_places
from vision.enigma.small_stats import clip01

#: a cell found only from the ring around a pawn (the cell finder missed it) is never trusted
HIDDEN_CELL_CONFIDENCE = 0.6
#: the question a cell read under a pawn and never trusted leaves
HIDDEN_CELL_PROBLEM = "a cell hidden by a networker was read from the ring around it"
#: two cells nearer than this (cell radii) are one cell split by the pawn on it (cells are
#: drawn at least 3.3 cell radii apart)
SAME_CELL = 1.4
#: a pawn's middle nearer its colour than bare tile by this margin needs no ring around it
PALE_MARGIN = 0.5
#: the least share of the ring around a pale (or off-middle) pawn unlike bare tile: a cell's
#: ring (pawns on cells show 0.7 and more, tile seen through a misread cell 0.5 and less)
RING_SHARE = 0.55
#: the colour distance of a pawn core's mean to its colour, at most (a place to look at)
CORE_NEAR = 12.0
#: round a standing pawn (within this many cell radii), pixels unlike bare tile as many as
#: this share of a cell's ring round a pawn say a cell lies under it
PARTLY_RINGED_REACH = 1.6
PARTLY_RINGED_SHARE = 0.5
#: round a pale blob, within this many pawn radii, pixels named the tile's dark edge or the
#: table (kinds "edge" and "table"), away from the patch's sides, as many as this share of
#: that ring say a pawn stands there: its own dark rim and its cell's ring, blurred darker
#: than tile. Tuning independent tables 6021 harsh at 30-45 tiles, [-1, 1] (a white pawn
#: on a yellow cell, both lost, read sure; 92 of 142 pixels) and 5019 harsh, [1, 0] (asked
#: for other doubts; 76): pale blobs that are bare tile or an icon's core, on harsh 5000-5025
#: and 6000-6030 (scratch bcensus.py), show 18 and fewer
DARK_RIM_REACH = 1.8
DARK_RIM_SHARE = 1 / 3
#: a hole in what is unlike bare tile, between these many pawn discs in area (after a
#: closing that mends a ring a blur broke), is a pale pawn on a cell; a category icon's
#: hole is smaller
PAWN_HOLE = (0.8, 2.5)
_HOLE_CLOSE = np.ones((5, 5), np.uint8)
#: ... and holds at least this many pixels of a player colour (a pawn's middle)
PAWN_IN_HOLE_PX = 4
#: in dim light a pale pawn where channels meet passes for bare tile and its cell's thin ring
#: for channel, and the channels arc over it without closing round it (independent table
#: 8002 harsh, underexposed 0.3, square [1, 0]: a white pawn on a red cell where four
#: channels meet, read as a bare junction, sure): a spot of a player colour paler than tile,
#: as large as the least pawn blob (PAWN_MIN_AREA of a pawn's disc: 22 px there; the pale
#: specks of bare tile in channels' crooks on harsh 5000-5039 hold 4-7), inside a ring unlike
#: bare tile on all eighths of it but this many (the channel that leaves the cell opens one
#: or two) is asked about
POCKET_OPEN_PARTS = 2
SURE_PAWN = 0.85  # a pawn read on a cell this sure stands there (the app's least confidence)
#: a blob or place nearer a cell's centre than this (cell radii) is that cell's pawn
NEAR_PAWN = 0.8
#: a second player colour whose core lies this near its colour (mean colour distance) within
#: a cell's search, beside the pawn judged there, makes that pawn doubted (the packs' pawns
#: lie within 7 of their colour; tuning independent harsh 5040-5069, 25020-25049 and clean
#: 0-29, every pawn judged at a cell's middle: read right, the second colour 8.8 and
#: farther; the one read wrong and sure, 3.7)
RIVAL_CORE = 6.0
#: a pawn-like place within this (cell radii) of a cell is that cell's pawn's blurred rim
BESIDE_CELL = 2.0
#: a part-pawn blob judged with less confidence where no cell was read is only asked about
FAINT_PAWN = 0.5
#: the confidence such a question leaves
FAINT_PAWN_CONFIDENCE = 0.3
#: a pawn standing tall where no cell was read covers its cell but for a thin crescent of
#: the cell's colour beside it (tuning independent tables 4 and 6 clean: white pawns on
#: yellow cells, only their crescents showing): pixels of one cell colour between the
#: pawn's middle and this many cell radii round it, at least :data:`~vision.enigma.pawn_rim.
#: CRESCENT_MIN_PX` of them, and :data:`~vision.enigma.pawn_rim.CRESCENT_LEAD` times more
#: than of any other cell colour
CRESCENT_REACH = 1.4
#: a pale pawn may leave neither a blob of its colour nor a ring all round: a crescent of
#: one cell colour away from every cell read is the only sign of its cell (tuning
#: independent table 5027 harsh, square [2, 0]: a white pawn on a blue cell, the ring open
#: where a channel meets it, read sure with the cell and its pawn lost). The pawn's place is
#: where the most of a ring round it is unlike bare tile, within this many cell radii of
#: the crescent's middle ...
CRESCENT_SEARCH = 1.2
#: ... with at least this share of that ring unlike bare tile (a crescent of a cell covers
#: more than half of it)
CRESCENT_RING_SHARE = 0.45


def tile_can_pass_for(model: ColourModel, net: int, within: float = UNKNOWN_FROM) -> bool:
    """Whether bare tile, lit a little differently, can pass for pawn colour ``net`` (a
    white pawn on a pale tile: their colours lie nearer than a core's doubt, or than
    ``within``)."""
    return min(float(np.linalg.norm(model.centres[net] - model.centres[i]))
               for i, kind in enumerate(model.kinds) if kind == "tile") < within


def signs_of_a_cell(all_labels: np.ndarray, model: ColourModel) -> np.ndarray:
    """Where ``all_labels`` (networkers in) name a colour only a cell or a pawn shows: a
    player colour bare tile cannot pass for (:func:`tile_can_pass_for`), or a cell colour no
    channel's blurred rim takes (:func:`is_rim_colour`). Networkers stand only on cells, and
    neither tile art, a glint of light nor a channel's rim shows such a colour."""
    ids = [i for i, kind in enumerate(model.kinds)
           if kind == "net" and not tile_can_pass_for(model, i)
           or kind == "cell" and not is_rim_colour(model, i)]
    if not ids:
        return np.zeros(all_labels.shape, bool)
    return member_mask(all_labels, ids)


def _tile_like(s: PawnPatch, at: tuple[float, float]) -> bool:
    """Whether the core at ``at`` may be bare tile: nearer tile than any player colour, or
    nearest a player colour that bare tile can pass for."""
    x, y = int(round(at[0])), int(round(at[1]))
    net = min(s.net_ids, key=lambda i: float(s.maps[i][y, x]))
    d_tile = min(float(s.maps[i][y, x]) for i in s.tile_classes)
    return d_tile < float(s.maps[net][y, x]) or tile_can_pass_for(s.model, net)


def _partly_ringed(s: PawnPatch, at: tuple[float, float], cells: list[Cell],
                   art: tuple[str, ...] = ("channel",)) -> bool:
    """Whether round a pawn-sized blob at ``at`` lie as many pixels of neither bare tile nor
    the ``art`` kinds (channel) as half a cell's ring, the other ``cells``' own rims left
    out: a pawn standing tall, seen from the side, covers its cell but for an arc, and a
    pale one's blurred rim may take the rest of the ring for its own colour. A pale spot of
    bare tile has tile and channels round it."""
    zone = disc((s.p, s.p), at, s.rc * PARTLY_RINGED_REACH) & ~disc((s.p, s.p), at, s.rn)
    for c in cells:
        zone &= ~disc((s.p, s.p), c.centre, s.rc * PARTLY_RINGED_REACH)
    art_d = np.min([np.sqrt(((s.feats[zone] - s.model.centres[i]) ** 2).sum(axis=-1))
                    for i, kind in enumerate(s.model.kinds) if kind in art], axis=0)
    arc = int((s.ringed[zone] & (art_d > RING_FROM_TILE)).sum())
    return arc >= PARTLY_RINGED_SHARE * math.pi * (s.rc**2 - s.rn**2)


def _pale(s: PawnPatch, net: int, at: tuple[float, float]) -> bool:
    """Whether the core at ``at`` looks about as much like bare tile as like player colour
    ``net`` (a white pawn, or tile seen through a cell that is not one)."""
    x, y = int(round(at[0])), int(round(at[1]))
    d_net = float(s.maps[net][y, x])
    d_tile = min(float(s.maps[i][y, x]) for i in s.tile_classes)
    return d_tile < d_net or margin_conf(d_net * d_net, d_tile * d_tile) < PALE_MARGIN


def _ring_check(s: PawnPatch, net: int, net_conf: float, at: tuple[float, float], far: bool,
                whole_cell: bool = True) -> tuple[str | None, float]:
    """A pawn whose middle looks about as much like bare tile as like its colour (a
    white pawn, or tile seen through a cell that is not one), or one seen off its cell's
    middle as read, stands only when a cell's ring is seen all around it; else it is
    doubted, not reported. ``whole_cell``: the cell beside a pawn seen off its middle fills
    its disc (:func:`~vision.enigma.cells.fills_its_disc`): an arc's middle lies on its
    ring, and the pawn beside it may be the one that hides the rest (tuning any-tile table
    7009 harsh, square [-2, -2])."""
    pale = _pale(s, net, at)
    if not (pale or far):
        return s.name(net), net_conf
    if far and (pale or tile_can_pass_for(s.model, net)):
        # the cell's middle shows its own colour, and off it lies a spot bare tile can pass
        # for: a patch of tile closed in by channels beside the cell, not a pawn (a pawn on
        # the cell would hide its middle). Only said sure when the cell is a whole disc: an
        # arc's middle lies on its ring, and the pawn may be the one that hides the rest
        return None, 1.0 if whole_cell else FAINT_PAWN_CONFIDENCE
    share = float(s.ringed[pawn_ring(s, at)].mean())
    if share >= RING_SHARE:
        return s.name(net), min(net_conf, clip01((share - 0.5) / 0.2))
    # no ring: tile seen through a cell that is not one, unless a ring was lost
    return None, clip01((RING_SHARE - share) / 0.25)


def _candidates(s: PawnPatch) -> list[tuple[tuple[float, float], bool]]:
    """Where pawns may stand: the blobs, and places whose middle is a player colour inside a
    ring unlike bare tile all round (a pale or dark pawn leaves no blob of player-coloured
    labels)."""
    net_near = np.min([s.maps[i] for i in s.net_ids], axis=0)
    spots = ((net_near < CORE_NEAR) & s.all_round).astype(np.uint8)
    n_s, s_lab = cv2.connectedComponents(spots, connectivity=8)
    candidates = list(s.blobs)
    for k in range(1, n_s):
        ys, xs = np.nonzero(s_lab == k)
        j = int(np.argmin(net_near[ys, xs]))
        spot = (float(xs[j]), float(ys[j]))
        if all(math.dist(spot, b) >= NEAR_PAWN * s.rc for b, _ in s.blobs):
            candidates.append((spot, False))
    return candidates


def _same_cell_groups(cells: list[Cell], rc: float) -> list[list[int]]:
    """One cell split by its pawn: cells closer than a cell is wide are grouped."""
    groups: list[list[int]] = []
    for n, c in enumerate(cells):
        for g in groups:
            if any(math.dist(c.centre, cells[m].centre) < SAME_CELL * rc for m in g):
                g.append(n)
                break
        else:
            groups.append([n])
    return groups


def _one_cell(s: PawnPatch, c: Cell, centres: list[tuple[float, float]],
              farther: list[tuple[float, float]]) -> Cell:
    """The pawn on one cell: judged at its middle (and the blobs within it); when it shows
    none, a pawn a little farther may stand on a cell whose middle was read off."""
    ci = s.model.index("cell", c.colour)
    blobs = {b for b, _ in s.blobs}
    best, net_conf, at = judge_pawn(s.maps, ci, s.net_ids, centres, s.search, s.all_round)
    net = None if best in s.cell_classes else s.name(best)
    if net is not None:
        # a pale core seen only at a ringed place beside the middle as read (no blob there)
        # is judged as a pawn seen off its cell's middle: bare tile in a channel's crook, a
        # pawn would hide the middle (tuning independent harsh 7080, [1, 2]: read a white
        # pawn, sure); a dark one there is the pawn of a cell of which a crescent was read
        off_middle = (all(math.dist(at, m) > max(s.search, 0.75) for m in [c.centre, *blobs])
                      and _pale(s, best, at))
        whole = not off_middle or fills_its_disc(s.labels, s.model, c, s.rc)
        net, net_conf = _ring_check(s, best, net_conf, at, far=off_middle, whole_cell=whole)
    if net is not None:
        net_conf = _rival_core(s, best, centres, net_conf)
    centre = c.centre
    for b in farther if net is None else []:
        b_best, b_conf, b_at = judge_pawn(s.maps, ci, s.net_ids, [b], s.search)
        if b_best in s.cell_classes:
            continue  # tile art beside the cell
        if not s.all_round[int(b_at[1]), int(b_at[0])]:
            if (b in blobs and not _pale(s, b_best, b_at)
                    and not tile_can_pass_for(s.model, b_best, CORE_NEAR)):
                # a pawn-sized blob whose core is clearly its player colour, not bare tile,
                # beside a cell of which only the arc beside it shows (a tall pawn seen from
                # the side, its body taken for channel ink): its pawn, doubted, never
                # dropped. Not a white one: a brighter spot of tile is as near white as a
                # pawn's core is to its colour, and shows as white blobs beside cells
                net, net_conf = s.name(b_best), min(b_conf, FAINT_PAWN_CONFIDENCE)
                break
            continue  # tile art beside the cell
        b_net, b_conf = _ring_check(s, b_best, b_conf, b_at, far=True,
                                    whole_cell=fills_its_disc(s.labels, s.model, c, s.rc))
        if b_net is not None:
            # the pawn stands in its cell's middle: the cell is where the pawn is
            net, net_conf, centre = b_net, b_conf, b_at
            break
        net_conf = min(net_conf, b_conf)
    colour, confidence = c.colour, c.confidence
    if net == c.colour:
        colour, unsure = rim_colour(s, centre, c.colour)
        confidence = min(confidence, HIDDEN_CELL_CONFIDENCE) if unsure else confidence
    return Cell(centre, colour, confidence, net, net_conf)


def _rival_core(s: PawnPatch, best: int, centres: list[tuple[float, float]], net_conf: float
                ) -> float:
    """The confidence of a pawn of colour ``best`` judged on a cell whose middle may lie near
    any of ``centres``: doubted when another player colour's core lies as near its colour
    within the same search (:data:`RIVAL_CORE`). One cell carries one pawn, so one of the two
    is something else, and the judgement cannot tell which: bare tile beside a cell passes
    for a white pawn's core (tuning independent table 25035 harsh, square [2, 0]: a black
    pawn read white and sure from the tile beside its cell, its tile asking nothing)."""
    rival = min(lowest_within(s.maps[i], c, s.search)[0]
                for i in s.net_ids if i != best for c in centres)
    if rival < RIVAL_CORE:
        return min(net_conf, FAINT_PAWN_CONFIDENCE)
    return net_conf


def _split_cell(s: PawnPatch, members: list[Cell], centres: list[tuple[float, float]]
                ) -> list[Cell]:
    """Several cells in one: only a pawn between them explains it; the cell is the ring
    around the pawn. Without a pawn, the cells as read (two cells that close are a misread
    the cell finder owns)."""
    votes = [judge_pawn(s.maps, s.model.index("cell", c.colour), s.net_ids, centres, s.search)
             for c in members]
    best, net_conf, at = max(votes, key=lambda v: v[1])
    if any(v[0] in s.cell_classes for v in votes) or best in s.cell_classes:
        return members
    colour_i, colour_conf = ring_colour(s, at)
    joined_conf = min([colour_conf, *(c.confidence for c in members)])
    return [Cell(at, s.name(colour_i), joined_conf, s.name(best), net_conf)]


def _ringed_place(s: PawnPatch, centre: tuple[float, float]) -> tuple[float, float]:
    """The place nearest ``centre``, within a pawn's search of it, with a ring all round
    (``centre`` itself when none is): a pawn's blob seen from the side has its middle
    pulled towards the pawn's side, off the pawn's foot that its cell's ring surrounds."""
    r, x0, x1, y0, y1 = search_window(s.p, centre, s.search)
    ys, xs = np.nonzero(s.all_round[y0:y1, x0:x1])
    if not len(xs):
        return centre
    d2 = (xs + x0 - centre[0]) ** 2 + (ys + y0 - centre[1]) ** 2
    k = int(np.argmin(d2))
    if d2[k] > r * r:
        return centre
    return float(xs[k] + x0), float(ys[k] + y0)


def _unringed_pawn(s: PawnPatch, centre: tuple[float, float], whole: bool, cells: list[Cell]
                   ) -> bool:
    """Whether a pawn-like blob with no ring all round is a pawn all the same: a standing
    pawn seen from the side covers most of its cell, whose colour only a sliver shows (tile
    art is never a pawn-sized blob of a player colour; a white one may be a pale spot of
    tile, but not one ringed by what is not tile, even when blur left only part of the pawn
    its colour: table 56 harsh, square [-1, 3]; nor by a category icon, as a pale spot in an
    icon's corner is: bench scene 16). Else it is bare tile beside it: tile art (networkers
    stand only on cells)."""
    return (whole and (not _tile_like(s, centre) or _partly_ringed(s, centre, cells))
            or _partly_ringed(s, centre, cells, ("channel", "icon"))
            or _dark_rimmed(s, centre))


def _dark_rimmed(s: PawnPatch, centre: tuple[float, float]) -> bool:
    """Whether a dark rim lies round a pale blob at ``centre`` (:data:`DARK_RIM_SHARE`):
    a white pawn whose cell's ring the blur took near tile's colour (so nothing round it is
    ringed) still has its own dark rim and that ring, darker than tile, round it; a pale spot
    of bare tile between channels has tile and channel round it, an icon's core the icon.
    The patch's outer margin is left out (:func:`~vision.enigma.patch_labels.inner_part`):
    there the tile's own edge and the table lie."""
    ring = disc((s.p, s.p), centre, s.rn * DARK_RIM_REACH) & ~disc((s.p, s.p), centre, s.rn)
    dark = s.model.kind_mask(s.labels, ("edge", "table")) & ring & inner_part(s.p)
    return int(dark.sum()) >= DARK_RIM_SHARE * int(ring.sum())


def _bare_tile_core(s: PawnPatch, net: int, colour_i: int, at: tuple[float, float],
                    pawn_here: bool) -> bool:
    """Whether a pawn of colour ``net`` that bare tile can pass for, judged at ``at`` on a
    hidden cell of colour ``colour_i``, is bare tile closed in by channels: its core nearer
    bare tile than that colour, and no pixel of the cell's colour round it, or a pawn sure on
    a cell of the tile already (``pawn_here``: the rules put one networker on a tile). Tuning
    clean independent tables 5, 13, 23, 28 read such patches as white pawns on cells of the
    channels' rim colour; white pawns on hidden cells nearer bare tile (any-tile harsh 0-15)
    show 3 pixels of their cell and more."""
    if not tile_can_pass_for(s.model, net):
        return False
    x, y = int(round(at[0])), int(round(at[1]))
    if min(float(s.maps[i][y, x]) for i in s.tile_classes) >= float(s.maps[net][y, x]):
        return False
    round_it = disc((s.p, s.p), at, CRESCENT_REACH * s.rc) & ~disc((s.p, s.p), at, s.rn)
    return pawn_here or not bool((round_it & (s.labels == colour_i)).any())


def _hidden_cell(s: PawnPatch, at: tuple[float, float], colour: tuple[int, float],
                 pawn: tuple[int, float], cells: list[Cell]) -> Cell:
    """The cell under a pawn at ``at`` where no cell was read: of ``colour`` (class, and
    the confidence its reading gave), carrying ``pawn`` (class, confidence). Given sure only
    when the ring round the pawn shows that one cell colour clearly, with the blur modelled
    (:func:`~vision.enigma.ring_blend.clear_ring_cell`), the pawn is sure, no rival player
    colour beside it and no other pawn sure on the tile among ``cells`` (the rules put one
    networker on a tile); else never trusted (:data:`HIDDEN_CELL_CONFIDENCE`), of the
    colour the ring shows clearly if it shows one. Tuning independent clean 0-19: 32 cells
    under pawns, their rings' colour plain, were all asked for being read from a ring."""
    (colour_i, colour_conf), (net, net_conf) = colour, pawn
    others = [c.centre for c in cells]
    shown = clear_ring_cell(s.feats, s.model, at, (s.rc, s.rn), net, others)
    middle = at
    if shown is None:
        # a ring to one side only: a pawn seen from the side, its cell placed by the arc
        side = side_ring_cell(s.feats, s.model, at, (s.rc, s.rn), net, others)
        shown, middle = side if side is not None else (None, at)
    pawn_here = any(c.networker is not None and c.net_confidence >= SURE_PAWN for c in cells)
    if shown == colour_i and not pawn_here:
        net_conf = _rival_core(s, net, [at], net_conf)
        if net_conf >= SURE_PAWN:
            return Cell(middle, s.name(colour_i), 1.0, s.name(net), net_conf)
    if shown is None and not pawn_here and net_conf >= SURE_PAWN:
        places = _told_colour_places(s, at, colour_i, net, others)
        if places and _rival_core(s, net, [at], net_conf) >= SURE_PAWN:
            return Cell(at, s.name(colour_i), colour_conf, s.name(net), net_conf, places)
    colour_i = colour_i if shown is None else shown
    return doubted_hidden_cell(Cell(at, s.name(colour_i), colour_conf, s.name(net), net_conf))


def _told_colour_places(s: PawnPatch, at: tuple[float, float], colour_i: int, net: int,
                        others: list[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
    """Where the cell of class ``colour_i`` under a sure pawn of class ``net`` at ``at`` may
    lie (:func:`~vision.enigma.ring_places.ring_places`), when the ring round the pawn
    names that colour clearly on whatever side of it it shows
    (:func:`~vision.enigma.ring_blend.ring_shows_cell`); empty otherwise. The colour is
    then told; the place, so the links, is settled by the tile or asked."""
    told = ring_shows_cell(s.feats, s.model, at, (s.rc, s.rn), net, others)
    if told is None or told[0] != colour_i:
        return ()
    return ring_places(s.feats, s.model, at, (s.rc, s.rn), net, others, colour_i)


def doubted_hidden_cell(c: Cell) -> Cell:
    """Cell ``c`` read under a pawn, never trusted (:data:`HIDDEN_CELL_CONFIDENCE`), with no
    places to settle it by (where its pawn's top is seen)."""
    return Cell(c.centre, c.colour, min(HIDDEN_CELL_CONFIDENCE, c.confidence), c.networker,
                min(c.net_confidence, HIDDEN_CELL_CONFIDENCE))


def _vouched_by_ring(s: PawnPatch, c: Cell, cells: list[Cell], as_found: bool) -> Cell:
    """Cell ``c``, its colour sure when its pawn is sure and the ring round the pawn shows
    the cell's colour clearly, the blur modelled (the other ``cells``' rings left out): the
    finder judges a cell's colour by the median of its ring, which a pawn's blurred rim pulls
    towards another colour (tuning independent clean 0-19: white pawns on red cells, the
    cells found at :data:`~vision.enigma.cells.RING_DISAGREES_CONFIDENCE`). A pawn of the
    cell's own colour is no witness: the finder may have taken the pawn for the cell.
    ``as_found``: the cell lies where the finder placed it, in the colour it gave it; then
    the ring only names that colour, on whatever side of the pawn it shows
    (:func:`~vision.enigma.ring_blend.ring_shows_cell`: a pawn seen from the side, or a
    channel's blend, hides a side of it). A cell moved to a pawn's place, or renamed from
    the pawn's rim (the finder took the pawn for a cell of its colour), must show its
    colour all round the pawn (:func:`~vision.enigma.ring_blend.clear_ring_cell`), as a cell
    placed under a pawn must (:func:`_hidden_cell`)."""
    if (c.networker is None or c.networker == c.colour or c.net_confidence < SURE_PAWN
            or c.confidence >= SURE_PAWN):
        return c
    pawn = s.model.index("net", c.networker)
    others = [o.centre for o in cells if o is not c]
    if as_found:
        shown_cell = ring_shows_cell(s.feats, s.model, c.centre, (s.rc, s.rn), pawn, others)
        shown = None if shown_cell is None else shown_cell[0]
    else:
        shown = clear_ring_cell(s.feats, s.model, c.centre, (s.rc, s.rn), pawn, others)
    if shown != s.model.index("cell", c.colour):
        return c
    return Cell(c.centre, c.colour, 1.0, c.networker, c.net_confidence)


def _hidden_doubt(hidden: Cell) -> tuple[str | None, float]:
    """The problem a cell read under a pawn (:func:`_hidden_cell`) leaves, and the confidence:
    none for one given sure or left for the tile to settle by its places, else the ring's
    doubt at :data:`HIDDEN_CELL_CONFIDENCE`."""
    if hidden.places or hidden.confidence > HIDDEN_CELL_CONFIDENCE:
        return None, 1.0
    return HIDDEN_CELL_PROBLEM, HIDDEN_CELL_CONFIDENCE


def _add_hidden(hidden: Cell, out: list[Cell], problems: list[str], conf: float) -> float:
    """Append a cell read under a pawn to ``out``; one never trusted adds its problem
    (:func:`_hidden_doubt`), and lowers ``conf``, which is returned."""
    out.append(hidden)
    problem, hidden_conf = _hidden_doubt(hidden)
    if problem is not None:
        problems.append(problem)
    return min(conf, hidden_conf)


def _hidden_cells(s: PawnPatch, candidates: list[tuple[tuple[float, float], bool]],
                  out: list[Cell], crescents: bool) -> tuple[list[str], float]:
    """Pawns where no cell was read: each gives its cell, read from the ring around it and
    never trusted (appended to ``out``), or from a crescent beside it when ``crescents``;
    a faint one is asked about. Returns the problems and the confidence they leave."""
    problems: list[str] = []
    conf = 1.0
    unringed: list[tuple[float, float]] = []
    pawn_here = any(c.networker is not None and c.net_confidence >= SURE_PAWN for c in out)
    for centre, whole in candidates:
        if any(math.dist(centre, c.centre) < NEAR_PAWN * s.rc for c in out):
            continue
        near_cell = min((math.dist(centre, c.centre) for c in out), default=math.inf)
        if near_cell < BESIDE_CELL * s.rc:
            continue  # beside a cell: its pawn's blurred rim, judged with that cell
        place = _ringed_place(s, centre)
        if s.all_round[int(round(place[1])), int(round(place[0]))]:
            colour_i, colour_conf = ring_colour(s, place, hue_first=True)
            best, net_conf, at = judge_pawn(s.maps, colour_i, s.net_ids, [place], s.search)
            if best not in s.cell_classes and _bare_tile_core(s, best, colour_i, at,
                                                              pawn_here):
                continue  # a patch of bare tile closed in by channels, not a pale pawn
            if best not in s.cell_classes and not whole and net_conf < FAINT_PAWN:
                # a faint pawn-like blob in a ring of a cell's colour: asked, never invented
                problems.append("a networker stands where no cell was read: is a cell hidden?")
                conf = min(conf, FAINT_PAWN_CONFIDENCE)
                continue
            if best not in s.cell_classes:
                conf = _add_hidden(_hidden_cell(s, at, (colour_i, colour_conf),
                                                (best, net_conf), out), out, problems, conf)
                continue
            if place == centre:
                continue  # the cell's own colour in the middle: a cell without a pawn
        if _unringed_pawn(s, centre, whole, out):
            unringed.append(centre)
    # a pawn with no ring all round gives its cell from a crescent beside it only once the
    # ringed ones have given theirs: a crescent may be the rim of a cell another pawn hides
    for centre in unringed:
        hidden = None
        if crescents and all(math.dist(centre, c.centre) >= BESIDE_CELL * s.rc for c in out):
            hidden = _crescent_cell(s, centre, out)
        if hidden is not None:
            problem, hidden_conf = _add_crescent_cell(s, hidden, out)
        else:
            problem = "a networker stands where no cell was read: is a cell hidden?"
            hidden_conf = FAINT_PAWN_CONFIDENCE
        if problem is not None:
            problems.append(problem)
        conf = min(conf, hidden_conf)
    return problems, conf


def _add_crescent_cell(s: PawnPatch, hidden: Cell, out: list[Cell]) -> tuple[str | None, float]:
    """Add ``hidden``, a cell read from a crescent beside its pawn, to ``out``, unless it
    overlaps a cell of its colour with no pawn read already
    (:func:`~vision.enigma.cells.discs_overlap`; its centre is the pawn's middle, off its
    cell's, as an arc's is): printed cells never overlap, so the crescent is that cell's own
    blurred ring and the pawn that cell's, seen from the side (tuning independent table 6032
    harsh at 30-45 tiles, square [0, -1]: a white pawn on a yellow cell read as a third
    yellow cell 2.07 cell radii from it): the pawn is put on that cell, its colour kept.
    Overlapping a cell of another colour, it may be a cell of its own beside it (5027 harsh,
    [1, 0]: a white pawn on a red cell beside a yellow one, read right): kept, and asked.
    Alone, it is doubted as a cell read from a ring is (:func:`_hidden_doubt`). Returns the
    problem (None for a cell given sure) and the confidence it leaves."""
    near = [c for c in out
            if discs_overlap(hidden, c, s.rc, False, fills_its_disc(s.labels, s.model, c, s.rc))]
    if near:
        hidden = doubted_hidden_cell(hidden)  # beside another cell: asked whatever its places
    same = [c for c in near if c.colour == hidden.colour and c.networker is None]
    if same:
        cell = min(same, key=lambda c: math.dist(c.centre, hidden.centre))
        out[out.index(cell)] = Cell(cell.centre, cell.colour, cell.confidence,
                                    hidden.networker, hidden.net_confidence)
        return "a networker stands beside a cell: is it on that cell?", hidden.net_confidence
    out.append(hidden)
    if near:
        beside = ("a cell of another colour" if any(c.colour != hidden.colour for c in near)
                  else "a cell with a networker of its own")
        return f"a networker stands beside {beside}: is a cell hidden?", FAINT_PAWN_CONFIDENCE
    return _hidden_doubt(hidden)


def _crescent_cell(s: PawnPatch, centre: tuple[float, float], cells: list[Cell]) -> Cell | None:
    """The cell under a pawn at ``centre`` where no cell was read, from the crescent of one
    cell colour beside it (:data:`CRESCENT_REACH`), the other ``cells``' own discs left out;
    None when no one colour shows there, or the middle shows the cell's colour (no pawn).
    Read from a sliver, it is never trusted: asked about, like a cell read from a ring."""
    zone = disc((s.p, s.p), centre, CRESCENT_REACH * s.rc)
    for c in cells:
        zone &= ~disc((s.p, s.p), c.centre, s.rc * 1.15)
    counts = sorted(((int((zone & (s.labels == i)).sum()), i) for i in s.cell_classes),
                    reverse=True)
    (most, colour_i), second = counts[0], (counts[1][0] if len(counts) > 1 else 0)
    if most < CRESCENT_MIN_PX or most < CRESCENT_LEAD * second:
        # no pixel labelled a cell colour: a pale pawn's ring blurred into it and the tile
        # is labelled channel or table, and is known only by the blend it lies on
        on_tile = cell_on_tile(s, zone & ~disc((s.p, s.p), centre, s.rn * 1.15))
        if on_tile is None:
            return None
        colour_i = on_tile
    best, net_conf, at = judge_pawn(s.maps, colour_i, s.net_ids, [centre], s.search)
    if best in s.cell_classes:
        return None
    return _hidden_cell(s, at, (colour_i, HIDDEN_CELL_CONFIDENCE), (best, net_conf), cells)


def _lone_crescent(s: PawnPatch, cells: list[Cell]) -> Cell | None:
    """The cell under a pale pawn that left no blob and no ring all round, from a crescent of
    one cell colour no channel's blurred rim takes (:func:`is_rim_colour`), away from every
    cell in ``cells`` (:data:`CRESCENT_SEARCH`); None when
    no such crescent has a pawn-sized place beside it ringed round enough, ringed by more
    than channels and icons, and no cell colour in its middle. Never trusted."""
    away = member_mask(s.labels, [i for i in s.cell_classes if not is_rim_colour(s.model, i)])
    for c in cells:
        away &= ~disc((s.p, s.p), c.centre, s.rc * BESIDE_CELL)
    if int(away.sum()) < CRESCENT_MIN_PX:
        return None  # no cell colour away from the cells read (most tiles)
    k = int(math.ceil(s.rc * 1.05))
    ring = pawn_ring(s, (float(k), float(k)))[: 2 * k + 1, : 2 * k + 1]
    kernel = ring.astype(np.float32) / float(ring.sum())
    share = cv2.filter2D(s.ringed.astype(np.float32), -1, kernel,
                         borderType=cv2.BORDER_CONSTANT)
    n, lab, stats, cents = cv2.connectedComponentsWithStats(away.astype(np.uint8),
                                                            connectivity=8)
    for k in range(1, n):
        if stats[k, cv2.CC_STAT_AREA] < CRESCENT_MIN_PX:
            continue
        near = disc((s.p, s.p), (float(cents[k][0]), float(cents[k][1])),
                    s.rc * CRESCENT_SEARCH)
        for c in cells:
            near &= ~disc((s.p, s.p), c.centre, s.rc * BESIDE_CELL)
        if not near.any():
            continue
        ys, xs = np.nonzero(near)
        j = int(np.argmax(share[ys, xs]))
        place = (float(xs[j]), float(ys[j]))
        if share[ys[j], xs[j]] < CRESCENT_RING_SHARE:
            continue
        if not _partly_ringed(s, place, cells, ("channel", "icon")):
            continue
        hidden = _crescent_cell(s, place, cells)
        if hidden is not None:
            return hidden
    return None


def _ringed_hole(s: PawnPatch, cells: list[Cell]) -> tuple[float, float] | None:
    """Where a pawn-sized hole lies in what is unlike bare tile, away from every cell read,
    with some of a player colour in it (None when none does): a pale pawn standing on a
    cell the picture lost but for its ring (blurred, it passes for tile but for its middle,
    so no blob of its colour marks it; independent table 1018 harsh, square [1, 0])."""
    closed = cv2.morphologyEx(s.ringed.astype(np.uint8), cv2.MORPH_CLOSE, _HOLE_CLOSE)
    contours, hierarchy = cv2.findContours(closed, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return None
    pawn = math.pi * s.rn * s.rn
    player = member_mask(s.labels, s.net_ids)
    for contour, h in zip(contours, hierarchy[0], strict=True):
        lo, hi = PAWN_HOLE
        if h[3] < 0 or not lo * pawn <= cv2.contourArea(contour) <= hi * pawn:
            continue
        x, y = contour.reshape(-1, 2).mean(axis=0)
        if any(math.dist((float(x), float(y)), c.centre) < BESIDE_CELL * s.rc for c in cells):
            continue
        hole = np.zeros(player.shape, np.uint8)
        cv2.drawContours(hole, [contour], -1, 1, -1)
        if int((player & hole.astype(bool)).sum()) >= PAWN_IN_HOLE_PX:
            return float(x), float(y)
    return None


def _pale_pocket(s: PawnPatch, cells: list[Cell]) -> bool:
    """Whether a spot of a player colour paler than bare tile lies, away from every cell in
    ``cells`` and on a tile with no pawn read, inside a ring unlike bare tile on most sides
    (:data:`POCKET_OPEN_PARTS`): a pale pawn whose cell the picture lost, channels meeting
    round it. A pale spot of bare tile is ringed by channels on a side or two; a pawn's
    cell already read makes it tile (the rules put one networker on a tile)."""
    if any(c.networker is not None for c in cells):
        return False
    tile_brightness = max(float(s.model.centres[i, 2]) for i in s.tile_classes)
    pale = [i for i in s.net_ids if float(s.model.centres[i, 2]) > tile_brightness]
    spots = member_mask(s.labels, pale) & ~s.ringed
    for c in cells:
        spots &= ~disc((s.p, s.p), c.centre, s.rc * BESIDE_CELL)
    least = PAWN_MIN_AREA * math.pi * s.rn * s.rn
    if int(spots.sum()) < least:
        return False  # no pale spot (most tiles)
    mostly_ringed = s.all_round_but(POCKET_OPEN_PARTS) & ~s.ringed
    n, _, stats, cents = cv2.connectedComponentsWithStats(spots.astype(np.uint8),
                                                          connectivity=8)
    for k in range(1, n):
        # the spot's middle may lean to the pawn's lit side: its ring is looked for within
        # a pawn's search of it
        middle = (float(cents[k][0]), float(cents[k][1]))
        if (stats[k, cv2.CC_STAT_AREA] >= least
                and (mostly_ringed & disc((s.p, s.p), middle, s.search)).any()):
            return True
    return False


def read_networkers(
    cells: list[Cell],
    feats: np.ndarray,
    all_labels: np.ndarray,
    model: ColourModel,
    pack: EnigmaPack,
    *,
    crescents: bool = True,
) -> tuple[list[Cell], list[str], float]:
    """``cells`` with the networker standing on each (or none; ``net_confidence`` is then
    the confidence that no pawn stands there), the problems seen and the confidence they
    leave. ``all_labels`` are the patch's colour labels with every class.

    Cells the pawn on them split in two (two pieces of one ring, or a pawn's blurred rim
    that looks like another cell colour) are joined back into one cell; a pawn standing where
    no cell was read gives that cell, read from the ring around the pawn, never trusted.
    With ``crescents`` off (the start tile, where no networker stands by the rules), a pawn
    with no ring all round gives no cell from the crescent beside it: it is only said."""
    s = look_at(feats, all_labels, model, pack)
    rc = s.rc
    candidates = _candidates(s)
    out: list[Cell] = []
    as_found: list[bool] = []  # per cell of out: where, and in the colour, the finder gave it
    for g in _same_cell_groups(cells, rc):
        members = [cells[m] for m in g]
        centres = [c.centre for c in members]
        # blobs of a player colour within the cell, and ringed places of one (a dark or pale
        # pawn leaves no blob), show where its pawn's middle is; blobs and ringed places a
        # little farther may be a pawn on a cell whose middle was read off (half its ring
        # lost in the blur): judged only when the middle shows no pawn
        centres += [b for b, _ in candidates
                    if any(math.dist(b, c) < NEAR_PAWN * rc for c in centres)]
        farther = [b for b, _ in candidates
                   if all(math.dist(b, c) >= NEAR_PAWN * rc for c in centres)
                   and any(math.dist(b, c) < BESIDE_CELL * rc for c in centres)]
        if len(members) == 1:
            one = _one_cell(s, members[0], centres, farther)
            out.append(one)
            as_found.append((one.centre, one.colour) == (members[0].centre, members[0].colour))
        else:
            joined = _split_cell(s, members, centres)
            out.extend(joined)
            as_found.extend(False for _ in joined)
    out = [_vouched_by_ring(s, c, out, found) for c, found in zip(out, as_found, strict=True)]
    problems, conf = _hidden_cells(s, candidates, out, crescents)
    hole = None if problems else _ringed_hole(s, out)
    hidden = None if hole is None or not crescents else _crescent_cell(s, hole, out)
    if hole is None and not problems and crescents:
        hidden = _lone_crescent(s, out)
    if hidden is not None:
        problem, hidden_conf = _add_crescent_cell(s, hidden, out)
        if problem is not None:
            problems.append(problem)
        conf = min(conf, hidden_conf)
    elif hole is not None:
        problems.append("a networker stands where no cell was read: is a cell hidden?")
        conf = min(conf, FAINT_PAWN_CONFIDENCE)
    elif not problems and _pale_pocket(s, out):
        problems.append("a pale spot where channels meet: a networker on a hidden cell?")
        conf = min(conf, FAINT_PAWN_CONFIDENCE)
    return out, problems, conf
