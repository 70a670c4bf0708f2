"""The live camera picture: the app's one camera texture, invisible while there is none.

A tap on it shows it on the whole window (what the reader marked, large enough to check); a
tap there closes it.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.graphics import Color, Ellipse
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.image import Image

from ui import theme
from ui.widgets.curves import circle_line

OVERLAY_RGBA = theme.OVERLAY


class CameraView(ButtonBehavior, Image):
    """Shows ``app.camera_texture`` (updated on the main thread by the app's pump), with an
    optional ``overlay`` of what was read: (u, v, kind), u and v in 0..1 of the frame."""

    overlay = ListProperty([])
    #: whether a tap shows the picture on the whole window (not the enlarged picture itself)
    enlargeable = BooleanProperty(True)
    #: the whole-window view while it is open
    enlarged = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("fit_mode", "contain")
        super().__init__(**kwargs)
        app = App.get_running_app()
        self.bind(texture=self._visible, overlay=self._draw_overlay, size=self._draw_overlay,
                  pos=self._draw_overlay)
        if app is not None:
            app.bind(camera_texture=self._follow)
            self._follow(app, app.camera_texture)
        self._visible(self, self.texture)

    def on_release(self) -> None:
        if self.enlargeable and self.texture is not None and self.enlarged is None:
            self.enlarge()

    def enlarge(self) -> None:
        """The picture on the whole window, with what the reader marked; a tap closes it."""
        from kivy.uix.modalview import ModalView

        view = ModalView(size_hint=(1, 1), background_color=theme.SCRIM)
        big = CameraView(enlargeable=False, overlay=list(self.overlay))
        follow = big.setter("overlay")
        self.bind(overlay=follow)
        big.bind(on_release=lambda *_a: view.dismiss())
        view.add_widget(big)

        def closed(*_a: Any) -> None:
            self.unbind(overlay=follow)
            self.enlarged = None

        view.bind(on_dismiss=closed)
        self.enlarged = view
        view.open()

    def _follow(self, app: Any, texture: Any) -> None:
        self.texture = texture
        self.canvas.ask_update()

    def _visible(self, widget: Any, texture: Any) -> None:
        # an Image without a texture paints a white box: show nothing instead
        self.color = theme.INK if texture is not None else theme.CLEAR

    def _draw_overlay(self, *args: Any) -> None:
        self.canvas.after.clear()
        if not self.overlay or self.texture is None:
            return
        width, height = self.norm_image_size
        left, bottom = self.center_x - width / 2, self.center_y - height / 2
        dot = max(2.5, min(width, height) * 0.018)
        with self.canvas.after:
            for u, v, kind in self.overlay:
                x, y = left + u * width, bottom + (1 - v) * height
                Color(*OVERLAY_RGBA.get(kind, theme.INK))
                if kind == "question":
                    circle_line(x, y, dot * 3, width=1.5)
                elif kind == "tile":
                    circle_line(x, y, dot * 1.6, width=1)
                else:
                    Ellipse(pos=(x - dot, y - dot), size=(2 * dot, 2 * dot))
