"""Options of the laser sheets (mm)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from laby3d.geometry.laser import LaserOptions
from laby3d.geometry.params import parse_sizes
from laby3d.options.base import Millimetres, Section, flag


class LaserSpec(Section):
    """The laser sheet (mm): mode, kerf, material sheet and colours."""

    mode: Literal["lines", "outline", "stack"] = Field(
        "lines",
        description="lines: one cut per wall; outline: wall outlines; stack: a layered ball-maze kit",
        json_schema_extra=flag("--laser-mode"),
    )
    kerf: Millimetres = Field(0.15, ge=0, le=2, description="cut width, mm (parts grow by kerf/2)")
    sheet: str = Field("600x400", description="material sheet WxH, mm")
    spacing: Millimetres = Field(3.0, ge=0, le=100, description="gap between parts, mm")
    top: bool = Field(
        False, description="stack: add a clear top sheet with a ball hole", json_schema_extra=flag("--top-sheet")
    )
    palette: Literal["default", "boxes"] = Field("default", description="stroke colours per operation")
    stroke_width: Millimetres = Field(0.1, gt=0, le=1, description="hairline width, mm")
    reference_square: bool = Field(False, description="engrave a 100 mm square to check the scale")

    def options(self, ball: float | None, label: str | None = None) -> LaserOptions:
        """The library's laser options."""
        width, height = parse_sizes(self.sheet, "sheet", (2,), "WxH", "600x400")
        return LaserOptions(
            mode=self.mode,
            kerf=self.kerf,
            sheet=(width, height),
            spacing=self.spacing,
            top=self.top,
            ball=ball,
            reference_square=self.reference_square,
            label=label,
        )
