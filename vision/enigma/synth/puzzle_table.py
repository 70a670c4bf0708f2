"""Puzzle scenes on a real table: the mat and its card on wood, cloth or slate, a camera turned
and tilted, a lamp's hotspot and its glare on the card, a hand's shadow, a colour cast, sensor
noise and JPEG, each at one of three strengths.

The surfaces and the lamp and hand are drawn here; the camera's turn, tilt and lens are those
of :mod:`vision.synth.effects`. Weights standing up are drawn for a pinhole camera of their own
(:mod:`vision.synth.pinhole`, seeded by the seed and the condition), the one the frame is then
seen through, so that their top faces lie where that camera shows them. A condition is a
surface and a strength:

- ``mild``: a lamp off to the side, a faint cast, little noise, a small tilt;
- ``moderate``: the lamp's hotspot and glare over part of the card, a hand's shadow at an
  edge, a clear cast, JPEG at 70..90;
- ``strong``: glare near burning out, a hand's shadow across the card, a strong cast, noisy
  and tilted up to 25 degrees.

``slate`` is held apart: the checks are never tuned on it (nor on seeds from
:data:`HELD_APART_SEEDS`), so its figures tell how they do on a table never seen.

>>> frame = render_table_frame("conduit", load_puzzles().conduit.cards["conduit-demo-1"],
...                            load_enigma_pack(), condition=TableCondition("wood", "mild"),
...                            seed=1, frame_size=(640, 360))  # doctest: +SKIP
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.enigma.puzzles import load_puzzles
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.cards import parse_card
from vision.enigma.synth.puzzles import default_solution, render_puzzle_scene, table_camera
from vision.synth.effects import apply_effects

#: how hard each strength pushes (0..1)
STRENGTHS = {"mild": 0.25, "moderate": 0.6, "strong": 1.0}
#: the tables drawn; the last is held apart (never tuned on)
SURFACES = ("wood", "cloth", "slate")
HELD_APART_SURFACE = "slate"
#: seeds from here on are held apart; tuning uses seeds below
HELD_APART_SEEDS = 70000
#: the camera frame of the Pi camera the checks are timed on
TABLE_FRAME = (2304, 1296)
#: the weights' own highlight (share of the way to white)
WEIGHT_SHINE = 0.55


@dataclass(frozen=True)
class TableCondition:
    surface: str
    strength: str

    @property
    def level(self) -> float:
        return STRENGTHS[self.strength]

    def __str__(self) -> str:
        return f"{self.surface}/{self.strength}"


def all_conditions() -> list[TableCondition]:
    return [TableCondition(s, k) for s in SURFACES for k in STRENGTHS]


# ---------------------------------------------------------------------------- surfaces


def _u8(image: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.clip(image, 0, 255).astype(np.uint8)
    return out


def _wood(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Planks of oak to walnut: grain lines along the planks, darker seams between them."""
    h, w = shape
    base = np.array([rng.uniform(60, 110), rng.uniform(95, 150), rng.uniform(140, 200)])
    base *= rng.uniform(0.55, 1.0)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    plank = rng.uniform(0.12, 0.25) * h
    wobble = 6 * np.sin(xx / rng.uniform(80, 200) + rng.uniform(0, 6))
    phase = (yy + wobble) / rng.uniform(3, 9)
    grain = 0.5 + 0.5 * np.sin(phase + 2 * np.sin(xx / rng.uniform(150, 400)))
    shade = 1.0 - 0.22 * grain ** 3
    seam = (np.mod(yy, plank) < 3).astype(np.float32)
    shade *= 1.0 - 0.45 * seam
    streaks = cv2.resize(rng.normal(0, 0.05, (h // 32 + 1, 4)).astype(np.float32), (w, h))
    shade *= 1.0 + streaks
    return _u8(shade[..., None] * base)


def _cloth(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A woven cloth (felt green, navy, red or grey) with its weave and soft folds."""
    h, w = shape
    choices = ((70, 105, 50), (95, 55, 40), (50, 50, 130), (120, 118, 112))
    base = np.array(choices[int(rng.integers(len(choices)))], np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    weave = 1.0 + 0.08 * np.sin(xx * 1.7) * np.sin(yy * 1.7)
    folds = cv2.resize(rng.normal(0, 0.08, (6, 8)).astype(np.float32), (w, h),
                       interpolation=cv2.INTER_CUBIC)
    return _u8((weave * (1 + folds))[..., None] * base)


def _checked(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A checked (gingham) cloth: bands of a colour (red, brown, navy or green) across white,
    darkest where two cross, in squares of 4 to 7 mm (at 6 px per mm): dark squares a piece's
    size lie along the card's edge."""
    h, w = shape
    choices = ((50, 50, 190), (40, 75, 115), (110, 50, 30), (50, 110, 50))
    colour = np.array(choices[int(rng.integers(len(choices)))], np.float32)
    white = np.array([235, 238, 240], np.float32) * rng.uniform(0.85, 1.0)
    square = rng.uniform(24, 42)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    across = (np.mod(xx + rng.uniform(0, square), 2 * square) < square).astype(np.float32)
    down = (np.mod(yy + rng.uniform(0, square), 2 * square) < square).astype(np.float32)
    share = cv2.GaussianBlur(0.45 * across + 0.45 * down, (0, 0), 1.2)[..., None]
    weave = 1.0 + 0.05 * np.sin(xx * 1.7) * np.sin(yy * 1.7)
    return _u8(weave[..., None] * (white * (1 - share) + colour * share))


def _slate(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Slate or dark stone: blotchy grey-blue with light veins (held apart)."""
    h, w = shape
    base = np.array([rng.uniform(85, 110), rng.uniform(80, 100), rng.uniform(70, 90)])
    blotch = cv2.resize(rng.normal(0, 0.1, (12, 16)).astype(np.float32), (w, h),
                        interpolation=cv2.INTER_CUBIC)
    fine = cv2.GaussianBlur(rng.normal(0, 0.06, (h, w)).astype(np.float32), (0, 0), 1.5)
    image = (1 + blotch + fine)[..., None] * base
    veins = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(2, 5))):
        pts = np.cumsum(rng.normal(0, 25, (12, 2)), axis=0) + rng.uniform(0, 1, 2) * (w, h)
        cv2.polylines(veins, [pts.astype(np.int32)], False, 1.0, 2, cv2.LINE_AA)
    image += cv2.GaussianBlur(veins, (0, 0), 1.0)[..., None] * 60
    return _u8(image)


SURFACE_DRAWERS = {"wood": _wood, "cloth": _cloth, "slate": _slate, "checked": _checked}
#: tables drawn on demand only (tests), not among :data:`SURFACES` the benches go through, so
#: the bench figures of every kind stay comparable across sessions
EXTRA_SURFACES = ("checked",)


# ---------------------------------------------------------------------------- light


#: light fields are smooth: drawn at this fraction of the scene and enlarged
FIELD_SCALE = 0.25


def _gaussian(shape: tuple[int, int], centre: tuple[float, float], radii: tuple[float, float],
              angle: float) -> np.ndarray:
    h, w = shape
    sh, sw = max(2, int(h * FIELD_SCALE)), max(2, int(w * FIELD_SCALE))
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32) / FIELD_SCALE
    c, s = math.cos(angle), math.sin(angle)
    u = ((xx - centre[0]) * c + (yy - centre[1]) * s) / radii[0]
    v = (-(xx - centre[0]) * s + (yy - centre[1]) * c) / radii[1]
    out: np.ndarray = cv2.resize(np.exp(-0.5 * (u * u + v * v)), (w, h),
                                 interpolation=cv2.INTER_LINEAR)
    return out


#: the glares a lamp can cast: a small round spot, or a broad one washed almost evenly over
#: its middle (a lamp's reflection in a glossy card's whole face)
GLARES = ("spot", "broad")
#: a broad glare is this many times a spot's size, and washes its middle to this share of
#: the spot's peak everywhere (a flat-topped profile)
BROAD_GLARE_SIZE, BROAD_GLARE_TOP = 2.5, 0.6


def lamp(image: np.ndarray, level: float, rng: np.random.Generator,
         near: tuple[float, float], *, glare: str = "spot") -> np.ndarray:
    """A lamp's hotspot (a broad brightening) and its glare: a smaller spot washed towards
    white, near ``near`` (pixels) at the stronger levels; ``glare="broad"`` washes a plateau
    over most of the card instead (the same draws from ``rng``)."""
    if glare not in GLARES:
        raise ValueError(f"unknown glare {glare!r}; glares: {', '.join(GLARES)}")
    h, w = image.shape[:2]
    img = image.astype(np.float32)
    spread = rng.uniform(0.25, 0.4) * w
    off = (1.0 - level) * 0.35 * w
    a = rng.uniform(0, 2 * math.pi)
    centre = (near[0] + off * math.cos(a), near[1] + off * math.sin(a))
    hot = _gaussian((h, w), centre, (spread, spread * 0.8), rng.uniform(0, math.pi))
    img *= (1 + 0.35 * level * hot)[..., None]
    glare_r = rng.uniform(0.03, 0.06) * w
    jitter = rng.normal(0, 0.06 * w, 2)
    if glare == "broad":
        glare_r *= BROAD_GLARE_SIZE
    spot = _gaussian((h, w), (centre[0] + jitter[0], centre[1] + jitter[1]),
                     (glare_r * 1.4, glare_r), rng.uniform(0, math.pi))
    if glare == "broad":
        spot = np.minimum(spot / BROAD_GLARE_TOP, 1.0)
    wash = (0.85 * level * rng.uniform(0.7, 1.0)) * spot
    return _u8(img * (1 - wash[..., None]) + 255 * wash[..., None])


def hand_shadow(image: np.ndarray, level: float, rng: np.random.Generator,
                near: tuple[float, float]) -> np.ndarray:
    """A hand's soft shadow: forearm from an edge, palm and fingers towards ``near``; at the
    strong level it reaches over the card."""
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.float32)
    edge = int(rng.integers(4))
    start = [(rng.uniform(0.2, 0.8) * w, h + 50), (rng.uniform(0.2, 0.8) * w, -50),
             (-50, rng.uniform(0.2, 0.8) * h), (w + 50, rng.uniform(0.2, 0.8) * h)][edge]
    reach = 0.35 + 0.6 * level  # how far towards the card the fingers come
    palm = (start[0] + (near[0] - start[0]) * reach * 0.8,
            start[1] + (near[1] - start[1]) * reach * 0.8)
    unit = 0.05 * w
    cv2.line(mask, (int(start[0]), int(start[1])), (int(palm[0]), int(palm[1])), 1.0,
             int(1.6 * unit))
    cv2.circle(mask, (int(palm[0]), int(palm[1])), int(1.2 * unit), 1.0, -1)
    heading = math.atan2(near[1] - start[1], near[0] - start[0])
    for k in range(4):
        a = heading + (k - 1.5) * 0.28
        tip = (palm[0] + 2.4 * unit * math.cos(a), palm[1] + 2.4 * unit * math.sin(a))
        cv2.line(mask, (int(palm[0]), int(palm[1])), (int(tip[0]), int(tip[1])), 1.0,
                 int(0.45 * unit))
    soft = cv2.GaussianBlur(mask, (0, 0), 0.6 * unit)
    dark = 0.25 + 0.3 * level
    return _u8(image.astype(np.float32) * (1 - dark * soft)[..., None])


def colour_cast(image: np.ndarray, level: float, rng: np.random.Generator) -> np.ndarray:
    """A tungsten-to-daylight cast, per-channel gains up to about 30% at the strong level."""
    temp = rng.uniform(-1, 1)
    depth = 0.1 + 0.2 * level
    gains = np.array([1 - depth * temp, 1 + rng.uniform(-0.05, 0.05), 1 + depth * temp])
    return _u8(image.astype(np.float32) * gains)


def sensor(image: np.ndarray, level: float, rng: np.random.Generator) -> np.ndarray:
    """Shot and read noise, then JPEG at a quality that falls with the level."""
    img = image.astype(np.float32)
    read = 1.5 + 5.0 * level
    sigma = np.sqrt(read ** 2 + 0.05 * img)
    noisy = img + rng.standard_normal(img.shape, dtype=np.float32) * sigma
    quality = int(round(95 - 30 * level * rng.uniform(0.6, 1.0)))
    _, data = cv2.imencode(".jpg", _u8(noisy), [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return _u8(noisy) if decoded is None else _u8(decoded)


# ---------------------------------------------------------------------------- the frame


def render_table_frame(kind: str, card_data: Any, pack: EnigmaPack, *,
                       condition: TableCondition, solution: Any = None, seed: int = 0,
                       frame_size: tuple[int, int] = TABLE_FRAME, glare: str = "spot",
                       **extra: Any) -> np.ndarray:
    """A camera frame of the puzzle mat on a table under ``condition`` (seeded); ``glare``
    is the lamp's (:data:`GLARES`)."""
    box = load_puzzles()
    card = parse_card(kind, card_data) if isinstance(card_data, Mapping) else card_data
    if solution is None:
        solution = default_solution(kind, card, box)
    rng = np.random.default_rng(seed + 7919)
    level = condition.level
    draw = SURFACE_DRAWERS[condition.surface]
    max_tilt = 8.0 + 17.0 * level
    # a camera of its own for weights standing up, one per seed and condition
    camera = table_camera(extra, (seed, 7919, zlib.crc32(str(condition).encode())),
                          frame_size, max_tilt_deg=max_tilt)
    scene = render_puzzle_scene(kind, card, pack, solution=solution, box=box, seed=seed,
                                surface=lambda shape: draw(shape, rng), shine=WEIGHT_SHINE,
                                camera=camera, **extra)
    h, w = scene.shape[:2]
    card_px = (0.33 * w, 0.5 * h)  # the card lies left of the mat's middle
    scene = lamp(scene, level, rng, card_px, glare=glare)
    if rng.random() < 0.4 + 0.6 * level:
        scene = hand_shadow(scene, level, rng, card_px)
    scene = colour_cast(scene, level, rng)
    result = apply_effects(scene, rng, ["perspective", "lens"], frame_size=frame_size,
                           max_tilt_deg=max_tilt, camera=camera)
    return sensor(result.image, level, rng)


__all__ = ["GLARES", "HELD_APART_SEEDS", "HELD_APART_SURFACE", "STRENGTHS", "SURFACES",
           "EXTRA_SURFACES", "SURFACE_DRAWERS", "TABLE_FRAME", "TableCondition", "all_conditions",
           "colour_cast", "hand_shadow", "lamp", "render_table_frame", "sensor"]
