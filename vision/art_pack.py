"""Art packs: how a game's pieces look, as data (see ``docs/vision.md``).

A pack is a folder with ``manifest.json`` and PNG images. Every manifest names its format
(:data:`FORMAT`) and its game; the rest is the game's own (Indigo's is described in
:mod:`vision.indigo.pack`, Enigma's in :mod:`vision.enigma.pack`). This module holds what all
games' packs share: the manifest check, ``#rrggbb`` colours, loading a pack image and
writing a pack.

A taught pack is made from photos of someone's own table, so it is written for its owner only
(folder 0700, files 0600), whatever the umask.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.errors import ArtPackError

FORMAT = "tabletop-companion/art-pack/1"
PACKS_DIR = Path(__file__).resolve().parent / "packs"

BGR = tuple[int, int, int]

#: a written pack's folder and files: its owner's only
PACK_FOLDER_MODE = 0o700
PACK_FILE_MODE = 0o600


def parse_colour(text: object, *, where: str = "colour") -> BGR:
    """``"#rrggbb"`` -> (b, g, r). Any other JSON value (a number, null) is an ArtPackError."""
    t = str(text).strip()
    if len(t) != 7 or not t.startswith("#"):
        raise ArtPackError(f"{where}: {text!r} is not a #rrggbb colour")
    try:
        r, g, b = (int(t[i : i + 2], 16) for i in (1, 3, 5))
    except ValueError:
        raise ArtPackError(f"{where}: {text!r} is not a #rrggbb colour") from None
    return (b, g, r)


def format_colour(bgr: BGR | np.ndarray) -> str:
    b, g, r = (int(round(float(v))) for v in bgr)
    return f"#{r:02x}{g:02x}{b:02x}"


def load_pack_image(folder: Path, name: Any, what: str) -> np.ndarray:
    """The pack image ``name`` of ``folder`` as a square BGR image (``what`` names it in errors).

    Grey images become BGR, a transparent one is composited on mid grey, and a non-square one
    is padded with mid grey to a square around its middle.
    """
    if not isinstance(name, str) or not name:
        raise ArtPackError(f"{folder}: manifest entry {what!r} must name a PNG file")
    path = folder / name
    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise ArtPackError(f"{folder}: {what} image {name!r} is missing or unreadable")
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    elif img.shape[2] == 4:
        # transparent outside the hexagon: composite on mid grey, the reader masks it anyway
        alpha = img[:, :, 3:4].astype(np.float32) / 255
        img = (img[:, :, :3] * alpha + 128 * (1 - alpha)).astype(np.uint8)
    h, w = img.shape[:2]
    if h != w:
        side = max(h, w)
        pad = np.full((side, side, 3), 128, np.uint8)
        pad[(side - h) // 2 : (side - h) // 2 + h, (side - w) // 2 : (side - w) // 2 + w] = img
        img = pad
    return img


def read_manifest(path: Path, game: str) -> tuple[Path, dict[str, Any]]:
    """The checked ``manifest.json`` of the pack folder ``path``: its path and its object.

    ArtPackError names the folder or file when it is missing, unreadable, of another format,
    or a pack for another game.
    """
    manifest_path = path / "manifest.json"
    try:
        data = json.loads(manifest_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ArtPackError(f"{path}: not an art pack (no manifest.json)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ArtPackError(f"{manifest_path}: unreadable manifest: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ArtPackError(f"{manifest_path}: format must be {FORMAT!r}")
    if data.get("game") != game:
        raise ArtPackError(f"{manifest_path}: a pack for {data.get('game')!r}, not {game}")
    return manifest_path, data


def write_private_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` readable by its owner only (0600), whatever the umask."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PACK_FILE_MODE)
    try:
        os.fchmod(fd, PACK_FILE_MODE)  # os.open's mode passes through the umask
        with os.fdopen(fd, "wb") as file:
            fd = -1
            file.write(data)
    finally:
        if fd >= 0:
            os.close(fd)


def write_pack(folder: Path, images: Mapping[str, np.ndarray], manifest: dict[str, Any]) -> Path:
    """Write a pack into ``folder``: each image as the PNG file it is named by, then
    ``manifest.json``; ArtPackError names the file that cannot be written."""
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=PACK_FOLDER_MODE)
        folder.chmod(PACK_FOLDER_MODE)
        for name, image in images.items():
            ok, encoded = cv2.imencode(".png", image)
            if not ok:
                raise ArtPackError(f"{folder / name}: cannot encode the image as PNG")
            write_private_file(folder / name, encoded.tobytes())
        text = json.dumps(manifest, indent=2) + "\n"
        write_private_file(folder / "manifest.json", text.encode("utf-8"))
    except OSError as exc:
        raise ArtPackError(f"{folder}: cannot write the pack: {exc.strerror or exc}") from None
    return folder
