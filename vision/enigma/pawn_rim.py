"""Enigma reader, the colour of the cell under a standing pawn told by the rim left round
the pawn (:func:`rim_colour`, :func:`rim_hue`, :func:`cell_on_tile`). See
:mod:`vision.enigma.networkers`.

A pawn standing on a cell hides its middle; the camera blurs the thin ring of the cell left
round it into the pawn's own colour and the bare tile, so the ring's pixels may be labelled
no cell colour at all while the ring keeps the cell's hue, or lies on the blend of the
cell's colour with bare tile.
"""

from __future__ import annotations

import numpy as np

from vision.enigma.cells import disc, member_mask
from vision.enigma.channel_rims import blend_distance, is_rim_colour, off_channel_rims
from vision.enigma.pawn_patch import HUE_MIN_CHROMA, PawnPatch, hue_apart, hue_chroma
from vision.enigma.small_stats import median

#: a crescent of one cell colour round a pawn names the cell: at least this many pixels of
#: it, and this many times more than of any other cell colour (tuning independent tables 4
#: and 6 clean: white pawns on yellow cells, only their crescents showing)
CRESCENT_MIN_PX = 6
CRESCENT_LEAD = 3.0
#: a pawn's rim names a cell by its hue (:func:`rim_hue`) only clear of the line between
#: a hue and grey: its chroma this far above :data:`HUE_MIN_CHROMA` (a rim of harsh 5000
#: [0, 2] measured 20.6 on one OpenCV and 18.1 on the Pi's, and read red on one, blue on the
#: other; the red rims named lie at 36-40) ...
RIM_MIN_CHROMA = HUE_MIN_CHROMA + 8.0
#: ... and its hue nearer the cell's than any other cell's by this many degrees (demo: red
#: 117, yellow 145, blue 316 deg; a red rim round a blue pawn, its pixels off a channel's
#: blends, blends towards blue through 90: harsh 5000 [1, 1] 96 deg, 28 nearer red than
#: yellow; [0, 2] 69 deg)
RIM_HUE_LEAD = 15.0
#: a ring's median colour names the cell on whose blend with bare tile it lies only when it
#: lies this much nearer that blend than a channel's on the tile or another cell's (tuning
#: independent harsh 5000-5039: 11 of 14 red rings round white pawns lead by 4.8-8.3, 3 by
#: 0.8-2.9; no ring without a pawn leads at all)
BLEND_LEAD = 3.0


def rim_colour(s: PawnPatch, centre: tuple[float, float], pawn_colour: str) -> tuple[str, bool]:
    """The colour of a cell the finder read in its pawn's colour (a blue pawn standing tall
    on a red cell, only the red rim showing round it: tuning independent table 14 clean,
    square [1, -1]): the one cell colour of the rim round the pawn, when one other than the
    pawn's shows there (:data:`CRESCENT_MIN_PX`, :data:`CRESCENT_LEAD`); else the colour
    the rim's hue names (:func:`rim_hue`), else the pawn's. The cell keeps the doubt its
    finder gave it; and whether its colour is unsure: named by the rim's hue alone, or the
    pawn's own with nothing round the pawn to confirm it (the finder took the pawn itself
    for a cell of its colour: tuning independent harsh 5000 [0, 2] and 5009 [-3, 3] at
    30-45 tiles, blue pawns on red cells read on blue cells, the pawns sure, the rims
    naming no colour; a blue cell's rim round its blue pawn names blue by its hue, harsh
    5040-5064: 6 of 6)."""
    rim = disc((s.p, s.p), centre, s.rc * 1.3) & ~disc((s.p, s.p), centre, s.rn * 1.15)
    counts = sorted(((int((rim & (s.labels == i)).sum()), i) for i in s.cell_classes
                     if s.name(i) != pawn_colour), reverse=True) or [(0, -1)]
    (most, colour_i), second = counts[0], (counts[1][0] if len(counts) > 1 else 0)
    if most >= CRESCENT_MIN_PX and most >= CRESCENT_LEAD * second:
        return s.name(colour_i), False
    hue_i = rim_hue(s, rim)
    if hue_i is None:
        return pawn_colour, True
    return s.name(hue_i), s.name(hue_i) != pawn_colour


def cell_on_tile(s: PawnPatch, zone: np.ndarray) -> int | None:
    """The cell colour whose blend with bare tile the ring in ``zone`` (its pixels unlike
    bare tile and of no player colour) lies on, by its median colour; None when too few
    pixels are left, or the median lies not :data:`BLEND_LEAD` nearer that blend than a
    channel's on the tile and every other cell's, or the cell's colour is one a channel's
    rim takes (:func:`is_rim_colour`), or the median is not clear of grey
    (:data:`RIM_MIN_CHROMA`: near bare tile the blends meet, and the bench renderer's white
    pawn leaves a bluish grey halo, bench scenes 16 and 89). A white pawn standing on a red
    cell blurs the ring left round it to a pink no pixel label names (tuning independent
    harsh 5000-5039, 14 such rings: 2.1-5.4 from red on tile, 5.4-11.8 from a channel on
    it; the rings round pale spots that are no pawn, and yellow cells': 0.4-1.4 from a
    channel on tile)."""
    zone = zone & s.ringed & ~member_mask(s.labels, s.net_ids)
    if int(zone.sum()) < CRESCENT_MIN_PX:
        return None
    middle = median(s.feats[zone], axis=0)[None]
    if hue_chroma(middle[0])[1] < RIM_MIN_CHROMA:
        return None
    by_cell = sorted((float(blend_distance(middle, s.model, i)[0]), i) for i in s.cell_classes)
    (near, colour_i), next_cell = by_cell[0], by_cell[1][0]
    channel = float(blend_distance(middle, s.model, "channel")[0])
    if is_rim_colour(s.model, colour_i) or near + BLEND_LEAD > min(channel, next_cell):
        return None
    return colour_i


def rim_hue(s: PawnPatch, zone: np.ndarray) -> int | None:
    """The cell colour a pawn's rim in ``zone`` shows by its hue: a cell's thin ring round a
    standing pawn, blurred into the pawn's rim and the tile, keeps its cell's hue while its
    pixels' labels name no cell colour (tuning independent harsh 5000 [1, 1] and [0, 2]: a
    red ring round a blue pawn labelled table and icon, the cell read blue; the whole rim's
    hue 112-113 deg, its pixels off a channel's blends 96 and 69, red's 117, blue's 316;
    blue rings round blue pawns 316-327 on harsh 5010-5045 and clean 0-39). Only the rim's
    pixels unlike bare tile count, neither a player colour's (the pawn's silhouette is no
    tile) nor a channel's blurred rim's; a colour such a rim takes (:func:`is_rim_colour`)
    is never named. None when too few pixels are left, or their
    middle is not clear of grey (:data:`RIM_MIN_CHROMA`), or its hue is not clearly one
    cell's rather than another's (:data:`RIM_HUE_LEAD`)."""
    zone = zone & s.ringed & ~member_mask(s.labels, s.net_ids)
    feats = s.feats[zone]
    feats = feats[off_channel_rims(s.model, feats)]
    if len(feats) < CRESCENT_MIN_PX:
        return None
    hue, chroma = hue_chroma(median(feats, axis=0))
    if chroma < RIM_MIN_CHROMA:
        return None
    apart = sorted((hue_apart(hue, hue_chroma(s.model.centres[i])[0]), i)
                   for i in s.cell_classes)
    (nearest_apart, nearest), next_apart = apart[0], apart[1][0]
    if next_apart - nearest_apart < RIM_HUE_LEAD:
        return None
    return None if is_rim_colour(s.model, nearest) else nearest
