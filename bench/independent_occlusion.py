"""Whether the independent puzzle renderer hides the angular cubes as a camera would.

``bench/independent_scenes/puzzle_pieces.draw_solids`` paints the solids farthest first (by the
distance of their middles from the camera). For each frame, that painter's order (the faces
each cube shows, filled without anti-aliasing) is compared with a ray cast: each pixel's ray
from the camera's centre meets the nearest cube face. Pixels on a face of another cube than
the ray's nearest show a wrong occlusion order; those on polygon edges are a pixel's
rounding, so the count of such pixels also interior (3 x 3) is printed.

    python bench/independent_occlusion.py --conditions mild,moderate,harsh --frames 12

Tuning seeds only (below 70000): this looks at the frames pixel by pixel.
"""

from __future__ import annotations

import argparse

import cv2
import numpy as np
from independent_scenes.puzzle_pieces import Solid, lifted
from independent_scenes.puzzle_scene import HELD_APART_FIRST, puzzle_scene, scene_cards
from independent_scenes.tabletop_camera import TableCamera

Box = tuple[int, int, int, int]


def _outward(solid: Solid, a: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    fp = solid.footprint
    p, q = fp[a], fp[(a + 1) % len(fp)]
    edge = q - p
    out = np.array([edge[1], -edge[0]]) / np.linalg.norm(edge)
    if out @ ((p + q) / 2 - fp.mean(axis=0)) < 0:
        out = -out
    return p, q, out


def painted(camera: TableCamera, solids: list[Solid], box: Box) -> np.ndarray:
    """Per pixel of ``box``, 2 x solid (+1 on a side) of the face the renderer leaves on top."""
    x0, y0, x1, y1 = box
    ids = np.full((y1 - y0, x1 - x0), -1, np.int32)
    eye = camera.centre[:2]
    order = sorted(range(len(solids)),
                   key=lambda i: -float(np.linalg.norm(solids[i].middle - camera.centre)))
    for i in order:
        s = solids[i]
        base = camera.project(lifted(s.footprint, s.base)) - [x0, y0]
        top = camera.project(lifted(s.footprint, s.base + s.height)) - [x0, y0]
        for a in range(len(s.footprint)):
            p, q, out = _outward(s, a)
            if out @ (eye - (p + q) / 2) <= 0:
                continue
            b = (a + 1) % len(s.footprint)
            quad = np.array([base[a], base[b], top[b], top[a]])
            cv2.fillPoly(ids, [np.round(quad * 16).astype(np.int32)], 2 * i + 1, shift=4)
        cv2.fillPoly(ids, [np.round(top * 16).astype(np.int32)], 2 * i, shift=4)
    return ids


def ray_cast(camera: TableCamera, solids: list[Solid], box: Box) -> np.ndarray:
    """Per pixel of ``box``, 2 x solid (+1 on a side) of the nearest face its ray meets."""
    x0, y0, x1, y1 = box
    u, v = np.meshgrid(np.arange(x0, x1, dtype=float), np.arange(y0, y1, dtype=float))
    rays = np.stack([u, v, np.ones_like(u)], -1).reshape(-1, 3)
    rays = rays @ np.linalg.inv(camera.intrinsics).T @ camera.rotation
    c = camera.centre
    nearest = np.full(len(rays), np.inf)
    ids = np.full(len(rays), -1)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i, s in enumerate(solids):
            ta = (-(s.base + s.height) - c[2]) / rays[:, 2]
            tb = (-s.base - c[2]) / rays[:, 2]
            enter, leave = np.minimum(ta, tb), np.maximum(ta, tb)
            side = np.zeros(len(rays), bool)
            for a in range(len(s.footprint)):
                p, _, out = _outward(s, a)
                den = rays[:, :2] @ out
                room = out @ p - out @ c[:2]  # how far the eye stands inside this face (< 0: out)
                t = room / den
                side |= (den < 0) & (t > enter)
                enter = np.where(den < 0, np.maximum(enter, t), enter)
                leave = np.where(den > 0, np.minimum(leave, t), leave)
                leave = np.where((den == 0) & (room < 0), -np.inf, leave)
            hit = (enter < leave) & (enter > 0) & (enter < nearest)
            nearest = np.where(hit, enter, nearest)
            ids = np.where(hit, 2 * i + side, ids)
    return ids.reshape(u.shape)


def compare(condition: str, seed: int, right: bool) -> str:
    cards = scene_cards("angular")
    scene = puzzle_scene("angular", cards[seed % len(cards)], right, seed, condition)
    cubes = [s for s in scene.solids if "cube" in s.extra]
    corners = np.vstack([scene.camera.project(lifted(s.footprint, h))
                         for s in cubes for h in (s.base, s.base + s.height)])
    (x0, y0), (x1, y1) = np.floor(corners.min(0)) - 2, np.ceil(corners.max(0)) + 2
    box = (int(x0), int(y0), int(x1), int(y1))
    paint, ray = painted(scene.camera, cubes, box), ray_cast(scene.camera, cubes, box)
    both = (paint >= 0) & (ray >= 0)
    other = both & (paint // 2 != ray // 2)
    inner = cv2.erode(other.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    return (f"{condition} {seed} {'right' if right else 'wrong'}: cube px {int(both.sum())}, "
            f"another cube's face painted {int(other.sum())} (interior {int(inner.sum())})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conditions", default="mild,moderate,harsh")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--frames", type=int, default=12)
    args = parser.parse_args()
    if args.first + args.frames > HELD_APART_FIRST:
        parser.error("tuning seeds only (below 70000)")
    for condition in args.conditions.split(","):
        for seed in range(args.first, args.first + args.frames):
            for right in (True, False):
                print(compare(condition, seed, right), flush=True)


if __name__ == "__main__":
    main()
