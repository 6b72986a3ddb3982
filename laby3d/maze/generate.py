"""``generate``: a perfect maze from a size, an algorithm, a seed and a placement policy."""

from __future__ import annotations

import secrets
from typing import Any, Literal, cast, overload

import numpy as np

from laby3d.errors import ParameterError
from laby3d.maze.algorithms import get_algorithm
from laby3d.maze.model import MAX_SEED as MAX_SEED  # re-exported: the options models import it from here
from laby3d.maze.model import Maze, check_seed, check_size
from laby3d.maze.placement import place
from laby3d.maze.shaped.generate import carve_shaped, check_shaped
from laby3d.maze.shaped.model import ShapedMaze
from laby3d.quoting import shown


def new_seed() -> int:
    """A fresh random seed (from the OS), to be recorded with the maze."""
    return secrets.randbelow(2**32)


@overload
def generate(
    rows: int,
    cols: int | None = None,
    *,
    shape: Literal["square"] = "square",
    algorithm: str = "kruskal",
    seed: int | None = None,
    placement: str = "corners",
    entrance: str | None = None,
    exit: str | None = None,
    **options: Any,
) -> Maze: ...
@overload
def generate(
    rows: int,
    cols: int | None = None,
    *,
    shape: str,
    algorithm: str = "kruskal",
    seed: int | None = None,
    placement: str = "corners",
    entrance: str | None = None,
    exit: str | None = None,
    **options: Any,
) -> Maze | ShapedMaze: ...


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
) -> Maze | ShapedMaze:
    """Generate a perfect ``rows × cols`` maze.

    ``shape`` is square (a :class:`Maze`) or theta, hex, triangle (a
    :class:`laby3d.maze.shaped.ShapedMaze`; theta takes ``rows`` rings, the centre included, and
    no ``cols``). ``seed`` makes it reproducible (drawn and recorded when None); ``placement`` is
    one of corners, opposite-sides, center, hardest, explicit (then ``entrance``/``exit`` as
    ``"row,col,side"``); ``options`` are the algorithm's options (see ``laby3d list``).

    >>> maze = generate(3, 4, algorithm="wilson", seed=1)
    >>> maze.passage_count == 3 * 4 - 1 and maze.solution[0] == (0, 0)
    True
    >>> generate(5, shape="theta", seed=1).cell_count
    55
    """
    if shape != "square":
        check_shaped(shape, rows, cols, algorithm)
        rows, cols = int(rows), None if cols is None else int(cols)
    else:
        check_size(rows, cols)
        rows, cols = int(rows), int(cast(int, cols))  # numpy integers (int8 would overflow rows·cols)
    for name, value, optional in (
        ("algorithm", algorithm, False),
        ("placement", placement, False),
        ("entrance", entrance, True),
        ("exit", exit, True),
    ):
        if not (isinstance(value, str) or (optional and value is None)):
            raise ParameterError(f"must be a string{' or None' if optional else ''}, got {shown(value)}", field=name)
    generator = get_algorithm(algorithm)
    resolved = generator.resolve_options(options)
    check_seed(seed)
    if seed is None:
        seed = new_seed()
    maze_rng, placement_rng = (np.random.default_rng(child) for child in np.random.SeedSequence(int(seed)).spawn(2))
    plain_options = {name: _plain(value) for name, value in resolved.items()}
    if shape != "square":
        return carve_shaped(
            shape,
            rows,
            cols,
            algorithm=algorithm,
            resolved=resolved,
            rngs=(maze_rng, placement_rng),
            placement=placement,
            entrance=entrance,
            exit=exit,
            seed=int(seed),
            options=plain_options,
        )
    square_cols = cast(int, cols)  # checked by check_size
    passages = generator.carve(rows, square_cols, maze_rng, resolved)
    maze = Maze.from_passages(rows, square_cols, passages, algorithm=algorithm, seed=int(seed), options=plain_options)
    return place(maze, placement, placement_rng, entrance, exit)


def _plain(value: Any) -> Any:
    """Option values as they are written in the maze file (policy tuples back to text)."""
    if isinstance(value, tuple):
        return ",".join(f"{name}:{weight:g}" for name, weight in value)
    return value
