"""The layered rolling-ball maze kit: base, stacked wall sheets, clear top; mm, y up.

Steps: (1) the ball and its play give the inside height, and the wall sheets needed to reach
it; (2) the wall sheet is the plate minus the corridors, with the entrance and exit closed in
the frame (one connected piece: the ball only leaves through a top hole); (3) base and top are
the plate, the top with a hole over the entrance and one over the exit; (4) every layer keyed
alike (:mod:`.engraving`): a notch at one corner, dowel holes (optional) lining up only one way
round; (5) layer numbers, and the label or a pupil's name tag, where they can be read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely

from laby3d.geometry.laser.engraving import Engraving, Frame, dowel_centres, notch, notch_size, plan
from laby3d.geometry.laser.options import LaserOptions, min_wall, wall_layers_needed
from laby3d.geometry.laser.parts import Mark, Part, grown
from laby3d.geometry.raster import EMPTY, FLOOR, PATH, WALL, Raster, maze_raster
from laby3d.geometry.trace import rings_to_shapely, trace

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze


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
    notch: float  # the orientation notch's leg along the top edge from the top-left corner, mm
    label_on: str | None
    layer_numbers: bool
    warnings: list[str] = field(default_factory=list)

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
            "orientation_notch_mm": self.notch,
            "layer_numbers": self.layer_numbers,
            "label_on": self.label_on,
            "layers": [
                {"part": part.name, "material": part.material.name, "thickness_mm": part.material.thickness}
                for part in self.parts
            ],
            "warnings": self.warnings,
        }


def kit_frame(fab: Fabrication, rows: int, cols: int, options: LaserOptions) -> Frame:
    """The plate of a ``rows × cols`` kit and its key: frame band, notch, dowel holes, mm."""
    width, depth = fab.outer_size(rows, cols)
    band = fab.margin + fab.wall_thickness
    notch = notch_size(band, min_wall(options.wall_material))
    diameter = options.registration_holes
    holes = dowel_centres(width, depth, band, diameter, notch) if diameter is not None else []
    return Frame(
        width=width,
        depth=depth,
        band=band,
        wall=fab.wall_thickness,
        notch=notch,
        holes=tuple(holes),
        hole=diameter or 0.0,
    )


def kit_part_names(fab: Fabrication, options: LaserOptions, shape: str = "square") -> list[str]:
    """The kit's parts bottom up: base, the wall sheets the ball needs, the top when asked."""
    ball = options.ball_diameter(fab, shape)
    layers = options.wall_layers or wall_layers_needed(ball + options.ball_play, options.wall_material.thickness)
    walls = [f"walls {k + 1}" if layers > 1 else "walls" for k in range(layers)]
    return ["base", *walls, *(["top"] if options.top else [])]


def ball_kit(maze: Maze, fab: Fabrication, options: LaserOptions, *, tag: str | None = None) -> Kit:
    """The kit of ``maze``: base, as many wall sheets as the ball needs, top (when asked). With a
    ``tag`` (a class set's pupil) every part carries that name and no label; else the label, if
    any, goes on one part."""
    options.check(fab, size=(maze.rows, maze.cols), seed=maze.seed)
    frame = kit_frame(fab, maze.grid.rows, maze.grid.cols, options)
    names = kit_part_names(fab, options)
    width, depth = frame.width, frame.depth
    plate = shapely.box(0, 0, width, depth)
    key = shapely.Polygon(notch(width, depth, frame.notch))
    radius = frame.hole / 2
    cuts = shapely.union_all([key, *(shapely.Point(c).buffer(radius, quad_segs=16) for c in frame.holes)])
    walls = _wall_sheet(maze, fab, width, depth).difference(cuts)
    shapes = [(name, plate.difference(cuts) if name == "base" else walls) for name in names]
    if options.top:
        ball_holes = _ball_holes(maze, fab, options.ball_diameter(fab) + options.ball_play)
        shapes[-1] = ("top", plate.difference(shapely.union_all([*ball_holes, cuts])))
    marks: dict[str, list[Mark]] = {name: [] for name in names}
    if options.engrave_solution and maze.solution:
        from laby3d.maze.grid import centre_line

        line = centre_line(maze) * fab.cell_size + fab.wall_line
        marks["base"].append(
            Mark(operation="engrave-line", points=np.column_stack([line[:, 0], depth - line[:, 1]]), closed=False)
        )
    label = options.label if tag is None else None
    engraving = plan(frame, names, label=label, seed=maze.seed, tag=tag, label_height=options.text_height)
    parts = kit_parts(shapes, engraving, marks, options, tag)
    return Kit(
        layers=shapes,
        parts=parts,
        plate=(width, depth),
        ball=options.ball_diameter(fab),
        ball_play=options.ball_play,
        wall_layers=len(names) - 1 - options.top,
        inside_height=(len(names) - 1 - options.top) * options.wall_material.thickness,
        registration=list(frame.holes),
        notch=frame.notch,
        label_on=engraving.label_on,
        layer_numbers=engraving.numbers,
        warnings=engraving.warnings,
    )


def kit_parts(
    shapes: list[tuple[str, shapely.Geometry]],
    engraving: Engraving,
    marks: dict[str, list[Mark]],
    options: LaserOptions,
    tag: str | None,
) -> list[Part]:
    """The cut parts of a kit's ``shapes`` (name, polygon, mm), each grown by half the kerf, in
    its material, with its ``marks`` and then every text the ``engraving`` planned on it as fill
    engravings (``marks`` gains them); ``tag``: the pupil who owns them."""
    for name, texts in engraving.texts.items():
        for text in texts:
            marks[name].extend(Mark(operation="engrave-fill", points=ring, closed=True) for ring in text.rings)
    materials = {"base": options.base_material, "top": options.top_material}
    parts = []
    for name, shape in shapes:
        cut = grown(shape, options.kerf)
        material = materials.get(name, options.wall_material)
        parts.append(Part(name=name, material=material, shape=cut, box=cut.bounds, marks=tuple(marks[name]), owner=tag))
    return parts


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
