"""Wilson and Aldous–Broder are uniform over the 192 perfect mazes of a 3×3 grid; biased ones are not."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from scipy.stats import chisquare

from laby3d.maze.algorithms import ALGORITHMS, carver_for
from laby3d.tessellation import tessellate

SPANNING_TREES = {(2, 2): 4, (2, 3): 15, (3, 3): 192}


def tally(algorithm: str, rows: int, cols: int, samples: int) -> Counter:
    spec = ALGORITHMS[algorithm]
    options = spec.resolve_options({})
    carve = carver_for(algorithm, tessellate("square", rows, cols))
    grid = tessellate("square", rows, cols)
    rng = np.random.default_rng(20261130)
    counts: Counter = Counter()
    for _ in range(samples):
        passages = np.sort(carve(grid, rng, options).passages, axis=1)
        counts[frozenset(map(tuple, passages.tolist()))] += 1
    return counts


@pytest.mark.parametrize("algorithm", ["wilson", "aldous_broder"])
def test_uniform_algorithms_pass_chi_square(algorithm: str) -> None:
    counts = tally(algorithm, 3, 3, 192 * 60)
    assert len(counts) == 192
    result = chisquare(list(counts.values()))
    assert result.pvalue > 0.001, result


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
@pytest.mark.parametrize(("rows", "cols"), list(SPANNING_TREES))
def test_wilson_reaches_every_spanning_tree(rows: int, cols: int) -> None:
    assert len(tally("wilson", rows, cols, 400 * SPANNING_TREES[rows, cols])) == SPANNING_TREES[rows, cols]


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
@pytest.mark.parametrize("algorithm", ["binary_tree", "sidewinder", "backtracker", "prim"])
def test_biased_algorithms_fail_chi_square(algorithm: str) -> None:
    """The same table shows the bias: a subset of the mazes, or far from equal frequencies."""
    counts = tally(algorithm, 3, 3, 192 * 60)
    frequencies = [counts.get(key, 0) for key in tally("wilson", 3, 3, 192 * 60)]
    assert chisquare(frequencies).pvalue < 1e-6


def test_binary_tree_reaches_only_sixteen_mazes() -> None:
    """Four free cells with two choices each: 2**4 of the 192 mazes."""
    assert len(tally("binary_tree", 3, 3, 2000)) == 16
