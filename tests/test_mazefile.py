"""The maze file: exact format, round trips, and rejection of bad files with precise messages."""

from __future__ import annotations

import json

import numpy as np
import pytest

import laby3d
from laby3d.maze.convert import from_classroom, from_grid, to_classroom, to_grid

SPEC_EXAMPLE = """{
  "format": "laby3d.maze", "version": 1,
  "rows": 2, "cols": 3,
  "algorithm": "wilson", "seed": 42,
  "cells": [[14, 10, 12],
            [3, 8, 3]],
  "entrance": {"row": 0, "col": 0, "side": "W"},
  "exit": {"row": 1, "col": 2, "side": "E"},
  "solution": [[0, 0], [0, 1], [0, 2], [1, 2]]
}"""


def test_reads_the_spec_example() -> None:
    maze = laby3d.Maze.from_json(SPEC_EXAMPLE)
    assert maze.solution == ((0, 0), (0, 1), (0, 2), (1, 2))
    assert json.loads(maze.to_json()) == json.loads(SPEC_EXAMPLE)


def edited(change) -> str:
    data = json.loads(SPEC_EXAMPLE)
    change(data)
    return json.dumps(data)


def set_cell(r: int, c: int, value: int):
    def change(data: dict) -> None:
        data["cells"][r][c] = value

    return change


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        (edited(lambda d: d.update(format="other")), "format must be 'laby3d.maze'"),
        (edited(lambda d: d.update(rows=3)), "cells must be a list of 3 rows"),
        (edited(lambda d: d["cells"][0].append(0)), "cells row 0 must be a list of 3 integers"),
        (edited(set_cell(0, 1, 16)), "cell (0, 1) must be an integer 0..15"),
        (edited(set_cell(0, 1, 8)), "cell (0, 1) side E and cell (0, 2) side W is open on one side only"),
        (edited(set_cell(0, 1, 14)), "cell (0, 1) side S and cell (1, 1) side N is open on one side only"),
        (edited(set_cell(1, 0, 7)), "border of cell (1, 0) side S is open but is neither entrance nor exit"),
        (edited(lambda d: d.update(entrance={"row": 0, "col": 1, "side": "W"})), "entrance cell (0, 1) side W"),
        (edited(lambda d: d.update(solution=[[0, 0]])), "solution is not the path"),
        (edited(lambda d: d.update(colour="red")), "unknown key 'colour'"),
    ],
)
def test_bad_files_are_rejected_with_the_place(text: str, message: str) -> None:
    with pytest.raises(laby3d.MazeFileError) as error:
        laby3d.Maze.from_json(text)
    assert message in str(error.value)


def test_loop_is_rejected() -> None:
    def add_loop(data: dict) -> None:
        data["cells"] = [[14, 14, 12], [3, 9, 3]]  # (0,1)-(1,1) opened: a cycle

    with pytest.raises(laby3d.MazeFileError, match="contain a loop"):
        laby3d.Maze.from_json(edited(add_loop))


def test_disconnected_cell_is_rejected() -> None:
    def cut(data: dict) -> None:
        data["cells"] = [[14, 10, 12], [1, 0, 3]]  # (1,1) closed off, (1,0) lost its E

    with pytest.raises(laby3d.MazeFileError) as error:
        laby3d.Maze.from_json(edited(cut))
    assert "cannot be reached" in str(error.value)


def test_classroom_round_trip_and_ouest_alias() -> None:
    maze = laby3d.generate(6, 7, algorithm="prim", seed=3)
    rows = to_classroom(maze)
    back = from_classroom(rows)
    assert np.array_equal(back.open_east, maze.open_east) and np.array_equal(back.open_south, maze.open_south)
    french = [[{("O" if k == "W" else k): v for k, v in cell.items()} for cell in row] for row in rows]
    assert np.array_equal(from_classroom(french).open_east, maze.open_east)


def test_grid_round_trip() -> None:
    maze = laby3d.generate(5, 9, algorithm="eller", seed=8)
    grid = to_grid(maze)
    assert grid.shape == (11, 19)
    assert grid[1, 0] == 0 and grid[9, 18] == 0  # entrance W of (0,0), exit E of (4,8)
    assert grid[::2, ::2].all()  # every lattice point is a wall
    back = from_grid(grid)
    assert np.array_equal(back.open_east, maze.open_east) and np.array_equal(back.open_south, maze.open_south)


def test_grid_with_a_loop_is_rejected() -> None:
    grid = np.ones((5, 5), dtype=np.uint8)
    grid[1:4, 1:4] = 0
    with pytest.raises(laby3d.MazeFileError, match="loop"):
        from_grid(grid)
