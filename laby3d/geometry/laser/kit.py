"""The layered rolling-ball maze kit: base, stacked wall sheets, clear top; mm, y up.

Steps: (1) the ball and its play give the inside height, and the wall sheets needed to reach
it; (2) the wall sheet is the plate minus the corridors, with the entrance and exit closed in
the frame (one connected piece: the ball only leaves through a top hole); (3) base and top are
the plate, the top with a hole over the entrance and one over the exit; (4) optional alignment
holes at the same four frame corners in every layer; (5) the label goes where it can be seen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely

from laby3d.geometry.laser.options import LaserOptions, wall_layers_needed
from laby3d.geometry.laser.parts import Mark, Part, grown, text_marks
from laby3d.geometry.raster import EMPTY, FLOOR, PATH, WALL, Raster, maze_raster
from laby3d.geometry.text import text_outlines
from laby3d.geometry.trace import rings_to_shapely, trace

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze

#: Room left around a label on the plate, mm.
LABEL_INSET = 3.0


@dataclass(frozen=True, kw_only=True)
class Kit:
    """The parts of one kit (not yet grown by the kerf: ``layers``) and what it adds up to, mm."""

    layers: list[tuple[str, shapely.Geometry]]  # (part name, exact shape) from the bottom up
    parts: list[Part]  # grown by half the kerf, with their marks, in the same order
    plate: tuple[float, float]
    ball: float
    ball_play: float
    wall_layers: int
    inside_height: float
    registration: list[tuple[float, float]]  # alignment hole centres, mm
    label_on: str | None

    def report(self) -> dict[str, Any]:
        """What the kit is, for the laser report (JSON-ready)."""
        heights = {part.name: part.material.thickness for part in self.parts}
        return {
            "plate_mm": [round(v, 3) for v in self.plate],
            "ball_mm": self.ball,
            "ball_play_mm": self.ball_play,
            "wall_layers": self.wall_layers,
            "inside_height_mm": round(self.inside_height, 3),
            "stack_height_mm": round(sum(heights[name] for name, _ in self.layers), 3),
            "ball_holes_mm": round(self.ball + self.ball_play, 3),
            "registration_holes": [[round(x, 3), round(y, 3)] for x, y in self.registration],
            "label_on": self.label_on,
            "layers": [
                {"part": part.name, "material": part.material.name, "thickness_mm": part.material.thickness}
                for part in self.parts
            ],
        }


def ball_kit(maze: Maze, fab: Fabrication, options: LaserOptions, *, owner: str | None = None) -> Kit:
    """The kit of ``maze``: base, as many wall sheets as the ball needs, top (when asked)."""
    options.check(fab)
    width, depth = fab.outer_size(maze.rows, maze.cols)
    ball = options.ball_diameter(fab)
    layers = options.wall_layers or wall_layers_needed(ball + options.ball_play, options.wall_material.thickness)
    plate = shapely.box(0, 0, width, depth)
    holes = _registration_holes(fab, width, depth, options.registration_holes)
    radius = (options.registration_holes or 0.0) / 2
    drills = shapely.union_all([shapely.Point(c).buffer(radius, quad_segs=16) for c in holes])
    shapes = [("base", plate.difference(drills) if holes else plate)]
    walls = _wall_sheet(maze, fab, width, depth)
    walls = walls.difference(drills) if holes else walls
    shapes += [(f"walls {k + 1}" if layers > 1 else "walls", walls) for k in range(layers)]
    if options.top:
        shapes.append(
            ("top", plate.difference(shapely.union_all([*_ball_holes(maze, fab, ball + options.ball_play), drills])))
        )
    marks: dict[str, list[Mark]] = {name: [] for name, _ in shapes}
    if options.engrave_solution and maze.solution:
        from laby3d.maze.solve import solution_polyline

        line = solution_polyline(maze) * fab.cell_size + fab.wall_line
        marks["base"].append(
            Mark(operation="engrave-line", points=np.column_stack([line[:, 0], depth - line[:, 1]]), closed=False)
        )
    label_on = _place_label(maze, fab, options, shapes, marks, owner)
    materials = {"base": options.base_material, "top": options.top_material}
    parts = []
    for name, shape in shapes:
        cut = grown(shape, options.kerf)
        material = materials.get(name, options.wall_material)
        parts.append(
            Part(name=name, material=material, shape=cut, box=cut.bounds, marks=tuple(marks[name]), owner=owner)
        )
    return Kit(
        layers=shapes,
        parts=parts,
        plate=(width, depth),
        ball=ball,
        ball_play=options.ball_play,
        wall_layers=layers,
        inside_height=layers * options.wall_material.thickness,
        registration=holes,
        label_on=label_on,
    )


def _ball_holes(maze: Maze, fab: Fabrication, diameter: float) -> list[shapely.Geometry]:
    """Round holes of ``diameter`` mm over the entrance and exit cells (y up)."""
    return [
        shapely.Point(fab.cell_centre(o.row, o.col, rows=maze.rows)).buffer(diameter / 2, quad_segs=16)
        for o in (maze.entrance, maze.exit)
        if o is not None
    ]


def _wall_sheet(maze: Maze, fab: Fabrication, width: float, depth: float) -> shapely.Geometry:
    """Plate minus the corridors; everything outside the border walls (margin, entrance and
    exit gaps) belongs to the frame, so the sheet is one piece."""
    raster = maze_raster(maze, fab)
    corridors = np.isin(raster.labels, (FLOOR, PATH))
    frame = fab.margin + fab.wall_thickness
    x_mid = (raster.xs[:-1] + raster.xs[1:]) / 2
    y_mid = (raster.ys[:-1] + raster.ys[1:]) / 2
    inside = ((y_mid > frame) & (y_mid < depth - frame))[:, None] & ((x_mid > frame) & (x_mid < width - frame))[None, :]
    sheet = Raster(raster.xs, raster.ys, np.where(corridors & inside, EMPTY, WALL).astype(np.uint8))
    return rings_to_shapely(sheet, trace(sheet, [WALL]))


def _registration_holes(
    fab: Fabrication, width: float, depth: float, diameter: float | None
) -> list[tuple[float, float]]:
    """Centres of the alignment holes: the four corners of the frame, mm (none without a diameter)."""
    if diameter is None:
        return []
    inset = (fab.margin + fab.wall_thickness) / 2
    return [(inset, inset), (width - inset, inset), (width - inset, depth - inset), (inset, depth - inset)]


def _place_label(
    maze: Maze,
    fab: Fabrication,
    options: LaserOptions,
    shapes: list[tuple[str, shapely.Geometry]],
    marks: dict[str, list[Mark]],
    owner: str | None,
) -> str | None:
    """Engrave the label where it shows: on the clear top; else on the uppermost wall sheet's
    margin when the margin holds it; else mirrored under the base. Returns where it went."""
    text = owner if owner is not None else options.label
    if text is None:
        return None
    caption = f"{text}  ·  seed {maze.seed}" if text else f"laby3d seed {maze.seed}"
    width, _ = fab.outer_size(maze.rows, maze.cols)
    height = options.text_height
    room = width - 2 * (fab.margin + fab.wall_thickness + LABEL_INSET)
    rings = text_outlines(caption, height)
    if not rings:
        return None
    text_width = max(float(ring[:, 0].max()) for ring in rings)
    if text_width > room > 0:  # shrink to fit the plate
        scale = room / text_width
        rings = [ring * scale for ring in rings]
        height *= scale
    x = fab.margin + fab.wall_thickness + LABEL_INSET
    if options.top:
        marks["top"].extend(text_marks(rings, x, LABEL_INSET))
        return "top"
    if fab.margin >= height + 2.0:
        uppermost = shapes[-1][0]
        marks[uppermost].extend(text_marks(rings, x, (fab.margin - height) / 2))
        return uppermost
    marks["base"].extend(text_marks(rings, x, LABEL_INSET, mirrored_about=width / 2))
    return "base, underside (mirrored)"
