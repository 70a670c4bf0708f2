"""Reading the image a command is given: one clear line for a file that is not a good image.

libjpeg reports a damaged JPEG (a corrupt middle with an intact end) only as a warning on the
process's C-level stderr and hands back a grey-filled frame. A command must refuse such a file
(exit 2) rather than print libjpeg's words and read garbage, so the warning is caught here by
pointing file descriptor 2 at a temporary file for the moment of decoding. That is fine in a
command-line process and wrong in the app, whose other threads write to stderr too: the app
reads frames from cameras, not from files on a command line.
"""

from __future__ import annotations

import os
import sys
import tempfile
from typing import Any

#: what libjpeg and libpng print for a damaged file they still decode
DAMAGE_SIGNS = ("Corrupt JPEG data", "Premature end of JPEG file", "Invalid JPEG file",
                "libpng error", "IDAT: ")


def read_image_file(path: str) -> Any:
    """The BGR image at ``path``; UnreadableImageError (exit 2) when missing or damaged."""
    from vision.errors import UnreadableImageError
    from vision.image_io import read_image

    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as caught:
        os.dup2(caught.fileno(), 2)
        try:
            image = read_image(path)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        caught.seek(0)
        said = caught.read().decode("utf-8", "replace")
    damaged = [line for line in said.splitlines() if any(s in line for s in DAMAGE_SIGNS)]
    if damaged:
        raise UnreadableImageError(f"{path}: damaged image ({damaged[0].strip()})")
    return image
