"""The solution strip of a maze of any shape, mm: a band along the solution's centre line on the
plan (:mod:`laby3d.geometry.plan`), cut into the floor (a groove) or raised from it (a ridge).

The line runs from the middle of the entrance's opening through each solution cell's centre and
the middle of the wall to the next, to the middle of the exit's opening (a start or goal inside
the maze: its cell's centre); the band is mitred at its turns and cut square at its ends.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from laby3d.errors import InternalError
from laby3d.geometry.thick_lines import thick_lines

if TYPE_CHECKING:
    from laby3d.geometry.plan import Plan
    from laby3d.maze.model import Maze


def solution_strip(maze: Maze, plan: Plan, width: float, wall: float) -> np.ndarray:
    """``(k, 2)`` the ring (mm, counter-clockwise) of the solution strip, ``width`` mm wide, along
    :func:`solution_line` (``wall``: the walls' thickness, mm): mitred at its turns, cut square
    at its ends (the middle of an opening's wall, or a start or goal inside)."""
    points = solution_line(maze, plan, width, wall)
    count = len(points)
    segments = np.stack([np.arange(count - 1), np.arange(1, count)], axis=1)
    xy, starts = thick_lines(points, segments, width / 2, np.zeros(count))
    if len(starts) != 2:
        raise InternalError("the solution strip is not one ring")
    return xy


def solution_line(maze: Maze, plan: Plan, width: float, wall: float) -> np.ndarray:
    """``(k, 2)`` the centre line (mm) of a solution strip ``width`` mm wide between walls ``wall``
    mm thick: from each solution cell's centre through the middle of the wall to the next (as
    :func:`laby3d.maze.solve.solution_polyline`). Where the line between two centres
    crosses their wall askew (a theta maze's neighbours in rings of different counts) it crosses
    square instead, from ``wall/2 + width/2`` mm before the wall's middle to as far beyond (less
    near a centre): askew, the strip would graze the doorway's side."""
    tessellation = maze.tessellation
    cells = maze.solution_cells
    centres = plan.to_plan(tessellation.centres[cells])

    def crossing(polyline: np.ndarray, middle: np.ndarray, before: np.ndarray, after: np.ndarray) -> list[np.ndarray]:
        """The points where the line from ``before`` to ``after`` crosses the wall ``polyline``
        (pitch units) at ``middle`` (mm): the middle, or two points square across it."""
        ends = plan.to_plan(polyline[[0, -1]])
        chord = (ends[1] - ends[0]) / math.hypot(*(ends[1] - ends[0]))
        normal = np.array([-chord[1], chord[0]])
        if (after - before) @ normal < 0:
            normal = -normal
        onward = (after - before) / math.hypot(*(after - before))
        if abs(onward @ chord) < 1e-9:
            return [middle]
        reach = min(wall / 2 + width / 2, 0.45 * math.hypot(*(middle - before)), 0.45 * math.hypot(*(after - middle)))
        return [middle - reach * normal, middle + reach * normal]

    line: list[np.ndarray] = []
    walls = tessellation.edge_indices(np.stack([cells[:-1], cells[1:]], axis=1))
    entrance, exit_ = maze.boundary_wall_of(maze.entrance), maze.boundary_wall_of(maze.exit)
    if entrance is not None:
        middle = plan.to_plan(tessellation.boundary_midpoints[entrance])[0]
        line += [middle, *crossing(tessellation.boundary_polyline(entrance), middle, middle, centres[0])[1:]]
    for index, centre in enumerate(centres):
        line.append(centre)
        if index < len(walls):
            middle = plan.to_plan(tessellation.wall_midpoints[walls[index]])[0]
            line += crossing(tessellation.wall_polyline(walls[index]), middle, centre, centres[index + 1])
    if exit_ is not None:
        middle = plan.to_plan(tessellation.boundary_midpoints[exit_])[0]
        line += [*crossing(tessellation.boundary_polyline(exit_), middle, centres[-1], middle)[:-1], middle]
    return np.array(line)
