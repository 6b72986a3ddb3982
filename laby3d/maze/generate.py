"""``generate``: a maze from a shape and size (and an outline), an algorithm, a seed, a braid and
a placement policy."""

from __future__ import annotations

import secrets
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np

from laby3d.errors import ParameterError
from laby3d.maze.algorithms import carver_for, get_algorithm
from laby3d.maze.braid import MAX_BRAID, braid_walls
from laby3d.maze.model import MAX_SEED as MAX_SEED  # re-exported: the options models import it from here
from laby3d.maze.model import Maze, check_seed
from laby3d.maze.placement import place
from laby3d.quoting import shown
from laby3d.tessellation import Tessellation, tessellate
from laby3d.values import is_integer


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
    outline: str | None = None,
    braid: int = 0,
    first_ring: int | None = None,
    room: int = 0,
    **options: Any,
) -> Maze:
    """Generate a maze: perfect (one path between any two cells), or braided.

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
        the other shapes and outlines those that run on any cell graph.
    seed : int, optional
        Makes the maze reproducible; drawn from the OS and recorded when None.
    placement : {"corners", "opposite-sides", "center", "hardest", "explicit"}
        Where the entrance and exit go; ``explicit`` reads ``entrance`` and ``exit`` as
        ``"row,col,side"``.
    outline : str, optional
        The board's shape (:mod:`laby3d.geometry.outlines`): ``heart``, ``text:A``, a file…; the
        maze is the cells whose centre is inside.
    braid : int
        Percent of the dead ends removed after carving (0..100), each closing a loop.
    first_ring : int, optional
        Theta: the cells of ring 1 (3..12; 6 when None).
    room : int
        Theta: a central room of this many rings, left open (0: none).
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
    >>> heart = generate(12, 12, outline="heart", seed=1)
    >>> heart.cell_count < 144 and heart.passage_count == heart.cell_count - 1
    True
    """
    for name, value, optional in (
        ("algorithm", algorithm, False),
        ("placement", placement, False),
        ("entrance", entrance, True),
        ("exit", exit, True),
        ("outline", outline, True),
    ):
        if not (isinstance(value, str) or (optional and value is None)):
            raise ParameterError(f"must be a string{' or None' if optional else ''}, got {shown(value)}", field=name)
    tessellation = board_of(shape, rows, cols, outline=outline, first_ring=first_ring, room=room)
    check_braid(braid)
    return carve_maze(
        tessellation,
        algorithm=algorithm,
        seed=seed,
        placement=placement,
        entrance=entrance,
        exit=exit,
        braid=int(braid),
        outline=outline or None,
        **options,
    )


def board_of(
    shape: str,
    rows: int,
    cols: int | None,
    *,
    outline: str | None = None,
    first_ring: int | None = None,
    room: int = 0,
    folder: Path | None = None,
) -> Tessellation:
    """The tessellation of a maze of ``shape`` and size, cut by ``outline`` and a theta board's
    central room of ``room`` rings (``folder``: where a relative outline file is read from)."""
    board = tessellate(shape, rows, cols, first_ring=first_ring)
    if not is_integer(room) or room < 0 or (room and board.shape.uses_cols) or room > max(board.rows - 2, 0):
        where = f"in 0..{board.rows - 2} for a theta maze of {board.rows} rings" if not board.shape.uses_cols else ""
        raise ParameterError(
            f"must be an integer {where or '0 (a central room is for theta mazes)'}, got {shown(room)}", field="room"
        )
    if not outline and not room:
        return board
    from laby3d.geometry.outlines import outlined_cells

    inside = outlined_cells(board, outline or "", room=int(room), folder=folder)
    return tessellate(shape, rows, cols, first_ring=first_ring, inside=inside)


def check_braid(braid: Any) -> None:
    """Raise :class:`ParameterError` unless ``braid`` is a percent 0..100."""
    if not is_integer(braid) or not 0 <= braid <= MAX_BRAID:
        raise ParameterError(f"must be an integer percent in 0..{MAX_BRAID}, got {shown(braid)}", field="braid")


def carve_maze(
    tessellation: Tessellation,
    *,
    algorithm: str = "kruskal",
    seed: int | None = None,
    placement: str = "corners",
    entrance: str | None = None,
    exit: str | None = None,
    braid: int = 0,
    outline: str | None = None,
    **options: Any,
) -> Maze:
    """The maze ``algorithm`` carves on ``tessellation`` from ``seed`` (drawn when None),
    braided by ``braid`` percent, its entrance and exit placed by ``placement`` (``outline``:
    what the tessellation was cut by, recorded)."""
    resolved = get_algorithm(algorithm).resolve_options(options)
    carve = carver_for(algorithm, tessellation)
    check_seed(seed)
    if seed is None:
        seed = new_seed()
    # the maze's, the placement's and the braid's generators (the first two as they ever were)
    maze_rng, placement_rng, braid_rng = (
        np.random.default_rng(child) for child in np.random.SeedSequence(int(seed)).spawn(3)
    )
    carving = carve(tessellation, maze_rng, resolved)
    maze = Maze.from_passages(
        tessellation,
        carving.passages,
        algorithm=algorithm,
        seed=int(seed),
        options={name: _plain(value) for name, value in resolved.items()},
        rejected=carving.rejected,
        rejected_at=carving.rejected_at,
        outline=outline,
    )
    if braid:
        loops = braid_walls(tessellation, maze.open_walls, braid, braid_rng)
        open_walls = maze.open_walls.copy()
        open_walls[tessellation.edge_indices(loops)] = True
        values = {item.name: getattr(maze, item.name) for item in fields(maze)}
        maze = Maze(**{**values, "open_walls": open_walls, "braid": braid, "loops": loops})
    return place(maze, placement, placement_rng, entrance, exit)


def _plain(value: Any) -> Any:
    """Option values as they are written in the maze file (policy tuples back to text)."""
    if isinstance(value, tuple):
        return ",".join(f"{name}:{weight:g}" for name, weight in value)
    return value
