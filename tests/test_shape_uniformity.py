"""Wilson and Aldous–Broder on the cell graph of every shape are uniform over its spanning trees:
on a small tessellation of each shape, every spanning tree turns up and a χ² test accepts equal
frequencies. The number of spanning trees comes from Kirchhoff's matrix-tree theorem on the
neighbours read from the cell polygons (not from the generators' edge list)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from mazecheck import polygon_neighbours
from scipy.stats import chisquare

from laby3d.maze.algorithms import ALGORITHMS, carver_for
from laby3d.tessellation import SHAPES, tessellate

#: A small tessellation of each shape, with 150–400 spanning trees.
SMALL = {"square": (3, 3), "theta": (2, None), "hex": (2, 4), "triangle": (3, 5)}


def spanning_trees(tessellation) -> int:
    """Kirchhoff: any cofactor of the graph Laplacian."""
    n = tessellation.cell_count
    laplacian = np.zeros((n, n))
    for a, b in polygon_neighbours(tessellation):
        laplacian[[a, b], [a, b]] += 1
        laplacian[a, b] = laplacian[b, a] = -1
    return round(np.linalg.det(laplacian[1:, 1:]))


def tally(algorithm: str, shape: str, samples: int) -> Counter:
    tessellation = tessellate(shape, *SMALL[shape])
    carve = carver_for(algorithm, tessellation)
    options = ALGORITHMS[algorithm].resolve_options({})
    rng = np.random.default_rng(20261201)
    neighbours = polygon_neighbours(tessellation)
    counts: Counter = Counter()
    for _ in range(samples):
        tree = frozenset(tuple(sorted(pair)) for pair in carve(tessellation, rng, options).passages.tolist())
        assert tree <= neighbours and len(tree) == tessellation.cell_count - 1
        counts[tree] += 1
    return counts


def test_every_shape_has_a_small_case() -> None:
    assert set(SMALL) == set(SHAPES)
    assert spanning_trees(tessellate("theta", 2)) == 320  # the wheel W6: Lucas(12) − 2
    assert spanning_trees(tessellate("square", 3, 3)) == 192


@pytest.mark.slow
@pytest.mark.parametrize("shape", SMALL)
@pytest.mark.parametrize("algorithm", ["wilson", "aldous_broder"])
def test_uniform_algorithms_pass_chi_square(algorithm: str, shape: str) -> None:
    trees = spanning_trees(tessellate(shape, *SMALL[shape]))
    assert 150 <= trees <= 400
    counts = tally(algorithm, shape, 60 * trees)
    assert len(counts) == trees
    assert chisquare(list(counts.values())).pvalue > 0.001


@pytest.mark.parametrize("shape", SMALL)
def test_wilson_reaches_every_spanning_tree(shape: str) -> None:
    trees = spanning_trees(tessellate(shape, *SMALL[shape]))
    assert len(tally("wilson", shape, 12 * trees)) == trees


@pytest.mark.slow
@pytest.mark.parametrize("shape", ["theta", "hex"])
@pytest.mark.parametrize("algorithm", ["backtracker", "prim"])
def test_biased_algorithms_fail_chi_square(algorithm: str, shape: str) -> None:
    trees = spanning_trees(tessellate(shape, *SMALL[shape]))
    counts = tally(algorithm, shape, 60 * trees)
    uniform = tally("wilson", shape, 60 * trees)
    assert chisquare([counts.get(key, 0) for key in uniform]).pvalue < 1e-6
