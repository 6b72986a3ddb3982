"""Maze → laser sheets: the parts of the mode, nested on material sheets, strokes in travel order.

Modes, for a maze of any shape: ``lines`` (every closed wall once along its centre line, in as
few strokes as the odd-point bound, as a cut, a score or a line engraving: :mod:`.lines`),
``outline`` (the walls' footprint, :func:`.walls.wall_footprint`, grown by half the kerf),
``stack`` (the layered ball-maze kit of :mod:`.kit`), ``kerf-test`` (the comb of
:mod:`.kerf_test`, to measure the kerf before cutting a kit).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely

from laby3d.geometry.laser.drawing import Drawing, overview
from laby3d.geometry.laser.engraving import caption
from laby3d.geometry.laser.kerf_test import kerf_comb
from laby3d.geometry.laser.kit import Kit, kit_of
from laby3d.geometry.laser.layout import Nesting, Placement, nest, pages
from laby3d.geometry.laser.lines import lines_part
from laby3d.geometry.laser.options import LaserOptions, Material
from laby3d.geometry.laser.parts import Mark, Part, grown, text_marks
from laby3d.geometry.laser.travel import ordered, travel_length
from laby3d.geometry.laser.walls import wall_footprint, wall_plan
from laby3d.geometry.text import text_outlines

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze

#: The reference square's side, mm.
REFERENCE = 100.0


@dataclass(frozen=True, kw_only=True)
class LaserSheets:
    """Every sheet of a laser job (one page each, strokes in travel order) and the kit, if any."""

    pages: list[Drawing]
    kit: Kit | None = None
    nesting: list[dict[str, Any]] = field(default_factory=list)  # per material: sheets vs the area bound
    warnings: list[str] = field(default_factory=list)  # text moved or left off

    @property
    def text_warnings(self) -> list[str]:
        """What happened to the engraved text: moved, shrunk or left off (the sheets' or the kit's)."""
        return self.warnings or (self.kit.warnings if self.kit is not None else [])

    def names(self) -> list[str]:
        """File-name stem per page: material and number within that material (``plywood-3mm-2``)."""
        counts: dict[str, int] = {}
        names = []
        for page in self.pages:
            key = page.material.key if page.material is not None else "sheet"
            counts[key] = counts.get(key, 0) + 1
            names.append(f"{key}-{counts[key]}")
        return names

    def overview(self) -> Drawing:
        """Every sheet on one page, stacked down."""
        return overview(self.pages)

    def report(self) -> dict[str, Any]:
        """Sheets (material, parts, cut length, travel) and the kit, JSON-ready, mm."""
        sheets: list[dict[str, Any]] = [
            {
                "name": name,
                "material": page.material.name if page.material else None,
                "thickness_mm": page.material.thickness if page.material else None,
                "size_mm": [round(page.width, 3), round(page.height, 3)],
                "parts": page.titles[0] if page.titles else "",
                "cut_length_mm": round(page.cut_length(), 1),
                "travel_mm": round(travel_length(page), 1),
            }
            for name, page in zip(self.names(), self.pages, strict=True)
        ]
        report: dict[str, Any] = {
            "sheets": sheets,
            "cut_length_mm": round(sum(s["cut_length_mm"] for s in sheets), 1),
            "travel_mm": round(sum(s["travel_mm"] for s in sheets), 1),
        }
        if self.nesting:
            report["nesting"] = self.nesting
        if self.text_warnings:
            report["warnings"] = self.text_warnings
        if self.kit is not None:
            report["kit"] = self.kit.report()
        return report


def laser_sheets(maze: Maze, fab: Fabrication, options: LaserOptions) -> LaserSheets:
    """The sheets of ``maze`` (of any shape) in ``options.mode``. Lines are ordered as the
    maze's tessellation kind orders them (:data:`.walls.WALL_PLANS`); kits, outlines and the
    kerf card by :func:`.ordered` (24 round kits: the same travel in 0.8 s as in 6 s by
    :func:`.restarted`)."""
    options.check(fab, size=(maze.rows, maze.cols), seed=maze.seed, shape=maze.shape)
    kit = None
    if options.mode == "stack":
        kit = kit_of(maze, fab, options)
        parts = list(kit.parts)
        nesting = nest(parts, options.sheet_size, options.spacing)
        if options.reference_square:
            parts = _with_reference(parts, nesting.sheets, options)
            nesting = nest(parts, options.sheet_size, options.spacing)
        sheet = options.sheet_size
    elif options.mode == "kerf-test":
        card = kerf_comb(options.wall_material, options.kerf, options.lang)
        nesting = nest([card], options.sheet_size, options.spacing)
        sheet = options.sheet_size
    else:
        part = _drawing_part(maze, fab, options)
        if options.sheet is None:
            nesting = _alone(part)
            sheet = part.size
        else:
            nesting = nest([part], options.sheet, 0.0)
            sheet = options.sheet
    drawn = pages(nesting.placements, sheet, shared_edges=options.spacing == 0)
    order = wall_plan(maze).order if options.mode == "lines" else ordered
    return LaserSheets(pages=[order(page) for page in drawn], kit=kit, nesting=nesting.materials)


def _alone(part: Part) -> Nesting:
    """``part`` at the top-left corner of a sheet of its own size."""
    return Nesting(placements=[Placement(part=part, sheet=0, x=0.0, y=0.0, turned=False)], materials=[])


def laser_drawing(maze: Maze, fab: Fabrication, options: LaserOptions) -> Drawing:
    """Every sheet of ``maze`` on one page (the overview), mm."""
    return laser_sheets(maze, fab, options).overview()


def reference_square(material: Material) -> Part:
    """A 100 mm square, scored only: measure it after cutting to check the scale."""
    square = np.array([[0, 0], [REFERENCE, 0], [REFERENCE, REFERENCE], [0, REFERENCE]], float)
    return Part(
        name="reference square",
        material=material,
        shape=None,
        box=(0.0, 0.0, REFERENCE, REFERENCE),
        marks=(Mark(operation="score", points=square, closed=True),),
    )


def _with_reference(parts: list[Part], sheets: int, options: LaserOptions) -> list[Part]:
    """``parts`` plus the reference square: on its own where the ``sheets`` they take have room
    for it, else scored in the middle of the base (hidden once assembled) rather than on a sheet
    of its own."""
    alone = [*parts, reference_square(options.wall_material)]
    if nest(alone, options.sheet_size, options.spacing).sheets == sheets:
        return alone
    base = parts[0]
    x0, y0, x1, y1 = base.box
    if min(x1 - x0, y1 - y0) < REFERENCE + 4.0:
        return alone
    left, bottom = (x0 + x1 - REFERENCE) / 2, (y0 + y1 - REFERENCE) / 2
    (square,) = reference_square(base.material).marks
    moved = Mark(operation="score", points=square.points + [left, bottom], closed=True)
    if base.shape is not None and shapely.area(shapely.Polygon(base.shape.exterior)) < 0.99 * (x1 - x0) * (y1 - y0):
        if not base.shape.buffer(-2.0).contains(shapely.Polygon(moved.points)):  # a disc's corners are gone
            return alone
    return [replace(base, marks=(*base.marks, moved)), *parts[1:]]


def _drawing_part(maze: Maze, fab: Fabrication, options: LaserOptions) -> Part:
    """The one part of lines or outline mode, with its label and reference square."""
    if options.mode == "lines":
        return _with_extras(maze, options, lines_part(maze, fab, options))
    walls = grown(wall_footprint(maze, fab), options.kerf)
    return _with_extras(
        maze, options, Part(name="walls", material=options.wall_material, shape=walls, box=walls.bounds)
    )


def _with_extras(maze: Maze, options: LaserOptions, part: Part) -> Part:
    """The label under the drawing and the reference square beside it, in the same part."""
    x0, y0, x1, y1 = part.box
    marks = list(part.marks)
    if options.label is not None:
        text = caption(options.label, maze.seed)
        marks.extend(text_marks(text_outlines(text, options.text_height), x0 + 2.0, y0 - options.text_height - 2.0))
    if options.reference_square:
        left = x1 + 5.0
        square = np.array(
            [
                [left, y1 - 5 - REFERENCE],
                [left + REFERENCE, y1 - 5 - REFERENCE],
                [left + REFERENCE, y1 - 5],
                [left, y1 - 5],
            ]
        )
        marks.append(Mark(operation="score", points=square, closed=True))
    box = extras_box(part.box, options)
    return Part(name=part.name, material=part.material, shape=part.shape, box=box, marks=tuple(marks))


def extras_box(box: tuple[float, float, float, float], options: LaserOptions) -> tuple[float, float, float, float]:
    """A drawing's ``box`` (mm, y up) grown for the label under it and the reference square beside it."""
    x0, y0, x1, y1 = box
    if options.label is not None:
        y0 -= options.text_height + 6.0
    if options.reference_square:
        x1 += REFERENCE + 10.0
        y0 = min(y0, y1 - REFERENCE - 10.0)
    return x0, y0, x1, y1
