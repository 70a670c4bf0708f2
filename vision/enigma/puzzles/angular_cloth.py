"""A table of a piece's own colour, told from the piece by the table's colour beside it.

A red cloth under a strong lamp is, round the mat's markers, within a few levels of the red
piece: measured there once, the cloth in the lamp's hotspot is nearer the piece than the
table, and joins the structure (tuning cloth/strong seeds 4, 5, 7: "does not fit a grid of
cubes"). The cloth is measured instead block by block, as the median of its blocks round each
place, so that a piece is compared with the cloth beside it, under the same light.
"""

from __future__ import annotations

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
    blocks = _block_medians(mat, tableish, side)
    k = FIELD_REACH
    padded = np.pad(blocks, ((k, k), (k, k), (0, 0)), constant_values=np.nan)
    stack = np.stack([padded[dy:dy + rows, dx:dx + cols]
                      for dy in range(2 * k + 1) for dx in range(2 * k + 1)])
    field = _nan_medians(stack)
    full = cv2.resize(np.nan_to_num(field, nan=-1.0), (cols * side, rows * side),
                      interpolation=cv2.INTER_NEAREST)[:h, :w]
    full[full < 0] = np.nan
    return np.asarray(full, np.float32)


def _block_medians(mat: np.ndarray, keep: np.ndarray, side: int) -> np.ndarray:
    """Per block of ``side`` pixels (the last row and column of blocks cut by the image's
    edge), the median per channel of the ``keep`` pixels of the 8-bit ``mat``, where they
    are at least :data:`MIN_BLOCK_SHARE` of the block; NaN elsewhere (float32). Counted
    from the blocks' histograms at once: the medians ``np.median`` gives block by block
    (the mean of the two middle values, a half level at most, exact in float32), where the
    block loop was half the angular check on a cloth."""
    h, w = keep.shape
    rows, cols = -(-h // side), -(-w // side)
    block = (np.arange(h) // side)[:, None] * cols + (np.arange(w) // side)[None, :]
    sizes = np.bincount(block.ravel(), minlength=rows * cols)
    kept_in = block[keep]
    counts = np.bincount(kept_in, minlength=rows * cols)
    blocks = np.full((rows * cols, 3), np.nan, np.float32)
    counted = counts / sizes >= MIN_BLOCK_SHARE  # the share keep.mean() gives per block
    if not counted.any():
        return blocks.reshape(rows, cols, 3)
    n = counts[counted]
    levels = 256
    for c in range(3):
        hist = np.bincount(kept_in * levels + mat[..., c][keep],
                           minlength=rows * cols * levels).reshape(rows * cols, levels)
        below = np.cumsum(hist[counted], axis=1)
        # the values at ranks (n - 1) // 2 and n // 2: the first levels whose count passes
        low = (below <= ((n - 1) // 2)[:, None]).sum(axis=1)
        high = (below <= (n // 2)[:, None]).sum(axis=1)
        blocks[counted, c] = (low + high) / 2
    return blocks.reshape(rows, cols, 3)


def _nan_medians(stack: np.ndarray) -> np.ndarray:
    """The median along the first axis of the values that are not NaN (NaN where all are):
    what ``np.nanmedian(stack, axis=0)`` gives for these blocks' medians (half levels: the
    mean of the two middle values is exact), sorted at once rather than place by place."""
    ordered = np.sort(stack, axis=0)  # NaN sorts last
    n = np.sum(~np.isnan(stack), axis=0)
    low = np.take_along_axis(ordered, np.maximum((n - 1) // 2, 0)[None], axis=0)[0]
    high = np.take_along_axis(ordered, (n // 2)[None], axis=0)[0]
    out: np.ndarray = np.where(n > 0, (low + high) / 2, np.nan).astype(np.float32)
    return out


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
