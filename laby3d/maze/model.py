"""The maze model: a compact, immutable grid of open sides.

A maze has ``rows × cols`` cells; cell ``(row, col)`` counts rows from the top and columns from
the left. ``cells[row, col]`` is a bit mask of the cell's open sides (:data:`N`, :data:`E`,
:data:`S`, :data:`W`), exactly as in the maze file (docs/maze-file.md). Border bits are set only at
the entrance and the exit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from laby3d.errors import ParameterError
from laby3d.maze.algorithms import ALGORITHMS
from laby3d.maze.sides import SIDE_BITS, Side
from laby3d.quoting import shown

if TYPE_CHECKING:
    from laby3d.maze.shaped.model import ShapedMaze
    from laby3d.maze.stats import MazeStats

N, E, S, W = (SIDE_BITS[name] for name in ("N", "E", "S", "W"))

#: Most rows or columns of a maze.
MAX_SIDE = 2000
#: Largest maze laby3d accepts (cells); a 1000×1000 maze uses about 100 MB while generating.
MAX_CELLS = MAX_SIDE * MAX_SIDE
#: Largest seed (seeds are 0..2**63 − 1).
MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class Opening:
    """A cell on the path's end; ``side`` is the border side opened there (None: no opening).

    >>> Opening(0, 0, "W").as_dict()
    {'row': 0, 'col': 0, 'side': 'W'}
    """

    row: int
    col: int
    side: Side | None

    def __post_init__(self) -> None:
        for name in ("row", "col"):
            value = getattr(self, name)
            if not is_integer(value) or value < 0:
                raise ParameterError(f"must be an integer >= 0, got {shown(value)}", field=name)
            object.__setattr__(self, name, int(value))
        if self.side is not None and (not isinstance(self.side, str) or self.side not in SIDE_BITS):
            raise ParameterError(f"must be N, E, S, W or None, got {shown(self.side)}", field="side")

    def as_dict(self) -> dict[str, Any]:
        """The maze-file form ``{"row": r, "col": c, "side": s}``."""
        return {"row": self.row, "col": self.col, "side": self.side}


def is_integer(value: Any) -> bool:
    """True for a Python or numpy integer, False for anything else (``bool`` included)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_size(rows: Any, cols: Any) -> None:
    """Raise :class:`ParameterError` (naming ``rows`` or ``cols``) unless both are integers in
    1..:data:`MAX_SIDE`."""
    for name, value in (("rows", rows), ("cols", cols)):
        if not is_integer(value) or not 1 <= value <= MAX_SIDE:
            raise ParameterError(f"must be an integer in 1..{MAX_SIDE}, got {shown(value)}", field=name)


def check_maze(value: Any, name: str = "maze") -> None:
    """Raise :class:`ParameterError` naming ``name`` unless ``value`` is a :class:`Maze`."""
    if not isinstance(value, Maze):
        raise ParameterError(f"must be a laby3d.Maze, got {type(value).__name__} {shown(value, 40)}", field=name)


def check_seed(seed: Any) -> None:
    """Raise :class:`ParameterError` unless ``seed`` is None or an integer in 0..:data:`MAX_SEED`."""
    if seed is not None and (not is_integer(seed) or not 0 <= seed <= MAX_SEED):
        raise ParameterError(f"must be an integer in 0..{MAX_SEED} or None, got {shown(seed)}", field="seed")


@dataclass(frozen=True, eq=False)
class Maze:
    """A perfect maze: open sides per cell, entrance, exit and how it was made.

    Build one with :func:`laby3d.generate` or :meth:`Maze.from_json`. A maze cannot change: the
    arrays are read-only copies, ``options`` a read-only mapping, ``solution`` a tuple. Arguments
    of the wrong kind raise :class:`laby3d.errors.ParameterError` naming the argument; the
    constructor does not check that the maze is perfect (the maze-file reader does).

    >>> import laby3d
    >>> maze = laby3d.generate(2, 3, algorithm="kruskal", seed=7)
    >>> maze.rows, maze.cols, maze.passage_count
    (2, 3, 5)
    >>> maze.options["x"] = 1
    Traceback (most recent call last):
    TypeError: 'mappingproxy' object does not support item assignment
    """

    #: The cell shape (see :mod:`laby3d.tessellation`); a Maze is always square.
    shape: ClassVar[str] = "square"
    rows: int
    cols: int
    #: ``(rows, cols)`` uint8 bit masks of the open sides (read-only).
    cells: np.ndarray
    _: KW_ONLY
    entrance: Opening | None = None
    exit: Opening | None = None
    algorithm: str | None = None
    seed: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    #: ``(rows·cols − 1, 2)`` int32 cell indices of the passages in the order they were opened.
    carve_order: np.ndarray | None = None

    def __post_init__(self) -> None:
        check_size(self.rows, self.cols)
        object.__setattr__(self, "rows", int(self.rows))
        object.__setattr__(self, "cols", int(self.cols))
        object.__setattr__(self, "cells", _cells_copy(self.cells, self.rows, self.cols))
        for name in ("entrance", "exit"):
            _check_opening(getattr(self, name), name, self.rows, self.cols)
        if self.algorithm is not None and (not isinstance(self.algorithm, str) or self.algorithm not in ALGORITHMS):
            raise ParameterError(
                f"must be one of {', '.join(ALGORITHMS)} or None, got {shown(self.algorithm)}", field="algorithm"
            )
        check_seed(self.seed)
        if self.seed is not None:
            object.__setattr__(self, "seed", int(self.seed))
        if not isinstance(self.options, Mapping) or not all(isinstance(key, str) for key in self.options):
            raise ParameterError(f"must be a mapping with string keys, got {shown(self.options)}", field="options")
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))
        if self.carve_order is not None:
            object.__setattr__(self, "carve_order", _carve_order_copy(self.carve_order, self.rows * self.cols))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its constructor's arguments (the options mapping is read-only, which pickle
        cannot copy), so a maze travels to worker processes, Dask and multiprocessing."""
        fields = {
            "entrance": self.entrance,
            "exit": self.exit,
            "algorithm": self.algorithm,
            "seed": self.seed,
            "options": dict(self.options),
            "carve_order": self.carve_order,
        }
        return (_rebuilt, (self.rows, self.cols, self.cells, fields))

    @classmethod
    def from_passages(cls, rows: int, cols: int, passages: np.ndarray, **fields: Any) -> Maze:
        """Build a maze from ``(k, 2)`` cell-index pairs of neighbours (index = row·cols + col)."""
        check_size(rows, cols)
        rows, cols = int(rows), int(cols)
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
            entrance=entrance,
            exit=exit,
            algorithm=self.algorithm,
            seed=self.seed,
            options=self.options,
            carve_order=self.carve_order,
        )

    def as_shaped(self) -> ShapedMaze:
        """This maze through the interface every shape shares (:mod:`laby3d.maze.shaped`): the
        same walls as a ShapedMaze of shape ``square``, so code for any shape takes it."""
        from laby3d.maze.shaped.model import shaped_from_grid

        return shaped_from_grid(self)

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
    def solution(self) -> tuple[tuple[int, int], ...]:
        """Cells ``(row, col)`` from the entrance to the exit, both included (empty without them)."""
        from laby3d.maze.solve import solve

        return tuple(solve(self))

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
        """Box-drawing picture; see :func:`laby3d.draw.ascii.maze_to_ascii`."""
        from laby3d.draw.ascii import maze_to_ascii

        return maze_to_ascii(self, **options)


def _rebuilt(rows: int, cols: int, cells: np.ndarray, fields: dict[str, Any]) -> Maze:
    """The maze :meth:`Maze.__reduce__` describes."""
    return Maze(rows, cols, cells, **fields)


def _cells_copy(cells: Any, rows: int, cols: int) -> np.ndarray:
    """A read-only uint8 copy of ``cells``, checked to be ``(rows, cols)`` integers 0..15."""
    try:
        array = np.asarray(cells)
    except (TypeError, ValueError):
        array = np.empty(0, dtype=object)
    if array.shape != (rows, cols) or not np.issubdtype(array.dtype, np.integer):
        raise ParameterError(
            f"must be a ({rows}, {cols}) array of integers, got shape {array.shape} of {array.dtype}", field="cells"
        )
    if array.size and (array.min() < 0 or array.max() > 15):
        raise ParameterError("must hold bit masks 0..15 (N=1 E=2 S=4 W=8)", field="cells")
    copy = array.astype(np.uint8, copy=True)
    copy.setflags(write=False)
    return copy


def _carve_order_copy(order: Any, cell_count: int) -> np.ndarray:
    """A read-only int32 ``(k, 2)`` copy of ``order``, checked to hold cell indices."""
    array = np.asarray(order)
    if array.ndim != 2 or array.shape[1:] != (2,) or not np.issubdtype(array.dtype, np.integer):
        raise ParameterError(f"must be a (k, 2) array of cell indices, got shape {array.shape}", field="carve_order")
    if array.size and (array.min() < 0 or array.max() >= cell_count):
        raise ParameterError(f"must hold cell indices 0..{cell_count - 1}", field="carve_order")
    copy = array.astype(np.int32, copy=True)
    copy.setflags(write=False)
    return copy


def _check_opening(opening: Any, name: str, rows: int, cols: int) -> None:
    if opening is None:
        return
    if not isinstance(opening, Opening):
        raise ParameterError(f"must be an Opening or None, got {shown(opening)}", field=name)
    if not (opening.row < rows and opening.col < cols):
        where = f"rows 0..{rows - 1}, cols 0..{cols - 1}"
        raise ParameterError(f"cell must be within {where}, got ({opening.row}, {opening.col})", field=name)


def interior_only(cells: np.ndarray) -> np.ndarray:
    """A copy of ``cells`` with every border bit cleared."""
    cells = cells.copy()
    cells[0, :] &= ~np.uint8(N)
    cells[-1, :] &= ~np.uint8(S)
    cells[:, 0] &= ~np.uint8(W)
    cells[:, -1] &= ~np.uint8(E)
    return cells
