"""The reader finds each tile's own outline: the panel's grey where a rack crowds the panel's
top edge under light that falls off toward it, tiles laid close, a light tile beside a dark
one."""

from __future__ import annotations

import numpy as np

from vision.break_the_code.mat import SLOTS
from vision.break_the_code.reader import VIEW_MM, foreground, panel_background
from vision.break_the_code.settings import DEFAULT_SETTINGS

P = DEFAULT_SETTINGS.px_per_mm
#: the synthetic rack's tiles as the oak tiles look from above (side and shadow included), mm
TILE_MM = (33.0, 43.0)


def _top_view(gap_mm: float, tile_grey: tuple[float, float, float], seed: int
              ) -> tuple[np.ndarray, np.ndarray]:
    """A top view of the panel (float grey ``light``) whose light falls off by 40% toward
    the top edge, with a rack of five tiles in row A reaching that edge and ``gap_mm``
    apart; and the light (panel grey at every pixel)."""
    h, w = round(VIEW_MM[3] * P), round(VIEW_MM[2] * P)
    ys = np.arange(h, dtype=np.float32)[:, None] / P
    light = 150.0 * (0.6 + 0.4 * np.minimum(1.0, ys / 60.0)) * np.ones((1, w), np.float32)
    top = np.repeat(light[..., None], 3, axis=2)
    rng = np.random.default_rng(seed)
    x = (SLOTS[0].centre_mm[0] - VIEW_MM[0]) - 2 * TILE_MM[0] - 2 * gap_mm - TILE_MM[0] / 2
    for _ in range(5):
        x0, x1 = round(x * P), round((x + TILE_MM[0]) * P)
        top[:round(TILE_MM[1] * P), x0:x1] = np.array(tile_grey, np.float32) * (
            light[:round(TILE_MM[1] * P), x0:x1, None] / 150.0)
        x += TILE_MM[0] + gap_mm
    top += rng.normal(0.0, 2.0, top.shape).astype(np.float32)
    return np.clip(top, 0, 255).astype(np.uint8), light


def test_the_panel_between_a_rack_of_dark_tiles_along_the_top_edge_is_no_tile() -> None:
    # the rack covers most of the lane along the top edge: the panel's grey there comes
    # from the whole panel's light, not from the tiles lying over that lane
    for seed in (1, 2):
        top, light = _top_view(gap_mm=8.0, tile_grey=(40.0, 45.0, 60.0), seed=seed)
        field = panel_background(top)
        gaps = (top.astype(np.float32).mean(axis=2) > 0.7 * light)[: round(20 * P)]
        error = np.abs(field[: round(20 * P)].mean(axis=2) - light[: round(20 * P)])
        assert float(np.percentile(error[gaps] / light[: round(20 * P)][gaps], 95)) < 0.1
        mask, _ = foreground(top, field, DEFAULT_SETTINGS)
        # the panel between the tiles stays panel: the tiles are five pieces, not one
        assert not mask[: round(20 * P)][gaps].any()
