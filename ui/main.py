"""Start the Kivy app. Kivy is imported here, inside ``run_app``, never at package import."""

from __future__ import annotations

import argparse
import os


def run_app(args: argparse.Namespace) -> int:
    """Open the app window and run until it is closed; returns the exit status."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    if args.size:
        width, _, height = args.size.partition("x")
        os.environ["KIVY_WINDOW_SIZE"] = f"{width}x{height}"
    from kivy.config import Config

    size = os.environ.get("KIVY_WINDOW_SIZE", "800x480")
    width, _, height = size.partition("x")
    Config.set("graphics", "width", width)
    Config.set("graphics", "height", height)
    from kivy.app import App
    from kivy.uix.label import Label

    class CompanionApp(App):
        title = "Tabletop Companion"

        def build(self) -> Label:
            return Label(text="Tabletop Companion", font_size="32sp")

    CompanionApp().run()
    return 0
