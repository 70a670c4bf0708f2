"""``companion hardware test``: check the light bar, buzzer and buttons of a table."""

from __future__ import annotations

import argparse
import sys
import threading

from ui.cli import EXIT_ERROR, CommandLine


def _test_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", help="a config file that overrides the defaults")
    parser.add_argument(
        "--mock", action="store_true", help="use simulated pins (no Raspberry Pi needed)"
    )
    parser.add_argument(
        "--timeout", type=float, default=10.0, help="seconds to wait for each button (10)"
    )
    parser.add_argument("--step", type=float, default=0.4, help="seconds each LED stays lit (0.4)")
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        choices=("leds", "sounds", "buttons"),
        help="leave out a part of the check (repeatable)",
    )
    parser.add_argument(
        "--auto-press",
        action="store_true",
        help="with --mock: press each simulated button when asked (a self-test for CI)",
    )


def register(cli: CommandLine) -> None:
    @cli.command(
        "hardware test", "light each LED, play each sound, ask for each button", _test_args
    )
    def hardware_test(args: argparse.Namespace) -> int:
        from config import load_config
        from hardware.errors import PinFactoryError
        from hardware.pins import mock_pin_factory
        from hardware.table import build_table_hardware
        from hardware.wiring_check import PARTS, run_wiring_check

        if args.auto_press and not args.mock:
            print("companion: error: --auto-press needs --mock", file=sys.stderr)
            return EXIT_ERROR
        if args.timeout <= 0 or args.step < 0:
            print("companion: error: --timeout must be > 0 and --step >= 0", file=sys.stderr)
            return EXIT_ERROR
        cfg = load_config(args.config)
        factory = mock_pin_factory() if args.mock else None
        # no fallback here: a wiring check on pins that cannot be opened must say so and stop
        try:
            hardware = build_table_hardware(cfg.gpio, pin_factory=factory)
        except PinFactoryError as exc:
            print(f"companion: error: {exc}; off a Raspberry Pi, run the check on simulated "
                  "pins with --mock", file=sys.stderr)
            return EXIT_ERROR
        with hardware:
            on_prompt = None
            if args.auto_press:

                def on_prompt(name: str) -> None:
                    pin = hardware.buttons.button(name).pin

                    def press() -> None:
                        pin.drive_low()
                        pin.drive_high()

                    threading.Timer(0.05, press).start()

            report = run_wiring_check(
                hardware,
                out=sys.stdout,
                timeout_s=args.timeout,
                step_s=args.step,
                on_prompt=on_prompt,
                parts=[part for part in PARTS if part not in args.skip],
            )
        return 0 if report.ok else EXIT_ERROR
