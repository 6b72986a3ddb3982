"""matplotlib pictures of a maze: PNG, PDF, PS; cell (0, 0) at the top left, unit squares.

matplotlib is imported here only, when a picture is asked for.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import numpy as np

from laby3d.maze.solve import distance_map
from laby3d.maze.walls import wall_runs

if TYPE_CHECKING:
    from laby3d.maze.model import Maze

PICTURE_FORMATS = ("png", "pdf", "ps")
_METADATA = {  # fixed metadata: the same maze gives the same bytes
    "png": {"Software": None},
    "pdf": {"Creator": None, "Producer": None, "CreationDate": None},
    "ps": {"Creator": None, "CreationDate": None},
}


def wall_segments(maze: Maze) -> np.ndarray:
    """``(k, 2, 2)`` wall runs as (x, y) end points in cell units (x = column, y = row)."""
    horizontal, vertical = wall_runs(maze)
    h = np.stack([horizontal[:, [1, 0]], horizontal[:, [2, 0]]], axis=1)
    v = np.stack([vertical[:, [0, 1]], vertical[:, [0, 2]]], axis=1)
    return np.concatenate([h, v]).astype(float)


def solution_polyline(maze: Maze) -> np.ndarray:
    """``(k, 2)`` points (x, y) through the solution's cell centres, out through the openings."""
    points = [(c + 0.5, r + 0.5) for r, c in maze.solution]
    offsets = {"N": (0, -0.5), "S": (0, 0.5), "W": (-0.5, 0), "E": (0.5, 0)}
    if maze.entrance and maze.entrance.side and points:
        dx, dy = offsets[maze.entrance.side]
        points.insert(0, (points[0][0] + dx, points[0][1] + dy))
    if maze.exit and maze.exit.side and points:
        dx, dy = offsets[maze.exit.side]
        points.append((points[-1][0] + dx, points[-1][1] + dy))
    return np.array(points, dtype=float).reshape(-1, 2)


def maze_picture(maze: Maze, fmt: str, *, solution: bool = False, heatmap: bool = False, dpi: int = 100) -> bytes:
    """The maze drawn with matplotlib, as ``fmt`` bytes (png, pdf or ps)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.collections import LineCollection
    from matplotlib.figure import Figure

    scale = min(0.25, 12.0 / max(maze.rows, maze.cols))
    figure = Figure(figsize=(maze.cols * scale + 0.4, maze.rows * scale + 0.4))
    FigureCanvasAgg(figure)
    axes = figure.add_axes((0.02, 0.02, 0.96, 0.96))
    if heatmap:
        axes.imshow(distance_map(maze), cmap="viridis", extent=(0, maze.cols, maze.rows, 0), interpolation="nearest")
    line_width = max(0.3, min(2.0, 150.0 / max(maze.rows, maze.cols)))
    axes.add_collection(
        LineCollection(list(wall_segments(maze)), colors="black", linewidths=line_width, capstyle="projecting")
    )
    if solution:
        path = solution_polyline(maze)
        axes.plot(path[:, 0], path[:, 1], color="crimson", linewidth=line_width)
    axes.set_xlim(-0.1, maze.cols + 0.1)
    axes.set_ylim(maze.rows + 0.1, -0.1)
    axes.set_aspect("equal")
    axes.set_axis_off()
    buffer = io.BytesIO()
    figure.savefig(buffer, format=fmt, dpi=dpi, metadata=_METADATA[fmt])
    return buffer.getvalue()
