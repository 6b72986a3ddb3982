"""The maze file of mazes that are not square (version 2, with a shape): the documented example,
byte-stable round trips, square files unchanged, and refusal of broken files with the place."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import laby3d
from laby3d.maze.mazefile import MAX_COMMAS, MAX_CONTAINERS, MAX_FILE_BYTES, maze_from_json, read_maze_file
from laby3d.maze.model import Maze
from laby3d.tessellation import MAX_SHAPED_CELLS, SHAPES

DOCS = Path(__file__).resolve().parent.parent / "docs"
#: The shaped example of docs/maze-file.md (its second JSON block).
DOC_EXAMPLE = (DOCS / "maze-file.md").read_text(encoding="utf-8").split("```json\n")[2].split("```")[0]


def test_reads_the_documented_example() -> None:
    maze = Maze.from_json(DOC_EXAMPLE)
    assert (maze.shape, maze.rows, maze.cols) == ("hex", 2, 3)
    assert json.loads(maze.to_json()) == json.loads(DOC_EXAMPLE)


@pytest.mark.parametrize("shape", [name for name in SHAPES if name != "square"])
def test_round_trip_is_byte_stable(shape: str, tmp_path: Path) -> None:
    for placement in ("corners", "hardest", "center"):
        maze = laby3d.generate(6, None if shape == "theta" else 7, shape=shape, seed=11, placement=placement)
        text = maze.to_json()
        path = tmp_path / "m.maze.json"
        path.write_text(text, encoding="utf-8")
        again = read_maze_file(path)
        assert isinstance(again, Maze)
        assert again.to_json() == text
        assert (again.entrance, again.exit, again.algorithm, again.seed) == (
            maze.entrance,
            maze.exit,
            maze.algorithm,
            maze.seed,
        )


def test_square_files_are_version_one_and_read_as_before() -> None:
    maze = laby3d.generate(4, 5, seed=3)
    text = maze.to_json()
    assert json.loads(text)["version"] == 1 and "shape" not in json.loads(text)
    assert isinstance(maze_from_json(text), laby3d.Maze)
    assert Maze.from_json(text).to_json() == text


def test_one_reader_reads_every_version() -> None:
    theta = laby3d.generate(3, shape="theta", seed=1)
    assert laby3d.Maze.from_json(theta.to_json()).shape == "theta"
    square = laby3d.generate(3, 4, seed=1)
    data = json.loads(square.to_json())
    assert data["version"] == 1  # a square maze is still written as version 1 ...
    as_passages = {**{key: data[key] for key in ("format", "rows", "cols", "algorithm", "seed")}, "version": 2}
    as_passages |= {"shape": "square", "passages": square.passages.tolist(), "entrance": data["entrance"]}
    as_passages |= {"exit": data["exit"]}
    assert laby3d.Maze.from_json(json.dumps(as_passages)).to_json() == square.to_json()  # ... and read as 2 too


def example() -> dict:
    return json.loads(DOC_EXAMPLE)


def edited(change) -> str:
    data = example()
    change(data)
    return json.dumps(data)


def theta_file(change) -> str:
    data = json.loads(laby3d.generate(3, shape="theta", seed=5, algorithm="wilson").to_json())
    change(data)
    return json.dumps(data)


def passages(value):
    def change(data: dict) -> None:
        data["passages"] = value
        data.pop("solution")

    return change


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (edited(lambda d: d.update(version=1)), "a maze file with a shape is version 2, got version 1"),
        (edited(lambda d: d.update(version=True)), "version 1 or 2, got 'laby3d.maze' version True"),
        (edited(lambda d: d.update(shape="pentagon")), "shape must be one of square, theta, hex, triangle"),
        (edited(lambda d: d.update(cells=[])), "cells must be at least two cell indices of the board"),
        (edited(lambda d: d.pop("passages")), "missing key 'passages'"),
        (edited(lambda d: d.pop("cols")), "missing key 'cols' (a hex maze has rows and cols)"),
        (theta_file(lambda d: d.update(cols=3)), "cols must be left out: a theta maze has rows (its rings) only"),
        (theta_file(lambda d: d.update(rows=1)), "rows must be an integer in 2..950 for a theta maze"),
        (edited(lambda d: d.update(rows=2.0)), "rows must be an integer, got 2.0"),
        (edited(lambda d: d.update(algorithm="eller")), "eller works on the square grid only, not on hex mazes"),
        (edited(lambda d: d.update(algorithm="magic")), "algorithm must be one of kruskal"),
        (edited(lambda d: d.update(options={"bias": 0.5})), "not an option of wilson"),
        (edited(passages({})), "passages must be a list of [a, b] cell-index pairs"),
        (edited(passages([[0, 1], [1, 0]])), "passages[1] must be a pair [a, b] of cell indices 0..5 with a < b"),
        (edited(passages([[0, 1], [1, 2, 3]])), "passages[1] must be a pair"),
        (edited(passages([[0, 1], [1, 6]])), "passages[1] must be a pair [a, b] of cell indices 0..5"),
        (edited(passages([[0, True]])), "passages[0] must be a pair"),
        (edited(passages([[0, 1], [0, 1]])), "passages[1] [0, 1] must come after passages[0] [0, 1]"),
        (edited(passages([[1, 2], [0, 1]])), "passages[1] [0, 1] must come after passages[0] [1, 2]"),
        (edited(passages([[0, 1], [0, 5]])), "passages[1] joins cells 0 (0, 0) and 5 (1, 2), which are not neighbours"),
        (edited(passages([[0, 1], [0, 3]])), "(0, 0) (2 passages, a spanning tree of 6 cells has 5)"),
        (
            edited(passages([[0, 1], [0, 3], [1, 3], [1, 4], [2, 4], [2, 5]])),
            "6 passages, a spanning tree of 6 cells has 5, so the passages contain a loop",
        ),
        (
            edited(passages([[0, 1], [0, 3], [1, 3], [1, 4], [3, 4]])),
            "not a perfect maze: cell 2 (0, 2) cannot be reached from cell 0 (0, 0)",
        ),
        (
            edited(lambda d: d.update(entrance={"row": 0, "col": 1, "side": "W"})),
            "entrance.side of cell (0, 1) must be a boundary side or null (its boundary sides: NW, NE)",
        ),
        (edited(lambda d: d.update(entrance={"row": 1, "col": 1, "side": "S"})), "its boundary sides: SE, SW"),
        (edited(lambda d: d.update(exit={"row": 2, "col": 0, "side": "W"})), "exit cell (2, 0) is not in the maze"),
        (edited(lambda d: d.update(exit={"row": 0, "col": 0})), "exit must be an object with row, col and side"),
        (edited(lambda d: d.update(exit=d["entrance"])), "entrance and exit must differ"),
        (edited(lambda d: d.update(solution=[[0, 0]])), "solution is not the path from the entrance to the exit"),
        (
            theta_file(lambda d: d.update(exit={"row": 1, "col": 0, "side": "out"})),
            "exit.side of cell (1, 0) must be a boundary side or null (the cell is inside the maze)",
        ),
    ],
)
def test_bad_files_are_refused_with_the_place(text: str, message: str) -> None:
    with pytest.raises(laby3d.MazeFileError) as error:
        maze_from_json(text)
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_the_largest_shaped_file_fits_the_file_limits() -> None:
    """Counted on a real file (a solution through many cells), per cell, then for the most cells."""
    maze = laby3d.generate(40, 50, shape="hex", seed=2, algorithm="backtracker", placement="hardest")
    text = maze.to_json()
    containers = commas = 0

    def walk(value) -> None:
        nonlocal containers, commas
        if isinstance(value, (list, dict)):
            containers += 1
            commas += max(len(value) - 1, 0)
            for item in value.values() if isinstance(value, dict) else value:
                walk(item)

    walk(json.loads(text))
    cells, solution = maze.cell_count, len(maze.solution)
    assert containers <= cells + solution + 8
    assert commas <= 2 * cells + 2 * solution + 40
    # at the most cells, with a solution through every one and seven-digit cell indices
    assert 2 * MAX_SHAPED_CELLS + 8 <= MAX_CONTAINERS
    assert 4 * MAX_SHAPED_CELLS + 40 <= MAX_COMMAS
    longest_pair, longest_step = len("[1999998, 1999999], "), len("[1999, 1999], ")
    assert MAX_SHAPED_CELLS * (longest_pair + longest_step) + 2000 * 10 + 1000 <= MAX_FILE_BYTES


def test_same_seed_same_bytes_in_another_interpreter() -> None:
    """Another process, hash seed and locale: the same maze file bytes for every shape and algorithm."""
    script = (
        "import hashlib, laby3d\n"
        "from laby3d.maze.algorithms import GRAPH_ALGORITHMS\n"
        "for shape, rows, cols in (('theta', 6, None), ('hex', 5, 6), ('triangle', 5, 6)):\n"
        "    for algorithm in GRAPH_ALGORITHMS:\n"
        "        maze = laby3d.generate(rows, cols, shape=shape, algorithm=algorithm, seed=77, placement='hardest')\n"
        "        print(hashlib.sha256(maze.to_json().encode()).hexdigest())\n"
    )
    here = io.StringIO()
    with contextlib.redirect_stdout(here):
        exec(script, {})  # the same script in this process
    env = {**os.environ, "PYTHONHASHSEED": "4242", "LC_ALL": "C", "LANG": "C"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    assert done.stdout == here.getvalue() and len(done.stdout.split()) == 21
