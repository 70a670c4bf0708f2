"""The Indigo reader's faster paths (issue 20, read time) give what the plain ones give, on
seeded arrays and boards: speed is measured by bench/, only the results are held here."""

from __future__ import annotations

import numpy as np
import pytest

from vision.indigo.tiles import BLAS_ONE_THREAD_WORK, one_thread_product


@pytest.mark.parametrize("rows", [1, 5, 10, 11, 54, 61])
def test_a_product_a_few_rows_at_a_time_is_the_whole_product(rows: int) -> None:
    rng = np.random.default_rng(rows)
    left = rng.normal(size=(rows, 509)).astype(np.float32)
    right = rng.normal(size=(509, 48)).astype(np.float32)
    got = one_thread_product(left, right)
    assert got.shape == (rows, 48)
    # the BLAS may add in another order for fewer rows: the same sums to float32's precision
    np.testing.assert_allclose(got, left @ right, rtol=1e-5, atol=1e-3)


def test_each_part_of_a_product_is_small_enough_for_one_thread() -> None:
    rng = np.random.default_rng(3)
    right = rng.normal(size=(509, 48)).astype(np.float32)
    seen: list[int] = []

    class Rows(np.ndarray):
        """Records the rows of each part multiplied."""

        def __matmul__(self, other: np.ndarray) -> np.ndarray:
            seen.append(len(self))
            return np.asarray(self) @ other

    left = rng.normal(size=(54, 509)).astype(np.float32).view(Rows)
    one_thread_product(left, right)
    assert sum(seen) == 54
    assert max(seen) * 509 * 48 <= BLAS_ONE_THREAD_WORK
