"""Lines mode: a maze's closed walls along their centre lines, each once, in the fewest strokes, mm.

The walls are the cell graph's (:func:`laby3d.maze.walls.closed_walls`: the interior walls left
closed and the outline less the entrance and exit), for every shape. Steps: (1) the strokes of
the wall graph, as many as the odd-vertex bound (:func:`.euler.euler_strokes`, which goes
straight on where it can); (2) points where a stroke runs straight on dropped (a square maze's
whole wall runs are then one segment each, a triangle maze's too); (3) the tessellation's points
(cell sizes, y down) onto the plate (mm, y up), which holds the tessellation's bounding box, half
a wall and the margin around it. Theta's arcs are the tessellation's polylines (chord error at
most 0.005 cell sizes, 0.05 mm at 10 mm cells: under any kerf), not SVG or DXF arcs: every later
stage (travel order, nesting, the files' single path per layer, the preview) takes polylines,
and laser programs turn arcs into segments anyway.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from laby3d.geometry.laser.euler import euler_strokes
from laby3d.geometry.laser.parts import Mark, Part

if TYPE_CHECKING:
    from laby3d.geometry.laser.options import LaserOptions
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze

#: Sine of the largest turn (radians, about) at which a stroke's point counts as straight on.
STRAIGHT = 1e-9


def to_plate(points: np.ndarray, fab: Fabrication, depth: float) -> np.ndarray:
    """Tessellation points (cell sizes, y down) → plate points (mm, y up) of a plate ``depth`` mm deep."""
    pad = fab.wall_line
    return np.column_stack([pad + points[:, 0] * fab.cell_size, depth - pad - points[:, 1] * fab.cell_size])


def lines_part(maze: Maze, fab: Fabrication, options: LaserOptions) -> Part:
    """The drawing of ``maze`` for lines mode: every closed wall once, in the fewest strokes,
    as the line operation asked for; the solution engraved when asked."""
    from laby3d.maze.walls import closed_walls

    width, depth = fab.outer_size(maze.rows, maze.cols, shape=maze.shape)
    walls = closed_walls(maze)
    points = to_plate(walls.vertices, fab, depth)
    operation = "outer-cut" if options.line_operation == "cut" else options.line_operation
    marks = [
        Mark(operation=operation, points=points[ids], closed=closed)
        for ids, closed in _turns(walls.vertices, euler_strokes(walls.vertices, walls.segments()))
    ]
    if options.engrave_solution:
        from laby3d.maze.solve import solution_polyline

        line = solution_polyline(maze)
        if len(line):
            marks.append(Mark(operation="engrave-line", points=to_plate(line, fab, depth), closed=False))
    return Part(
        name="drawing", material=options.wall_material, shape=None, box=(0.0, 0.0, width, depth), marks=tuple(marks)
    )


def _turns(vertices: np.ndarray, strokes: list[tuple[np.ndarray, bool]]) -> list[tuple[np.ndarray, bool]]:
    """Each stroke's vertex ids without the points where it runs straight on (a closed stroke's
    first point included; strokes of fewer than 3 points as they are), and whether it is closed.
    All strokes at once: a 300×300 maze has 24,000 strokes, each 0.03 ms of numpy calls alone."""
    if not strokes:
        return []
    lengths = np.array([len(ids) for ids, _ in strokes], dtype=np.int64)
    ids = np.concatenate([np.asarray(ids, dtype=np.int64) for ids, _ in strokes])
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    stroke = np.repeat(np.arange(len(strokes)), lengths)
    k = np.arange(len(ids))
    first, last = starts[stroke], starts[stroke] + lengths[stroke] - 1
    xy = vertices[ids]
    before = xy - xy[np.where(k == first, last, k - 1)]  # a stroke read round, as if closed
    after = xy[np.where(k == last, first, k + 1)] - xy
    cross = before[:, 0] * after[:, 1] - before[:, 1] * after[:, 0]
    dot = (before * after).sum(axis=1)
    straight = (np.abs(cross) <= STRAIGHT * np.hypot(*before.T) * np.hypot(*after.T)) & (dot > 0)
    closed = np.array([is_closed for _, is_closed in strokes])
    straight &= ~(((k == first) | (k == last)) & ~closed[stroke])  # an open stroke's ends stay
    straight &= lengths[stroke] >= 3
    kept = ~straight
    return [
        (ids_of[kept[start : start + len(ids_of)]] if len(ids_of) >= 3 else ids_of, is_closed)
        for (ids_of, is_closed), start in zip(strokes, starts.tolist(), strict=True)
    ]
