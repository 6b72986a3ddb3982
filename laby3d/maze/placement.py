"""Where the entrance and exit go: placement policies."""

from __future__ import annotations

import re
from typing import Literal, get_args

import numpy as np

from laby3d.errors import ParameterError
from laby3d.maze.model import Maze, Opening, Side
from laby3d.maze.solve import distance_map

#: Where the entrance and exit go.
Placement = Literal["corners", "opposite-sides", "center", "hardest", "explicit"]
PLACEMENTS: tuple[str, ...] = get_args(Placement)


def border_sides(row: int, col: int, rows: int, cols: int) -> list[Side]:
    """Border sides of cell ``(row, col)``, in the order W, E, N, S."""
    sides: list[Side] = []
    for side, on_border in (("W", col == 0), ("E", col == cols - 1), ("N", row == 0), ("S", row == rows - 1)):
        if on_border:
            sides.append(side)  # type: ignore[arg-type]
    return sides


def _exit_opening(cell: tuple[int, int], entrance: Opening, rows: int, cols: int) -> Opening:
    """An opening on ``cell``'s border, not the entrance's own side when the cells coincide."""
    sides = border_sides(*cell, rows, cols)
    if (entrance.row, entrance.col) == cell and len(sides) > 1:
        sides = [side for side in sides if side != entrance.side]
    return Opening(cell[0], cell[1], sides[0])


def parse_opening(text: str, rows: int, cols: int, field: str) -> Opening:
    """Parse ``"row,col,side"`` (side N/E/S/W on the border, or omitted for an inner cell)."""
    match = re.fullmatch(r"\s*(\d+)\s*,\s*(\d+)\s*(?:,\s*([NESWnesw]))?\s*", text)
    if not match:
        raise ParameterError(f"must look like 'row,col,side' such as '0,0,W', got {text!r}", field=field)
    row, col = int(match[1]), int(match[2])
    side = match[3].upper() if match[3] else None
    if not (0 <= row < rows and 0 <= col < cols):
        raise ParameterError(f"cell must be within 0..{rows - 1}, 0..{cols - 1}, got {row},{col}", field=field)
    if side is not None and side not in border_sides(row, col, rows, cols):
        raise ParameterError(f"side {side} of cell ({row}, {col}) is not on the border", field=field)
    return Opening(row, col, side)  # type: ignore[arg-type]


def explicit_openings(entrance: str | None, exit: str | None, rows: int, cols: int) -> tuple[Opening, Opening]:
    """The openings of placement explicit: both given as ``"row,col,side"``, and distinct."""
    if entrance is None or exit is None:
        raise ParameterError("explicit needs both entrance and exit ('row,col,side')", field="placement")
    start = parse_opening(entrance, rows, cols, "entrance")
    end = parse_opening(exit, rows, cols, "exit")
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
    maze: Maze,
    policy: str,
    rng: np.random.Generator,
    entrance: str | None = None,
    exit: str | None = None,
) -> Maze:
    """``maze`` with entrance and exit placed by ``policy`` (one of :data:`PLACEMENTS`)."""
    rows, cols = maze.rows, maze.cols
    check_unused_openings(policy, entrance, exit)
    if policy == "corners":
        start = Opening(0, 0, "W")
        end = Opening(rows - 1, cols - 1, "E")
    elif policy == "opposite-sides":
        start = Opening(int(rng.integers(rows)), 0, "W")
        end = Opening(int(rng.integers(rows)), cols - 1, "E")
    elif policy == "center":
        start = Opening(rows // 2, cols // 2, None)
        far = _farthest_border_cell(maze, (start.row, start.col))
        end = _exit_opening(far, start, rows, cols)
    elif policy == "hardest":
        first = _farthest_border_cell(maze, (0, 0))
        second = _farthest_border_cell(maze, first)
        start = Opening(first[0], first[1], border_sides(*first, rows, cols)[0])
        end = _exit_opening(second, start, rows, cols)
    elif policy == "explicit":
        start, end = explicit_openings(entrance, exit, rows, cols)
    else:
        raise ParameterError(f"must be one of {', '.join(PLACEMENTS)}, got {policy!r}", field="placement")
    return maze.with_openings(start, end)


def _farthest_border_cell(maze: Maze, start: tuple[int, int]) -> tuple[int, int]:
    """The border cell farthest from ``start`` along the maze (first in row-major order on ties)."""
    distance = distance_map(maze, start).astype(np.int64)
    border = np.zeros(distance.shape, dtype=bool)
    border[0, :] = border[-1, :] = border[:, 0] = border[:, -1] = True
    flat = np.where(border, distance, -1).ravel()
    index = int(np.argmax(flat))
    return index // maze.cols, index % maze.cols
