"""The puzzle card found on the straightened mat, whatever the table under it.

The mat's markers are printed on white paper, like the card: the paper's colour in the frame
(:func:`paper_gains`) takes out the colour cast and the exposure without assuming anything of
the table (wood, cloth or stone of any colour). The card is then the square of the card's side
that is whitest against a band just around it (:func:`find_card_square`): a lamp's glare on
the table next to the card, or a light table, does not grow the card as a patch of colour
would, and a hand's shadow over part of it leaves the square's best place where it was.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.enigma.mat import MAT_PX_PER_MM, CardRect, Mat
from vision.errors import FrameRefusedError
from vision.warp import warp_affine

#: the quiet zone around a marker: between these shares of its side from its centre
QUIET_ZONE = (0.6, 0.9)
#: the brightest share of the quiet zone's pixels that counts as paper (a hand or glare on a
#: part of one marker moves a median less than a mean)
PAPER_TOP = 0.5
#: the square search: coarse and fine resolution (px per mm), turns tried (degrees)
COARSE_PX_PER_MM, FINE_PX_PER_MM = 1.0, 2.0
COARSE_TURNS = tuple(range(-45, 45, 3))
FINE_TURNS = tuple(x / 2 for x in range(-4, 5))
#: the band around the square compared with it (share of the side)
BAND = 0.15
#: the card must be this much whiter than the band around it
MIN_CONTRAST = 0.15
#: whiteness: brightness against the paper, from this floor up to this top, and the chroma
#: (largest channel difference over the brightness) above which a pixel is no paper
WHITE_FLOOR, WHITE_TOP, MAX_CHROMA = 0.35, 0.85, 0.35


def paper_gains(mat: Mat) -> np.ndarray:
    """Per-channel gains that make the markers' paper white (255)."""
    image = mat.image
    h, w = image.shape[:2]
    whites = []
    size = mat.layout.size_mm * MAT_PX_PER_MM
    for cx, cy in mat.layout.centres_mm:
        x, y = mat.to_px(cx, cy)
        outer, inner = QUIET_ZONE[1] * size, QUIET_ZONE[0] * size
        xa, xb = max(0, int(x - outer)), min(w, int(x + outer))
        ya, yb = max(0, int(y - outer)), min(h, int(y + outer))
        if xb <= xa or yb <= ya:
            continue
        patch = image[ya:yb, xa:xb].reshape(-1, 3).astype(np.float32)
        gy, gx = np.mgrid[ya:yb, xa:xb]
        ring = (np.maximum(np.abs(gx - x), np.abs(gy - y)) >= inner).ravel()
        pix = patch[ring]
        if len(pix) < 20:
            continue
        bright = pix.sum(axis=1)
        top = pix[bright >= np.quantile(bright, 1 - PAPER_TOP)]
        whites.append(np.median(top, axis=0))
    if not whites:
        return np.ones(3, np.float32)
    white = np.median(np.array(whites), axis=0)
    gains: np.ndarray = (255.0 / np.maximum(white, 20.0)).astype(np.float32)
    return gains


def whiteness(image: np.ndarray) -> np.ndarray:
    """0 (not paper) .. 1 (paper): bright against the paper, and without colour."""
    img = image.astype(np.float32)
    bright = img.mean(axis=2)
    chroma = (img.max(axis=2) - img.min(axis=2)) / np.maximum(bright, 1.0)
    level = np.clip((bright / 255.0 - WHITE_FLOOR) / (WHITE_TOP - WHITE_FLOOR), 0, 1)
    out: np.ndarray = level * np.clip(1.0 - chroma / MAX_CHROMA, 0, 1)
    return out


def _best_square(white: np.ndarray, side: float, turns: tuple[float, ...],
                 allowed: np.ndarray) -> tuple[float, float, float, float]:
    """(score, x, y, turn): the square of ``side`` px whose inside is whitest against the band
    around it, its centre within ``allowed``."""
    h, w = white.shape
    centre = (w / 2, h / 2)
    s_in = max(3, int(round(side)))
    s_out = max(s_in + 2, int(round(side * (1 + 2 * BAND))))
    best = (-math.inf, 0.0, 0.0, 0.0)
    for turn in turns:
        m = cv2.getRotationMatrix2D(centre, turn, 1.0)
        turned = warp_affine(white, m, (w, h))
        ok = warp_affine(allowed.astype(np.float32), m, (w, h), nearest=True) > 0.5
        inside = cv2.boxFilter(turned, -1, (s_in, s_in), borderType=cv2.BORDER_CONSTANT)
        outer = cv2.boxFilter(turned, -1, (s_out, s_out), borderType=cv2.BORDER_CONSTANT)
        band = (outer * s_out * s_out - inside * s_in * s_in) / (s_out * s_out - s_in * s_in)
        score = np.where(ok, inside - band, -1.0)
        _, top, _, (px, py) = cv2.minMaxLoc(score)
        if top > best[0]:
            back = cv2.invertAffineTransform(m)
            x, y = back @ np.array([px + 0.5 * (s_in % 2 == 0), py + 0.5 * (s_in % 2 == 0),
                                    1.0])
            best = (float(top), float(x), float(y), float(turn))
    return best


def find_card_square(balanced: np.ndarray, card_mm: float, *,
                     exclude: tuple[tuple[float, float, float], ...] = ()) -> CardRect:
    """The card in the balanced mat image (paper white): the whitest square of its side in
    the left part of the mat. ``exclude``: squares (x, y, half side, px) left out (markers)."""
    h, w = balanced.shape[:2]
    white = whiteness(balanced)
    for x, y, half in exclude:
        white[max(0, int(y - half)):int(y + half), max(0, int(x - half)):int(x + half)] = 0
    found: tuple[float, float, float, float] | None = None
    for scale, turns in ((COARSE_PX_PER_MM, COARSE_TURNS), (FINE_PX_PER_MM, FINE_TURNS)):
        k = scale / MAT_PX_PER_MM
        small = cv2.resize(white, (int(w * k), int(h * k)), interpolation=cv2.INTER_AREA)
        allowed = np.zeros(small.shape, bool)
        if found is None:
            allowed[:, :int(small.shape[1] * 0.55)] = True  # the card lies in the left part
        else:
            cx, cy = found[1] * k, found[2] * k
            reach = 3 * MAT_PX_PER_MM * k / COARSE_PX_PER_MM * 2
            allowed[max(0, int(cy - reach)):int(cy + reach) + 1,
                    max(0, int(cx - reach)):int(cx + reach) + 1] = True
            turns = tuple(found[3] + t for t in FINE_TURNS)
        score, x, y, turn = _best_square(small, card_mm * scale, turns, allowed)
        found = (score, x / k, y / k, turn)
    assert found is not None
    if found[0] < MIN_CONTRAST:
        raise FrameRefusedError("no puzzle card on the mat (nothing there is as white as the "
                                "markers' paper)", reason="no-card")
    # the image turned counter-clockwise by ``turn`` made the card upright: the card is
    # turned that much clockwise
    return CardRect((found[1], found[2]), card_mm * MAT_PX_PER_MM, found[3])


__all__ = ["find_card_square", "paper_gains", "whiteness"]
