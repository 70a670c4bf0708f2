"""Indigo's gems as cut glass seen from above: a many-sided stone whose facets catch the lamp
differently, a bright table in the middle, one or two specular highlights, a darker girdle and
a soft shadow on the piece it rests on. Colours vary from gem to gem as real glass does.
"""

from __future__ import annotations

import cv2
import numpy as np

FACETS = (7, 11)                # how many sides a stone's outline has (exclusive upper bound)
TABLE_SHARE = (0.38, 0.55)      # the flat top facet's size, a share of the stone's radius
COLOUR_SPREAD = 0.12            # gem-to-gem brightness spread
SHADOW_DEPTH = (0.35, 0.6)


def _stone_outline(radius: float, sides: int, rng: np.random.Generator) -> np.ndarray:
    """Corners of a slightly irregular polygon around (0, 0)."""
    start = rng.uniform(0, 2 * np.pi)
    angles = start + np.linspace(0, 2 * np.pi, sides, endpoint=False) + \
        rng.uniform(-0.12, 0.12, sides)
    radii = radius * rng.uniform(0.92, 1.04, sides)
    return np.stack([radii * np.cos(angles), radii * np.sin(angles)], axis=1)


def draw_gem(layer: np.ndarray, centre: tuple[float, float], radius_px: float,
             body_bgr: tuple[float, float, float], lamp: np.ndarray,
             rng: np.random.Generator) -> None:
    """Paint one stone into a BGRA float ``layer`` (its alpha set where the stone is)."""
    sides = int(rng.integers(*FACETS))
    outline = _stone_outline(radius_px, sides, rng)
    table = outline * rng.uniform(*TABLE_SHARE) + rng.uniform(-0.08, 0.08, 2) * radius_px
    body = np.array(body_bgr, np.float32) * rng.uniform(1 - COLOUR_SPREAD, 1 + COLOUR_SPREAD)
    c = np.array(centre, np.float64)
    for k in range(sides):               # the crown facets between the girdle and the table
        quad = np.array([outline[k], outline[(k + 1) % sides], table[(k + 1) % sides],
                         table[k]]) + c
        middle = (outline[k] + outline[(k + 1) % sides]) / 2
        facing = float(np.dot(middle / (np.linalg.norm(middle) + 1e-9), lamp))
        shade = 0.72 + 0.45 * facing + rng.uniform(-0.08, 0.08)
        colour = np.clip(body * shade, 0, 255)
        cv2.fillPoly(layer, [np.round(quad * 16).astype(np.int32)], (*colour.tolist(), 255.0),
                     cv2.LINE_AA, shift=4)
    # light passing through the stone makes the table brighter and more saturated
    table_colour = np.clip(body * rng.uniform(1.05, 1.3), 0, 255)
    cv2.fillPoly(layer, [np.round((table + c) * 16).astype(np.int32)],
                 (*table_colour.tolist(), 255.0), cv2.LINE_AA, shift=4)
    cv2.polylines(layer, [np.round((outline + c) * 16).astype(np.int32)], True,
                  (*(body * 0.45).tolist(), 255.0), max(1, int(radius_px * 0.08)),
                  cv2.LINE_AA, shift=4)
    for _ in range(int(rng.integers(1, 3))):   # the lamp's reflection on a facet
        spot = c + lamp * radius_px * rng.uniform(0.2, 0.6) + rng.normal(0, 0.12, 2) * radius_px
        size = max(1.0, radius_px * rng.uniform(0.08, 0.2))
        cv2.ellipse(layer, (int(spot[0]), int(spot[1])), (int(size * 1.6), int(size)),
                    float(rng.uniform(0, 180)), 0, 360, (250.0, 252.0, 255.0, 255.0), -1,
                    cv2.LINE_AA)


def draw_shadow(shade: np.ndarray, centre: tuple[float, float], radius_px: float,
                lamp: np.ndarray, rng: np.random.Generator) -> None:
    """Darken a one-channel ``shade`` layer (1 = lit) where a stone's shadow falls."""
    away = np.array(centre) - lamp * radius_px * rng.uniform(0.3, 0.6)
    depth = rng.uniform(*SHADOW_DEPTH)
    cv2.circle(shade, (int(away[0]), int(away[1])), int(radius_px * 1.05), 1.0 - depth, -1,
               cv2.LINE_AA)
