"""Reading image files strictly: a truncated or corrupt file is an error, never half a frame.

OpenCV decodes a truncated JPEG with a warning and a grey lower part; a reader working on that
would read a board that is not there. :func:`read_image` refuses such files with
:class:`~vision.errors.UnreadableImageError` (exit 2).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.errors import UnreadableImageError


def check_complete(data: bytes, *, name: str = "image") -> None:
    """Raise UnreadableImageError when JPEG or PNG data lacks its end marker."""
    if not data:
        raise UnreadableImageError(f"{name}: the file is empty")
    if data[:2] == b"\xff\xd8":
        if b"\xff\xd9" not in data[-64:]:
            raise UnreadableImageError(f"{name}: truncated JPEG (no end-of-image marker)")
    elif data[:8] == b"\x89PNG\r\n\x1a\n":
        if b"IEND" not in data[-16:]:
            raise UnreadableImageError(f"{name}: truncated PNG (no IEND chunk)")


def decode_image(data: bytes, *, name: str = "image") -> np.ndarray:
    """Decode JPEG/PNG/... bytes into a BGR frame, refusing truncated or corrupt data."""
    check_complete(data, name=name)
    frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if frame is None or frame.size == 0:
        raise UnreadableImageError(f"{name}: not an image OpenCV can decode")
    return frame


def read_image(path: str | Path) -> np.ndarray:
    """Read an image file as BGR; UnreadableImageError for a missing, truncated or bad file."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise UnreadableImageError(f"{p}: cannot read: {exc.strerror or exc}") from None
    return decode_image(data, name=str(p))
