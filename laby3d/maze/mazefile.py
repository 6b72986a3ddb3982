"""The maze file (``.maze.json``): writing, and reading with full validation, every version in
one place.

The format and every rule the reader checks are in docs/maze-file.md. Version 1 holds a square
maze as bit masks (``cells[r][c]``, N=1 E=2 S=4 W=8: both cells of an open wall carry its bit;
border bits only at the entrance and exit); version 2 holds a maze of any shape as its
``passages``, pairs ``[a, b]`` of neighbouring cell indices. :data:`WRITTEN_VERSION` says which a
maze is written as (square: 1, as every file made before the other shapes; the others: 2) and
:data:`READERS` reads each. The reader refuses, with a :class:`MazeFileError` naming the field
(and the row, column and side, or the passage), anything else: unknown keys, unregistered
algorithms, options the algorithm does not take, integers out of range, entrance = exit, a maze
that is not perfect, non-UTF-8 text, and whatever :mod:`laby3d.jsonsafe` refuses in any JSON file
a user gives (files over :data:`MAX_FILE_BYTES`, nesting deeper than :data:`MAX_NESTING`, more
arrays and commas than the fullest valid file, long numbers, duplicate keys, control characters),
before or while parsing.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from laby3d.errors import MazeFileError, ParameterError
from laby3d.jsonsafe import JsonLimits, check_text, load_json
from laby3d.maze.algorithms import ALGORITHMS, GRAPH_ALGORITHMS, check_algorithm
from laby3d.maze.grid import E, N, S, W, east_and_south_pairs, interior_only
from laby3d.maze.model import MAX_CELLS, MAX_SEED, MAX_SIDE, Maze, Opening
from laby3d.maze.sides import SIDE_BITS
from laby3d.quoting import shown, shown_path
from laby3d.tessellation import SHAPES, Tessellation, check_shape_size, tessellate
from laby3d.textfiles import read_limited_text
from laby3d.unionfind import component_roots
from laby3d.values import is_integer

FORMAT = "laby3d.maze"
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
#: The keys of each version, and those it cannot do without.
KEYS = {
    1: ("format", "version", "rows", "cols", "algorithm", "seed", "options", "cells", "entrance", "exit", "solution"),
    2: (
        *("format", "version", "shape", "rows", "cols", "first_ring", "algorithm", "seed", "options"),
        *("outline", "braid", "cells", "passages", "entrance", "exit", "solution"),
    ),
}
REQUIRED_KEYS = {
    1: ("format", "version", "rows", "cols", "cells"),
    2: ("format", "version", "shape", "rows", "passages"),
}
_BIT_SIDE = {bit: side for side, bit in SIDE_BITS.items()}


def written_version(maze: Maze) -> int:
    """The version ``maze`` is written as: 1 for a perfect maze on the whole square grid (its bit
    masks, read by every earlier laby3d and by the class exercise's code), 2 for the others."""
    return 1 if maze.tessellation.kind == "square" and not maze.braid else 2


def _line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def maze_to_json(maze: Maze) -> str:
    """The maze file text: one key per line, one line per row of cells (version 1) or of the
    passages' first cells (version 2); byte-stable."""
    version = written_version(maze)
    t = maze.tessellation
    header: dict[str, Any] = {"format": FORMAT, "version": version}
    if version == 2:
        header["shape"] = maze.shape
    header["rows"] = maze.rows
    if maze.cols is not None:
        header["cols"] = maze.cols
    header.update(dict(t.options))
    header.update({"algorithm": maze.algorithm, "seed": maze.seed})
    lines = [f"  {_line(key)}: {_line(value)}," for key, value in header.items()]
    if maze.options:
        lines.append(f'  "options": {_line(dict(maze.options))},')
    if maze.outline:
        lines.append(f'  "outline": {_line(maze.outline)},')
    if maze.braid:
        lines.append(f'  "braid": {maze.braid},')
    if t.inside is not None:
        lines.append(_cut_text(t))
    lines.append(_cells_text(maze) if version == 1 else _passages_text(maze))
    for key, opening in (("entrance", maze.entrance), ("exit", maze.exit)):
        lines.append(f"  {_line(key)}: {_line(opening.as_dict() if opening else None)},")
    lines.append(f'  "solution": {_line([list(cell) for cell in maze.solution])}')
    return "{\n" + "\n".join(lines) + "\n}\n"


def _cells_text(maze: Maze) -> str:
    rows = ",\n".join(f"    {_line(row)}" for row in maze.grid.cells.tolist())
    return f'  "cells": [\n{rows}\n  ],'


def _cut_text(tessellation: Tessellation) -> str:
    """The board's cells in the maze (an outline), one line per board row."""
    cells = tessellation.inside if tessellation.inside is not None else np.zeros(0, dtype=np.int64)
    starts = tessellation.row_starts
    rows = [cells[starts[row] : starts[row + 1]].tolist() for row in range(tessellation.rows)]
    text = ",\n".join("    " + ", ".join(str(cell) for cell in row) for row in rows if row)
    return f'  "cells": [\n{text}\n  ],'


def _passages_text(maze: Maze) -> str:
    passages = maze.passages
    starts = np.searchsorted(passages[:, 0], maze.tessellation.row_starts)
    rows = [passages[starts[row] : starts[row + 1]].tolist() for row in range(maze.rows)]
    text = ",\n".join("    " + ", ".join(f"[{a}, {b}]" for a, b in row) for row in rows if row)
    return f'  "passages": [\n{text}\n  ],' if text else '  "passages": [],'


def read_maze_file(path: str | os.PathLike[str]) -> Maze:
    """Read and validate the maze file at ``path`` (any version, any shape).

    Parameters
    ----------
    path : str or path-like
        The ``.maze.json`` file; its size is checked before reading and the bytes must be UTF-8.

    Returns
    -------
    Maze
        The maze it holds.

    Raises
    ------
    MazeFileError
        Naming the file and what is wrong (the field, and the row, column and side).
    """
    text = read_text(path)
    try:
        return maze_from_json(text)
    except MazeFileError as error:
        raise MazeFileError(f"{shown_path(path)}: {error}") from None


def read_text(path: str | os.PathLike[str], limits: JsonLimits | None = None) -> str:
    """The UTF-8 text of a maze file (or a file of other ``limits``), its size checked before
    reading; errors name the file."""
    limit = (limits or LIMITS).max_bytes
    return read_limited_text(path, name=shown_path(path), limit=limit, error=MazeFileError)


def maze_from_json(text: str) -> Maze:
    """Parse and validate a maze file's text (rules in docs/maze-file.md)."""
    return maze_from_data(load_json(text, LIMITS))


def maze_from_data(data: Any) -> Maze:
    """Validate the parsed JSON value of a maze file: its version picks the reader."""
    if not isinstance(data, dict):
        raise MazeFileError(f"a maze file must hold a JSON object, got {type(data).__name__}")
    version = data.get("version")
    if "shape" in data and version is None:
        version = 2
    if data.get("format") != FORMAT or type(version) is not int or version not in READERS:
        raise MazeFileError(
            f"format must be {FORMAT!r} version {' or '.join(map(str, READERS))}, got {shown(data.get('format'))} "
            f"version {shown(data.get('version'))}"
        )
    if version == 1 and "shape" in data:
        raise MazeFileError("a maze file with a shape is version 2, got version 1")
    unknown = [key for key in data if key not in KEYS[version]]
    if unknown:
        raise MazeFileError(f"unknown key {shown(unknown[0])} (known in version {version}: {', '.join(KEYS[version])})")
    missing = [key for key in REQUIRED_KEYS[version] if key not in data]
    if missing:
        raise MazeFileError(f"missing key {missing[0]!r}")
    maze = READERS[version](data)
    if "solution" in data and data["solution"] != [list(cell) for cell in maze.solution]:
        raise MazeFileError("solution is not the path from the entrance to the exit")
    return maze


def _from_v1(data: dict[str, Any]) -> Maze:
    """A version-1 file: a square maze's bit masks."""
    rows, cols = (_integer(data[name], name, 1, MAX_SIDE) for name in ("rows", "cols"))
    algorithm, seed, options = _history(data, "square")
    cells = cells_array(data["cells"], rows, cols)
    entrance = _square_opening(data.get("entrance"), "entrance", rows, cols)
    exit_ = _square_opening(data.get("exit"), "exit", rows, cols)
    if entrance is not None and entrance == exit_:
        raise MazeFileError(f"entrance and exit must differ, both are {shown(entrance.as_dict())}")
    check_border(cells, entrance, exit_)
    return perfect_square_maze(cells, entrance=entrance, exit=exit_, algorithm=algorithm, seed=seed, options=options)


def perfect_square_maze(cells: np.ndarray, **more: Any) -> Maze:
    """The square maze of bit masks already checked cell by cell (:func:`check_symmetric`,
    :func:`check_border`), once it is checked to be perfect (:func:`check_perfect`)."""
    check_perfect(tessellate("square", *cells.shape), east_and_south_pairs(cells))
    return Maze.from_cells(cells, **more)


def _from_v2(data: dict[str, Any]) -> Maze:
    """A version-2 file: a maze of any shape as its passages."""
    shape = data["shape"]
    if not isinstance(shape, str) or shape not in SHAPES:
        raise MazeFileError(f"shape must be one of {', '.join(SHAPES)}, got {shown(shape)}")
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
    algorithm, seed, options = _history(data, shape)
    try:
        board = tessellate(shape, rows, cols, first_ring=data.get("first_ring"))
    except ParameterError as error:
        raise MazeFileError(str(error)) from None
    tessellation = _cut_board(board, data.get("cells"))
    outline, braid = data.get("outline"), data.get("braid", 0)
    if outline is not None:
        if not isinstance(outline, str):
            raise MazeFileError(f"outline must be the outline's name as asked, got {shown(outline)}")
        check_text(outline, "outline", MAX_OPTION_TEXT)
    if not is_integer(braid) or not 0 <= braid <= 100:
        raise MazeFileError(f"braid must be an integer percent in 0..100, got {shown(braid)}")
    passages = _passages(data["passages"], tessellation, loops=braid > 0)
    entrance = _opening(data.get("entrance"), "entrance", tessellation)
    exit_ = _opening(data.get("exit"), "exit", tessellation)
    if entrance is not None and entrance == exit_:
        raise MazeFileError(f"entrance and exit must differ, both are {shown(entrance.as_dict())}")
    open_walls = np.zeros(len(tessellation.edges), dtype=bool)
    open_walls[tessellation.edge_indices(passages)] = True
    return Maze(
        tessellation,
        open_walls,
        entrance=entrance,
        exit=exit_,
        algorithm=algorithm,
        seed=seed,
        options=options,
        outline=outline,
        braid=int(braid),
    )


def _cut_board(board: Tessellation, value: Any) -> Tessellation:
    """The board cut to the ``cells`` of a file (None: the whole board), checked to be board
    cells in increasing order, in one piece, none touching another at a corner only."""
    from laby3d.tessellation.cut import cut_cells

    if value is None:
        return board
    if not isinstance(value, list) or not all(type(cell) is int for cell in value):
        raise MazeFileError(f"cells must be a list of the board's cell indices, got {shown(value)}")
    try:
        tessellation = tessellate(
            board.shape.name, board.rows, board.cols, inside=np.array(value, dtype=np.int64), **dict(board.options)
        )
    except ParameterError as error:
        raise MazeFileError(f"cells {error.detail}") from None
    keep = np.zeros(board.cell_count, dtype=bool)
    keep[value] = True
    if not np.array_equal(cut_cells(board, keep), np.array(value, dtype=np.int64)):
        raise MazeFileError(
            "cells must make one piece, no two of them touching at a corner only (as an outline's cells are joined)"
        )
    return tessellation


#: The reader of each version.
READERS: dict[int, Callable[[dict[str, Any]], Maze]] = {1: _from_v1, 2: _from_v2}


def _history(data: dict[str, Any], kind: str) -> tuple[str | None, int | None, dict[str, Any]]:
    """How the maze was made: its algorithm (one that carves ``kind``), seed and options."""
    algorithm = data.get("algorithm")
    if algorithm is not None:
        if not isinstance(algorithm, str) or algorithm not in ALGORITHMS:
            known = ALGORITHMS if kind == "square" else GRAPH_ALGORITHMS
            raise MazeFileError(f"algorithm must be one of {', '.join(known)} or null, got {shown(algorithm)}")
        try:
            check_algorithm(algorithm, kind)
        except ParameterError as error:
            raise MazeFileError(str(error)) from None
    seed = data.get("seed")
    if seed is not None:
        _integer(seed, "seed", 0, MAX_SEED)
    return algorithm, seed, _options(data.get("options", {}), algorithm)


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


def _square_opening(value: Any, name: str, rows: int, cols: int) -> Opening | None:
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) != {"row", "col", "side"}:
        raise MazeFileError(f"{name} must be an object with row, col and side, got {shown(value)}")
    row = _integer(value["row"], f"{name}.row", 0, rows - 1)
    col = _integer(value["col"], f"{name}.col", 0, cols - 1)
    side = value["side"]
    if side is not None and (not isinstance(side, str) or side not in SIDE_BITS):
        raise MazeFileError(f"{name}.side must be N, E, S, W or null, got {shown(side)}")
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


def _cell_name(tessellation: Tessellation, cell: int) -> str:
    row, col = tessellation.cell_position(cell)
    return f"{cell} ({row}, {col})"


def check_perfect(tessellation: Tessellation, pairs: np.ndarray, *, loops: bool = False) -> None:
    """Exactly one path between any two cells: ``cells − 1`` passages joining every cell (with
    ``loops``, a braided maze: every cell joined, at least ``cells − 1`` passages)."""
    cells = tessellation.cell_count
    count = f"{len(pairs)} passages, a spanning tree of {cells} cells has {cells - 1}"
    if len(pairs) > cells - 1 and not loops:
        raise MazeFileError(f"not a perfect maze: {count}, so the passages contain a loop")
    roots = component_roots(cells, pairs[:, 0], pairs[:, 1])
    if (roots != 0).any():
        cell = _cell_name(tessellation, int(np.argmax(roots != 0)))
        raise MazeFileError(f"not a perfect maze: cell {cell} cannot be reached from cell 0 (0, 0) ({count})")


def _passages(value: Any, tessellation: Tessellation, *, loops: bool = False) -> np.ndarray:
    """The ``passages`` list, checked: pairs of cell indices ``a < b``, in increasing order, each
    two neighbours, ``cells − 1`` of them joining every cell (so: a spanning tree), or with
    ``loops`` at least that many."""
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
        tessellation.edge_indices(pairs)
    except ParameterError:
        edges = tessellation.edges.astype(np.int64)
        known = np.isin(key, edges[:, 0] * cells + edges[:, 1])
        k = int(np.argmin(known))
        a, b = (_cell_name(tessellation, int(cell)) for cell in pairs[k])
        raise MazeFileError(f"passages[{k}] joins cells {a} and {b}, which are not neighbours") from None
    check_perfect(tessellation, pairs, loops=loops)
    return pairs


def _opening(value: Any, name: str, tessellation: Tessellation) -> Opening | None:
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
        return Opening(row, col, None)
    sides = tessellation.opening_sides(cell)
    if not isinstance(side, str) or side not in sides:
        where = f"its boundary sides: {', '.join(sides)}" if sides else "the cell is inside the maze"
        raise MazeFileError(
            f"{name}.side of cell ({row}, {col}) must be a boundary side or null ({where}), got {shown(side)}"
        )
    return Opening(row, col, side)
