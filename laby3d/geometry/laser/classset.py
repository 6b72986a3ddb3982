"""A class set: many pupils' ball kits nested together on shared sheets, per material.

Every part carries its pupil's name as its only text besides the layer number (no kit label:
one name per part), legible in the bottom frame band, so the pieces can be sorted after cutting.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from laby3d.errors import ParameterError
from laby3d.geometry.laser.kit import ball_kit
from laby3d.geometry.laser.layout import nest, pages
from laby3d.geometry.laser.sheets import LaserSheets
from laby3d.geometry.laser.travel import ordered

if TYPE_CHECKING:
    from laby3d.geometry.laser.options import LaserOptions
    from laby3d.geometry.laser.parts import Part
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze


def class_sheets(kits: Sequence[tuple[str, Maze]], fab: Fabrication, options: LaserOptions) -> LaserSheets:
    """The kits of every ``(pupil name, maze)`` nested on shared sheets, one page per sheet; a
    name that cannot be engraved legibly is refused (field ``names[i]``)."""
    parts: list[Part] = []
    warnings: list[str] = []
    for index, (name, maze) in enumerate(kits):
        try:
            kit = ball_kit(maze, fab, options, tag=name)
        except ParameterError as error:
            if error.field != "tag":
                raise
            raise ParameterError(error.detail, field=f"names[{index}]") from None
        parts.extend(kit.parts)
        warnings.extend(w for w in kit.warnings if w not in warnings)
    nesting = nest(parts, options.sheet_size, options.spacing)
    drawn = pages(nesting.placements, options.sheet_size, shared_edges=options.spacing == 0)
    return LaserSheets(pages=[ordered(page) for page in drawn], kit=None, nesting=nesting.materials, warnings=warnings)
