"""The closed walls of a maze, as polylines over the tessellation's vertex table: what pictures,
solids, laser sheets and the walk-through draw (pitch units; × cell size for mm).

>>> import laby3d
>>> walls = closed_walls(laby3d.generate(2, 2, seed=1))
>>> len(walls), walls.segments().shape  # 1 interior wall closed, 6 of the 8 boundary walls
(7, (7, 2))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from laby3d.maze.model import Maze


@dataclass(frozen=True, eq=False)
class WallPolylines:
    """Polylines sharing one vertex table: polyline ``k`` is ``vertices[ids[starts[k]:starts[k + 1]]]``."""

    #: ``(V, 2)`` float64 positions, pitch units (x right, y down)
    vertices: np.ndarray
    #: ``(W + 1,)`` int64 offsets into ``ids``
    starts: np.ndarray
    #: vertex ids of every polyline in turn
    ids: np.ndarray

    def __len__(self) -> int:
        return len(self.starts) - 1

    def polyline(self, index: int, scale: float = 1.0) -> np.ndarray:
        """``(k, 2)`` points of polyline ``index``, times ``scale`` (the cell size, for mm)."""
        return self.vertices[self.ids[self.starts[index] : self.starts[index + 1]]] * scale

    def polylines(self, scale: float = 1.0) -> list[np.ndarray]:
        """Every polyline's points, times ``scale``."""
        return [self.polyline(index, scale) for index in range(len(self))]

    def segments(self) -> np.ndarray:
        """``(S, 2)`` vertex-id pairs of every segment of every polyline (a planar graph: walls
        meet only at shared vertices)."""
        inside = np.ones(len(self.ids), dtype=bool)
        inside[self.starts[1:] - 1] = False  # a polyline's last point starts no segment
        first = np.flatnonzero(inside)
        return np.stack([self.ids[first], self.ids[first + 1]], axis=1)


def _select(starts: np.ndarray, ids: np.ndarray, chosen: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    lengths = (starts[1:] - starts[:-1])[chosen]
    offsets = np.zeros(len(chosen) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    take = np.repeat(starts[:-1][chosen] - offsets[:-1], lengths) + np.arange(offsets[-1])
    return offsets, ids[take]


def closed_walls(maze: Maze) -> WallPolylines:
    """The closed interior walls (in ``tessellation.edges`` order), then the boundary walls but
    the entrance's and the exit's (in order along the outline)."""
    t = maze.tessellation
    interior = np.flatnonzero(~maze.open_walls)
    opened = {maze.boundary_wall_of(maze.entrance), maze.boundary_wall_of(maze.exit)}
    boundary = np.array([wall for wall in range(len(t.boundary_cells)) if wall not in opened], dtype=np.int64)
    inner_starts, inner_ids = _select(t.wall_starts, t.wall_vertices, interior)
    outer_starts, outer_ids = _select(t.boundary_starts, t.boundary_vertices, boundary)
    starts = np.concatenate([inner_starts, outer_starts[1:] + inner_starts[-1]])
    return WallPolylines(vertices=t.vertices, starts=starts, ids=np.concatenate([inner_ids, outer_ids]))
