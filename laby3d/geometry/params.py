"""Fabrication parameters in millimetres, validated together."""

from __future__ import annotations

import math
from dataclasses import dataclass

from laby3d.errors import ParameterError
from laby3d.quoting import shown

#: Largest outer size of a solid or sheet, mm (beyond 5 m a size is a unit mistake, not a maze).
MAX_SIZE_MM = 5000.0
#: Thinnest feature (wall, height, depth, plate, margin) laby3d makes, mm: below it the geometry
#: degenerates into slivers no printer or laser can make (half the thinnest common nozzle).
MIN_FEATURE_MM = 0.2
#: Smallest cell pitch, mm.
MIN_CELL_MM = 1.0


@dataclass(frozen=True, kw_only=True)
class Fabrication:
    """Sizes of the printable solid and the sheets, mm (defaults print on a 0.4 mm nozzle).

    >>> Fabrication().corridor_width
    8.4
    """

    cell_size: float = 10.0  # grid pitch: centre line to centre line of parallel walls
    wall_thickness: float = 1.6
    wall_height: float = 8.0  # above the base
    base_thickness: float = 2.0  # floor plate under everything; 0 = walls only
    margin: float = 0.0  # floor beyond the outer walls

    def __post_init__(self) -> None:
        for name in ("cell_size", "wall_thickness", "wall_height", "base_thickness", "margin"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ParameterError(f"must be a finite number of mm, got {value!r}", field=name)
        for name in ("cell_size", "wall_thickness", "wall_height"):
            if getattr(self, name) <= 0:
                raise ParameterError(f"must be > 0 mm, got {getattr(self, name):g}", field=name)
        for name in ("base_thickness", "margin"):
            if getattr(self, name) < 0:
                raise ParameterError(f"must be >= 0 mm, got {getattr(self, name):g}", field=name)
            if 0 < getattr(self, name) < MIN_FEATURE_MM:
                raise ParameterError(
                    f"must be 0 or at least {MIN_FEATURE_MM:g} mm, got {getattr(self, name):g}", field=name
                )
        for name in ("cell_size", "wall_thickness", "wall_height"):
            floor = MIN_CELL_MM if name == "cell_size" else MIN_FEATURE_MM
            if getattr(self, name) < floor:
                raise ParameterError(f"must be at least {floor:g} mm, got {getattr(self, name):g}", field=name)
        for name in ("cell_size", "wall_height", "base_thickness", "margin"):
            if getattr(self, name) > MAX_SIZE_MM:
                raise ParameterError(f"must be at most {MAX_SIZE_MM:g} mm, got {getattr(self, name):g}", field=name)
        if self.wall_thickness >= self.cell_size:
            raise ParameterError(
                f"must be < cell_size ({self.cell_size:g} mm) so corridors stay open, got {self.wall_thickness:g}",
                field="wall_thickness",
            )
        if self.margin > 0 and self.base_thickness == 0:
            raise ParameterError("needs a base plate: base_thickness must be > 0 when margin > 0", field="margin")

    @property
    def wall_line(self) -> float:
        """Distance from the plate's edge to the centre line of the outer walls, mm."""
        return self.margin + self.wall_thickness / 2

    def cell_centre(self, row: int, col: int, *, rows: int) -> tuple[float, float]:
        """Centre of cell ``(row, col)`` of a maze of ``rows`` rows on the plate, mm (x right, y up).

        >>> Fabrication(margin=5).cell_centre(0, 0, rows=3)
        (10.8, 30.8)
        """
        return (
            round(self.wall_line + (col + 0.5) * self.cell_size, 9),
            round(self.wall_line + (rows - row - 0.5) * self.cell_size, 9),
        )

    @property
    def corridor_width(self) -> float:
        """Free width between two walls, mm."""
        return round(self.cell_size - self.wall_thickness, 9)

    @property
    def height(self) -> float:
        """Total height of the solid, mm."""
        return self.base_thickness + self.wall_height

    def outer_size(self, rows: int, cols: int | None, *, shape: str = "square") -> tuple[float, float]:
        """Width (x) and depth (y) of the plate, mm: the ``shape`` maze's bounding box
        (:func:`laby3d.tessellation.extent_of`; cols None for theta), a wall and two margins."""
        from laby3d.tessellation import extent_of

        extra = self.wall_thickness + 2 * self.margin
        width, height = extent_of(shape, rows, cols)
        return width * self.cell_size + extra, height * self.cell_size + extra

    def check_size(self, rows: int, cols: int | None, *, shape: str = "square") -> None:
        """Refuse outer sizes beyond :data:`MAX_SIZE_MM`."""
        width, depth = self.outer_size(rows, cols, shape=shape)
        if max(width, depth) > MAX_SIZE_MM:
            raise ParameterError(
                f"gives a model of {width:g} × {depth:g} mm; at most {MAX_SIZE_MM:g} mm per side "
                f"(lower cell_size or the maze size)",
                field="cell_size",
            )


def parse_sizes(text: str, name: str, counts: tuple[int, ...], shape: str, example: str) -> list[float]:
    """``"600x400"`` → [600.0, 400.0]: sizes in :data:`MIN_CELL_MM`..:data:`MAX_SIZE_MM` mm, as
    many as one of ``counts``; errors show the expected ``shape`` (e.g. "WxH") and an ``example``.

    >>> parse_sizes("600x400", "sheet", (2,), "WxH", "600x400")
    [600.0, 400.0]
    """
    try:
        values = [float(part) for part in text.lower().split("x", max(counts))] if len(text) <= 100 else []
    except ValueError:
        values = []
    if len(values) not in counts or not all(MIN_CELL_MM <= v <= MAX_SIZE_MM for v in values):
        raise ParameterError(
            f"must look like {shape} in mm, each {MIN_CELL_MM:g}..{MAX_SIZE_MM:g}, e.g. {example}, got {shown(text)}",
            field=name,
        )
    return values
