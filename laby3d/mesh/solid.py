"""The printable solid of a maze: one watertight body, and its parts for multi-colour 3MF."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Literal

import numpy as np
import shapely

from laby3d.errors import ParameterError
from laby3d.geometry.label import MARKER_DEPTH, MARKER_MARGIN, PlacedLabel, opening_markers, place_label
from laby3d.geometry.params import Fabrication
from laby3d.geometry.raster import FLOOR, LABEL_AREA, PATH, WALL, Raster, maze_raster
from laby3d.mesh.heightfield import Patch, extrude, extrude_polygons
from laby3d.mesh.types import Mesh

if TYPE_CHECKING:
    from laby3d.maze.model import Maze

QUARTERS = (5, 6, 7)  # extra floor labels of the base part, see _quartered
MARKERS = (8, 9)  # raster labels of the entrance and exit arrow boxes
LabelMode = Literal["engrave", "emboss"]
SolutionMode = Literal["none", "groove", "ridge"]
SOLUTION_MODES = ("none", "groove", "ridge")


@dataclass(frozen=True)
class SolidOptions:
    """What the solid shows besides the walls, mm."""

    solution: SolutionMode = "none"
    solution_width: float | None = None  # default: 40% of the corridor width
    solution_depth: float = 0.6  # groove depth, or ridge height
    label: str | None = None  # text on the bottom floor margin (needs margin >= 5 mm)
    label_mode: LabelMode = "engrave"
    label_depth: float = 0.6  # engraving depth or embossing height
    markers: bool = False  # arrows engraved on the margin beside the entrance and the exit

    def path_width(self, fab: Fabrication) -> float | None:
        """Width of the solution strip, mm (None without a solution)."""
        if self.solution == "none":
            return None
        return self.solution_width if self.solution_width is not None else round(0.4 * fab.corridor_width, 3)

    def check(self, fab: Fabrication) -> None:
        """Raise :class:`ParameterError` unless these options fit ``fab``."""
        if self.label is not None:
            if self.label_mode not in ("engrave", "emboss"):
                raise ParameterError(f"label_mode must be engrave or emboss, got {self.label_mode!r}")
            if fab.base_thickness == 0:
                raise ParameterError("label: a label needs a base plate: base_thickness must be > 0")
            limit = fab.base_thickness - 0.4 if self.label_mode == "engrave" else fab.wall_height
            if not 0 < self.label_depth <= limit:
                raise ParameterError(f"label_depth must be in (0, {limit:g}] mm, got {self.label_depth:g}")
        if self.markers and fab.margin < MARKER_MARGIN:
            raise ParameterError(f"markers need margin >= {MARKER_MARGIN:g} mm beside the openings, got {fab.margin:g}")
        if self.markers and fab.base_thickness <= MARKER_DEPTH:
            raise ParameterError(f"markers: engraved arrows need base_thickness > {MARKER_DEPTH:g} mm")
        if self.solution not in SOLUTION_MODES:
            raise ParameterError(f"solution must be one of {', '.join(SOLUTION_MODES)}, got {self.solution!r}")
        if self.solution == "none":
            return
        width = self.path_width(fab)
        assert width is not None
        if not 0 < width < fab.corridor_width:
            raise ParameterError(
                f"solution_width must be > 0 and < the corridor width ({fab.corridor_width:g} mm), got {width:g}"
            )
        if fab.base_thickness == 0:
            raise ParameterError("solution: a groove or ridge needs a base plate: base_thickness must be > 0")
        if self.solution == "groove" and not 0 < self.solution_depth <= fab.base_thickness - 0.4:
            raise ParameterError(
                f"solution_depth of a groove must be in (0, {fab.base_thickness - 0.4:g}] mm "
                f"(base_thickness − 0.4 mm of floor below it), got {self.solution_depth:g}"
            )
        if self.solution == "ridge" and not 0 < self.solution_depth < fab.wall_height:
            raise ParameterError(
                f"solution_depth of a ridge must be in (0, {fab.wall_height:g}) mm, got {self.solution_depth:g}"
            )


class MazeSolid:
    """The solid of a maze, mm: ``body`` (one closed mesh) and ``parts`` (closed meshes that
    touch without overlapping and share no edge: base, walls, and the solution ridge). Each is
    built on first use, from one plan-view raster."""

    def __init__(self, raster: Raster, fab: Fabrication, options: SolidOptions, marks: dict[int, PlacedLabel]) -> None:
        self.raster = raster
        self.fab = fab
        self.options = options
        self.marks = marks

    def _patches(self, *, embossed: bool = True) -> dict[int, Patch]:
        """The marks as patches of the floor: the label (engraved or embossed), arrows engraved."""
        base = self.fab.base_thickness
        patches = {}
        for label, mark in self.marks.items():
            if label == LABEL_AREA:
                if self.options.label_mode == "emboss" and not embossed:
                    continue
                sign = 1 if self.options.label_mode == "emboss" else -1
                patches[label] = Patch(mark.glyphs, base + sign * self.options.label_depth)
            else:
                patches[label] = Patch(mark.glyphs, base - MARKER_DEPTH)
        return patches

    @cached_property
    def body(self) -> Mesh:
        """The whole solid as one watertight body, for STL."""
        heights = solid_heights(self.fab, self.options)
        heights.update({label: self.fab.base_thickness for label in self.marks})
        return extrude(self.raster, heights, 0.0, self._patches())

    @cached_property
    def parts(self) -> dict[str, Mesh]:
        """base (plate, with the groove when engraved), walls, solution (when raised)."""
        raster, options, base_level = self.raster, self.options, self.fab.base_thickness
        parts: dict[str, Mesh] = {}
        if base_level > 0:
            # Labels at the same height are merged so the base's top has no vertices where the
            # other parts stand on it (coincident edges of touching parts weld into 4-face edges).
            merged = {WALL: FLOOR} if options.solution == "groove" else {WALL: FLOOR, PATH: FLOOR}
            heights = {label: base_level for label in (FLOOR, *self.marks, *QUARTERS)}
            heights[PATH] = base_level - options.solution_depth
            parts["base"] = extrude(_quartered(raster.relabelled(merged)), heights, 0.0, self._patches(embossed=False))
        parts["walls"] = extrude(raster, {WALL: self.fab.height}, base_level)
        if options.solution == "ridge":
            parts["solution"] = extrude(raster, {PATH: base_level + options.solution_depth}, base_level)
        if LABEL_AREA in self.marks and options.label_mode == "emboss":
            glyphs = self.marks[LABEL_AREA].glyphs
            parts["label"] = extrude_polygons(glyphs, base_level, base_level + options.label_depth)
        return parts


def solid_heights(fab: Fabrication, options: SolidOptions) -> dict[int, float]:
    """Top height (mm) of every raster label in the one-body solid."""
    heights = {FLOOR: fab.base_thickness, WALL: fab.height}
    if options.solution == "groove":
        heights[PATH] = fab.base_thickness - options.solution_depth
    elif options.solution == "ridge":
        heights[PATH] = fab.base_thickness + options.solution_depth
    if fab.base_thickness == 0:
        del heights[FLOOR]
    return heights


def solid_raster(maze: Maze, fab: Fabrication, options: SolidOptions) -> tuple[Raster, dict[int, PlacedLabel]]:
    """The plan view used for every mesh of this solid, and the marks on its margin by raster
    label (the text label, the opening arrows), each in a box of its own."""
    fab.check_size(maze.rows, maze.cols)
    options.check(fab)
    raster = maze_raster(maze, fab, path_width=options.path_width(fab))
    marks: dict[int, PlacedLabel] = {}
    if options.label is not None:
        marks[LABEL_AREA] = place_label(options.label, fab.outer_size(maze.rows, maze.cols)[0], fab)
    if options.markers:
        for index, marker in enumerate(opening_markers(maze, fab)):
            marks[MARKERS[index]] = marker
    boxes = [shapely.box(*mark.box) for mark in marks.values()]
    if any(a.intersects(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :]):
        raise ParameterError("label and markers overlap on the margin: move the label or drop the markers")
    for label, mark in marks.items():
        raster = raster.with_box(mark.box, label)
    return raster, marks


def _quartered(raster: Raster) -> Raster:
    """FLOOR blocks relabelled by quadrant (same height), so the base's outline gets a vertex in
    the middle of each side: then no base edge coincides with a wall's edge along the border,
    and readers that weld touching parts (trimesh) find no edge shared by four faces."""
    ny, nx = raster.labels.shape
    quadrant = (np.arange(ny)[:, None] >= ny // 2) * 2 + (np.arange(nx)[None, :] >= nx // 2)
    table = np.array([FLOOR, *QUARTERS], dtype=np.uint8)
    labels = np.where(raster.labels == FLOOR, table[quadrant], raster.labels).astype(np.uint8)
    return Raster(raster.xs, raster.ys, labels)


def maze_solid(maze: Maze, fab: Fabrication | None = None, options: SolidOptions | None = None) -> MazeSolid:
    """The one-body solid of ``maze`` (``body``) plus ``parts`` base, walls and solution.

    >>> import laby3d
    >>> solid = maze_solid(laby3d.generate(2, 2, seed=1))
    >>> round(solid.body.volume(), 2), sorted(solid.parts)
    (1870.08, ['base', 'walls'])
    """
    fab = fab or Fabrication()
    options = options or SolidOptions()
    raster, marks = solid_raster(maze, fab, options)
    return MazeSolid(raster, fab, options, marks)
