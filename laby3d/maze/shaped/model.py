"""A maze on any tessellation: which interior walls are open, the entrance and exit on the outer
boundary, and how it was made.

:class:`ShapedMaze` holds one bool per interior wall of its tessellation (the walls in the order
of ``tessellation.edges``). A square :class:`laby3d.maze.model.Maze` keeps its own class and bit
masks, and presents itself as a ``ShapedMaze`` of shape ``square`` through ``maze.as_shaped()``,
so code written for any shape takes both (``maze.as_shaped()`` of a ShapedMaze is itself).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY, InitVar, dataclass, field, fields
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.errors import ParameterError
from laby3d.maze.algorithms import ALGORITHMS, graph_carver
from laby3d.maze.model import _carve_order_copy, check_seed, is_integer
from laby3d.quoting import shown
from laby3d.tessellation import Tessellation, get_shape, tessellate

if TYPE_CHECKING:
    from laby3d.maze.model import Maze
    from laby3d.maze.stats import MazeStats


@dataclass(frozen=True)
class ShapedOpening:
    """An end of the path: cell ``(row, col)`` and the boundary side opened there (None: a start
    or goal inside the maze, such as a theta maze's centre). Side names are the tessellation's
    (``N``/``E``/``S``/``W`` for squares and triangles, ``NE``… for hexagons, ``out`` for theta).

    >>> ShapedOpening(0, 0, "W").as_dict()
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


@dataclass(frozen=True, eq=False)
class ShapedMaze:
    """A maze on the tessellation of ``shape`` with ``rows`` rows (theta: rings) and ``cols``
    columns (None for theta).

    Build one with ``laby3d.generate(…, shape=…)`` or read it from a maze file. It cannot change:
    ``open_walls`` is a read-only copy, ``options`` a read-only mapping. The constructor checks
    kinds and ranges; the maze-file reader also checks that the maze is perfect.

    >>> import laby3d
    >>> maze = laby3d.generate(3, shape="theta", algorithm="wilson", seed=7)
    >>> maze.cell_count, maze.passage_count, maze.solution[0]
    (19, 18, (0, 0))
    """

    shape: str
    rows: int
    cols: int | None
    #: ``(E,)`` bool, one per interior wall (``tessellation.edges`` order): True where open.
    open_walls: np.ndarray
    _: KW_ONLY
    entrance: ShapedOpening | None = None
    exit: ShapedOpening | None = None
    algorithm: str | None = None
    seed: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    #: ``(k, 2)`` int32 cell indices of the passages in the order they were opened.
    carve_order: np.ndarray | None = None
    #: The tessellation of this shape and size when already built (shared, with any geometry).
    built: InitVar[Tessellation | None] = None

    def __post_init__(self, built: Tessellation | None) -> None:
        spec = get_shape(self.shape)
        if built is not None and (built.shape.name, built.rows, built.cols) == (self.shape, self.rows, self.cols):
            self.__dict__["tessellation"] = built
        tessellation = self.tessellation  # checks the size
        object.__setattr__(self, "rows", tessellation.rows)
        object.__setattr__(self, "cols", tessellation.cols)
        edges = len(tessellation.edges)
        walls = np.asarray(self.open_walls)
        if walls.shape != (edges,) or walls.dtype != np.bool_:
            raise ParameterError(
                f"must be a ({edges},) bool array, got shape {walls.shape} of {walls.dtype}", field="open_walls"
            )
        copy = walls.copy()
        copy.setflags(write=False)
        object.__setattr__(self, "open_walls", copy)
        for name in ("entrance", "exit"):
            _check_opening(getattr(self, name), name, tessellation)
        if self.algorithm is not None:
            if not isinstance(self.algorithm, str) or self.algorithm not in ALGORITHMS:
                raise ParameterError(
                    f"must be one of {', '.join(ALGORITHMS)} or None, got {shown(self.algorithm)}", field="algorithm"
                )
            if spec.name != "square":
                graph_carver(self.algorithm, spec.name)
        check_seed(self.seed)
        if self.seed is not None:
            object.__setattr__(self, "seed", int(self.seed))
        if not isinstance(self.options, Mapping) or not all(isinstance(key, str) for key in self.options):
            raise ParameterError(f"must be a mapping with string keys, got {shown(self.options)}", field="options")
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))
        if self.carve_order is not None:
            object.__setattr__(self, "carve_order", _carve_order_copy(self.carve_order, tessellation.cell_count))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its fields (the tessellation and solution are rebuilt, not carried)."""
        values = {item.name: getattr(self, item.name) for item in fields(self)}
        return (_rebuild, ({**values, "options": dict(self.options)},))

    @classmethod
    def from_passages(
        cls,
        shape: str,
        rows: int,
        cols: int | None,
        passages: np.ndarray,
        *,
        built: Tessellation | None = None,
        **more: Any,
    ) -> ShapedMaze:
        """A maze whose open walls are the ``(k, 2)`` neighbour pairs ``passages`` (cell indices,
        either order), recorded as its carve order; raises :class:`ParameterError` on
        ``passages`` when a pair is not two neighbours. ``built``: its tessellation, if built."""
        tessellation = built if built is not None else tessellate(shape, rows, cols)
        pairs = np.asarray(passages, dtype=np.int64).reshape(-1, 2)
        walls = wall_indices(tessellation, pairs)
        open_walls = np.zeros(len(tessellation.edges), dtype=bool)
        open_walls[walls] = True
        return cls(shape, rows, cols, open_walls, carve_order=pairs, built=tessellation, **more)

    def with_openings(self, entrance: ShapedOpening | None, exit: ShapedOpening | None) -> ShapedMaze:
        """A copy with ``entrance`` and ``exit`` (sharing this maze's tessellation)."""
        return ShapedMaze(
            self.shape,
            self.rows,
            self.cols,
            self.open_walls,
            entrance=entrance,
            exit=exit,
            algorithm=self.algorithm,
            seed=self.seed,
            options=self.options,
            carve_order=self.carve_order,
            built=self.tessellation,
        )

    def as_shaped(self) -> ShapedMaze:
        """The maze itself (a square :class:`Maze` gives its ShapedMaze view)."""
        return self

    @cached_property
    def tessellation(self) -> Tessellation:
        """The cells, neighbours and walls of this maze's shape and size."""
        return tessellate(self.shape, self.rows, self.cols)

    @property
    def cell_count(self) -> int:
        """Number of cells."""
        return self.tessellation.cell_count

    @cached_property
    def passages(self) -> np.ndarray:
        """``(k, 2)`` int32 neighbour pairs ``(a, b)``, ``a < b``, of the open walls, sorted."""
        passages = self.tessellation.edges[self.open_walls]
        passages.setflags(write=False)
        return passages

    @property
    def passage_count(self) -> int:
        """Open interior walls (``cells − 1`` in a perfect maze)."""
        return int(self.open_walls.sum())

    @property
    def closed_interior_walls(self) -> int:
        """Closed interior walls (``walls − cells + 1`` in a perfect maze)."""
        return len(self.open_walls) - self.passage_count

    def cell_of(self, opening: ShapedOpening) -> int:
        """The cell index of ``opening``."""
        return self.tessellation.cell_index(opening.row, opening.col)

    def boundary_wall_of(self, opening: ShapedOpening | None) -> int | None:
        """The boundary wall index ``opening`` opens (None without an opening or a side)."""
        if opening is None or opening.side is None:
            return None
        return self.tessellation.boundary_wall(self.cell_of(opening), opening.side)

    @cached_property
    def solution_cells(self) -> np.ndarray:
        """``(k,)`` int cell indices from the entrance to the exit (empty without them)."""
        from laby3d.maze.shaped.solve import solution_cells

        cells = solution_cells(self)
        cells.setflags(write=False)
        return cells

    @cached_property
    def solution(self) -> tuple[tuple[int, int], ...]:
        """Cells ``(row, col)`` from the entrance to the exit, both included."""
        starts = self.tessellation.row_starts
        rows = np.searchsorted(starts, self.solution_cells, side="right") - 1
        return tuple(zip(rows.tolist(), (self.solution_cells - starts[rows]).tolist(), strict=True))

    def stats(self) -> MazeStats:
        """Dead ends, junctions, straights, turns, solution and longest path."""
        from laby3d.maze.shaped.stats import shaped_stats

        return shaped_stats(self)

    def to_json(self) -> str:
        """The maze file text (version 2 with the shape; a square maze: version 1)."""
        if self.shape == "square":
            return grid_maze(self).to_json()
        from laby3d.maze.shaped.mazefile import shaped_to_json

        return shaped_to_json(self)

    @classmethod
    def from_json(cls, text: str) -> ShapedMaze:
        """Read and validate a maze file of any shape (a square one as its view); raises
        :class:`laby3d.errors.MazeFileError`."""
        from laby3d.maze.mazefile import any_maze_from_json

        return any_maze_from_json(text).as_shaped()


def _rebuild(values: dict[str, Any]) -> ShapedMaze:
    positional = [values.pop(name) for name in ("shape", "rows", "cols", "open_walls")]
    return ShapedMaze(*positional, **values)


def wall_indices(tessellation: Tessellation, pairs: np.ndarray) -> np.ndarray:
    """The interior wall index of each neighbour pair in ``pairs`` ``(k, 2)`` (either order);
    raises :class:`ParameterError` on ``passages`` naming the first pair that is not one."""
    cells = tessellation.cell_count
    if len(pairs) and (pairs.min() < 0 or pairs.max() >= cells):
        raise ParameterError(f"must hold cell indices 0..{cells - 1}", field="passages")
    low, high = pairs.min(axis=1), pairs.max(axis=1)
    key = low * cells + high
    edges = tessellation.edges.astype(np.int64)
    edge_key = edges[:, 0] * cells + edges[:, 1]
    order = np.argsort(key)  # sorted queries search a sorted table with far fewer cache misses
    index = np.empty(len(key), dtype=np.int64)
    index[order] = np.minimum(np.searchsorted(edge_key, key[order]), max(len(edge_key) - 1, 0))
    found = edge_key[index] == key if len(edge_key) else np.zeros(len(key), dtype=bool)
    if not found.all():
        a, b = (int(v) for v in pairs[np.argmin(found)])
        raise ParameterError(
            f"cells {a} and {b} are not neighbours in a {tessellation.shape.name} maze", field="passages"
        )
    return index


def _check_opening(opening: Any, name: str, tessellation: Tessellation) -> None:
    if opening is None:
        return
    if not isinstance(opening, ShapedOpening):
        raise ParameterError(f"must be a ShapedOpening or None, got {shown(opening)}", field=name)
    try:
        tessellation.cell_index(opening.row, opening.col)
    except IndexError:
        raise ParameterError(f"cell ({opening.row}, {opening.col}) is not in the maze", field=name) from None
    sides = tessellation.shape.side_angles
    if opening.side is not None and opening.side not in sides:
        raise ParameterError(f"side must be one of {', '.join(sides)} or None, got {shown(opening.side)}", field=name)


def shaped_from_grid(maze: Maze) -> ShapedMaze:
    """The ShapedMaze view of a square :class:`Maze`: the same walls, openings and history."""
    from laby3d.maze.model import E, S

    tessellation = tessellate("square", maze.rows, maze.cols)
    a, b = tessellation.edges[:, 0], tessellation.edges[:, 1]
    flat = maze.cells.ravel()
    east = b == a + 1
    open_walls = np.where(east, flat[a] & E, flat[a] & S) > 0
    openings = [None if o is None else ShapedOpening(o.row, o.col, o.side) for o in (maze.entrance, maze.exit)]
    return ShapedMaze(
        "square",
        maze.rows,
        maze.cols,
        open_walls,
        entrance=openings[0],
        exit=openings[1],
        algorithm=maze.algorithm,
        seed=maze.seed,
        options=maze.options,
        carve_order=maze.carve_order,
    )


def grid_maze(maze: ShapedMaze) -> Maze:
    """The square :class:`Maze` of a square ShapedMaze (the inverse of :func:`shaped_from_grid`)."""
    from laby3d.maze.model import Maze, Opening

    if maze.shape != "square":
        raise ParameterError(f"only a square maze has a grid form, this one is {maze.shape}", field="shape")
    order = maze.carve_order if maze.carve_order is not None else maze.passages
    grid = Maze.from_passages(
        maze.rows, maze.cols or 0, order, algorithm=maze.algorithm, seed=maze.seed, options=maze.options
    )
    if maze.carve_order is None:
        grid = Maze(grid.rows, grid.cols, grid.cells, algorithm=maze.algorithm, seed=maze.seed, options=maze.options)
    openings = [None if o is None else Opening(o.row, o.col, o.side) for o in (maze.entrance, maze.exit)]  # type: ignore[arg-type]
    return grid.with_openings(*openings)
