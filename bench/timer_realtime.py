"""Real-time sand-timer countdown on mock pins: how exact and how smooth is it?

Runs a 10 s countdown through the same path as the app (SandTimer on the monotonic clock,
HardwareLoop at 200 Hz rendering into TableHardware on MockPWMPin pins) and prints:

* end error: when the end alarm actually started against the wall clock's start + 10 s
  (aim <= 20 ms);
* the p99 gap between light-bar updates while the sand runs (aim <= 10 ms);
* the CPU share of the process during the countdown.

    .venv/bin/python bench/timer_realtime.py [--seconds 10] [--period 0.005]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.timer import SandTimer, TimerSettings  # noqa: E402
from config.schema import GpioConfig  # noqa: E402
from hardware.light_bar import BarFrame  # noqa: E402
from hardware.pins import mock_pin_factory  # noqa: E402
from hardware.table import HardwareLoop, build_table_hardware  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--period", type=float, default=0.005, help="render period (s)")
    args = parser.parse_args()

    hardware = build_table_hardware(GpioConfig(), pin_factory=mock_pin_factory())
    timer = SandTimer(TimerSettings(duration_s=args.seconds))
    updates: list[float] = []
    alarm_at: list[float] = []
    show = hardware.light_bar.show
    play = hardware.buzzer.play

    def timed_show(frame: BarFrame) -> None:
        show(frame)
        updates.append(time.perf_counter())

    def timed_play(name: str, now: float) -> bool:
        if name == "alarm":
            alarm_at.append(time.time())
        return play(name, now)

    hardware.light_bar.show = timed_show  # type: ignore[method-assign]
    hardware.buzzer.play = timed_play  # type: ignore[method-assign]

    with hardware, HardwareLoop(timer, hardware, period_s=args.period) as loop:
        cpu0, wall0 = time.process_time(), time.perf_counter()
        start_wall = time.time()
        timer.start()
        start_perf = time.perf_counter()
        while not alarm_at and time.perf_counter() - start_perf < args.seconds + 2.0:
            time.sleep(0.05)
        cpu1, wall1 = time.process_time(), time.perf_counter()
        end_perf = start_perf + args.seconds
        if loop.error is not None:
            print(f"the hardware loop failed: {loop.error!r}")
            return 1

    if not alarm_at:
        print("the alarm never sounded")
        return 1
    end_error_ms = (alarm_at[0] - start_wall - args.seconds) * 1000.0
    running = [t for t in updates if start_perf <= t <= end_perf]
    gaps_ms = [(b - a) * 1000.0 for a, b in zip(running, running[1:], strict=False)]
    cpu_share = (cpu1 - cpu0) / (wall1 - wall0)
    p99 = percentile(gaps_ms, 99)
    print(f"countdown           {args.seconds:g} s, render period {args.period * 1000:g} ms")
    print(
        f"end error           {end_error_ms:+.2f} ms vs wall clock (aim <= 20 ms)"
        f"{'' if abs(end_error_ms) <= 20 else '  MISSED'}"
    )
    print(f"light-bar updates   {len(running)} ({len(running) / args.seconds:.0f} per s)")
    print(
        f"update gap          median {statistics.median(gaps_ms):.2f} ms, "
        f"p99 {p99:.2f} ms, max {max(gaps_ms):.2f} ms (aim p99 <= 10 ms)"
        f"{'' if p99 <= 10 else '  MISSED'}"
    )
    print(f"CPU share           {cpu_share * 100:.1f} % of one core (whole process)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
