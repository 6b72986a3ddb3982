"""The maze model: a compact, immutable grid of open sides.

A maze has ``rows × cols`` cells; cell ``(row, col)`` counts rows from the top and columns from
the left. ``cells[row, col]`` is a bit mask of the cell's open sides (:data:`N`, :data:`E`,
:data:`S`, :data:`W`), exactly as in the maze file. Border bits are set only at the entrance and
the exit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from laby3d.errors import ParameterError

if TYPE_CHECKING:
    from laby3d.maze.stats import MazeStats

N, E, S, W = 1, 2, 4, 8
SIDE_BITS: dict[str, int] = {"N": N, "E": E, "S": S, "W": W}
Side = Literal["N", "E", "S", "W"]

#: Largest maze laby3d accepts (cells); a 1000×1000 maze uses about 100 MB while generating.
MAX_CELLS = 4_000_000
#: Most rows or columns of a maze.
MAX_SIDE = 2000


@dataclass(frozen=True)
class Opening:
    """A cell on the path's end; ``side`` is the border side opened there (None: no opening)."""

    row: int
    col: int
    side: Side | None

    def as_dict(self) -> dict[str, Any]:
        """The maze-file form ``{"row": r, "col": c, "side": s}``."""
        return {"row": self.row, "col": self.col, "side": self.side}


def check_size(rows: Any, cols: Any) -> None:
    """Raise :class:`ParameterError` unless ``rows × cols`` is a maze size laby3d accepts."""
    for name, value in (("rows", rows), ("cols", cols)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ParameterError(f"{name} must be an integer >= 1, got {value!r}")
    if rows * cols > MAX_CELLS:
        raise ParameterError(f"rows × cols must be at most {MAX_CELLS:,} cells, got {rows} × {cols} = {rows * cols:,}")


@dataclass(frozen=True, eq=False)
class Maze:
    """A perfect maze: open sides per cell, entrance, exit and how it was made.

    Build one with :func:`laby3d.generate` or :meth:`Maze.from_json`; the arrays are read-only.

    >>> import laby3d
    >>> maze = laby3d.generate(2, 3, algorithm="kruskal", seed=7)
    >>> maze.rows, maze.cols, maze.passage_count
    (2, 3, 5)
    """

    rows: int
    cols: int
    cells: np.ndarray
    entrance: Opening | None = None
    exit: Opening | None = None
    algorithm: str | None = None
    seed: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    #: ``(rows·cols − 1, 2)`` int32 cell indices of the passages in the order they were opened.
    carve_order: np.ndarray | None = None

    def __post_init__(self) -> None:
        self.cells.setflags(write=False)
        if self.carve_order is not None:
            self.carve_order.setflags(write=False)

    @classmethod
    def from_passages(cls, rows: int, cols: int, passages: np.ndarray, **fields: Any) -> Maze:
        """Build a maze from ``(k, 2)`` cell-index pairs of neighbours (index = row·cols + col)."""
        pairs = np.sort(np.asarray(passages, dtype=np.int64).reshape(-1, 2), axis=1)
        cells = np.zeros(rows * cols, dtype=np.uint8)
        east = (pairs[:, 1] - pairs[:, 0] == 1) & (pairs[:, 0] // cols == pairs[:, 1] // cols)
        for subset, low_bit, high_bit in ((pairs[east], E, W), (pairs[~east], S, N)):
            cells[subset[:, 0]] |= low_bit
            cells[subset[:, 1]] |= high_bit
        return cls(rows, cols, cells.reshape(rows, cols), carve_order=pairs.astype(np.int32), **fields)

    def with_openings(self, entrance: Opening | None, exit: Opening | None) -> Maze:
        """A copy with the border opened at ``entrance`` and ``exit`` (and no other border bit)."""
        cells = interior_only(self.cells)
        for opening in (entrance, exit):
            if opening is not None and opening.side is not None:
                cells[opening.row, opening.col] |= SIDE_BITS[opening.side]
        return Maze(
            self.rows,
            self.cols,
            cells,
            entrance,
            exit,
            self.algorithm,
            self.seed,
            self.options,
            self.carve_order,
        )

    @property
    def cell_count(self) -> int:
        """Number of cells, ``rows × cols``."""
        return self.rows * self.cols

    @cached_property
    def open_east(self) -> np.ndarray:
        """``(rows, cols − 1)`` bool: the wall between ``(r, c)`` and ``(r, c + 1)`` is open."""
        return (self.cells[:, :-1] & E).astype(bool)

    @cached_property
    def open_south(self) -> np.ndarray:
        """``(rows − 1, cols)`` bool: the wall between ``(r, c)`` and ``(r + 1, c)`` is open."""
        return (self.cells[:-1, :] & S).astype(bool)

    @property
    def passage_count(self) -> int:
        """Open interior walls (``rows·cols − 1`` in a perfect maze)."""
        return int(self.open_east.sum() + self.open_south.sum())

    @property
    def closed_interior_walls(self) -> int:
        """Closed interior walls (``(rows − 1)(cols − 1)`` in a perfect maze)."""
        return 2 * self.rows * self.cols - self.rows - self.cols - self.passage_count

    @cached_property
    def solution(self) -> list[tuple[int, int]]:
        """Cells ``(row, col)`` from the entrance to the exit, both included."""
        from laby3d.maze.solve import solve

        return solve(self)

    def stats(self) -> MazeStats:
        """Dead ends, junctions, straights, turns, solution and longest path."""
        from laby3d.maze.stats import maze_stats

        return maze_stats(self)

    def to_json(self) -> str:
        """The maze file text (``.maze.json``)."""
        from laby3d.maze.mazefile import maze_to_json

        return maze_to_json(self)

    @classmethod
    def from_json(cls, text: str) -> Maze:
        """Read and validate a maze file; raises :class:`laby3d.errors.MazeFileError`."""
        from laby3d.maze.mazefile import maze_from_json

        return maze_from_json(text)

    def to_ascii(self, **options: Any) -> str:
        """Box-drawing picture; see :func:`laby3d.render.ascii.maze_to_ascii`."""
        from laby3d.render.ascii import maze_to_ascii

        return maze_to_ascii(self, **options)


def interior_only(cells: np.ndarray) -> np.ndarray:
    """A copy of ``cells`` with every border bit cleared."""
    cells = cells.copy()
    cells[0, :] &= ~np.uint8(N)
    cells[-1, :] &= ~np.uint8(S)
    cells[:, 0] &= ~np.uint8(W)
    cells[:, -1] &= ~np.uint8(E)
    return cells
