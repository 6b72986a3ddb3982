"""The maze model: the cells of a tessellation, which of its interior walls are open, the entrance
and exit on its outer boundary, and how it was made.

One :class:`Maze` for every shape (square, theta, hex, triangle: :mod:`laby3d.tessellation`):
``open_walls`` holds one bool per interior wall, in the order of ``tessellation.edges``. What is
square by nature (text art, the class exercise's N/E/S/O forms, the version-1 maze file, the
square kernels and renderers) reads the bit masks of :attr:`Maze.grid`, a view made on first use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, field, fields
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.errors import ParameterError
from laby3d.quoting import shown
from laby3d.tessellation import Tessellation, tessellate
from laby3d.values import is_integer

if TYPE_CHECKING:
    from laby3d.maze.grid import SquareGrid
    from laby3d.maze.stats import MazeStats

#: Most rows or columns of a square maze.
MAX_SIDE = 2000
#: Largest square maze laby3d accepts (cells); a 1000×1000 maze uses about 100 MB while generating.
MAX_CELLS = MAX_SIDE * MAX_SIDE
#: Largest seed (seeds are 0..2**63 − 1).
MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class Opening:
    """An end of the path: cell ``(row, col)`` and the boundary side opened there (None: a start
    or goal inside the maze, such as a theta maze's centre). Side names are the tessellation's
    (``N``/``E``/``S``/``W`` for squares and triangles, ``NE``… for hexagons, ``out`` for theta).

    >>> Opening(0, 0, "W").as_dict()
    {'row': 0, 'col': 0, 'side': 'W'}
    """

    row: int
    col: int
    side: str | None

    def __post_init__(self) -> None:
        for name in ("row", "col"):
            value = getattr(self, name)
            if not is_integer(value) or value < 0:
                raise ParameterError(f"must be an integer >= 0, got {shown(value)}", field=name)
            object.__setattr__(self, name, int(value))
        if self.side is not None and not isinstance(self.side, str):
            raise ParameterError(f"must be a side name or None, got {shown(self.side)}", field="side")

    def as_dict(self) -> dict[str, Any]:
        """The maze-file form ``{"row": r, "col": c, "side": s}``."""
        return {"row": self.row, "col": self.col, "side": self.side}


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
    """A maze on a tessellation: which interior walls are open, the entrance and exit, and how it
    was made.

    Build one with :func:`laby3d.generate`, read one with :meth:`Maze.from_json` or
    :func:`laby3d.maze.mazefile.read_maze_file`, or give the walls: :meth:`from_passages`, and
    :meth:`from_cells` for a square maze's bit masks. A maze cannot change: the arrays are
    read-only copies, ``options`` a read-only mapping, ``solution`` a tuple. Arguments of the
    wrong kind raise :class:`laby3d.errors.ParameterError` naming the argument; the constructor
    does not check that the maze is perfect (the maze-file reader does).

    Parameters
    ----------
    tessellation : Tessellation
        The cells, their neighbours and walls (:func:`laby3d.tessellate`).
    open_walls : (E,) bool ndarray
        One per interior wall, in the order of ``tessellation.edges``: True where open.
    entrance, exit : Opening or None
        The ends of the path: a cell and one of its boundary sides (or None inside the maze).
    algorithm : str or None
        The algorithm that made it (:data:`laby3d.ALGORITHMS`).
    seed : int or None
        The seed it was made from.
    options : mapping
        The algorithm's options.
    carve_order : (cells − 1, 2) int ndarray or None
        The passages as cell-index pairs, in the order the carver opened them.
    rejected, rejected_at : (m, 2) and (m,) int ndarrays or None
        Walls the carver took and left closed (Kruskal), and how many passages were open then.
    outline : str or None
        The outline the board was cut by (``heart``, ``text:A``, a file name), as asked: what
        the maze file and the captions say (the tessellation holds the cells).
    braid : int
        The share of dead ends removed after carving, percent (0: a perfect maze).
    loops : (k, 2) int ndarray or None
        The walls braiding opened, in that order: each closes a loop.

    Examples
    --------
    >>> import laby3d
    >>> maze = laby3d.generate(2, 3, algorithm="kruskal", seed=7)
    >>> maze.rows, maze.cols, maze.passage_count, maze.shape
    (2, 3, 5, 'square')
    >>> maze.grid.cells.tolist()  # a square maze's open sides: N=1 E=2 S=4 W=8
    [[12, 2, 12], [3, 10, 11]]
    >>> maze.options["x"] = 1
    Traceback (most recent call last):
    TypeError: 'mappingproxy' object does not support item assignment
    """

    tessellation: Tessellation
    #: ``(E,)`` bool, one per interior wall (``tessellation.edges`` order): True where open.
    open_walls: np.ndarray
    _: KW_ONLY
    entrance: Opening | None = None
    exit: Opening | None = None
    algorithm: str | None = None
    seed: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    #: ``(k, 2)`` int32 cell indices of the passages in the order they were opened.
    carve_order: np.ndarray | None = None
    #: ``(m, 2)`` int32 walls taken and left closed while carving (Kruskal), in that order.
    rejected: np.ndarray | None = None
    #: ``(m,)`` int32 passages open when each of :attr:`rejected` was taken.
    rejected_at: np.ndarray | None = None
    #: The outline the board was cut by, as asked (None: the whole board).
    outline: str | None = None
    #: The share of dead ends braiding removed, percent (0: a perfect maze).
    braid: int = 0
    #: ``(k, 2)`` int32 the walls braiding opened, in that order (each closes a loop).
    loops: np.ndarray | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.tessellation, Tessellation):
            raise ParameterError(
                f"must be a laby3d.Tessellation (laby3d.tessellate), got {shown(self.tessellation, 40)}",
                field="tessellation",
            )
        edges = len(self.tessellation.edges)
        walls = np.asarray(self.open_walls)
        if walls.shape != (edges,) or walls.dtype != np.bool_:
            raise ParameterError(
                f"must be a ({edges},) bool array, got shape {walls.shape} of {walls.dtype}", field="open_walls"
            )
        object.__setattr__(self, "open_walls", _read_only(walls, np.bool_))
        for name in ("entrance", "exit"):
            _check_opening(getattr(self, name), name, self.tessellation)
        if self.algorithm is not None:
            from laby3d.maze.algorithms import check_algorithm

            if not isinstance(self.algorithm, str):
                raise ParameterError(
                    f"must be an algorithm's name or None, got {shown(self.algorithm)}", field="algorithm"
                )
            check_algorithm(self.algorithm, self.tessellation.kind)
        check_seed(self.seed)
        if self.seed is not None:
            object.__setattr__(self, "seed", int(self.seed))
        if not isinstance(self.options, Mapping) or not all(isinstance(key, str) for key in self.options):
            raise ParameterError(f"must be a mapping with string keys, got {shown(self.options)}", field="options")
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))
        cells = self.tessellation.cell_count
        if self.outline is not None and not isinstance(self.outline, str):
            raise ParameterError(f"must be an outline's name or None, got {shown(self.outline)}", field="outline")
        if not is_integer(self.braid) or not 0 <= self.braid <= 100:
            raise ParameterError(f"must be an integer percent in 0..100, got {shown(self.braid)}", field="braid")
        object.__setattr__(self, "braid", int(self.braid))
        for name in ("carve_order", "rejected", "loops"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, _pairs_copy(getattr(self, name), cells, name))
        if (self.rejected is None) != (self.rejected_at is None):
            raise ParameterError("rejected and rejected_at go together", field="rejected_at")
        if self.rejected is not None:
            at = np.asarray(self.rejected_at)
            if at.shape != (len(self.rejected),) or not np.issubdtype(at.dtype, np.integer):
                raise ParameterError(f"must be a ({len(self.rejected)},) integer array", field="rejected_at")
            object.__setattr__(self, "rejected_at", _read_only(at, np.int32))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its fields (the tessellation as its shape and size, rebuilt on the other
        side), so a maze travels to worker processes, Dask and multiprocessing."""
        values = {item.name: getattr(self, item.name) for item in fields(self)}
        return (_rebuilt, ({**values, "options": dict(self.options)},))

    @classmethod
    def from_passages(cls, tessellation: Tessellation, passages: np.ndarray, **more: Any) -> Maze:
        """A maze whose open walls are the ``(k, 2)`` neighbour pairs ``passages`` (cell indices,
        either order), recorded as its carve order; raises :class:`ParameterError` on
        ``passages`` when a pair is not two neighbours.

        >>> import laby3d
        >>> maze = Maze.from_passages(laby3d.tessellate("hex", 1, 3), [[0, 1], [2, 1]])
        >>> maze.passages.tolist(), maze.carve_order.tolist()
        ([[0, 1], [1, 2]], [[0, 1], [2, 1]])
        """
        pairs = np.asarray(passages, dtype=np.int64).reshape(-1, 2)
        open_walls = np.zeros(len(tessellation.edges), dtype=bool)
        open_walls[tessellation.edge_indices(pairs)] = True
        return cls(tessellation, open_walls, carve_order=pairs, **more)

    @classmethod
    def from_cells(cls, cells: Any, **more: Any) -> Maze:
        """A square maze from its ``(rows, cols)`` bit masks of open sides (N=1 E=2 S=4 W=8, as
        the version-1 maze file holds them): both cells of an open wall carry its bit, border
        bits only at ``entrance`` and ``exit``; raises :class:`ParameterError` on ``cells``
        otherwise.

        >>> Maze.from_cells([[10, 12], [2, 9]], entrance=Opening(0, 0, "W")).passages.tolist()
        [[0, 1], [1, 3], [2, 3]]
        """
        from laby3d.maze.grid import maze_from_cells

        return maze_from_cells(cells, **more)

    def with_openings(self, entrance: Opening | None, exit: Opening | None) -> Maze:
        """A copy with ``entrance`` and ``exit`` (sharing this maze's tessellation, history and
        whatever it computed from its walls)."""
        values = {item.name: getattr(self, item.name) for item in fields(self)}
        opened = Maze(**{**values, "entrance": entrance, "exit": exit})
        for name in ("passages", "adjacency"):  # the walls are the same
            if name in self.__dict__:
                opened.__dict__[name] = self.__dict__[name]
        return opened

    @property
    def shape(self) -> str:
        """The cell shape: ``square``, ``theta``, ``hex`` or ``triangle``."""
        return self.tessellation.shape.name

    @property
    def rows(self) -> int:
        """Rows of cells (theta: rings, the centre included)."""
        return self.tessellation.rows

    @property
    def cols(self) -> int | None:
        """Columns of cells (None for theta)."""
        return self.tessellation.cols

    @property
    def cell_count(self) -> int:
        """Number of cells."""
        return self.tessellation.cell_count

    @cached_property
    def grid(self) -> SquareGrid:
        """The square maze as bit masks of open sides per cell (a square maze only; raises
        :class:`ParameterError` for another shape)."""
        from laby3d.maze.grid import grid_of

        return grid_of(self)

    @cached_property
    def passages(self) -> np.ndarray:
        """``(k, 2)`` int32 neighbour pairs ``(a, b)``, ``a < b``, of the open walls, sorted."""
        return _read_only(self.tessellation.edges[self.open_walls], np.int32)

    @cached_property
    def adjacency(self) -> tuple[np.ndarray, np.ndarray]:
        """CSR ``(indptr, neighbours)`` of the cells the passages join: the neighbours of cell
        ``c`` through open walls are ``neighbours[indptr[c]:indptr[c + 1]]``."""
        from laby3d.maze.solve import passage_adjacency

        indptr, neighbours = passage_adjacency(self.cell_count, self.passages)
        return _read_only(indptr, np.int64), _read_only(neighbours, np.int32)

    @property
    def passage_count(self) -> int:
        """Open interior walls (``cells − 1`` in a perfect maze)."""
        return int(np.count_nonzero(self.open_walls))

    @property
    def closed_interior_walls(self) -> int:
        """Closed interior walls (``walls − cells + 1`` in a perfect maze)."""
        return len(self.open_walls) - self.passage_count

    def cell_of(self, opening: Opening) -> int:
        """The cell index of ``opening``."""
        return self.tessellation.cell_index(opening.row, opening.col)

    def boundary_wall_of(self, opening: Opening | None) -> int | None:
        """The boundary wall index ``opening`` opens (None without an opening or a side)."""
        if opening is None or opening.side is None:
            return None
        return self.tessellation.boundary_wall(self.cell_of(opening), opening.side)

    @cached_property
    def solution_cells(self) -> np.ndarray:
        """``(k,)`` int cell indices from the entrance to the exit (empty without them)."""
        from laby3d.maze.solve import solution_cells

        return _read_only(solution_cells(self), np.int64)

    @cached_property
    def solution(self) -> tuple[tuple[int, int], ...]:
        """Cells ``(row, col)`` from the entrance to the exit, both included (empty without them)."""
        return tuple((int(row), int(col)) for row, col in self.tessellation.positions[self.solution_cells])

    def stats(self) -> MazeStats:
        """Dead ends, junctions, straights, turns, solution and longest path."""
        from laby3d.maze.stats import maze_stats

        return maze_stats(self)

    def to_json(self) -> str:
        """The maze file text (``.maze.json``: version 1 for a square maze, 2 for another shape)."""
        from laby3d.maze.mazefile import maze_to_json

        return maze_to_json(self)

    @classmethod
    def from_json(cls, text: str) -> Maze:
        """Read and validate a maze file of any shape; raises :class:`laby3d.errors.MazeFileError`."""
        from laby3d.maze.mazefile import maze_from_json

        return maze_from_json(text)

    def to_ascii(self, **options: Any) -> str:
        """Box-drawing picture of a square maze; see :func:`laby3d.draw.ascii.maze_to_ascii`."""
        from laby3d.draw.ascii import maze_to_ascii

        return maze_to_ascii(self, **options)


def _rebuilt(values: dict[str, Any]) -> Maze:
    """The maze :meth:`Maze.__reduce__` describes."""
    return Maze(values.pop("tessellation"), values.pop("open_walls"), **values)


def square_maze(rows: int, cols: int, open_walls: np.ndarray, **more: Any) -> Maze:
    """A square ``rows × cols`` maze with ``open_walls`` (a shorthand for the tests and tools)."""
    return Maze(tessellate("square", rows, cols), open_walls, **more)


def _read_only(array: Any, dtype: Any) -> np.ndarray:
    copy = np.array(array, dtype=dtype)
    copy.setflags(write=False)
    return copy


def _pairs_copy(pairs: Any, cell_count: int, name: str) -> np.ndarray:
    """A read-only int32 ``(k, 2)`` copy of ``pairs``, checked to hold cell indices."""
    array = np.asarray(pairs)
    if array.ndim != 2 or array.shape[1:] != (2,) or not np.issubdtype(array.dtype, np.integer):
        raise ParameterError(f"must be a (k, 2) array of cell indices, got shape {array.shape}", field=name)
    if array.size and (array.min() < 0 or array.max() >= cell_count):
        raise ParameterError(f"must hold cell indices 0..{cell_count - 1}", field=name)
    return _read_only(array, np.int32)


def _check_opening(opening: Any, name: str, tessellation: Tessellation) -> None:
    """An opening is a cell of the maze and, unless None, one of that cell's boundary sides."""
    if opening is None:
        return
    if not isinstance(opening, Opening):
        raise ParameterError(f"must be an Opening or None, got {shown(opening)}", field=name)
    try:
        cell = tessellation.cell_index(opening.row, opening.col)
    except IndexError:
        raise ParameterError(f"cell ({opening.row}, {opening.col}) is not in the maze", field=name) from None
    sides = tessellation.opening_sides(cell) if opening.side is not None else []
    if opening.side is not None and opening.side not in sides:
        where = f"its boundary sides are {', '.join(sides)}" if sides else "the cell is not on the boundary"
        raise ParameterError(
            f"side {shown(opening.side)} of cell ({opening.row}, {opening.col}) is not on the boundary: {where}",
            field=name,
        )
