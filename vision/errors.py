"""The vision layer's errors: one root, leaves that also subclass the matching built-in.

The command line turns an error into one line on stderr and exits with ``exit_code``
(``getattr(exc, "exit_code", 1)``): a refused frame exits 4, unreadable input exits 2.
"""

from __future__ import annotations

from companion.errors import CompanionError


class VisionError(CompanionError):
    """Root of every error raised by the ``vision`` package."""

    exit_code = 1


class FrameRefusedError(VisionError, ValueError):
    """A frame was read but cannot be trusted: no board, too blurred, wrong game, bad fit.

    ``reason`` is a short machine-friendly tag (``"no-markers"``, ``"blurred"``,
    ``"bad-homography"``, ``"wrong-game"``, ``"no-board"``...), the message says it in words.
    """

    exit_code = 4

    def __init__(self, message: str, *, reason: str = "refused") -> None:
        super().__init__(message)
        self.reason = reason


class UnreadableImageError(VisionError, ValueError):
    """The input is not an image at all: missing file, truncated or corrupt data."""

    exit_code = 2


class CameraError(VisionError, OSError):
    """A camera failed to open, or stopped delivering frames (unplugged, busy, timed out)."""

    exit_code = 1


class ArtPackError(VisionError, ValueError):
    """An art pack folder is missing, incomplete or its manifest is malformed."""

    exit_code = 2
