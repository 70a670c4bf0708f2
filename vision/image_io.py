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

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import BinaryIO

import cv2
import numpy as np

from vision.errors import ImageFormatError, ImageWriteError, UnreadableImageError

#: a side shorter than this holds no board, tile or sheet a reader could find
MIN_SIDE = 32
#: the longest side kept at load; anything larger is reduced (an 8000 px phone photo would
#: take seconds and gigabytes on a Pi, and no reader needs more than a Camera Module 3 still)
MAX_SIDE = 5000
#: larger images are refused from their header, before any decoding (decompression bombs)
MAX_PIXELS = 120_000_000

_JPEG_SOI = b"\xff\xd8"
# a JPEG's APP1 segment (EXIF) is at most 64 KiB and comes before the image data
_EXIF_SEARCH = 1 << 18
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# SOF markers carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but don't
_JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
# markers that stand alone, without a length: TEM and the restart markers RST0..RST7
_JPEG_BARE = frozenset({0x01, *range(0xD0, 0xD8)})


def _jpeg_scan_end(data: bytes, pos: int) -> int:
    """The offset of the marker that ends the entropy-coded data starting at ``pos``."""
    while True:
        pos = data.find(b"\xff", pos)
        if pos < 0 or pos + 1 >= len(data):
            return len(data)
        following = data[pos + 1]
        # FF00 is a stuffed FF byte, FFD0..FFD7 restart markers, FFFF fill: all inside the scan
        if following == 0 or following in _JPEG_BARE or following == 0xFF:
            pos += 1 if following == 0xFF else 2
            continue
        return pos


def jpeg_layout(data: bytes) -> tuple[int, tuple[int, int] | None]:
    """``(end, (width, height))`` of the JPEG ``data`` starts with; end is 0 when truncated.

    The segments are walked from the start: an end marker inside an embedded thumbnail, or in
    data appended after the image (motion photos), is never taken for the image's own end.
    """
    pos, size = 2, None
    while pos + 2 <= len(data):
        if data[pos] != 0xFF:
            return 0, size
        marker = data[pos + 1]
        if marker == 0xFF:  # fill bytes before a marker
            pos += 1
            continue
        if marker == 0xD9:
            return pos + 2, size
        if marker in _JPEG_BARE:
            pos += 2
            continue
        if pos + 4 > len(data):
            return 0, size
        length = int.from_bytes(data[pos + 2:pos + 4], "big")
        if marker in _JPEG_SOF and pos + 9 <= len(data):
            size = (int.from_bytes(data[pos + 7:pos + 9], "big"),
                    int.from_bytes(data[pos + 5:pos + 7], "big"))
        pos += 2 + length
        if marker == 0xDA:  # start of scan: entropy-coded data up to the next marker
            pos = _jpeg_scan_end(data, pos)
    return 0, size


#: reads ``count`` bytes at ``offset`` (fewer at the end): bytes in memory or a file alike
ByteSource = Callable[[int, int], bytes]


def png_chunks(read_at: ByteSource) -> tuple[int, tuple[int, int] | None, bool]:
    """``(end, (width, height), has_exif)`` of the PNG that starts the source; end is 0 when
    truncated. Only the chunk headers are read: a file need not be loaded to be checked."""
    pos, size, has_exif = 8, None, False
    while len(header := read_at(pos, 16)) >= 12:
        length = int.from_bytes(header[:4], "big")
        kind = header[4:8]
        if kind == b"IHDR" and length >= 8 and len(header) >= 16:
            size = (int.from_bytes(header[8:12], "big"), int.from_bytes(header[12:16], "big"))
        has_exif = has_exif or kind == b"eXIf"
        pos += 12 + length
        if kind == b"IEND":
            return (pos if len(read_at(pos - 1, 1)) == 1 else 0), size, has_exif
    return 0, size, has_exif


def png_layout(data: bytes) -> tuple[int, tuple[int, int] | None]:
    """``(end, (width, height))`` of the PNG ``data`` starts with; end is 0 when truncated."""
    end, size, _ = png_chunks(lambda offset, count: bytes(data[offset:offset + count]))
    return end, size


def complete_part(
    data: bytes, *, name: str = "image"
) -> tuple[memoryview, tuple[int, int] | None]:
    """The image itself (trailing data after a JPEG's or PNG's end dropped, without a copy)
    and its size when the header tells it; UnreadableImageError for empty or truncated data."""
    if not data:
        raise UnreadableImageError(f"{name}: the file is empty")
    if data[:2] == _JPEG_SOI:
        end, size = jpeg_layout(data)
        if not end:
            raise UnreadableImageError(f"{name}: truncated JPEG (no end-of-image marker)")
        return memoryview(data)[:end], size
    if data[:8] == _PNG_SIGNATURE:
        end, size = png_layout(data)
        if not end:
            raise UnreadableImageError(f"{name}: truncated PNG (no IEND chunk)")
        return memoryview(data)[:end], size
    return memoryview(data), None


def check_complete(data: bytes, *, name: str = "image") -> None:
    """Raise UnreadableImageError when JPEG or PNG data lacks its end marker."""
    complete_part(data, name=name)


def _check_size(size: tuple[int, int], *, name: str) -> None:
    width, height = size
    if min(width, height) < MIN_SIDE:
        raise UnreadableImageError(
            f"{name}: the image is {width}x{height} pixels; at least {MIN_SIDE} on a side"
        )
    if width * height > MAX_PIXELS:
        raise UnreadableImageError(
            f"{name}: the image is {width}x{height} pixels, more than "
            f"{MAX_PIXELS // 1_000_000} megapixels"
        )


def _reduced_flag(size: tuple[int, int] | None) -> int:
    # libjpeg decodes at 1/2, 1/4 or 1/8 scale directly, in a fraction of the time and memory;
    # OpenCV reduces a PNG while decoding it, at well under the memory of a whole decode
    if size is None or max(size) <= MAX_SIDE:
        return int(cv2.IMREAD_COLOR)
    for factor, flag in ((2, cv2.IMREAD_REDUCED_COLOR_2), (4, cv2.IMREAD_REDUCED_COLOR_4)):
        if max(size) / factor <= MAX_SIDE:
            return int(flag)
    return int(cv2.IMREAD_REDUCED_COLOR_8)  # still too large: _shrunk resizes the rest


def exif_orientation(data: bytes) -> int:
    """The EXIF orientation (1..8) of JPEG or PNG ``data``; 1 when there is none."""
    import io
    import warnings

    from PIL import Image

    head = bytes(data[:_EXIF_SEARCH])
    if head[:2] == _JPEG_SOI:
        if b"Exif\x00\x00" not in head:  # EXIF lives in an APP1 segment at the start
            return 1
        data = head
    elif head[:8] == _PNG_SIGNATURE and b"eXIf" not in data:
        return 1  # without the chunk PIL would decode the whole image to look for it
    try:
        # Image.open reads the header only; its size warnings are ours to give (MAX_PIXELS)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(data)) as image:
                value = image.getexif().get(0x0112, 1)
    except Exception:  # a damaged EXIF block is no orientation, not an unreadable image
        return 1
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def upright(frame: np.ndarray, orientation: int) -> np.ndarray:
    """``frame`` turned as EXIF ``orientation`` says, so that the scene stands upright."""
    if orientation in (5, 6, 7, 8):
        frame = cv2.transpose(frame)
    flip = {2: 1, 3: -1, 4: 0, 6: 1, 7: -1, 8: 0}.get(orientation)
    return frame if flip is None else cv2.flip(frame, flip)


def _shrunk(frame: np.ndarray) -> np.ndarray:
    longest = max(frame.shape[:2])
    if longest <= MAX_SIDE:
        return frame
    scale = MAX_SIDE / longest
    size = (max(1, round(frame.shape[1] * scale)), max(1, round(frame.shape[0] * scale)))
    return cv2.resize(frame, size, interpolation=cv2.INTER_AREA)


def decode_image(data: bytes, *, name: str = "image") -> np.ndarray:
    """Decode JPEG/PNG/... bytes into an upright BGR frame of at most :data:`MAX_SIDE`.

    Refuses (UnreadableImageError) truncated or corrupt data and images smaller than
    :data:`MIN_SIDE` on a side; data after a JPEG's or PNG's end (a phone's motion photo,
    an appended thumbnail) is ignored; the EXIF orientation is applied.
    """
    image, size = complete_part(data, name=name)
    if size is not None:
        _check_size(size, name=name)
    flag = _reduced_flag(size) | cv2.IMREAD_IGNORE_ORIENTATION
    frame = cv2.imdecode(np.frombuffer(image, np.uint8), flag)
    if frame is None or frame.size == 0:
        raise UnreadableImageError(f"{name}: not an image OpenCV can decode")
    if size is None:
        _check_size((frame.shape[1], frame.shape[0]), name=name)
    return _shrunk(upright(frame, exif_orientation(data)))


def _read_png_file(path: Path, file: BinaryIO) -> np.ndarray:
    # a PNG is decoded by OpenCV from the file itself: holding the file's bytes as well as
    # the decoded pixels would double the memory a huge PNG costs
    def read_at(offset: int, count: int) -> bytes:
        file.seek(offset)
        return file.read(count)

    end, size, has_exif = png_chunks(read_at)
    if not end:
        raise UnreadableImageError(f"{path}: truncated PNG (no IEND chunk)")
    if size is not None:
        _check_size(size, name=str(path))
    frame = cv2.imread(str(path), _reduced_flag(size) | cv2.IMREAD_IGNORE_ORIENTATION)
    if frame is None or frame.size == 0:
        raise UnreadableImageError(f"{path}: not an image OpenCV can decode")
    if size is None:
        _check_size((frame.shape[1], frame.shape[0]), name=str(path))
    orientation = exif_orientation(read_at(0, end)) if has_exif else 1
    return _shrunk(upright(frame, orientation))


def read_image(path: str | Path) -> np.ndarray:
    """Read an image file as BGR; UnreadableImageError for a missing, truncated or bad file."""
    p = Path(path)
    try:
        with p.open("rb") as file:
            if file.read(len(_PNG_SIGNATURE)) == _PNG_SIGNATURE:
                return _read_png_file(p, file)
            file.seek(0)
            data = file.read()
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
