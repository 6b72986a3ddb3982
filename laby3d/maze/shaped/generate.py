"""Generating a maze of a shape other than square: the graph version of the algorithm on the
shape's tessellation, then the placement of the entrance and exit (called by
:func:`laby3d.maze.generate.generate`, which checks the arguments and draws the seed)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from laby3d.maze.algorithms import get_algorithm, graph_carver
from laby3d.maze.shaped.model import ShapedMaze
from laby3d.maze.shaped.placement import place_shaped
from laby3d.tessellation import check_shape_size, tessellate


def check_shaped(shape: str, rows: Any, cols: Any, algorithm: str) -> None:
    """Raise :class:`laby3d.errors.ParameterError` unless a ``shape`` maze of this size can be
    made by ``algorithm`` (the square-grid-only algorithms are refused for other shapes)."""
    check_shape_size(shape, rows, cols)
    get_algorithm(algorithm)
    if shape != "square":
        graph_carver(algorithm, shape)


def carve_shaped(
    shape: str,
    rows: int,
    cols: int | None,
    *,
    algorithm: str,
    resolved: Mapping[str, Any],
    rngs: tuple[np.random.Generator, np.random.Generator],
    placement: str,
    entrance: str | None,
    exit: str | None,
    **fields: Any,
) -> ShapedMaze:
    """A perfect ``shape`` maze carved with ``rngs[0]`` by ``algorithm`` (``resolved`` options),
    its openings placed with ``rngs[1]``; ``fields`` (seed, options) are recorded with it."""
    tessellation = tessellate(shape, rows, cols)
    passages = graph_carver(algorithm, shape)(tessellation.graph, rngs[0], resolved)
    maze = ShapedMaze.from_passages(shape, rows, cols, passages, built=tessellation, algorithm=algorithm, **fields)
    return place_shaped(maze, placement, rngs[1], entrance, exit)
