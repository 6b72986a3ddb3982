"""Tessellations: the cells of a maze of any shape, their neighbours and the walls between them.

:data:`SHAPES` holds the shapes (``square``, ``theta``, ``hex``, ``triangle``);
:func:`tessellate` builds the :class:`Tessellation` of one shape and size. docs/shapes.md
describes the API and each shape's geometry and cell size.

>>> hexes = tessellate("hex", 3, 4)
>>> hexes.cell_count, hexes.boundary_sides[:3]
(12, ('NE', 'NW', 'NE'))
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Literal, get_args

import numpy as np

from laby3d.errors import ParameterError
from laby3d.quoting import shown
from laby3d.tessellation.base import CellGraph, Shape, Tessellation, frozen
from laby3d.tessellation.hexagon import HEX
from laby3d.tessellation.square import SQUARE
from laby3d.tessellation.theta import THETA
from laby3d.tessellation.triangle import TRIANGLE
from laby3d.values import is_integer

ShapeName = Literal["square", "theta", "hex", "triangle"]
SHAPES: dict[str, Shape] = {shape.name: shape for shape in (SQUARE, THETA, HEX, TRIANGLE)}
SHAPE_NAMES: tuple[str, ...] = get_args(ShapeName)
#: Most cells of a maze that is not square (its maze file then stays within the file limits).
MAX_SHAPED_CELLS = 2_000_000


def get_shape(name: Any) -> Shape:
    """The registered shape called ``name``; raises :class:`ParameterError` on ``shape`` otherwise."""
    if not isinstance(name, str) or name not in SHAPES:
        raise ParameterError(f"must be one of {', '.join(SHAPES)}, got {shown(name)}", field="shape")
    return SHAPES[name]


def check_shape_size(name: str, rows: Any, cols: Any) -> None:
    """Raise :class:`ParameterError` (on ``rows`` or ``cols``) unless ``rows`` and ``cols`` size a
    ``name`` maze: theta takes rows (rings) alone, with cols None."""
    shape = get_shape(name)
    if not is_integer(rows) or not shape.min_rows <= rows <= shape.max_rows:
        what = " (its number of rings, the centre included)" if not shape.uses_cols else ""
        raise ParameterError(
            f"must be an integer in {shape.min_rows}..{shape.max_rows} for a {name} maze{what}, got {shown(rows)}",
            field="rows",
        )
    if not shape.uses_cols:
        if cols is not None:
            raise ParameterError(
                f"must be left out for a {name} maze (rows is its number of rings), got {shown(cols)}", field="cols"
            )
        return
    if not is_integer(cols) or not shape.min_cols <= cols <= shape.max_cols:
        why = " (a single column of triangles touches only at corners)" if name == "triangle" and cols == 1 else ""
        raise ParameterError(
            f"must be an integer in {shape.min_cols}..{shape.max_cols} for a {name} maze, got {shown(cols)}{why}",
            field="cols",
        )
    if name != "square" and rows * cols > MAX_SHAPED_CELLS:
        raise ParameterError(
            f"{rows} with cols {cols} gives {rows * cols:,} cells; a {name} maze has at most {MAX_SHAPED_CELLS:,}",
            field="rows",
        )


def extent_of(shape: str, rows: int, cols: int | None = None) -> tuple[float, float]:
    """``(width, height)`` of a ``shape`` tessellation's bounding box, cell sizes, from its size
    alone (what :attr:`Tessellation.extent` gives once the geometry is built): theta a disc of
    radius ``rows``; hex pointy-top, rows √3/2 apart, odd rows shifted by ½; triangles √3 wide
    and 1.5 high, half-overlapping.

    >>> extent_of("theta", 10), extent_of("triangle", 2, 3)
    ((20.0, 20.0), (3.4641016151377544, 3.0))
    """
    if shape == "theta":
        return 2.0 * rows, 2.0 * rows
    columns = cols or 0
    if shape == "hex":
        return columns + (0.5 if rows > 1 else 0.0), (rows - 1) * math.sqrt(3) / 2 + 2 / math.sqrt(3)
    if shape == "triangle":
        return (columns + 1) * math.sqrt(3) / 2, 1.5 * rows
    return float(columns), float(rows)


def cell_count_of(shape: str, rows: int, cols: int | None = None, **options: int) -> int:
    """Cells of a whole ``shape`` board of ``rows`` rows (theta: rings) and ``cols`` columns
    (and the shape's ``options``), from its size alone (what :attr:`Tessellation.cell_count`
    gives).

    >>> cell_count_of("theta", 10), cell_count_of("hex", 3, 4), cell_count_of("theta", 3, first_ring=4)
    (223, 12, 13)
    """
    if shape == "theta":
        from laby3d.tessellation.theta import ring_sizes

        return int(ring_sizes(rows, **options).sum())
    return rows * (cols or 0)


def check_shape_options(name: str, options: Mapping[str, Any]) -> tuple[tuple[str, int], ...]:
    """The shape's size options that differ from their defaults, checked (``(name, value)``
    pairs in the shape's order); raises :class:`ParameterError` naming the option otherwise."""
    shape = get_shape(name)
    options = {option: value for option, value in options.items() if value is not None}
    for option, value in options.items():
        if option not in shape.options:
            takes = ", ".join(shape.options) or "none"
            raise ParameterError(f"is not an option of a {name} maze (its options: {takes})", field=option)
        _, least, most = shape.options[option]
        if not is_integer(value) or not least <= value <= most:
            raise ParameterError(f"must be an integer in {least}..{most}, got {shown(value)}", field=option)
    return tuple(
        (option, int(options[option]))
        for option, (default, _, _) in shape.options.items()
        if option in options and options[option] != default
    )


def tessellate(
    shape: str, rows: int, cols: int | None = None, *, inside: Any = None, **options: int | None
) -> Tessellation:
    """The cells, neighbours and walls of a board of one shape and size.

    Parameters
    ----------
    shape : {"square", "theta", "hex", "triangle"}
        The cells' shape (:data:`SHAPES`).
    rows : int
        Rows of cells (theta: rings, the centre included).
    cols : int, optional
        Columns of cells (left out for theta).
    inside : array of int, optional
        The board's cells that are in the maze, as indices of the whole board's cells (an
        outline: :mod:`laby3d.geometry.outlines`); every cell when None.
    **options
        The shape's size options (theta: ``first_ring``, the cells of ring 1, 3..12, 6 when None).

    Returns
    -------
    Tessellation
        Its graph and geometry are built on first use; every array is read-only.

    Raises
    ------
    ParameterError
        On ``shape``, ``rows`` or ``cols``, with the range the shape takes (:func:`check_shape_size`).

    Examples
    --------
    >>> grid = tessellate("square", 2, 3)
    >>> grid.cell_count, grid.edges.tolist()[:3]
    (6, [[0, 1], [0, 3], [1, 2]])
    >>> tessellate("theta", 3).cell_count  # the centre, 6 cells, then 12
    19
    """
    check_shape_size(shape, rows, cols)
    chosen = check_shape_options(shape, options)
    return rebuilt(shape, int(rows), None if cols is None else int(cols), chosen, inside)


def rebuilt(shape: str, rows: int, cols: int | None, options: tuple[tuple[str, int], ...], inside: Any) -> Tessellation:
    """The tessellation of checked sizes and options, with ``inside`` (board cell indices) checked."""
    board = Tessellation(SHAPES[shape], rows, cols, tuple(options))
    if inside is None:
        return board
    cells = np.asarray(inside)
    if cells.ndim != 1 or not np.issubdtype(cells.dtype, np.integer) or len(cells) < 2:
        raise ParameterError("must be at least two cell indices of the board", field="cells")
    if cells.min() < 0 or cells.max() >= board.cell_count or (np.diff(cells) <= 0).any():
        raise ParameterError(
            f"must be increasing cell indices of the board, 0..{board.cell_count - 1}, each once", field="cells"
        )
    if len(cells) == board.cell_count:
        return board
    return Tessellation(SHAPES[shape], rows, cols, tuple(options), frozen(cells, np.int64))


__all__ = [
    "MAX_SHAPED_CELLS",
    "SHAPES",
    "SHAPE_NAMES",
    "CellGraph",
    "Shape",
    "ShapeName",
    "Tessellation",
    "cell_count_of",
    "extent_of",
    "get_shape",
    "tessellate",
]
