"""What every tessellation is: cells, their neighbour pairs, and the walls between them.

A tessellation is built from two things its shape gives: the **cell graph** (cell count, the
neighbour pairs, the first cell of each row), computed by index arithmetic and enough to generate
a maze; and the **layout** (vertex table, one polygon per cell, cell centres), computed on first
use. The walls are derived from the layout once, the same way for every shape: two cells share
a wall where their polygons share a chain of segments; a segment of one polygon only is on the
outer boundary.

Units: the **cell pitch** (multiply by ``cell_size`` for mm). Coordinates are picture
coordinates, x to the right and y down, with the bounding box starting at (0, 0). Polygons have a
positive shoelace area in these coordinates (clockwise as seen on a y-down picture).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from laby3d.errors import InternalError, ParameterError


def frozen(array: Any, dtype: Any) -> np.ndarray:
    """A read-only copy of ``array`` as ``dtype``."""
    copy = np.array(array, dtype=dtype)
    copy.setflags(write=False)
    return copy


def _sealed(array: np.ndarray) -> np.ndarray:
    """``array`` itself made read-only (one just made here: :func:`frozen` would copy it)."""
    array.setflags(write=False)
    return array


def sorted_pairs(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """``(k, 2)`` int32 pairs ``(low, high)``, rows in lexicographic order."""
    first, second = np.asarray(first, dtype=np.int64).ravel(), np.asarray(second, dtype=np.int64).ravel()
    low, high = np.minimum(first, second), np.maximum(first, second)
    order = np.argsort(low * (int(high.max(initial=0)) + 1) + high, kind="stable")
    return frozen(np.stack([low[order], high[order]], axis=1), np.int32).reshape(-1, 2)


@dataclass(frozen=True, eq=False)
class CellGraph:
    """The cells and their neighbour pairs: what the generators need.

    ``edges`` are the neighbour pairs, one per interior wall: ``(E, 2)`` int32 rows ``(a, b)``
    with ``a < b``, in lexicographic order (the wall and edge index of a pair is its row).
    ``row_starts`` is ``(rows + 1,)``: cell ``(row, col)`` has index ``row_starts[row] + col``.
    """

    cell_count: int
    edges: np.ndarray
    row_starts: np.ndarray

    @cached_property
    def adjacency(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """CSR adjacency ``(indptr, neighbours, edge_ids)``: the neighbours of cell ``c`` are
        ``neighbours[indptr[c]:indptr[c + 1]]`` (increasing), through walls ``edge_ids[…]``."""
        # The pairs are lexicographic, so a cell's neighbours are those below it (the pairs
        # ending at it, by one stable sort of the ends: nearly sorted runs) then those above it
        # (its pairs, already in order): a lexsort of both directions cost 3x more. The k-th pair
        # of a cell's group goes to its row's start + k: each group's shift from its place in
        # the sorted pairs, repeated over the group (1000x1000: 0.20 -> 0.08 s).
        low, high = self.edges[:, 0], self.edges[:, 1]
        as_low = np.bincount(low, minlength=self.cell_count)
        as_high = np.bincount(high, minlength=self.cell_count)
        indptr = np.zeros(self.cell_count + 1, dtype=np.int64)
        np.cumsum(as_low + as_high, out=indptr[1:])
        rank = np.arange(len(low))
        by_high = np.argsort(high, kind="stable")
        below = rank + np.repeat(indptr[:-1] - (np.cumsum(as_high) - as_high), as_high)
        above = rank + np.repeat(indptr[:-1] + as_high - (np.cumsum(as_low) - as_low), as_low)
        neighbours = np.empty(2 * len(low), dtype=np.int32)
        walls = np.empty(2 * len(low), dtype=np.int32)
        neighbours[below], walls[below] = low[by_high], by_high
        neighbours[above], walls[above] = high, rank
        return _sealed(indptr), _sealed(neighbours), _sealed(walls)

    @property
    def max_degree(self) -> int:
        """Most neighbours of one cell."""
        indptr = self.adjacency[0]
        return int(np.diff(indptr).max()) if self.cell_count else 0


@dataclass(frozen=True, eq=False)
class CellLayout:
    """Where the cells are: what a shape's layout function returns (pitch units)."""

    #: ``(V, 2)`` float64 vertex positions.
    vertices: np.ndarray
    #: ``(C + 1,)`` offsets into ``polygon_vertices``: cell ``c``'s polygon is
    #: ``polygon_vertices[polygon_starts[c]:polygon_starts[c + 1]]``.
    polygon_starts: np.ndarray
    #: vertex ids of every polygon in turn, positive orientation, each starting at a corner
    polygon_vertices: np.ndarray
    #: ``(V,)`` bool: the vertex is a corner where walls may begin or end (False only for the
    #: intermediate points of an arc drawn as a polyline)
    corner: np.ndarray
    #: ``(C, 2)`` float64 cell centres
    centres: np.ndarray


@dataclass(frozen=True, kw_only=True)
class Shape:
    """A cell shape: how to compute its cell graph and layout, and its sizes.

    ``side_angles`` name the directions of a boundary wall's outward normal (degrees, measured
    from +x towards +y, that is clockwise on a y-down picture); a boundary wall takes the nearest
    name. With ``radial_sides`` the angles are measured from the direction from the board's
    centre to the wall (theta: ``out`` away from the centre, ``in`` towards it, ``cw`` and
    ``ccw`` along the ring).
    """

    name: str
    description: str
    graph: Callable[..., CellGraph]
    layout: Callable[..., CellLayout]
    side_angles: Mapping[str, float]
    radial_sides: bool = False
    #: The shape's own size options, each ``name -> (default, least, most)`` (theta's
    #: ``first_ring``), passed by keyword to ``graph`` and ``layout``.
    options: Mapping[str, tuple[int, int, int]] = field(default_factory=dict)
    #: False for theta, sized by its rows (rings) alone
    uses_cols: bool = True
    min_rows: int = 1
    max_rows: int
    min_cols: int = 1
    max_cols: int = 0
    #: The wall index of each neighbour pair ``(a, b)``, ``a < b``, by arithmetic (``rows, cols,
    #: low, high -> (k,) int64``, −1 where the cells are not neighbours); None: searched in the
    #: edge table (what any shape can do).
    edge_index: Callable[[int, int, np.ndarray, np.ndarray], np.ndarray] | None = None
    #: The order in which a cell's boundary sides are offered for an opening (the first one is
    #: opened); None: their order along the outline.
    side_order: tuple[str, ...] | None = None
    #: A cell's boundary sides by arithmetic (``rows, cols, row, col -> names`` in
    #: :attr:`side_order`); None: read from the geometry.
    boundary_sides: Callable[[int, int, int, int], list[str]] | None = None
    #: The walls by arithmetic, exactly as :func:`derive_walls` finds them (``rows, cols ->
    #: Walls``); None: derived from the layout.
    walls: Callable[[int, int], Walls] | None = None


@dataclass(frozen=True, eq=False)
class Tessellation:
    """Cells of one shape and size, their neighbours and the walls between them (pitch units).

    Build one with :func:`laby3d.tessellation.tessellate`. The graph and the geometry
    (vertices, polygons, walls, boundary) are computed on first use. Every array is read-only.

    >>> from laby3d.tessellation import tessellate
    >>> grid = tessellate("square", 2, 3)
    >>> grid.cell_count, len(grid.edges), len(grid.boundary_cells)
    (6, 7, 10)
    >>> grid.wall_polyline(0).tolist()  # between cells 0 and 1: x = 1, from y = 0 to y = 1
    [[1.0, 0.0], [1.0, 1.0]]
    """

    shape: Shape
    rows: int
    #: None for theta
    cols: int | None
    #: The shape's size options that differ from their defaults, as ``(name, value)`` pairs.
    options: tuple[tuple[str, int], ...] = ()
    #: The board's cells that are in the maze (an outline), as increasing indices of the whole
    #: board's cells; None: the whole board.
    inside: np.ndarray | None = field(default=None, repr=False)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its shape, size and cells (rebuilt on the other side, graph and geometry too)."""
        from laby3d.tessellation import rebuilt

        return (rebuilt, (self.shape.name, self.rows, self.cols, self.options, self.inside))

    @property
    def kind(self) -> str:
        """What specialised code may take this tessellation: its shape's name for a whole board
        of default options (the carver registry and the format table key their square-grid
        entries on ``"square"``), ``"outline"`` for a board cut by an outline or a shape option."""
        return self.shape.name if self.inside is None and not self.options else "outline"

    @cached_property
    def board(self) -> Tessellation:
        """The whole board of this shape, size and options (itself when it has every cell)."""
        return self if self.inside is None else Tessellation(self.shape, self.rows, self.cols, self.options)

    @cached_property
    def graph(self) -> CellGraph:
        """The cells and their neighbour pairs."""
        if self.inside is None:
            return self.shape.graph(self.rows, self.cols or 0, **dict(self.options))
        board = self.board.graph
        compact = self._compact
        kept = (compact[board.edges[:, 0]] >= 0) & (compact[board.edges[:, 1]] >= 0)
        edges = compact[board.edges[kept]]  # compact order keeps the board's: still lexicographic
        return CellGraph(len(self.inside), frozen(edges, np.int32).reshape(-1, 2), self.row_starts)

    @cached_property
    def _compact(self) -> np.ndarray:
        """``(board cells,)`` int64: each board cell's index here, −1 outside the maze."""
        compact = np.full(self.board.cell_count, -1, dtype=np.int64)
        if self.inside is not None:
            compact[self.inside] = np.arange(len(self.inside))
        return compact

    @cached_property
    def cell_count(self) -> int:
        """Number of cells."""
        return int(self.row_starts[-1])

    @cached_property
    def grid_shape(self) -> tuple[int, ...]:
        """How per-cell values are shown to a user: ``(rows, cols)`` for a board of rows and
        columns, ``(cells,)`` for theta (rings of different lengths)."""
        return (self.rows, self.cols) if self.cols is not None else (self.cell_count,)

    def per_cell(self, values: np.ndarray) -> np.ndarray:
        """``(C,)`` per-cell ``values`` laid out as :attr:`grid_shape`."""
        return np.asarray(values).reshape(self.grid_shape)

    def edge_indices(self, pairs: np.ndarray, field: str = "passages") -> np.ndarray:
        """The interior wall index of each neighbour pair of ``pairs`` ``(k, 2)`` (either
        order); raises :class:`ParameterError` on ``field`` naming the first pair that is not
        two neighbours."""
        pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
        cells = self.cell_count
        if len(pairs) and (pairs.min() < 0 or pairs.max() >= cells):
            raise ParameterError(f"must hold cell indices 0..{cells - 1}", field=field)
        # two columns compared whole: numpy's reduction along rows of two is 13× slower (60 ms at 1M pairs)
        low, high = np.minimum(pairs[:, 0], pairs[:, 1]), np.maximum(pairs[:, 0], pairs[:, 1])
        if self.shape.edge_index is not None and self.inside is None and not self.options:
            index = self.shape.edge_index(self.rows, self.cols or 0, low, high)
            found = index >= 0
        else:
            key = low * cells + high
            edges = self.edges.astype(np.int64)
            edge_key = edges[:, 0] * cells + edges[:, 1]
            order = np.argsort(key)  # sorted queries search a sorted table with far fewer cache misses
            index = np.empty(len(key), dtype=np.int64)
            index[order] = np.minimum(np.searchsorted(edge_key, key[order]), max(len(edge_key) - 1, 0))
            found = edge_key[index] == key if len(edge_key) else np.zeros(len(key), dtype=bool)
        if not found.all():
            a, b = (int(v) for v in pairs[np.argmin(found)])
            raise ParameterError(f"cells {a} and {b} are not neighbours in a {self.shape.name} maze", field=field)
        return index

    def opening_sides(self, cell: int) -> list[str]:
        """The boundary sides of ``cell``, in the order an opening takes them (its shape's
        :attr:`Shape.side_order`, else along the outline); empty inside the maze."""
        if self.shape.boundary_sides is not None and self.inside is None:
            return self.shape.boundary_sides(self.rows, self.cols or 0, *self.cell_position(cell))
        sides = [self.boundary_sides[wall] for wall in self.boundary_walls_of(cell)]
        order = self.shape.side_order
        return sorted(sides, key=order.index) if order is not None else sides

    @property
    def edges(self) -> np.ndarray:
        """``(E, 2)`` int32 neighbour pairs ``(a, b)``, ``a < b``, one per interior wall."""
        return self.graph.edges

    @cached_property
    def row_starts(self) -> np.ndarray:
        """``(rows + 1,)`` int64: the cells of row ``r`` (a ring of theta) are the indices
        ``row_starts[r]`` to ``row_starts[r + 1]`` − 1; on a whole board cell ``(row, col)`` is
        ``row_starts[row] + col`` (:meth:`cell_index` says it for every board)."""
        if self.inside is not None:
            return frozen(np.searchsorted(self.inside, self.board.row_starts), np.int64)
        if self.cols is not None:  # a board of rows and columns: no graph needed
            return frozen(np.arange(self.rows + 1) * self.cols, np.int64)
        return self.graph.row_starts

    def board_row_length(self, row: int) -> int:
        """Cells in ``row`` of the whole board (a ring of a theta maze): its columns run 0 to this − 1."""
        starts = self.board.row_starts
        return int(starts[row + 1] - starts[row])

    def row_length(self, row: int) -> int:
        """Cells of the maze in ``row`` (a ring of a theta maze)."""
        return int(self.row_starts[row + 1] - self.row_starts[row])

    def cell_index(self, row: int, col: int) -> int:
        """The index of cell ``(row, col)``; raises IndexError outside the maze."""
        if not (0 <= row < self.rows and 0 <= col < self.board_row_length(row)):
            raise IndexError(f"no cell ({row}, {col}) in this {self.shape.name} tessellation")
        index = int(self.board.row_starts[row]) + col
        if self.inside is None:
            return index
        compact = int(self._compact[index])
        if compact < 0:
            raise IndexError(f"cell ({row}, {col}) is outside the outline of this maze")
        return compact

    def cell_position(self, index: int) -> tuple[int, int]:
        """``(row, col)`` of cell ``index``."""
        full = int(self.inside[index]) if self.inside is not None else int(index)
        starts = self.board.row_starts
        row = int(np.searchsorted(starts, full, side="right")) - 1
        return row, int(full - starts[row])

    @cached_property
    def positions(self) -> np.ndarray:
        """``(C, 2)`` int64 ``(row, col)`` of every cell."""
        full = self.inside if self.inside is not None else np.arange(self.cell_count)
        starts = self.board.row_starts
        rows = np.searchsorted(starts, full, side="right") - 1
        return frozen(np.stack([rows, full - starts[rows]], axis=1), np.int64).reshape(-1, 2)

    @cached_property
    def _layout(self) -> CellLayout:
        if self.inside is None:
            return self.shape.layout(self.rows, self.cols or 0, **dict(self.options))
        return _cut(self.board._layout, self.inside)

    @cached_property
    def _walls(self) -> Walls:
        if self.shape.walls is not None and self.inside is None and not self.options:
            return self.shape.walls(self.rows, self.cols or 0)
        centre = np.array(self.board.extent) / 2 if self.shape.radial_sides else None
        return derive_walls(self._layout, self.graph, self.shape.side_angles, centre=centre)

    @property
    def vertices(self) -> np.ndarray:
        """``(V, 2)`` float64 vertex positions (x right, y down), pitch units."""
        return self._layout.vertices

    @property
    def corners(self) -> np.ndarray:
        """``(V,)`` bool: False only at the intermediate points of an arc (theta), where a wall
        runs on smoothly."""
        return self._layout.corner

    @property
    def centres(self) -> np.ndarray:
        """``(C, 2)`` float64 cell centres, pitch units."""
        return self._layout.centres

    @property
    def polygon_starts(self) -> np.ndarray:
        """``(C + 1,)`` offsets of each cell's polygon in :attr:`polygon_vertices`."""
        return self._layout.polygon_starts

    @property
    def polygon_vertices(self) -> np.ndarray:
        """Vertex ids of the cell polygons (positive shoelace area), one after the other."""
        return self._layout.polygon_vertices

    @property
    def wall_starts(self) -> np.ndarray:
        """``(E + 1,)`` offsets of each interior wall's polyline in :attr:`wall_vertices`."""
        return self._walls.wall_starts

    @property
    def wall_vertices(self) -> np.ndarray:
        """Vertex ids of the interior walls' polylines, wall ``e`` between cells ``edges[e]``."""
        return self._walls.wall_vertices

    @property
    def boundary_cells(self) -> np.ndarray:
        """``(B,)`` int32: the cell inside each outer boundary wall, walls in order along the
        outline (positive orientation, starting with cell 0's first boundary wall)."""
        return self._walls.boundary_cells

    @property
    def boundary_sides(self) -> tuple[str, ...]:
        """The side name of each boundary wall (``"N"``, ``"NE"``, ``"out"``…), unique per cell."""
        return self._walls.boundary_sides

    @property
    def boundary_starts(self) -> np.ndarray:
        """``(B + 1,)`` offsets of each boundary wall's polyline in :attr:`boundary_vertices`."""
        return self._walls.boundary_starts

    @property
    def boundary_vertices(self) -> np.ndarray:
        """Vertex ids of the boundary walls' polylines; each ends where the next begins."""
        return self._walls.boundary_vertices

    @cached_property
    def extent(self) -> tuple[float, float]:
        """``(width, height)`` of the bounding box, pitch units (it starts at (0, 0))."""
        width, height = self.vertices.max(axis=0)
        return float(width), float(height)

    @cached_property
    def wall_midpoints(self) -> np.ndarray:
        """``(E, 2)`` the point halfway along each interior wall's polyline."""
        return _midpoints(self.vertices, self.wall_starts, self.wall_vertices)

    @cached_property
    def boundary_midpoints(self) -> np.ndarray:
        """``(B, 2)`` the point halfway along each boundary wall's polyline."""
        return _midpoints(self.vertices, self.boundary_starts, self.boundary_vertices)

    def cell_polygon(self, cell: int) -> np.ndarray:
        """``(k, 2)`` corners of cell ``cell``'s polygon, pitch units."""
        starts = self.polygon_starts
        return self.vertices[self.polygon_vertices[starts[cell] : starts[cell + 1]]]

    def wall_polyline(self, edge: int) -> np.ndarray:
        """``(k, 2)`` points of the interior wall between the cells of ``edges[edge]``."""
        starts = self.wall_starts
        return self.vertices[self.wall_vertices[starts[edge] : starts[edge + 1]]]

    def boundary_polyline(self, wall: int) -> np.ndarray:
        """``(k, 2)`` points of boundary wall ``wall``."""
        starts = self.boundary_starts
        return self.vertices[self.boundary_vertices[starts[wall] : starts[wall + 1]]]

    @property
    def loop_starts(self) -> np.ndarray:
        """``(L + 1,)`` the boundary walls of loop ``l`` are ``loop_starts[l]`` to
        ``loop_starts[l + 1]`` − 1: the outline first, then the holes of a board cut by an
        outline (a ring's centre, a letter's counter)."""
        return self._walls.loop_starts

    def outlines(self) -> list[np.ndarray]:
        """Every boundary loop as a closed ring of points (first not repeated): the outline
        (positive orientation, as the cells), then each hole (negative)."""
        found = []
        for first_wall, stop_wall in zip(self.loop_starts[:-1], self.loop_starts[1:], strict=True):
            ids = [
                self.boundary_vertices[self.boundary_starts[w] : self.boundary_starts[w + 1] - 1]
                for w in range(first_wall, stop_wall)
            ]
            found.append(self.vertices[np.concatenate(ids)])
        return found

    def outline(self) -> np.ndarray:
        """``(k, 2)`` the outer boundary as one closed ring (first point not repeated)."""
        return self.outlines()[0]

    def boundary_walls_of(self, cell: int) -> list[int]:
        """Indices of ``cell``'s boundary walls, in order along the outline."""
        return [int(wall) for wall in np.flatnonzero(self.boundary_cells == cell)]

    def boundary_wall(self, cell: int, side: str) -> int | None:
        """The boundary wall of ``cell`` on ``side``, or None when it has none there."""
        return self._walls.by_cell_side.get((cell, side))


@dataclass(frozen=True, eq=False)
class Walls:
    """The walls a layout implies (:func:`derive_walls`, or a shape's own arithmetic): the
    interior walls' polylines in edge order, the boundary walls' along the outline."""

    wall_starts: np.ndarray
    wall_vertices: np.ndarray
    boundary_cells: np.ndarray
    boundary_sides: tuple[str, ...]
    boundary_starts: np.ndarray
    boundary_vertices: np.ndarray
    by_cell_side: Mapping[tuple[int, str], int]
    #: ``(L + 1,)`` offsets of each boundary loop's walls (one loop: ``[0, B]``)
    loop_starts: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    def __post_init__(self) -> None:
        if not len(self.loop_starts):
            object.__setattr__(self, "loop_starts", frozen([0, len(self.boundary_cells)], np.int64))


def _polylines(starts: np.ndarray, stops: np.ndarray, first: np.ndarray, last: np.ndarray) -> tuple[np.ndarray, ...]:
    """CSR polylines of the segment runs ``starts[i]:stops[i]``: the first vertex of every
    segment of the run, then the last vertex of its final segment."""
    lengths = stops - starts + 1
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    run = np.repeat(np.arange(len(lengths)), lengths)
    step = np.arange(offsets[-1]) - offsets[run]
    at = starts[run] + step
    inside = step < lengths[run] - 1
    ids = np.where(inside, first[np.minimum(at, len(first) - 1)], last[stops[run] - 1])
    return frozen(offsets, np.int64), frozen(ids, np.int32)


def _midpoints(vertices: np.ndarray, starts: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """The point halfway along each CSR polyline, by length."""
    points = vertices[ids]
    step = np.linalg.norm(np.diff(points, axis=0), axis=1)
    step[starts[1:-1] - 1] = 0.0  # no step from one polyline's end to the next one's start
    travelled = np.concatenate([[0.0], np.cumsum(step)])
    half = (travelled[starts[:-1]] + travelled[starts[1:] - 1]) / 2
    segment = np.clip(np.searchsorted(travelled, half, side="right") - 1, starts[:-1], starts[1:] - 2)
    length = travelled[segment + 1] - travelled[segment]
    share = np.divide(half - travelled[segment], length, out=np.zeros_like(half), where=length > 0)
    middle = points[segment] + share[:, None] * (points[segment + 1] - points[segment])
    return frozen(middle, np.float64)


def _side_names(
    directions: np.ndarray, side_angles: Mapping[str, float], towards: np.ndarray | None = None
) -> list[str]:
    """The name in ``side_angles`` nearest to each outward direction ``(k, 2)``, measured from
    +x, or from each wall's own ``towards`` direction ``(k, 2)`` (away from the board's centre)."""
    names = list(side_angles)
    angles = np.degrees(np.arctan2(directions[:, 1], directions[:, 0]))
    if towards is not None:
        angles = angles - np.degrees(np.arctan2(towards[:, 1], towards[:, 0]))
    targets = np.array([side_angles[name] for name in names])
    gap = np.abs((angles[:, None] - targets[None, :] + 180.0) % 360.0 - 180.0)
    return [names[index] for index in np.argmin(gap, axis=1)]


def derive_walls(
    layout: CellLayout, graph: CellGraph, side_angles: Mapping[str, float], *, centre: np.ndarray | None = None
) -> Walls:
    """The interior walls (in ``graph.edges`` order) and the boundary walls (loop by loop along
    the boundary: the first loop starts with cell 0's first boundary wall) of ``layout``: maximal
    chains of polygon segments shared by the same two cells (or by one cell and the outside),
    split at corners; consecutive boundary chains of one cell and one side name are one wall.
    ``centre``: the board's centre, which side names are measured from (theta). Raises
    :class:`InternalError` when the layout and the graph disagree."""
    starts = layout.polygon_starts.astype(np.int64)
    first = layout.polygon_vertices.astype(np.int64)
    count = len(first)
    cells = len(starts) - 1
    owner = np.repeat(np.arange(cells), np.diff(starts))
    following = np.arange(1, count + 1)
    following[starts[1:] - 1] = starts[:-1]
    last = first[following]
    vertex_count = len(layout.vertices)
    key = np.minimum(first, last) * vertex_count + np.maximum(first, last)
    order = np.argsort(key, kind="stable")
    same = key[order[1:]] == key[order[:-1]]
    if (same[1:] & same[:-1]).any():
        raise InternalError("a wall segment is shared by three cells")
    other = np.full(count, -1, dtype=np.int64)
    a, b = order[:-1][same], order[1:][same]
    other[a], other[b] = owner[b], owner[a]
    previous = np.arange(-1, count - 1)
    previous[starts[:-1]] = starts[1:] - 1
    if not layout.corner[first[starts[:-1]]].all():
        raise InternalError("a cell polygon does not start at a corner")
    begins = (other != other[previous]) | layout.corner[first]
    run_starts = np.flatnonzero(begins)
    run_stops = np.append(run_starts[1:], count)
    run_cell, run_other = owner[run_starts], other[run_starts]

    interior = run_other > run_cell
    pair_key = run_cell[interior] * cells + run_other[interior]
    edge_key = graph.edges[:, 0].astype(np.int64) * cells + graph.edges[:, 1]
    position = np.searchsorted(edge_key, pair_key)
    if len(pair_key) != len(edge_key) or not np.array_equal(
        edge_key[np.minimum(position, len(edge_key) - 1)], pair_key
    ):
        raise InternalError("the cell polygons do not share walls exactly between the graph's neighbours")
    by_edge = np.argsort(position)
    wall_starts, wall_vertices = _polylines(run_starts[interior][by_edge], run_stops[interior][by_edge], first, last)

    outer = np.flatnonzero(run_other < 0)
    begin_vertex = first[run_starts[outer]]
    end_vertex = last[run_stops[outer] - 1]
    successor = {int(v): index for index, v in enumerate(begin_vertex)}
    if len(successor) != len(outer):
        raise InternalError("two boundary walls begin at the same vertex (the cells touch at a corner only)")
    loops: list[list[int]] = []
    seen = np.zeros(len(outer), dtype=bool)
    for start in range(len(outer)):  # each loop from its first run in polygon order
        if seen[start]:
            continue
        loop = [start]
        seen[start] = True
        while True:
            step = successor.get(int(end_vertex[loop[-1]]), -1)
            if step == start:
                break
            if step < 0 or seen[step]:
                raise InternalError("a boundary loop does not close")
            loop.append(step)
            seen[step] = True
        loops.append(loop)
    if len(loops) > 1:  # the outline (the cells' orientation: a positive area) first, then the holes
        loops.sort(key=lambda loop: _loop_area(layout.vertices[begin_vertex[loop]]) <= 0)
    chords = layout.vertices[end_vertex] - layout.vertices[begin_vertex]
    normals = np.stack([chords[:, 1], -chords[:, 0]], axis=1)
    towards = None
    if centre is not None:
        middles = (layout.vertices[end_vertex] + layout.vertices[begin_vertex]) / 2
        towards = middles - centre
    names = _side_names(normals, side_angles, towards) if len(outer) else []
    walls: list[tuple[int, int, int, str]] = []  # (first run, last run, cell, side) in loop order
    loop_starts = [0]
    for loop in loops:
        merged = _merged_runs([(int(run_cell[outer[r]]), names[r], r) for r in loop])
        walls += [(outer[a], outer[b], cell, side) for a, b, cell, side in merged]
        loop_starts.append(len(walls))
    boundary_starts, boundary_vertices = _polylines(
        run_starts[np.array([w[0] for w in walls], dtype=np.int64)],
        run_stops[np.array([w[1] for w in walls], dtype=np.int64)],
        first,
        last,
    )
    sides = _numbered_repeats([(cell, side) for _, _, cell, side in walls])
    boundary_cells = np.array([cell for _, _, cell, _ in walls], dtype=np.int64)
    by_cell_side = {
        (int(cell), side): index for index, (cell, side) in enumerate(zip(boundary_cells, sides, strict=True))
    }
    if len(by_cell_side) != len(sides):
        raise InternalError("a cell has two boundary walls of the same side name")
    return Walls(
        wall_starts=wall_starts,
        wall_vertices=wall_vertices,
        boundary_cells=frozen(boundary_cells, np.int32),
        boundary_sides=tuple(sides),
        boundary_starts=boundary_starts,
        boundary_vertices=boundary_vertices,
        by_cell_side=by_cell_side,
        loop_starts=frozen(loop_starts, np.int64),
    )


def _loop_area(points: np.ndarray) -> float:
    """The signed (shoelace) area of the ring through ``points`` (the start of each of its walls;
    y down: positive clockwise on the picture, as the cell polygons)."""
    x, y = points[:, 0], points[:, 1]
    return float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) / 2


def _numbered_repeats(walls: list[tuple[int, str]]) -> list[str]:
    """The side name of each boundary wall ``(cell, side)``, a cell's second, third… wall of one
    name numbered (``out2``: the centre of a theta board cut by an outline touches the outside
    between its neighbours), so a cell and a side name one wall."""
    seen: dict[tuple[int, str], int] = {}
    names = []
    for cell, side in walls:
        count = seen.get((cell, side), 0) + 1
        seen[(cell, side)] = count
        names.append(side if count == 1 else f"{side}{count}")
    return names


def _merged_runs(runs: list[tuple[int, str, int]]) -> list[tuple[int, int, int, str]]:
    """Consecutive boundary runs ``(cell, side, run)`` of one loop merged where they share the
    cell and the side (theta's two outer arcs under two cut cells): ``(first run, last run, cell,
    side)``. A loop whose last and first runs would merge is rotated so that the merged wall
    does not straddle its start."""
    shift = 0
    while shift < len(runs) - 1 and runs[shift][:2] == runs[shift - 1][:2]:
        shift += 1
    rotated = runs[shift:] + runs[:shift]
    merged: list[tuple[int, int, int, str]] = []
    for cell, side, run in rotated:
        if merged and merged[-1][2:] == (cell, side):
            merged[-1] = (merged[-1][0], run, cell, side)
        else:
            merged.append((run, run, cell, side))
    return merged


def _cut(layout: CellLayout, inside: np.ndarray) -> CellLayout:
    """``layout`` of the ``inside`` cells only, its vertex table cut to the vertices they use."""
    starts = layout.polygon_starts
    lengths = np.diff(starts)[inside]
    offsets = np.zeros(len(inside) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    take = np.repeat(starts[:-1][inside] - offsets[:-1], lengths) + np.arange(offsets[-1])
    ids = layout.polygon_vertices[take]
    used, compact = np.unique(ids, return_inverse=True)
    return CellLayout(
        vertices=frozen(layout.vertices[used], np.float64),
        polygon_starts=frozen(offsets, np.int64),
        polygon_vertices=frozen(compact.ravel(), np.int32),
        corner=frozen(layout.corner[used], bool),
        centres=frozen(layout.centres[inside], np.float64),
    )


def lattice_layout(corner_keys: np.ndarray, scale: tuple[float, float], centres: np.ndarray) -> CellLayout:
    """The layout of straight-sided cells whose corners lie on an integer lattice.

    ``corner_keys`` is ``(C, k, 2)`` int64 lattice points ``(row, col)`` of each cell's corners in
    positive order; a lattice point ``(i, j)`` sits at ``(j·scale[0], i·scale[1])``. Vertex ids
    number the lattice points used, row by row.
    """
    cells, corners, _ = corner_keys.shape
    flat = corner_keys.reshape(-1, 2)
    width = int(flat[:, 1].max()) + 1
    unique, inverse = np.unique(flat[:, 0] * width + flat[:, 1], return_inverse=True)
    vertices = np.stack([(unique % width) * scale[0], (unique // width) * scale[1]], axis=1)
    return CellLayout(
        vertices=frozen(vertices, np.float64),
        polygon_starts=frozen(np.arange(cells + 1) * corners, np.int64),
        polygon_vertices=frozen(inverse.ravel(), np.int32),
        corner=frozen(np.ones(len(unique), dtype=bool), bool),
        centres=frozen(centres, np.float64),
    )
