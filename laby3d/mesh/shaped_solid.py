"""The printable solid of a theta, hex or triangle maze: one watertight body, and its parts for
multi-colour 3MF, as :mod:`laby3d.mesh.solid` makes them for square mazes.

The plan (:mod:`laby3d.geometry.shaped_footprint`: walls, floor, plate) plus the solution strip
and the marks' boxes is one planar arrangement, extruded by :func:`laby3d.mesh.planar.extrude_plan`:
walls to ``base + wall_height``, the floor to ``base``, the strip cut into it or raised, marks
inlaid in their boxes. The label goes where a square maze's goes: on a straight margin (hex and
triangle boards: the strip along the bottom edge) or mirrored under the base (theta: in the
largest rectangle of the text's proportions inside the disc; a theta maze's margin is a ring, so
a label asked for there is refused, and ``auto`` puts it under the base with a warning when the
margin is wide). The arrows (``markers``) stand on the margin beyond each opening, pointing in
at the entrance and out at the exit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from laby3d.errors import InternalError, ParameterError
from laby3d.geometry.choices import MARKER_DEPTH
from laby3d.geometry.passages import MIN_PASSAGE, narrowest_passage
from laby3d.geometry.raster import FLOOR, LABEL_AREA, PATH, WALL
from laby3d.geometry.shaped_footprint import (
    Polygons,
    ShapedPlan,
    group_polygons,
    plate_size,
    shaped_plan,
    solution_strip,
)
from laby3d.mesh.heightfield import Patch, Underside, extrude_polygons
from laby3d.mesh.planar import Region, Triangulations, extrude_plan
from laby3d.mesh.solid import MARKERS, solid_heights

if TYPE_CHECKING:
    import shapely

    from laby3d.geometry.label import GlyphChecks, LabelPlacement, PlacedLabel
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze
    from laby3d.mesh.solid import SolidOptions
    from laby3d.mesh.types import Mesh


def shaped_path_width(options: SolidOptions, shape: str, fab: Fabrication, rows: int) -> float | None:
    """Width of the solution strip, mm: as asked, or 40 % of the narrowest passage (None without
    a solution)."""
    if options.solution == "none":
        return None
    if options.solution_width is not None:
        return options.solution_width
    return round(0.4 * narrowest_passage(shape, fab, rows), 3)


def check_shaped(
    options: SolidOptions,
    fab: Fabrication,
    shape: str,
    size: tuple[int, int | None] | None = None,
    checks: GlyphChecks | None = None,
) -> None:
    """:meth:`SolidOptions.check` for a ``shape`` maze (``size``: rows and cols, to place the
    label): the walls leave a passage, the strip fits it, the label goes where this shape
    allows; raises :class:`ParameterError`."""
    rows = size[0] if size is not None else 2
    passage = narrowest_passage(shape, fab, rows)
    if passage < MIN_PASSAGE:
        raise ParameterError(
            f"of {fab.wall_thickness:g} mm closes the passages of a {shape} maze of {fab.cell_size:g} mm cells "
            f"(they would be {max(passage, 0.0):g} mm wide; at least {MIN_PASSAGE:g}): thinner walls or larger cells",
            field="wall_thickness",
        )
    width = shaped_path_width(options, shape, fab, rows)
    if width is not None and options.solution_width is not None and width > STRIP_SHARE * passage + 1e-9:
        raise ParameterError(
            f"must be at most half the narrowest passage of this {shape} maze ({STRIP_SHARE * passage:.3g} of "
            f"{passage:.3g} mm: the strip turns at the cells' centres and crosses their walls), got {width:g}",
            field="solution_width",
        )
    options.check_sizes(fab)
    if options.label is not None and shape == "theta" and options.label_position == "margin":
        raise ParameterError(
            "margin: a theta maze's margin is a ring and laby3d letters straight lines only; use bottom or auto "
            "(the label then goes under the base)",
            field="label_position",
        )
    if options.label is not None and size is not None:
        place_shaped_label(options, fab, shape, size, checks=checks)


#: The widest solution strip, as a share of the narrowest passage: its mitred turns at the cells'
#: centres and its crossings stay clear of the walls (measured: triangles up to 0.85, theta 0.55).
STRIP_SHARE = 0.5


def place_shaped_label(
    options: SolidOptions,
    fab: Fabrication,
    shape: str,
    size: tuple[int, int | None],
    blocked: tuple[tuple[float, float, float, float], ...] = (),
    checks: GlyphChecks | None = None,
) -> tuple[LabelPlacement, tuple[float, float]]:
    """Where the label goes on a ``shape`` maze of ``size`` and how big (as :meth:`SolidOptions.place_label`),
    and where its room's corner lies on the plate (mm): hex and triangle boards as squares; theta
    under the base, in the largest rectangle of the text's proportions inside the disc."""
    width, depth = plate_size(shape, size[0], size[1], fab)
    if shape != "theta":
        return options.place_label(fab, (size[0], size[1] or 0), blocked, checks, plate=(width, depth)), (0.0, 0.0)
    from laby3d.geometry.text import text_shape

    x0, y0, x1, y1 = text_shape(options.label or "").bounds
    radius = min(width, depth) / 2
    angle = math.atan2(y1 - y0, x1 - x0)
    room = (2 * radius * math.cos(angle) * 0.999, 2 * radius * math.sin(angle) * 0.999)
    bottom = replace(options, label_position="bottom", label_mode="engrave")
    placement = bottom.place_label(replace(fab, margin=0.0), (size[0], 0), (), checks, plate=room)
    if (fab.margin > 0 or options.label_mode == "emboss") and options.label_position == "auto":
        moved = (
            "the label is engraved under the base: a theta maze's margin is a ring and laby3d letters straight "
            "lines only"
        )
        placement = replace(placement, warnings=(*placement.warnings, moved))
    return placement, ((width - room[0]) / 2, (depth - room[1]) / 2)


@dataclass(frozen=True)
class Marks:
    """The marks on the plate (mm): boxes (a ring of points each) by label, each with its
    polygons, and the label's placement when there is one."""

    boxes: dict[int, np.ndarray]
    glyphs: dict[int, shapely.Geometry]
    placement: LabelPlacement | None
    #: the label's glyphs and box where they lie on this plate (under the base: mirrored)
    label: PlacedLabel | None


class ShapedSolid:
    """The solid of a theta, hex or triangle maze, mm: ``body`` (one closed mesh) and ``parts``
    (closed meshes that touch without overlapping and share no edge: base, walls, and the
    solution ridge or the embossed label), each built on first use from one plan."""

    def __init__(
        self, plan: ShapedPlan, strip: np.ndarray | None, fab: Fabrication, options: SolidOptions, marks: Marks
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
        """Where the label went and how big (as a square maze's solid says)."""
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

    def _floor(self, outline: Polygons, holes: list[Region]) -> Region:
        """``outline``'s polygons with the insets' rings as holes, as the floor."""
        points = self._table[0]
        rings = outline.rings() + [region.polygons[0][0][::-1] for region in holes]
        return Region(FLOOR, group_polygons(points, rings))

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
        regions = [Region(WALL, self.plan.walls.polygons), self._floor(self.plan.floor, insets), *insets]
        heights = solid_heights(self.fab, self.options)
        heights.update({label: self.fab.base_thickness for label in self.marks.boxes})
        return self._table[0], regions, heights

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
            regions = [self._floor_of(table, outline, groove + boxes), *groove, *boxes]
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

    def _floor_of(self, table: np.ndarray, outline: Polygons, holes: list[Region]) -> Region:
        rings = outline.rings() + [region.polygons[0][0][::-1] for region in holes]
        return Region(FLOOR, group_polygons(table, rings))

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


def shaped_solid(maze: Maze, fab: Fabrication, options: SolidOptions) -> ShapedSolid:
    """The one-body solid of a theta, hex or triangle ``maze`` (``body``) plus its ``parts``."""
    shape = maze.shape
    check_plate_size(shape, maze.rows, maze.cols, fab)
    check_shaped(options, fab, shape, (maze.rows, maze.cols))
    plan = shaped_plan(maze, fab)
    path_width = shaped_path_width(options, shape, fab, maze.rows)
    strip = solution_strip(maze, plan, path_width, fab.wall_thickness) if path_width is not None else None
    marks = _marks(maze, plan, fab, options)
    return ShapedSolid(plan, strip, fab, options, marks)


def check_plate_size(shape: str, rows: int, cols: int | None, fab: Fabrication) -> None:
    """Refuse plates beyond :data:`laby3d.geometry.params.MAX_SIZE_MM` (as :meth:`Fabrication.check_size`)."""
    from laby3d.geometry.params import MAX_SIZE_MM

    width, depth = plate_size(shape, rows, cols, fab)
    if max(width, depth) > MAX_SIZE_MM:
        raise ParameterError(
            f"gives a model of {width:g} × {depth:g} mm; at most {MAX_SIZE_MM:g} mm per side (lower cell_size or "
            "the maze size)",
            field="cell_size",
        )


def _marks(maze: Maze, plan: ShapedPlan, fab: Fabrication, options: SolidOptions) -> Marks:
    """The arrows beside the openings and the label, each in a box of its own on the plate."""
    boxes: dict[int, np.ndarray] = {}
    glyphs: dict[int, shapely.Geometry] = {}
    if options.markers:
        for index, (box, arrow) in enumerate(_arrows(maze, plan, fab)):
            boxes[MARKERS[index]] = box
            glyphs[MARKERS[index]] = arrow
    if options.label is None:
        return Marks(boxes, glyphs, None, None)
    blocked = tuple(_bounds(box) for box in boxes.values())
    placement, corner = place_shaped_label(options, fab, maze.shape, (maze.rows, maze.cols), blocked)
    mark = placement.mark
    if corner != (0.0, 0.0):
        import shapely

        from laby3d.geometry.label import PlacedLabel

        x0, y0, x1, y1 = mark.box
        dx, dy = corner
        moved = shapely.affinity.translate(mark.glyphs, dx, dy)
        mark = PlacedLabel((x0 + dx, y0 + dy, x1 + dx, y1 + dy), moved)
    if placement.side == "margin":
        x0, y0, x1, y1 = mark.box
        boxes[LABEL_AREA] = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], dtype=float)
        glyphs[LABEL_AREA] = mark.glyphs
    return Marks(boxes, glyphs, placement, mark)


def _bounds(box: np.ndarray) -> tuple[float, float, float, float]:
    """A box's (x0, y0, x1, y1), mm."""
    (x0, y0), (x1, y1) = box.min(axis=0), box.max(axis=0)
    return float(x0), float(y0), float(x1), float(y1)


def _arrows(maze: Maze, plan: ShapedPlan, fab: Fabrication) -> list[tuple[np.ndarray, shapely.Geometry]]:
    """An arrow on the margin beyond each opening (pointing in at the entrance, out at the exit)
    in a square box turned with it, as near the opening as the walls let it: as large as a
    square maze's, smaller where the opening's neighbouring walls stand out of the outline (a
    hex or triangle board's zig-zag edge); refused where not even a third of it fits."""
    import shapely

    from laby3d.geometry.label import GRID, TEXT_CLEARANCE

    tessellation = maze.tessellation
    largest = min(fab.margin - 2 * TEXT_CLEARANCE, 0.8 * fab.corridor_width, 8.0)
    plate = shapely.Polygon(plan.points[plan.plate])
    walls = plan.walls.geometry()
    arrows = []
    for opening, inward, name in ((maze.entrance, True, "entrance"), (maze.exit, False, "exit")):
        wall = maze.boundary_wall_of(opening)
        if wall is None or opening is None:
            continue
        line = plan.to_plan(tessellation.boundary_polyline(wall))
        middle = plan.to_plan(tessellation.boundary_midpoints[wall])[0]
        cell = plan.to_plan(tessellation.centres[tessellation.cell_index(opening.row, opening.col)])[0]
        chord = line[-1] - line[0]
        outward = np.array([chord[1], -chord[0]]) / math.hypot(*chord)
        if (middle - cell) @ outward < 0:  # away from the opening's own cell
            outward = -outward
        placed = None
        for size in (largest, 2 * largest / 3, largest / 2, largest / 3):
            placed = _arrow_box(plate, walls, middle, outward, size / 2 + 0.5, fab.wall_thickness / 2)
            if placed is not None:
                break
        if placed is None:
            raise ParameterError(
                f"no room for the arrow beside the {name} of this {maze.shape} maze: a wider margin makes room",
                field="markers",
            )
        centre, corners = placed
        pointing = -outward if inward else outward
        side = np.array([-pointing[1], pointing[0]])
        tip, back = centre + pointing * size / 2, centre - pointing * size / 2
        arrow = shapely.set_precision(shapely.Polygon([back - side * size / 2, tip, back + side * size / 2]), GRID)
        arrows.append((corners, arrow))
    return arrows


def _arrow_box(
    plate: shapely.Polygon, walls: shapely.Geometry, middle: np.ndarray, outward: np.ndarray, half: float, reach: float
) -> tuple[np.ndarray, np.ndarray] | None:
    """The centre and corners (mm) of the square box ``2·half`` wide turned with ``outward``,
    moved out from the opening's ``middle`` (from ``reach`` beyond it, 0.5 mm a step) until it
    clears the walls; None when it leaves the plate first."""
    import shapely

    along = np.array([-outward[1], outward[0]])
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) @ np.stack([outward, along]) * half
    for step in range(10_000):
        centre = middle + outward * (reach + half + 0.5 * step)
        square = shapely.Polygon(centre + corners)
        if not plate.contains_properly(square):
            return None
        if not square.intersects(walls):
            return centre, centre + corners
    return None
