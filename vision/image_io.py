"""Reading and writing image files strictly, with errors a person can act on.

OpenCV decodes a truncated JPEG with a warning and a grey lower part; a reader working on that
would read a board that is not there. :func:`read_image` refuses such files with
:class:`~vision.errors.UnreadableImageError` (exit 2).

Writing goes through :func:`write_image` (a camera frame, PNG or JPEG) and :func:`write_pages`
(printables at true scale, PDF or PNG): a missing folder or an unsupported extension is one
clear :class:`~vision.errors.ImageWriteError` (exit 1) or
:class:`~vision.errors.ImageFormatError` (exit 2), never OpenCV's assertion text.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.errors import ImageFormatError, ImageWriteError, UnreadableImageError


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


#: extensions :func:`write_image` writes (camera frames)
FRAME_SUFFIXES = (".png", ".jpg", ".jpeg")
#: extensions :func:`write_pages` writes (printables)
PAGE_SUFFIXES = (".pdf", ".png")


def check_writable(path: str | Path, *, suffixes: Sequence[str] = FRAME_SUFFIXES) -> Path:
    """The path, once its extension is one of ``suffixes`` and its folder exists.

    Call it before expensive work (rendering) so that a typo fails at once.
    ImageFormatError (exit 2) for the extension, ImageWriteError (exit 1) for the folder.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in suffixes:
        what = f"a {suffix} file" if suffix else "a file without an extension"
        raise ImageFormatError(f"{p}: cannot write {what}; use {' or '.join(suffixes)}")
    folder = p.parent
    if not folder.exists():
        raise ImageWriteError(f"{p}: the folder {folder} does not exist")
    if not folder.is_dir():
        raise ImageWriteError(f"{p}: {folder} is not a folder")
    if p.is_dir():
        raise ImageWriteError(f"{p}: is a folder, not a file name")
    return p


def _write_bytes(p: Path, data: bytes) -> None:
    try:
        p.write_bytes(data)
    except OSError as exc:
        raise ImageWriteError(f"{p}: cannot write: {exc.strerror or exc}") from None


def write_image(path: str | Path, image: np.ndarray, *, jpeg_quality: int = 95) -> Path:
    """Write a BGR (or grey) frame as PNG or JPEG; returns the path written.

    ``x.txt`` raises ImageFormatError ("x.txt: cannot write a .txt file; use .png or .jpg or
    .jpeg"), a missing folder ImageWriteError ("... the folder /nonexist does not exist").
    """
    p = check_writable(path)
    params = [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)] if p.suffix.lower() != ".png" else []
    ok, buffer = cv2.imencode(p.suffix.lower(), image, params)
    if not ok:
        raise ImageFormatError(f"{p}: OpenCV cannot encode this image as {p.suffix}")
    _write_bytes(p, buffer.tobytes())
    return p


def page_paths(path: str | Path, pages: int) -> list[Path]:
    """Where :func:`write_pages` puts ``pages`` pages: one PDF, or one PNG per page.

    >>> [str(p) for p in page_paths("t.png", 3)]
    ['t-1.png', 't-2.png', 't-3.png']
    >>> [str(p) for p in page_paths("t.pdf", 3)]
    ['t.pdf']
    """
    p = Path(path)
    if p.suffix.lower() == ".pdf" or pages <= 1:
        return [p]
    return [p.with_name(f"{p.stem}-{n}{p.suffix}") for n in range(1, pages + 1)]


def write_pages(path: str | Path, pages: Sequence[np.ndarray], *, dpi: int) -> list[Path]:
    """Write printable pages at ``dpi``: a multi-page PDF, or PNGs (one file per page,
    ``NAME-1.png``, ``NAME-2.png``... when there are several); returns the files written.
    """
    from PIL import Image

    if not pages:
        raise ValueError("no pages to write")
    p = check_writable(path, suffixes=PAGE_SUFFIXES)
    pils = [
        Image.fromarray(cv2.cvtColor(pg, cv2.COLOR_BGR2RGB) if pg.ndim == 3 else pg)
        for pg in pages
    ]
    targets = page_paths(p, len(pils))
    try:
        if p.suffix.lower() == ".pdf":
            rgb = [im.convert("RGB") for im in pils]
            rgb[0].save(p, "PDF", resolution=float(dpi), save_all=True, append_images=rgb[1:])
        else:
            for im, target in zip(pils, targets, strict=True):
                im.save(target, "PNG", dpi=(dpi, dpi))
    except OSError as exc:
        raise ImageWriteError(f"{p}: cannot write: {exc.strerror or exc}") from None
    return targets
