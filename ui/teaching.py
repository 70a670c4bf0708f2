"""The app's teach path for Break the Code tiles: one photo of all 20 tiles, a pack, a check.

Everything here runs on a worker thread (:func:`ui.workers.run_job`) and touches no widget: the
teach screen hands a camera frame in and words what comes back. A photo gives a
:class:`TeachResult`: the pack (when every slot gave its tile and the pack reads its own photo
back), the photo straightened onto the mat's panel with each slot marked, and why it cannot be
used otherwise (slot problems, or a refusal of the whole photo; the screen words them, see
:mod:`ui.teach_words`). Saving writes the pack into a new folder beside the journal, owner-only
(:meth:`vision.break_the_code.pack.CodePack.save`), so a pack in use is never half overwritten.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from config import data_dir
from config.schema import Config

#: the name of a folder of taught packs inside the data dir, with the moment it was taught
PACK_FOLDER_PATTERN = "code-taught-{stamp}"
#: the slot marks on the straightened photo (BGR): a slot that gave its tile, one that did not
GOOD_MARK = (90, 200, 60)
BAD_MARK = (40, 40, 235)
#: the marks' line widths (pixels of the straightened photo at the reader's 4 px per mm)
GOOD_LINE_PX = 3
BAD_LINE_PX = 7


@dataclass
class TeachResult:
    """What one teach photo gave. ``pack`` is None unless the photo can be used; then
    ``problems`` (:class:`vision.break_the_code.teach_layout.SlotProblem`, one per slot that
    gave no usable tile) or ``refusal`` (the photo as a whole: no mat, colours alike, the pack
    misreads its own photo) says why. ``picture`` is the mat's panel straightened (BGR) with
    the slots marked, or the photo itself when the mat was not found."""

    pack: Any = None
    picture: Any = None
    good_slots: list[int] = field(default_factory=list)
    problems: list[Any] = field(default_factory=list)
    refusal: BaseException | None = None


def teach_from_frame(frame: Any, cfg: Config | None) -> TeachResult:
    """Find the 20 tiles of a teach photo and build their pack (worker thread)."""
    from vision.break_the_code.settings import DEFAULT_SETTINGS, CodeReaderSettings
    from vision.break_the_code.teach import pack_of_found
    from vision.break_the_code.teach_layout import find_teach_tiles
    from vision.errors import VisionError

    settings = CodeReaderSettings.from_config(cfg) if cfg is not None else DEFAULT_SETTINGS
    try:
        found, problems = find_teach_tiles(frame, settings=settings)
    except VisionError as exc:  # no mat in view, a picture too dark: the photo as a whole
        return TeachResult(picture=frame, refusal=exc)
    bad = {p.slot.index for p in problems}
    result = TeachResult(good_slots=[f.slot for f in found if f.slot not in bad],
                         problems=list(problems))
    result.picture = marked_picture(frame, result.good_slots, sorted(bad), settings)
    if problems:
        return result
    try:
        result.pack = pack_of_found(found, name="taught",
                                    description="taught from a photo in the app")
    except VisionError as exc:
        result.refusal = exc
    return result


def marked_picture(frame: Any, good: list[int], bad: list[int], settings: Any) -> Any:
    """The mat's panel of ``frame`` seen straight down, each slot of ``good`` framed thin
    and each of ``bad`` framed thick and crossed: told apart by shape, not by colour alone."""
    import cv2

    from vision.break_the_code.mat import SLOT_MM, SLOTS
    from vision.break_the_code.reader import VIEW_MM, find_mat, top_view

    picture = top_view(frame, find_mat(frame, settings=settings), settings=settings).copy()
    p = settings.px_per_mm
    for index, colour, width in ([(i, GOOD_MARK, GOOD_LINE_PX) for i in good]
                                 + [(i, BAD_MARK, BAD_LINE_PX) for i in bad]):
        cx, cy = SLOTS[index].centre_mm
        x0 = round((cx - SLOT_MM[0] / 2 - VIEW_MM[0]) * p)
        y0 = round((cy - SLOT_MM[1] / 2 - VIEW_MM[1]) * p)
        x1 = round((cx + SLOT_MM[0] / 2 - VIEW_MM[0]) * p)
        y1 = round((cy + SLOT_MM[1] / 2 - VIEW_MM[1]) * p)
        cv2.rectangle(picture, (x0, y0), (x1, y1), colour, width)
        if width == BAD_LINE_PX:
            cv2.line(picture, (x0, y0), (x1, y1), colour, width)
            cv2.line(picture, (x0, y1), (x1, y0), colour, width)
    return picture


def save_taught_pack(pack: Any, root: Path, cfg: Config) -> str:
    """Write ``pack`` into a new folder of ``root`` (the app's data folder, where its journal
    and settings file are) on a worker thread; returns the ``[vision.code] pack`` setting that
    names it: the folder's name when ``root`` is the config's data dir (where a relative name
    is looked for), else its whole path. Raises ArtPackError (naming the folder, for the log)
    when it cannot be written."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    name = PACK_FOLDER_PATTERN.format(stamp=stamp)
    suffix = 1
    while (root / name).exists():  # two teachings within a second: never write over one
        suffix += 1
        name = PACK_FOLDER_PATTERN.format(stamp=f"{stamp}-{suffix}")
    folder = pack.save(root / name)
    same_root = folder.parent.resolve() == data_dir(cfg).expanduser().resolve()
    return name if same_root else str(folder.resolve())


def check_rack(frame: Any, pack: Any, cfg: Config | None) -> Any:
    """Read a test rack with ``pack`` through the app's own rack read (worker thread), any
    number of tiles: a :class:`ui.reading.RackReading`."""
    from ui.reading import read_code_frame

    return read_code_frame(frame, expected=None, cfg=cfg, pack=pack)
