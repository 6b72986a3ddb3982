"""``generate``: a perfect maze from a shape and size, an algorithm, a seed and a placement policy."""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np

from laby3d.errors import ParameterError
from laby3d.maze.algorithms import carver_for, get_algorithm
from laby3d.maze.model import MAX_SEED as MAX_SEED  # re-exported: the options models import it from here
from laby3d.maze.model import Maze, check_seed
from laby3d.maze.placement import place
from laby3d.quoting import shown
from laby3d.tessellation import tessellate


def new_seed() -> int:
    """A fresh random seed (from the OS), to be recorded with the maze."""
    return secrets.randbelow(2**32)


def generate(
    rows: int,
    cols: int | None = None,
    *,
    shape: str = "square",
    algorithm: str = "kruskal",
    seed: int | None = None,
    placement: str = "corners",
    entrance: str | None = None,
    exit: str | None = None,
    **options: Any,
) -> Maze:
    """Generate a perfect maze.

    Parameters
    ----------
    rows : int
        Rows of cells (theta: rings, the centre included).
    cols : int, optional
        Columns of cells (left out for theta).
    shape : {"square", "theta", "hex", "triangle"}
        The cells' shape (:data:`laby3d.tessellation.SHAPES`).
    algorithm : str
        One of :data:`laby3d.ALGORITHMS` (``laby3d list``); the square grid takes all of them,
        the other shapes those that run on any cell graph.
    seed : int, optional
        Makes the maze reproducible; drawn from the OS and recorded when None.
    placement : {"corners", "opposite-sides", "center", "hardest", "explicit"}
        Where the entrance and exit go; ``explicit`` reads ``entrance`` and ``exit`` as
        ``"row,col,side"``.
    **options
        The algorithm's options (``laby3d list``), e.g. ``policy="oldest"`` for growing_tree.

    Returns
    -------
    Maze
        The maze, with the carve order its carver recorded.

    Raises
    ------
    ParameterError
        Naming the argument at fault and what it takes.

    Examples
    --------
    >>> maze = generate(3, 4, algorithm="wilson", seed=1)
    >>> maze.passage_count == 3 * 4 - 1 and maze.solution[0] == (0, 0)
    True
    >>> generate(5, shape="theta", seed=1).cell_count
    55
    """
    for name, value, optional in (
        ("algorithm", algorithm, False),
        ("placement", placement, False),
        ("entrance", entrance, True),
        ("exit", exit, True),
    ):
        if not (isinstance(value, str) or (optional and value is None)):
            raise ParameterError(f"must be a string{' or None' if optional else ''}, got {shown(value)}", field=name)
    tessellation = tessellate(shape, rows, cols)  # checks the shape and size
    resolved = get_algorithm(algorithm).resolve_options(options)
    carve = carver_for(algorithm, tessellation)
    check_seed(seed)
    if seed is None:
        seed = new_seed()
    maze_rng, placement_rng = (np.random.default_rng(child) for child in np.random.SeedSequence(int(seed)).spawn(2))
    carving = carve(tessellation, maze_rng, resolved)
    maze = Maze.from_passages(
        tessellation,
        carving.passages,
        algorithm=algorithm,
        seed=int(seed),
        options={name: _plain(value) for name, value in resolved.items()},
        rejected=carving.rejected,
        rejected_at=carving.rejected_at,
    )
    return place(maze, placement, placement_rng, entrance, exit)


def _plain(value: Any) -> Any:
    """Option values as they are written in the maze file (policy tuples back to text)."""
    if isinstance(value, tuple):
        return ",".join(f"{name}:{weight:g}" for name, weight in value)
    return value
