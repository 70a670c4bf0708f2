"""One photo of an Indigo board in play: a seeded position, drawn in a look, through a camera
condition. The position depends on the seed alone, so one board is seen in every look and
condition; the hand that laid the pieces, the camera and the light depend on all three."""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass

import numpy as np

from companion.indigo import ROUTE_CELLS, cell_centre, new_game

from .camera import lighting_gain
from .indigo_art import LOOKS, Look
from .indigo_board import (
    BOARD_RADIUS_MM,
    CELL_RADIUS_MM,
    Hand,
    Truth,
    draw_layers,
    random_position,
    truth_of,
)
from .indigo_camera import (
    BOARD_MM,
    CONDITIONS,
    GEM_MM,
    TILE_MM,
    Pinhole,
    auto_exposure,
    cell_px_in_frame,
    fingertip,
    glare,
    hand_shadow,
    lay_table,
)
from .indigo_sensor import expose

HANDS = {"mild": Hand(tile_offset_mm=0.8, tile_turn_deg=2.0, gem_along_mm=1.5,
                      gem_across_mm=0.8),
         "harsh": Hand(tile_offset_mm=2.0, tile_turn_deg=5.0, gem_along_mm=3.0,
                       gem_across_mm=1.5)}
FINGER_ABOVE_MM = 10.0              # a fingertip hovers over the tiles
TAUGHT = "-taught"                  # a look read with a pack taught from photos of it


@dataclass(frozen=True)
class IndigoScene:
    frame: np.ndarray
    truth: Truth
    look: Look
    outline: np.ndarray             # the board's rim corners in the frame, for picture measures


def indigo_scene(seed: int, look_name: str = "demo", condition: str = "mild",
                 bare: bool = False) -> IndigoScene:
    """A photo of the board of ``seed`` in a look and a condition; ``bare``: the empty board
    with its treasure tiles only (the teach photo of the board)."""
    state = new_game(2) if bare else random_position(random.Random(seed))
    truth = truth_of(state)
    # a taught look draws the same frames as its base look; only the reader's pack differs
    drawn = look_name.removesuffix(TAUGHT)
    look = LOOKS[drawn]()
    cond = CONDITIONS[condition]
    rng = np.random.default_rng([seed, zlib.crc32(f"{drawn}/{condition}".encode())])
    layers = draw_layers(state, truth, look, HANDS[condition], rng, bare=bare)
    camera = Pinhole(cond, rng)
    frame = lay_table(layers, camera, rng)
    frame *= lighting_gain(rng)[..., None]
    angles = np.radians(np.arange(6) * 60.0)
    rim = BOARD_RADIUS_MM * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    outline = camera.project(rim, BOARD_MM)
    auto_exposure(frame, outline, cond, rng)
    board_px = camera.project(np.zeros((1, 2)), BOARD_MM)[0]
    cell_px = cell_px_in_frame(camera)
    reach_px = cell_px * BOARD_RADIUS_MM / CELL_RADIUS_MM
    if rng.random() < cond.hand_shadow:
        hand_shadow(frame, board_px, rng)
    glare(frame, board_px, reach_px, cond, rng)
    if rng.random() < cond.fingertip and not bare:
        cell = ROUTE_CELLS[int(rng.integers(len(ROUTE_CELLS)))]
        tip = camera.project(np.array([cell_centre(cell, CELL_RADIUS_MM)]),
                             BOARD_MM + TILE_MM + FINGER_ABOVE_MM)[0]
        fingertip(frame, tip, cell_px, rng)
        truth.covered = cell
    if look_name.endswith(TAUGHT):
        from .indigo_teach import taught_look

        look = taught_look(drawn)
    return IndigoScene(frame=expose(frame, cond, rng), truth=truth, look=look, outline=outline)


#: the gems' height, kept for readers of this module's docstring
PIECE_HEIGHTS_MM = {"board": BOARD_MM, "tile": TILE_MM, "gem": GEM_MM}
