"""The camera picture is blitted into one texture: a texture per frame would be made and
dropped ten times a second, all evening."""

from __future__ import annotations

from typing import Any

import numpy as np


def test_frames_of_one_size_reuse_the_texture(make_driver: Any) -> None:
    driver = make_driver()
    app = driver.app
    rng = np.random.default_rng(5)
    textures = []  # held, so that a dropped texture's id cannot be reused
    for _frame in range(5):
        frame = rng.integers(0, 255, (90, 160, 3), dtype=np.uint8)
        app.show_frame((frame, frame))
        driver.pump(1)
        textures.append(app.camera_texture)
    assert all(texture is textures[0] for texture in textures)
    bigger = np.zeros((180, 320, 3), np.uint8)
    app.show_frame((bigger, bigger))
    assert tuple(app.camera_texture.size) == (320, 180)  # a new size: a new texture, once
