"""Conversions for classroom code: rows of side dicts, and the (2·rows+1)×(2·cols+1) 0/1 grid.

The classroom form is the class exercise's ``Labyrinthe``: a list of rows, each a list of cells,
each cell a dict of its sides ``N``, ``E``, ``S``, ``O`` (ouest) with True where the side is open,
optionally with the cell's zone number (see :mod:`laby3d.maze.observe`).

The entrance and the exit are the border sides left open: exactly two, and the first in reading
order (rows from the top, cells from the left, sides N, E, S, O) is the entrance. A maze whose
entrance is not that one (or that has an opening inside, with no border side) says so with two
keys, ``"entree"`` on the entrance's cell and ``"sortie"`` on the exit's, each the side opened
there (None for none); :func:`to_classroom` writes them only then. A closed maze (no open border
side: a pupil's program that has not opened one yet) is refused, unless a ``placement``
(``corners`` or ``opposite-sides``, :mod:`laby3d.maze.placement`) is given to open it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from laby3d.errors import MazeFileError, ParameterError
from laby3d.maze.grid import E, N, S, W, interior_only
from laby3d.maze.mazefile import check_symmetric, perfect_square_maze
from laby3d.maze.model import Maze, Opening, check_maze
from laby3d.maze.sides import SIDE_BITS
from laby3d.quoting import shown
from laby3d.tessellation import check_shape_size

#: The key of a cell's zone number in the classroom form.
ZONE_KEY = "zone"
#: Keys naming the entrance's and the exit's cell (value: the side opened there, or None).
ENTRANCE_KEY, EXIT_KEY = "entree", "sortie"
#: The exercise's side names, in reading order, and laby3d's side each stands for.
FORM_SIDES = {"N": "N", "E": "E", "S": "S", "O": "W"}
_SIDE_OF_KEY = {**FORM_SIDES, "W": "W"}  # "W" read too (the English form)


def to_classroom(
    maze: Maze, *, west: Literal["O", "W"] = "O", zones: np.ndarray | None = None
) -> list[list[dict[str, Any]]]:
    """Rows of ``{"N": bool, "E": bool, "S": bool, "O": bool}`` (True = open side).

    ``west`` names the west key (the exercise's ``"O"``, or ``"W"``); ``zones`` (``(rows,
    cols)`` ints, e.g. :func:`laby3d.maze.observe.zone_numbers`) adds ``"zone": number``. The
    entrance and exit are the open border sides (see the module for when they are named).

    >>> import laby3d
    >>> maze = laby3d.generate(1, 2, seed=1)   # entrance W of (0, 0), exit E of (0, 1)
    >>> to_classroom(maze)
    [[{'N': False, 'E': True, 'S': False, 'O': True}, {'N': False, 'E': True, 'S': False, 'O': True}]]
    >>> to_classroom(maze, west="W", zones=np.array([[4, 4]]))[0][1]
    {'N': False, 'E': True, 'S': False, 'W': True, 'zone': 4}
    """
    check_maze(maze)
    cells = maze.grid.cells
    if west not in ("O", "W"):
        raise ParameterError(f"must be 'O' or 'W', got {west!r}", field="west")
    if zones is not None and np.shape(zones) != (maze.rows, maze.cols):
        raise ParameterError(f"must be {maze.rows} × {maze.cols}, got {np.shape(zones)}", field="zones")
    names = {side: (west if side == "W" else side) for side in SIDE_BITS}
    rows: list[list[dict[str, Any]]] = [
        [{names[side]: bool(mask & bit) for side, bit in SIDE_BITS.items()} for mask in row] for row in cells.tolist()
    ]
    if (
        maze.entrance is not None
        and maze.exit is not None
        and _border_openings(cells)
        != [
            maze.entrance,
            maze.exit,
        ]
    ):
        for key, opening in ((ENTRANCE_KEY, maze.entrance), (EXIT_KEY, maze.exit)):
            rows[opening.row][opening.col][key] = None if opening.side is None else names[opening.side]
    if zones is not None:
        for row, numbers in zip(rows, np.asarray(zones).tolist(), strict=True):
            for cell, number in zip(row, numbers, strict=True):
                cell[ZONE_KEY] = int(number)
    return rows


#: Placements that open a closed classroom maze (the rest need the maze's file or flags).
OPENING_PLACEMENTS = ("corners", "opposite-sides")


def from_classroom(
    rows_of_dicts: Sequence[Sequence[dict[str, Any]]], *, placement: str | None = None, seed: int = 0
) -> Maze:
    """A maze from rows of side dicts (``"O"`` or ``"W"`` for west; True = open), the entrance
    and exit from the open border sides (see the module); zone numbers are ignored (they are
    known from the passages). A closed maze is opened by ``placement`` (one of
    :data:`OPENING_PLACEMENTS`; ``opposite-sides`` draws its rows from ``seed``). Every problem
    raises :class:`MazeFileError` naming the cell.

    >>> maze = from_classroom([[{"N": False, "E": True, "S": False, "O": True},
    ...                         {"N": False, "E": True, "S": False, "O": True}]])
    >>> maze.entrance, maze.exit
    (Opening(row=0, col=0, side='W'), Opening(row=0, col=1, side='E'))
    """
    if (
        not isinstance(rows_of_dicts, (list, tuple))
        or not rows_of_dicts
        or not isinstance(rows_of_dicts[0], (list, tuple))
    ):
        raise MazeFileError("expected a non-empty list of rows, each a list of cells (dicts of N, E, S, O)")
    rows, cols = len(rows_of_dicts), len(rows_of_dicts[0])
    try:
        check_shape_size("square", rows, cols)
    except ParameterError as error:
        raise MazeFileError(f"{rows} rows of {cols} cells: {error}") from None
    cells = np.zeros((rows, cols), dtype=np.uint8)
    marks: dict[str, list[Opening]] = {ENTRANCE_KEY: [], EXIT_KEY: []}
    for r, row in enumerate(rows_of_dicts):
        if not isinstance(row, (list, tuple)) or len(row) != cols:
            raise MazeFileError(f"row {r} must be a list of {cols} cells, like row 0")
        for c, sides in enumerate(row):
            cells[r, c] = _cell_mask(sides, r, c, marks)
    if placement is not None:
        return _opened(cells, marks, placement, seed)
    entrance, exit_ = _openings(cells, marks)
    check_symmetric(cells)
    return perfect_square_maze(cells, entrance=entrance, exit=exit_)


def _opened(cells: np.ndarray, marks: dict[str, list[Opening]], placement: str, seed: int) -> Maze:
    """The closed maze of ``cells`` with an entrance and an exit placed by ``placement``."""
    from laby3d.maze.placement import place

    if placement not in OPENING_PLACEMENTS:
        raise ParameterError(f"opens a closed maze at {' or '.join(OPENING_PLACEMENTS)}, got {shown(placement)}")
    found = _border_openings(cells)
    if found or any(marks.values()):
        named = ", ".join(f"cell ({o.row}, {o.col}) side {_form_side(o.side)}" for o in found[:4])
        raise MazeFileError(
            f"--placement opens a closed maze, and this one has its openings ({named or 'entree, sortie'}); "
            "leave out --placement to keep them, or close them"
        )
    check_symmetric(cells)
    return place(perfect_square_maze(cells), placement, np.random.default_rng(seed))


def _cell_mask(sides: Any, r: int, c: int, marks: dict[str, list[Opening]]) -> int:
    """The open-side bits of one cell's dict; its entrance or exit mark noted in ``marks``."""
    if not isinstance(sides, dict):
        raise MazeFileError(f"cell ({r}, {c}) must be a dict of its sides N, E, S, O, got {shown(sides)}")
    mask, seen = 0, set()
    for key, value in sides.items():
        if key == ZONE_KEY:
            continue
        if key in marks:
            if value is not None and value not in FORM_SIDES and value != "W":
                raise MazeFileError(f"cell ({r}, {c}) {key} must be N, E, S, O or None, got {shown(value)}")
            marks[key].append(Opening(r, c, None if value is None else _SIDE_OF_KEY[value]))  # type: ignore[arg-type]
            continue
        side = _SIDE_OF_KEY.get(key) if isinstance(key, str) else None
        if side is None:
            raise MazeFileError(
                f"cell ({r}, {c}) has an unknown key {shown(key)} (N, E, S, O, W, zone, entree, sortie)"
            )
        if side in seen:
            raise MazeFileError(f"cell ({r}, {c}) gives its west side twice (O and W)")
        if not isinstance(value, bool):
            raise MazeFileError(f"cell ({r}, {c}) side {key} must be True (open) or False, got {shown(value)}")
        seen.add(side)
        mask |= SIDE_BITS[side] if value else 0
    missing = [key for key, side in FORM_SIDES.items() if side not in seen]
    if missing:
        raise MazeFileError(f"cell ({r}, {c}) lacks side {missing[0]} (each cell gives N, E, S and O)")
    return mask


def _openings(cells: np.ndarray, marks: dict[str, list[Opening]]) -> tuple[Opening, Opening]:
    """The entrance and the exit: the marked cells, or the two open border sides in reading order."""
    found = _border_openings(cells)
    named = ", ".join(f"cell ({o.row}, {o.col}) side {_form_side(o.side)}" for o in found[:4])
    if any(marks.values()):
        for key, opening in marks.items():
            if len(opening) != 1:
                both = f"{ENTRANCE_KEY!r} and {EXIT_KEY!r}"
                raise MazeFileError(f"{len(opening)} cells carry {key!r}: exactly one must, when {both} are used")
        entrance, exit_ = marks[ENTRANCE_KEY][0], marks[EXIT_KEY][0]
        stated = [o for o in (entrance, exit_) if o.side is not None]
        unstated = [o for o in found if o not in stated]
        if unstated:
            o = unstated[0]
            raise MazeFileError(
                f"cell ({o.row}, {o.col}) side {_form_side(o.side)} is open on the border but is neither "
                f"{ENTRANCE_KEY!r} nor {EXIT_KEY!r}"
            )
        for key, o in ((ENTRANCE_KEY, entrance), (EXIT_KEY, exit_)):
            if o.side is not None and o not in found:
                raise MazeFileError(
                    f"cell ({o.row}, {o.col}) {key} side {_form_side(o.side)} is not open on the border"
                )
        if entrance == exit_:
            raise MazeFileError(f"cell ({entrance.row}, {entrance.col}) is both {ENTRANCE_KEY!r} and {EXIT_KEY!r}")
        return entrance, exit_
    if len(found) != 2:
        what = f"{len(found)}: {named}{', …' if len(found) > 4 else ''}" if found else "none"
        closed = " (a closed maze: --placement corners or opposite-sides opens one)" if not found else ""
        raise MazeFileError(
            f"the border must have exactly two open sides, the entrance (first in reading order) and the exit; "
            f"open: {what}{closed}"
        )
    return found[0], found[1]


def _border_openings(cells: np.ndarray) -> list[Opening]:
    """The open border sides of ``cells``: rows from the top, cells from the left, sides N, E, S, W."""
    border = cells ^ interior_only(cells)
    return [
        Opening(row, col, side)  # type: ignore[arg-type]
        for (row, col), mask in np.ndenumerate(border)
        for side, bit in SIDE_BITS.items()
        if mask & bit
    ]


def _form_side(side: str | None) -> str:
    """laby3d's side name as the form says it (W is O)."""
    return "none" if side is None else {v: k for k, v in FORM_SIDES.items()}[side]


def to_grid(maze: Maze) -> np.ndarray:
    """``(2·rows+1, 2·cols+1)`` uint8 grid, 1 = wall (entrance and exit left open)."""
    check_maze(maze)
    cells = maze.grid.cells
    grid = np.ones((2 * maze.rows + 1, 2 * cells.shape[1] + 1), dtype=np.uint8)
    grid[1::2, 1::2] = 0
    grid[1::2, 2::2] = (cells & E) == 0
    grid[1::2, 0] = (cells[:, 0] & W) == 0
    grid[2::2, 1::2] = (cells & S) == 0
    grid[0, 1::2] = (cells[0, :] & N) == 0
    return grid


def from_grid(grid: np.ndarray) -> Maze:
    """A maze from a ``(2·rows+1, 2·cols+1)`` 0/1 grid (1 = wall); border openings ignored."""
    grid = np.asarray(grid)
    if grid.ndim != 2 or grid.shape[0] % 2 == 0 or grid.shape[1] % 2 == 0 or min(grid.shape) < 3:
        raise MazeFileError(f"grid must be (2·rows+1) × (2·cols+1) with odd sides >= 3, got {grid.shape}")
    rows, cols = grid.shape[0] // 2, grid.shape[1] // 2
    check_shape_size("square", rows, cols)
    if grid[1::2, 1::2].any():
        r, c = (int(v) for v in np.argwhere(grid[1::2, 1::2])[0])
        raise MazeFileError(f"grid marks cell ({r}, {c}) itself as a wall")
    cells = np.zeros((rows, cols), dtype=np.uint8)
    open_east = grid[1::2, 2:-1:2] == 0
    open_south = grid[2:-1:2, 1::2] == 0
    cells[:, :-1] |= np.where(open_east, E, 0).astype(np.uint8)
    cells[:, 1:] |= np.where(open_east, W, 0).astype(np.uint8)
    cells[:-1, :] |= np.where(open_south, S, 0).astype(np.uint8)
    cells[1:, :] |= np.where(open_south, N, 0).astype(np.uint8)
    check_symmetric(cells)
    return perfect_square_maze(cells)
