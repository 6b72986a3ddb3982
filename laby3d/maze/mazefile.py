"""The maze file (``.maze.json``): writing, and reading with full validation.

Format (SPEC §2): ``cells[r][c]`` is the bit mask of the cell's open sides, N=1 E=2 S=4 W=8;
both cells of an open wall carry its bit; border bits only at the entrance and exit.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from laby3d.errors import MazeFileError
from laby3d.maze.model import SIDE_BITS, E, Maze, N, Opening, S, W, check_size, interior_only
from laby3d.maze.solve import distance_map

FORMAT = "laby3d.maze"
VERSION = 1
_BIT_SIDE = {bit: side for side, bit in SIDE_BITS.items()}


def _line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


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


def maze_from_json(text: str) -> Maze:
    """Parse and validate a maze file; every problem names its row, column and side."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise MazeFileError(f"not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise MazeFileError("a maze file must hold a JSON object")
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise MazeFileError(
            f"format must be {FORMAT!r} version {VERSION}, got {data.get('format')!r} version {data.get('version')!r}"
        )
    known = {
        "format",
        "version",
        "rows",
        "cols",
        "algorithm",
        "seed",
        "options",
        "cells",
        "entrance",
        "exit",
        "solution",
    }
    unknown = sorted(set(data) - known)
    if unknown:
        raise MazeFileError(f"unknown key {unknown[0]!r} (known: {', '.join(sorted(known))})")
    try:
        check_size(data.get("rows"), data.get("cols"))
    except ValueError as error:
        raise MazeFileError(str(error)) from None
    rows, cols = int(data["rows"]), int(data["cols"])
    cells = cells_array(data.get("cells"), rows, cols)
    entrance = _opening(data.get("entrance"), "entrance", rows, cols)
    exit_ = _opening(data.get("exit"), "exit", rows, cols)
    check_border(cells, entrance, exit_)
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise MazeFileError(f"seed must be a non-negative integer or null, got {seed!r}")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise MazeFileError(f"options must be an object, got {options!r}")
    maze = Maze(rows, cols, cells, entrance, exit_, data.get("algorithm"), seed, options)
    check_perfect(maze)
    if "solution" in data and data["solution"] != [list(cell) for cell in maze.solution]:
        raise MazeFileError("solution is not the path from the entrance to the exit")
    return maze


def cells_array(value: Any, rows: int, cols: int) -> np.ndarray:
    """Validate the ``cells`` list of lists: shape, values 0..15, both sides of each wall agree."""
    if not isinstance(value, list) or len(value) != rows:
        raise MazeFileError(f"cells must be a list of {rows} rows")
    for r, row in enumerate(value):
        if not isinstance(row, list) or len(row) != cols:
            raise MazeFileError(f"cells row {r} must be a list of {cols} integers")
        for c, mask in enumerate(row):
            if isinstance(mask, bool) or not isinstance(mask, int) or not 0 <= mask <= 15:
                raise MazeFileError(f"cell ({r}, {c}) must be an integer 0..15, got {mask!r}")
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
    if not isinstance(value, dict) or set(value) != {"row", "col", "side"}:
        raise MazeFileError(f"{name} must be an object with row, col and side")
    row, col, side = value["row"], value["col"], value["side"]
    if not (isinstance(row, int) and isinstance(col, int) and 0 <= row < rows and 0 <= col < cols):
        raise MazeFileError(f"{name} cell must be within rows 0..{rows - 1}, cols 0..{cols - 1}, got ({row}, {col})")
    if side is not None and side not in SIDE_BITS:
        raise MazeFileError(f"{name} side must be N, E, S, W or null, got {side!r}")
    return Opening(row, col, side)


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
