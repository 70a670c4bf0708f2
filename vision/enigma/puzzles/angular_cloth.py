"""A table of a piece's own colour, told from the piece by the table's colour beside it.

A red cloth under a strong lamp is, round the mat's markers, within a few levels of the red
piece: measured there once, the cloth in the lamp's hotspot is nearer the piece than the
table, and joins the structure (tuning cloth/strong seeds 4, 5, 7: "does not fit a grid of
cubes"). The cloth is measured instead block by block, as the median of its blocks round each
place, so that a piece is compared with the cloth beside it, under the same light.
"""

from __future__ import annotations

import warnings

import cv2
import numpy as np

from vision.enigma.colours import colour_features

#: the table beside a place is the median of the blocks (a cube a side) within this many
#: blocks each way: a structure's table-coloured piece (at most three cubes across) is a
#: minority of the 7 x 7 blocks round it, the cloth the majority
FIELD_REACH = 3
#: a block counts when at least this share of it is table or table-like
MIN_BLOCK_SHARE = 0.5


def local_table(mat: np.ndarray, tableish: np.ndarray, cube: float) -> np.ndarray:
    """The table's colour (BGR, float) at each pixel of ``mat``: per block of a cube a side,
    the median of its ``tableish`` pixels (the table, and what the table may be taken for);
    per place, the median of the blocks within FIELD_REACH; NaN where no block counts."""
    side = max(4, int(cube))
    h, w = tableish.shape
    rows, cols = -(-h // side), -(-w // side)
    blocks = np.full((rows, cols, 3), np.nan, np.float32)
    for r in range(rows):
        for c in range(cols):
            ys, xs = slice(r * side, (r + 1) * side), slice(c * side, (c + 1) * side)
            keep = tableish[ys, xs]
            if keep.mean() >= MIN_BLOCK_SHARE:
                blocks[r, c] = np.median(mat[ys, xs][keep], axis=0)
    k = FIELD_REACH
    padded = np.pad(blocks, ((k, k), (k, k), (0, 0)), constant_values=np.nan)
    stack = np.stack([padded[dy:dy + rows, dx:dx + cols]
                      for dy in range(2 * k + 1) for dx in range(2 * k + 1)])
    with warnings.catch_warnings():
        # a place with no block of table within reach is left NaN ("All-NaN slice")
        warnings.simplefilter("ignore", RuntimeWarning)
        field = np.nanmedian(stack, axis=0).astype(np.float32)
    full = cv2.resize(np.nan_to_num(field, nan=-1.0), (cols * side, rows * side),
                      interpolation=cv2.INTER_NEAREST)[:h, :w]
    full[full < 0] = np.nan
    return np.asarray(full, np.float32)


def piece_not_table(mat: np.ndarray, candidates: np.ndarray, piece_bgr: tuple[int, int, int],
                    table_bgr: tuple[int, int, int], field: np.ndarray) -> np.ndarray:
    """Of ``candidates`` (pixels nearer a table-like piece colour than the table measured
    round the markers), those nearer that piece's colour under the local light than the
    table beside them: the piece moved in brightness as the table's field is from
    ``table_bgr``."""
    known = candidates & ~np.isnan(field[..., 0])
    out = candidates.copy()
    if not known.any():
        return out
    seen = colour_features(mat[known])
    local = colour_features(field[known])
    piece = colour_features(np.asarray(piece_bgr, np.float32))
    table = colour_features(np.asarray(table_bgr, np.float32))
    lit = np.repeat(piece[None, :], len(local), axis=0)
    lit[:, 2] += local[:, 2] - table[2]
    to_piece = np.sum((seen - lit) ** 2, axis=1)
    to_table = np.sum((seen - local) ** 2, axis=1)
    out[known] = to_piece < to_table
    return out


__all__ = ["FIELD_REACH", "MIN_BLOCK_SHARE", "local_table", "piece_not_table"]
