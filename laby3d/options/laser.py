"""Options of the laser sheets (mm)."""

import dataclasses
from typing import TYPE_CHECKING, Annotated, Any, Literal

from laby3d.geometry.params import parse_sizes
from laby3d.options.base import Checked, Millimetres, Section, Whole, option

if TYPE_CHECKING:
    from laby3d.geometry.laser import LaserOptions


def _sheet_text(text: str) -> str:
    parse_sizes(text, "sheet", (2,), "WxH", "600x400")  # sizes checked as typed, whatever the formats
    return text


#: A material sheet ``WxH`` in mm.
SheetText = Annotated[str, Checked(_sheet_text)]


@dataclasses.dataclass(frozen=True, kw_only=True)
class LaserSpec(Section):
    """The laser sheets (mm): mode, kerf, materials, the ball kit, operations and colours."""

    mode: Literal["lines", "outline", "stack", "kerf-test"] = option(
        "lines",
        description="lines: one stroke per wall line; outline: wall outlines; stack: a layered ball-maze kit; "
        "kerf-test: a comb of slots to measure the kerf",
        flags=("--laser-mode",),
    )
    kerf: Millimetres = option(0.15, ge=0, le=2, description="cut width, mm (parts grow by kerf/2)")
    sheet: SheetText | None = option(
        None, description="material sheet WxH, mm; default 600x400 for the kit, the drawing's own size otherwise"
    )
    spacing: Millimetres = option(3.0, ge=0, le=100, description="gap between parts, mm; 0 = shared edges cut once")
    line_operation: Literal["cut", "score", "engrave-line"] = option(
        "score", description="lines mode: what the wall lines do"
    )
    base_material: str = option("plywood", min_length=1, max_length=40, description="kit base material")
    base_material_thickness: Millimetres = option(3.0, gt=0, le=50, description="kit base sheet thickness, mm")
    wall_material: str = option("plywood", min_length=1, max_length=40, description="kit wall sheets' material")
    wall_material_thickness: Millimetres = option(3.0, gt=0, le=50, description="one wall sheet's thickness, mm")
    top_material: str = option("acrylic", min_length=1, max_length=40, description="kit top material (clear)")
    top_material_thickness: Millimetres = option(3.0, gt=0, le=50, description="kit top sheet thickness, mm")
    wall_layers: Whole | None = option(
        None, ge=1, le=50, description="kit wall sheets stacked; default as many as the ball + play need"
    )
    top: bool = option(
        False,
        description="kit: add a clear top with ball holes over entrance and exit",
        flags=("--top-sheet",),
    )
    ball_play: Millimetres = option(1.0, ge=0, le=20, description="kit: clearance over the ball and in its holes, mm")
    registration_holes: Millimetres | None = option(
        None, gt=0, le=20, description="kit: diameter of dowel holes at the frame corners of every layer, mm"
    )
    engrave_solution: bool = option(False, description="engrave the solution path (an answer key)")
    palette: Literal["default", "boxes"] = option(
        "default", description="colours per operation: default = LightBurn's, boxes = boxes.py's"
    )
    stroke_width: Millimetres = option(0.1, gt=0, le=1, description="hairline width, mm")
    sheet_notes: bool = option(True, description="sheet outlines as a hidden, non-output layer (false: left out)")
    sheet_overview: bool = option(True, description="a class set's nested sheets: also a page showing every sheet")
    reference_square: bool = option(False, description="score a 100 mm square to check the scale")

    def file_options(self) -> dict[str, Any]:
        """How the sheets are written (colours, hairline, notes layer), for the file writers."""
        return {"palette": self.palette, "stroke_width": self.stroke_width, "notes": self.sheet_notes}

    def options(self, ball: float | None, label: str | None = None, lang: str = "en") -> "LaserOptions":
        """The library's laser options (``ball``: the print section's ball diameter, mm;
        ``lang``: the job's, for the kerf card's instructions)."""
        from laby3d.geometry.laser import LaserOptions, Material  # shapely and scipy: only when cutting

        sheet = None
        if self.sheet is not None:
            width, height = parse_sizes(self.sheet, "sheet", (2,), "WxH", "600x400")
            sheet = (width, height)
        return LaserOptions(
            mode=self.mode,
            kerf=self.kerf,
            sheet=sheet,
            spacing=self.spacing,
            line_operation=self.line_operation,
            base_material=Material(name=self.base_material, thickness=self.base_material_thickness),
            wall_material=Material(name=self.wall_material, thickness=self.wall_material_thickness),
            top_material=Material(name=self.top_material, thickness=self.top_material_thickness),
            wall_layers=self.wall_layers,
            top=self.top,
            ball=ball,
            ball_play=self.ball_play,
            registration_holes=self.registration_holes,
            engrave_solution=self.engrave_solution,
            reference_square=self.reference_square,
            label=label,
            lang=lang,
        )
