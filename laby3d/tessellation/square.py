"""The square grid: today's mazes. Cell ``(row, col)`` has index ``row·cols + col``; its corners
are lattice points ``(row, col)`` to ``(row + 1, col + 1)`` at x = column, y = row, so its walls
are exactly those of :mod:`laby3d.maze.walls`. The cell size is the side of a square."""

from __future__ import annotations

import numpy as np

from laby3d.tessellation.base import CellGraph, CellLayout, Shape, Walls, frozen


def square_graph(rows: int, cols: int) -> CellGraph:
    """Cells ``rows × cols``; east and south neighbours, listed cell by cell (east before south),
    which is the edge table's lexicographic order without sorting it."""
    first = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
    east = np.ones((rows, cols), dtype=bool)
    east[:, -1] = False
    south = np.ones((rows, cols), dtype=bool)
    south[-1, :] = False
    take = np.stack([east, south], axis=2).ravel()
    second = np.stack([first + 1, first + cols], axis=2).ravel()[take]
    edges = np.stack([np.repeat(first.ravel(), 2)[take], second], axis=1)
    return CellGraph(rows * cols, frozen(edges, np.int32).reshape(-1, 2), frozen(np.arange(rows + 1) * cols, np.int64))


def square_edge_index(rows: int, cols: int, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """The wall index of each pair ``(low, high)`` in :func:`square_graph`'s order, by
    arithmetic; −1 where the two cells are not neighbours.

    >>> square_edge_index(2, 3, np.array([0, 0, 2, 3, 0]), np.array([1, 3, 5, 4, 4])).tolist()
    [0, 1, 4, 5, -1]
    """
    row, col = np.divmod(low, cols)
    east = (high == low + 1) & (col < cols - 1)
    south = high == low + cols
    per_row = 2 * cols - 1  # the east and south walls of a row but the last
    index = np.where(
        row < rows - 1,
        row * per_row + 2 * col + np.where(east | (col == cols - 1), 0, 1),
        (rows - 1) * per_row + col,
    )
    return np.where(east | (south & (row < rows - 1)), index, -1)


def square_layout(rows: int, cols: int) -> CellLayout:
    """Unit squares, corners in the order top-left, top-right, bottom-right, bottom-left; the
    vertices are the lattice points row by row (what :func:`lattice_layout` numbers them, by
    arithmetic: vertex ``i·(cols + 1) + j`` is lattice point ``(i, j)``)."""
    row, col = np.divmod(np.arange(rows * cols, dtype=np.int64), cols)
    top_left = row * (cols + 1) + col
    corners = np.stack([top_left, top_left + 1, top_left + cols + 2, top_left + cols + 1], axis=1)
    i, j = np.divmod(np.arange((rows + 1) * (cols + 1), dtype=np.int64), cols + 1)
    return CellLayout(
        vertices=frozen(np.stack([j, i], axis=1), np.float64),
        polygon_starts=frozen(np.arange(rows * cols + 1) * 4, np.int64),
        polygon_vertices=frozen(corners.ravel(), np.int32),
        corner=frozen(np.ones(len(i), dtype=bool), bool),
        centres=frozen(np.stack([col + 0.5, row + 0.5], axis=1), np.float64),
    )


def square_walls(rows: int, cols: int) -> Walls:
    """The walls of :func:`square_layout`, by arithmetic: each interior wall from the first
    cell's polygon (an east wall downwards, a south wall westwards), the boundary clockwise from
    the top-left corner (N along the top, E down the right, S along the bottom, W up the left)."""
    width = cols + 1
    edges = square_graph(rows, cols).edges.astype(np.int64)
    row, col = np.divmod(edges[:, 0], cols)
    east = (edges[:, 1] == edges[:, 0] + 1) & (col < cols - 1)
    corner = (row + 1) * width + col + 1  # bottom-right corner of the first cell
    first = np.where(east, corner - width, corner)
    second = np.where(east, corner, corner - 1)
    top, right = np.arange(cols), np.arange(rows)
    sides = ("N",) * cols + ("E",) * rows + ("S",) * cols + ("W",) * rows
    cells = np.concatenate([top, right * cols + cols - 1, (rows - 1) * cols + top[::-1], right[::-1] * cols])
    starts = np.concatenate([top, right * width + cols, rows * width + top[::-1] + 1, (right[::-1] + 1) * width])
    stops = np.concatenate([top + 1, (right + 1) * width + cols, rows * width + top[::-1], right[::-1] * width])
    return Walls(
        wall_starts=frozen(np.arange(len(edges) + 1) * 2, np.int64),
        wall_vertices=frozen(np.stack([first, second], axis=1).ravel(), np.int32),
        boundary_cells=frozen(cells, np.int32),
        boundary_sides=sides,
        boundary_starts=frozen(np.arange(len(cells) + 1) * 2, np.int64),
        boundary_vertices=frozen(np.stack([starts, stops], axis=1).ravel(), np.int32),
        by_cell_side={(int(cell), side): index for index, (cell, side) in enumerate(zip(cells, sides, strict=True))},
    )


def square_boundary_sides(rows: int, cols: int, row: int, col: int) -> list[str]:
    """The border sides of cell ``(row, col)``, in the order W, E, N, S."""
    on_border = {"W": col == 0, "E": col == cols - 1, "N": row == 0, "S": row == rows - 1}
    return [side for side, found in on_border.items() if found]


SQUARE = Shape(
    name="square",
    description="the square grid, rows × cols",
    graph=square_graph,
    layout=square_layout,
    side_angles={"E": 0.0, "S": 90.0, "W": 180.0, "N": 270.0},
    max_rows=2000,
    max_cols=2000,
    edge_index=square_edge_index,
    side_order=("W", "E", "N", "S"),
    boundary_sides=square_boundary_sides,
    walls=square_walls,
)
