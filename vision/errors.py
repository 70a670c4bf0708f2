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
    ``"bad-homography"``, ``"wrong-game"``, ``"no-board"``...), ``message`` says it in words.
    Every reader's refusal renders as the same one line, ``frame refused: <message>``, so a
    command line prints ``companion: error: {exc}`` and the UI shows ``str(exc)``:

    >>> str(FrameRefusedError("no markers found", reason="no-markers"))
    'frame refused: no markers found'
    """

    exit_code = 4
    PREFIX = "frame refused: "

    def __init__(self, message: str, *, reason: str = "refused") -> None:
        # a refusal re-raised from another keeps one prefix, not two
        if message.startswith(self.PREFIX):
            message = message[len(self.PREFIX) :]
        super().__init__(message)
        self.message = message
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.PREFIX}{self.message}"


class UnreadableImageError(VisionError, ValueError):
    """The input is not an image at all: missing file, truncated or corrupt data."""

    exit_code = 2


class CameraError(VisionError, OSError):
    """A camera failed to open, or stopped delivering frames (unplugged, busy, timed out)."""

    exit_code = 1


class ArtPackError(VisionError, ValueError):
    """An art pack folder is missing, incomplete or its manifest is malformed."""

    exit_code = 2


class ImageWriteError(VisionError, OSError):
    """An image or printable could not be written: its folder is missing, no permission, full."""

    exit_code = 1


class ImageFormatError(VisionError, ValueError):
    """An image was asked for in a format that cannot be written (``x.txt``): a bad option."""

    exit_code = 2
