"""A square maze as a grid of bit masks: the view of :attr:`laby3d.Maze.grid` for what is square
by nature (text art, the class exercise's N/E/S/O forms, the version-1 maze file, the square
renderers), and the closed walls on the lattice of cell corners.

``cells[row, col]`` is a bit mask of the cell's open sides (:data:`N`, :data:`E`, :data:`S`,
:data:`W`, docs/maze-file.md): both cells of an open wall carry its bit; border bits are set only
at the entrance and the exit. Lattice point ``(i, j)`` is the top-left corner of cell ``(i, j)``;
there are ``(rows + 1) × (cols + 1)`` of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.errors import ParameterError
from laby3d.maze.sides import SIDE_BITS
from laby3d.tessellation import tessellate

if TYPE_CHECKING:
    from laby3d.maze.model import Maze, Opening

N, E, S, W = (SIDE_BITS[name] for name in ("N", "E", "S", "W"))


@dataclass(frozen=True, eq=False)
class SquareGrid:
    """A square maze's open sides per cell (read-only), with its entrance and exit."""

    rows: int
    cols: int
    #: ``(rows, cols)`` uint8 bit masks of the open sides, border bits at the openings.
    cells: np.ndarray
    entrance: Opening | None
    exit: Opening | None

    @cached_property
    def open_east(self) -> np.ndarray:
        """``(rows, cols − 1)`` bool: the wall between ``(r, c)`` and ``(r, c + 1)`` is open."""
        return (self.cells[:, :-1] & E).astype(bool)

    @cached_property
    def open_south(self) -> np.ndarray:
        """``(rows − 1, cols)`` bool: the wall between ``(r, c)`` and ``(r + 1, c)`` is open."""
        return (self.cells[:-1, :] & S).astype(bool)


def grid_of(maze: Maze) -> SquareGrid:
    """The bit masks of a square ``maze``; raises :class:`ParameterError` for another shape."""
    if maze.tessellation.kind != "square":
        what = "cut by an outline" if maze.shape == "square" else maze.shape
        raise ParameterError(f"only a whole square board has a grid of bit masks, this one is {what}", field="maze")
    rows, cols = maze.rows, maze.cols or 0
    edges = maze.tessellation.edges[maze.open_walls].astype(np.int64)
    flat = np.zeros(rows * cols, dtype=np.uint8)
    east = (edges[:, 1] == edges[:, 0] + 1) & (edges[:, 0] % cols < cols - 1)
    for subset, low_bit, high_bit in ((edges[east], E, W), (edges[~east], S, N)):
        flat[subset[:, 0]] |= low_bit
        flat[subset[:, 1]] |= high_bit
    cells = flat.reshape(rows, cols)
    for opening in (maze.entrance, maze.exit):
        if opening is not None and opening.side is not None:
            cells[opening.row, opening.col] |= SIDE_BITS[opening.side]
    cells.setflags(write=False)
    return SquareGrid(rows, cols, cells, maze.entrance, maze.exit)


def interior_only(cells: np.ndarray) -> np.ndarray:
    """A copy of ``cells`` with every border bit cleared."""
    cells = np.array(cells, dtype=np.uint8)
    cells[0, :] &= ~np.uint8(N)
    cells[-1, :] &= ~np.uint8(S)
    cells[:, 0] &= ~np.uint8(W)
    cells[:, -1] &= ~np.uint8(E)
    return cells


def maze_from_cells(cells: Any, **more: Any) -> Maze:
    """The square maze of the bit masks ``cells`` (see :meth:`laby3d.Maze.from_cells`)."""
    from laby3d.maze.model import Maze

    try:
        array = np.asarray(cells)
    except (TypeError, ValueError):
        array = np.empty(0, dtype=object)
    if array.ndim != 2 or not np.issubdtype(array.dtype, np.integer):
        raise ParameterError(f"must be a (rows, cols) array of integers, got shape {array.shape}", field="cells")
    if array.size and (array.min() < 0 or array.max() > 15):
        raise ParameterError("must hold bit masks 0..15 (N=1 E=2 S=4 W=8)", field="cells")
    masks = array.astype(np.uint8)
    tessellation = tessellate("square", *masks.shape)  # checks the size
    open_walls = np.zeros(len(tessellation.edges), dtype=bool)
    open_walls[tessellation.edge_indices(east_and_south_pairs(masks))] = True
    maze = Maze(tessellation, open_walls, **more)
    if not np.array_equal(maze.grid.cells, masks):  # one side of a wall only, or a stray border bit
        raise ParameterError(
            "must open each wall from both of its cells, and the border only at the entrance and the exit",
            field="cells",
        )
    return maze


def east_and_south_pairs(cells: np.ndarray) -> np.ndarray:
    """``(k, 2)`` cell-index pairs of the walls open east and south of each cell of ``cells``
    (the bits of the first cell of each wall)."""
    rows, cols = cells.shape
    index = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
    east, south = (cells[:, :-1] & E) > 0, (cells[:-1, :] & S) > 0
    return np.concatenate(
        [np.stack([index[:, :-1][east], index[:, 1:][east]], 1), np.stack([index[:-1][south], index[1:][south]], 1)]
    )


def wall_lattice(grid: SquareGrid) -> tuple[np.ndarray, np.ndarray]:
    """Closed walls: horizontal ``(rows + 1, cols)`` and vertical ``(rows, cols + 1)`` bool.

    ``horizontal[i, j]`` joins lattice points ``(i, j)`` and ``(i, j + 1)``;
    ``vertical[i, j]`` joins ``(i, j)`` and ``(i + 1, j)``. Border walls are included, with the
    entrance and exit left open.
    """
    cells = grid.cells
    horizontal = np.concatenate([(cells & N) == 0, ((cells[-1:] & S) == 0)], axis=0)
    vertical = np.concatenate([(cells & W) == 0, ((cells[:, -1:] & E) == 0)], axis=1)
    return horizontal, vertical


def _runs_along_rows(mask: np.ndarray) -> np.ndarray:
    """Maximal runs of True along each row of ``mask``: ``(k, 3)`` int64 rows (row, start, stop)."""
    padded = np.zeros((mask.shape[0], mask.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = mask
    change = np.diff(padded, axis=1)
    start_rows, starts = np.nonzero(change == 1)
    _, stops = np.nonzero(change == -1)
    return np.stack([start_rows, starts, stops], axis=1)


def wall_runs(grid: SquareGrid) -> tuple[np.ndarray, np.ndarray]:
    """Closed walls merged into maximal straight runs, in lattice units.

    Returns ``horizontal`` rows ``(i, j0, j1)`` (from lattice point (i, j0) to (i, j1)) and
    ``vertical`` rows ``(j, i0, i1)`` (from (i0, j) to (i1, j)), each ``(k, 3)`` int64.
    """
    horizontal, vertical = wall_lattice(grid)
    return _runs_along_rows(horizontal), _runs_along_rows(vertical.T)


def wall_segments(grid: SquareGrid) -> np.ndarray:
    """``(k, 2, 2)`` wall runs as (x, y) end points in cell units (x = column, y = row)."""
    return lattice_segments(*wall_lattice(grid))


def lattice_segments(horizontal: np.ndarray, vertical: np.ndarray) -> np.ndarray:
    """``(k, 2, 2)`` maximal runs of the walls marked in ``horizontal`` ``(rows + 1, cols)`` and
    ``vertical`` ``(rows, cols + 1)`` (as :func:`wall_lattice` gives them), as (x, y) end points
    in cell units."""
    horizontal, vertical = _runs_along_rows(horizontal), _runs_along_rows(vertical.T)
    h = np.stack([horizontal[:, [1, 0]], horizontal[:, [2, 0]]], axis=1)
    v = np.stack([vertical[:, [0, 1]], vertical[:, [0, 2]]], axis=1)
    return np.concatenate([h, v]).astype(float)


def centre_line(maze: Maze) -> np.ndarray:
    """``(k, 2)`` points (x, y), cell units, of a square maze's solution: through the solution's
    cell centres, out through the openings to the middle of their border walls."""
    from laby3d.maze.sides import outward

    points = [(c + 0.5, r + 0.5) for r, c in maze.solution]
    if maze.entrance and maze.entrance.side and points:
        dx, dy = outward(maze.entrance.side)  # type: ignore[arg-type]
        points.insert(0, (points[0][0] + dx / 2, points[0][1] + dy / 2))
    if maze.exit and maze.exit.side and points:
        dx, dy = outward(maze.exit.side)  # type: ignore[arg-type]
        points.append((points[-1][0] + dx / 2, points[-1][1] + dy / 2))
    return np.array(points, dtype=float).reshape(-1, 2)
