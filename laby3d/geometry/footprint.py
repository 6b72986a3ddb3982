"""The canonical wall footprint and the corridor region as shapely polygons, mm.

A ``t × t`` post on every lattice point plus a ``(cell_size − t) × t`` rectangle per closed
wall, border included. Traced from the maze's raster (see :mod:`laby3d.geometry.raster`), so
no boolean operation is needed: collinear walls come out merged, and the polygons are exact.

Coordinates: x to the right, y up; the plate spans ``[0, width] × [0, depth]`` and the maze's
top-left corner is at the top left seen from above.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import shapely

from laby3d.geometry.raster import FLOOR, PATH, WALL, maze_raster
from laby3d.geometry.trace import rings_to_shapely, trace
from laby3d.maze.grid import wall_lattice

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze


def closed_wall_count(maze: Maze) -> int:
    """Closed wall segments, border included."""
    horizontal, vertical = wall_lattice(maze.grid)
    return int(horizontal.sum() + vertical.sum())


def footprint_area(maze: Maze, fab: Fabrication) -> float:
    """Analytic footprint area, mm²: ``(rows+1)(cols+1)·t² + n_closed·(cell_size − t)·t``."""
    t = fab.wall_thickness
    return (maze.grid.rows + 1) * (maze.grid.cols + 1) * t * t + closed_wall_count(maze) * (fab.cell_size - t) * t


def footprint(maze: Maze, fab: Fabrication) -> shapely.MultiPolygon:
    """The walls' footprint (one polygon, or two when entrance and exit cut the border)."""
    raster = maze_raster(maze, fab)
    return rings_to_shapely(raster, trace(raster, [WALL]))


def corridors(maze: Maze, fab: Fabrication) -> shapely.MultiPolygon:
    """The floor not under a wall: plate minus footprint (with the margin band when margin > 0)."""
    raster = maze_raster(maze, fab)
    return rings_to_shapely(raster, trace(raster, [FLOOR, PATH]))


def plate(maze: Maze, fab: Fabrication) -> shapely.Polygon:
    """The base plate's outline, mm."""
    width, depth = fab.outer_size(maze.grid.rows, maze.grid.cols)
    return shapely.box(0.0, 0.0, width, depth)
