"""What the render workers do: pure functions of a pupil's design, run in worker processes.

Each takes a :class:`~laby3d.serve.classroom.DesignRequest` (the design, the class's defaults and
locks, the pupil's name) and checks it into a job here, in the worker: checking a job lays out its
label (tens of ms), which the server's event loop must not wait for. Each returns plain data
(bytes, dicts) that pickles back to the server; nothing here writes a file. The job carries its
seed, so a preview, a download and ``laby3d generate`` with the same options give the same maze
and the same bytes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from xml.etree import ElementTree as ET

import numpy as np

from laby3d.errors import ParameterError

if TYPE_CHECKING:
    from laby3d.maze.model import Maze
    from laby3d.options.job import Job
    from laby3d.serve.classroom import DesignRequest

#: Colours of the 2D preview (floor, walls, solution).
PREVIEW_COLOURS = {"floor": "#ebebe1", "walls": "#285aaa", "solution": "#dc3c28"}


class DesignError(Exception):
    """A design the class's rules refuse: the field's dotted path and what is wrong (a
    :class:`ParameterError` as it crosses back from a worker, which pickles its fields)."""

    def __init__(self, detail: str, field: str | None) -> None:
        super().__init__(detail, field)
        self.detail, self.field = detail, field

    def parameter_error(self) -> ParameterError:
        """The error as the library raised it."""
        return ParameterError(self.detail, field=self.field)


def start_worker(warm: bool = True, nice: int = 0) -> None:
    """Run in each worker as it starts: leave Ctrl+C to the server (which stops the workers
    itself, so the terminal shows no worker tracebacks), lower the worker's priority by ``nice``
    (the expensive work yields the cores to previews), then warm up unless told not to."""
    import os
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice and hasattr(os, "nice"):
        os.nice(nice)
    if warm:
        warm_up()


def warm_up() -> bool:
    """Import the renderers and compile the kernels once, so the first pupil does not wait."""
    from laby3d.options.build import validated_job

    job = validated_job({"maze": {"rows": 3, "cols": 3}, "seed": 1, "label": "Ab", "formats": ["stl"]})
    _preview(job, maze_of(job))
    return True


def checked_job(request: DesignRequest, formats: tuple[str, ...] | list[str] | None = None) -> Job:
    """The request's job, checked; raises :class:`DesignError`."""
    try:
        return request.job(formats) if formats is not None else request.job()
    except ParameterError as error:
        raise DesignError(error.detail, error.field) from None


def check(request: DesignRequest) -> tuple[str | None, str] | None:
    """None when the design makes a valid job, else the field's dotted path and what is wrong."""
    try:
        checked_job(request)
    except DesignError as error:
        return error.field, error.detail
    return None


def check_all(requests: dict[str, DesignRequest]) -> dict[str, tuple[str | None, str] | None]:
    """:func:`check` of every request, by key (a lock checked against every pupil at once)."""
    return {key: check(request) for key, request in requests.items()}


def check_upload(data: bytes, name: str) -> str:
    """The stored name of an uploaded outline image, checked
    (:func:`laby3d.serve.uploads.checked_upload`); raises :class:`DesignError`."""
    from laby3d.serve.uploads import checked_upload

    try:
        return checked_upload(data, name)
    except ParameterError as error:
        raise DesignError(error.detail, error.field) from None


def preview(request: DesignRequest) -> dict[str, Any]:
    """The 2D preview (SVG text, mm), the printability report and the GLB of the solid of a
    pupil's design, of any shape; raises :class:`DesignError`."""
    job = checked_job(request)
    return _preview(job, maze_of(job, request))


def maze_of(job: Job, request: DesignRequest | None = None) -> Maze:
    """The job's maze, an uploaded outline recorded as the pupil's reference (``upload:….png``),
    never as the path the server stores it at (the maze file records its outline)."""
    from dataclasses import replace

    from laby3d.pipeline import maze_for

    maze = maze_for(job, job.seed)
    said = {path: reference for reference, path in (request.files if request is not None else {}).items()}
    return replace(maze, outline=said[maze.outline]) if maze.outline in said else maze


def _preview(job: Job, maze: Maze) -> dict[str, Any]:
    from laby3d.pipeline import RenderContext

    context = RenderContext(maze, job)
    report = context.printability
    return {"svg": preview_svg(maze, job), "report": report, "glb": context.render("glb")}


def render_file(request: DesignRequest, fmt: str) -> bytes:
    """The bytes of format ``fmt`` of a pupil's design, as ``laby3d generate`` writes them."""
    from laby3d.pipeline import RenderContext

    job = checked_job(request, [fmt])
    return RenderContext(maze_of(job, request), job).render(fmt)


def preview_svg(maze: Maze, job: Job) -> str:
    """The maze seen from above in mm, drawn from its tessellation: the floor (its outline grown
    by the margin and half a wall), the closed walls as polylines of the wall thickness (theta's
    arcs as the tessellation draws them), the solution when asked for."""
    import shapely

    from laby3d.maze.solve import solution_polyline
    from laby3d.maze.walls import closed_walls

    fab = job.print
    cell, half = fab.cell_size, fab.wall_thickness / 2
    grow = fab.margin + half
    t = maze.tessellation
    floor = shapely.Polygon(t.outline() * cell).buffer(grow, join_style="mitre")
    x0, y0, x1, y1 = floor.bounds
    width, height = x1 - x0, y1 - y0

    def mm(value: float) -> str:
        return f"{round(value, 3) + 0.0:g}"  # + 0.0: no -0

    def placed(points: np.ndarray) -> str:
        return " ".join(f"{mm(x - x0)},{mm(y - y0)}" for x, y in points.tolist())

    root = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"0 0 {mm(width)} {mm(height)}",
            "width": f"{mm(width)}mm",
            "height": f"{mm(height)}mm",
        },
    )
    size = f"{maze.rows} rings" if maze.cols is None else f"{maze.rows} × {maze.cols}"
    ET.SubElement(root, "title").text = f"{maze.shape} maze, {size}, seed {maze.seed}"
    ET.SubElement(
        root, "polygon", {"points": placed(np.asarray(floor.exterior.coords)), "fill": PREVIEW_COLOURS["floor"]}
    )
    path = " ".join("M" + placed(line).replace(" ", "L") for line in closed_walls(maze).polylines(scale=cell))
    walls = {"d": path, "stroke": PREVIEW_COLOURS["walls"], "stroke-width": f"{2 * half:g}", "fill": "none"}
    ET.SubElement(root, "path", {**walls, "stroke-linecap": "round", "stroke-linejoin": "round", "class": "walls"})
    if job.print.solution != "none" or job.pictures.solution:
        line = {"points": placed(solution_polyline(maze) * cell), "stroke": PREVIEW_COLOURS["solution"]}
        line.update({"stroke-width": f"{cell * 0.2:g}", "fill": "none", "stroke-linejoin": "round"})
        ET.SubElement(root, "polyline", {**line, "class": "solution"})
    return ET.tostring(root, encoding="unicode")
