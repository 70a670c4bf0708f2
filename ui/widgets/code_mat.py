"""The Break the Code mat as a picture, with tiles drawn on its slots: how to lay them out.

The mat is the printed one (:func:`vision.break_the_code.mat.mat_image`: its corner marks, grey
panel and named slots), so the player matches the picture with the sheet in front of them; each
tile is a face with its number on its own colour (:class:`ui.widgets.code_tile.CodeTileFace`),
never a tile's name.
"""

from __future__ import annotations

from typing import Any

from kivy.graphics.texture import Texture
from kivy.uix.image import Image

from ui.widgets.code_tile import CodeTileFace

#: resolution of the mat picture (pixels per mm): sharp enough at 720 px wide, and cheap
MAT_PICTURE_PX_PER_MM = 3.0
#: the size of a tile drawn on a slot (mm; the box's tiles are about this size)
TILE_DRAWN_MM = (30.0, 40.0)


def mat_texture() -> Texture:
    """The printed mat as a Kivy texture."""
    from vision.break_the_code.mat import mat_image

    page = mat_image(px_per_mm=MAT_PICTURE_PX_PER_MM)
    height, width = page.shape[:2]
    texture = Texture.create(size=(width, height), colorfmt="rgb")
    texture.flip_vertical()
    texture.blit_buffer(page.tobytes(), colorfmt="bgr", bufferfmt="ubyte")
    return texture


class MatPicture(Image):
    """The mat with ``tiles`` (engine names, slot order from A1) drawn on its slots."""

    def __init__(self, tiles: list[str], **kwargs: Any) -> None:
        kwargs.setdefault("fit_mode", "contain")
        super().__init__(**kwargs)
        self.texture = mat_texture()
        self.faces = [CodeTileFace(tile) for tile in tiles]
        for face in self.faces:
            self.add_widget(face)
        self.bind(pos=self._place, size=self._place)

    def _place(self, *args: Any) -> None:
        from vision.break_the_code.mat import SHEET_MM, SLOTS

        width, height = self.norm_image_size
        left, bottom = self.center_x - width / 2, self.center_y - height / 2
        per_mm = width / SHEET_MM[0]
        for face, slot in zip(self.faces, SLOTS, strict=False):
            cx, cy = slot.centre_mm
            face.size = (TILE_DRAWN_MM[0] * per_mm, TILE_DRAWN_MM[1] * per_mm)
            face.center = (left + cx * per_mm, bottom + height - cy * per_mm)
            face.font_size = face.height * 0.6
