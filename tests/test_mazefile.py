"""The maze file: exact format, round trips, and rejection of bad files with precise messages."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import laby3d
from laby3d.maze.convert import from_classroom, from_grid, to_classroom, to_grid

DOCS = Path(__file__).resolve().parent.parent / "docs"
#: The example of docs/maze-file.md, so the documented format is the tested one.
OPENINGS = {"entrance": laby3d.Opening(0, 0, "W"), "exit": laby3d.Opening(1, 2, "E")}
DOC_EXAMPLE = (DOCS / "maze-file.md").read_text(encoding="utf-8").split("```json\n")[1].split("```")[0]


def test_reads_the_documented_example() -> None:
    maze = laby3d.Maze.from_json(DOC_EXAMPLE)
    assert maze.solution == ((0, 0), (0, 1), (0, 2), (1, 2))
    assert json.loads(maze.to_json()) == json.loads(DOC_EXAMPLE)


def edited(change) -> str:
    data = json.loads(DOC_EXAMPLE)
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
    assert np.array_equal(back.grid.open_east, maze.grid.open_east) and np.array_equal(
        back.grid.open_south, maze.grid.open_south
    )
    french = [[{("O" if k == "W" else k): v for k, v in cell.items()} for cell in row] for row in rows]
    assert np.array_equal(from_classroom(french).grid.open_east, maze.grid.open_east)


def test_grid_round_trip() -> None:
    maze = laby3d.generate(5, 9, algorithm="eller", seed=8)
    grid = to_grid(maze)
    assert grid.shape == (11, 19)
    assert grid[1, 0] == 0 and grid[9, 18] == 0  # entrance W of (0,0), exit E of (4,8)
    assert grid[::2, ::2].all()  # every lattice point is a wall
    back = from_grid(grid)
    assert np.array_equal(back.grid.open_east, maze.grid.open_east) and np.array_equal(
        back.grid.open_south, maze.grid.open_south
    )


def test_grid_with_a_loop_is_rejected() -> None:
    grid = np.ones((5, 5), dtype=np.uint8)
    grid[1:4, 1:4] = 0
    with pytest.raises(laby3d.MazeFileError, match="loop"):
        from_grid(grid)


def test_maze_cannot_change_after_construction() -> None:
    cells = np.array(json.loads(DOC_EXAMPLE)["cells"], dtype=np.uint8)
    maze = laby3d.Maze.from_cells(cells, algorithm="wilson", options={"bias": 0.5}, **OPENINGS)
    cells[0, 0] = 0  # the maze holds its own copy
    assert maze.grid.cells[0, 0] == 14
    with pytest.raises(ValueError, match="read-only"):
        maze.grid.cells[0, 0] = 0
    with pytest.raises(TypeError):
        maze.options["bias"] = 1.0  # type: ignore[index]
    assert isinstance(maze.solution, tuple) and all(isinstance(cell, tuple) for cell in maze.solution)
    generated = laby3d.generate(4, 4, seed=2)
    assert generated.carve_order is not None
    with pytest.raises(ValueError, match="read-only"):
        generated.carve_order[0, 0] = 1


SQUARE = laby3d.tessellate("square", 2, 3)
WALLS = np.zeros(len(SQUARE.edges), dtype=bool)


@pytest.mark.parametrize(
    ("build", "field"),
    [
        (lambda: laby3d.tessellate("square", "2", 3), "rows"),
        (lambda: laby3d.tessellate("square", 2, 3.0), "cols"),
        (lambda: laby3d.tessellate("pentagon", 2, 3), "shape"),
        (lambda: laby3d.Maze("square", WALLS), "tessellation"),
        (lambda: laby3d.Maze(SQUARE, WALLS[:-1]), "open_walls"),
        (lambda: laby3d.Maze(SQUARE, WALLS.astype(int)), "open_walls"),
        (lambda: laby3d.Maze.from_cells([[0, 0], [0, 0, 0]]), "cells"),
        (lambda: laby3d.Maze.from_cells(np.full((2, 3), 16)), "cells"),
        (lambda: laby3d.Maze.from_cells(np.full((2, 3), 2)), "cells"),
        (lambda: laby3d.Maze(SQUARE, WALLS, algorithm="</script>"), "algorithm"),
        (lambda: laby3d.Maze(SQUARE, WALLS, seed=-1), "seed"),
        (lambda: laby3d.Maze(SQUARE, WALLS, seed=2**63), "seed"),
        (lambda: laby3d.Maze(SQUARE, WALLS, options=[("a", 1)]), "options"),
        (lambda: laby3d.Maze(SQUARE, WALLS, entrance=(0, 0, "W")), "entrance"),
        (lambda: laby3d.Maze(SQUARE, WALLS, exit=laby3d.Opening(2, 0, "S")), "exit"),
        (lambda: laby3d.Maze(SQUARE, WALLS, exit=laby3d.Opening(0, 1, "W")), "exit"),
        (lambda: laby3d.Maze(SQUARE, WALLS, carve_order=[1, 2, 3]), "carve_order"),
        (lambda: laby3d.Maze(SQUARE, WALLS, carve_order=[[0, 6]]), "carve_order"),
        (lambda: laby3d.Maze.from_passages(SQUARE, [[0, 4]]), "passages"),
        (lambda: laby3d.Opening(0, 0, 3), "side"),
        (lambda: laby3d.Maze(SQUARE, WALLS, entrance=laby3d.Opening(0, 0, "X")), "entrance"),
        (lambda: laby3d.Opening(True, 0, "W"), "row"),
        (lambda: laby3d.generate("3", 4), "rows"),
        (lambda: laby3d.generate(3, 4, algorithm=None), "algorithm"),
        (lambda: laby3d.generate(3, 4, seed="7"), "seed"),
        (lambda: laby3d.generate(3, 4, placement=["corners"]), "placement"),
        (lambda: laby3d.generate(3, 4, placement="explicit", entrance=0, exit="2,3,E"), "entrance"),
    ],
)
def test_api_type_errors_raise_parameter_error_naming_the_argument(build, field: str) -> None:
    with pytest.raises(laby3d.ParameterError) as error:
        build()
    assert error.value.field == field
    assert str(error.value).startswith(f"{field} ")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(exit=d["entrance"]), "entrance and exit must differ"),
        (lambda d: d.update(algorithm="</script><script>alert(1)</script>"), "algorithm must be one of"),
        (lambda d: d.update(options={"bias": 0.5}), "options.bias is not an option of wilson"),
        (lambda d: d.update(algorithm=None, options={"bias": 0.5}), "options need an algorithm"),
        (lambda d: d.update(algorithm="sidewinder", options={"bias": 2}), "options.bias must be in [0, 1]"),
        (lambda d: d.update(algorithm="growing_tree", options={"policy": "x\u0000"}), "control character U+0000"),
        (lambda d: d.update(algorithm="growing_tree", options={"policy": "newest" * 100}), "at most 200 characters"),
        (lambda d: d.update(seed=2**63), "seed must be an integer in 0..9223372036854775807"),
        (lambda d: d.update(seed=1.0), "seed must be an integer"),
        (lambda d: d.update(version=True), "format must be 'laby3d.maze' version 1"),
        (lambda d: d.update(rows=2001), "rows must be an integer in 1..2000"),
        (lambda d: d["entrance"].update(row=-1), "entrance.row must be an integer in 0..1"),
        (lambda d: d["exit"].update(side="up"), "exit.side must be N, E, S, W or null"),
        (lambda d: d.pop("cells"), "missing key 'cells'"),
    ],
)
def test_every_field_is_checked(change, message: str) -> None:
    with pytest.raises(laby3d.MazeFileError) as error:
        laby3d.Maze.from_json(edited(change))
    assert message in str(error.value)


def test_options_of_the_algorithm_round_trip() -> None:
    maze = laby3d.generate(5, 5, algorithm="growing_tree", seed=4, policy="newest:0.25,oldest:0.75")
    assert laby3d.Maze.from_json(maze.to_json()).options == maze.options


def test_file_reader_names_the_file_and_refuses_other_encodings(tmp_path) -> None:
    from laby3d.maze.mazefile import read_maze_file

    good = tmp_path / "good.maze.json"
    good.write_text(DOC_EXAMPLE, encoding="utf-8")
    assert read_maze_file(good).solution == ((0, 0), (0, 1), (0, 2), (1, 2))
    latin = tmp_path / "latin.maze.json"
    latin.write_bytes(DOC_EXAMPLE.replace('"wilson"', '"wilsön"').encode("latin-1"))
    with pytest.raises(laby3d.MazeFileError) as error:
        read_maze_file(latin)
    assert str(error.value).startswith(f"{latin}: not UTF-8 text (byte 0xf6 at offset")
    assert "line 4" in str(error.value)
    with pytest.raises(laby3d.MazeFileError, match="cannot read"):
        read_maze_file(tmp_path / "missing.maze.json")


def test_oversize_file_is_refused_before_it_is_read(tmp_path) -> None:
    from laby3d.maze.mazefile import MAX_FILE_BYTES, read_maze_file

    huge = tmp_path / "huge.maze.json"
    with huge.open("wb") as stream:
        stream.truncate(MAX_FILE_BYTES + 1)  # sparse: no disk used
    with pytest.raises(laby3d.MazeFileError, match="are read"):
        read_maze_file(huge)


def serpentine(side: int) -> laby3d.Maze:
    """A ``side × side`` maze whose solution visits every cell: the most arrays and commas."""
    index = np.arange(side * side).reshape(side, side)
    along_rows = np.stack([index[:, :-1].ravel(), index[:, 1:].ravel()], axis=1)
    turn_col = [side - 1 if r % 2 == 0 else 0 for r in range(side - 1)]
    turns = np.array([(index[r, c], index[r + 1, c]) for r, c in enumerate(turn_col)], dtype=np.int64).reshape(-1, 2)
    end = laby3d.Opening(side - 1, side - 1 if side % 2 else 0, "S")
    maze = laby3d.Maze.from_passages(laby3d.tessellate("square", side, side), np.concatenate([along_rows, turns]))
    return maze.with_openings(laby3d.Opening(0, 0, "W"), end)


@pytest.mark.parametrize("side", [1, 2, 7, 40])
def test_the_fullest_file_of_a_size_fits_the_pre_parse_limits(side: int) -> None:
    """The limits are written for the 2000 × 2000 maze (MAX_CELLS, MAX_SIDE); the same formula
    with this maze's size must hold for its fullest file: every cell on the solution, options set."""
    from laby3d.jsonsafe import json_shape
    from laby3d.maze.mazefile import MAX_COMMAS, MAX_CONTAINERS
    from laby3d.maze.model import MAX_CELLS, MAX_SIDE

    maze = serpentine(side)
    assert len(maze.solution) == side * side
    data = json.loads(maze.to_json()) | {"algorithm": "growing_tree", "seed": 1, "options": {"policy": "newest"}}
    full = json.dumps(data)
    assert laby3d.Maze.from_json(full).solution == maze.solution
    shape, cells = json_shape(full.encode()), side * side
    assert shape.containers <= MAX_CONTAINERS - MAX_CELLS - MAX_SIDE + cells + side
    assert shape.commas <= MAX_COMMAS - 3 * MAX_CELLS - MAX_SIDE + 3 * cells + side
