"""Touch-target sizes: every control is at least 9 mm on the glass, whatever the display.

Kivy's ``mm`` follows ``Metrics.dpi``; desktop and Xvfb report 96 dpi, where 9 mm is 34 px.
The 7" display is about 133 dpi, where 9 mm is 47 px, so ``dp(48)`` is the floor too.
"""

from __future__ import annotations

MIN_TARGET_MM = 9.0


def min_target_px() -> float:
    """The smallest width and height in pixels a touch target may have on this display."""
    from kivy.metrics import dp, mm

    return float(max(mm(MIN_TARGET_MM), dp(48)))


def required_target_px() -> float:
    """What a test asserts: 9 mm at the display's reported dpi."""
    from kivy.metrics import mm

    return float(mm(MIN_TARGET_MM))


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
