"""A maze's walls on the laser's plate (mm, x right, y up, the plate's box from (0, 0)), and the
one table of the laser sheets' specialised code.

Every laser renderer (:mod:`.lines`, :mod:`.kit`, outline mode in :mod:`.sheets`) is written
against the cell graph; what a tessellation kind does its own way is chosen here, in
:data:`WALL_PLANS`, keyed by tessellation kind as :data:`laby3d.export.formats.SOLIDS` is
(``"any"``: the code for every shape). The table sits with the laser geometry rather than in the
format table because the sheets are made below the format layer too (a batch's class sheets, the
class server's class set, :func:`laby3d.geometry.laser.laser_sheets` called directly) with no
render context to carry an entry down. Entries:

- ``footprint``: the closed walls with their thickness (outline mode, a kit's wall sheets). The
  square grid keeps its exact labelled raster (:mod:`laby3d.geometry.raster`), posts at every
  lattice point, 0.43 s against the plan's 3.8 s at 300×300 (median of 3, load 7.9); every other kind
  takes the plan geometry (:func:`laby3d.geometry.plan.maze_plan`, imported in this
  module only), mitred joins and square caps.
- ``order``: the stroke order of lines mode. Square lattice points are exact in the files'
  0.1 µm digits, so :func:`.travel.ordered` (greedy, then 2-opt, never longer than the greedy
  it starts from) is what a reader of the file sees; other shapes' points are rounded there and
  :func:`.travel.restarted` orders them again until the file's own greedy order is no shorter
  (2.5× the time on a 300×300 square, for the same travel).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from laby3d.geometry.laser.travel import ordered, restarted

if TYPE_CHECKING:
    import shapely

    from laby3d.geometry.laser.drawing import Drawing
    from laby3d.geometry.params import Fabrication
    from laby3d.geometry.plan import Plan
    from laby3d.maze.model import Maze


@dataclass(frozen=True, kw_only=True)
class WallPlan:
    """How a tessellation kind's walls become laser geometry (see the module docstring)."""

    #: the closed walls with their thickness, on the plate (mm, y up)
    footprint: Callable[[Maze, Fabrication], shapely.Geometry]
    #: lines mode's stroke order (a copy of the page)
    order: Callable[[Drawing], Drawing]


def raster_footprint(maze: Maze, fab: Fabrication) -> shapely.Geometry:
    """A square maze's walls and posts, traced from its exact raster, mm."""
    from laby3d.geometry.raster import WALL, maze_raster
    from laby3d.geometry.trace import rings_to_shapely, trace

    raster = maze_raster(maze, fab)
    return rings_to_shapely(raster, trace(raster, [WALL]))


def plan_footprint(maze: Maze, fab: Fabrication) -> shapely.Geometry:
    """Any maze's walls as its plan draws them, mm."""
    return plan_of(maze, fab).walls.geometry()


def plan_of(maze: Maze, fab: Fabrication) -> Plan:
    """The plan of ``maze``: walls, floor, plate, and the map from tessellation points to mm."""
    from laby3d.geometry.plan import maze_plan

    return maze_plan(maze, fab)


#: What each tessellation kind does its own way on the laser sheets ("any": every other kind).
WALL_PLANS: dict[str, WallPlan] = {
    "square": WallPlan(footprint=raster_footprint, order=ordered),
    "any": WallPlan(footprint=plan_footprint, order=restarted),
}


def wall_plan(maze: Maze) -> WallPlan:
    """The entry of :data:`WALL_PLANS` for ``maze``'s tessellation: its kind's own, else ``any``'s."""
    return WALL_PLANS.get(maze.tessellation.kind, WALL_PLANS["any"])


def wall_footprint(maze: Maze, fab: Fabrication) -> shapely.Geometry:
    """``maze``'s closed walls with their thickness on the plate, mm."""
    return wall_plan(maze).footprint(maze, fab)
