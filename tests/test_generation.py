"""Every registered algorithm makes perfect, reproducible mazes (property tests)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mazecheck import assert_perfect, assert_solution

import laby3d
from laby3d.maze.algorithms import ALGORITHMS

sizes = st.tuples(st.integers(1, 30), st.integers(1, 30))
seeds = st.integers(0, 2**63 - 1)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=sizes, seed=seeds)
def test_every_algorithm_is_perfect_and_reproducible(algorithm: str, size: tuple[int, int], seed: int) -> None:
    rows, cols = size
    maze = laby3d.generate(rows, cols, algorithm=algorithm, seed=seed)
    assert (maze.rows, maze.cols, maze.seed) == (rows, cols, seed)
    assert_perfect(maze)
    assert_solution(maze)
    assert maze.passage_count == rows * cols - 1
    assert maze.closed_interior_walls == (rows - 1) * (cols - 1)
    text = maze.to_json()
    assert laby3d.Maze.from_json(text).to_json() == text
    again = laby3d.generate(rows, cols, algorithm=algorithm, seed=seed)
    assert np.array_equal(again.grid.cells, maze.grid.cells)
    assert np.array_equal(again.carve_order, maze.carve_order)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("size", [(1, 1), (1, 17), (17, 1), (2, 2)])
def test_thin_and_tiny_grids(algorithm: str, size: tuple[int, int]) -> None:
    maze = laby3d.generate(*size, algorithm=algorithm, seed=5)
    assert_perfect(maze)
    assert_solution(maze)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_python_and_compiled_kernels_agree(algorithm: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Small mazes run the kernels as Python, large ones compiled: both give the same maze."""
    mazes = []
    for mode in ("never", "always"):
        monkeypatch.setenv("LABY3D_JIT", mode)
        mazes.append(laby3d.generate(23, 31, algorithm=algorithm, seed=99))
    assert np.array_equal(mazes[0].grid.cells, mazes[1].grid.cells)
    assert np.array_equal(mazes[0].carve_order, mazes[1].carve_order)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_large_maze_is_perfect(algorithm: str) -> None:
    """Bugs of other libraries show up only at larger sizes (unreached cells, overflows)."""
    maze = laby3d.generate(150, 170, algorithm=algorithm, seed=1)
    assert maze.passage_count == 150 * 170 - 1
    assert (laby3d.distance_map(maze, (0, 0)) >= 0).all()


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_carve_order_is_the_maze(algorithm: str) -> None:
    """The recorded steps open exactly the maze's passages, each once."""
    maze = laby3d.generate(9, 14, algorithm=algorithm, seed=4)
    rebuilt = laby3d.Maze.from_passages(laby3d.tessellate("square", 9, 14), maze.carve_order)
    assert np.array_equal(rebuilt.grid.open_east, maze.grid.open_east)
    assert np.array_equal(rebuilt.grid.open_south, maze.grid.open_south)
    assert len({tuple(p) for p in maze.carve_order.tolist()}) == 9 * 14 - 1


def test_seed_is_drawn_and_recorded() -> None:
    maze = laby3d.generate(5, 5)
    assert isinstance(maze.seed, int)
    assert np.array_equal(laby3d.generate(5, 5, seed=maze.seed).grid.cells, maze.grid.cells)


def test_different_seeds_differ() -> None:
    assert not np.array_equal(laby3d.generate(12, 12, seed=1).grid.cells, laby3d.generate(12, 12, seed=2).grid.cells)


def test_generation_leaves_global_random_state_alone() -> None:
    import random  # noqa: TID251 - checks that global state stays untouched

    state = (random.getstate(), np.random.get_state()[1].copy())  # noqa: NPY002
    for algorithm in ALGORITHMS:
        laby3d.generate(6, 6, algorithm=algorithm, seed=3)
    assert random.getstate() == state[0]
    assert np.array_equal(np.random.get_state()[1], state[1])  # noqa: NPY002


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rows": 0, "cols": 3}, "rows must be an integer in 1..2000 for a square maze, got 0"),
        ({"rows": 3, "cols": 3, "algorithm": "nope"}, "algorithm must be one of"),
        ({"rows": 3, "cols": 3, "seed": -1}, "seed must be an integer in 0.."),
        ({"rows": 3, "cols": 3, "algorithm": "sidewinder", "bias": 1.5}, "bias must be in [0, 1]"),
        ({"rows": 3, "cols": 3, "algorithm": "kruskal", "bias": 0.5}, "bias is not an option of kruskal"),
        ({"rows": 3, "cols": 3, "algorithm": "growing_tree", "policy": "deepest"}, "policies among"),
        ({"rows": 3, "cols": 3, "placement": "middle"}, "placement must be one of"),
        (
            {"rows": 3, "cols": 3, "placement": "explicit", "entrance": "0,0,W", "exit": "1,1,E"},
            "cell (1, 1) is inside the maze",
        ),
        ({"rows": 3000, "cols": 3000}, "rows must be an integer in 1..2000 for a square maze, got 3000"),
    ],
)
def test_bad_parameters_name_the_field_and_range(kwargs: dict, message: str) -> None:
    with pytest.raises(laby3d.ParameterError, match=None) as error:
        laby3d.generate(**kwargs)
    assert message in str(error.value)
