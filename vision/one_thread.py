"""Matrix products cut small enough for the BLAS to work them on the calling thread.

A read runs on one worker thread (:mod:`vision.threads`); a product past OpenBLAS's threshold
would be shared among its threads, which then spin waiting for the next one.
"""

from __future__ import annotations

import numpy as np

#: OpenBLAS shares a matrix product among its threads once it takes more than this many
#: multiply-adds (65536 times its GEMM_MULTITHREAD_THRESHOLD, 4), and the threads then spin
#: waiting for the next one: the 54 route cells against every turned template (1.3 million)
#: cost a read 20-30 ms of CPU here, and the product itself 0.3 ms on one thread
BLAS_ONE_THREAD_WORK = 65536 * 4


def one_thread_product(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """``left @ right`` (2-D), a few rows of ``left`` at a time, each product small enough
    for the BLAS to work it on the calling thread (:data:`BLAS_ONE_THREAD_WORK`)."""
    rows = max(1, BLAS_ONE_THREAD_WORK // max(1, right.shape[0] * right.shape[1]))
    if len(left) <= rows:
        product: np.ndarray = left @ right
        return product
    return np.concatenate([left[i : i + rows] @ right for i in range(0, len(left), rows)])
