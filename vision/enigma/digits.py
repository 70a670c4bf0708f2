"""Reading the small printed numbers of a puzzle card (the weight card's values and count).

A card may be printed in any plain font, so a digit is compared with the digits of several
fonts and stroke weights (cv2's Hershey fonts, upright and not); the best digit must beat every
other digit clearly, else the number is "unclear" and the players enter it. A digit is one
patch of ink (or patches one above the other, when a thin stroke broke).
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

# the fonts the templates are drawn in: (font, stroke width as a share of the digit height)
TEMPLATE_FONTS: tuple[tuple[int, float], ...] = (
    (cv2.FONT_HERSHEY_SIMPLEX, 0.09), (cv2.FONT_HERSHEY_SIMPLEX, 0.16),
    (cv2.FONT_HERSHEY_DUPLEX, 0.10), (cv2.FONT_HERSHEY_TRIPLEX, 0.08),
    (cv2.FONT_HERSHEY_PLAIN, 0.10), (cv2.FONT_HERSHEY_SIMPLEX | cv2.FONT_ITALIC, 0.10),
)
SIZE = (20, 28)  # (w, h) a digit is compared at
MIN_SCORE = 0.55  # the best digit's likeness below this: unclear
MIN_MARGIN = 0.08  # the best digit must beat the next by this much


def _normalise(mask: np.ndarray) -> tuple[np.ndarray, float]:
    """A digit's ink cropped, scaled into SIZE keeping its shape (a narrow 1 stays narrow,
    centred), blurred a little; and its width over height."""
    ys, xs = np.nonzero(mask)
    crop = mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32)
    h, w = crop.shape
    scale = min(SIZE[0] / w, SIZE[1] / h)
    nw, nh = max(1, int(round(w * scale))), max(1, int(round(h * scale)))
    small = cv2.resize(crop, (nw, nh), interpolation=cv2.INTER_AREA)
    out: np.ndarray = np.zeros((SIZE[1], SIZE[0]), np.float32)
    x0, y0 = (SIZE[0] - nw) // 2, (SIZE[1] - nh) // 2
    out[y0:y0 + nh, x0:x0 + nw] = small
    out = cv2.GaussianBlur(out, (5, 5), 1.2)
    out -= out.mean()
    norm = float(np.sqrt((out * out).sum()))
    return out / max(norm, 1e-6), w / h


@lru_cache(maxsize=1)
def _templates() -> list[tuple[str, np.ndarray, float]]:
    out = []
    for font, stroke in TEMPLATE_FONTS:
        for d in "0123456789":
            img = np.zeros((120, 100), np.uint8)
            scale = 2.4
            (_, th), _ = cv2.getTextSize(d, font, scale, 1)
            thick = max(1, int(round(stroke * th)))
            cv2.putText(img, d, (15, 95), font, scale, 255, thick, cv2.LINE_AA)
            feat, aspect = _normalise(img > 127)
            out.append((d, feat, aspect))
    return out


def read_digit(mask: np.ndarray) -> tuple[str, float, float]:
    """(digit, likeness of the best, its lead over the best other digit) for one digit's ink."""
    feat, aspect = _normalise(mask)
    best: dict[str, float] = {}
    for d, t, t_aspect in _templates():
        score = float((feat * t).sum())
        # a shape of another width is another glyph, however alike after scaling
        score -= max(0.0, abs(np.log(max(aspect, 0.05) / max(t_aspect, 0.05))) - 0.35)
        best[d] = max(best.get(d, -1.0), score)
    ranked = sorted(best.items(), key=lambda kv: -kv[1])
    return ranked[0][0], ranked[0][1], ranked[0][1] - ranked[1][1]


def digit_patches(ink: np.ndarray, box: tuple[int, int, int, int], min_height: float
                  ) -> list[np.ndarray]:
    """The digits whose ink is centred in ``box`` (x0, y0, x1, y1), left to right, as masks
    of the whole image's size: patches of ink at least ``min_height`` tall, with the broken
    pieces lying above or below one of them."""
    n, lab, stats, cents = cv2.connectedComponentsWithStats(ink.astype(np.uint8),
                                                            connectivity=8)
    x0, y0, x1, y1 = box
    inside = [k for k in range(1, n) if x0 <= cents[k][0] < x1 and y0 <= cents[k][1] < y1
              and stats[k, cv2.CC_STAT_AREA] >= 4]
    tall = [k for k in inside if stats[k, cv2.CC_STAT_HEIGHT] >= min_height]
    tall.sort(key=lambda k: stats[k, cv2.CC_STAT_LEFT])
    groups: list[list[int]] = [[k] for k in tall]
    for k in inside:
        if k in tall:
            continue
        left, width = stats[k, cv2.CC_STAT_LEFT], stats[k, cv2.CC_STAT_WIDTH]
        for g in groups:
            gl, gw = stats[g[0], cv2.CC_STAT_LEFT], stats[g[0], cv2.CC_STAT_WIDTH]
            overlap = min(left + width, gl + gw) - max(left, gl)
            if overlap > 0.5 * min(width, gw):
                g.append(k)
                break
    return [np.isin(lab, g) for g in groups]


def read_number(ink: np.ndarray, box: tuple[int, int, int, int], digit_height: float
                ) -> tuple[int | None, str]:
    """The number printed in ``box`` of an ink mask, or None and why it is unclear."""
    patches = digit_patches(ink, box, 0.6 * digit_height)
    if not patches:
        return None, "no number is seen"
    text = ""
    for patch in patches:
        ys, _ = np.nonzero(patch)
        if ys.max() - ys.min() + 1 > 1.5 * digit_height:
            return None, "the number touches other ink"
        digit, score, lead = read_digit(patch)
        if score < MIN_SCORE or lead < MIN_MARGIN:
            return None, f"a digit is unclear (best {digit}, likeness {score:.2f}, lead " \
                f"{lead:.2f})"
        text += digit
    return int(text), ""


__all__ = ["MIN_MARGIN", "MIN_SCORE", "TEMPLATE_FONTS", "digit_patches", "read_digit",
           "read_number"]
