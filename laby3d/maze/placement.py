"""Where the entrance and exit go: placement policies, on the outer boundary of the tessellation.

- ``corners``: from the first cell's W side to the last row's last cell's E side (square, hex
  and triangle boards); theta from its centre (no opening) to the rim cell at 12 o'clock.
- ``opposite-sides``: from a random row's W side to a random row's E side; theta between a
  random rim cell and the rim cell across the centre.
- ``center``: from the middle cell (theta: the centre) to the boundary cell farthest along the maze.
- ``hardest``: the two boundary cells farthest apart along the maze (first: the boundary cell
  farthest from cell 0; second: the one farthest from the first).
- ``explicit``: ``entrance`` and ``exit`` given as ``"row,col,side"`` (side omitted: a start or
  goal inside the maze).

A cell with several boundary sides opens the first its tessellation offers (square: W, E, N, S;
other shapes: along the outline), the exit another one when it shares the entrance's cell; ties
in distance go to the lowest cell index.
"""

from __future__ import annotations

import re
from typing import Literal, get_args

import numpy as np

from laby3d.errors import ParameterError
from laby3d.maze.model import Maze, Opening
from laby3d.maze.solve import distances_and_parents
from laby3d.quoting import shown
from laby3d.tessellation import Tessellation

#: Where the entrance and exit go.
Placement = Literal["corners", "opposite-sides", "center", "hardest", "explicit"]
PLACEMENTS: tuple[str, ...] = get_args(Placement)


def _opening(tessellation: Tessellation, cell: int, avoid: Opening | None = None) -> Opening:
    """An opening on ``cell``'s first boundary side (not ``avoid``'s own side in the same cell)."""
    row, col = tessellation.cell_position(cell)
    sides = tessellation.opening_sides(cell)
    if avoid is not None and (avoid.row, avoid.col) == (row, col) and len(sides) > 1:
        sides = [side for side in sides if side != avoid.side]
    return Opening(row, col, sides[0])


def boundary_cells(tessellation: Tessellation) -> np.ndarray:
    """``(B,)`` the cells with a boundary side, in increasing index."""
    if tessellation.shape.boundary_sides is not None and tessellation.inside is None and tessellation.cols is not None:
        rows, cols = tessellation.rows, tessellation.cols
        border = np.zeros((rows, cols), dtype=bool)
        border[0, :] = border[-1, :] = border[:, 0] = border[:, -1] = True
        return np.flatnonzero(border)
    return np.unique(tessellation.boundary_cells)


def _farthest_boundary_cell(maze: Maze, start: int) -> int:
    """The boundary cell farthest from ``start`` along the maze (lowest index on ties)."""
    distance, _ = distances_and_parents(maze, start)
    boundary = boundary_cells(maze.tessellation)
    return int(boundary[np.argmax(distance[boundary])])


def middle_cell(tessellation: Tessellation) -> int:
    """The cell placement ``center`` starts from: the middle row's middle cell (theta: its
    centre); on a board cut by an outline without that cell, the cell nearest the cells' mean."""
    t = tessellation
    try:
        return 0 if not t.shape.uses_cols else t.cell_index(t.rows // 2, t.board_row_length(t.rows // 2) // 2)
    except IndexError:
        return int(np.argmin(np.linalg.norm(t.centres - t.centres.mean(axis=0), axis=1)))


def _end(tessellation: Tessellation, cell: int, side: str) -> Opening:
    """An opening of ``cell`` on ``side`` if it has that boundary side, else on its first one
    (None inside the maze)."""
    sides = tessellation.opening_sides(cell)
    chosen = side if side in sides else (sides[0] if sides else None)
    return Opening(*tessellation.cell_position(cell), chosen)


def _row_ends(tessellation: Tessellation, row: int) -> tuple[int, int]:
    """The first and the last cell of ``row`` (the leftmost and rightmost of a board's row)."""
    starts = tessellation.row_starts
    return int(starts[row]), int(starts[row + 1]) - 1


def parse_opening(text: str, tessellation: Tessellation, field: str) -> Opening:
    """Parse ``"row,col,side"`` for ``tessellation`` (side among the cell's boundary sides, any
    case; omitted for a start or goal inside the maze)."""
    match = re.fullmatch(r"\s*(\d+)\s*,\s*(\d+)\s*(?:,\s*([A-Za-z]+))?\s*", text)
    shape = tessellation.shape.name
    if not match:
        example = "'0,0'" if not tessellation.shape.uses_cols else "'0,0,W'"
        raise ParameterError(
            f"must look like 'row,col,side' or 'row,col', such as {example}, got {shown(text)}", field=field
        )
    row, col = int(match[1]), int(match[2])
    try:
        cell = tessellation.cell_index(row, col)
    except IndexError:
        raise ParameterError(f"there is no cell ({row}, {col}) in this {shape} maze", field=field) from None
    if match[3] is None:
        return Opening(row, col, None)
    sides = tessellation.opening_sides(cell)
    named = {side.casefold(): side for side in sides}
    side = named.get(match[3].casefold())
    if side is None:
        if sides:
            why = f"side {match[3]} of cell ({row}, {col}) is not on the boundary: its boundary sides are "
            why += ", ".join(sides)
        else:
            why = f"cell ({row}, {col}) is inside the maze, so it has no side {match[3]} to open: "
            why += "leave the side out ('row,col') or choose a cell on the boundary"
        raise ParameterError(why, field=field)
    return Opening(row, col, side)


def explicit_openings(entrance: str | None, exit: str | None, tessellation: Tessellation) -> tuple[Opening, Opening]:
    """The openings of placement explicit: both given as ``"row,col,side"``, and distinct."""
    if entrance is None or exit is None:
        raise ParameterError("explicit needs both entrance and exit ('row,col,side')", field="placement")
    start = parse_opening(entrance, tessellation, "entrance")
    end = parse_opening(exit, tessellation, "exit")
    if start == end:
        raise ParameterError("must differ from the entrance", field="exit")
    return start, end


def check_unused_openings(policy: str, entrance: str | None, exit: str | None) -> None:
    """Refuse an entrance or exit given with a placement that would ignore it (only explicit reads them)."""
    if policy == "explicit":
        return
    for field, given in (("entrance", entrance), ("exit", exit)):
        if given is not None:
            raise ParameterError(f"has no effect unless placement is explicit (it is {policy})", field=field)


def place(
    maze: Maze, policy: str, rng: np.random.Generator, entrance: str | None = None, exit: str | None = None
) -> Maze:
    """``maze`` with entrance and exit placed by ``policy`` (one of :data:`PLACEMENTS`)."""
    t = maze.tessellation
    check_unused_openings(policy, entrance, exit)
    ringed = not t.shape.uses_cols and t.inside is None  # a whole disc: a centre and a rim
    rows = [row for row in range(t.rows) if t.row_length(row)]  # the rows the maze has cells in
    if policy == "corners":
        if ringed:
            start, end = Opening(0, 0, None), _opening(t, t.cell_index(t.rows - 1, 0))
        else:
            start, end = _end(t, 0, "W"), _end(t, t.cell_count - 1, "E")
    elif policy == "opposite-sides":
        if ringed:
            rim = t.row_length(t.rows - 1)
            col = int(rng.integers(rim))
            start, end = (
                _opening(t, t.cell_index(t.rows - 1, col)),
                _opening(t, t.cell_index(t.rows - 1, (col + rim // 2) % rim)),
            )
        else:
            first, second = (rows[int(rng.integers(len(rows)))] for _ in range(2))
            start, end = _end(t, _row_ends(t, first)[0], "W"), _end(t, _row_ends(t, second)[1], "E")
    elif policy == "center":
        middle = middle_cell(t)
        start = Opening(*t.cell_position(middle), None)
        end = _opening(t, _farthest_boundary_cell(maze, middle), start)
    elif policy == "hardest":
        first = _farthest_boundary_cell(maze, 0)
        start = _opening(t, first)
        end = _opening(t, _farthest_boundary_cell(maze, first), start)
    elif policy == "explicit":
        start, end = explicit_openings(entrance, exit, t)
    else:
        raise ParameterError(f"must be one of {', '.join(PLACEMENTS)}, got {shown(policy)}", field="placement")
    return maze.with_openings(start, end)
