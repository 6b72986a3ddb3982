"""Theta, hex and triangle mazes on laser sheets (squares keep their own code, byte for byte).

The maze sits on a plate (mm, y up) that holds its tessellation's bounding box
(:meth:`Fabrication.outer_size`), half a wall and the margin around it, as a square maze's
does. Lines mode draws the closed walls (the outline minus the openings included) along their
centre lines in as few strokes as the odd-vertex bound (:mod:`.euler`). Theta's arcs are the
tessellation's polylines (chord error at most 0.005 cell sizes, 0.05 mm at 10 mm cells: under
any kerf), not SVG or DXF arcs: every later stage (travel order, nesting, the files' single
path per layer, the preview) takes polylines, and laser programs turn arcs into segments anyway.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from laby3d.geometry.laser.euler import euler_strokes
from laby3d.geometry.laser.parts import Mark, Part

if TYPE_CHECKING:
    from laby3d.geometry.laser.options import LaserOptions
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze


def to_plate(points: np.ndarray, fab: Fabrication, depth: float) -> np.ndarray:
    """Tessellation points (cell sizes, y down) → plate points (mm, y up)."""
    pad = fab.wall_line
    return np.column_stack([pad + points[:, 0] * fab.cell_size, depth - pad - points[:, 1] * fab.cell_size])


def shaped_lines_part(maze: Maze, fab: Fabrication, options: LaserOptions) -> Part:
    """The drawing of ``maze`` for lines mode: every closed wall once, in the fewest strokes,
    as the line operation asked for; the solution engraved when asked."""
    from laby3d.maze.walls import closed_walls

    width, depth = fab.outer_size(maze.rows, maze.cols, shape=maze.shape)
    walls = closed_walls(maze)
    points = to_plate(walls.vertices, fab, depth)
    operation = "outer-cut" if options.line_operation == "cut" else options.line_operation
    marks = [
        Mark(operation=operation, points=points[ids], closed=closed)
        for ids, closed in euler_strokes(walls.vertices, walls.segments())
    ]
    if options.engrave_solution:
        from laby3d.maze.solve import solution_polyline

        line = solution_polyline(maze)
        if len(line):
            marks.append(Mark(operation="engrave-line", points=to_plate(line, fab, depth), closed=False))
    return Part(
        name="drawing", material=options.wall_material, shape=None, box=(0.0, 0.0, width, depth), marks=tuple(marks)
    )
