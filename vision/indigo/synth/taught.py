"""A pack taught the way a player teaches one, from rendered photos of the real-table look.

``companion teach indigo`` takes the board's printed look from a photo of the empty board
(with its treasure tiles, before the gems and chips go on) and the gem and chip colours from a
photo of the pieces page. :func:`taught_pack` takes both photos of the renderer's real table
(:mod:`vision.indigo.synth.table`: the printed board, faceted gems) with the teach functions
themselves, so a bench reads the table with what the reader would really be taught.
"""

from __future__ import annotations

from dataclasses import replace

from vision.art_pack import BGR
from vision.indigo.pack import IndigoPack
from vision.indigo.settings import DEFAULT_SETTINGS, IndigoSettings
from vision.indigo.synth.gems import REAL_GEM_BODY
from vision.indigo.synth.table import REAL_BOARD, PrintedBoard, render_table_frame
from vision.indigo.synth.table_camera import TEACH
from vision.indigo.synth.teach_photo import render_teach_photo
from vision.indigo.teach import board_parts_from_photo, piece_colours_from_photo
from vision.indigo.view import BoardView


def taught_pack(
    pack: IndigoPack,
    *,
    board: PrintedBoard = REAL_BOARD,
    gem_bodies: dict[str, BGR] | None = None,
    settings: IndigoSettings = DEFAULT_SETTINGS,
    seed: int = 0,
) -> IndigoPack:
    """``pack``'s tiles with the board look and piece colours taught from rendered photos."""
    bodies = gem_bodies or REAL_GEM_BODY
    empty_board = BoardView(tiles={}, gems={}, centre=(), chips=None)
    photo = render_table_frame(empty_board, pack, settings=settings, seed=seed, conditions=TEACH,
                               board=board, gem_bodies=bodies).image
    parts = board_parts_from_photo(photo, settings=settings)
    pieces = render_teach_photo(pack, None, settings=settings, seed=seed, gem_bodies=bodies)
    colours = piece_colours_from_photo(pieces, pack.chip_space)
    return replace(
        pack,
        name=f"{pack.name}-taught",
        folder=None,
        empty=parts["empty"],
        centre=parts["centre"],
        corner=parts["corner"],
        rim=parts["rim"],
        table=parts["table"],
        gems=colours["gem"],
        chips=colours["chip"],
        description=f"{pack.description} Taught from rendered photos of the real table.",
    )
