"""The layered rolling-ball maze kit of a maze of any shape: base, stacked wall sheets, clear top;
mm, y up.

Steps: (1) the ball and its play give the inside height, and the wall sheets needed to reach
it; (2) the frame (:mod:`.frame`): plate, key, dowel holes, and the text on it
(:mod:`.engraving`); (3) the corridors: the region inside the outline's inner face less the
walls' footprint (:func:`.walls.wall_footprint`) of the maze with its entrance and exit closed,
the frame closing them, so every wall sheet is one piece and the ball only leaves through a top
hole; (4) the wall sheet is the plate less the corridors, base and top the plate, the top with a
hole of ball + play over the entrance's and the exit's cells; every layer less the key; (5)
every part grown by half the kerf.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely

from laby3d.errors import InternalError
from laby3d.geometry.laser.engraving import Engraving, text_plan
from laby3d.geometry.laser.frame import HOLE_SEGMENTS, Frame, kit_frame
from laby3d.geometry.laser.options import LaserOptions, min_wall, wall_layers_needed
from laby3d.geometry.laser.parts import Mark, Part, grown
from laby3d.geometry.laser.walls import wall_footprint
from laby3d.i18n import Message

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
    notch: float  # the orientation notch's leg along the top edge, mm
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


def kit_part_names(fab: Fabrication, options: LaserOptions, shape: str) -> list[str]:
    """The kit's parts bottom up: base, the wall sheets the ball needs, the top when asked."""
    ball = options.ball_diameter(fab, shape)
    layers = options.wall_layers or wall_layers_needed(ball + options.ball_play, options.wall_material.thickness)
    walls = [f"walls {k + 1}" if layers > 1 else "walls" for k in range(layers)]
    return ["base", *walls, *(["top"] if options.top else [])]


def frame_of(maze: Maze, fab: Fabrication, options: LaserOptions) -> Frame:
    """The frame of ``maze``'s kit (its tessellation and sizes alone)."""
    return kit_frame(maze.tessellation, fab, min_wall=min_wall(options.wall_material), dowel=options.registration_holes)


def corridors(maze: Maze, fab: Fabrication, frame: Frame) -> shapely.Geometry:
    """Where the ball rolls, on the frame's plate (mm): inside the outline's inner face, less the
    walls of ``maze`` with its entrance and exit closed (the frame closes them). One piece; its
    holes are the walls the frame does not hold (:func:`islands`)."""
    region = frame.inside.difference(wall_footprint(maze.with_openings(None, None), fab))
    if shapely.get_num_geometries(region) != 1:
        raise InternalError(f"the corridors of a {maze.shape} maze are not one piece")
    return shapely.get_geometry(region, 0)


def islands(ways: shapely.Polygon) -> list[shapely.Polygon]:
    """The pieces of a wall sheet that stand apart from its frame, mm: the holes of its
    corridors ``ways`` (the walls around a loop of a braided maze, a hole of the board's outline
    with its wall)."""
    return [shapely.Polygon(ring) for ring in ways.interiors]


def ball_kit(maze: Maze, fab: Fabrication, options: LaserOptions, *, tag: str | None = None) -> Kit:
    """The kit of ``maze``: base, as many wall sheets as the ball needs, top (when asked). With a
    ``tag`` (a class set's pupil) every part carries that name and no label; else the label, if
    any, goes on one part."""
    options.check(fab, size=(maze.rows, maze.cols), seed=maze.seed, shape=maze.shape)
    return kit_of(maze, fab, options, tag=tag)


def kit_of(
    maze: Maze, fab: Fabrication, options: LaserOptions, *, tag: str | None = None, frame: Frame | None = None
) -> Kit:
    """:func:`ball_kit` of options already checked for this maze's size; ``frame``: the frame of
    its kit when already built (:func:`frame_of`: a class's kits of one size share it, and the
    text it has placed)."""
    frame = frame_of(maze, fab, options) if frame is None else frame
    names = kit_part_names(fab, options, maze.shape)
    cuts = frame.cuts()
    plate = frame.plate.difference(cuts)
    ways = corridors(maze, fab, frame)
    walls = frame.plate.difference(ways).difference(cuts)
    shapes = [(name, plate if name == "base" else walls) for name in names]
    ball = options.ball_diameter(fab, maze.shape)
    if options.top:
        cells = [maze.cell_of(o) for o in (maze.entrance, maze.exit) if o is not None]
        holes = [
            shapely.Point(c).buffer((ball + options.ball_play) / 2, quad_segs=HOLE_SEGMENTS)
            for c in frame.to_plate(maze.tessellation.centres[cells])
        ]
        shapes[-1] = ("top", frame.plate.difference(shapely.union_all([*holes, cuts])))
    marks: dict[str, list[Mark]] = {name: [] for name in names}
    apart = islands(ways)
    for island in apart:  # cut in place in every wall sheet; their places engraved on the base
        outline = np.asarray(island.exterior.coords)[:-1]
        marks["base"].append(Mark(operation="engrave-line", points=outline, closed=True))
    if options.engrave_solution:
        from laby3d.maze.solve import solution_polyline

        line = frame.to_plate(solution_polyline(maze))
        if len(line):
            marks["base"].append(Mark(operation="engrave-line", points=line, closed=False))
    label = options.label if tag is None else None
    engraving = text_plan(frame, names, label=label, seed=maze.seed, tag=tag, label_height=options.text_height)
    parts = kit_parts(shapes, engraving, marks, options, tag)
    wall_layers = len(names) - 1 - options.top
    return Kit(
        layers=shapes,
        parts=parts,
        plate=frame.size,
        ball=ball,
        ball_play=options.ball_play,
        wall_layers=wall_layers,
        inside_height=wall_layers * options.wall_material.thickness,
        registration=list(frame.holes),
        notch=frame.notch_leg,
        label_on=engraving.label_on,
        layer_numbers=engraving.numbers,
        warnings=[*engraving.warnings, *([Message("laser_wall_islands", count=len(apart))] if apart else [])],
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
