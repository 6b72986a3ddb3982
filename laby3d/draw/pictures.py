"""matplotlib pictures of a maze of any shape, drawn from its tessellation: PNG, PDF, PS; cell
(0, 0) at the top left, one cell size a pitch unit (:func:`maze_picture`).

The same maze gives the same bytes whatever the date, time zone, locale or hash seed: no
creation date, no tool version, the paper size fixed. matplotlib is imported here only, when a
picture is asked for.
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any

from laby3d.draw import exclusive

if TYPE_CHECKING:
    from laby3d.maze.model import Maze

_METADATA = {  # fixed metadata: no date, no matplotlib version
    "png": {"Software": None},
    "pdf": {"Creator": None, "Producer": None, "CreationDate": None},
    "ps": {"Creator": "laby3d"},
}
#: Format-specific savefig arguments that matplotlib would otherwise take from rcParams.
_SAVE_OPTIONS: dict[str, dict[str, Any]] = {"png": {}, "pdf": {}, "ps": {"papertype": "letter"}}
#: Room around a maze for the entrance and exit arrows (cell sizes).
MARK_ROOM = 0.9
#: The drawing's longer side at least (inches, 240 px at 100 dpi): a 1×1 maze was 110 px.
MIN_DRAWING_INCHES = 2.4
#: The PostScript backend always writes the time (or $SOURCE_DATE_EPOCH): removed afterwards.
_PS_CREATION_DATE = re.compile(rb"^%%CreationDate: [^\n]*\n", re.MULTILINE)


@exclusive
def maze_picture(maze: Maze, fmt: str, *, solution: bool = False, heatmap: bool = False, dpi: int = 100) -> bytes:
    """A maze of any shape drawn with matplotlib, as ``fmt`` bytes (png, pdf or ps): its closed
    walls as thick lines, the heat map filling each cell by its distance from the entrance, the
    solution through the cells' centres and the walls crossed, and an arrow through each opening
    (a dot for one inside, such as a theta maze's centre)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from laby3d.draw.plot import add_heatmap, add_marks, add_walls
    from laby3d.maze.solve import solution_polyline

    width, height = maze.tessellation.extent
    side = max(width, height)
    # inches per cell: a quarter inch, less for large mazes, more for tiny ones
    scale = max(min(0.25, 12.0 / side), MIN_DRAWING_INCHES / (side + 2 * MARK_ROOM))
    figure = Figure(figsize=((width + 2 * MARK_ROOM) * scale + 0.4, (height + 2 * MARK_ROOM) * scale + 0.4))
    FigureCanvasAgg(figure)
    axes = figure.add_axes((0.02, 0.02, 0.96, 0.96))

    if heatmap:
        add_heatmap(axes, maze)
    line_width = max(0.3, min(2.0, 150.0 / side))
    add_walls(axes, maze, width=line_width)
    if solution:
        path = solution_polyline(maze)
        axes.plot(path[:, 0], path[:, 1], color="crimson", linewidth=line_width, solid_joinstyle="round", zorder=3)
    add_marks(axes, maze, length=0.7, width=max(0.5, 0.6 * line_width), dot=scale * 72 * 0.4)
    axes.set_xlim(-MARK_ROOM, width + MARK_ROOM)
    axes.set_ylim(height + MARK_ROOM, -MARK_ROOM)
    axes.set_aspect("equal")
    axes.set_axis_off()
    buffer = io.BytesIO()
    figure.savefig(buffer, format=fmt, dpi=dpi, metadata=_METADATA[fmt], **_SAVE_OPTIONS[fmt])
    return without_creation_date(buffer.getvalue(), fmt)


def without_creation_date(data: bytes, fmt: str) -> bytes:
    """``data`` without the ``%%CreationDate`` comment a PostScript header carries (other formats
    are written without a date already).

    >>> without_creation_date(b"%!PS\\n%%CreationDate: Mon Nov 30\\n%%EndComments\\n", "ps")
    b'%!PS\\n%%EndComments\\n'
    """
    if fmt != "ps":
        return data
    header, end, body = data.partition(b"%%EndComments")
    return _PS_CREATION_DATE.sub(b"", header, count=1) + end + body
