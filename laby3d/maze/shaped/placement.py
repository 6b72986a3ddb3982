"""Where the entrance and exit of a maze of any shape go: the placement policies of
:mod:`laby3d.maze.placement`, on the outer boundary of the tessellation.

- ``corners``: the grids (hex, triangle) from cell (0, 0) side W to the last cell side E; theta
  from its centre (no opening) to the rim cell at 12 o'clock.
- ``opposite-sides``: the grids from a random row's W side to a random row's E side; theta
  between a random rim cell and the rim cell across the centre.
- ``center``: from the middle cell (theta: the centre) to the boundary cell farthest along the maze.
- ``hardest``: the two boundary cells farthest apart along the maze (first: the boundary cell
  farthest from cell 0; second: the one farthest from the first).
- ``explicit``: ``entrance`` and ``exit`` given as ``"row,col,side"`` (side omitted: a start or
  goal inside the maze).

A cell with several boundary walls opens its first one along the outline (the exit another one
when it shares the entrance's cell).
"""

from __future__ import annotations

import re

import numpy as np

from laby3d.errors import ParameterError
from laby3d.maze.placement import PLACEMENTS
from laby3d.maze.shaped.model import ShapedMaze, ShapedOpening
from laby3d.maze.shaped.solve import distances_and_parents
from laby3d.tessellation import Tessellation


def _opening(tessellation: Tessellation, cell: int, avoid: ShapedOpening | None = None) -> ShapedOpening:
    """An opening in ``cell``'s first boundary wall (not ``avoid``'s own wall in the same cell)."""
    row, col = tessellation.cell_position(cell)
    sides = [tessellation.boundary_sides[wall] for wall in tessellation.boundary_walls_of(cell)]
    if avoid is not None and (avoid.row, avoid.col) == (row, col) and len(sides) > 1:
        sides = [side for side in sides if side != avoid.side]
    return ShapedOpening(row, col, sides[0])


def _farthest_boundary_cell(maze: ShapedMaze, start: int) -> int:
    """The boundary cell farthest from ``start`` along the maze (lowest index on ties)."""
    distance, _ = distances_and_parents(maze, start)
    boundary = np.unique(maze.tessellation.boundary_cells)
    return int(boundary[np.argmax(distance[boundary])])


def parse_shaped_opening(text: str, tessellation: Tessellation, field: str) -> ShapedOpening:
    """Parse ``"row,col,side"`` for ``tessellation`` (side among the cell's boundary sides, any
    case; omitted for a start or goal inside the maze)."""
    match = re.fullmatch(r"\s*(\d+)\s*,\s*(\d+)\s*(?:,\s*([A-Za-z]+))?\s*", text)
    shape = tessellation.shape.name
    if not match:
        example = "'0,0'" if shape == "theta" else "'0,0,W'"
        raise ParameterError(
            f"must look like 'row,col,side' or 'row,col', such as {example}, got {text!r}", field=field
        )
    row, col = int(match[1]), int(match[2])
    try:
        cell = tessellation.cell_index(row, col)
    except IndexError:
        raise ParameterError(f"there is no cell ({row}, {col}) in this {shape} maze", field=field) from None
    if match[3] is None:
        return ShapedOpening(row, col, None)
    sides = [tessellation.boundary_sides[wall] for wall in tessellation.boundary_walls_of(cell)]
    named = {side.casefold(): side for side in sides}
    side = named.get(match[3].casefold())
    if side is None:
        allowed = f"its boundary sides are {', '.join(sides)}" if sides else "it is not on the boundary"
        raise ParameterError(f"side {match[3]} of cell ({row}, {col}) is not on the boundary: {allowed}", field=field)
    return ShapedOpening(row, col, side)


def explicit_shaped_openings(
    entrance: str | None, exit: str | None, tessellation: Tessellation
) -> tuple[ShapedOpening, ShapedOpening]:
    """The openings of placement explicit: both given as ``"row,col,side"``, and distinct."""
    if entrance is None or exit is None:
        raise ParameterError("explicit needs both entrance and exit ('row,col,side')", field="placement")
    start = parse_shaped_opening(entrance, tessellation, "entrance")
    end = parse_shaped_opening(exit, tessellation, "exit")
    if start == end:
        raise ParameterError("must differ from the entrance", field="exit")
    return start, end


def place_shaped(
    maze: ShapedMaze, policy: str, rng: np.random.Generator, entrance: str | None = None, exit: str | None = None
) -> ShapedMaze:
    """``maze`` with entrance and exit placed by ``policy`` (one of :data:`PLACEMENTS`)."""
    t = maze.tessellation
    theta = maze.shape == "theta"
    last_row = t.rows - 1
    if policy == "corners":
        if theta:
            start, end = ShapedOpening(0, 0, None), ShapedOpening(last_row, 0, "out")
        else:
            start, end = ShapedOpening(0, 0, "W"), ShapedOpening(last_row, t.row_length(last_row) - 1, "E")
    elif policy == "opposite-sides":
        if theta:
            rim = t.row_length(last_row)
            col = int(rng.integers(rim))
            start, end = ShapedOpening(last_row, col, "out"), ShapedOpening(last_row, (col + rim // 2) % rim, "out")
        else:
            first, second = (int(rng.integers(t.rows)) for _ in range(2))
            start, end = ShapedOpening(first, 0, "W"), ShapedOpening(second, t.row_length(second) - 1, "E")
    elif policy == "center":
        middle = 0 if theta else t.cell_index(t.rows // 2, t.row_length(t.rows // 2) // 2)
        start = ShapedOpening(*t.cell_position(middle), None)
        end = _opening(t, _farthest_boundary_cell(maze, middle), start)
    elif policy == "hardest":
        first = _farthest_boundary_cell(maze, 0)
        start = _opening(t, first)
        end = _opening(t, _farthest_boundary_cell(maze, first), start)
    elif policy == "explicit":
        start, end = explicit_shaped_openings(entrance, exit, t)
    else:
        raise ParameterError(f"must be one of {', '.join(PLACEMENTS)}, got {policy!r}", field="placement")
    return maze.with_openings(start, end)
