"""Start the Kivy app. Kivy is imported here, inside ``run_app``, never at package import."""

from __future__ import annotations

import argparse
import os


def configure_kivy(*, size: str | None, fullscreen: bool = False, demo: bool = True) -> None:
    """Kivy settings that must be made before the window exists."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from kivy.config import Config

    if size:
        width, _, height = size.partition("x")
        Config.set("graphics", "width", str(int(width)))
        Config.set("graphics", "height", str(int(height)))
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "resizable", "1")
    # touch-first: no multitouch emulation dots from right clicks, no hover reliance
    Config.set("input", "mouse", "mouse,disable_multitouch")
    Config.set("kivy", "exit_on_escape", "0" if not demo else "1")
    Config.set("kivy", "keyboard_mode", "" if demo else "systemanddock")


def run_app(args: argparse.Namespace) -> int:
    """Open the app window and run until it is closed; returns the exit status."""
    from ui import services
    from ui.platform import wants_demo

    cfg = services.load_app_config(getattr(args, "config", None))
    cfg_demo = {"on": True, "off": False}.get(cfg.app.demo)
    demo = wants_demo(args.demo if args.demo is not None else cfg_demo)
    size = args.size or os.environ.get("KIVY_WINDOW_SIZE") or \
        f"{cfg.display.width}x{cfg.display.height}"
    if demo:
        # the desktop demo drives gpiozero's mock pins (PWM-capable for the light bar)
        os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
    configure_kivy(size=size, fullscreen=bool(cfg.display.fullscreen) and not demo, demo=demo)
    from ui.app import CompanionApp

    app = CompanionApp(config_path=getattr(args, "config", None), db_path=args.db, demo=demo)
    _stop_on_sigterm(app)
    app.run()
    return 0


def _stop_on_sigterm(app: object) -> None:
    """systemd stops the kiosk with SIGTERM: close the camera, pins and journal cleanly."""
    import signal

    from kivy.clock import Clock

    def handler(signum: int, frame: object) -> None:
        Clock.schedule_once(lambda dt: app.stop(), 0)  # type: ignore[attr-defined]

    signal.signal(signal.SIGTERM, handler)
