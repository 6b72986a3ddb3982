"""Options of the classroom documents: worksheets, answer keys and the graph lesson."""

import dataclasses
from typing import Literal

from laby3d.options.base import Section, Whole, option

#: Paper sizes in mm (width, height), portrait.
PAPER_MM: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0)}


@dataclasses.dataclass(frozen=True, kw_only=True)
class WorksheetSpec(Section):
    """What the worksheets, answer keys and lesson pages look like."""

    paper: Literal["a4", "letter", "a3"] = option("a4", description="paper size of worksheets and keys (portrait)")
    per_page: Whole = option(1, ge=1, le=6, description="mazes per worksheet page (each with its name fields)")
    key_per_page: Whole = option(6, ge=1, le=12, description="mazes per answer-key page")
    class_name: str | None = option(
        None, min_length=1, max_length=40, description="class written on the worksheets (blank line when absent)"
    )
    instruction: str | None = option(
        None, min_length=1, max_length=160, description="instruction under the name (the default one when absent)"
    )
    every: Whole | None = option(
        None,
        ge=1,
        le=100_000,
        description="lesson and GIF: one frame every K steps (walls taken; about 40 frames when absent)",
    )
    numbering: Literal["west-north", "drawn-side"] = option(
        "west-north",
        description="zone numbers of the lesson, GIF, handout, walls.csv and show --sets-after: the first cell of "
        "a wall gives its number; west-north: its west or north cell; drawn-side: either cell, drawn from the "
        "seed, as the class exercise's fusionner(i, j, dir) names a wall from any side",
    )
