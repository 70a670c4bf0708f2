"""Enigma reader, a tile's patch named pixel by pixel: balanced to the pack's tile colour,
each pixel named by the nearest pack colour (:func:`label_patch`), and the channel mask made
from those names (:func:`channel_mask`). See :mod:`vision.enigma.tile`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, lru_cache

import cv2
import numpy as np

from vision.enigma.colours import ColourModel, colour_features
from vision.enigma.pack import EnigmaPack
from vision.enigma.small_stats import median

#: how far in from the patch's sides (share of a tile) the table and the tile's edge line
#: cannot show: a square placed a little off the tile still has them only outside this
INNER_MARGIN = 0.07
#: the outermost share of a tile may show the gap to the next tile or the table; it is also
#: where an opening's window starts
EDGE_SHARE = 0.035


@dataclass(frozen=True)
class PatchLabels:
    """A tile's patch named pixel by pixel (see :func:`label_patch`)."""

    feats: np.ndarray  # colour features of the balanced patch
    labels: np.ndarray  # colour class per pixel, networkers left out
    all_labels: np.ndarray  # colour class per pixel, networkers in
    model: ColourModel  # the classes the labels name
    dark: np.ndarray  # darker than midway between tile and channel: a stroke by brightness

    def of_kind(self, *kinds: str) -> np.ndarray:
        """Where the pixel's class (networkers left out) is of one of ``kinds``."""
        return self.model.kind_mask(self.labels, kinds)

    @property
    def pawns(self) -> np.ndarray:
        """Where the pixel's class, networkers in, is a player colour."""
        return self.model.kind_mask(self.all_labels, ("net",))

    @cached_property
    def channel(self) -> np.ndarray:
        """The channel mask (:func:`channel_mask`), made once: a tile is looked at again
        with its networkers, and its channels cut round the cells anew (read-only)."""
        channel = channel_mask(self)
        channel.setflags(write=False)
        return channel


@lru_cache(maxsize=8)
def _inside(p: int, margin: int) -> np.ndarray:
    """A p x p mask, True at least ``margin`` pixels in from every side (cached, read-only)."""
    mask = np.zeros((p, p), bool)
    mask[margin : p - margin, margin : p - margin] = True
    mask.setflags(write=False)
    return mask


#: the tile's colour is measured on its brightest pixels of a ring near its sides: those at
#: or above this percentile of brightness (the rest may be channels or the table)
BRIGHT_PERCENTILE = 40


@lru_cache(maxsize=8)
def balance_ring(p: int) -> tuple[np.ndarray, int]:
    """The ring (a tenth of a side wide, a tenth in from the sides) a patch's tile colour
    is measured on, and the rank in its sorted brightness sums of the least one kept
    (:func:`brightest_at_rank`)."""
    border = np.zeros((p, p), bool)
    b = max(2, p // 10)
    border[b : 2 * b, b : p - b] = border[p - 2 * b : p - b, b : p - b] = True
    border[b : p - b, b : 2 * b] = border[b : p - b, p - 2 * b : p - b] = True
    border.setflags(write=False)
    # np.percentile's linear rule: the value at (n - 1) * q, between two ranks. Sums of
    # 8-bit pixels are whole numbers, so "at or above it" keeps the upper rank onwards
    # whenever the rule falls between two ranks (the fraction is a multiple of a fifth here,
    # never so small that the interpolated value rounds to the lower one)
    where = (int(border.sum()) - 1) * (BRIGHT_PERCENTILE / 100)
    rank = math.floor(where) + (where > math.floor(where))
    return border, rank


def brightest_at_rank(pixels: np.ndarray, rank: int) -> np.ndarray:
    """The ring's ``pixels`` (n x 3) as floats, those whose sums are at least the
    :data:`BRIGHT_PERCENTILE` percentile of the sums. For 8-bit pixels, those at least the
    sum of rank ``rank``: the same pixels, by one partial sort instead of numpy's percentile
    (other pixels take numpy's)."""
    ring = pixels.astype(np.float32)
    if pixels.dtype == np.uint8:
        # sums of whole numbers, exact in any order: added column by column (numpy's sum
        # along an axis three wide is slow)
        sums = ring[:, 0] + ring[:, 1]
        sums += ring[:, 2]
        least = np.partition(sums, rank)[rank]
    else:
        sums = ring.sum(axis=1)
        least = np.percentile(sums, BRIGHT_PERCENTILE)
    kept: np.ndarray = ring[sums >= least]
    return kept


def inner_part(p: int) -> np.ndarray:
    """A p x p patch's part where the table and the tile's edge line cannot show
    (:data:`INNER_MARGIN` in from every side, at least 3 pixels; cached, read-only)."""
    return _inside(p, max(3, int(round(INNER_MARGIN * p))))


def label_patch(patch: np.ndarray, pack: EnigmaPack, model: ColourModel) -> PatchLabels:
    """Balance the patch to the pack's tile colour (light varies over the table) and name
    each pixel by the nearest pack colour."""
    p = patch.shape[0]
    px = patch.reshape(-1, 3).astype(np.float32)
    border, rank = balance_ring(p)
    bright = brightest_at_rank(patch[border], rank)
    gains = np.array(pack.colour("tile"), np.float32) / np.maximum(median(bright, axis=0), 1)
    balanced = np.clip(px * np.clip(gains, 0.5, 2.0), 0, 255).reshape(patch.shape)
    feats = colour_features(balanced)
    # networkers stand only on cells and are judged there; elsewhere a pixel is tile art
    labels, all_labels = model.labels_with_and_without(feats, ("net",))
    # the table and the tile's edge line show only at the patch's border: inside it, a pixel
    # of their colours is a thin channel's blurred stroke (its chroma bleeds into the tile
    # around it) or the soft rim of one; brightness alone tells channel from tile art there
    inner = inner_part(p)
    misnamed = inner & model.kind_mask(labels, ("table", "edge"))
    tile_i, channel_i = model.index("tile"), model.index("channel")
    mid = 0.5 * (model.centres[tile_i, 2] + model.centres[channel_i, 2])
    labels = np.where(misnamed, np.where(feats[..., 2] < mid, channel_i, tile_i), labels)
    dark = feats[..., 2] < 0.5 * (model.centres[model.index("tile"), 2]
                                  + model.centres[model.index("channel"), 2])
    return PatchLabels(feats, labels, all_labels, model, dark)


def channel_mask(named: PatchLabels) -> np.ndarray:
    """The channel-coloured pixels, small gaps closed, the outermost pixels cleared (they may
    show the gap to the next tile or the table: not this tile's)."""
    p = named.labels.shape[0]
    channel: np.ndarray = cv2.morphologyEx(named.of_kind("channel").astype(np.uint8),
                                           cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    edge_px = max(2, int(round(EDGE_SHARE * p)))
    channel[:edge_px, :] = channel[-edge_px:, :] = 0
    channel[:, :edge_px] = channel[:, -edge_px:] = 0
    return channel
