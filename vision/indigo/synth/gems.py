"""Faceted glass gems as a camera sees them on a table (the renderer's real-table look).

A real Indigo gem is a cut, glossy piece of coloured plastic: its body colour is much darker
and more saturated than the flat colour a pack's drawing holds (an amber's body is about
(172, 123, 22) RGB), each facet catches the light differently, a small specular highlight
is almost white and the gem throws a soft shadow on the tile under it. :func:`draw_gem`
draws one, seeded, into a scene image (colour and alpha), so the renderer and the teach
photos show the same gems.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.art_pack import BGR

#: the body colours of real gems (BGR): much darker than a flat drawing's colours
REAL_GEM_BODY: dict[str, BGR] = {
    "amber": (22, 123, 172),
    "emerald": (70, 128, 24),
    "sapphire": (150, 62, 22),
}
#: number of facets round a gem's table (a brilliant-like cut seen from above)
FACETS = 8
#: each facet's brightness is the body's times a factor in this range
FACET_GAIN = (0.55, 1.35)
#: the table facet (the flat top) is this share of the gem radius
TABLE_SHARE = 0.55
#: the specular highlight: radius as a share of the gem's, and how white it is
HIGHLIGHT_SHARE = (0.12, 0.25)
HIGHLIGHT_WHITE = (0.7, 0.98)
#: the shadow a gem throws: offset and softness in gem radii, darkening of what lies under it
SHADOW_OFFSET = 0.35
SHADOW_BLUR = 0.35
SHADOW_DEPTH = 0.45
#: a real gem is not a perfect circle: its outline's radius varies this much
OUTLINE_WOBBLE = 0.08


@dataclass(frozen=True)
class GemLook:
    """How one gem is drawn: body colour, its outline turn and the light on it."""

    body: BGR
    turn_deg: float
    facet_gains: tuple[float, ...]
    highlight_at: tuple[float, float]  # in gem radii from its centre
    highlight_size: float
    highlight_white: float
    wobble: tuple[float, ...]


def gem_look(body: BGR, rng: np.random.Generator) -> GemLook:
    """A seeded look of a gem of ``body`` colour."""
    angle = float(rng.uniform(0, 2 * math.pi))
    reach = float(rng.uniform(0.2, 0.5))
    return GemLook(
        body=body,
        turn_deg=float(rng.uniform(0, 360)),
        facet_gains=tuple(float(g) for g in rng.uniform(*FACET_GAIN, FACETS)),
        highlight_at=(reach * math.cos(angle), reach * math.sin(angle)),
        highlight_size=float(rng.uniform(*HIGHLIGHT_SHARE)),
        highlight_white=float(rng.uniform(*HIGHLIGHT_WHITE)),
        wobble=tuple(float(w) for w in rng.uniform(-OUTLINE_WOBBLE, OUTLINE_WOBBLE, FACETS)),
    )


def _outline(centre: tuple[float, float], radius: float, look: GemLook) -> np.ndarray:
    pts = []
    for i in range(FACETS):
        a = math.radians(look.turn_deg) + 2 * math.pi * i / FACETS
        r = radius * (1 + look.wobble[i])
        pts.append((centre[0] + r * math.cos(a), centre[1] + r * math.sin(a)))
    return np.array(pts, np.float64)


def _shade(colour: BGR, gain: float) -> tuple[int, int, int]:
    b, g, r = (min(255, int(round(v * gain))) for v in colour)
    return (b, g, r)


SHIFT = 4


def _poly(canvas: np.ndarray, pts: np.ndarray, colour: tuple[int, ...]) -> None:
    cv2.fillPoly(canvas, [np.round(pts * (1 << SHIFT)).astype(np.int32)], colour, cv2.LINE_AA,
                 SHIFT)


def draw_gem_shadow(
    canvas: np.ndarray, centre: tuple[float, float], radius: float, light_dir: float
) -> None:
    """Darken ``canvas`` (BGR, in place) where the gem's soft shadow falls."""
    dx = SHADOW_OFFSET * radius * math.cos(light_dir)
    dy = SHADOW_OFFSET * radius * math.sin(light_dir)
    reach = int(math.ceil(radius * (2 + SHADOW_OFFSET + 3 * SHADOW_BLUR)))
    x0, y0 = int(centre[0]) - reach, int(centre[1]) - reach
    side = 2 * reach + 1
    h, w = canvas.shape[:2]
    if x0 < 0 or y0 < 0 or x0 + side > w or y0 + side > h:
        return
    mask = np.zeros((side, side), np.float32)
    c = (centre[0] - x0 + dx, centre[1] - y0 + dy)
    cv2.circle(mask, (int(round(c[0])), int(round(c[1]))), int(round(radius)), 1.0, -1)
    mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), max(0.5, SHADOW_BLUR * radius)), np.float32)
    region = canvas[y0 : y0 + side, x0 : x0 + side].astype(np.float32)
    shaded = region * (1 - SHADOW_DEPTH * mask[..., None])
    canvas[y0 : y0 + side, x0 : x0 + side] = shaded.astype(np.uint8)


def draw_gem(
    canvas: np.ndarray,
    alpha: np.ndarray | None,
    centre: tuple[float, float],
    radius: float,
    look: GemLook,
) -> None:
    """Draw a faceted gem into ``canvas`` (BGR) and mark it in ``alpha`` (uint8), in place."""
    outline = _outline(centre, radius, look)
    table = [(centre[0] + (x - centre[0]) * TABLE_SHARE, centre[1] + (y - centre[1]) * TABLE_SHARE)
             for x, y in outline]
    _poly(canvas, outline, _shade(look.body, 0.5))
    for i in range(FACETS):
        j = (i + 1) % FACETS
        # the crown facets between the outline and the table, each lit its own way
        quad = np.array([outline[i], outline[j], table[j], table[i]], np.float64)
        inner = quad.copy()
        inner[:2] = quad[:2] + (quad[2:][::-1] - quad[:2]) * 0.06
        _poly(canvas, inner, _shade(look.body, look.facet_gains[i]))
    _poly(canvas, np.array(table, np.float64), _shade(look.body, 1.05))
    hx = centre[0] + look.highlight_at[0] * radius
    hy = centre[1] + look.highlight_at[1] * radius
    white = look.highlight_white
    light = tuple(int(round(v * (1 - white) + 255 * white)) for v in look.body)
    hr = max(1.0, look.highlight_size * radius)
    cv2.ellipse(canvas, ((hx, hy), (2 * hr, 1.3 * hr), look.turn_deg), light, -1, cv2.LINE_AA)
    if alpha is not None:
        _poly(alpha, outline, (255,))
