"""One render pipeline: a maze and its job's options → the bytes of every output.

A :class:`RenderContext` owns one maze and the options of its job; the intermediates several
formats share (the solid for STL, 3MF and GLB; the laser drawing for SVG and DXF) are built
once, on first use. ``laby3d generate``/``export``, the batch runner and :func:`render` all go
through it; nothing here writes a file.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from laby3d.export.formats import CLASS_FORMATS, get_format, needs_of

if TYPE_CHECKING:
    from laby3d.geometry.laser import LaserSheets
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze
    from laby3d.mesh.solid import MazeSolid
    from laby3d.options.job import Job


def maze_for(job: Job, seed: int | None) -> Maze:
    """The maze ``job`` describes, with ``seed`` (drawn when None)."""
    from laby3d.maze.generate import generate

    spec = job.maze
    return generate(
        *spec.size(),
        shape=spec.shape,
        algorithm=spec.algorithm,
        seed=seed,
        placement=spec.placement,
        entrance=spec.entrance,
        exit=spec.exit,
        outline=spec.outline,
        braid=spec.braid,
        first_ring=spec.first_ring,
        room=spec.room,
        **spec.options(),
    )


class RenderContext:
    """One maze and its job's options; shared intermediates are built once (mm throughout)."""

    def __init__(self, maze: Maze, job: Job) -> None:
        self.maze = maze
        self.job = job

    @property
    def show_solution(self) -> bool:
        """Pictures and text mark the solution (asked for, or shaped into the solid)."""
        return self.job.pictures.solution or self.job.print.solution != "none"

    @cached_property
    def fabrication(self) -> Fabrication:
        """The solid's and the sheets' sizes, mm."""
        return self.job.print.fabrication()

    @cached_property
    def solid(self) -> MazeSolid:
        """The printable solid (body for STL, parts for 3MF and GLB), by its builder in the
        format table (:data:`laby3d.export.formats.SOLIDS`)."""
        from laby3d.export.formats import solid_builder

        return solid_builder(self.maze.tessellation.kind).build(self)  # type: ignore[no-any-return]

    @cached_property
    def solid_header(self) -> str:
        """The solid's 80-character STL header (the 3MF's title, stripped)."""
        from laby3d.export.formats import solid_builder

        return solid_builder(self.maze.tessellation.kind).header(self)

    @cached_property
    def printability(self) -> dict[str, Any]:
        """The printability report of the solid (raises when the walls cannot print, unless forced)."""
        from laby3d.printability import printability_report

        fleet = tuple(self.job.print.fleet or ())
        report = printability_report(
            self.maze, self.fabrication, self.solid.body, self.job.print.print_settings(), solid=self.solid, fleet=fleet
        )
        report["warnings"] = [*self.job.notes, *report["warnings"]]  # what the job's preset took
        return report

    @cached_property
    def laser_sheets(self) -> LaserSheets:
        """Every laser sheet (a page each, strokes in travel order) and the kit, mm."""
        from laby3d.geometry.laser import laser_sheets

        options = self.job.laser.options(self.job.print.ball, self.job.label, self.job.lang)
        return laser_sheets(self.maze, self.fabrication, options)

    def laser_files(self, suffix: str) -> dict[str, bytes]:
        """One file per sheet and material (``plywood-3mm-1.svg``…) and the laser report, for a
        kit; ``suffix`` is ``svg`` or ``dxf``."""
        from laby3d.export.laser import laser_files

        return laser_files(
            self.laser_sheets,
            suffix=suffix,
            metadata=self.laser_metadata(),
            overview=False,
            **self.job.laser.file_options(),
        )

    def laser_metadata(self) -> dict[str, Any]:
        """What a laser file records about its maze and parameters."""
        fab, laser = self.fabrication, self.job.laser
        if laser.mode == "kerf-test":  # the card has no maze on it
            return {"generator": "laby3d", "mode": laser.mode, "kerf_mm": laser.kerf}
        maze = self.maze
        shape = {} if maze.shape == "square" else {"shape": maze.shape}
        return {
            "generator": "laby3d",
            **shape,
            "rows": maze.rows,
            "cols": maze.cols,
            "algorithm": maze.algorithm,
            "seed": maze.seed,
            "mode": laser.mode,
            "kerf_mm": laser.kerf,
            "cell_size_mm": fab.cell_size,
            "wall_thickness_mm": fab.wall_thickness,
            "margin_mm": fab.margin,
        }

    def render(self, name: str) -> bytes:
        """The bytes of format ``name`` (as ``laby3d list`` prints it)."""
        return get_format(name).render(self)


@dataclass
class Rendered:
    """Every output of one maze, not yet written: ``files`` maps a file-name suffix (a format
    name, or a companion such as ``printability.json`` or ``plywood-3mm-1.svg``) to its bytes;
    ``companions`` says which format each companion goes with (its file sits beside that
    format's file); ``report`` is the printability report; ``laser_warnings`` what happened to
    the laser sheets' text (moved, shrunk, left off)."""

    files: dict[str, bytes]
    companions: dict[str, str] = field(default_factory=dict)
    report: dict[str, Any] | None = None
    laser_warnings: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)


def render_all(maze: Maze, job: Job, formats: Sequence[str]) -> Rendered:
    """Render ``formats`` of ``maze`` with ``job``'s options; with a solid among them, the
    printability report comes first (so unprintable walls are refused before anything else).
    Formats made once over a batch's mazes (``plates``) make no file here, only the report."""
    context = RenderContext(maze, job)
    rendered = Rendered(files={})
    solids = [name for name in formats if needs_of(name) == "solid"]
    if solids:
        start = time.perf_counter()
        rendered.report = context.printability
        rendered.files["printability.json"] = (
            json.dumps(rendered.report, indent=2, ensure_ascii=False) + "\n"
        ).encode()
        rendered.companions["printability.json"] = solids[0]
        rendered.timings["solid"] = time.perf_counter() - start
    for name in formats:
        if name in CLASS_FORMATS:
            continue
        start = time.perf_counter()
        rendered.files[name] = context.render(name)
        if name in ("svg", "dxf") and job.laser.mode in ("stack", "kerf-test"):
            sheets = context.laser_files(name)
            rendered.files.update(sheets)
            rendered.companions.update(dict.fromkeys(sheets, name))
        rendered.timings[name] = time.perf_counter() - start
    if any(needs_of(name) == "laser" for name in formats):
        rendered.laser_warnings = context.laser_sheets.text_warnings
    return rendered


def render_booklet(pupils: Sequence[tuple[Maze, str | None]], job: Job, name: str) -> bytes:
    """A class booklet of ``pupils`` (maze, name): ``worksheet.pdf`` or ``key.pdf``."""
    from laby3d.draw.worksheet import key_pdf, worksheet_pdf

    document = {"worksheet.pdf": worksheet_pdf, "key.pdf": key_pdf}[name]
    return document(pupils, spec=job.worksheet, lang=job.lang)


def render(maze: Maze, fmt: str, **options: Any) -> bytes:
    """The bytes of one output of a maze, as ``laby3d generate -o NAME.FMT`` writes it.

    Parameters
    ----------
    maze : Maze
        Any maze (:func:`laby3d.generate`, :meth:`laby3d.Maze.from_json`).
    fmt : str
        A format name as ``laby3d list`` prints it: ``"stl"``, ``"3mf"``, ``"svg"``, ``"png"``,
        ``"worksheet.pdf"``, ``"lesson.pdf"``, ``"html"``…
    **options
        The CLI's flags with ``_`` for ``-`` (``cell_size=8``, ``label="Ana"``,
        ``laser_mode="outline"``, ``lang="fr"``): the same options, checked the same way.

    Returns
    -------
    bytes
        The file's content; nothing is written.

    Raises
    ------
    ParameterError
        Naming the option at fault, or the format when the maze's shape has none of it.

    Examples
    --------
    >>> import laby3d
    >>> maze = laby3d.generate(3, 4, seed=1)
    >>> laby3d.render(maze, "stl", cell_size=8)[:11]
    b'laby3d maze'
    >>> laby3d.render(laby3d.generate(3, shape="theta", seed=1), "txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    laby3d.errors.ParameterError: formats txt takes square mazes only (text art: ...
    """
    from laby3d.maze.model import check_maze
    from laby3d.options.build import job_from_options

    check_maze(maze)
    get_format(fmt)
    job = job_from_options(options, formats=[fmt], size=(maze.rows, maze.cols), shape=maze.shape)
    return RenderContext(maze, job).render(fmt)
