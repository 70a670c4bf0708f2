"""The app sets glibc's malloc so that camera frames are given back when dropped."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

#: frames of 3 MB, each followed by a small block that lives on (a reading, a label's text)
SCRIPT = textwrap.dedent("""
    import sys
    from ui.memory import limit_heap_growth
    if sys.argv[1] == "limited" and not limit_heap_growth():
        print("no-glibc")
        raise SystemExit
    first = bytearray(3 * 1024 * 1024)
    del first
    frames, kept = [], []
    for _ in range(40):
        frames.append(bytearray(3 * 1024 * 1024))
        kept.append(bytearray(1000))
    del frames
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            print(int(line.split()[1]) // 1024)
""")


def test_dropped_frames_are_given_back_to_the_system() -> None:
    # with glibc's defaults the first freed frame raises the mmap threshold, later frames
    # come from the heap between blocks that live on, and the heap cannot shrink after them
    sizes = {}
    for mode in ("defaults", "limited"):
        out = subprocess.run([sys.executable, "-c", SCRIPT, mode], capture_output=True,
                             text=True, check=True).stdout.strip()
        if out == "no-glibc":
            pytest.skip("not a glibc system")
        sizes[mode] = int(out)
    assert sizes["limited"] < sizes["defaults"] - 80, sizes
