"""The project's own drawings of Break the Code tiles (not the publisher's art).

Styles deliberately unlike each other: ``demo`` (the shipped demo pack,
``vision/packs/code-demo``, is drawn from it by ``vision/break_the_code/synth/demo_pack.py``),
``ivory`` (a look the tests teach from a rendered photo) and ``walnut`` (wooden tiles with
carved digits in a slanted serif font: kept for measuring how the reader behaves on tiles no
pack was drawn or taught from, never for tuning it); then looks drawn to teach from that no
reader was designed on (:data:`TEACH_STYLES`: rounded plastic with raised digits, oak with
carved digits and a thick visible side, two-layer tiles with a narrow font) and one more held
apart (:data:`HELD_APART_STYLE`). :func:`draw_tile` draws one face for
the scene renderer; :func:`pack_from_style` makes the pack a perfect teach photo of a style
would give.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.break_the_code.tiles import Tile
from vision.art_pack import BGR, parse_colour
from vision.break_the_code.features import NORM_SIZE
from vision.break_the_code.mat import PANEL_GREY
from vision.break_the_code.pack import TILE_KINDS, CodePack
from vision.synth.glyphs import draw_digit_mask


@dataclass(frozen=True)
class Style:
    """A way of drawing tiles (the project's own art)."""

    name: str
    body: dict[str, BGR]
    digit: dict[str, BGR]
    tile_mm: tuple[float, float]
    font_scale: float  # digit height as a share of the tile height
    glyph_width: float  # digit width as a share of its height
    thickness: float  # stroke as a share of the tile width
    underline: bool  # a bar under 6 and 9
    radius: float  # corner radius as a share of the tile width
    edge: BGR | None = None  # a thin rim of another colour
    slant: float = 0.0  # the digits' lean, as a share of their height
    serifs: bool = False  # bars at the foot of 1 and 4, the head of 7
    grain: float = 0.0  # wood grain: the streaks' depth in grey levels (0: a plain body)
    carved: bool = False  # digits cut into the face: a dark lip above and left of each stroke
    #: an OpenCV font instead of the project's strokes: another type design, but one that
    #: differs between OpenCV 4.10 and 5.x, so only for looks that are measured, never shipped
    font: int | None = None
    raised: bool = False  # digits standing out of the face: lit above-left, shaded below-right
    sheen: float = 0.0  # a plastic's soft highlight across the face, in grey levels
    #: the width of a rim of the ``edge`` colour all round (a two-layer tile's bevel); None
    #: keeps the older rim, which shows at the rounded corners only
    edge_mm: float | None = None
    dot: bool = False  # a dot under 6 and 9 instead of (or beside) a bar
    #: the tile's thickness where the camera sees its side (mm; 0: a flat tile seen from
    #: straight above); the side is the body colour darkened by ``side_shade``
    side_mm: float = 0.0
    side_shade: float = 0.6


STYLES: dict[str, Style] = {
    "demo": Style(
        name="demo",
        body={"b": parse_colour("#2a2a2a"), "w": parse_colour("#ebebe6"),
              "g": parse_colour("#3c9a46")},
        digit={"b": parse_colour("#f4f4f0"), "w": parse_colour("#1c1c1c"),
               "g": parse_colour("#f4f4f0")},
        tile_mm=(28.0, 38.0),
        font_scale=0.46,
        glyph_width=0.62,
        thickness=0.11,
        underline=True,
        radius=0.14,
    ),
    "ivory": Style(
        name="ivory",
        body={"b": parse_colour("#1e2230"), "w": parse_colour("#f0e4c8"),
              "g": parse_colour("#2f7a3a")},
        digit={"b": parse_colour("#e8dcc0"), "w": parse_colour("#262018"),
               "g": parse_colour("#f0e8d0")},
        tile_mm=(30.0, 40.0),
        font_scale=0.44,
        glyph_width=0.5,
        thickness=0.07,
        underline=False,
        radius=0.08,
        edge=parse_colour("#8a7a5a"),
        slant=0.12,
        serifs=True,
    ),
    "walnut": Style(
        name="walnut",
        body={"b": parse_colour("#3b2516"), "w": parse_colour("#d9b98c"),
              "g": parse_colour("#3d6b35")},
        digit={"b": parse_colour("#e6c99a"), "w": parse_colour("#4a2e18"),
               "g": parse_colour("#e0d2a8")},
        tile_mm=(29.0, 39.0),
        font=cv2.FONT_HERSHEY_TRIPLEX | cv2.FONT_ITALIC,
        font_scale=0.5,
        glyph_width=0.55,
        thickness=0.09,
        underline=False,
        radius=0.1,
        grain=14.0,
        carved=True,
    ),
    # The looks below were drawn for teaching (issue: teach code works for any tile set);
    # none of them is what the reader or the demo pack was designed on.
    "plastic": Style(
        name="plastic",
        body={"b": parse_colour("#1c2740"), "w": parse_colour("#f3efe2"),
              "g": parse_colour("#2e8b57")},
        digit={"b": parse_colour("#f6f6f2"), "w": parse_colour("#1c2740"),
               "g": parse_colour("#f6f6f2")},
        tile_mm=(26.0, 36.0),
        font_scale=0.5,
        glyph_width=0.6,
        thickness=0.12,
        underline=True,
        radius=0.24,
        raised=True,
        sheen=22.0,
        side_mm=1.5,
    ),
    "oak": Style(
        name="oak",
        body={"b": parse_colour("#4a2c1a"), "w": parse_colour("#e2c48e"),
              "g": parse_colour("#4f7a3a")},
        # stain lies on the surface: a digit carved through it shows the raw wood, and on
        # the raw oak tiles the carving is darkened (burnt in)
        digit={"b": parse_colour("#c9a470"), "w": parse_colour("#5a3519"),
               "g": parse_colour("#cdb07e")},
        tile_mm=(30.0, 40.0),
        font_scale=0.5,
        glyph_width=0.58,
        thickness=0.1,
        underline=False,
        dot=True,
        radius=0.05,
        serifs=True,
        grain=18.0,
        carved=True,
        side_mm=3.0,
        side_shade=0.55,
    ),
    "layered": Style(
        name="layered",
        body={"b": parse_colour("#23201c"), "w": parse_colour("#efe7d2"),
              "g": parse_colour("#3f8a4c")},
        digit={"b": parse_colour("#efe7d2"), "w": parse_colour("#23201c"),
               "g": parse_colour("#f4f0e2")},
        edge=parse_colour("#8d8576"),
        edge_mm=1.2,
        tile_mm=(28.0, 40.0),
        font_scale=0.56,
        glyph_width=0.36,
        thickness=0.06,
        underline=True,
        radius=0.12,
        side_mm=1.0,
    ),
    # Held apart: never looked at while anything was tuned; the bench reports it last.
    "enamel": Style(
        name="enamel",
        body={"b": parse_colour("#2d3340"), "w": parse_colour("#dde5ec"),
              "g": parse_colour("#2f8f72")},
        digit={"b": parse_colour("#f0e6c8"), "w": parse_colour("#2d3340"),
               "g": parse_colour("#f0e6c8")},
        tile_mm=(27.0, 37.0),
        font=cv2.FONT_HERSHEY_DUPLEX,
        font_scale=0.48,
        glyph_width=0.6,
        thickness=0.1,
        underline=False,
        dot=True,
        radius=0.3,
        raised=True,
        sheen=16.0,
        side_mm=2.0,
    ),
}

#: the looks drawn for teaching that the demo pack does not hold, and the one held apart
#: (never looked at while tuning: its figures are reported, never fitted)
TEACH_STYLES = ("plastic", "oak", "layered")
HELD_APART_STYLE = "enamel"

#: wood grain: streaks along the tile's length, this many across its width, a little wavy
GRAIN_STREAKS = 9.0
GRAIN_WAVE = 0.35


def _wood_grain(shape: tuple[int, int], depth: float, seed: int) -> np.ndarray:
    """Streaks along a tile's length, ``depth`` grey levels deep (float32, centred on 0);
    the same for the same ``seed``, so a tile always looks the same."""
    h, w = shape
    rng = np.random.default_rng(seed)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    phase = float(rng.uniform(0, 2 * np.pi))
    wave = GRAIN_WAVE * np.sin(ys / h * 2 * np.pi * float(rng.uniform(0.5, 1.5)) + phase)
    streaks = np.sin((xs / w * GRAIN_STREAKS + wave) * 2 * np.pi)
    fine = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.0)
    grain: np.ndarray = depth * (0.7 * streaks + 0.3 * fine / max(float(fine.std()), 1e-6))
    return grain.astype(np.float32)


def draw_tile(tile: Tile, style: Style, *, px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """The tile face (BGR) and its outline mask (uint8, 255 inside), upright."""
    w = round(style.tile_mm[0] * px_per_mm)
    h = round(style.tile_mm[1] * px_per_mm)
    letter = tile.colour.value
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = style.body[letter]
    mask = np.zeros((h, w), np.uint8)
    r = max(1, round(style.radius * w))
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    if style.edge is not None:
        img[_rim(mask, style.edge_mm, px_per_mm) > 0] = style.edge
    if style.sheen > 0:
        img = _add_sheen(img, style.sheen)
    if style.grain > 0:
        seed = tile.number * 3 + "bwg".index(letter)
        grained = img.astype(np.float32) + _wood_grain((h, w), style.grain, seed)[..., None]
        img = np.clip(grained, 0, 255).astype(np.uint8)
    if style.carved:
        # the cut's far wall is in shadow: a darker copy of the stroke, a little up and left
        lip = max(1, round(0.02 * w))
        body = style.body[letter]
        shade = (int(body[0] * 0.45), int(body[1] * 0.45), int(body[2] * 0.45))
        _draw_digit(img, tile.number, style, shade, w, h, offset=-lip)
    if style.raised:
        # a digit standing proud: its lit top-left edge and its shadow to the bottom right
        lip = max(1, round(0.025 * w))
        b0, b1, b2 = (float(v) for v in style.body[letter])
        lit: BGR = (min(255, int(b0 * 0.5 + 140)), min(255, int(b1 * 0.5 + 140)),
                    min(255, int(b2 * 0.5 + 140)))
        dark: BGR = (int(b0 * 0.4), int(b1 * 0.4), int(b2 * 0.4))
        _draw_digit(img, tile.number, style, dark, w, h, offset=lip)
        _draw_digit(img, tile.number, style, lit, w, h, offset=-lip)
    _draw_digit(img, tile.number, style, style.digit[letter], w, h)
    img[mask == 0] = 0
    return img, mask


#: the width (mm) of the older, corners-only rim
CORNER_RIM_MM = 0.6


def _rim(mask: np.ndarray, width_mm: float | None, px_per_mm: float) -> np.ndarray:
    """The band inside the tile's outline that the ``edge`` colour covers."""
    kernel = np.ones((3, 3), np.uint8)
    if width_mm is None:
        # eroded without padding, the face's straight sides (at the image border) stay
        steps = max(1, round(CORNER_RIM_MM * px_per_mm))
        rim: np.ndarray = cv2.subtract(mask, cv2.erode(mask, kernel, iterations=steps))
        return rim
    steps = max(1, round(width_mm * px_per_mm))
    padded = cv2.copyMakeBorder(mask, steps, steps, steps, steps, cv2.BORDER_CONSTANT, value=0)
    inner = cv2.erode(padded, kernel, iterations=steps)[steps:-steps, steps:-steps]
    rim = cv2.subtract(mask, inner)
    return rim


#: where the sheen's highlight runs across the face (share of the diagonal) and its width
SHEEN_AT, SHEEN_WIDTH = 0.3, 0.18


def _add_sheen(img: np.ndarray, depth: float) -> np.ndarray:
    """A soft diagonal highlight, ``depth`` grey levels at its brightest (a glossy face)."""
    h, w = img.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    along = (xs / w + ys / h) / 2
    glow = depth * np.exp(-(((along - SHEEN_AT) / SHEEN_WIDTH) ** 2))
    lit: np.ndarray = np.clip(img.astype(np.float32) + glow[..., None], 0, 255)
    return lit.astype(np.uint8)


def _draw_digit(img: np.ndarray, number: int, style: Style, colour: BGR, w: int, h: int, *,
                offset: int = 0) -> None:
    """The digit, centred on the face (a little above the middle, moved by ``offset`` pixels
    both ways), with the 6/9 bar."""
    ink = np.zeros((h, w), np.uint8)
    if style.font is not None:
        _font_digit_mask(ink, number, style, w, h, offset)
    else:
        digit_h = round(style.font_scale * h)
        digit_w = round(style.glyph_width * digit_h)
        thick = max(1.0, style.thickness * w)
        x = (w - digit_w) // 2 + offset
        y = (h - digit_h) // 2 - round(0.03 * h) + offset
        draw_digit_mask(ink, number, (x, y, digit_w, digit_h), thickness_px=thick,
                        slant=style.slant, serifs=style.serifs)
        if style.underline and number in (6, 9):
            bar_y = y + digit_h + round(0.09 * h)
            cv2.line(ink, (x + digit_w // 6, bar_y), (x + digit_w - digit_w // 6, bar_y), 255,
                     max(1, round(thick)))
        if style.dot and number in (6, 9):
            _draw_dot(ink, (x + digit_w // 2, y + digit_h + round(0.1 * h)), thick)
    alpha = ink.astype(np.float32)[..., None] / 255.0
    blended = img * (1.0 - alpha) + np.array(colour, np.float32) * alpha
    img[:] = np.clip(np.rint(blended), 0, 255).astype(np.uint8)


def _font_digit_mask(ink: np.ndarray, number: int, style: Style, w: int, h: int,
                     offset: int) -> None:
    """The digit in ``style.font`` (cv2.putText), as the ``ink`` mask."""
    assert style.font is not None
    text = str(number)
    thick = max(1, round(style.thickness * w))
    (_, th), _ = cv2.getTextSize(text, style.font, 1.0, thick)
    scale = style.font_scale * h / th
    (tw, th), _ = cv2.getTextSize(text, style.font, scale, thick)
    org = ((w - tw) // 2 + offset, (h + th) // 2 - round(0.03 * h) + offset)
    cv2.putText(ink, text, org, style.font, scale, 255, thick, cv2.LINE_AA)
    if style.underline and number in (6, 9):
        y = org[1] + round(0.09 * h)
        cv2.line(ink, (org[0] + tw // 6, y), (org[0] + tw - tw // 6, y), 255, thick,
                 cv2.LINE_AA)
    if style.dot and number in (6, 9):
        _draw_dot(ink, (org[0] + tw // 2, org[1] + round(0.1 * h)), thick)


def _draw_dot(ink: np.ndarray, centre: tuple[int, int], thick: float) -> None:
    """The small round mark under a 6 or a 9 that says which way up the tile is."""
    cv2.circle(ink, centre, max(1, round(0.9 * thick)), 255, -1, cv2.LINE_AA)


def pack_from_style(style: Style, *, description: str = "") -> CodePack:
    """A pack drawn from a style: what a perfect teach photo of those tiles would give."""
    px = 8.0
    tiles: dict[str, np.ndarray] = {}
    for tile in TILE_KINDS:
        face, mask = draw_tile(tile, style, px_per_mm=px)
        face[mask == 0] = (PANEL_GREY,) * 3
        tiles[str(tile)] = cv2.resize(face, NORM_SIZE, interpolation=cv2.INTER_AREA)
    colours = {k: np.array(v, np.float32) for k, v in style.body.items()}
    return CodePack(
        name=style.name,
        tile_mm=style.tile_mm,
        colours=colours,
        tiles=tiles,
        description=description or f"the project's own {style.name} drawing of the tiles",
    )


def drawn_demo_pack() -> CodePack:
    """The demo pack as drawn from the ``demo`` style: what ``vision/packs/code-demo`` holds
    (the reader loads the files; this is how they are made)."""
    return pack_from_style(STYLES["demo"])
