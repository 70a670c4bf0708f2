"""The Enigma table reader: one camera frame -> the tiles as seen and the networkers on them.

``read_enigma(frame, pack, cfg) -> EnigmaRead``. The stages:

1. :func:`~vision.markers.locate` finds the four table markers and checks the homography;
   the frame is straightened onto the marker plane at ``px_per_tile`` pixels per tile side,
   record north = image up;
2. :func:`find_start` finds the start tile near the middle by its face (the pack's image) and
   anchors the grid on it; the frame's colour cast is removed with the start tile's colours;
3. :func:`find_squares` marks each grid square holding a tile (tile colour, not table);
4. :func:`read_tile` reads each tile *structurally*: power cells from the pack's cell colours,
   channels from the channel colour (a mask, then a skeleton), ports where channels reach the
   sides at the records.md positions, links from which cells and ports each channel joins,
   the networker on each cell from the colour inside the cell's ring;
5. crossings, channels ending nowhere and openings off the three positions lower a tile's
   confidence and become questions: nothing is guessed.

No tile art and no catalogue is used: every reference is a colour or size of the pack.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from companion.enigma.tiles import SIDES, Endpoint, Port, Pos, Tile, format_tile
from vision.enigma_art import port_point, seen_tile, spacing_for
from vision.enigma_pack import EnigmaPack
from vision.enigma_render import TableGeometry, _get, geometry_from_config
from vision.enigma_skeleton import endpoints, skeletonize
from vision.enigma_warp import warp_perspective
from vision.errors import FrameRefusedError, UnreadableImageError
from vision.markers import MarkerChecks, PlaneFit, locate

CHROMA = 200.0
BRIGHTNESS = 8.0
#: below this sum of B, G and R the chromaticity is trusted less and less
DARK = 150.0
#: the highest confidence of a tile at the edge of what the camera saw (below any threshold)
EDGE_CONFIDENCE = 0.5
#: the smallest pawn (after a finer opening), as a share of a pawn's disc: a pale pawn on a
#: pale cell keeps only its middle; such a blob only ever names the networker of a cell
PAWN_MIN_AREA = 0.2


@dataclass(frozen=True)
class ReaderSettings:
    """Thresholds of the reader; :func:`settings_from_config` reads ``[vision.enigma]``."""

    px_per_tile: int = 64
    min_confidence: float = 0.85
    start_min_score: float = 0.45
    occupied_min: float = 0.6
    port_min_fraction: float = 0.25
    blur_min_variance: float = 15.0


def settings_from_config(cfg: Any = None) -> ReaderSettings:
    d = ReaderSettings()
    return ReaderSettings(
        px_per_tile=int(_get(cfg, "vision.enigma.read_px_per_tile", d.px_per_tile)),
        min_confidence=float(_get(cfg, "vision.min_confidence", d.min_confidence)),
        start_min_score=float(_get(cfg, "vision.enigma.start_min_score", d.start_min_score)),
        occupied_min=float(_get(cfg, "vision.enigma.occupied_min", d.occupied_min)),
        port_min_fraction=float(_get(cfg, "vision.enigma.port_min_fraction", d.port_min_fraction)),
        blur_min_variance=d.blur_min_variance,
    )


def checks_from_config(cfg: Any = None) -> MarkerChecks:
    return MarkerChecks(min_area_fraction=float(_get(cfg, "vision.min_board_area", 0.05)))


# ---------------------------------------------------------------------------- colours


def colour_features(bgr: np.ndarray) -> np.ndarray:
    """(..., 3) BGR -> chromaticity (b, r) scaled by CHROMA and log brightness by BRIGHTNESS:
    a shadow changes the brightness and keeps the chromaticity. Near black the chromaticity
    is mostly noise, so it counts less there (deviations from grey are damped)."""
    img = np.asarray(bgr, np.float32) + 1.0
    total = img.sum(axis=-1)
    out = np.empty(img.shape, np.float32)
    trust = np.clip(total / DARK, 0.25, 1.0)
    out[..., 0] = CHROMA * ((img[..., 0] / total - 1 / 3) * trust + 1 / 3)
    out[..., 1] = CHROMA * ((img[..., 2] / total - 1 / 3) * trust + 1 / 3)
    out[..., 2] = BRIGHTNESS * np.log(total)
    return out


@dataclass(frozen=True)
class ColourModel:
    """The pack's colours as classes: names, feature centres, and what each class is."""

    names: tuple[str, ...]
    kinds: tuple[str, ...]  # "tile", "edge", "channel", "icon", "table", "cell", "net"
    centres: np.ndarray  # (k, 3)

    def index(self, kind: str, name: str | None = None) -> int:
        for i, (k, n) in enumerate(zip(self.kinds, self.names, strict=True)):
            if k == kind and (name is None or n == name):
                return i
        raise KeyError((kind, name))

    def labels(self, feats: np.ndarray, *, skip: tuple[str, ...] = ()) -> np.ndarray:
        """Per pixel the index of the nearest class centre, leaving out the kinds in ``skip``
        (one pass per class: no big temporary arrays)."""
        flat = feats.reshape(-1, 3)
        best = np.zeros(flat.shape[0], np.int32)
        best_d = np.full(flat.shape[0], np.inf, np.float32)
        for i, centre in enumerate(self.centres):
            if self.kinds[i] in skip:
                continue
            diff = flat - centre
            d = (diff * diff).sum(axis=1)
            closer = d < best_d
            best[closer] = i
            best_d[closer] = d[closer]
        return best.reshape(feats.shape[:-1])


    def labels_with_and_without(self, feats: np.ndarray, skip: tuple[str, ...]
                                ) -> tuple[np.ndarray, np.ndarray]:
        """(labels without the kinds in ``skip``, labels with every class), in one pass."""
        flat = feats.reshape(-1, 3)
        n = flat.shape[0]
        best_a, best_s = np.zeros(n, np.int32), np.zeros(n, np.int32)
        d_a = np.full(n, np.inf, np.float32)
        d_s = np.full(n, np.inf, np.float32)
        for i, centre in enumerate(self.centres):
            diff = flat - centre
            d = (diff * diff).sum(axis=1)
            closer = d < d_a
            best_a[closer] = i
            d_a[closer] = d[closer]
            if self.kinds[i] not in skip:
                closer = d < d_s
                best_s[closer] = i
                d_s[closer] = d[closer]
        shape = feats.shape[:-1]
        return best_s.reshape(shape), best_a.reshape(shape)


_MODELS: dict[int, ColourModel] = {}


def colour_model(pack: EnigmaPack) -> ColourModel:
    key = id(pack)
    if key in _MODELS:
        return _MODELS[key]
    names: list[str] = []
    kinds: list[str] = []
    colours: list[tuple[int, int, int]] = []
    for kind, name in (
        ("tile", "tile"),
        ("edge", "tile_edge"),
        ("channel", "channel"),
        ("icon", "icon"),
        ("table", "table"),
    ):
        names.append(name)
        kinds.append(kind)
        colours.append(pack.colour(name))
    # a channel's dark outline (when a style draws one) is still channel
    dark = tuple(int(v * 0.55) for v in pack.colour("channel"))
    names.append("channel")
    kinds.append("channel")
    colours.append(dark)  # type: ignore[arg-type]
    for name, c in pack.cells.items():
        names.append(name)
        kinds.append("cell")
        colours.append(c)
    for name, c in pack.networkers.items():
        names.append(name)
        kinds.append("net")
        colours.append(c)
    model = ColourModel(
        tuple(names), tuple(kinds), colour_features(np.array(colours, np.float32)).reshape(-1, 3)
    )
    _MODELS[key] = model
    return model


# ---------------------------------------------------------------------------- results


@dataclass(frozen=True)
class TileRead:
    """One tile as seen: its structure, category (when the pack knows the icons), confidence."""

    at: Pos
    tile: Tile
    confidence: float
    category: str | None = None
    problems: tuple[str, ...] = ()
    #: where each cell (a, b, c...) lies on the tile, in tile units (x right, y down)
    centres: tuple[tuple[float, float], ...] = ()
    #: how far (pixels) the openings seen lie off the pack's positions: the square is off
    offset: tuple[float, float] = (0.0, 0.0)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "at": [self.at[0], self.at[1]],
            **format_tile(self.tile),
            "confidence": round(self.confidence, 4),
        }
        if self.category is not None:
            out["category"] = self.category
        return out


@dataclass(frozen=True)
class NetworkerRead:
    at: Pos
    cell: str
    colour: str
    confidence: float

    def to_json(self) -> dict[str, Any]:
        return {
            "at": [self.at[0], self.at[1]],
            "cell": self.cell,
            "colour": self.colour,
            "confidence": round(self.confidence, 4),
        }


@dataclass
class EnigmaRead:
    tiles: dict[Pos, TileRead]
    networkers: list[NetworkerRead]
    questions: list[str] = field(default_factory=list)
    fit: PlaneFit | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = {
            "game": "enigma",
            "tiles": [
                t.to_json()
                for _, t in sorted(self.tiles.items(), key=lambda kv: (kv[0][1], kv[0][0]))
            ],
            "networkers": [
                n.to_json()
                for n in sorted(self.networkers, key=lambda n: (n.at[1], n.at[0], n.cell))
            ],
            "questions": list(self.questions),
        }
        out.update(self.extra)
        return out


# ---------------------------------------------------------------------------- geometry


def rectify(
    frame: np.ndarray, fit: PlaneFit, geometry: TableGeometry, px_per_tile: int,
    *, margin_px: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """The marker plane seen straight down: ``px_per_tile`` pixels per tile side, the marker
    frame plus ``margin_px`` around it. Returns the image and the 3x3 map from plane
    millimetres to its pixels."""
    w_mm, h_mm = geometry.frame_mm
    s = px_per_tile / geometry.tile_mm
    plane_to_canon = np.array([[s, 0, w_mm / 2 * s + margin_px],
                               [0, s, h_mm / 2 * s + margin_px], [0, 0, 1]], np.float64)
    size = (int(round(w_mm * s)) + 2 * margin_px, int(round(h_mm * s)) + 2 * margin_px)
    canon = warp_perspective(frame, plane_to_canon @ fit.image_to_plane, size)
    return canon, plane_to_canon


def seen_mask(frame_shape: tuple[int, ...], fit: PlaneFit, plane_to_canon: np.ndarray,
              size: tuple[int, int]) -> np.ndarray:
    """Which pixels of the straightened image the camera saw (False past the picture's
    edges), a few pixels in from the edge (the warp blurs the border)."""
    ones = np.full(frame_shape[:2], 255, np.uint8)
    seen = warp_perspective(ones, plane_to_canon @ fit.image_to_plane, size, nearest=True)
    return cv2.erode(seen, np.ones((5, 5), np.uint8), borderValue=0) > 0


def find_start(
    gray: np.ndarray, pack: EnigmaPack, p: int, settings: ReaderSettings
) -> tuple[float, float, float]:
    """Centre (x, y) of the start tile in the straightened image, and the match score.

    Searched within about one tile of the middle of the marker frame, in four rotations."""
    tmpl = cv2.cvtColor(
        cv2.resize(pack.start, (p, p), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY
    )
    h, w = gray.shape
    cx, cy = w / 2, h / 2
    reach = int(1.3 * p)
    x0, y0 = max(0, int(cx - reach - p / 2)), max(0, int(cy - reach - p / 2))
    x1, y1 = min(w, int(cx + reach + p / 2)), min(h, int(cy + reach + p / 2))
    window = cv2.GaussianBlur(gray[y0:y1, x0:x1], (0, 0), 1.0)
    best = (-1.0, 0.0, 0.0)
    for k in range(4):
        t = cv2.GaussianBlur(np.ascontiguousarray(np.rot90(tmpl, k)), (0, 0), 1.0)
        res = cv2.matchTemplate(window, t, cv2.TM_CCOEFF_NORMED)
        _, score, _, loc = cv2.minMaxLoc(res)
        if score > best[0]:
            lx, ly = loc
            dx = dy = 0.0
            if 0 < lx < res.shape[1] - 1:
                a, b, c = res[ly, lx - 1], res[ly, lx], res[ly, lx + 1]
                den = a - 2 * b + c
                dx = 0.5 * (a - c) / den if den < 0 else 0.0
            if 0 < ly < res.shape[0] - 1:
                a, b, c = res[ly - 1, lx], res[ly, lx], res[ly + 1, lx]
                den = a - 2 * b + c
                dy = 0.5 * (a - c) / den if den < 0 else 0.0
            best = (float(score), x0 + lx + dx + (p - 1) / 2, y0 + ly + dy + (p - 1) / 2)
    score, sx, sy = best
    if score < settings.start_min_score:
        raise FrameRefusedError(
            f"no start tile near the middle of the table (its face matches {score:.2f}, needs "
            f"{settings.start_min_score:.2f}): wrong game, or the start tile is covered",
            reason="no-start-tile",
        )
    return sx, sy, score


def balance(
    canon: np.ndarray, start_xy: tuple[float, float], pack: EnigmaPack, p: int
) -> np.ndarray:
    """Per-channel gains that give the start tile its pack colours (removes a colour cast)."""
    ref = cv2.resize(pack.start, (p, p), interpolation=cv2.INTER_AREA).astype(np.float32)
    patch = cv2.getRectSubPix(canon, (p, p), start_xy).astype(np.float32)
    inner = np.zeros((p, p), bool)
    m = p // 6
    inner[m : p - m, m : p - m] = True
    gains = np.median(ref[inner], axis=0) / np.maximum(np.median(patch[inner], axis=0), 1.0)
    gains = np.clip(gains, 0.4, 2.5)
    return np.clip(canon.astype(np.float32) * gains, 0, 255).astype(np.uint8)


def _marker_zones(geometry: TableGeometry, plane_to_canon: np.ndarray) -> list[tuple[float, ...]]:
    zones = []
    for cx, cy in geometry.layout.centres_mm:
        half = geometry.layout.size_mm
        a = plane_to_canon @ np.array([cx - half, cy - half, 1.0])
        b = plane_to_canon @ np.array([cx + half, cy + half, 1.0])
        zones.append((a[0], a[1], b[0], b[1]))
    return zones


def _compass(dx: float, dy: float) -> str:
    """The side (record north = image up) a direction in the straightened image points to."""
    if abs(dx) >= abs(dy):
        return "east" if dx > 0 else "west"
    return "south" if dy > 0 else "north"


def _box_sum(integral: np.ndarray, xa: int, ya: int, xb: int, yb: int) -> float:
    h, w = integral.shape[0] - 1, integral.shape[1] - 1
    xa, xb = min(max(xa, 0), w), min(max(xb, 0), w)
    ya, yb = min(max(ya, 0), h), min(max(yb, 0), h)
    if xa >= xb or ya >= yb:
        return 0.0
    return float(integral[yb, xb] - integral[ya, xb] - integral[yb, xa] + integral[ya, xa])


@dataclass(frozen=True)
class EdgeNote:
    """A read tile the table's edges make doubtful: it lies past the marker frame, or the
    camera could not see the square beside it."""

    at: Pos
    text: str


def find_squares(
    canon: np.ndarray,
    start_xy: tuple[float, float],
    pack: EnigmaPack,
    p: int,
    zones: list[tuple[float, ...]],
    settings: ReaderSettings,
    *,
    seen: np.ndarray | None = None,
    area: tuple[float, float, float, float] | None = None,
) -> tuple[dict[Pos, tuple[float, float]], list[str], list[EdgeNote]]:
    """Grid squares that hold a tile, anchored on the start tile; partly covered squares
    become questions.

    ``seen``: the pixels the camera saw; ``area``: the marker frame (x0, y0, x1, y1 pixels)
    inside the image. A tile past the marker frame is read but noted; a square the picture
    cuts is never read: if what is seen of it is tile, or nothing of it is seen beside a
    tile, the table may continue there and that is a question (never a smaller table)."""
    feats = colour_features(canon)
    tile_f = colour_features(np.array(pack.colour("tile"), np.float32))
    table_f = colour_features(np.array(pack.colour("table"), np.float32))
    # weight chromaticity over brightness: light changes brightness, not what a pixel is
    wgt = np.array([1.0, 1.0, 0.5], np.float32)
    d_tile = (((feats - tile_f) * wgt) ** 2).sum(axis=-1)
    d_table = (((feats - table_f) * wgt) ** 2).sum(axis=-1)
    h, w = d_tile.shape
    if seen is None:
        seen = np.ones((h, w), bool)
    # the markers' white paper is no tile: their zones count as neither tile nor table
    counted = seen.copy()
    for z in zones:
        counted[max(0, int(z[1])):max(0, int(z[3]) + 1), max(0, int(z[0])):max(0, int(z[2]) + 1)] \
            = False
    on_tile = ((d_tile < d_table) & counted).astype(np.float32)
    integral = cv2.integral(on_tile)
    seen_int = cv2.integral(seen.astype(np.float32))
    counted_int = cv2.integral(counted.astype(np.float32))
    ax0, ay0, ax1, ay1 = area if area is not None else (0.0, 0.0, float(w), float(h))
    sx, sy = start_xy
    squares: dict[Pos, tuple[float, float]] = {}
    questions: list[str] = []
    notes: list[EdgeNote] = []
    blind: set[Pos] = set()
    continues: set[Pos] = set()
    i_range = range(-int(sx // p) - 1, int((w - sx) // p) + 2)
    j_range = range(-int(sy // p) - 1, int((h - sy) // p) + 2)
    inner = 0.35 * p
    slack = 0.12 * p  # hand placement: a tile may stick out of its square this much
    for j in j_range:
        for i in i_range:
            cx, cy = sx + i * p, sy + j * p
            if any(z[0] < cx < z[2] and z[1] < cy < z[3] for z in zones):
                continue
            xa, xb = int(cx - inner), int(cx + inner)
            ya, yb = int(cy - inner), int(cy + inner)
            area_px = max(1, (xb - xa) * (yb - ya))
            # the whole square (not only its middle) must have been seen to be read
            fa, fb = int(cx - p / 2), int(cx + p / 2)
            ga, gb = int(cy - p / 2), int(cy + p / 2)
            whole = max(1, (fb - fa) * (gb - ga))
            seen_whole = _box_sum(seen_int, fa, ga, fb, gb) / whole
            seen_inner = _box_sum(seen_int, xa, ya, xb, yb)
            counted_inner = _box_sum(counted_int, xa, ya, xb, yb)
            if counted_inner < 0.3 * area_px and seen_inner >= 0.15 * area_px:
                continue  # mostly a marker
            frac = _box_sum(integral, xa, ya, xb, yb) / max(1.0, counted_inner)
            if seen_whole < 0.995 and (i, j) != (0, 0):
                # a square the picture (or the straightened area) cuts is never read: if
                # what is seen of it is tile, the table goes on; else a tile beside it is
                # doubted (its neighbour may be a tile out of sight)
                if seen_inner < 0.15 * area_px or frac < 0.5:
                    blind.add((i, j))
                else:
                    continues.add((i, j))
                    # where the unseen part lies: the side the picture cuts the table
                    c, d = int(cx), int(cy)
                    west = _box_sum(seen_int, fa, ga, c, gb)
                    east = _box_sum(seen_int, c, ga, fb, gb)
                    north, south = (_box_sum(seen_int, fa, ga, fb, d),
                                    _box_sum(seen_int, fa, d, fb, gb))
                    dx, dy = west - east, north - south  # the less seen half is cut
                    if fa < 0 or ga < 0 or fb > w or gb > h:
                        questions.append(
                            f"square [{i}, {j}]: the table reaches too far past the markers at "
                            f"the {_compass(dx, dy)} to be read: move the markers so the whole "
                            "table lies between them")
                    else:
                        questions.append(
                            f"square [{i}, {j}]: the table continues past the edge of the "
                            f"picture at the {_compass(dx, dy)}: move the camera or the markers "
                            "so the whole table is seen")
                continue
            if frac >= settings.occupied_min or (i, j) == (0, 0):
                squares[(i, j)] = (cx, cy)
                outside = {
                    "west": ax0 - (cx - p / 2), "east": (cx + p / 2) - ax1,
                    "north": ay0 - (cy - p / 2), "south": (cy + p / 2) - ay1}
                side, by = max(outside.items(), key=lambda kv: kv[1])
                if by > slack:
                    notes.append(EdgeNote((i, j), (
                        f"it lies past the table markers at the {side}: move the markers so "
                        "the whole table lies between them")))
            elif frac > 0.3:
                questions.append(
                    f"square [{i}, {j}]: partly covered ({frac:.0%} tile): is a "
                    "tile lying off the grid?"
                )
    # a tile beside a square the camera did not see: the table may go on there
    for (i, j) in sorted(squares, key=lambda a: (a[1], a[0])):
        for di, dj in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            nb = (i + di, j + dj)
            if nb in blind or (nb not in squares and nb not in continues
                               and not (i_range.start <= nb[0] < i_range.stop
                                        and j_range.start <= nb[1] < j_range.stop)):
                notes.append(EdgeNote((i, j), (
                    f"the square to its {_compass(di, dj)} is not wholly seen (past the edge of "
                    "the picture or far past the markers): the table may continue there; move "
                    "the camera or the markers")))
    return squares, questions, notes


# ---------------------------------------------------------------------------- one tile


def reading_order(points: list[tuple[float, float]], *, row_gap: float = 0.12) -> list[int]:
    """Indices of unit-tile points in reading order: rows top to bottom (points less than
    ``row_gap`` apart in y share a row), then left to right. Cells are named a, b, c so."""
    by_y = sorted(range(len(points)), key=lambda i: points[i][1])
    rows: list[list[int]] = []
    for i in by_y:
        if rows and points[i][1] - points[rows[-1][-1]][1] < row_gap:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [i for row in rows for i in sorted(row, key=lambda k: points[k][0])]


def _disc(shape: tuple[int, int], centre: tuple[float, float], radius: float) -> np.ndarray:
    yy, xx = np.mgrid[0 : shape[0], 0 : shape[1]]
    return ((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) <= radius**2  # type: ignore[no-any-return]


def _margin_conf(d_best: float, d_second: float) -> float:
    """1.0 when the best class is much nearer than the second, 0 when equally near."""
    if d_second <= 0:
        return 0.0
    return float(
        np.clip(
            (math.sqrt(d_second) - math.sqrt(d_best)) / max(math.sqrt(d_second), 1e-6) / 0.35,
            0.0,
            1.0,
        )
    )


@dataclass(frozen=True)
class _Cell:
    centre: tuple[float, float]
    colour: str
    confidence: float
    networker: str | None
    net_confidence: float


def read_tile(
    patch: np.ndarray, at: Pos, pack: EnigmaPack, model: ColourModel, settings: ReaderSettings
) -> tuple[TileRead, list[NetworkerRead]]:
    """Read one tile's conduit side from its straightened patch (north up)."""
    p = patch.shape[0]
    problems: list[str] = []
    conf = 1.0
    # local balance: the tile's own background is the pack's tile colour (light varies)
    px = patch.reshape(-1, 3).astype(np.float32)
    border = np.zeros((p, p), bool)
    b = max(2, p // 10)
    border[b : 2 * b, b : p - b] = border[p - 2 * b : p - b, b : p - b] = True
    border[b : p - b, b : 2 * b] = border[b : p - b, p - 2 * b : p - b] = True
    ring = patch[border].astype(np.float32)
    bright = ring[ring.sum(axis=1) >= np.percentile(ring.sum(axis=1), 40)]
    gains = np.array(pack.colour("tile"), np.float32) / np.maximum(np.median(bright, axis=0), 1)
    balanced = np.clip(px * np.clip(gains, 0.5, 2.0), 0, 255).reshape(patch.shape)
    feats = colour_features(balanced)
    # networkers stand only on cells and are judged there; elsewhere a pixel is tile art
    labels, all_labels = model.labels_with_and_without(feats, ("net",))
    kinds = np.array(model.kinds)
    names = np.array(model.names)
    kind_map = kinds[labels]
    rc = pack.cell_radius * p
    rn = pack.networker_radius * p
    cw = pack.channel_width * p
    # ---- cells
    cells: list[_Cell] = []
    cell_classes = [i for i, k in enumerate(model.kinds) if k == "cell"]
    for ci in cell_classes:
        mask = (labels == ci).astype(np.uint8)
        n, lab, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
        # a pawn on a cell can break the cell's ring into pieces: pieces whose centres lie
        # within one cell radius of each other are one cell (two cells are farther apart)
        pieces = [k for k in range(1, n) if stats[k, cv2.CC_STAT_AREA] >= 3]
        groups: list[list[int]] = []
        for k in sorted(pieces, key=lambda k: -stats[k, cv2.CC_STAT_AREA]):
            for group in groups:
                g = group[0]
                if math.hypot(cents[k][0] - cents[g][0], cents[k][1] - cents[g][1]) < 1.4 * rc:
                    group.append(k)
                    break
            else:
                groups.append([k])
        for group in groups:
            area = sum(int(stats[k, cv2.CC_STAT_AREA]) for k in group)
            if area < 0.3 * math.pi * (rc**2 - rn**2):
                continue
            member = np.isin(lab, group)
            ys, xs = np.nonzero(member)
            (ex, ey), radius = cv2.minEnclosingCircle(np.column_stack([xs, ys]).astype(np.float32))
            if radius < 0.55 * rc:
                continue
            if radius > 1.6 * rc:
                problems.append("two cells of one colour touch, or a cell is misread")
                conf = min(conf, 0.3)
            centre = (float(ex), float(ey))
            # colour confidence from the ring's median colour
            ringmask = _disc((p, p), centre, rc * 0.95) & ~_disc((p, p), centre, rn * 1.15)
            med = np.median(feats[ringmask], axis=0)
            d = ((model.centres - med) ** 2).sum(axis=1)
            cell_d = sorted(float(d[i]) for i in cell_classes)
            colour_conf = _margin_conf(cell_d[0], cell_d[1] if len(cell_d) > 1 else 1e9)
            # the networker: the colour inside the ring
            inner = _disc((p, p), centre, max(1.0, rn * 0.55))
            med_in = np.median(feats[inner], axis=0)
            options = [ci] + [i for i, kk in enumerate(model.kinds) if kk == "net"]
            din = [float(((model.centres[i] - med_in) ** 2).sum()) for i in options]
            order = np.argsort(din)
            best = options[int(order[0])]
            net_conf = _margin_conf(din[int(order[0])], din[int(order[1])])
            net = None if best == ci else str(names[best])
            cells.append(_Cell(centre, str(names[ci]), colour_conf, net, net_conf))
    # ---- pawns: a pawn is a disc of a player colour, smaller than a cell, on a cell. Its
    # rim can hide the cell's ring from the colour labels, so each pawn found is checked:
    # the cell under it is read from the ring around it, and the pawn's colour from its middle
    net_ids = [i for i, k in enumerate(model.kinds) if k == "net"]
    net_mask = np.isin(all_labels, net_ids)
    candidates: list[tuple[tuple[float, float], bool]] = []  # (centre, a whole pawn?)
    whole_pawns = np.zeros((p, p), np.uint8)
    for first, r_open, min_area in ((True, max(1, int(round(rn * 0.5))), 0.35),
                                    (False, max(1, int(round(rn * 0.3))), PAWN_MIN_AREA)):
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r_open + 1, 2 * r_open + 1))
        pawns = cv2.morphologyEx(net_mask.astype(np.uint8), cv2.MORPH_OPEN, kernel)
        n_p, p_lab, p_stats, p_cents = cv2.connectedComponentsWithStats(pawns, connectivity=8)
        for k in range(1, n_p):
            area = p_stats[k, cv2.CC_STAT_AREA]
            if not min_area * math.pi * rn * rn <= area <= 2.5 * math.pi * rn * rn:
                continue
            if first:
                whole_pawns[p_lab == k] = 1
            elif whole_pawns[p_lab == k].any():
                continue  # already a whole pawn
            candidates.append(((float(p_cents[k][0]), float(p_cents[k][1])), first))
    for centre, whole in candidates:
        ring = _disc((p, p), centre, rc * 0.95) & ~_disc((p, p), centre, rn * 1.2)
        inner = _disc((p, p), centre, max(1.0, rn * 0.5))
        med_ring = np.median(feats[ring], axis=0)
        med_in = np.median(feats[inner], axis=0)
        d_cells = sorted((float(((model.centres[i] - med_ring) ** 2).sum()), i)
                         for i in cell_classes)
        d_nets = sorted((float(((model.centres[i] - med_in) ** 2).sum()), i) for i in net_ids)
        pawn_conf = _margin_conf(d_nets[0][0], d_nets[1][0])
        # the pawn's middle must be nearer a player colour than the ring's cell colour
        if d_nets[0][0] >= float(((model.centres[d_cells[0][1]] - med_in) ** 2).sum()):
            continue
        near = [n for n, c in enumerate(cells)
                if math.hypot(centre[0] - c.centre[0], centre[1] - c.centre[1]) < 0.8 * rc]
        colour = str(names[d_nets[0][1]])
        if near:
            c = cells[near[0]]
            if c.networker is None or (whole and c.networker != colour):
                cells[near[0]] = _Cell(c.centre, c.colour, c.confidence, colour,
                                       min(pawn_conf, c.net_confidence if c.networker else 1.0))
        elif whole:
            # no cell read here: if the ring is not bare tile, a cell hides under the pawn
            # (only a whole pawn says so: a small blob beside no cell is tile art)
            tile_d = min(float(((model.centres[i] - med_ring) ** 2).sum())
                         for i, kk in enumerate(model.kinds) if kk == "tile")
            if d_cells[0][0] < tile_d:
                problems.append("a networker stands where no cell was read: is a cell hidden?")
                conf = min(conf, 0.3)
    order = reading_order([(c.centre[0] / p, c.centre[1] / p) for c in cells])
    cells = [cells[i] for i in order]
    cell_ids = [chr(ord("a") + i) for i in range(len(cells))]
    # ---- channels: the mask without the cells, then pieces and their contacts
    channel = (kind_map == "channel").astype(np.uint8)
    channel = cv2.morphologyEx(channel, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    # the outermost pixels may show the gap to the next tile or the table: not this tile's
    edge_px = max(2, int(round(0.035 * p)))
    channel[:edge_px, :] = channel[-edge_px:, :] = 0
    channel[:, :edge_px] = channel[:, -edge_px:] = 0
    # two cells close together: the short channel between them is judged along the line
    links: list[tuple[Endpoint, Endpoint]] = []
    # whatever is not bare tile art conducts (channel, cells, their outlines)
    conductive = (~np.isin(kind_map, ("tile", "edge", "icon"))).astype(np.uint8)
    for c in cells:  # a pawn hides the cell's middle: the whole cell conducts
        conductive[_disc((p, p), c.centre, rc * 0.9)] = 1
    yy, xx = np.mgrid[0:p, 0:p].astype(np.float32)
    for i, ci in enumerate(cells):
        for j in range(i + 1, len(cells)):
            cj = cells[j]
            dx, dy = cj.centre[0] - ci.centre[0], cj.centre[1] - ci.centre[1]
            dist = math.hypot(dx, dy)
            if dist > 0.6 * p or dist < 1e-6:
                continue
            # a corridor along the straight line between the two cells
            t = np.clip(((xx - ci.centre[0]) * dx + (yy - ci.centre[1]) * dy) / dist**2, 0, 1)
            off = np.hypot(xx - ci.centre[0] - t * dx, yy - ci.centre[1] - t * dy)
            corridor = (off <= max(3.0, 0.09 * p)).astype(np.uint8)
            _, comp = cv2.connectedComponents(conductive & corridor, connectivity=8)
            la = comp[int(round(ci.centre[1])), int(round(ci.centre[0]))]
            lb = comp[int(round(cj.centre[1])), int(round(cj.centre[0]))]
            if la and la == lb:
                links.append((cell_ids[i], cell_ids[j]))
            else:
                # cells whose outlines nearly touch: a short channel may hide in the blur
                k = 2 * max(2, int(round(0.08 * p))) + 1
                near = cv2.dilate((comp == la).astype(np.uint8), np.ones((k, k), np.uint8))
                if (near.astype(bool) & (comp == lb)).any():
                    problems.append("a channel between two cells is broken: joined or not?")
                    conf = min(conf, 0.4)
    for c in cells:
        channel[_disc((p, p), c.centre, rc * 1.3)] = 0
    n, lab, stats, _ = cv2.connectedComponentsWithStats(channel, connectivity=8)
    min_piece = 0.6 * cw * cw
    windows: dict[Port, np.ndarray] = {}
    fr = pack.ports
    depth0, depth1 = max(2, int(round(0.035 * p))), max(4, int(0.13 * p))
    half_w = max(2.0, cw)
    port_fraction: dict[Port, float] = {}
    for side in SIDES:
        for pos in range(3):
            port = Port(side, pos)
            x, y = port_point(port, fr)
            win = np.zeros((p, p), bool)
            u = x * p if side in "NS" else y * p
            ua, ub = int(round(u - half_w)), int(round(u + half_w)) + 1
            if side == "N":
                win[depth0:depth1, ua:ub] = True
            elif side == "S":
                win[p - depth1 : p - depth0, ua:ub] = True
            elif side == "W":
                win[ua:ub, depth0:depth1] = True
            else:
                win[ua:ub, p - depth1 : p - depth0] = True
            windows[port] = win
            port_fraction[port] = float(channel[win].mean()) if win.any() else 0.0
    present = {q for q, f in port_fraction.items() if f >= settings.port_min_fraction}
    offset = _opening_offset(channel, fr, depth0, depth1, cw)
    for f in port_fraction.values():
        # a fraction near the threshold is a doubtful opening
        margin = abs(f - settings.port_min_fraction) / settings.port_min_fraction
        conf = min(conf, float(np.clip(0.5 + margin, 0.0, 1.0)))
    # openings that are not at one of the three positions
    band = np.zeros((p, p), bool)
    band[depth0:depth1, :] = band[p - depth1 : p - depth0, :] = True
    band[:, depth0:depth1] = band[:, p - depth1 : p - depth0] = True
    stray = channel.astype(bool) & band
    for win in windows.values():
        stray &= ~cv2.dilate(win.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    corner = np.zeros((p, p), bool)
    cc = depth1 + 1
    corner[:cc, :cc] = corner[:cc, -cc:] = corner[-cc:, :cc] = corner[-cc:, -cc:] = True
    stray &= ~corner
    if stray.sum() > cw * (depth1 - depth0) * 0.6:
        problems.append("a channel reaches a side away from the three opening positions")
        conf = min(conf, 0.4)
    contact_ring = [_disc((p, p), c.centre, rc * 1.3 + 2.5) for c in cells]
    used_ports: set[Port] = set()
    for k in range(1, n):
        if stats[k, cv2.CC_STAT_AREA] < min_piece:
            continue
        # a sliver thinner than a channel (a neighbour's edge line, a shadow) is no channel
        if min(stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]) < 0.6 * cw:
            continue
        piece = lab == k
        grown = cv2.dilate(piece.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        nodes: list[Endpoint] = [
            cell_ids[i] for i, ring_ in enumerate(contact_ring) if (grown & ring_).any()
        ]
        ports_here = [
            q
            for q in sorted(present, key=lambda q: (SIDES.index(q.side), q.position))
            if (piece & windows[q]).any()
        ]
        nodes.extend(ports_here)
        used_ports.update(ports_here)
        if len(nodes) < 2:
            problems.append("a channel ends without reaching a cell or a side")
            conf = min(conf, 0.4)
            continue
        # a channel is a stroke: a hole in it means something round sits on it (a cell under
        # a networker whose ring was not seen)
        contours, hierarchy = cv2.findContours(piece.astype(np.uint8), cv2.RETR_CCOMP,
                                               cv2.CHAIN_APPROX_SIMPLE)
        if hierarchy is not None and any(
                h[3] >= 0 and cv2.contourArea(c) >= 0.25 * math.pi * rn * rn
                for c, h in zip(contours, hierarchy[0], strict=True)):
            problems.append("something round sits on a channel: a cell under a networker?")
            conf = min(conf, 0.3)
        cell_count = sum(1 for e in nodes if isinstance(e, str))
        if cell_count == 0 and len(nodes) >= 4:
            problems.append("channels cross or join at one point: cannot tell which")
            conf = min(conf, 0.4)
        # skeleton ends must lie at a cell or a side: otherwise a channel ends in nowhere
        ys, xs = np.nonzero(piece)
        y0_, y1_, x0_, x1_ = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
        sk = skeletonize(piece[y0_:y1_, x0_:x1_])
        for ex, ey in endpoints(sk):
            gx, gy = ex + x0_, ey + y0_
            near_side = min(gx, gy, p - 1 - gx, p - 1 - gy) <= depth1 + 2
            near_cell = any(
                math.hypot(gx - c.centre[0], gy - c.centre[1]) <= rc * 1.3 + cw + 3 for c in cells
            )
            if not (near_side or near_cell):
                problems.append("a channel ends in the middle of the tile: a join hidden?")
                conf = min(conf, 0.5)
                break
        for a, b2 in zip(nodes, nodes[1:], strict=False):
            links.append((a, b2))
    for q in sorted(present - used_ports, key=lambda q: (SIDES.index(q.side), q.position)):
        problems.append(f"an opening at {q.side}{q.position} joins nothing")
        conf = min(conf, 0.4)
    for c in cells:
        conf = min(conf, c.confidence)
    links = list(dict.fromkeys(links))
    tile = Tile.make({cid: c.colour for cid, c in zip(cell_ids, cells, strict=True)}, links)
    nets = [
        NetworkerRead(at, cid, c.networker, c.net_confidence)
        for cid, c in zip(cell_ids, cells, strict=True)
        if c.networker is not None
    ]
    for c in cells:
        if c.net_confidence < settings.min_confidence:
            conf = min(conf, c.net_confidence)
    category = read_icon(labels, kind_map, pack, model) if pack.icons else None
    centres = tuple((c.centre[0] / p, c.centre[1] / p) for c in cells)
    return TileRead(at, tile, conf, category, tuple(dict.fromkeys(problems)), centres,
                    offset), nets


_ICONS: dict[tuple[int, int], dict[str, list[np.ndarray]]] = {}


def _icon_templates(pack: EnigmaPack, side: int) -> dict[str, list[np.ndarray]]:
    """Each category icon as a mask of its icon-coloured pixels, ``side`` square, 4 turns."""
    key = (id(pack), side)
    if key not in _ICONS:
        icon_f = colour_features(np.array(pack.colour("icon"), np.float32))
        tile_f = colour_features(np.array(pack.colour("tile"), np.float32))
        out: dict[str, list[np.ndarray]] = {}
        for category, image in pack.icons.items():
            small = cv2.resize(image, (side, side), interpolation=cv2.INTER_AREA)
            f = colour_features(small)
            mask = ((f - icon_f) ** 2).sum(axis=-1) < ((f - tile_f) ** 2).sum(axis=-1)
            out[category] = [np.rot90(mask, k) for k in range(4)]
        _ICONS[key] = out
    return _ICONS[key]


def read_icon(labels: np.ndarray, kind_map: np.ndarray, pack: EnigmaPack,
              model: ColourModel) -> str | None:
    """The category whose icon (in any of 4 turns) best matches the tile's middle, over the
    pixels that channels and cells leave visible; None when too little is seen or two
    categories match about as well."""
    p = labels.shape[0]
    side = max(8, int(round(2.5 * pack.icon_radius * p)))
    a = (p - side) // 2
    kinds = kind_map[a:a + side, a:a + side]
    seen = np.isin(kinds, ("tile", "icon"))
    if seen.mean() < 0.5:
        return None
    icon = kinds == "icon"
    scores = {}
    for category, turns in _icon_templates(pack, side).items():
        best = 0.0
        for t in turns:
            inter = float((icon & t & seen).sum())
            union = float(((icon | t) & seen).sum())
            best = max(best, inter / max(union, 1.0))
        scores[category] = best
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    if ranked[0][1] < 0.45 or ranked[0][1] - ranked[1][1] < 0.15:
        return None
    return ranked[0][0]


def _opening_offset(channel: np.ndarray, fractions: tuple[float, float, float], depth0: int,
                    depth1: int, cw: float) -> tuple[float, float]:
    """Where the channels cross the sides, against the pack's three positions: the median
    shift in x (from the N and S sides) and in y (from E and W). Openings sit at fixed places
    on a tile, so a consistent shift means the square was cut a little off the tile."""
    p = channel.shape[0]
    wanted = [f * p for f in fractions]
    shifts: dict[str, list[float]] = {"x": [], "y": []}
    bands = {"N": channel[depth0:depth1, :].mean(axis=0),
             "S": channel[p - depth1:p - depth0, :].mean(axis=0),
             "W": channel[:, depth0:depth1].mean(axis=1),
             "E": channel[:, p - depth1:p - depth0].mean(axis=1)}
    for side, profile in bands.items():
        on = profile > 0.5
        k = 0
        while k < p:
            if not on[k]:
                k += 1
                continue
            j = k
            while j < p and on[j]:
                j += 1
            width = j - k
            if 0.5 * cw <= width <= 2.5 * cw:
                centre = (k + j - 1) / 2
                near = min(wanted, key=lambda w: abs(w - centre))
                if abs(centre - near) <= 0.11 * p:
                    shifts["x" if side in "NS" else "y"].append(centre - near)
            k = j
    return (float(np.median(shifts["x"])) if shifts["x"] else 0.0,
            float(np.median(shifts["y"])) if shifts["y"] else 0.0)


# ---------------------------------------------------------------------------- the reader


def _same_structure(a: Tile, b: Tile, pack: EnigmaPack) -> bool:
    """Whether two tiles are the same as seen (cells named in reading order)."""
    spacing = spacing_for(pack)
    return format_tile(seen_tile(a, 0, pack.ports, spacing=spacing)[0]) == format_tile(
        seen_tile(b, 0, pack.ports, spacing=spacing)[0])


def _read_start(balanced: np.ndarray, xy: tuple[float, float], score: float, pack: EnigmaPack,
                model: ColourModel, st: ReaderSettings, expected: Tile | None
                ) -> tuple[TileRead, list[NetworkerRead]]:
    """The start tile as seen, never swapped in: read like any tile when its channels and
    cells read cleanly; else, when its face is the pack's start face (the match found it),
    it is the pack's start tile with the match's confidence. A start tile the game expects
    (``expected``) that differs from the one seen is a question."""
    p = st.px_per_tile
    read, found = read_tile(cv2.getRectSubPix(balanced, (p, p), xy), (0, 0), pack, model, st)
    face_conf = float(np.clip(score / 0.7, 0.0, 1.0))
    if not read.problems and read.confidence >= st.min_confidence and read.tile.links:
        seen, conf, nets = read.tile, read.confidence, found
    else:
        # the pack's start face (a picture, not tile art): its structure is the pack's
        seen, conf, nets = pack.start_conduit, face_conf, []
    problems: tuple[str, ...] = ()
    if expected is not None and not _same_structure(seen, expected, pack):
        conf = min(conf, 0.3)
        problems = (f"the start tile seen ({_describe(seen)}) is not the game's start tile "
                    f"({_describe(expected)}): is the right start tile on the table?",)
    return TileRead((0, 0), seen, conf, "start", problems), nets


def _describe(tile: Tile) -> str:
    t = format_tile(tile)
    links = " ".join("-".join(str(e) for e in link) for link in t["links"]) or "no channels"
    cells = ", ".join(f"{k} {v}" for k, v in t["cells"].items())
    return f"{links}; cells {cells}" if cells else links


def _check_frame(frame: Any) -> np.ndarray:
    if not isinstance(frame, np.ndarray) or frame.size == 0:
        raise UnreadableImageError("the frame is not an image")
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim != 3 or frame.shape[2] not in (3, 4) or frame.dtype != np.uint8:
        raise UnreadableImageError(
            f"the frame has shape {frame.shape} and dtype {frame.dtype}, "
            "expected an 8-bit BGR image"
        )
    return np.ascontiguousarray(frame[:, :, :3])


def read_enigma(
    frame: np.ndarray,
    pack: EnigmaPack,
    cfg: Any = None,
    *,
    geometry: TableGeometry | None = None,
    settings: ReaderSettings | None = None,
    start_tile: Tile | None = None,
) -> EnigmaRead:
    """Read the Enigma table from one BGR frame.

    Raises FrameRefusedError (exit 4) for a frame without the table markers, a bad homography,
    a blurred frame or one without the start tile near the middle; UnreadableImageError
    (exit 2) for something that is not an image.
    """
    t0 = time.perf_counter()
    frame = _check_frame(frame)
    geo = geometry or geometry_from_config(cfg, pack)
    st = settings or settings_from_config(cfg)
    p = st.px_per_tile
    fit = locate(frame, geo.layout, checks=checks_from_config(cfg))
    # the marker frame and a tile and a half around it: a table reaching past the markers
    # is seen (and asked about), not cut off
    margin = int(round(1.5 * p))
    canon, plane_to_canon = rectify(frame, fit, geo, p, margin_px=margin)
    seen = seen_mask(frame.shape, fit, plane_to_canon, (canon.shape[1], canon.shape[0]))
    gray = cv2.cvtColor(canon, cv2.COLOR_BGR2GRAY)
    t1 = time.perf_counter()
    sx, sy, score = find_start(gray, pack, p, st)
    sharp = float(cv2.Laplacian(cv2.getRectSubPix(gray, (p, p), (sx, sy)), cv2.CV_32F).var())
    if sharp < st.blur_min_variance:
        raise FrameRefusedError(
            f"the table is too blurred to read (sharpness {sharp:.0f}, needs "
            f"{st.blur_min_variance:.0f}): hold the camera still and refocus",
            reason="blurred",
        )
    balanced = balance(canon, (sx, sy), pack, p)
    h, w = canon.shape[:2]
    squares, questions, edge_notes = find_squares(
        balanced, (sx, sy), pack, p, _marker_zones(geo, plane_to_canon), st,
        seen=seen, area=(margin, margin, w - margin, h - margin),
    )
    model = colour_model(pack)
    t2 = time.perf_counter()
    tiles: dict[Pos, TileRead] = {}
    nets: list[NetworkerRead] = []
    # from the start tile outwards: each square is predicted from its neighbours' final
    # places, then moved to where its own openings say the tile lies (lens distortion and
    # hand placement bend the ideal grid by a few pixels)
    final: dict[Pos, tuple[float, float]] = {(0, 0): (sx, sy)}
    order = sorted(squares, key=lambda a: (abs(a[0]) + abs(a[1]), a[1], a[0]))
    for at in order:
        if at == (0, 0):
            read, found = _read_start(balanced, (sx, sy), score, pack, model, st, start_tile)
            tiles[at] = read
            nets.extend(found)
            continue
        preds = [(final[nb][0] + (at[0] - nb[0]) * p, final[nb][1] + (at[1] - nb[1]) * p)
                 for nb in ((at[0] - 1, at[1]), (at[0] + 1, at[1]), (at[0], at[1] - 1),
                            (at[0], at[1] + 1)) if nb in final]
        cx, cy = ((float(np.mean([q[0] for q in preds])), float(np.mean([q[1] for q in preds])))
                  if preds else squares[at])
        read, found = read_tile(cv2.getRectSubPix(balanced, (p, p), (cx, cy)), at, pack,
                                model, st)
        for _ in range(2):
            dx, dy = read.offset
            if math.hypot(dx, dy) < 1.0 or math.hypot(dx, dy) > 0.15 * p:
                break
            cx, cy = cx + dx, cy + dy
            read, found = read_tile(cv2.getRectSubPix(balanced, (p, p), (cx, cy)), at, pack,
                                    model, st)
        final[at] = (cx, cy)
        tiles[at] = read
        nets.extend(found)
    # a tile at the table's seen edge is read but not trusted: the table may go on there
    for note in edge_notes:
        if note.at in tiles:
            read = tiles[note.at]
            tiles[note.at] = replace(read, confidence=min(read.confidence, EDGE_CONFIDENCE),
                                     problems=(*read.problems, note.text))
    # tiles must join the start tile through tiles
    reach = {(0, 0)}
    stack = [(0, 0)]
    while stack:
        x, y = stack.pop()
        for nb in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nb in tiles and nb not in reach:
                reach.add(nb)
                stack.append(nb)
    for at, read in sorted(tiles.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        where = f"tile [{at[0]}, {at[1]}]"
        if at not in reach:
            questions.append(f"{where}: it touches no tile connected to the start tile")
        for problem in read.problems:
            questions.append(f"{where}: {problem}")
        if read.confidence < st.min_confidence and not read.problems:
            questions.append(f"{where}: is it read right? (confidence {read.confidence:.2f})")
    for n in nets:
        if n.confidence < st.min_confidence:
            questions.append(
                f"tile [{n.at[0]}, {n.at[1]}] cell {n.cell}: is there a {n.colour} "
                f"networker? (confidence {n.confidence:.2f})"
            )
    t3 = time.perf_counter()
    return EnigmaRead(
        tiles,
        nets,
        questions,
        fit,
        {
            "locate": (t1 - t0) * 1000,
            "grid": (t2 - t1) * 1000,
            "tiles": (t3 - t2) * 1000,
            "total": (t3 - t0) * 1000,
        },
    )


__all__ = [
    "ColourModel",
    "EnigmaRead",
    "NetworkerRead",
    "ReaderSettings",
    "TileRead",
    "balance",
    "colour_features",
    "colour_model",
    "EdgeNote",
    "seen_mask",
    "find_squares",
    "find_start",
    "read_enigma",
    "read_tile",
    "rectify",
    "settings_from_config",
]
