"""The maze file (``.maze.json``): writing, and reading with full validation.

The format and every rule the reader checks are in docs/maze-file.md: ``cells[r][c]`` is the bit
mask of the cell's open sides, N=1 E=2 S=4 W=8; both cells of an open wall carry its bit; border
bits only at the entrance and exit. The reader refuses, with a :class:`MazeFileError` naming the
field (and the row, column and side), anything else: unknown keys, unregistered algorithms,
options the algorithm does not take, integers out of range, entrance = exit, non-UTF-8 text,
and whatever :mod:`laby3d.jsonsafe` refuses in any JSON file a user gives (files over
:data:`MAX_FILE_BYTES`, nesting deeper than :data:`MAX_NESTING`, more arrays and commas than the
fullest valid file, long numbers, duplicate keys, control characters), before or while parsing.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.errors import MazeFileError, ParameterError
from laby3d.jsonsafe import JsonLimits, check_text, load_json
from laby3d.maze.algorithms import ALGORITHMS
from laby3d.maze.model import (
    MAX_CELLS,
    MAX_SEED,
    MAX_SIDE,
    SIDE_BITS,
    E,
    Maze,
    N,
    Opening,
    S,
    W,
    interior_only,
    is_integer,
)
from laby3d.maze.solve import distance_map
from laby3d.quoting import shown, shown_path
from laby3d.textfiles import read_limited_text

if TYPE_CHECKING:
    from laby3d.maze.shaped.model import ShapedMaze

FORMAT = "laby3d.maze"
VERSION = 1
#: Largest maze file read: the largest maze written by laby3d takes about 72 MB.
MAX_FILE_BYTES = 32 * MAX_CELLS
#: Deepest nesting of arrays and objects (a valid file nests 3 deep).
MAX_NESTING = 16
#: Most arrays and objects in a maze file: a row per maze row, a pair per solution cell, a few more.
MAX_CONTAINERS = MAX_CELLS + MAX_SIDE + 16
#: Most commas: three numbers per cell (its mask, its solution pair), a few more.
MAX_COMMAS = 3 * MAX_CELLS + MAX_SIDE + 64
#: Longest option value text.
MAX_OPTION_TEXT = 200
#: What a maze file may hold (docs/maze-file.md, "Limits").
LIMITS = JsonLimits(
    kind="a maze file",
    max_bytes=MAX_FILE_BYTES,
    max_containers=MAX_CONTAINERS,
    max_commas=MAX_COMMAS,
    max_depth=MAX_NESTING,
    why="one array per solution cell, three numbers per cell",
)
KEYS = ("format", "version", "rows", "cols", "algorithm", "seed", "options", "cells", "entrance", "exit", "solution")
REQUIRED_KEYS = ("format", "version", "rows", "cols", "cells")
_BIT_SIDE = {bit: side for side, bit in SIDE_BITS.items()}


def maze_to_json(maze: Maze) -> str:
    """The maze file text: one key per line, one line per row of cells; byte-stable."""
    header = {
        "format": FORMAT,
        "version": VERSION,
        "rows": maze.rows,
        "cols": maze.cols,
        "algorithm": maze.algorithm,
        "seed": maze.seed,
    }
    lines = [f"  {_line(key)}: {_line(value)}," for key, value in header.items()]
    if maze.options:
        lines.append(f'  "options": {_line(dict(maze.options))},')
    rows = ",\n".join(f"    {_line(row)}" for row in maze.cells.tolist())
    lines.append(f'  "cells": [\n{rows}\n  ],')
    for key, opening in (("entrance", maze.entrance), ("exit", maze.exit)):
        lines.append(f"  {_line(key)}: {_line(opening.as_dict() if opening else None)},")
    lines.append(f'  "solution": {_line([list(cell) for cell in maze.solution])}')
    return "{\n" + "\n".join(lines) + "\n}\n"


def _line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def read_maze_file(path: str | os.PathLike[str]) -> Maze | ShapedMaze:
    """Read and validate the maze file (of any shape) at ``path``; every error names the file.

    The size is checked before reading and the bytes must be UTF-8.
    """
    text = read_text(path)
    try:
        return any_maze_from_json(text)
    except MazeFileError as error:
        raise MazeFileError(f"{shown_path(path)}: {error}") from None


def read_text(path: str | os.PathLike[str], limits: JsonLimits | None = None) -> str:
    """The UTF-8 text of a maze file (or a file of other ``limits``), its size checked before
    reading; errors name the file."""
    limit = (limits or LIMITS).max_bytes
    return read_limited_text(path, name=shown_path(path), limit=limit, error=MazeFileError)


def maze_from_json(text: str) -> Maze:
    """Parse and validate a square maze file (rules in docs/maze-file.md); every problem names
    its field, and for cells its row, column and side. A file of another shape is refused."""
    maze = any_maze_from_json(text)
    if not isinstance(maze, Maze):
        raise MazeFileError(f"holds a {maze.shape} maze, not a square one: read it with any_maze_from_json")
    return maze


def any_maze_from_json(text: str) -> Maze | ShapedMaze:
    """Parse and validate a maze file of any shape: a square one (version 1) here, one with a
    shape (version 2) by :mod:`laby3d.maze.shaped.mazefile`."""
    data = load_json(text, LIMITS)
    if isinstance(data, dict) and ("shape" in data or data.get("version") == 2):
        from laby3d.maze.shaped.mazefile import shaped_from_data

        return shaped_from_data(data)
    return maze_from_data(data)


def maze_from_data(data: Any) -> Maze:
    """Validate the parsed JSON value of a maze file (rules in docs/maze-file.md)."""
    if not isinstance(data, dict):
        raise MazeFileError(f"a maze file must hold a JSON object, got {type(data).__name__}")
    unknown = [key for key in data if key not in KEYS]
    if unknown:
        raise MazeFileError(f"unknown key {shown(unknown[0])} (known: {', '.join(KEYS)})")
    missing = [key for key in REQUIRED_KEYS if key not in data]
    if missing:
        raise MazeFileError(f"missing key {missing[0]!r}")
    if data["format"] != FORMAT or not is_integer(data["version"]) or data["version"] != VERSION:
        raise MazeFileError(
            f"format must be {FORMAT!r} version {VERSION}, got {shown(data['format'])} version {shown(data['version'])}"
        )
    rows, cols = (_integer(data[name], name, 1, MAX_SIDE) for name in ("rows", "cols"))
    algorithm = data.get("algorithm")
    if algorithm is not None and (not isinstance(algorithm, str) or algorithm not in ALGORITHMS):
        raise MazeFileError(f"algorithm must be one of {', '.join(ALGORITHMS)} or null, got {shown(algorithm)}")
    seed = data.get("seed")
    if seed is not None:
        _integer(seed, "seed", 0, MAX_SEED)
    options = _options(data.get("options", {}), algorithm)
    cells = cells_array(data["cells"], rows, cols)
    entrance = _opening(data.get("entrance"), "entrance", rows, cols)
    exit_ = _opening(data.get("exit"), "exit", rows, cols)
    if entrance is not None and entrance == exit_:
        raise MazeFileError(f"entrance and exit must differ, both are {shown(entrance.as_dict())}")
    check_border(cells, entrance, exit_)
    maze = Maze(rows, cols, cells, entrance=entrance, exit=exit_, algorithm=algorithm, seed=seed, options=options)
    check_perfect(maze)
    if "solution" in data and data["solution"] != [list(cell) for cell in maze.solution]:
        raise MazeFileError("solution is not the path from the entrance to the exit")
    return maze


def _integer(value: Any, name: str, low: int, high: int) -> int:
    if not is_integer(value) or not low <= value <= high:
        raise MazeFileError(f"{name} must be an integer in {low}..{high}, got {shown(value)}")
    return int(value)


def _options(value: Any, algorithm: str | None) -> dict[str, Any]:
    """The options object, checked against the algorithm's own option parsers."""
    if not isinstance(value, dict):
        raise MazeFileError(f"options must be an object, got {shown(value)}")
    if value and algorithm is None:
        raise MazeFileError("options need an algorithm (algorithm is null)")
    for name, option in value.items():
        if isinstance(option, str):
            check_text(option, f"options.{name}", MAX_OPTION_TEXT)
        elif not (is_integer(option) or (isinstance(option, float) and math.isfinite(option))):
            raise MazeFileError(f"options.{name} must be a number or a string, got {shown(option)}")
    if algorithm is not None:
        try:
            ALGORITHMS[algorithm].resolve_options(value)
        except ParameterError as error:
            located = error.within("options")
            raise MazeFileError(str(located) if located.field else f"options: {error}") from None
    return value


def cells_array(value: Any, rows: int, cols: int) -> np.ndarray:
    """Validate the ``cells`` list of lists: shape, values 0..15, both sides of each wall agree."""
    if not isinstance(value, list) or len(value) != rows:
        raise MazeFileError(f"cells must be a list of {rows} rows")
    for r, row in enumerate(value):
        if not isinstance(row, list) or len(row) != cols:
            raise MazeFileError(f"cells row {r} must be a list of {cols} integers")
        for c, mask in enumerate(row):
            if type(mask) is not int or not 0 <= mask <= 15:
                raise MazeFileError(f"cell ({r}, {c}) must be an integer 0..15, got {shown(mask)}")
    cells = np.array(value, dtype=np.uint8).reshape(rows, cols)
    check_symmetric(cells)
    return cells


def check_symmetric(cells: np.ndarray) -> None:
    """Every open interior wall must be open from both of its cells."""
    east_mismatch = ((cells[:, :-1] & E) > 0) != ((cells[:, 1:] & W) > 0)
    south_mismatch = ((cells[:-1, :] & S) > 0) != ((cells[1:, :] & N) > 0)
    for mismatch, side, other in ((east_mismatch, "E", "W"), (south_mismatch, "S", "N")):
        if mismatch.any():
            r, c = (int(v) for v in np.argwhere(mismatch)[0])
            r2, c2 = (r, c + 1) if side == "E" else (r + 1, c)
            raise MazeFileError(
                f"wall between cell ({r}, {c}) side {side} and cell ({r2}, {c2}) side {other} is open on one side only"
            )


def _opening(value: Any, name: str, rows: int, cols: int) -> Opening | None:
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) != {"row", "col", "side"}:
        raise MazeFileError(f"{name} must be an object with row, col and side, got {shown(value)}")
    row = _integer(value["row"], f"{name}.row", 0, rows - 1)
    col = _integer(value["col"], f"{name}.col", 0, cols - 1)
    side = value["side"]
    if side is not None and (not isinstance(side, str) or side not in SIDE_BITS):
        raise MazeFileError(f"{name}.side must be N, E, S, W or null, got {shown(side)}")
    return Opening(row, col, side)  # type: ignore[arg-type]  # side checked just above


def check_border(cells: np.ndarray, entrance: Opening | None, exit_: Opening | None) -> None:
    """Border bits must be set exactly at the entrance and exit openings."""
    border = cells ^ interior_only(cells)
    expected = np.zeros_like(cells)
    for name, opening in (("entrance", entrance), ("exit", exit_)):
        if opening is not None and opening.side is not None:
            bit = SIDE_BITS[opening.side]
            if not border[opening.row, opening.col] & bit:
                raise MazeFileError(
                    f"{name} cell ({opening.row}, {opening.col}) side {opening.side} is not on the border or not open"
                )
            expected[opening.row, opening.col] |= bit
    extra = border & ~expected
    if extra.any():
        r, c = (int(v) for v in np.argwhere(extra)[0])
        side = _BIT_SIDE[int(extra[r, c]) & -int(extra[r, c])]
        raise MazeFileError(f"border of cell ({r}, {c}) side {side} is open but is neither entrance nor exit")


def check_perfect(maze: Maze) -> None:
    """Exactly one path between any two cells: ``rows·cols − 1`` passages, all cells connected."""
    expected = maze.cell_count - 1
    if maze.passage_count > expected:
        raise MazeFileError(
            f"not a perfect maze: {maze.passage_count} open interior walls, a spanning tree has "
            f"{expected}, so the passages contain a loop"
        )
    reach = distance_map(maze, (0, 0))
    if (reach < 0).any():
        r, c = (int(v) for v in np.argwhere(reach < 0)[0])
        raise MazeFileError(f"not a perfect maze: cell ({r}, {c}) cannot be reached from cell (0, 0)")
