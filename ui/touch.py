"""Touch-target sizes: every control is at least 9 mm on the glass.

Sizes in millimetres go through one figure, :data:`DISPLAY_PX_PER_MM`, the screen's pixels
per millimetre: Kivy's ``mm`` follows ``Metrics.dpi``, which desktops and Xvfb report as 96
(9 mm would be 34 px) and which says nothing of the glass the players touch.
"""

from __future__ import annotations

import math

#: pixels per millimetre of the display the app is laid out for: a 7-inch 800x480 touchscreen,
#: taken at about 6.3 px per mm (9 mm is 57 px); the 720x1280 portrait display uses the same
#: figure. App and tests measure every size in mm through it
DISPLAY_PX_PER_MM = 6.3
MIN_TARGET_MM = 9.0


def mm_to_px(millimetres: float) -> float:
    """Pixels on the display for a length in millimetres."""
    return millimetres * DISPLAY_PX_PER_MM


def px_to_mm(pixels: float) -> float:
    """Millimetres on the display for a length in pixels (what a test asserts)."""
    return pixels / DISPLAY_PX_PER_MM


def min_target_px() -> float:
    """The smallest width and height in whole pixels a touch target may have."""
    return float(math.ceil(mm_to_px(MIN_TARGET_MM)))


def required_target_px() -> float:
    """What a test asserts: 9 mm on the display."""
    return mm_to_px(MIN_TARGET_MM)


def text_width(text: str, font_size: float | str, *, bold: bool = False) -> float:
    """The width in pixels of one line of ``text`` in the default font (to size buttons)."""
    from kivy.core.text import Label as CoreLabel
    from kivy.metrics import sp

    size = sp(float(font_size[:-2])) if isinstance(font_size, str) and font_size.endswith("sp") \
        else float(font_size)
    label = CoreLabel(text=text, font_size=size, bold=bold)
    label.refresh()
    return float(label.texture.size[0]) if label.texture else 0.0


def fit_width(text: str, font_size: float | str, *, minimum: float = 0.0,
              padding: float = 20.0) -> float:
    """A button width that holds ``text`` on one line and is never under ``minimum``."""
    return max(minimum, min_target_px(), text_width(text, font_size) + padding)
