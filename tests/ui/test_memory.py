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


#: small blocks (from the heap, not mappings of their own), one in KEEP_EVERY living on
TRIM_SCRIPT = textwrap.dedent("""
    import sys
    from ui.memory import give_back_free_heap, limit_heap_growth
    limit_heap_growth()
    def rss():
        for line in open("/proc/self/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    blocks = [bytearray(4000) for _ in range(30000)]
    kept = blocks[::64]
    del blocks
    before = rss()
    print(before, rss() if give_back_free_heap() else "no-glibc")
""")


def rss_before_and_after(script: str) -> tuple[int, int]:
    """The two resident sizes (MB) ``script`` prints; skips the test without glibc."""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout.split()
    if "no-glibc" in out:
        pytest.skip("not a glibc system")
    return int(out[0]), int(out[1])


def test_free_heap_pages_are_given_back() -> None:
    # 120 MB of small blocks freed between blocks that live on: glibc keeps the pages until
    # the heap is trimmed
    before, after = rss_before_and_after(TRIM_SCRIPT)
    assert after < before - 80, (before, after)


#: blocks of 64 KiB (a texture of 200x100 pixels in a software OpenGL is 80 KB), each followed
#: by a small block that lives on, then the large ones dropped
MID_SCRIPT = textwrap.dedent("""
    from ui.memory import limit_heap_growth
    if not limit_heap_growth():
        print("no-glibc")
        raise SystemExit
    def rss():
        for line in open("/proc/self/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    filled = bytes(range(256)) * 256
    blocks, kept = [], []
    for _ in range(1000):
        blocks.append(filled[:-1] + b"!")
        kept.append(bytearray(1000))
    before = rss()
    del blocks
    print(before, rss())
""")


def test_dropped_mid_sized_blocks_are_given_back_without_a_trim() -> None:
    # below glibc's 128 KiB threshold they came from the heap, between blocks that live on:
    # free heap that stayed resident until a trim, and part of it even then
    before, after = rss_before_and_after(MID_SCRIPT)
    assert after < before - 50, (before, after)


def test_without_glibc_the_heap_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # musl (Alpine) and other C libraries have neither mallopt nor malloc_trim
    from ui import memory

    monkeypatch.setattr(memory, "_libc", lambda: None)
    assert memory.limit_heap_growth() is False
    assert memory.give_back_free_heap() is False
