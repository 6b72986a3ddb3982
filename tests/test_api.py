"""The Python API for programmers (issue 21): numpy integers wherever sizes, seeds and counts
are taken, mazes that pickle (Dask, multiprocessing), and public functions that name the
argument at fault."""

from __future__ import annotations

import multiprocessing
import pickle
from typing import Any

import numpy as np
import pytest

import laby3d
from laby3d.errors import ParameterError
from laby3d.maze.grid import interior_only

INTEGER_TYPES = [np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64, np.intp]


@pytest.mark.parametrize("kind", INTEGER_TYPES, ids=lambda kind: kind.__name__)
def test_numpy_integers_are_taken_as_the_numbers_they_hold(kind: Any) -> None:
    """np.int8 sizes crashed (rows·cols overflowed in int8); every call must give what the
    same Python integers give."""
    plain = laby3d.generate(9, 13, algorithm="growing_tree", seed=3)
    typed = laby3d.generate(kind(9), kind(13), algorithm="growing_tree", seed=kind(3))
    assert typed.to_json() == plain.to_json()
    assert type(typed.rows) is int and type(typed.seed) is int
    openings = {"entrance": plain.entrance, "exit": plain.exit}
    order = plain.carve_order.astype(np.int64)
    built = laby3d.Maze.from_cells(plain.grid.cells.astype(kind), carve_order=order, **openings)
    assert np.array_equal(built.grid.cells, plain.grid.cells)
    passages = laby3d.Maze.from_passages(laby3d.tessellate("square", kind(9), kind(13)), plain.carve_order)
    assert np.array_equal(passages.grid.cells, interior_only(plain.grid.cells))
    assert laby3d.distance_map(plain, (kind(2), kind(3)))[2, 3] == 0


@pytest.mark.parametrize("kind", [np.int8, np.int64, np.uint16], ids=lambda kind: kind.__name__)
def test_render_options_take_numpy_numbers(kind: Any) -> None:
    maze = laby3d.generate(4, 5, seed=2)
    assert laby3d.render(maze, "stl", wall_height=kind(5), cell_size=np.float32(8)) == laby3d.render(
        maze, "stl", wall_height=5, cell_size=8.0
    )
    assert laby3d.render(maze, "gif", every=kind(4)) == laby3d.render(maze, "gif", every=4)
    with pytest.raises(ParameterError) as error:
        laby3d.render(maze, "stl", nozzle=np.bool_(True))
    assert error.value.field == "nozzle"


def same(first: laby3d.Maze, second: laby3d.Maze) -> None:
    assert np.array_equal(first.grid.cells, second.grid.cells)
    assert (first.entrance, first.exit) == (second.entrance, second.exit)
    assert (first.algorithm, first.seed, dict(first.options)) == (second.algorithm, second.seed, dict(second.options))
    assert np.array_equal(first.carve_order, second.carve_order)
    assert first.to_json() == second.to_json()


@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_a_maze_pickles(protocol: int) -> None:
    maze = laby3d.generate(6, 7, algorithm="growing_tree", seed=5, policy="newest:0.25,random:0.75")
    back = pickle.loads(pickle.dumps(maze, protocol=protocol))
    same(back, maze)
    assert back.options["policy"] == "newest:0.25,random:0.75" and back.grid.cells.flags.writeable is False
    with pytest.raises(TypeError):
        back.options["x"] = 1  # type: ignore[index]
    plain = laby3d.Maze.from_cells([[2, 12], [2, 9]])
    same(pickle.loads(pickle.dumps(plain)), plain)


def solution_length(maze: laby3d.Maze) -> int:
    return len(maze.solution)


def test_a_maze_goes_to_worker_processes_and_back() -> None:
    mazes = [laby3d.generate(5, 5, seed=seed) for seed in range(3)]
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.map(solution_length, mazes) == [len(maze.solution) for maze in mazes]
        for back, maze in zip(pool.map(pickle.loads, [pickle.dumps(m) for m in mazes]), mazes, strict=True):
            same(back, maze)


NOT_A_MAZE = [None, "maze", 3, np.zeros((3, 3), dtype=np.uint8), {"rows": 3}]


@pytest.mark.parametrize("value", NOT_A_MAZE, ids=lambda value: type(value).__name__)
@pytest.mark.parametrize(
    "call",
    [
        laby3d.distance_map,
        laby3d.to_grid,
        laby3d.to_classroom,
        lambda maze: laby3d.render(maze, "png"),
    ],
    ids=["distance_map", "to_grid", "to_classroom", "render"],
)
def test_public_functions_refuse_what_is_not_a_maze_naming_it(call: Any, value: Any) -> None:
    with pytest.raises(ParameterError) as error:
        call(value)
    assert error.value.field == "maze" and "must be a laby3d.Maze" in str(error.value)


@pytest.mark.parametrize("start", ["a", (1, 2, 3), (3, 0), (0, -1), (0.5, 1), (True, 0), [0], 7])
def test_distance_map_refuses_a_start_outside_the_maze_naming_it(start: Any) -> None:
    maze = laby3d.generate(3, 4, seed=1)
    with pytest.raises(ParameterError) as error:
        laby3d.distance_map(maze, start)
    assert error.value.field == "start" and len(str(error.value)) < 200


def test_distance_map_from_a_cell_given_as_a_list_or_numpy_pair() -> None:
    maze = laby3d.generate(3, 4, seed=1)
    expected = laby3d.distance_map(maze, (1, 2))
    assert np.array_equal(laby3d.distance_map(maze, [1, 2]), expected)
    assert np.array_equal(laby3d.distance_map(maze, np.array([1, 2])), expected)
