"""Seeded camera effects: turn a clean top-down scene into what a camera on an arm would see.

Each effect is a small function ``effect(image, rng, ctx) -> image`` drawing its strength from a
``numpy.random.Generator``; :func:`apply_effects` chains the ones named, always in the physical
order (table, light, lens, sensor, file), and returns the frame with the ground-truth mapping
from scene pixels to frame pixels (:class:`SceneToFrame`), so a test knows where every cell went.

Effects (names for ``--effects``):

``clutter``      objects on the table around the board (never over the protected area)
``whitebalance`` a colour cast (per-channel gains)
``light``        uneven light: a smooth brightness gradient and vignette
``shadow``       one or two soft shadows
``perspective``  the camera tilted up to 30 degrees from straight down, turned freely
``lens``         barrel or pincushion distortion
``defocus``      a small out-of-focus blur
``motion``       a short motion blur in a random direction
``noise``        sensor noise (shot + read)
``jpeg``         JPEG compression at quality 60..95

Example::

    >>> import numpy as np
    >>> scene = np.full((100, 120, 3), 200, np.uint8)
    >>> out = apply_effects(scene, np.random.default_rng(1), ["noise"], frame_size=(160, 120))
    >>> out.image.shape
    (120, 160, 3)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.synth.pinhole import Pinhole

#: every effect, in the order it is applied
ALL_EFFECTS = (
    "clutter",
    "whitebalance",
    "light",
    "shadow",
    "perspective",
    "lens",
    "defocus",
    "motion",
    "noise",
    "jpeg",
)

#: a mild set for the demo camera and the default of ``companion render``
DEFAULT_EFFECTS = ("whitebalance", "light", "shadow", "perspective", "lens", "noise", "jpeg")

#: rows the per-pixel effects work on at a time: their float intermediates are then a band's,
#: not a whole frame's (at 1280x720 the demo camera's frames held 50 MB of float copies at
#: once, several times a second; the results are the same to the bit)
BAND_ROWS = 64


def _in_bands(image: np.ndarray, per_band: Callable[[slice], np.ndarray],
              out: np.ndarray | None = None) -> np.ndarray:
    """A uint8 image like ``image``, each band of rows made by ``per_band(rows)``: a new one,
    or ``out`` (which may be ``image`` itself when ``per_band`` reads only its own rows: a band
    is read whole before it is written)."""
    if out is None:
        out = np.empty_like(image)
    height = image.shape[0]
    for top in range(0, height, BAND_ROWS):
        rows = slice(top, min(height, top + BAND_ROWS))
        out[rows] = per_band(rows)
    return out


def normal_field(rng: np.random.Generator, shape: tuple[int, int], sigma: float) -> np.ndarray:
    """``rng.normal(0, sigma, shape)`` as float32, drawn a band of rows at a time: the same
    numbers and the same state of ``rng`` after, without the whole field in float64 first
    (21 MB for a card's table)."""
    field = np.empty(shape, np.float32)
    for top in range(0, shape[0], BAND_ROWS):
        rows = slice(top, min(shape[0], top + BAND_ROWS))
        field[rows] = rng.normal(0, sigma, (rows.stop - rows.start, shape[1]))
    return field


def with_grain(image: np.ndarray, grain: np.ndarray) -> np.ndarray:
    """``image`` (uint8, rows x columns x channels) plus ``grain`` (float32, rows x columns:
    the same on every channel), clipped to uint8, a band of rows at a time: the sum of a
    whole table in float32 and its clipped copy were two full-size float copies at once (62 MB
    for a Second Chance card's table, 29 MB for a sheet's); the result is the same to the bit.
    """
    def band(rows: slice) -> np.ndarray:
        summed = image[rows].astype(np.float32)
        summed += grain[rows, :, None]
        return np.clip(summed, 0, 255, out=summed).astype(np.uint8)

    return _in_bands(image, band)


def _scaled(image: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """``image`` times ``gain`` (per channel, or per pixel and channel), clipped to uint8; the
    product is clipped where it lies (one float copy of the band, not two)."""
    product: np.ndarray = image.astype(np.float32) * gain
    np.clip(product, 0, 255, out=product)
    return product.astype(np.uint8)


def _spare(image: np.ndarray, ctx: EffectContext) -> np.ndarray | None:
    """Where a per-pixel effect writes its result: over ``image`` when nobody else needs it
    (``ctx.spare``), else in a new image (None)."""
    return image if image is ctx.spare else None


@dataclass
class EffectContext:
    """What the effects share: the protected area and the growing geometric truth."""

    protect: np.ndarray | None  # uint8 mask of the scene; clutter stays off it
    frame_size: tuple[int, int]  # (width, height) of the camera frame
    max_tilt_deg: float = 30.0
    homography: np.ndarray = field(default_factory=lambda: np.eye(3))  # scene -> frame
    lens_k1: float = 0.0  # radial distortion applied after the homography
    camera: Pinhole | None = None  # the camera drawn beforehand (pieces standing up), if any
    log: dict[str, object] = field(default_factory=dict)
    #: an image the per-pixel effects may draw over (apply_effects' own intermediate, or the
    #: scene its caller gave away): one scene-sized copy fewer at the effects' high
    spare: np.ndarray | None = None


@dataclass(frozen=True)
class SceneToFrame:
    """Ground truth: where a scene pixel lands in the frame (homography, then lens)."""

    homography: np.ndarray
    lens_k1: float
    frame_size: tuple[int, int]

    def map_points(self, points: np.ndarray) -> np.ndarray:
        """Scene (x, y) points -> frame (x, y) points."""
        pts = cv2.perspectiveTransform(
            np.asarray(points, np.float64).reshape(-1, 1, 2), self.homography
        ).reshape(-1, 2)
        if self.lens_k1:
            pts = _distort_points(pts, self.lens_k1, self.frame_size)
        return pts


@dataclass(frozen=True)
class EffectResult:
    image: np.ndarray
    truth: SceneToFrame
    applied: dict[str, object]


Effect = Callable[[np.ndarray, np.random.Generator, EffectContext], np.ndarray]


# ---------------------------------------------------------------- scene-space effects


def clutter(image: np.ndarray, rng: np.random.Generator, ctx: EffectContext) -> np.ndarray:
    """Mugs, cards, a pencil, a box lid: shapes of random colour on the table, off the board."""
    out = image.copy()
    h, w = out.shape[:2]
    layer = out.copy()
    for _ in range(int(rng.integers(3, 9))):
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        kind = int(rng.integers(0, 3))
        cx, cy = int(rng.integers(0, w)), int(rng.integers(0, h))
        size = int(rng.integers(min(h, w) // 20, min(h, w) // 6))
        if kind == 0:
            cv2.circle(layer, (cx, cy), size, colour, -1, cv2.LINE_AA)
            cv2.circle(layer, (cx, cy), int(size * 0.7), tuple(c // 2 for c in colour), 3)
        elif kind == 1:
            box = cv2.boxPoints(((cx, cy), (size * 1.4, size), float(rng.uniform(0, 180))))
            cv2.fillConvexPoly(layer, box.astype(np.int32), colour, cv2.LINE_AA)
        else:
            angle = rng.uniform(0, math.pi)
            dx, dy = math.cos(angle) * size * 2, math.sin(angle) * size * 2
            cv2.line(
                layer,
                (int(cx - dx), int(cy - dy)),
                (int(cx + dx), int(cy + dy)),
                colour,
                max(3, size // 8),
                cv2.LINE_AA,
            )
    if ctx.protect is not None:
        keep = ctx.protect > 0
        layer[keep] = out[keep]
    return layer


def whitebalance(image: np.ndarray, rng: np.random.Generator, ctx: EffectContext) -> np.ndarray:
    """A colour cast: warm tungsten to cool daylight, per-channel gains up to about 15%."""
    temp = rng.uniform(-1, 1)
    gains = np.array([1 - 0.15 * temp, 1.0 + rng.uniform(-0.05, 0.05), 1 + 0.15 * temp])
    gains *= rng.uniform(0.85, 1.1)
    ctx.log["whitebalance"] = gains.round(3).tolist()
    return _in_bands(image, lambda rows: _scaled(image[rows], gains), _spare(image, ctx))


def _smooth_field(shape: tuple[int, int], rng: np.random.Generator, *, depth: float) -> np.ndarray:
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xx /= w
    yy /= h
    angle = rng.uniform(0, 2 * math.pi)
    grad = (xx - 0.5) * math.cos(angle) + (yy - 0.5) * math.sin(angle)
    cx, cy = rng.uniform(0.3, 0.7, 2)
    vignette = (xx - cx) ** 2 + (yy - cy) ** 2
    field_ = 1.0 + depth * grad - depth * 0.8 * vignette
    brightest_one: np.ndarray = field_ / field_.max()
    return brightest_one


def light(image: np.ndarray, rng: np.random.Generator, ctx: EffectContext) -> np.ndarray:
    """Uneven light: one side brighter than the other, darker towards the edges."""
    depth = float(rng.uniform(0.2, 0.5))
    small = _smooth_field((64, 64), rng, depth=depth)
    gain = cv2.resize(small, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_LINEAR)
    ctx.log["light"] = round(depth, 3)
    # the gain is made whole (cv2.resize's pixels, float64 on numpy 2: 2.7 bytes of it for every
    # byte of the scene); what it multiplies is drawn over when nobody needs it
    return _in_bands(image, lambda rows: _scaled(image[rows], gain[rows, :, None]),
                     _spare(image, ctx))


def shadow(image: np.ndarray, rng: np.random.Generator, ctx: EffectContext) -> np.ndarray:
    """One or two soft shadows (an arm, a head) darkening part of the table by up to 35%."""
    h, w = image.shape[:2]
    small_w = 128
    small_h = max(8, round(small_w * h / w))
    mask = np.zeros((small_h, small_w), np.float32)
    for _ in range(int(rng.integers(1, 3))):
        cx, cy = rng.uniform(0, small_w), rng.uniform(0, small_h)
        axes = (float(rng.uniform(10, 45)), float(rng.uniform(6, 25)))
        cv2.ellipse(
            mask,
            ((cx, cy), (axes[0] * 2, axes[1] * 2), float(rng.uniform(0, 180))),
            float(rng.uniform(0.15, 0.35)),
            -1,
        )
    mask = cv2.GaussianBlur(mask, (0, 0), 6)
    # 1 - the resized mask, where it lies: a second float field of the scene lived beside it
    gain = cv2.resize(mask, (w, h), interpolation=cv2.INTER_LINEAR)
    np.subtract(1.0, gain, out=gain)
    return _in_bands(image, lambda rows: _scaled(image[rows], gain[rows, :, None]),
                     _spare(image, ctx))


# ---------------------------------------------------------------- geometry


def _fit_into_frame(corners: np.ndarray, frame_size: tuple[int, int], fill: float) -> np.ndarray:
    """A similarity that places ``corners`` centred in the frame, filling ``fill`` of it."""
    fw, fh = frame_size
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)
    s = fill * min(fw / (x1 - x0), fh / (y1 - y0))
    tx = fw / 2 - s * (x0 + x1) / 2
    ty = fh / 2 - s * (y0 + y1) / 2
    return np.array([[s, 0, tx], [0, s, ty], [0, 0, 1]], dtype=np.float64)


def camera_homography(
    scene_size: tuple[int, int],
    frame_size: tuple[int, int],
    *,
    tilt_deg: float,
    tilt_dir_deg: float,
    spin_deg: float,
    fill: float = 0.95,
) -> np.ndarray:
    """Homography of a pinhole camera over the scene, tilted ``tilt_deg`` from straight down."""
    w, h = scene_size
    f = max(w, h) * 1.2  # a normal lens: field of view ~45 degrees
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
    centred = corners - [w / 2, h / 2]
    t = math.radians(tilt_deg)
    d = math.radians(tilt_dir_deg)
    # rotate about an axis in the plane at angle d
    axis = np.array([math.cos(d), math.sin(d), 0.0])
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    rot = np.eye(3) + math.sin(t) * k + (1 - math.cos(t)) * (k @ k)
    spin = math.radians(spin_deg)
    rz = np.array(
        [[math.cos(spin), -math.sin(spin), 0], [math.sin(spin), math.cos(spin), 0], [0, 0, 1]]
    )
    pts3 = np.column_stack([centred, np.zeros(4)]) @ (rz.T) @ rot.T
    pts3[:, 2] += f * 1.4  # distance from the camera
    proj = f * pts3[:, :2] / pts3[:, 2:3]
    fitted = _fit_into_frame(proj, frame_size, fill)
    dst = cv2.perspectiveTransform(proj.reshape(-1, 1, 2), fitted).reshape(-1, 2)
    return cv2.getPerspectiveTransform(
        corners.astype(np.float32), dst.astype(np.float32)
    ).astype(np.float64)


def perspective(image: np.ndarray, rng: np.random.Generator, ctx: EffectContext) -> np.ndarray:
    """Tilt the camera up to ``max_tilt_deg`` and turn it freely (marked on ``ctx.homography``);
    with a camera drawn beforehand (``ctx.camera``), its homography, drawing nothing."""
    h, w = image.shape[:2]
    if ctx.camera is not None:
        ctx.homography = ctx.camera.view((w, h)).homography
        ctx.log["perspective"] = round(ctx.camera.tilt_deg, 1)
        return image
    tilt = float(rng.uniform(0, ctx.max_tilt_deg))
    ctx.homography = camera_homography(
        (w, h),
        ctx.frame_size,
        tilt_deg=tilt,
        tilt_dir_deg=float(rng.uniform(0, 360)),
        spin_deg=float(rng.uniform(-12, 12)),
        fill=float(rng.uniform(0.85, 0.98)),
    )
    ctx.log["perspective"] = round(tilt, 1)
    return image  # the warp itself happens once, in apply_effects


def _distort_points(pts: np.ndarray, k1: float, frame_size: tuple[int, int]) -> np.ndarray:
    fw, fh = frame_size
    c = np.array([fw / 2, fh / 2])
    norm = max(fw, fh) / 2
    rel = (pts - c) / norm
    r2 = (rel**2).sum(axis=1, keepdims=True)
    # forward model: distorted = undistorted * (1 + k1 r^2), iterated inverse not needed here
    distorted: np.ndarray = c + rel * (1 + k1 * r2) * norm
    return distorted


def _lens_band(k1: float, frame_size: tuple[int, int], rows: slice
               ) -> tuple[np.ndarray, np.ndarray]:
    """remap() tables of the frame's ``rows``: for every distorted output pixel, the
    undistorted source pixel (each pixel's entry depends on that pixel alone)."""
    fw, fh = frame_size
    c = np.array([fw / 2, fh / 2], np.float32)
    norm = max(fw, fh) / 2
    yy, xx = np.mgrid[rows, 0:fw].astype(np.float32)
    dx, dy = (xx - c[0]) / norm, (yy - c[1]) / norm
    rd = np.sqrt(dx**2 + dy**2)
    # invert rd = ru (1 + k1 ru^2) with two Newton steps
    ru = rd.copy()
    for _ in range(3):
        ru = ru - (ru * (1 + k1 * ru**2) - rd) / (1 + 3 * k1 * ru**2)
    scale = np.where(rd > 1e-9, ru / np.maximum(rd, 1e-9), 1.0)
    return (c[0] + dx * scale * norm).astype(np.float32), (c[1] + dy * scale * norm).astype(
        np.float32
    )


def lens(image: np.ndarray, rng: np.random.Generator, ctx: EffectContext) -> np.ndarray:
    """Barrel (k1 < 0) or pincushion (k1 > 0) distortion, as a wide camera module shows."""
    ctx.lens_k1 = float(rng.uniform(-0.06, 0.03))
    ctx.log["lens"] = round(ctx.lens_k1, 4)
    size = (image.shape[1], image.shape[0])
    return _in_bands(image, lambda rows: cv2.remap(
        image, *_lens_band(ctx.lens_k1, size, rows), cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE))


# ---------------------------------------------------------------- sensor and file


def defocus(image: np.ndarray, rng: np.random.Generator, ctx: EffectContext) -> np.ndarray:
    """A slightly missed focus: a small disc blur (radius scaled to the frame)."""
    radius = max(1, round(float(rng.uniform(0.5, 1.2)) * max(image.shape[:2]) / 1000))
    kernel = np.zeros((2 * radius + 1, 2 * radius + 1), np.float32)
    cv2.circle(kernel, (radius, radius), radius, 1.0, -1)
    kernel /= kernel.sum()
    ctx.log["defocus"] = radius
    return cv2.filter2D(image, -1, kernel)


def motion(image: np.ndarray, rng: np.random.Generator, ctx: EffectContext) -> np.ndarray:
    """A short motion blur (a nudged table or arm) in a random direction."""
    length = max(1, round(float(rng.uniform(0.5, 1.5)) * max(image.shape[:2]) / 1000))
    kernel = np.zeros((2 * length + 1, 2 * length + 1), np.float32)
    angle = rng.uniform(0, math.pi)
    dx, dy = math.cos(angle) * length, math.sin(angle) * length
    cv2.line(
        kernel,
        (round(length - dx), round(length - dy)),
        (round(length + dx), round(length + dy)),
        1.0,
        1,
    )
    kernel /= kernel.sum()
    ctx.log["motion"] = length
    return cv2.filter2D(image, -1, kernel)


def noise(image: np.ndarray, rng: np.random.Generator, ctx: EffectContext) -> np.ndarray:
    """Sensor noise: shot noise growing with brightness plus a constant read noise."""
    sigma_read = float(rng.uniform(1.5, 5.0))
    ctx.log["noise"] = round(sigma_read, 2)

    def band(rows: slice) -> np.ndarray:
        img = image[rows].astype(np.float32)
        sigma = np.sqrt(sigma_read**2 + 0.05 * img)
        # drawn band by band, in order: the generator's stream is the whole frame's
        noisy = img + rng.standard_normal(img.shape, dtype=np.float32) * sigma
        np.clip(noisy, 0, 255, out=noisy)
        noisy_8bit: np.ndarray = noisy.astype(np.uint8)
        return noisy_8bit

    return _in_bands(image, band, _spare(image, ctx))


def jpeg(image: np.ndarray, rng: np.random.Generator, ctx: EffectContext) -> np.ndarray:
    """Compress and decompress as JPEG at quality 60..95."""
    quality = int(rng.integers(60, 96))
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - encoding an ndarray does not fail
        return image
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if decoded is None:  # pragma: no cover - OpenCV reads back the bytes it has just written
        return image
    ctx.log["jpeg"] = quality
    return decoded


EFFECTS: dict[str, Effect] = {
    "clutter": clutter,
    "whitebalance": whitebalance,
    "light": light,
    "shadow": shadow,
    "perspective": perspective,
    "lens": lens,
    "defocus": defocus,
    "motion": motion,
    "noise": noise,
    "jpeg": jpeg,
}

_SCENE_STAGE = ("clutter", "whitebalance", "light", "shadow", "perspective")


def parse_effects(text: str) -> list[str]:
    """``"light,noise"`` -> ``["light", "noise"]``; ``"all"``, ``"default"``, ``"none"`` too."""
    text = text.strip()
    if text in ("", "none"):
        return []
    if text == "all":
        return list(ALL_EFFECTS)
    if text == "default":
        return list(DEFAULT_EFFECTS)
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in EFFECTS]
    if unknown:
        raise ValueError(f"unknown effects {unknown}; known: {', '.join(ALL_EFFECTS)}")
    return names


def _apply_one(name: str, image: np.ndarray, rng: np.random.Generator, ctx: EffectContext,
               *, given: np.ndarray) -> np.ndarray:
    """One effect; what it returns is the effects' own (theirs to draw over next) unless it is
    the caller's scene handed back untouched (perspective's)."""
    result = EFFECTS[name](image, rng, ctx)
    if result is not given or ctx.spare is given:
        ctx.spare = result
    return result


def apply_effects(
    scene: np.ndarray,
    rng: np.random.Generator,
    effects: Sequence[str],
    *,
    frame_size: tuple[int, int] | None = None,
    protect: np.ndarray | None = None,
    max_tilt_deg: float = 30.0,
    overwrite_scene: bool = False,
    camera: Pinhole | None = None,
) -> EffectResult:
    """Apply the named effects (in physical order) to a BGR scene; return frame and truth.

    Without ``perspective`` the scene is only scaled to fit the frame (straight down).
    ``overwrite_scene``: the caller needs the scene no more, so the per-pixel effects draw
    over it (the frame is the same; the scene's pixels are not): the caller's reference keeps
    the scene alive to the end of the call anyway, so a copy of it would be one more.
    ``camera``: the pinhole that ``perspective`` looks through, when the scene was drawn for
    it (pieces standing up, :mod:`vision.synth.pinhole`); without one it draws its own.
    """
    unknown = [e for e in effects if e not in EFFECTS]
    if unknown:
        raise ValueError(f"unknown effects {unknown}; known: {', '.join(ALL_EFFECTS)}")
    h, w = scene.shape[:2]
    fs = frame_size or (w, h)
    if camera is not None and tuple(camera.frame_size) != tuple(fs):
        raise ValueError(f"the camera's frame {camera.frame_size} is not the frame {fs}")
    ctx = EffectContext(protect=protect, frame_size=fs, max_tilt_deg=max_tilt_deg,
                        spare=scene if overwrite_scene else None, camera=camera)
    wanted = set(effects)
    image = scene
    for name in _SCENE_STAGE:
        if name in wanted:
            image = _apply_one(name, image, rng, ctx, given=scene)
    if "perspective" not in wanted:
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
        ctx.homography = _fit_into_frame(corners, fs, 0.95)
    ctx.spare = None  # the scene-stage image goes with the warp (ctx must not keep it)
    # the camera sees a table beyond the scene: replicate its border rather than black
    image = cv2.warpPerspective(
        image, ctx.homography, fs, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    ctx.spare = image
    for name in ALL_EFFECTS[len(_SCENE_STAGE) :]:
        if name in wanted:
            image = _apply_one(name, image, rng, ctx, given=scene)
    truth = SceneToFrame(ctx.homography, ctx.lens_k1, fs)
    return EffectResult(image, truth, dict(ctx.log))
