"""Sheet reader, a learned look at every border between two filled cells: how likely a drawn
outline runs there, from measures taken relative to the sheet's own levels.

The outline score of :mod:`vision.second_chance.outlines` is one number and the sheet's two groups
of scores place it; soft pencil over dark shading, or a faint coloured pencil between two tiles of
nearly the same colour, bring drawn outlines into the group of the insides. Other measures of the
same border still differ: the light profile across the border (a drawn line is wider and sits where
the hand put it), how even the dark is along it (a line runs all along, shading grain does not), how
dark the fills beside it are, the printed line's level, the hue gap and colour strength of the two
cells, and which way each cell's strokes run (a player hatches one tile one way; a stroke along the
border looks like an outline). :func:`border_features` gathers them per border and
:class:`BorderModel` (a small neural network, weights in ``sheet_borders.json``) turns them into a
probability. The weights are trained on rendered sheets whose truth is known, by
``bench/train_sheet_borders.py`` (run it again to regenerate the file).

Labels: a border between two cells of one tile is 0, a border between two tiles with an
outline drawn along it (by either tile) is 1; a border between two tiles neither of which has
an outline is left out of training (nothing is drawn there: :func:`unoutlined_tiles` asks
about those tiles).

A second model of the same form (``sheet_border_sides.json``, :func:`side_features`) looks at the
sides of tiles on empty cells: is the tile's outline drawn there? A light coloured pencil's outline
lets through nearly as much light as the bare printed line, and
:func:`~vision.second_chance.unoutlined.unoutlined_tiles` would ask about the tile as if the player
had skipped its outline; a side this model is sure of counts as drawn. Labels: 1 for the sides of a
tile drawn with its outline, 0 for those of a tile drawn without.

Both models only add decisions where they are sure (thresholds from held-out sheets, see the
training script); everything else is decided as before, and the questions stay.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from companion.second_chance.shapes import Cell

Border = tuple[Cell, Cell]

MODEL_PATH = Path(__file__).with_name("sheet_borders.json")
SIDE_MODEL_PATH = Path(__file__).with_name("sheet_border_sides.json")

#: the names of the features, in the order of :func:`border_features`' rows
FEATURES = (
    "score", "lean", "calibrated", "group_gap", "rank",
    "through_rel", "low_rel", "evenness", "beside", "printed",
    "hue_gap", "colour_min", "colour_max", "sheet_colour",
    "dark_min", "dark_max", "dark_gap", "texture_min", "texture_max",
    "to_inside", "to_outline", "templates",
    "strokes_apart", "crossings_apart", "strokes_along",
    *(f"profile_{i}" for i in range(13)),
)


@dataclass(frozen=True)
class SheetBorderLevels:
    """What :func:`border_features` reads off one sheet (arrays per border orientation:
    ``right`` (9, 8), ``below`` (8, 9))."""

    right: np.ndarray  # outline scores
    below: np.ndarray
    through_right: np.ndarray  # light through the border (70th percentile along it)
    through_below: np.ndarray
    low_right: np.ndarray  # ... its 30th percentile (evenness along the border)
    low_below: np.ndarray
    beside_right: np.ndarray  # light of the fill beside
    beside_below: np.ndarray
    profile_right: np.ndarray  # (9, 8, 13) light across, relative to the fill beside
    profile_below: np.ndarray  # (8, 9, 13)
    printed: float
    thresholds: tuple[float, float]
    calibrated: bool
    colour: np.ndarray  # (9, 9, 3) hue of each cell's ink
    darkness: np.ndarray  # (9, 9) mean darkness of each cell's inside
    texture: np.ndarray  # (9, 9)
    strokes: np.ndarray | None = None  # (9, 9, 4) see vision.second_chance.cells.stroke_directions


def _template(profiles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    centre = np.median(profiles, axis=0)
    spread = np.maximum(1.4826 * np.median(np.abs(profiles - centre), axis=0), 0.02)
    return centre, spread


def _border_values(cells: np.ndarray) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """For borders given as cell pairs ``(B, 2, 2)`` (the first cell left of or above the
    second): a function picking each border's value from a pair of per-border arrays, the
    right-hand one (9, 8, ...) for side-by-side cells, the below one (8, 9, ...) for the rest."""
    ra, ca, rb = cells[:, 0, 0], cells[:, 0, 1], cells[:, 1, 0]
    side = ra == rb
    r_right, c_right = np.where(side, ra, 0), np.where(side, ca, 0)
    r_below, c_below = np.where(side, 0, ra), np.where(side, 0, ca)

    def at(right: np.ndarray, below: np.ndarray) -> np.ndarray:
        picked_right = right[r_right, c_right]
        picked_below = below[r_below, c_below]
        mask = side.reshape((-1,) + (1,) * (picked_right.ndim - 1))
        return np.where(mask, picked_right, picked_below).astype(np.float64)

    return at


def _template_distances(profiles: np.ndarray, scores: np.ndarray,
                        thresholds: tuple[float, float]) -> tuple[np.ndarray, np.ndarray, float]:
    """Each profile's distance to the sheet's sure insides and to its sure outlines (in units
    of their spread), and 1.0; zeros and 0.0 when the sheet has too few of either."""
    cut_at, join_at = thresholds
    insides = profiles[scores <= join_at]
    outlines = profiles[scores > cut_at]
    if len(insides) >= 3 and len(outlines) >= 2:
        in_c, in_s = _template(insides)
        out_c, out_s = _template(outlines)
        to_in = np.sqrt(np.mean(((profiles - in_c) / in_s) ** 2, axis=1))
        to_out = np.sqrt(np.mean(((profiles - out_c) / out_s) ** 2, axis=1))
        return to_in, to_out, 1.0
    return np.zeros(len(profiles)), np.zeros(len(profiles)), 0.0


def _stroke_columns(cells: np.ndarray, levels: SheetBorderLevels
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """How differently the two cells are hatched (the strokes' direction, the crossings), and
    how much of their hatching runs along the border (a stroke along the printed line looks
    like an outline)."""
    ra, ca, rb, cb = cells[:, 0, 0], cells[:, 0, 1], cells[:, 1, 0], cells[:, 1, 1]
    strokes = (levels.strokes if levels.strokes is not None
               else np.zeros((*levels.darkness.shape, 4)))
    strokes_a, strokes_b = strokes[ra, ca], strokes[rb, cb]
    apart = np.linalg.norm(strokes_a[:, :2] - strokes_b[:, :2], axis=1)
    crossings = np.linalg.norm(strokes_a[:, 2:] - strokes_b[:, 2:], axis=1)
    along_sign = np.where(ra == rb, 1.0, -1.0)  # vertical strokes run along a vertical border
    along = along_sign * (strokes_a[:, 0] + strokes_b[:, 0]) / 2
    return apart, crossings, along


def _colour_columns(cells: np.ndarray, levels: SheetBorderLevels) -> list[np.ndarray]:
    """The hue gap of the two cells, their colour strength (least, most, the sheet's), their
    darkness (least, most, gap) and their texture (least, most)."""
    ra, ca, rb, cb = cells[:, 0, 0], cells[:, 0, 1], cells[:, 1, 0], cells[:, 1, 1]
    colour_a, colour_b = levels.colour[ra, ca], levels.colour[rb, cb]
    norm_a = np.linalg.norm(colour_a, axis=1)
    norm_b = np.linalg.norm(colour_b, axis=1)
    cosine = (colour_a * colour_b).sum(axis=1) / np.maximum(norm_a * norm_b, 1e-12)
    hue = np.where((norm_a > 1e-6) & (norm_b > 1e-6), 1.0 - cosine, 0.0)
    sheet_colour = float(np.median(np.concatenate([norm_a, norm_b])))
    dark_a, dark_b = levels.darkness[ra, ca], levels.darkness[rb, cb]
    texture_a, texture_b = levels.texture[ra, ca], levels.texture[rb, cb]
    return [
        hue, np.minimum(norm_a, norm_b), np.maximum(norm_a, norm_b),
        np.full(len(cells), sheet_colour),
        np.minimum(dark_a, dark_b), np.maximum(dark_a, dark_b), np.abs(dark_a - dark_b),
        np.minimum(texture_a, texture_b), np.maximum(texture_a, texture_b),
    ]


def border_features(borders: list[Border], levels: SheetBorderLevels) -> np.ndarray:
    """One row of :data:`FEATURES` per border (``(a, b)`` with ``b`` right of or under ``a``)."""
    if not borders:
        return np.zeros((0, len(FEATURES)), np.float64)
    cut_at, join_at = levels.thresholds
    middle, half = (cut_at + join_at) / 2, max((cut_at - join_at) / 2, 1e-6)
    cells = np.asarray(borders)  # (B, 2 cells, row and column)
    at = _border_values(cells)

    scores = at(levels.right, levels.below)
    rank = scores.argsort().argsort() / max(len(borders) - 1, 1)
    through = at(levels.through_right, levels.through_below)
    low = at(levels.low_right, levels.low_below)
    beside = np.maximum(at(levels.beside_right, levels.beside_below), 1e-3)
    profiles = at(levels.profile_right, levels.profile_below)
    sheet_profile = np.median(profiles, axis=0)
    to_in, to_out, templates = _template_distances(profiles, scores, levels.thresholds)
    printed = max(levels.printed, 1e-3)
    ratio = through / beside / printed
    low_ratio = low / beside / printed
    count = len(borders)

    def const(v: float) -> np.ndarray:
        return np.full(count, v)

    columns = [
        scores, np.clip((scores - middle) / half, -6, 6), const(float(levels.calibrated)),
        const(cut_at - join_at), rank,
        ratio, low_ratio, ratio - low_ratio, beside, const(levels.printed),
        *_colour_columns(cells, levels),
        np.minimum(to_in, 10.0), np.minimum(to_out, 10.0), const(templates),
        *_stroke_columns(cells, levels),
    ]
    return np.column_stack([*columns, profiles - sheet_profile])


#: the features of a tile's side on an empty cell (:func:`side_features`)
SIDE_FEATURES = (
    "through_rel", "ratio_rel", "low_rel", "evenness", "beside", "printed",
    "sheet_side_median", "rank", "colour", "sheet_colour", "dark", "texture",
    *(f"profile_{i}" for i in range(13)),
)


def side_features(sides: list[Border], empty_borders: list[Border],
                  levels: SheetBorderLevels) -> np.ndarray:
    """One row of :data:`SIDE_FEATURES` per side of a tile cell on an empty cell (``(tile
    cell, empty cell)``): is the tile's outline drawn there? Measured against the sheet's
    bare printed line (the borders between two empty cells, ``empty_borders``)."""
    if not sides:
        return np.zeros((0, len(SIDE_FEATURES)), np.float64)
    ordered = [tuple(sorted(side)) for side in sides]
    cells = np.asarray(ordered)
    at = _border_values(cells)

    printed = max(levels.printed, 1e-3)
    through = at(levels.through_right, levels.through_below)
    low = at(levels.low_right, levels.low_below)
    beside = np.maximum(at(levels.beside_right, levels.beside_below), 1e-3)
    profiles = at(levels.profile_right, levels.profile_below)
    bare = [levels.profile_right[a] if a[0] == b[0] else levels.profile_below[a]
            for a, b in empty_borders]
    reference = (np.median(np.asarray(bare), axis=0) if len(bare) >= 3
                 else np.median(profiles, axis=0))
    through_rel = through / printed
    median = float(np.median(through_rel))
    rank = through_rel.argsort().argsort() / max(len(sides) - 1, 1)
    tile = np.asarray([side[0] for side in sides])
    tr, tc = tile[:, 0], tile[:, 1]
    colour_norm = np.linalg.norm(levels.colour, axis=2)
    sheet_colour = float(np.median(colour_norm[tr, tc]))
    count = len(sides)
    columns = [
        through_rel, through / beside / printed, low / printed, (through - low) / printed,
        beside, np.full(count, levels.printed), np.full(count, median), rank,
        colour_norm[tr, tc], np.full(count, sheet_colour), levels.darkness[tr, tc],
        levels.texture[tr, tc],
    ]
    return np.column_stack([*columns, profiles - reference])


@dataclass(frozen=True)
class BorderModel:
    """A small network: standardised features, one hidden layer (tanh), a logistic output."""

    mean: np.ndarray
    scale: np.ndarray
    hidden_weights: np.ndarray
    hidden_bias: np.ndarray
    out_weights: np.ndarray
    out_bias: float
    #: a border is a sure outline from this probability on, surely none up to ``join_below``
    cut_above: float
    join_below: float

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        if len(features) == 0:
            return np.zeros(0)
        x = (features - self.mean) / self.scale
        h = np.tanh(x @ self.hidden_weights + self.hidden_bias)
        z = h @ self.out_weights + self.out_bias
        return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))  # type: ignore[no-any-return]

    #: the names of the features it reads (:data:`FEATURES` or :data:`SIDE_FEATURES`)
    features: tuple[str, ...] = FEATURES

    def to_json(self) -> dict[str, object]:
        return {
            "features": list(self.features),
            "mean": self.mean.tolist(), "scale": self.scale.tolist(),
            "hidden_weights": self.hidden_weights.tolist(),
            "hidden_bias": self.hidden_bias.tolist(),
            "out_weights": self.out_weights.tolist(), "out_bias": self.out_bias,
            "cut_above": self.cut_above, "join_below": self.join_below,
        }

    @classmethod
    def from_json(cls, data: dict[str, object],
                  features: tuple[str, ...] = FEATURES) -> BorderModel:
        if list(data["features"]) != list(features):  # type: ignore[call-overload]
            raise ValueError("sheet border model: its features differ from this code's")

        def arr(key: str) -> np.ndarray:
            return np.asarray(data[key], np.float64)

        return cls(arr("mean"), arr("scale"), arr("hidden_weights"), arr("hidden_bias"),
                   arr("out_weights"), float(data["out_bias"]),  # type: ignore[arg-type]
                   float(data["cut_above"]), float(data["join_below"]),  # type: ignore[arg-type]
                   features)


@lru_cache(maxsize=2)
def load_border_model(path: Path = MODEL_PATH) -> BorderModel | None:
    """The trained model shipped with the package (``None`` when the file is missing: the
    reader then decides by the score and the profile alone)."""
    if not path.exists():
        return None
    return BorderModel.from_json(json.loads(path.read_text()))


@lru_cache(maxsize=2)
def load_side_model(path: Path = SIDE_MODEL_PATH) -> BorderModel | None:
    """The trained model of tile sides on empty cells (``None`` when the file is missing:
    the reader then tells a bare side by its light alone). Its ``cut_above``: a side is surely
    drawn from this probability on."""
    if not path.exists():
        return None
    return BorderModel.from_json(json.loads(path.read_text()), SIDE_FEATURES)
