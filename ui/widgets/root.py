"""The window's root: the error banner, the top bar, the screens and (demo) the panel."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.uix.boxlayout import BoxLayout


class RootLayout(BoxLayout):
    """Laid out in ``ui/app.kv``; adds the virtual panel when the app runs the demo."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        app = App.get_running_app()
        devices = getattr(app, "devices", None)
        if app is not None and (app.demo or getattr(devices, "is_virtual", False)):
            from ui.widgets.panel import VirtualPanel

            self.panel = VirtualPanel()
            self.add_widget(self.panel)
        else:
            self.panel = None
