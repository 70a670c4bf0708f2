"""The live camera picture: the app's one camera texture, invisible while there is none."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.uix.image import Image


class CameraView(Image):
    """Shows ``app.camera_texture`` (updated on the main thread by the app's pump)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("fit_mode", "contain")
        super().__init__(**kwargs)
        app = App.get_running_app()
        self.bind(texture=self._visible)
        if app is not None:
            app.bind(camera_texture=self._follow)
            self._follow(app, app.camera_texture)
        self._visible(self, self.texture)

    def _follow(self, app: Any, texture: Any) -> None:
        self.texture = texture
        self.canvas.ask_update()

    def _visible(self, widget: Any, texture: Any) -> None:
        # an Image without a texture paints a white box: show nothing instead
        self.color = (1, 1, 1, 1) if texture is not None else (0, 0, 0, 0)
