"""Options of the pictures and text art."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from laby3d.options.base import Section, flag


class PictureSpec(Section):
    """What pictures and text show."""

    solution: bool = Field(
        False, description="mark the solution on pictures and text", json_schema_extra=flag("--show-solution")
    )
    heatmap: bool = Field(False, description="colour the cells by distance from the entrance")
    charset: Literal["unicode", "ascii"] = Field("unicode", description="text art characters")
