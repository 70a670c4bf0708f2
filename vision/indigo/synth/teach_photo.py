"""A simulated photo of an Indigo teach page with a pack's pieces laid on it (tests, demo).

The page is the printable one of :mod:`vision.indigo.teach`; the pieces are drawn as the
scene renderer draws them, then the camera effects are applied.
"""

from __future__ import annotations

import numpy as np

from vision.art_pack import BGR
from vision.indigo.pack import IndigoPack
from vision.indigo.settings import DEFAULT_SETTINGS, IndigoSettings
from vision.indigo.synth.gems import draw_gem, gem_look
from vision.indigo.synth.render import draw_disc, place_cell_image
from vision.indigo.teach import PIECE_SPOTS, TILE_CENTRE_MM, teach_sheet
from vision.synth.effects import apply_effects


def render_teach_photo(
    pack: IndigoPack,
    kind: int | None,
    *,
    settings: IndigoSettings = DEFAULT_SETTINGS,
    seed: int = 0,
    effects: tuple[str, ...] = ("whitebalance", "light", "perspective", "noise", "jpeg"),
    frame_size: tuple[int, int] = (1280, 960),
    gem_bodies: dict[str, BGR] | None = None,
    tile_scale: float = 1.0,
    tile_offset_mm: tuple[float, float] = (0.0, 0.0),
    tile_turn_deg: float = 0.0,
) -> np.ndarray:
    """A simulated photo of a teach page with ``pack``'s pieces on it (tests and the demo);
    with ``gem_bodies``, the gems are faceted real gems of those body colours. The tile is
    laid ``tile_offset_mm`` off the sheet's hexagon, turned ``tile_turn_deg`` clockwise, and
    ``tile_scale`` times the sheet's cell (a sheet printed smaller makes the tile larger)."""
    sheet = teach_sheet(settings)
    px_per_mm = 4.0
    page = sheet.page(kind, px_per_mm=px_per_mm)
    if kind is not None:
        centre = ((TILE_CENTRE_MM[0] + tile_offset_mm[0]) * px_per_mm,
                  (TILE_CENTRE_MM[1] + tile_offset_mm[1]) * px_per_mm)
        place_cell_image(page, pack.tiles[kind], centre,
                         tile_scale * sheet.cell_radius_mm * px_per_mm, tile_turn_deg)
    else:
        gem_r = pack.gem_size * sheet.cell_radius_mm * px_per_mm
        chip_r = pack.chip_size * sheet.cell_radius_mm * px_per_mm
        names = list(pack.chips)
        for what, name, (x, y) in PIECE_SPOTS:
            centre = (x * px_per_mm, y * px_per_mm)
            if what == "gem" and gem_bodies is not None:
                look = gem_look(gem_bodies[name], np.random.default_rng(seed + len(name)))
                draw_gem(page, None, centre, gem_r, look)
            elif what == "gem":
                draw_disc(page, centre, gem_r, pack.gems[name])
            else:
                index = ("red", "turquoise", "white", "purple").index(name)
                if index < len(names):
                    draw_disc(page, centre, chip_r, pack.chips[names[index]])
    table = np.empty((page.shape[0] + 200, page.shape[1] + 200, 3), np.uint8)
    table[:] = pack.table
    table[100:-100, 100:-100] = page
    return apply_effects(
        table, np.random.default_rng(seed), list(effects), frame_size=frame_size, max_tilt_deg=20.0
    ).image
