"""Watching generation step by step: the zones, the walls opened and the walls rejected.

Every generated maze records the order its passages were opened (``maze.carve_order``), so the
maze can be shown after any number of steps; a maze read from a file is generated again from
the algorithm, seed and options the file records (:func:`with_steps`).

A *zone* is a set of cells joined by the passages open so far (Kruskal's sets, the class
exercise's "zones"): at step ``k`` there are ``rows·cols − k`` zones, and the finished maze has one.

Zone numbers follow the class exercise ("fusion aléatoire de chemins"), one rule for ``laby3d
show --sets-after``, the lesson, the classroom form's ``zone`` key and this API:

1. cell ``(r, c)`` starts with its own number, ``r·cols + c``;
2. a wall is taken (Kruskal: drawn at random); its *first* cell is the cell it is named from,
   the wall being ``(cell, E)`` or ``(cell, S)``: its west or north cell;
3. when the two cells have different numbers, the wall is opened and every cell numbered like the
   second cell takes the first cell's number (when they are equal, the wall stays: rejected).

For the other algorithms the walls are taken in the order the algorithm opened them, with the
same rule. A zone's number is thus always the number of one of its cells.

>>> import laby3d
>>> maze = laby3d.generate(2, 3, algorithm="kruskal", seed=7)
>>> zone_numbers(maze, 0).tolist()
[[0, 1, 2], [3, 4, 5]]
>>> maze.carve_order.tolist()                  # cell index = row·cols + col, first cell first
[[2, 5], [4, 5], [1, 2], [0, 3], [3, 4]]
>>> zone_numbers(maze, 3).tolist()             # 5 took 2's number, then {2, 5} 4's, then 1's
[[0, 1, 1], [3, 1, 1]]
>>> stage = stage_after(maze, 3)
>>> stage.zone_count, stage.walls_standing     # 6 cells − 3 opened; 7 interior walls − 3
(3, 4)
>>> zone_numbers(maze, 5).tolist()             # one zone at the end
[[0, 0, 0], [0, 0, 0]]

For Kruskal, the walls examined and left closed (both cells already in one zone) are
recovered by replaying the wall order drawn from the maze's seed:

>>> [len(stage_after(maze, k).rejected) for k in range(6)]
[0, 0, 0, 1, 1, 1]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from laby3d.errors import InternalError, ParameterError
from laby3d.maze.model import Maze, interior_only
from laby3d.unionfind import find


@dataclass(frozen=True, kw_only=True)
class Stage:
    """The maze after ``opened`` passages, as a lesson frame shows it."""

    #: The maze with only the first ``opened`` passages open (no entrance or exit).
    maze: Maze
    #: Passages open so far (the step number).
    opened: int
    #: ``(rows, cols)`` int zone number of every cell (see the module's rule).
    zones: np.ndarray
    #: Cell indices ``(a, b)`` of the wall opened last (None before the first step).
    last_opened: tuple[int, int] | None
    #: ``(k, 2)`` cell-index pairs of the walls examined and left closed so far, because both
    #: cells were already in one zone (Kruskal only; empty for the other algorithms).
    rejected: np.ndarray

    @property
    def zone_count(self) -> int:
        """Number of zones: cells − passages opened."""
        return self.maze.cell_count - self.opened

    @property
    def walls_standing(self) -> int:
        """Interior walls still closed: ``2·rows·cols − rows − cols − opened``."""
        rows, cols = self.maze.rows, self.maze.cols
        return 2 * rows * cols - rows - cols - self.opened


def with_steps(maze: Maze) -> Maze:
    """``maze`` itself when it records its generation steps; otherwise (a maze read from a file)
    the same maze regenerated from its algorithm, seed and options, which the file records.

    >>> import laby3d
    >>> read = laby3d.Maze.from_json(laby3d.generate(3, 4, seed=5).to_json())
    >>> read.carve_order is None, with_steps(read).carve_order.shape
    (True, (11, 2))
    """
    if maze.carve_order is not None:
        return maze
    if maze.algorithm is None or maze.seed is None:
        raise ParameterError("this maze records no generation steps, nor an algorithm and seed to replay them")
    from laby3d.maze.generate import generate

    again = generate(maze.rows, maze.cols, algorithm=maze.algorithm, seed=maze.seed, **maze.options)
    if not np.array_equal(interior_only(again.cells), interior_only(maze.cells)):
        raise ParameterError(
            f"this maze is not the one {maze.algorithm} makes from seed {maze.seed} (was the file edited?), "
            "so its generation steps are unknown"
        )
    return again.with_openings(maze.entrance, maze.exit)


def _recorded_order(maze: Maze) -> np.ndarray:
    """``maze.carve_order`` (call :func:`with_steps` first)."""
    if maze.carve_order is None:
        raise InternalError("the maze's generation steps were not replayed")
    return maze.carve_order


def _checked_order(maze: Maze, steps: int) -> np.ndarray:
    order = _recorded_order(maze)
    if not 0 <= steps <= len(order):
        raise ParameterError(f"must be in 0..{len(order)}, got {steps}", field="steps")
    return order[:steps]


def partial_maze(maze: Maze, steps: int) -> Maze:
    """The maze with only its first ``steps`` passages open (no entrance or exit)."""
    return Maze.from_passages(maze.rows, maze.cols, _checked_order(with_steps(maze), steps))


def zone_numbers(maze: Maze, steps: int) -> np.ndarray:
    """``(rows, cols)`` int64 zone number of every cell after ``steps`` passages, by the
    exercise's rule (see the module).

    >>> import laby3d
    >>> zone_numbers(laby3d.generate(2, 3, algorithm="kruskal", seed=7), 2).tolist()
    [[0, 1, 4], [3, 4, 4]]
    """
    maze = with_steps(maze)
    return _zone_history(maze, _checked_order(maze, steps), [steps])[0]


class _Zones:
    """The zones as union-find sets whose root holds the zone's number (the module's rule), so a
    merge costs the same whichever zone gives its number."""

    def __init__(self, count: int) -> None:
        self.parent = list(range(count))
        self.number = list(range(count))  # read at each set's root
        self.size = [1] * count

    def numbers(self, first: int, second: int) -> tuple[int, int, int, int]:
        """The roots and zone numbers of two cells."""
        root_first, root_second = find(self.parent, first), find(self.parent, second)
        return root_first, root_second, self.number[root_first], self.number[root_second]

    def join(self, root_first: int, root_second: int) -> None:
        """Merge the second zone into the first: the first's number for all their cells."""
        kept = self.number[root_first]
        big, small = (root_first, root_second)
        if self.size[small] > self.size[big]:
            big, small = small, big
        self.parent[small] = big
        self.size[big] += self.size[small]
        self.number[big] = kept

    def all_numbers(self) -> np.ndarray:
        """``(count,)`` int64 zone number of every cell."""
        return np.asarray(self.number, dtype=np.int64)[_roots(np.array(self.parent, dtype=np.int64))]


def _zone_history(maze: Maze, order: np.ndarray, wanted: list[int]) -> list[np.ndarray]:
    """Zone numbers after each step count in ``wanted`` (ascending), replaying ``order``."""
    zones = _Zones(maze.cell_count)
    snapshots = []
    targets = iter(wanted)
    target = next(targets, None)
    for step in range(len(order) + 1):
        while target == step:
            snapshots.append(zones.all_numbers().reshape(maze.rows, maze.cols))
            target = next(targets, None)
        if step == len(order):
            break
        first, second = sorted(int(cell) for cell in order[step])  # the wall's west or north cell first
        root_first, root_second, _, _ = zones.numbers(first, second)
        if root_first == root_second:
            raise InternalError(f"passage {step} joins cells of one zone: not a perfect maze")
        zones.join(root_first, root_second)
    return snapshots


def _roots(parent: np.ndarray) -> np.ndarray:
    """The root of every item of a union-find ``parent`` array, by pointer jumping."""
    while True:
        grandparent = parent[parent]
        if np.array_equal(grandparent, parent):
            return parent
        parent = grandparent


def stage_after(maze: Maze, steps: int) -> Stage:
    """The :class:`Stage` after ``steps`` passages."""
    return next(stages(maze, steps=[steps]))


def stages(maze: Maze, *, every: int = 1, steps: list[int] | None = None) -> Iterator[Stage]:
    """The stages at steps 0, ``every``, 2·``every``, ... and the last, or at the given ``steps``.

    >>> import laby3d
    >>> [s.opened for s in stages(laby3d.generate(3, 3, seed=1), every=3)]
    [0, 3, 6, 8]
    """
    maze = with_steps(maze)
    order = _recorded_order(maze)
    if isinstance(every, bool) or not isinstance(every, int) or every < 1:
        raise ParameterError(f"must be an integer >= 1, got {every!r}", field="every")
    if steps is None:
        steps = sorted({*range(0, len(order), every), len(order)})
    for step in steps:
        _checked_order(maze, step)
    rejected_before = _rejected_before(maze)
    for step, zones in zip(steps, _zone_history(maze, order, sorted(steps)), strict=True):
        yield Stage(
            maze=partial_maze(maze, step),
            opened=step,
            zones=zones,
            last_opened=(int(order[step - 1, 0]), int(order[step - 1, 1])) if step else None,
            rejected=rejected_before(step),
        )


@dataclass(frozen=True, kw_only=True)
class WallTaken:
    """One wall as the algorithm took it: named from its first (west or north) cell."""

    #: Row and column of the wall's first cell.
    row: int
    col: int
    #: ``"E"`` or ``"S"``: the side of the first cell the wall is on.
    side: str
    #: Zone numbers of the first and the second cell when the wall was taken (the module's rule).
    first_number: int
    second_number: int
    #: Whether the wall was opened (the numbers differed) or rejected.
    opened: bool


def walls_taken(maze: Maze) -> list[WallTaken]:
    """Every wall in the order the algorithm took it, with the zone numbers of its two cells then:
    for Kruskal, the walls drawn until the maze was finished, opened or rejected (replayed from
    the seed); for the other algorithms, the passages in the order they were opened.

    >>> import laby3d
    >>> for wall in walls_taken(laby3d.generate(2, 3, algorithm="kruskal", seed=7)):
    ...     print(wall.row, wall.col, wall.side, wall.first_number, wall.second_number, wall.opened)
    0 2 S 2 5 True
    1 1 E 4 2 True
    0 1 E 1 4 True
    0 1 S 1 1 False
    0 0 S 0 3 True
    1 0 E 0 1 True
    """
    maze = with_steps(maze)
    order = _recorded_order(maze)
    if maze.algorithm == "kruskal" and maze.seed is not None:
        walls, position = kruskal_examination(maze)
        taken = walls[: int(position[-1]) + 1] if len(position) else walls[:0]
    else:
        taken = np.sort(order, axis=1)
    zones = _Zones(maze.cell_count)
    result = []
    for first, second in taken.tolist():
        root_first, root_second, first_number, second_number = zones.numbers(first, second)
        row, col = divmod(first, maze.cols)
        side = "E" if second == first + 1 else "S"
        opened = root_first != root_second
        result.append(
            WallTaken(
                row=row, col=col, side=side, first_number=first_number, second_number=second_number, opened=opened
            )
        )
        if opened:
            zones.join(root_first, root_second)
    return result


def _rejected_before(maze: Maze) -> Callable[[int], np.ndarray]:
    """A function ``step -> (k, 2)`` walls rejected before the ``step + 1``-th opening."""
    if maze.algorithm != "kruskal" or maze.seed is None:
        return lambda step: np.empty((0, 2), dtype=np.int64)
    walls, position = kruskal_examination(maze)
    never_opened = np.ones(len(walls), dtype=bool)
    never_opened[position] = False

    def before(step: int) -> np.ndarray:
        # Kruskal stops examining walls once the last passage is open
        examined = int(position[step]) if step < len(position) else int(position[-1]) + 1 if len(position) else 0
        return walls[:examined][never_opened[:examined]]

    return before


def kruskal_examination(maze: Maze) -> tuple[np.ndarray, np.ndarray]:
    """Kruskal's wall order replayed from the maze's seed, and where each passage sits in it.

    Returns ``walls`` ``(2·rows·cols − rows − cols, 2)`` cell-index pairs in the order Kruskal
    examined them, and ``position`` ``(rows·cols − 1,)``: the index in ``walls`` of each passage
    of ``maze.carve_order``. Every wall examined before the last passage and not opened was
    rejected (its cells were already in one zone). Uses the same random draws as
    :func:`laby3d.maze.generate.generate` and :mod:`laby3d.maze.algorithms.kruskal`.
    """
    maze = with_steps(maze)
    order = _recorded_order(maze)
    if maze.algorithm != "kruskal" or maze.seed is None:
        raise ParameterError("the rejected walls are known only for a generated Kruskal maze with its seed")
    rows, cols = maze.rows, maze.cols
    east_count = rows * (cols - 1)
    maze_rng = np.random.default_rng(np.random.SeedSequence(int(maze.seed)).spawn(2)[0])
    wall_order = maze_rng.permutation(east_count + (rows - 1) * cols).astype(np.int64)
    east = wall_order < east_count
    per_row = max(cols - 1, 1)
    first = np.where(east, (wall_order // per_row) * cols + wall_order % per_row, wall_order - east_count)
    walls = np.stack([first, np.where(east, first + 1, first + cols)], axis=1)
    index_of = {(int(a), int(b)): i for i, (a, b) in enumerate(walls.tolist())}
    try:
        position = np.array([index_of[(int(a), int(b))] for a, b in order.tolist()], dtype=np.int64)
    except KeyError as missing:
        raise InternalError(f"replayed Kruskal order lacks passage {missing}") from None
    if len(position) and (np.diff(position) <= 0).any():
        raise InternalError("replayed Kruskal order does not match the maze's passages (was the seed changed?)")
    return walls, position
