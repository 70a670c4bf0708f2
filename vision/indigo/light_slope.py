"""The lamp's light taken out of a cell's patch: the level and the two slopes of light that
fit the patch best over its pixels, and the sums the glare test of empty cells takes over what
is left (:func:`vision.indigo.tiles.read_tiles`)."""

from __future__ import annotations

import numpy as np

from vision.one_thread import one_thread_product


def _light_fit(w: np.ndarray, slope: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(cells, 3, D), (cells, 3, 3): the rows of ``slope`` (3, D) weighted by each cell's
    pixel weights ``w`` (cells, D), and their products with the rows (the normal equations'
    matrix)."""
    weighted = slope[None].astype(np.float64) * w[:, None, :]
    gram: np.ndarray = weighted @ slope.T.astype(np.float64)
    return weighted, gram


def _fitted(gram: np.ndarray, products: np.ndarray) -> np.ndarray:
    """(cells, 3, n): the level and slopes that fit best, from the normal equations, a
    little ridge added so that a cell with almost no pixels left still solves."""
    fitted: np.ndarray = np.linalg.solve(gram + 1e-6 * np.eye(gram.shape[-1]), products)
    return fitted


def without_light_slope(values: np.ndarray, w: np.ndarray, slope: np.ndarray) -> np.ndarray:
    """(cells, n, D) ``values`` (cells, n, D) less, per cell, the level and slope of light
    (the rows of ``slope``, (3, D)) that fit them best over the pixels of weight ``w``
    (cells, D): what is left once the lamp's light, falling off across the cell, is gone."""
    weighted, gram = _light_fit(w, slope)
    fitted = _fitted(gram, weighted @ np.swapaxes(values, 1, 2))  # (cells, 3, n)
    left: np.ndarray = values - np.swapaxes(fitted, 1, 2) @ slope
    return left


def slope_free_sums(rows: np.ndarray, w: np.ndarray, seen: np.ndarray,
                     slope: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(cells, n) twice: for each cell and each of ``rows`` (n, D), the row less its own
    best level and slope of light over the cell's pixel weights ``w`` (cells, D), as
    :func:`without_light_slope` leaves it; then its weighted sum of squares and its sum
    against ``seen`` (cells, D).

    Both come from the (cells, 3, n) fits and products, never from the (cells, n, D)
    remainders themselves: every pattern in every turn for every empty cell made tens of
    megabytes and took most of a read's time (read as sum w (r - f s)^2 = sum w r^2
    - 2 f (w s r) + f (w s s) f, and sum seen (r - f s) = seen r - f (seen s))."""
    r = rows.astype(np.float64)
    weighted, gram = _light_fit(w, slope)
    cells, k, d = weighted.shape
    along = one_thread_product(weighted.reshape(cells * k, d), r.T).reshape(cells, k, len(r))
    fitted = _fitted(gram, along)
    squares = (one_thread_product(w.astype(np.float64), (r * r).T)
               - 2 * np.einsum("ckn,ckn->cn", fitted, along)
               + np.einsum("ckn,ckj,cjn->cn", fitted, gram, fitted))
    against = one_thread_product(seen, r.T) - np.einsum(
        "ckn,ck->cn", fitted, seen @ slope.T.astype(np.float64))
    return np.maximum(squares, 0.0), against
