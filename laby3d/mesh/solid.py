"""The printable solid of a maze of any shape: one watertight body, and its parts for multi-colour
3MF, written once against the cell graph.

The plan (:mod:`laby3d.geometry.plan`: walls, floor, plate) plus the solution strip
(:mod:`laby3d.geometry.strip`) and the marks' boxes (:mod:`laby3d.mesh.marks`: the label, the
arrows) is one planar arrangement, extruded by :func:`laby3d.mesh.planar.extrude_plan`: walls to
``base + wall_height``, the floor to ``base``, the strip cut into it or raised, marks inlaid in
their boxes, a label under the base cut up into the bottom.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from laby3d.errors import InternalError, ParameterError
from laby3d.geometry.choices import MARKER_DEPTH
from laby3d.geometry.params import Fabrication
from laby3d.geometry.passages import MIN_PASSAGE, narrowest_passage
from laby3d.geometry.plan import Plan, maze_plan, plate_size
from laby3d.geometry.rings import Polygons, group_polygons
from laby3d.mesh.marks import LABEL_AREA, Marks, check_label_position, place_label, plate_marks
from laby3d.mesh.planar import Patch, Region, Triangulations, Underside, extrude_plan, extrude_polygons
from laby3d.mesh.solid_options import SolidOptions

if TYPE_CHECKING:
    from laby3d.geometry.label import GlyphChecks, LabelPlacement
    from laby3d.maze.model import Maze
    from laby3d.mesh.types import Mesh

#: Plan labels of the regions (the marks' boxes: :data:`laby3d.mesh.marks.LABEL_AREA` and
#: :data:`laby3d.mesh.marks.MARKERS`).
FLOOR, WALL, PATH = 1, 2, 3
#: The widest solution strip asked for, as a share of the narrowest passage, by tessellation kind:
#: its mitred turns at the cells' centres and its crossings stay clear of the walls (measured:
#: triangles up to 0.85, theta 0.55: half for any shape); a square grid's turns are square and its
#: crossings straight, so any strip narrower than the corridor keeps off its walls.
STRIP_SHARES: dict[str, float] = {"square": 1.0, "any": 0.5}


def strip_width(options: SolidOptions, fab: Fabrication, shape: str, rows: int) -> float | None:
    """Width of the solution strip of a ``shape`` maze of ``rows`` (a theta maze's rings), mm: as
    asked, or :data:`laby3d.mesh.solid_options.STRIP_WIDTH` of the narrowest passage (None without
    a solution)."""
    return options.strip_width(narrowest_passage(shape, fab, rows))


def check_solid(
    options: SolidOptions,
    fab: Fabrication,
    shape: str,
    size: tuple[int, int | None],
    checks: GlyphChecks | None = None,
) -> LabelPlacement | None:
    """Everything that can be said of a ``shape`` maze's solid of ``size`` (rows, cols) before the
    maze is made: the walls leave a passage, the strip fits it, the options fit ``fab`` and the
    label goes where this plate allows (``checks``: printability checks shared by the labels of
    one run); raises :class:`ParameterError`. Returns where the label goes (None without one)."""
    rows = size[0]
    passage = narrowest_passage(shape, fab, rows)
    if passage < MIN_PASSAGE:
        raise ParameterError(
            f"of {fab.wall_thickness:g} mm closes the passages of a {shape} maze of {fab.cell_size:g} mm cells "
            f"(they would be {max(passage, 0.0):g} mm wide; at least {MIN_PASSAGE:g}): thinner walls or larger cells",
            field="wall_thickness",
        )
    options.check_sizes(fab)
    width = options.solution_width if options.solution != "none" else None
    share = STRIP_SHARES.get(shape, STRIP_SHARES["any"])
    if width is not None and width > share * passage + 1e-9:
        raise ParameterError(
            f"must be at most half the narrowest passage of this {shape} maze ({share * passage:.3g} of "
            f"{passage:.3g} mm: the strip turns at the cells' centres and crosses their walls), got {width:g}",
            field="solution_width",
        )
    check_label_position(options, shape)
    if options.label is None:
        return None
    return place_label(options, fab, shape, size, checks=checks)[0]


def check_plate_size(shape: str, rows: int, cols: int | None, fab: Fabrication) -> None:
    """Refuse plates beyond :data:`laby3d.geometry.params.MAX_SIZE_MM` a side."""
    from laby3d.geometry.params import MAX_SIZE_MM

    width, depth = plate_size(shape, rows, cols, fab)
    if max(width, depth) > MAX_SIZE_MM:
        raise ParameterError(
            f"gives a model of {width:g} × {depth:g} mm; at most {MAX_SIZE_MM:g} mm per side (lower cell_size or "
            "the maze size)",
            field="cell_size",
        )


def solid_heights(fab: Fabrication, options: SolidOptions) -> dict[int, float]:
    """Top height (mm) of every plan label in the one-body solid (marks: :class:`MazeSolid`)."""
    heights = {FLOOR: fab.base_thickness, WALL: fab.height}
    if options.solution == "groove":
        heights[PATH] = fab.base_thickness - options.solution_depth
    elif options.solution == "ridge":
        heights[PATH] = fab.base_thickness + options.solution_depth
    if fab.base_thickness == 0:
        del heights[FLOOR]
    return heights


class MazeSolid:
    """The solid of a maze, mm: ``body`` (one closed mesh) and ``parts`` (closed meshes that touch
    without overlapping and share no edge: base, walls, and the solution ridge or the embossed
    label), each built on first use from one plan.

    ``label_placement`` says where the label went (on the margin or under the base) and how big.
    """

    def __init__(
        self, plan: Plan, strip: np.ndarray | None, fab: Fabrication, options: SolidOptions, marks: Marks
    ) -> None:
        self.plan = plan
        self.strip = strip
        self.fab = fab
        self.options = options
        self.marks = marks
        #: the walls' triangles, made for the body and used again for the walls part
        self.triangulations = Triangulations()

    @property
    def label_placement(self) -> LabelPlacement | None:
        """Where the label went and how big."""
        return self.marks.placement

    @cached_property
    def _table(self) -> tuple[np.ndarray, int | None, list[int]]:
        """The plan's points, then the strip's and the boxes' (their ring ids follow)."""
        points = [self.plan.points]
        count = len(self.plan.points)
        strip_start = None
        if self.strip is not None:
            strip_start = count
            points.append(self.strip)
            count += len(self.strip)
        box_starts = []
        for box in self.marks.boxes.values():
            box_starts.append(count)
            points.append(box)
            count += len(box)
        return np.concatenate(points), strip_start, box_starts

    def _insets(self) -> tuple[Region | None, list[Region]]:
        """The strip's region and the boxes' regions (one ring each)."""
        _, strip_start, box_starts = self._table
        strip = None
        if self.strip is not None and strip_start is not None:
            strip = Region(PATH, ((np.arange(strip_start, strip_start + len(self.strip)),),))
        boxes = [
            Region(label, ((np.arange(start, start + len(box)),),))
            for (label, box), start in zip(self.marks.boxes.items(), box_starts, strict=True)
        ]
        return strip, boxes

    def _floor(self, table: np.ndarray, outline: Polygons, holes: list[Region]) -> Region:
        """``outline``'s polygons with the insets' rings as holes, as the floor."""
        rings = outline.rings() + [region.polygons[0][0][::-1] for region in holes]
        return Region(FLOOR, group_polygons(table, rings))

    def _patches(self, *, embossed: bool = True) -> dict[int, Patch]:
        """The marks as patches of the floor: the label (engraved or embossed; the embossed
        letters left out when not ``embossed``), arrows engraved."""
        base = self.fab.base_thickness
        patches = {}
        placement = self.marks.placement
        for label, glyphs in self.marks.glyphs.items():
            if label == LABEL_AREA:
                if placement is None:
                    raise InternalError("a label box on the margin without its placement")
                if placement.mode == "emboss" and not embossed:
                    continue
                sign = 1 if placement.mode == "emboss" else -1
                patches[label] = Patch(glyphs, base + sign * placement.depth)
            else:
                patches[label] = Patch(glyphs, base - MARKER_DEPTH)
        return patches

    def _underside(self) -> Underside | None:
        """The label engraved under the base, when it went there."""
        placement, mark = self.marks.placement, self.marks.label
        if placement is None or mark is None or placement.side != "bottom":
            return None
        return Underside(box=mark.box, polygons=mark.glyphs, depth=placement.depth)

    @cached_property
    def regions(self) -> tuple[np.ndarray, list[Region], dict[int, float]]:
        """The plan of the one-body solid: points (mm), regions, and each label's top height (mm;
        marks count at floor level)."""
        strip, boxes = self._insets()
        insets = ([strip] if strip is not None else []) + boxes
        points = self._table[0]
        regions = [Region(WALL, self.plan.walls.polygons), self._floor(points, self.plan.floor, insets), *insets]
        heights = solid_heights(self.fab, self.options)
        heights.update({label: self.fab.base_thickness for label in self.marks.boxes})
        return points, regions, heights

    @cached_property
    def body(self) -> Mesh:
        """The whole solid as one watertight body, for STL."""
        points, regions, heights = self.regions
        return extrude_plan(
            points, regions, heights, 0.0, self._patches(), self._underside(), triangulations=self.triangulations
        )

    @cached_property
    def parts(self) -> dict[str, Mesh]:
        """base (plate, with the groove and engravings), walls, solution (when raised), label
        (when embossed)."""
        options, base = self.options, self.fab.base_thickness
        points = self._table[0]
        strip, boxes = self._insets()
        parts: dict[str, Mesh] = {}
        if base > 0:
            # The base's top carries no wall point (the walls stand on it as a part of their
            # own), and where a wall's edge lies on the plate's edge the base's edge is split in
            # two: touching parts share no edge, which readers that weld them would see as an
            # edge of four faces.
            plate_points, plate = self._split_plate()
            groove = [strip] if strip is not None and options.solution == "groove" else []
            outline = Polygons(plate_points, ((plate,),))
            table = np.concatenate([points, plate_points[len(points) :]])
            regions = [self._floor(table, outline, groove + boxes), *groove, *boxes]
            heights = {FLOOR: base, PATH: base - options.solution_depth}
            heights.update({label: base for label in self.marks.boxes})
            parts["base"] = extrude_plan(table, regions, heights, 0.0, self._patches(embossed=False), self._underside())
        walls = [Region(WALL, self.plan.walls.polygons)]
        parts["walls"] = extrude_plan(points, walls, {WALL: self.fab.height}, base, triangulations=self.triangulations)
        if options.solution == "ridge" and strip is not None:
            parts["solution"] = extrude_plan(points, [strip], {PATH: base + options.solution_depth}, base)
        placement, mark = self.marks.placement, self.marks.label
        if placement is not None and mark is not None and placement.side == "margin" and placement.mode == "emboss":
            parts["label"] = extrude_polygons(mark.glyphs, base, base + placement.depth)
        return parts

    def _split_plate(self) -> tuple[np.ndarray, np.ndarray]:
        """The points with a midpoint added on every plate edge that is also a wall's edge, and
        the plate's ring through them."""
        points, plate = self._table[0], self.plan.plate
        n = len(points)
        wall_keys = {
            int(a) * n + int(b)
            for ring in self.plan.walls.rings()
            for a, b in zip(ring.tolist(), np.roll(ring, -1).tolist(), strict=True)
        }
        ring: list[int] = []
        added: list[np.ndarray] = []
        for a, b in zip(plate.tolist(), np.roll(plate, -1).tolist(), strict=True):
            ring.append(a)
            if a * n + b in wall_keys:
                ring.append(n + len(added))
                added.append((points[a] + points[b]) / 2)
        table = np.concatenate([points, np.reshape(added, (-1, 2))])
        return table, np.array(ring, dtype=np.int64)


def maze_solid(maze: Maze, fab: Fabrication | None = None, options: SolidOptions | None = None) -> MazeSolid:
    """The one-body solid of ``maze`` (``body``) plus its ``parts`` (base, walls, solution, label).

    Walls without a base (``base_thickness`` 0) are refused when they would stand in more than one
    piece (both openings in the outline cut it in two): the solid would be several bodies.

    >>> import laby3d
    >>> solid = maze_solid(laby3d.generate(2, 2, seed=1))
    >>> round(solid.body.volume(), 2), sorted(solid.parts)
    (1870.08, ['base', 'walls'])
    """
    from laby3d.geometry.strip import solution_strip

    fab = fab or Fabrication()
    options = options or SolidOptions()
    shape = maze.shape
    check_plate_size(shape, maze.rows, maze.cols, fab)
    check_solid(options, fab, shape, (maze.rows, maze.cols))
    plan = maze_plan(maze, fab)
    if fab.base_thickness == 0 and len(plan.walls.polygons) > 1:
        raise ParameterError(
            f"0 (walls only) leaves this maze's walls in {len(plan.walls.polygons)} separate pieces: its entrance "
            "and exit both cut the outline; give a base (base_thickness > 0), or put the entrance inside "
            "(placement center)",
            field="base_thickness",
        )
    width = strip_width(options, fab, shape, maze.rows)
    strip = solution_strip(maze, plan, width, fab.wall_thickness) if width is not None else None
    return MazeSolid(plan, strip, fab, options, plate_marks(maze, plan, fab, options))
