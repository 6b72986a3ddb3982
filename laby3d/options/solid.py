"""Options of the printable solid (mm) and of the printer it is checked against."""

import dataclasses
from typing import TYPE_CHECKING, Annotated, Literal

from laby3d.errors import ParameterError
from laby3d.geometry.choices import LabelPosition
from laby3d.geometry.params import MAX_SIZE_MM, MIN_CELL_MM, MIN_FEATURE_MM, Fabrication
from laby3d.options.base import Checked, Limits, Millimetres, Section, Whole, option
from laby3d.printability import PRINTERS, PrintSettings, parse_bed
from laby3d.quoting import shown
from laby3d.values import slot_seconds

if TYPE_CHECKING:
    from laby3d.mesh.solid import SolidOptions

SolutionMode = Literal["none", "groove", "ridge"]


def _bed_text(text: str) -> str:
    parse_bed(text)  # sizes checked as typed, whatever the formats
    return text


#: A printable volume ``WxD[xH]`` in mm.
BedText = Annotated[str, Checked(_bed_text)]


def _slot_text(text: str) -> str:
    slot_seconds(text)  # checked as typed
    return text


def _fleet(value: object) -> object:
    """A fleet typed on the command line, ``mini=2,mk3=1``, as the mapping YAML writes."""
    if not isinstance(value, str):
        return value
    fleet: dict[str, object] = {}
    for part in value.split(","):
        kind, equals, count = part.partition("=")
        if not equals or not (count.strip().isascii() and count.strip().isdigit()):  # '²' is a digit too
            raise ParameterError(f"must be printers and counts such as mini=2,mk3=1, got {shown(value)}")
        fleet[kind.strip().lower()] = int(count)
    return fleet


def _fleet_kinds(fleet: dict[str, int]) -> dict[str, int]:
    for kind in fleet:
        if kind not in PRINTERS:
            raise ParameterError(f"must name printers among {', '.join(PRINTERS)}, got {shown(kind)}")
    return fleet


#: Printers of several kinds sharing a class's plates: kind → how many (``{mini: 2, mk3: 1}``).
Fleet = Annotated[
    dict[str, Annotated[int, Limits(ge=1, le=100)]],
    Checked(_fleet, before=True),
    Checked(_fleet_kinds),
    Limits(min_length=1, max_length=4),
]

#: The longest a plate may print: ``55min``, ``1h30``, ``overnight`` (:func:`laby3d.values.slot_seconds`).
SlotText = Annotated[str, Checked(_slot_text)]
LabelMode = Literal["none", "engrave", "emboss"]


@dataclasses.dataclass(frozen=True, kw_only=True)
class PrintSpec(Section):
    """The printable solid (mm) and the printer it is checked against."""

    cell_size: Millimetres = option(
        10.0, ge=MIN_CELL_MM, le=MAX_SIZE_MM, description="grid pitch: wall centre to wall centre, mm"
    )
    wall_thickness: Millimetres = option(1.6, ge=MIN_FEATURE_MM, le=MAX_SIZE_MM, description="mm, less than cell_size")
    wall_height: Millimetres = option(8.0, ge=MIN_FEATURE_MM, le=MAX_SIZE_MM, description="walls above the base, mm")
    base_thickness: Millimetres = option(2.0, ge=0, le=MAX_SIZE_MM, description="floor plate, mm; 0 = walls only")
    margin: Millimetres = option(0.0, ge=0, le=MAX_SIZE_MM, description="floor beyond the outer walls, mm")
    solution: SolutionMode = option("none", description="the solution cut into the floor (groove) or raised (ridge)")
    solution_width: Millimetres | None = option(
        None, ge=MIN_FEATURE_MM, le=MAX_SIZE_MM, description="groove/ridge width, mm; default 40% of the corridor"
    )
    solution_depth: Millimetres = option(
        0.6, ge=MIN_FEATURE_MM, le=MAX_SIZE_MM, description="groove depth or ridge height, mm"
    )
    label_mode: LabelMode = option("engrave", description="how the label goes on the solid")
    label_depth: Millimetres | None = option(
        None,
        ge=MIN_FEATURE_MM,
        le=MAX_SIZE_MM,
        description="label engraving depth or embossing height, mm; default 0.6 (less, with a warning, "
        "where the base is too thin for it)",
    )
    label_position: LabelPosition = option(
        "auto", description="label on the top margin, engraved mirrored under the base, or auto: margin if it fits"
    )
    markers: bool = option(False, description="arrows engraved on the margin at the entrance and exit (margin >= 4 mm)")
    printer: str | None = option(None, description=f"printer whose bed the solid must fit: {', '.join(PRINTERS)}")
    bed: BedText | None = option(
        None, description="printable volume WxD[xH] in mm instead of a printer, e.g. '250x210x220'"
    )
    nozzle: Millimetres = option(0.4, ge=0.1, le=5, description="nozzle diameter, mm")
    ball: Millimetres | None = option(
        None, ge=1, le=MAX_SIZE_MM, description="ball diameter for a rolling-ball maze, mm"
    )
    force: bool = option(False, description="export even with walls thinner than the nozzle")
    skirt_room: Millimetres = option(
        3.0, ge=0, le=50, description="bed room kept free on every side for the slicer's skirt or brim, mm"
    )
    printers: Whole = option(
        1, ge=1, le=100, description="printers of this kind sharing the class's plates (plates format)"
    )
    plate_spacing: Millimetres = option(
        6.0, ge=0, le=50, description="room between two solids on a plate (plates format), mm"
    )
    fleet: Fleet | None = option(
        None,
        description="printers of several kinds sharing the class's plates, e.g. {mini: 2, mk3: 1} (--fleet "
        "mini=2,mk3=1): each solid goes where the class finishes soonest (plates format; instead of printer "
        "and printers)",
    )
    slot: SlotText | None = option(
        None,
        description="longest a plate may print (plates format): a lesson, '55min' or '1h30', so every plate fits "
        "it, or 'overnight' (14 h)",
    )

    def fabrication(self) -> Fabrication:
        """The solid's sizes (checked together)."""
        return Fabrication(
            cell_size=self.cell_size,
            wall_thickness=self.wall_thickness,
            wall_height=self.wall_height,
            base_thickness=self.base_thickness,
            margin=self.margin,
        )

    def solid_options(self, label: str | None = None) -> "SolidOptions":
        """What the solid shows besides the walls (``label``: the text, unless label_mode is none)."""
        from laby3d.mesh.solid import SolidOptions  # shapely and the mesher: only when a solid is asked for

        return SolidOptions(
            solution=self.solution,
            solution_width=self.solution_width,
            solution_depth=self.solution_depth,
            label=label if self.label_mode != "none" else None,
            label_mode="emboss" if self.label_mode == "emboss" else "engrave",
            label_depth=self.label_depth,
            label_position=self.label_position,
            markers=self.markers,
            nozzle=self.nozzle,
        )

    def print_settings(self) -> PrintSettings:
        """Printer, nozzle and ball for the printability report."""
        return PrintSettings(
            printer=self.printer,
            bed=parse_bed(self.bed) if self.bed else None,
            nozzle=self.nozzle,
            ball=self.ball,
            force=self.force,
            skirt_room=self.skirt_room,
        )
