"""The layered ball kit and the outline of a theta, hex or triangle maze, mm, y up (squares:
:mod:`.kit`, whose kit this one is part for part).

Steps: (1) the frame (:mod:`.shaped_frame`): plate, key, dowel holes, text; (2) the maze's
footprint (:func:`laby3d.geometry.shaped_footprint.shaped_plan`: its walls with thickness, mitred
joins and square caps), moved onto the frame's plate; the corridors are the region inside the
outline's inner face less those walls, so the entrance and exit gaps stay closed by the frame
and every wall sheet is one piece (the ball only leaves through a top hole); (3) the wall sheet
is the plate less the corridors, base and top the plate, the top with a hole of ball + play over
the entrance's and the exit's cell centres (theta: the centre); every layer less the key; (4)
every part grown by half the kerf.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import shapely

from laby3d.errors import InternalError
from laby3d.geometry.laser.kit import Kit, kit_part_names, kit_parts
from laby3d.geometry.laser.options import LaserOptions, min_wall
from laby3d.geometry.laser.parts import Mark, Part, grown
from laby3d.geometry.laser.shaped_frame import HOLE_SEGMENTS, ShapedFrame, shaped_frame, shaped_plan_text

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze


def kit_frame_of(maze: Maze, fab: Fabrication, options: LaserOptions) -> ShapedFrame:
    """The frame of ``maze``'s kit (its shape and size alone)."""
    return shaped_frame(
        maze.shape,
        maze.rows,
        maze.cols,
        fab,
        min_wall=min_wall(options.wall_material),
        dowel=options.registration_holes,
    )


def corridors(maze: Maze, fab: Fabrication, frame: ShapedFrame) -> shapely.Geometry:
    """Where the ball rolls, on the frame's plate (mm): inside the outline's inner face, less
    the maze's walls."""
    from laby3d.geometry.shaped_footprint import shaped_plan

    plan = shaped_plan(maze, fab)
    shift = np.subtract(frame.plan.origin, plan.origin)
    walls = shapely.transform(plan.walls.geometry(), lambda points: points + shift)
    posts = [
        shapely.Point(p).buffer(fab.wall_thickness, quad_segs=HOLE_SEGMENTS) for p in _between_openings(maze, frame)
    ]
    region = frame.inside.difference(shapely.union_all([walls, *posts]))
    if shapely.get_num_geometries(region) != 1 or shapely.get_num_interior_rings(region) != 0:
        raise InternalError(f"the corridors of a {maze.shape} maze are not one piece without holes")
    return region


def _between_openings(maze: Maze, frame: ShapedFrame) -> np.ndarray:
    """``(k, 2)`` the outline's points (mm) where the entrance and the exit meet: a wall ending
    there touches the frame at a point only, so a post (a disc of the wall's thickness) ties it
    to the frame, as the border posts of a square kit do."""
    t = maze.tessellation
    ends = []
    for opening in (maze.entrance, maze.exit):
        wall = maze.boundary_wall_of(opening) if opening is not None else None
        if wall is not None:
            ends.append(
                {
                    int(t.boundary_vertices[t.boundary_starts[wall]]),
                    int(t.boundary_vertices[t.boundary_starts[wall + 1] - 1]),
                }
            )
    shared = sorted(ends[0] & ends[1]) if len(ends) == 2 else []
    return frame.plan.to_plan(t.vertices[shared]) if shared else np.zeros((0, 2))


def shaped_ball_kit(maze: Maze, fab: Fabrication, options: LaserOptions, *, tag: str | None = None) -> Kit:
    """The kit of a theta, hex or triangle ``maze`` (as :func:`.kit.ball_kit` for squares)."""
    options.check(fab, size=(maze.rows, maze.cols), seed=maze.seed, shape=maze.shape)
    frame = kit_frame_of(maze, fab, options)
    names = kit_part_names(fab, options, maze.shape)
    cuts = frame.cuts()
    plate = frame.plate.difference(cuts)
    walls = frame.plate.difference(corridors(maze, fab, frame)).difference(cuts)
    shapes = [(name, plate if name == "base" else walls) for name in names]
    if options.top:
        diameter = options.ball_diameter(fab, maze.shape) + options.ball_play
        centres = frame.plan.to_plan(
            maze.tessellation.centres[[maze.cell_of(o) for o in (maze.entrance, maze.exit) if o is not None]]
        )
        holes = [shapely.Point(c).buffer(diameter / 2, quad_segs=HOLE_SEGMENTS) for c in centres]
        shapes[-1] = ("top", frame.plate.difference(shapely.union_all([*holes, cuts])))
    marks: dict[str, list[Mark]] = {name: [] for name in names}
    if options.engrave_solution:
        from laby3d.maze.solve import solution_polyline

        line = frame.plan.to_plan(solution_polyline(maze))
        if len(line):
            marks["base"].append(Mark(operation="engrave-line", points=line, closed=False))
    label = options.label if tag is None else None
    engraving = shaped_plan_text(frame, names, label=label, seed=maze.seed, tag=tag, label_height=options.text_height)
    parts = kit_parts(shapes, engraving, marks, options, tag)
    wall_layers = len(names) - 1 - options.top
    return Kit(
        layers=shapes,
        parts=parts,
        plate=frame.size,
        ball=options.ball_diameter(fab, maze.shape),
        ball_play=options.ball_play,
        wall_layers=wall_layers,
        inside_height=wall_layers * options.wall_material.thickness,
        registration=list(frame.holes),
        notch=frame.notch_leg,
        label_on=engraving.label_on,
        layer_numbers=engraving.numbers,
        warnings=engraving.warnings,
    )


def kit_of(maze: Maze, fab: Fabrication, options: LaserOptions, *, tag: str | None = None) -> Kit:
    """The ball kit of a maze of any shape: :func:`.kit.ball_kit` for squares, else :func:`shaped_ball_kit`."""
    from laby3d.geometry.laser.kit import ball_kit

    if maze.tessellation.kind == "square":
        return ball_kit(maze, fab, options, tag=tag)
    return shaped_ball_kit(maze, fab, options, tag=tag)


def shaped_outline_part(maze: Maze, fab: Fabrication, options: LaserOptions) -> Part:
    """The walls' footprint of ``maze`` grown by half the kerf (outline mode)."""
    from laby3d.geometry.shaped_footprint import shaped_plan

    walls = grown(shaped_plan(maze, fab).walls.geometry(), options.kerf)
    return Part(name="walls", material=options.wall_material, shape=walls, box=walls.bounds)
