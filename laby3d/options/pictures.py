"""Options of the pictures and text art."""

import dataclasses
from typing import Literal

from laby3d.options.base import Section, option


@dataclasses.dataclass(frozen=True, kw_only=True)
class PictureSpec(Section):
    """What pictures and text show."""

    solution: bool = option(False, description="mark the solution on pictures and text", flags=("--show-solution",))
    heatmap: bool = option(False, description="colour the cells by distance from the entrance")
    charset: Literal["unicode", "ascii"] = option("unicode", description="text art characters")
