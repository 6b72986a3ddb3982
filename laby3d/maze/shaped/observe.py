"""Watching a maze of any shape being generated: the zones after each step, the wall opened last
and, for Kruskal, the walls rejected (:mod:`laby3d.maze.observe` for square mazes, whose rule
this follows on the tessellation's cells).

The class exercise's rule, on any cell graph: cell ``c`` starts with its own number ``c`` (its
index, as the tessellation numbers cells row by row, ring by ring for theta); a wall is taken and
named from its *first* cell, the lower index of its two; when the two cells' numbers differ, the
wall opens and every cell numbered like the second cell takes the first cell's number.

>>> import laby3d
>>> maze = laby3d.generate(2, shape="theta", algorithm="kruskal", seed=3)
>>> [stage.zone_count for stage in shaped_stages(maze, every=2)]
[7, 5, 3, 1]
>>> shaped_stages(maze, every=6)[-1].zones.tolist()  # one zone: the number of one of its cells
[5, 5, 5, 5, 5, 5, 5]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from laby3d.errors import InternalError, ParameterError
from laby3d.unionfind import find

if TYPE_CHECKING:
    from laby3d.maze.shaped.model import ShapedMaze


@dataclass(frozen=True, kw_only=True)
class ShapedStage:
    """A maze of any shape after ``opened`` passages, as a lesson frame shows it."""

    #: Passages open so far (the step number).
    opened: int
    #: ``(C,)`` int64 zone number of every cell (the module's rule).
    zones: np.ndarray
    #: ``(E,)`` bool, per interior wall (``tessellation.edges`` order): open so far.
    open_walls: np.ndarray
    #: Interior wall index of the wall opened last (None before the first step).
    last_opened: int | None
    #: Interior wall indices of the walls examined and left closed so far because both cells
    #: were already in one zone (Kruskal only; empty for the other algorithms).
    rejected: np.ndarray

    @property
    def zone_count(self) -> int:
        """Number of zones: cells − passages opened."""
        return len(self.zones) - self.opened

    @property
    def walls_standing(self) -> int:
        """Interior walls still closed."""
        return len(self.open_walls) - self.opened


def with_shaped_steps(maze: ShapedMaze) -> ShapedMaze:
    """``maze`` itself when it records its generation steps, or the same maze generated again from
    its algorithm, seed and options (a maze read from a file); refuses an edited file."""
    if maze.carve_order is not None:
        return maze
    if maze.algorithm is None or maze.seed is None:
        raise ParameterError("this maze records no generation steps, nor an algorithm and seed to replay them")
    from laby3d.maze.generate import generate

    again = generate(maze.rows, maze.cols, shape=maze.shape, algorithm=maze.algorithm, seed=maze.seed, **maze.options)
    if not isinstance(again, type(maze)) or not np.array_equal(again.open_walls, maze.open_walls):
        raise ParameterError(
            f"this maze is not the one {maze.algorithm} makes from seed {maze.seed} (was the file edited?), "
            "so its generation steps are unknown"
        )
    return again.with_openings(maze.entrance, maze.exit)


def passage_walls(maze: ShapedMaze) -> np.ndarray:
    """``(cells − 1,)`` int64 interior wall index of each passage, in the order it was opened."""
    from laby3d.maze.shaped.model import wall_indices

    maze = with_shaped_steps(maze)
    if maze.carve_order is None:
        raise InternalError("the maze's generation steps were not replayed")
    return wall_indices(maze.tessellation, np.asarray(maze.carve_order, dtype=np.int64))


def kruskal_walls(maze: ShapedMaze) -> np.ndarray:
    """The interior walls in the order Kruskal examined them, replayed from the maze's seed (the
    same draw as :mod:`laby3d.maze.algorithms.graph.kruskal`: a permutation of the walls by the
    maze's generator), up to the last passage."""
    if maze.algorithm != "kruskal" or maze.seed is None:
        raise ParameterError("the rejected walls are known only for a generated Kruskal maze with its seed")
    maze_rng = np.random.default_rng(np.random.SeedSequence(int(maze.seed)).spawn(2)[0])
    order = maze_rng.permutation(len(maze.tessellation.edges)).astype(np.int64)
    opened = passage_walls(maze)
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order))
    steps = position[opened]
    if len(steps) and (np.diff(steps) <= 0).any():
        raise InternalError("the replayed Kruskal order does not match the maze's passages (was the seed changed?)")
    return order[: int(steps[-1]) + 1] if len(steps) else order[:0]


def shaped_stages(maze: ShapedMaze, *, every: int = 1) -> list[ShapedStage]:
    """The stages at steps 0, ``every``, 2·``every``, … and the last."""
    if isinstance(every, bool) or not isinstance(every, int) or every < 1:
        raise ParameterError(f"must be an integer >= 1, got {every!r}", field="every")
    maze = with_shaped_steps(maze)
    edges = maze.tessellation.edges
    opened = passage_walls(maze)
    wanted = sorted({*range(0, len(opened), every), len(opened)})
    examined = kruskal_walls(maze) if maze.algorithm == "kruskal" and maze.seed is not None else None
    rejected_at = _rejected_before(examined, opened, len(edges))
    parent = list(range(maze.cell_count))
    number = list(range(maze.cell_count))  # read at each zone's root
    open_walls = np.zeros(len(edges), dtype=bool)
    found: list[ShapedStage] = []
    for step in range(len(opened) + 1):
        if step == wanted[len(found)]:
            roots = np.array([find(parent, cell) for cell in range(maze.cell_count)], dtype=np.int64)
            found.append(
                ShapedStage(
                    opened=step,
                    zones=np.asarray(number, dtype=np.int64)[roots],
                    open_walls=open_walls.copy(),
                    last_opened=int(opened[step - 1]) if step else None,
                    rejected=rejected_at(step),
                )
            )
        if step == len(opened):
            break
        wall = int(opened[step])
        first, second = (int(cell) for cell in edges[wall])  # a < b: the first cell has the lower index
        root_first, root_second = find(parent, first), find(parent, second)
        if root_first == root_second:
            raise InternalError(f"passage {step} joins cells of one zone: not a perfect maze")
        parent[root_second] = root_first  # the first cell's root stays: its zone number with it
        open_walls[wall] = True
    return found


def _rejected_before(examined: np.ndarray | None, opened: np.ndarray, walls: int) -> Callable[[int], np.ndarray]:
    """A function ``step -> (k,)`` walls rejected before the ``step + 1``-th opening."""
    if examined is None:
        return lambda step: np.zeros(0, dtype=np.int64)
    position = np.empty(walls, dtype=np.int64)
    position[examined] = np.arange(len(examined))
    at = position[opened]
    never_opened = np.ones(len(examined), dtype=bool)
    never_opened[at] = False

    def before(step: int) -> np.ndarray:
        upto = int(at[step]) if step < len(at) else len(examined)
        return examined[:upto][never_opened[:upto]]

    return before


@dataclass(frozen=True, kw_only=True)
class ShapedWallTaken:
    """One wall as the algorithm took it: its two cells (the first with the lower index) and
    their zone numbers then (the module's rule), and whether it was opened or rejected."""

    first: int
    second: int
    first_number: int
    second_number: int
    opened: bool


def shaped_walls_taken(maze: ShapedMaze) -> list[ShapedWallTaken]:
    """Every wall in the order the algorithm took it, with its two cells' zone numbers then: for
    Kruskal, the walls drawn until the maze was finished (replayed from the seed); for the other
    algorithms, the passages in the order they were opened.

    >>> import laby3d
    >>> maze = laby3d.generate(2, shape="theta", algorithm="kruskal", seed=3)
    >>> [(w.first, w.second, w.first_number, w.second_number, w.opened) for w in shaped_walls_taken(maze)][:3]
    [(0, 1, 0, 1, True), (1, 2, 0, 2, True), (0, 2, 0, 0, False)]
    """
    maze = with_shaped_steps(maze)
    kruskal = maze.algorithm == "kruskal" and maze.seed is not None
    taken = kruskal_walls(maze) if kruskal else passage_walls(maze)
    parent = list(range(maze.cell_count))
    number = list(range(maze.cell_count))
    found = []
    for wall in taken.tolist():
        first, second = (int(cell) for cell in maze.tessellation.edges[wall])
        root_first, root_second = find(parent, first), find(parent, second)
        opened = root_first != root_second
        found.append(
            ShapedWallTaken(
                first=first,
                second=second,
                first_number=number[root_first],
                second_number=number[root_second],
                opened=opened,
            )
        )
        if opened:
            parent[root_second] = root_first
    return found
