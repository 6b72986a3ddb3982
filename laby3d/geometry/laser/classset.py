"""A class set: many pupils' ball kits nested together on shared sheets, per material, across
every job of the class (a class with several maze sizes is several jobs).

Every part carries its pupil's name as its only text besides the layer number (no kit label:
one name per part), legible in the bottom frame band, so the pieces can be sorted after cutting.
Each job's kits are made with its own sizes and laser options; they are nested together on the
first job's sheet with its spacing (the caller pools jobs whose sheet and spacing agree).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from laby3d.errors import ParameterError
from laby3d.geometry.laser.kit import frame_of, kit_of
from laby3d.geometry.laser.layout import nest, pages
from laby3d.geometry.laser.sheets import LaserSheets
from laby3d.geometry.laser.travel import ordered

if TYPE_CHECKING:
    from laby3d.geometry.laser.frame import Frame
    from laby3d.geometry.laser.options import LaserOptions
    from laby3d.geometry.laser.parts import Part
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze


@dataclass(frozen=True, kw_only=True)
class ClassKits:
    """One job's pupils, ``(name, maze)`` each, and the sizes and laser options of their kits."""

    job: str
    pupils: Sequence[tuple[str, Maze]]
    fab: Fabrication
    options: LaserOptions


def class_sheets(kits: Sequence[tuple[str, Maze]], fab: Fabrication, options: LaserOptions) -> LaserSheets:
    """The kits of every ``(pupil name, maze)`` nested on shared sheets, one page per sheet; a
    name that cannot be engraved legibly is refused (field ``names[i]``)."""
    return pooled_sheets([ClassKits(job="", pupils=kits, fab=fab, options=options)])


def pooled_sheets(jobs: Sequence[ClassKits]) -> LaserSheets:
    """The kits of every job's pupils nested together per material on the first job's sheets,
    one page per sheet; a name that cannot be engraved legibly is refused (field ``names[i]``,
    the job named when there are several)."""
    parts: list[Part] = []
    warnings: list[str] = []
    for job in jobs:
        frames: dict[tuple[object, ...], Frame] = {}  # by board (shape, size, outline): checked, then shared
        for index, (name, maze) in enumerate(job.pupils):
            board = _board(maze)
            try:
                if board not in frames:
                    job.options.check(job.fab, size=(maze.rows, maze.cols), shape=maze.shape)
                    frames[board] = frame_of(maze, job.fab, job.options)
                kit = kit_of(maze, job.fab, job.options, tag=name, frame=frames[board])
            except ParameterError as error:
                if error.field != "tag":
                    raise
                detail = error.detail if len(jobs) == 1 else f"{error.detail} (job {job.job})"
                raise ParameterError(detail, field=f"names[{index}]") from None
            parts.extend(kit.parts)
            warnings.extend(w for w in kit.warnings if w not in warnings)
    options = jobs[0].options
    nesting = nest(parts, options.sheet_size, options.spacing)
    drawn = pages(nesting.placements, options.sheet_size, shared_edges=options.spacing == 0)
    return LaserSheets(pages=[ordered(page) for page in drawn], kit=None, nesting=nesting.materials, warnings=warnings)


def _board(maze: Maze) -> tuple[object, ...]:
    """What a kit's frame depends on: the maze's shape, size, shape options and the cells an
    outline keeps (two pupils' hearts of one size share a frame, a heart and a star do not)."""
    t = maze.tessellation
    inside = None if t.inside is None else t.inside.tobytes()
    return (maze.shape, maze.rows, maze.cols, t.options, inside)
