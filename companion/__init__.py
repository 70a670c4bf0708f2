"""Tabletop Companion's core: game rules, records, the session, the timer and the journal.

This package uses the standard library only and never imports cv2, kivy, gpiozero or
picamera2; ``tests/test_architecture.py`` enforces that.
"""

__version__ = "0.1.0"
