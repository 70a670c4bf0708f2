"""The readers' libraries on one thread each: OpenCV's pool and the BLAS's.

A read runs on one worker thread. Left to themselves, OpenCV and OpenBLAS start a pool of
threads each (one per core): OpenBLAS shares a matrix product past its threshold among its
threads, which then spin waiting for the next one, and OpenCV hands some loops to its pool.
On a machine with idle cores that spinning is CPU taken from the Kivy main thread and the
camera (the pools are not niced as the read's worker is: OpenBLAS starts its threads when
numpy is imported, on the main thread), and it is charged to the read: the same Indigo read
took 68 ms of CPU with one BLAS thread and 90 to 127 ms with its default ones
(bench/figures/indigo_speed_s22.txt; bench/figures/speed_s23.txt for the app).

OpenBLAS reads its thread count once, when numpy loads it: :func:`hold_to_one_thread` must
run before the first ``import numpy`` of the process to hold the BLAS too.
"""

from __future__ import annotations

import os
import sys

#: the variables OpenBLAS (pthreads or OpenMP builds) and MKL read for their thread count
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
#: the variable OpenCV reads, when it is imported, for the size of its pool
OPENCV_THREAD_VARIABLE = "OPENCV_FOR_THREADS_NUM"


def hold_to_one_thread() -> bool:
    """Run OpenCV and the BLAS on one thread in this process; True when the BLAS is held
    too (numpy was not loaded yet). A count set in the environment already (a service's
    ``Environment=``) is left as it is."""
    for name in BLAS_THREAD_VARIABLES:
        os.environ.setdefault(name, "1")
    # OpenCV reads it when it loads: the app's start need not import cv2 (150 ms here) for it
    os.environ[OPENCV_THREAD_VARIABLE] = "1"
    if "cv2" in sys.modules:  # loaded already: its pool is set by the call
        sys.modules["cv2"].setNumThreads(1)
    return "numpy" not in sys.modules
