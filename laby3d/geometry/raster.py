"""The maze as a labelled rectilinear raster, mm: the exact plan view of the solid.

Column edges ``xs`` and row edges ``ys`` (both increasing, mm) cut the plate into blocks; each
block carries a label. Posts and closed walls are :data:`WALL`, corridors :data:`FLOOR`, the
solution strip (when asked for) :data:`PATH`. Every feature of the canonical footprint (a
``t × t`` post on every lattice point, a rectangle per closed wall) falls on these lines, so the
raster is exact, not an approximation, and tracing its label boundaries
(:mod:`laby3d.geometry.trace`) gives the footprint polygons without any boolean operation: what
a square maze's laser sheets cut (the solid of every shape is built from
:mod:`laby3d.geometry.plan`).

Row 0 of ``labels`` is at the bottom (small y), i.e. the maze's last row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from laby3d.maze.grid import wall_lattice

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze

EMPTY, FLOOR, WALL, PATH, LABEL_AREA = 0, 1, 2, 3, 4


@dataclass(frozen=True)
class Raster:
    """Labels ``(ny, nx)`` uint8 on blocks bounded by ``xs`` ``(nx + 1,)`` and ``ys`` ``(ny + 1,)``, mm."""

    xs: np.ndarray
    ys: np.ndarray
    labels: np.ndarray

    def with_box(self, box: tuple[float, float, float, float], label: int) -> Raster:
        """A copy with grid lines added at the box's sides and the box's blocks set to ``label``.

        The new lines only split blocks (labels are copied), so the plan does not change.
        """
        x0, y0, x1, y1 = box
        xs = np.unique(np.concatenate([self.xs, [x0, x1]]))
        ys = np.unique(np.concatenate([self.ys, [y0, y1]]))
        columns = np.searchsorted(self.xs, (xs[:-1] + xs[1:]) / 2) - 1
        rows = np.searchsorted(self.ys, (ys[:-1] + ys[1:]) / 2) - 1
        labels = self.labels[np.ix_(rows, columns)].copy()
        inside_x = (xs[:-1] >= x0) & (xs[1:] <= x1)
        inside_y = (ys[:-1] >= y0) & (ys[1:] <= y1)
        labels[np.ix_(inside_y, inside_x)] = label
        return Raster(xs, ys, labels)

    def relabelled(self, mapping: dict[int, int]) -> Raster:
        """A copy with labels replaced by ``mapping`` (labels not in it kept)."""
        table = np.arange(256, dtype=np.uint8)
        for old, new in mapping.items():
            table[old] = new
        return Raster(self.xs, self.ys, table[self.labels])


def _axis(count: int, fab: Fabrication, split_width: float | None) -> tuple[np.ndarray, int]:
    """Edges along one axis for ``count`` cells, and the number of blocks per cell step.

    Per lattice step: post, then the corridor span (split in three around a centred strip of
    ``split_width`` when given). Margin blocks at both ends when margin > 0.
    """
    s, t = fab.cell_size, fab.wall_thickness
    centre = (s + t) / 2  # cell centre, measured from the post's near edge
    offsets = [0.0, t] if split_width is None else [0.0, t, centre - split_width / 2, centre + split_width / 2]
    step = len(offsets)
    edges = (np.arange(count)[:, None] * s + np.array(offsets)[None, :]).ravel()
    edges = np.concatenate([edges, [count * s, count * s + t]]) + fab.margin
    if fab.margin > 0:
        edges = np.concatenate([[0.0], edges, [edges[-1] + fab.margin]])
    return edges, step


def maze_raster(maze: Maze, fab: Fabrication, *, path_width: float | None = None) -> Raster:
    """The labelled raster of ``maze``; ``path_width`` (mm) adds the solution strip as PATH."""
    rows, cols = maze.grid.rows, maze.grid.cols
    xs, step = _axis(cols, fab, path_width)
    ys, _ = _axis(rows, fab, path_width)
    pad = 1 if fab.margin > 0 else 0
    # Work top-down (maze row order) on the core, then flip to bottom-up.
    core = np.full((rows * step + 1, cols * step + 1), FLOOR, dtype=np.uint8)
    horizontal, vertical = wall_lattice(maze.grid)
    core[::step, ::step] = WALL
    for offset in range(1, step):
        core[::step, offset::step] = np.where(horizontal, WALL, FLOOR)
        core[offset::step, ::step] = np.where(vertical, WALL, FLOOR)
    if path_width is not None:
        _draw_path(core, maze, step)
    labels = np.full((core.shape[0] + 2 * pad, core.shape[1] + 2 * pad), FLOOR, dtype=np.uint8)
    labels[pad : pad + core.shape[0], pad : pad + core.shape[1]] = core
    return Raster(xs, ys, labels[::-1].copy())


def _draw_path(core: np.ndarray, maze: Maze, step: int) -> None:
    """Mark the solution strip (centre blocks of cells and of the gaps between them) as PATH."""
    centre = 2  # block index of the strip within a cell step: post, side, centre, side

    def block(row: int, col: int) -> tuple[int, int]:
        return row * step + centre, col * step + centre

    path = maze.solution
    for row, col in path:
        core[block(row, col)] = PATH
    pairs = list(zip(path, path[1:], strict=False))
    for (r1, c1), (r2, c2) in pairs:
        (a1, b1), (a2, b2) = block(r1, c1), block(r2, c2)
        core[min(a1, a2) : max(a1, a2) + 1, min(b1, b2) : max(b1, b2) + 1] = PATH
    for opening in (maze.entrance, maze.exit):
        if opening is None or opening.side is None:
            continue
        a, b = block(opening.row, opening.col)
        if opening.side == "N":
            core[: a + 1, b] = PATH
        elif opening.side == "S":
            core[a:, b] = PATH
        elif opening.side == "W":
            core[a, : b + 1] = PATH
        else:
            core[a, b:] = PATH
