"""What a solid shows besides the walls (solution strip, label, arrows) and the checks of those
options that need no maze: sizes, depths, where a label may go, mm."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from laby3d.errors import ParameterError
from laby3d.geometry.choices import MARKER_DEPTH, MARKER_MARGIN, LabelMode, LabelPosition

if TYPE_CHECKING:
    from laby3d.geometry.label import GlyphChecks, LabelPlacement
    from laby3d.geometry.params import Fabrication

#: Plate left above (or below) a cut into the base, mm.
MIN_FLOOR = 0.4
#: A label's depth (or height) when none is asked for, and the least it may be cut to where the
#: plate is too thin for it (one 0.2 mm layer, still read as the first layer's gap), mm.
LABEL_DEPTH = 0.6
MIN_LABEL_DEPTH = 0.2
SolutionMode = Literal["none", "groove", "ridge"]
SOLUTION_MODES = ("none", "groove", "ridge")
#: The solution strip's default width, as a share of the narrowest passage.
STRIP_WIDTH = 0.4


@dataclass(frozen=True, kw_only=True)
class SolidOptions:
    """What the solid shows besides the walls, mm."""

    solution: SolutionMode = "none"
    solution_width: float | None = None  # default: STRIP_WIDTH of the narrowest passage
    solution_depth: float = 0.6  # groove depth, or ridge height
    label: str | None = None  # text on the floor margin, or under the base (label_position)
    label_mode: LabelMode = "engrave"
    label_depth: float | None = None  # engraving depth or embossing height; None: LABEL_DEPTH where it fits
    markers: bool = False  # arrows engraved on the margin beside the entrance and the exit
    label_position: LabelPosition = "auto"  # auto: the margin when it holds the text, else the bottom
    nozzle: float = 0.4  # no label stroke (nor engraved gap) narrower than this

    def strip_width(self, passage: float) -> float | None:
        """Width of the solution strip, mm: as asked, or :data:`STRIP_WIDTH` of the maze's narrowest
        ``passage`` (mm, :func:`laby3d.geometry.passages.narrowest_passage`); None without a solution."""
        if self.solution == "none":
            return None
        return self.solution_width if self.solution_width is not None else round(STRIP_WIDTH * passage, 3)

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
        plate: tuple[float, float],
        blocked: tuple[tuple[float, float, float, float], ...] = (),
        checks: GlyphChecks | None = None,
    ) -> LabelPlacement:
        """Where the label goes on a rectangular ``plate`` (width, depth, mm) with straight margins
        ``fab.margin`` wide, how big and how deep (``blocked``: boxes taken on the margin;
        ``checks``: printability checks shared by the labels of one run); raises
        :class:`ParameterError` when it fits nowhere allowed, or cannot be as deep as asked, with
        the changes that work.

        Without a ``label_depth``, a label where the plate is too thin for :data:`LABEL_DEPTH`
        is cut as deep as the plate allows, down to :data:`MIN_LABEL_DEPTH`, with a warning
        naming the base thickness that gives the full depth."""
        from laby3d.geometry.label import LabelRoom, place_label

        if self.label is None:
            raise ParameterError("is not set", field="label")
        room = LabelRoom(plate=plate, margin=fab.margin, blocked=blocked, under_margin=not self.markers)
        placement = place_label(
            self.label, room, mode=self.label_mode, position=self.label_position, nozzle=self.nozzle, checks=checks
        )
        wanted = LABEL_DEPTH if self.label_depth is None else self.label_depth
        limit = self.depth_limit(fab, placement.side, placement.mode)
        if wanted <= limit + 1e-9:
            return replace(placement, depth=wanted)
        thicker = self._base_for(fab, plate, wanted, placement.side)
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

    def _base_for(self, fab: Fabrication, plate: tuple[float, float], depth: float, side: str) -> float | None:
        """The thinnest base (0.1 mm steps) under which the label is engraved ``depth`` mm deep on
        ``side`` as these options place it, re-checked; None when that base does not do it."""
        top_cut = self.solution_depth if side == "bottom" and self.solution == "groove" else 0.0
        base = math.ceil(round((depth + MIN_FLOOR + top_cut) * 10, 6)) / 10
        try:
            trial = replace(self, label_depth=depth).place_label(replace(fab, base_thickness=base), plate)
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

    def check_sizes(self, fab: Fabrication) -> None:
        """Raise :class:`ParameterError` unless these options fit ``fab``: the label's mode,
        position and depth, the arrows' margin, the strip's width and depth (the label's text and
        room, and the passages of the maze's shape: :func:`laby3d.mesh.solid.check_solid`)."""
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
        width = self.solution_width
        if width is not None and not 0 < width < fab.corridor_width:
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
