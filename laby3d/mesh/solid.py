"""The printable solid of a maze: one watertight body, and its parts for multi-colour 3MF."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Literal

import numpy as np

from laby3d.errors import InternalError, ParameterError
from laby3d.geometry.choices import MARKER_DEPTH, MARKER_MARGIN, LabelMode, LabelPosition
from laby3d.geometry.params import Fabrication
from laby3d.geometry.raster import FLOOR, LABEL_AREA, PATH, WALL, Raster, maze_raster
from laby3d.mesh.heightfield import Patch, Underside, extrude, extrude_polygons
from laby3d.mesh.types import Mesh

if TYPE_CHECKING:
    from laby3d.geometry.label import GlyphChecks, LabelPlacement, PlacedLabel
    from laby3d.maze.model import Maze

# The label code (text, shapely) is imported where a label or the arrows are drawn: a solid
# without them does not pay for it.

QUARTERS = (5, 6, 7)  # extra floor labels of the base part, see _quartered
MARKERS = (8, 9)  # raster labels of the entrance and exit arrow boxes
#: Plate left above (or below) a cut into the base, mm.
MIN_FLOOR = 0.4
#: A label's depth (or height) when none is asked for, and the least it may be cut to where the
#: plate is too thin for it (one 0.2 mm layer, still read as the first layer's gap), mm.
LABEL_DEPTH = 0.6
MIN_LABEL_DEPTH = 0.2
SolutionMode = Literal["none", "groove", "ridge"]
SOLUTION_MODES = ("none", "groove", "ridge")


@dataclass(frozen=True, kw_only=True)
class SolidOptions:
    """What the solid shows besides the walls, mm."""

    solution: SolutionMode = "none"
    solution_width: float | None = None  # default: 40% of the corridor width
    solution_depth: float = 0.6  # groove depth, or ridge height
    label: str | None = None  # text on the floor margin, or under the base (label_position)
    label_mode: LabelMode = "engrave"
    label_depth: float | None = None  # engraving depth or embossing height; None: LABEL_DEPTH where it fits
    markers: bool = False  # arrows engraved on the margin beside the entrance and the exit
    label_position: LabelPosition = "auto"  # auto: the margin when it holds the text, else the bottom
    nozzle: float = 0.4  # no label stroke (nor engraved gap) narrower than this

    def path_width(self, fab: Fabrication) -> float | None:
        """Width of the solution strip, mm (None without a solution)."""
        if self.solution == "none":
            return None
        return self.solution_width if self.solution_width is not None else round(0.4 * fab.corridor_width, 3)

    def bottom_depth_limit(self, fab: Fabrication) -> float:
        """Deepest label engraving under the base, mm: :data:`MIN_FLOOR` of plate must stay
        under the groove. (The arrows are cut into the margin, and a label under the base
        keeps clear of the margin when there are arrows.)"""
        top_cut = self.solution_depth if self.solution == "groove" else 0.0
        return round(fab.base_thickness - MIN_FLOOR - top_cut, 6)

    def depth_limit(self, fab: Fabrication, side: str, mode: LabelMode) -> float:
        """Deepest engraving (or highest embossing) of a label on ``side`` as ``mode``, mm."""
        if mode == "emboss":
            return fab.wall_height
        if side == "bottom":
            return self.bottom_depth_limit(fab)
        return round(fab.base_thickness - MIN_FLOOR, 6)

    def place_label(
        self,
        fab: Fabrication,
        size: tuple[int, int],
        blocked: tuple[tuple[float, float, float, float], ...] = (),
        checks: GlyphChecks | None = None,
        *,
        plate: tuple[float, float] | None = None,
    ) -> LabelPlacement:
        """Where the label goes on a maze of ``size`` (rows, cols), how big and how deep
        (``blocked``: boxes taken on the margin; ``checks``: printability checks shared by the
        labels of one run; ``plate``: the plate's width and depth, mm, when it is not a square
        maze's); raises :class:`ParameterError` when it fits nowhere allowed, or
        cannot be as deep as asked, with the changes that work.

        Without a ``label_depth``, a label where the plate is too thin for :data:`LABEL_DEPTH`
        is cut as deep as the plate allows, down to :data:`MIN_LABEL_DEPTH`, with a warning
        naming the base thickness that gives the full depth."""
        from laby3d.geometry.label import LabelRoom, place_label

        if self.label is None:
            raise ParameterError("is not set", field="label")
        room = LabelRoom(
            plate=plate or fab.outer_size(*size), margin=fab.margin, blocked=blocked, under_margin=not self.markers
        )
        placement = place_label(
            self.label, room, mode=self.label_mode, position=self.label_position, nozzle=self.nozzle, checks=checks
        )
        wanted = LABEL_DEPTH if self.label_depth is None else self.label_depth
        limit = self.depth_limit(fab, placement.side, placement.mode)
        if wanted <= limit + 1e-9:
            return replace(placement, depth=wanted)
        thicker = self._base_for(fab, size, wanted, placement.side, plate)
        if self.label_depth is None and limit >= MIN_LABEL_DEPTH - 1e-9:
            shallow = (
                f"the label is engraved {limit:g} mm deep, not {wanted:g}, to keep {MIN_FLOOR:g} mm of plate "
                "above it and any groove"
            )
            if thicker is not None:
                shallow += f"; --base-thickness {thicker:g} engraves it {wanted:g} mm deep"
            return replace(placement, depth=limit, warnings=(*placement.warnings, shallow))
        fixes = [f"--label-depth {limit:g} engraves it"] if limit >= MIN_LABEL_DEPTH - 1e-9 else []
        if thicker is not None:
            fixes.append(f"--base-thickness {thicker:g} engraves it {wanted:g} mm deep")
        fixes.append("or make room for it on the margin")
        if placement.side == "bottom":
            rule = f"for the label under the base ({fab.base_thickness:g} mm base, {MIN_FLOOR:g} mm of plate kept "
            rule += "above it and any groove)"
        else:
            rule = f"to engrave the label on the margin ({fab.base_thickness:g} mm base, {MIN_FLOOR:g} mm of plate "
            rule += "kept under it)"
        raise ParameterError(
            f"must be <= {max(limit, 0):g} mm {rule}, got {wanted:g}; {'; '.join(fixes)}", field="label_depth"
        )

    def _base_for(
        self, fab: Fabrication, size: tuple[int, int], depth: float, side: str, plate: tuple[float, float] | None
    ) -> float | None:
        """The thinnest base (0.1 mm steps) under which the label is engraved ``depth`` mm deep on
        ``side`` as these options place it, re-checked; None when that base does not do it."""
        top_cut = self.solution_depth if side == "bottom" and self.solution == "groove" else 0.0
        base = math.ceil(round((depth + MIN_FLOOR + top_cut) * 10, 6)) / 10
        try:
            trial = replace(self, label_depth=depth).place_label(replace(fab, base_thickness=base), size, plate=plate)
        except ParameterError:
            return None
        return base if trial.side == side and trial.depth == depth else None

    def _check_label(self, fab: Fabrication) -> None:
        """What can be said of the label without its text and the maze's size: mode, position, depth."""
        if self.label_mode not in ("engrave", "emboss"):
            raise ParameterError(f"must be engrave or emboss, got {self.label_mode!r}", field="label_mode")
        if self.label_position not in ("margin", "bottom", "auto"):
            raise ParameterError(f"must be margin, bottom or auto, got {self.label_position!r}", field="label_position")
        if fab.base_thickness == 0:
            raise ParameterError("needs a base plate: base_thickness must be > 0", field="label")
        if self.label_depth is None:
            return
        if self.label_position == "bottom":
            limit = self.bottom_depth_limit(fab)
            if not 0 < self.label_depth <= limit:
                raise ParameterError(
                    f"must be in (0, {limit:g}] mm under a {fab.base_thickness:g} mm base "
                    f"({MIN_FLOOR:g} mm of plate kept above it and the cuts into the top), got {self.label_depth:g}",
                    field="label_depth",
                )
        limit = fab.base_thickness - MIN_FLOOR if self.label_mode == "engrave" else fab.wall_height
        if not 0 < self.label_depth <= limit:
            raise ParameterError(f"must be in (0, {limit:g}] mm, got {self.label_depth:g}", field="label_depth")

    def check(
        self, fab: Fabrication, *, size: tuple[int, int] | None = None, checks: GlyphChecks | None = None
    ) -> None:
        """Raise :class:`ParameterError` unless these options fit ``fab`` and the label's text
        can be drawn; with the maze's ``size`` (rows, cols), also unless the label fits
        somewhere it may go (the whole check of a label but for the arrows' room; ``checks``
        shared by the labels of one run)."""
        self.check_sizes(fab)
        if self.label is not None and size is not None:
            self.place_label(fab, size, checks=checks)
        elif self.label is not None:
            from laby3d.geometry.text import text_shape

            text_shape(self.label)

    def check_sizes(self, fab: Fabrication) -> None:
        """:meth:`check` without the label's text and room."""
        if self.label is not None:
            self._check_label(fab)
        if self.markers and fab.margin < MARKER_MARGIN:
            raise ParameterError(
                f"need margin >= {MARKER_MARGIN:g} mm beside the openings, got {fab.margin:g}", field="markers"
            )
        if self.markers and fab.base_thickness <= MARKER_DEPTH:
            raise ParameterError(f"need base_thickness > {MARKER_DEPTH:g} mm (engraved arrows)", field="markers")
        if self.solution not in SOLUTION_MODES:
            raise ParameterError(f"must be one of {', '.join(SOLUTION_MODES)}, got {self.solution!r}", field="solution")
        if self.solution == "none":
            return
        width = self.path_width(fab)
        if width is None or not 0 < width < fab.corridor_width:
            raise ParameterError(
                f"must be > 0 and < the corridor width ({fab.corridor_width:g} mm), got {width}", field="solution_width"
            )
        if fab.base_thickness == 0:
            raise ParameterError("needs a base plate (a groove or ridge): base_thickness must be > 0", field="solution")
        if self.solution == "groove" and not 0 < self.solution_depth <= fab.base_thickness - 0.4:
            raise ParameterError(
                f"of a groove must be in (0, {fab.base_thickness - 0.4:g}] mm (base_thickness − 0.4 mm of floor "
                f"below it), got {self.solution_depth:g}",
                field="solution_depth",
            )
        if self.solution == "ridge" and not 0 < self.solution_depth < fab.wall_height:
            raise ParameterError(
                f"of a ridge must be in (0, {fab.wall_height:g}) mm, got {self.solution_depth:g}",
                field="solution_depth",
            )


class MazeSolid:
    """The solid of a maze, mm: ``body`` (one closed mesh) and ``parts`` (closed meshes that
    touch without overlapping and share no edge: base, walls, and the solution ridge or the
    embossed label). Each is built on first use, from one plan-view raster.

    ``label_placement`` says where the label went (top margin or under the base) and how big.
    """

    def __init__(
        self,
        raster: Raster,
        fab: Fabrication,
        options: SolidOptions,
        marks: dict[int, PlacedLabel],
        *,
        label_placement: LabelPlacement | None = None,
    ) -> None:
        self.raster = raster
        self.fab = fab
        self.options = options
        self.marks = marks
        self.label_placement = label_placement

    def _patches(self, *, embossed: bool = True) -> dict[int, Patch]:
        """The marks on the margin as patches of the floor: the label (engraved or embossed;
        the embossed letters left out when not ``embossed``), arrows engraved."""
        base = self.fab.base_thickness
        patches = {}
        for label, mark in self.marks.items():
            if label == LABEL_AREA:
                placement = self.label_placement
                if placement is None:
                    raise InternalError("a label box on the margin without its placement")
                if placement.mode == "emboss" and not embossed:
                    continue
                sign = 1 if placement.mode == "emboss" else -1
                patches[label] = Patch(mark.glyphs, base + sign * placement.depth)
            else:
                patches[label] = Patch(mark.glyphs, base - MARKER_DEPTH)
        return patches

    def _underside(self) -> Underside | None:
        """The label engraved under the base, when it went there."""
        placement = self.label_placement
        if placement is None or placement.side != "bottom":
            return None
        return Underside(box=placement.mark.box, polygons=placement.mark.glyphs, depth=placement.depth)

    @cached_property
    def body(self) -> Mesh:
        """The whole solid as one watertight body, for STL."""
        heights = solid_heights(self.fab, self.options)
        heights.update({label: self.fab.base_thickness for label in self.marks})
        return extrude(self.raster, heights, 0.0, self._patches(), self._underside())

    @cached_property
    def parts(self) -> dict[str, Mesh]:
        """base (plate, with the groove and engravings), walls, solution (when raised), label
        (when embossed)."""
        raster, options, base_level = self.raster, self.options, self.fab.base_thickness
        parts: dict[str, Mesh] = {}
        if base_level > 0:
            # Labels at the same height are merged so the base's top has no vertices where the
            # other parts stand on it (coincident edges of touching parts weld into 4-face edges).
            merged = {WALL: FLOOR} if options.solution == "groove" else {WALL: FLOOR, PATH: FLOOR}
            heights = {label: base_level for label in (FLOOR, *self.marks, *QUARTERS)}
            heights[PATH] = base_level - options.solution_depth
            parts["base"] = extrude(
                _quartered(raster.relabelled(merged)), heights, 0.0, self._patches(embossed=False), self._underside()
            )
        parts["walls"] = extrude(raster, {WALL: self.fab.height}, base_level)
        if options.solution == "ridge":
            parts["solution"] = extrude(raster, {PATH: base_level + options.solution_depth}, base_level)
        placement = self.label_placement
        if placement is not None and placement.side == "margin" and placement.mode == "emboss":
            parts["label"] = extrude_polygons(placement.mark.glyphs, base_level, base_level + placement.depth)
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


def solid_raster(
    maze: Maze, fab: Fabrication, options: SolidOptions
) -> tuple[Raster, dict[int, PlacedLabel], LabelPlacement | None]:
    """The plan view used for every mesh of this solid, the marks on its margin by raster
    label (the text label, the opening arrows), each in a box of its own, and where the label
    went (on the margin, or under the base outside the raster)."""
    fab.check_size(maze.grid.rows, maze.grid.cols)
    options.check_sizes(fab)
    raster = maze_raster(maze, fab, path_width=options.path_width(fab))
    marks: dict[int, PlacedLabel] = {}
    if options.markers:
        from laby3d.geometry.label import opening_markers

        for index, marker in enumerate(opening_markers(maze, fab)):
            marks[MARKERS[index]] = marker
    placement = None
    if options.label is not None:
        blocked = tuple(mark.box for mark in marks.values())
        placement = options.place_label(fab, (maze.grid.rows, maze.grid.cols), blocked)
        if placement.side == "margin":
            marks[LABEL_AREA] = placement.mark
    for label, mark in marks.items():
        raster = raster.with_box(mark.box, label)
    return raster, marks, placement


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
    raster, marks, placement = solid_raster(maze, fab, options)
    return MazeSolid(raster, fab, options, marks, label_placement=placement)
