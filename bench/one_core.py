"""Read times on one core: the bench's process runs OpenCV and the BLAS on one thread.

The aims ("a read in 40 ms on one core here") are CPU times of one core. A reader's own
threads spoil that figure: OpenBLAS shares a product past its threshold among its threads,
which then spin waiting for the next one, and OpenCV runs some loops on a pool of its own;
on an idle machine their CPU is charged to the read (bench/figures/indigo_speed_s22.txt:
the same Indigo read 68 ms CPU with one BLAS thread, 90 to 127 ms with its default ones).

OpenBLAS reads its thread count once, when numpy loads it, so the variables must be set before
numpy is imported. A bench calls :func:`on_one_core` first thing in ``main()``; when numpy was
already imported without them (the bench's own imports), the process is started again with
the same command line and the variables set, so that no import order can undo it. The app
holds its readers to one thread too (:mod:`vision.threads`).
"""

from __future__ import annotations

import os
import sys

from vision.threads import BLAS_THREAD_VARIABLES

#: the line each timing bench prints first
ONE_THREAD_LINE = "one thread: OpenCV 1, BLAS 1"


def on_one_core() -> str:
    """Hold OpenCV and the BLAS to one thread in this process, print and return the line that
    says so. Call it before the first read is timed; it may restart the process (see above)."""
    if any(os.environ.get(name) != "1" for name in BLAS_THREAD_VARIABLES):
        for name in BLAS_THREAD_VARIABLES:
            os.environ[name] = "1"
        if "numpy" in sys.modules:  # too late for this process's BLAS: start it again
            sys.stdout.flush()
            sys.stderr.flush()
            os.execv(sys.executable, sys.orig_argv)
    import cv2

    cv2.setNumThreads(1)
    if cv2.getNumThreads() != 1:
        raise RuntimeError(f"OpenCV kept {cv2.getNumThreads()} threads after setNumThreads(1)")
    print(ONE_THREAD_LINE, flush=True)
    return ONE_THREAD_LINE
