"""What a laser job asks for (mm): mode, kerf, materials per layer kind, sheet, ball, operations."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from laby3d.errors import ParameterError

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication

LaserMode = Literal["lines", "outline", "stack", "kerf-test"]
LASER_MODES = ("lines", "outline", "stack", "kerf-test")
LineOperation = Literal["cut", "score", "engrave-line"]
LINE_OPERATIONS = ("cut", "score", "engrave-line")
#: Operations by intent, in the order a laser should run them: fills, lines, scores, inner
#: cuts (holes) before outer cuts (a part falls out only once its holes are cut).
OPERATIONS = ("engrave-fill", "engrave-line", "score", "inner-cut", "outer-cut")
CUT_OPERATIONS = ("inner-cut", "outer-cut")
#: Narrowest wall (in plan) a laser cuts into a part that survives handling, mm, by material:
#: wood burns back along both cuts and its bridges under about 1.2 mm break in handling (plywood
#: and MDF: 1.5), acrylic melts a clean edge (1.0, the usual service minimum), corrugated
#: cardboard crushes and its flutes open (2.0). Other materials: plywood's figure.
MIN_WALL = {"plywood": 1.5, "mdf": 1.5, "acrylic": 1.0, "cardboard": 2.0}
#: The largest cell_size a refusal of a ball looks for, mm.
MOST_CELL = 500.0


@dataclass(frozen=True, kw_only=True)
class Material:
    """A sheet material: its name (``plywood``) and thickness, mm."""

    name: str
    thickness: float

    @property
    def key(self) -> str:
        """File-name friendly ``plywood-3mm``."""
        thickness = f"{self.thickness:g}".replace(".", "_")
        return f"{''.join(c if c.isalnum() else '-' for c in self.name.lower())}-{thickness}mm"


@dataclass(frozen=True, kw_only=True)
class LaserOptions:
    """How the sheets are made, mm."""

    mode: LaserMode = "lines"
    kerf: float = 0.15  # width of the cut; parts grow by kerf / 2
    sheet: tuple[float, float] | None = None  # material sheet; None: 600×400 for the kit, the drawing's size else
    spacing: float = 3.0  # between parts; 0: touching parts share their common edges (cut once)
    line_operation: LineOperation = "score"  # lines mode: what the wall lines do
    base_material: Material = Material(name="plywood", thickness=3.0)
    wall_material: Material = Material(name="plywood", thickness=3.0)
    top_material: Material = Material(name="acrylic", thickness=3.0)
    wall_layers: int | None = None  # stack: wall sheets; None: as many as the ball needs
    top: bool = False  # stack: add a clear top sheet with ball holes at the entrance and exit
    ball: float | None = None  # stack: ball diameter; default 60 % of the narrowest passage
    ball_play: float = 1.0  # stack: clearance over the ball (inside height, ball holes), mm
    registration_holes: float | None = None  # stack: dowel diameter for corner alignment holes, mm
    engrave_solution: bool = False  # the solution path engraved (a key); off for a puzzle
    reference_square: bool = False  # a 100 mm square to check the scale
    label: str | None = None  # engraved text (outlines), e.g. a name; the seed is added
    text_height: float = 5.0  # mm
    lang: str = "en"  # the kerf card's instructions: "en" or "fr"

    @property
    def sheet_size(self) -> tuple[float, float]:
        """The kit's sheet, mm (600×400 unless given)."""
        return self.sheet if self.sheet is not None else (600.0, 400.0)

    def ball_diameter(self, fab: Fabrication, shape: str = "square") -> float:
        """The ball, mm: as given, or 60 % of the narrowest passage of a ``shape`` maze
        (:func:`passage_width`), to 0.01 mm."""
        if self.ball is not None:
            return self.ball
        return round(0.6 * passage_width(fab, shape), 2)

    def check(
        self,
        fab: Fabrication,
        *,
        size: tuple[int, int | None] | None = None,
        names: list[str] | None = None,
        seed: int | None = None,
        shape: str = "square",
    ) -> None:
        """Raise :class:`ParameterError` unless these options fit ``fab`` and a ``shape`` maze;
        with the maze's ``size`` (rows, cols; cols None for theta), also unless every part fits
        the sheet and every text engraved (the label with the ``seed``, and with ``names`` each
        pupil's name, as a tag and as their own kit's label) is legible. The same checks as
        making the sheets, so ``laby3d validate`` refuses what a run would."""
        if self.mode not in LASER_MODES:
            raise ParameterError(f"must be one of {', '.join(LASER_MODES)}, got {self.mode!r}", field="mode")
        if self.line_operation not in LINE_OPERATIONS:
            raise ParameterError(
                f"must be one of {', '.join(LINE_OPERATIONS)}, got {self.line_operation!r}", field="line_operation"
            )
        if not (math.isfinite(self.kerf) and 0 <= self.kerf < fab.wall_thickness):
            raise ParameterError(
                f"must be in [0, wall_thickness = {fab.wall_thickness:g}) mm, got {self.kerf:g}", field="kerf"
            )
        if self.sheet is not None and not all(math.isfinite(v) and v > 0 for v in self.sheet):
            raise ParameterError(f"must be two positive sizes in mm, got {self.sheet}", field="sheet")
        if not (math.isfinite(self.spacing) and self.spacing >= 0):
            raise ParameterError(f"must be >= 0 mm, got {self.spacing:g}", field="spacing")
        for kind in ("base", "wall", "top"):
            material: Material = getattr(self, f"{kind}_material")
            if not (math.isfinite(material.thickness) and material.thickness > 0):
                raise ParameterError(f"must be > 0 mm, got {material.thickness:g}", field=f"{kind}_material_thickness")
        if self.mode in ("outline", "stack"):
            self._check_walls(fab)
        if self.mode == "stack":
            self._check_ball(fab, shape)
        if size is not None:
            from laby3d.geometry.laser.fitting import check_fits  # the kit's geometry needs shapely

            check_fits(self, fab, size, names, seed, shape)

    def _check_walls(self, fab: Fabrication) -> None:
        material = self.wall_material
        least = min_wall(material)
        if fab.wall_thickness < least - 1e-9:
            others = ", ".join(f"{name} {value:g}" for name, value in MIN_WALL.items() if name != material.name.lower())
            raise ParameterError(
                f"{fab.wall_thickness:g} mm walls are too thin to laser-cut in {material.name}: at least {least:g} mm "
                f"({others} mm)",
                field="print.wall_thickness",
            )

    def _check_ball(self, fab: Fabrication, shape: str) -> None:
        ball = self.ball_diameter(fab, shape)
        if not (math.isfinite(self.ball_play) and self.ball_play >= 0):
            raise ParameterError(f"must be >= 0 mm, got {self.ball_play:g}", field="ball_play")
        if not (math.isfinite(ball) and ball > 0):
            raise ParameterError(f"must be > 0 mm, got {ball:g}", field="print.ball")
        width = passage_width(fab, shape)
        if ball + self.ball_play > width:
            smaller = (
                f"a ball of at most {width - self.ball_play:.2f} mm" if width > self.ball_play else "a smaller ball"
            )
            cell = least_cell_size(fab, shape, ball + self.ball_play)
            larger = f"a cell_size of at least {cell:g} mm" if cell is not None else "a larger cell_size"
            raise ParameterError(
                f"{ball:g} mm + play {self.ball_play:g} mm must pass the narrowest passage of a {shape} maze "
                f"({width:.2f} mm with cell_size {fab.cell_size:g} and wall_thickness {fab.wall_thickness:g} mm): "
                f"{smaller}, {larger} or thinner walls",
                field="print.ball",
            )
        if self.wall_layers is not None:
            height = self.wall_layers * self.wall_material.thickness
            if height < ball + self.ball_play - 1e-9:
                raise ParameterError(
                    f"gives {self.wall_layers} × {self.wall_material.thickness:g} mm = {height:g} mm of walls, lower "
                    f"than the ball {ball:g} mm + play {self.ball_play:g} mm; at least "
                    f"{wall_layers_needed(ball + self.ball_play, self.wall_material.thickness)} layers",
                    field="wall_layers",
                )
        if self.registration_holes is not None:
            frame = fab.margin + fab.wall_thickness
            if not (self.registration_holes > 0 and self.registration_holes + 2.0 <= frame):
                raise ParameterError(
                    f"must be > 0 and fit the frame with 1 mm around: at most margin + wall_thickness - 2 = "
                    f"{frame - 2.0:g} mm, got {self.registration_holes:g} (raise the margin)",
                    field="registration_holes",
                )


def passage_width(fab: Fabrication, shape: str = "square") -> float:
    """The narrowest passage a ball must pass in any ``shape`` maze with ``fab``'s sizes, mm: the
    solid's :func:`laby3d.geometry.passages.narrowest_passage` (the walls are the same
    footprint; the corridor width for squares and triangles)."""
    from laby3d.geometry.passages import narrowest_passage

    return narrowest_passage(shape, fab)


def least_cell_size(fab: Fabrication, shape: str, passage: float) -> float | None:
    """The least ``cell_size`` (mm, in 0.5 mm steps above ``fab``'s, up to :data:`MOST_CELL`)
    whose narrowest passage (:func:`passage_width`, ``fab``'s walls) is at least ``passage`` mm;
    None when none is."""
    for halves in range(math.floor(2 * fab.cell_size) + 1, int(2 * MOST_CELL) + 1):
        if passage_width(replace(fab, cell_size=halves / 2), shape) >= passage - 1e-9:
            return halves / 2
    return None


def min_wall(material: Material) -> float:
    """The narrowest wall a laser should cut in ``material``, mm (:data:`MIN_WALL`)."""
    return MIN_WALL.get(material.name.lower(), MIN_WALL["plywood"])


def wall_layers_needed(height: float, thickness: float) -> int:
    """Least number of ``thickness`` mm sheets stacking to at least ``height`` mm."""
    return max(1, math.ceil(height / thickness - 1e-9))
