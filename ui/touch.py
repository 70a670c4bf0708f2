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
