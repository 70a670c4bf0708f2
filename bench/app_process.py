"""Running the real app for a bench: in a child process of its own, under Xvfb when there is
no display, with the demo's mock pins and a fresh Kivy home."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator

CHILD_FLAG = "BENCH_APP_CHILD"


def rss_mb() -> float:
    """This process's resident size now, in MB."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


#: the libraries of a software OpenGL (Mesa's llvmpipe under Xvfb), which a Pi's GPU driver
#: does not load: tens of MB of this machine's RSS that a Pi does not have
SOFTWARE_GL = ("libLLVM", "swrast_dri", "kms_swrast_dri")


def rss_by_mapping() -> Iterator[tuple[str, int]]:
    """Each mapping of this process (its path, "" for an anonymous one) with its resident
    size in KiB, from ``/proc/self/smaps``."""
    path = ""
    with open("/proc/self/smaps", encoding="utf-8", errors="replace") as smaps:
        for line in smaps:
            fields = line.split()
            if fields and "-" in fields[0] and len(fields) >= 5:
                path = fields[5] if len(fields) > 5 else ""
            elif fields[:1] == ["Rss:"]:
                yield path, int(fields[1])


def software_gl_mb() -> float:
    """The resident size of this process's software OpenGL libraries, in MB."""
    return sum(kib for path, kib in rss_by_mapping()
               if any(name in path for name in SOFTWARE_GL)) / 1024


def is_child() -> bool:
    return bool(os.environ.get(CHILD_FLAG))


def run_in_child(script: str, args: list[str]) -> int:
    """Run ``script`` again as the app's child process (under Xvfb without a display)."""
    env = dict(os.environ, **{CHILD_FLAG: "1"})
    command = [sys.executable, os.path.abspath(script), *args]
    if not os.environ.get("DISPLAY"):
        command = ["xvfb-run", "-a", "-s", "-screen 0 1280x1280x24", *command]
    return subprocess.call(command, env=env)


def prepare_child() -> str:
    """Environment of a demo app in this process; returns its fresh home folder."""
    home = tempfile.mkdtemp(prefix="bench-app-")
    os.environ.update(KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_HOME=home,
                      GPIOZERO_PIN_FACTORY="mock")
    return home
