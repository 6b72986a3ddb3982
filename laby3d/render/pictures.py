"""matplotlib pictures of a maze: PNG, PDF, PS; cell (0, 0) at the top left, unit squares.

matplotlib is imported here only, when a picture is asked for.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from laby3d.maze.solve import distance_map, solution_polyline
from laby3d.maze.walls import wall_segments

if TYPE_CHECKING:
    from laby3d.maze.model import Maze

_METADATA = {  # fixed metadata: the same maze gives the same bytes
    "png": {"Software": None},
    "pdf": {"Creator": None, "Producer": None, "CreationDate": None},
    "ps": {"Creator": None, "CreationDate": None},
}


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
