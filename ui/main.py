"""Start the Kivy app: ``python -m ui.main``, which ``companion app`` execs.

Kivy is imported here, inside ``run_app``, never at package import; the command line
(``ui.cli``) never imports this module, so no other verb loads Kivy.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections.abc import Sequence

from ui.cli import EXIT_ERROR
from ui.cli.core import add_app_arguments

log = logging.getLogger(__name__)

#: the status of an app ended by Ctrl-C, as a shell gives it
EXIT_INTERRUPTED = 130
#: how long the process's end waits, after the app's own stop (ui.workers.STOP_WAIT_SECONDS
#: for the camera thread, then for the jobs), for a thread of ours still running: a demo
#: render of a thread niced below a loaded machine's other work outlasted those 20 s
#: (issue 23). All three stay inside systemd's 90 s before it kills the kiosk.
LAST_WAIT_SECONDS = 20.0


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
    from ui.memory import limit_heap_growth
    from ui.platform import wants_demo
    from vision.threads import hold_to_one_thread

    # before numpy is first imported: the BLAS reads its thread count when it loads
    if not hold_to_one_thread():
        log.warning("numpy was loaded before the app start: the BLAS keeps its threads")
    limit_heap_growth()  # before the first camera frame is allocated
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


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``companion app``'s options and run the app; returns the exit status."""
    parser = argparse.ArgumentParser(prog="companion app",
                                     description="start the touchscreen app")
    add_app_arguments(parser)
    parser.add_argument("--debug", action="store_true", help="log everything")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.debug else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    try:
        status = run_app(args)
    except KeyboardInterrupt:
        print("companion: interrupted", file=sys.stderr)
        status = EXIT_INTERRUPTED
    except Exception as exc:  # one clear line for systemd's journal, as every verb gives
        if args.debug:
            raise
        print(f"companion: error: {exc}", file=sys.stderr)
        status = int(getattr(exc, "exit_code", EXIT_ERROR))
    return end_with_no_thread_left(status)


def end_with_no_thread_left(status: int) -> int:
    """Return ``status`` once no camera or job thread (:mod:`ui.workers`) runs; if one still
    does after :data:`LAST_WAIT_SECONDS`, end the process here with ``status``.

    The app's stop waits for its threads, each up to a bound (a camera that hangs must not
    keep the kiosk from ending), and the threads are daemonic: one still running then (a
    demo render or a board read on a thread niced below a loaded machine's other work) is
    killed by the interpreter's finalisation as it takes the GIL back inside OpenCV's C++,
    and the process aborts ("terminate called without an active exception", status 134:
    systemd's failure and restart; issue 23). Everything the app holds is released by then
    (the journal closed), so the process ends with ``os._exit``, which skips that
    finalisation, once the logs and the standard streams are flushed.
    """
    from ui.workers import worker_threads_running

    deadline = time.monotonic() + LAST_WAIT_SECONDS
    for thread in worker_threads_running():
        thread.join(max(0.0, deadline - time.monotonic()))
    left = [thread.name for thread in worker_threads_running()]
    if not left:
        return status
    log.warning("threads still running %.0f s after the app's stop: %s; ending the process "
                "without finalising the interpreter", LAST_WAIT_SECONDS, ", ".join(left))
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":
    sys.exit(main())
