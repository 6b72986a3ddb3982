"""The maze file of a maze that is not square (version 2, with its ``shape``): writing, and
reading with full validation. docs/maze-file.md gives the format and every rule checked.

Square mazes keep version 1 (cells as bit masks), written and read by
:mod:`laby3d.maze.mazefile` exactly as before; that module sends a file with a ``shape`` (or of
version 2) here. The open walls are listed as ``passages``: pairs ``[a, b]`` of neighbouring
cell indices (``a < b``, the index of cell ``(row, col)`` counting row by row, theta ring by
ring), in increasing order, one line per row of their first cell.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from laby3d.errors import MazeFileError, ParameterError
from laby3d.maze.algorithms import ALGORITHMS, GRAPH_CARVERS, graph_carver
from laby3d.maze.model import MAX_SEED
from laby3d.maze.shaped.model import ShapedMaze, ShapedOpening, wall_indices
from laby3d.quoting import shown
from laby3d.tessellation import SHAPES, Tessellation, check_shape_size, tessellate
from laby3d.unionfind import component_roots

FORMAT = "laby3d.maze"
VERSION = 2
KEYS = (
    "format",
    "version",
    "shape",
    "rows",
    "cols",
    "algorithm",
    "seed",
    "options",
    "passages",
    "entrance",
    "exit",
    "solution",
)
REQUIRED_KEYS = ("format", "version", "shape", "rows", "passages")


def _line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def shaped_to_json(maze: ShapedMaze) -> str:
    """The maze file text of a maze that is not square: one key per line, the passages one line
    per row of their first cell; byte-stable."""
    header: dict[str, Any] = {"format": FORMAT, "version": VERSION, "shape": maze.shape, "rows": maze.rows}
    if maze.cols is not None:
        header["cols"] = maze.cols
    header.update({"algorithm": maze.algorithm, "seed": maze.seed})
    lines = [f"  {_line(key)}: {_line(value)}," for key, value in header.items()]
    if maze.options:
        lines.append(f'  "options": {_line(dict(maze.options))},')
    passages = maze.passages
    starts = np.searchsorted(passages[:, 0], maze.tessellation.row_starts)
    rows = [passages[starts[row] : starts[row + 1]].tolist() for row in range(maze.rows)]
    text = ",\n".join("    " + ", ".join(f"[{a}, {b}]" for a, b in row) for row in rows if row)
    lines.append(f'  "passages": [\n{text}\n  ],' if text else '  "passages": [],')
    for key, opening in (("entrance", maze.entrance), ("exit", maze.exit)):
        lines.append(f"  {_line(key)}: {_line(opening.as_dict() if opening else None)},")
    lines.append(f'  "solution": {_line([list(cell) for cell in maze.solution])}')
    return "{\n" + "\n".join(lines) + "\n}\n"


def shaped_from_data(data: Any) -> ShapedMaze:
    """Validate the parsed JSON value of a version-2 maze file (rules in docs/maze-file.md);
    every problem names its field, and for passages their index and cells."""
    from laby3d.maze.mazefile import _integer, _options

    if not isinstance(data, dict):
        raise MazeFileError(f"a maze file must hold a JSON object, got {type(data).__name__}")
    unknown = [key for key in data if key not in KEYS]
    if unknown:
        raise MazeFileError(f"unknown key {shown(unknown[0])} (known in version {VERSION}: {', '.join(KEYS)})")
    missing = [key for key in REQUIRED_KEYS if key not in data]
    if missing:
        raise MazeFileError(f"missing key {missing[0]!r}")
    if data["format"] != FORMAT or type(data["version"]) is not int or data["version"] != VERSION:
        raise MazeFileError(
            f"a maze file with a shape must be format {FORMAT!r} version {VERSION}, "
            f"got {shown(data['format'])} version {shown(data['version'])}"
        )
    shape = data["shape"]
    if not isinstance(shape, str) or shape not in SHAPES or shape == "square":
        others = ", ".join(name for name in SHAPES if name != "square")
        raise MazeFileError(
            f"shape must be one of {others} (square mazes are written as version 1), got {shown(shape)}"
        )
    uses_cols = SHAPES[shape].uses_cols
    if uses_cols and "cols" not in data:
        raise MazeFileError(f"missing key 'cols' (a {shape} maze has rows and cols)")
    if not uses_cols and "cols" in data:
        raise MazeFileError(f"cols must be left out: a {shape} maze has rows (its rings) only")
    rows, cols = data["rows"], data.get("cols")
    for name, value in (("rows", rows), ("cols", cols)):
        if value is not None and type(value) is not int:
            raise MazeFileError(f"{name} must be an integer, got {shown(value)}")
    try:
        check_shape_size(shape, rows, cols)
    except ParameterError as error:
        raise MazeFileError(str(error)) from None
    algorithm = data.get("algorithm")
    if algorithm is not None:
        if not isinstance(algorithm, str) or algorithm not in ALGORITHMS:
            raise MazeFileError(f"algorithm must be one of {', '.join(GRAPH_CARVERS)} or null, got {shown(algorithm)}")
        try:
            graph_carver(algorithm, shape)
        except ParameterError as error:
            raise MazeFileError(str(error)) from None
    seed = data.get("seed")
    if seed is not None:
        _integer(seed, "seed", 0, MAX_SEED)
    options = _options(data.get("options", {}), algorithm)
    tessellation = tessellate(shape, rows, cols)
    passages = _passages(data["passages"], tessellation)
    entrance = _opening(data.get("entrance"), "entrance", tessellation)
    exit_ = _opening(data.get("exit"), "exit", tessellation)
    if entrance is not None and entrance == exit_:
        raise MazeFileError(f"entrance and exit must differ, both are {shown(entrance.as_dict())}")
    open_walls = np.zeros(len(tessellation.edges), dtype=bool)
    open_walls[wall_indices(tessellation, passages)] = True
    maze = ShapedMaze(
        shape,
        rows,
        cols,
        open_walls,
        entrance=entrance,
        exit=exit_,
        algorithm=algorithm,
        seed=seed,
        options=options,
        built=tessellation,
    )
    if "solution" in data and data["solution"] != [list(cell) for cell in maze.solution]:
        raise MazeFileError("solution is not the path from the entrance to the exit")
    return maze


def _cell_name(tessellation: Tessellation, cell: int) -> str:
    row, col = tessellation.cell_position(cell)
    return f"{cell} ({row}, {col})"


def _passages(value: Any, tessellation: Tessellation) -> np.ndarray:
    """The ``passages`` list, checked: pairs of cell indices ``a < b``, in increasing order, each
    two neighbours, ``cells − 1`` of them joining every cell (so: a spanning tree)."""
    cells = tessellation.cell_count
    if not isinstance(value, list):
        raise MazeFileError(f"passages must be a list of [a, b] cell-index pairs, got {shown(value)}")
    for index, pair in enumerate(value):
        if not (
            isinstance(pair, list)
            and len(pair) == 2
            and all(type(cell) is int and 0 <= cell < cells for cell in pair)
            and pair[0] < pair[1]
        ):
            raise MazeFileError(
                f"passages[{index}] must be a pair [a, b] of cell indices 0..{cells - 1} with a < b, got {shown(pair)}"
            )
    pairs = np.array(value, dtype=np.int64).reshape(-1, 2)
    key = pairs[:, 0] * cells + pairs[:, 1]
    out_of_order = np.flatnonzero(np.diff(key) <= 0)
    if len(out_of_order):
        k = int(out_of_order[0]) + 1
        raise MazeFileError(
            f"passages[{k}] {value[k]} must come after passages[{k - 1}] {value[k - 1]}: "
            "pairs are listed once each, in increasing order"
        )
    try:
        wall_indices(tessellation, pairs)
    except ParameterError:
        edges = tessellation.edges.astype(np.int64)
        known = np.isin(key, edges[:, 0] * cells + edges[:, 1])
        k = int(np.argmin(known))
        a, b = (_cell_name(tessellation, int(cell)) for cell in pairs[k])
        raise MazeFileError(f"passages[{k}] joins cells {a} and {b}, which are not neighbours") from None
    if len(pairs) != cells - 1:
        loop = ", so the passages contain a loop" if len(pairs) > cells - 1 else ""
        raise MazeFileError(
            f"not a perfect maze: {len(pairs)} passages, a spanning tree of {cells} cells has {cells - 1}{loop}"
        )
    roots = component_roots(cells, pairs[:, 0], pairs[:, 1])
    if (roots != 0).any():
        cell = _cell_name(tessellation, int(np.argmax(roots != 0)))
        raise MazeFileError(f"not a perfect maze: cell {cell} cannot be reached from cell 0 (0, 0)")
    return pairs


def _opening(value: Any, name: str, tessellation: Tessellation) -> ShapedOpening | None:
    """An entrance or exit: a cell of the maze and one of its boundary sides, or null."""
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) != {"row", "col", "side"}:
        raise MazeFileError(f"{name} must be an object with row, col and side, got {shown(value)}")
    row, col, side = value["row"], value["col"], value["side"]
    if type(row) is not int or type(col) is not int:
        raise MazeFileError(f"{name}.row and {name}.col must be integers, got {shown(row)}, {shown(col)}")
    try:
        cell = tessellation.cell_index(row, col)
    except IndexError:
        raise MazeFileError(f"{name} cell ({row}, {col}) is not in the maze") from None
    if side is None:
        return ShapedOpening(row, col, None)
    sides = [tessellation.boundary_sides[wall] for wall in tessellation.boundary_walls_of(cell)]
    if not isinstance(side, str) or side not in sides:
        where = f"its boundary sides: {', '.join(sides)}" if sides else "it is not on the boundary"
        raise MazeFileError(
            f"{name}.side of cell ({row}, {col}) must be a boundary side or null ({where}), got {shown(side)}"
        )
    return ShapedOpening(row, col, side)
