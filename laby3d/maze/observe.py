"""Watching generation step by step: the zones, the walls opened and the walls rejected.

Every generated maze records what its carver did: the order its passages were opened
(``maze.carve_order``) and, for Kruskal, the walls it drew and left closed (``maze.rejected``,
with ``maze.rejected_at``), so the maze can be shown after any number of steps; a maze read from a
file is generated again from the algorithm, seed and options the file records (:func:`with_steps`),
and that carver's record is read.

A *zone* is a set of cells joined by the passages open so far (Kruskal's sets, the class
exercise's "zones"): at step ``k`` there are ``cells − k`` zones, and the finished maze has one.

Zone numbers follow the class exercise ("fusion aléatoire de chemins"), one rule for ``laby3d
show --sets-after``, the lesson, the classroom form's ``zone`` key and this API, on any shape:

1. cell ``c`` starts with its own number, its index (``r·cols + c`` on a board of rows and
   columns; ring by ring for theta);
2. a wall is taken (Kruskal: drawn at random); its *first* cell is the one with the lower index,
   the cell it is named from (on a square grid: its west or north cell);
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

For Kruskal, the walls drawn and left closed (both cells already in one zone), as the carver
recorded them:

>>> [len(stage_after(maze, k).rejected) for k in range(6)]
[0, 0, 0, 1, 1, 1]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from laby3d.errors import InternalError, ParameterError
from laby3d.maze.model import Maze
from laby3d.unionfind import find


@dataclass(frozen=True, kw_only=True)
class Stage:
    """The maze after ``opened`` passages, as a lesson frame shows it."""

    #: The maze with only the first ``opened`` passages open (no entrance or exit).
    maze: Maze
    #: Passages open so far (the step number).
    opened: int
    #: ``(C,)`` int64 zone number of every cell (see the module's rule).
    zones: np.ndarray
    #: Interior wall index of the wall opened last (None before the first step).
    last_opened: int | None
    #: Interior wall indices of the walls taken and left closed so far, because both cells were
    #: already in one zone (Kruskal only; empty for the other algorithms).
    rejected: np.ndarray
    #: Loops closed so far: the walls a braided maze opened after its tree (0 while carving).
    loops: int = 0
    #: Loops the braided maze has once done (0 for a perfect maze).
    all_loops: int = 0

    @property
    def zone_count(self) -> int:
        """Number of zones: cells − passages opened while carving (1 once the tree is done)."""
        return self.maze.cell_count - (self.opened - self.loops)

    @property
    def walls_standing(self) -> int:
        """Interior walls still closed."""
        return len(self.maze.open_walls) - self.opened


def with_steps(maze: Maze) -> Maze:
    """``maze`` itself when it records its generation steps; otherwise (a maze read from a file)
    the same maze generated again from its algorithm, seed and options, which the file records,
    so that the carver's record is there to read; refuses an edited file.

    >>> import laby3d
    >>> read = laby3d.Maze.from_json(laby3d.generate(3, 4, seed=5).to_json())
    >>> read.carve_order is None, with_steps(read).carve_order.shape
    (True, (11, 2))
    """
    if maze.carve_order is not None:
        return maze
    if maze.algorithm is None or maze.seed is None:
        raise ParameterError("this maze records no generation steps, nor an algorithm and seed to replay them")
    from laby3d.maze.generate import carve_maze

    again = carve_maze(
        maze.tessellation,
        algorithm=maze.algorithm,
        seed=maze.seed,
        braid=maze.braid,
        outline=maze.outline,
        **maze.options,
    )
    if not np.array_equal(again.open_walls, maze.open_walls):
        raise ParameterError(
            f"this maze is not the one {maze.algorithm} makes from seed {maze.seed} (was the file edited?), "
            "so its generation steps are unknown"
        )
    return again.with_openings(maze.entrance, maze.exit)


def passage_walls(maze: Maze) -> np.ndarray:
    """``(cells − 1,)`` int64 interior wall index of each passage, in the order it was opened."""
    maze = with_steps(maze)
    if maze.carve_order is None:
        raise InternalError("the maze's generation steps were not replayed")
    return maze.tessellation.edge_indices(maze.carve_order)


def loop_walls(maze: Maze) -> np.ndarray:
    """``(k,)`` int64 interior wall index of each wall braiding opened after the tree, in order
    (empty for a perfect maze)."""
    maze = with_steps(maze)
    if maze.loops is None:
        return np.zeros(0, dtype=np.int64)
    return maze.tessellation.edge_indices(maze.loops)


def rejected_walls(maze: Maze) -> tuple[np.ndarray, np.ndarray]:
    """The walls the carver took and left closed, as interior wall indices in the order taken,
    and how many passages were open when each was taken (both empty for an algorithm that
    rejects none)."""
    maze = with_steps(maze)
    if maze.rejected is None or maze.rejected_at is None:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return maze.tessellation.edge_indices(maze.rejected), maze.rejected_at.astype(np.int64)


def _checked_steps(steps: int, passages: int) -> None:
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or not 0 <= steps <= passages:
        raise ParameterError(f"must be in 0..{passages}, got {steps}", field="steps")


def partial_maze(maze: Maze, steps: int) -> Maze:
    """The maze with only its first ``steps`` passages open (no entrance or exit): the tree's
    in the order carved, then the loops a braided maze has."""
    opened = np.concatenate([passage_walls(maze), loop_walls(maze)])
    _checked_steps(steps, len(opened))
    open_walls = np.zeros(len(maze.open_walls), dtype=bool)
    open_walls[opened[:steps]] = True
    return Maze(maze.tessellation, open_walls)


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


def _roots(parent: np.ndarray) -> np.ndarray:
    """The root of every item of a union-find ``parent`` array, by pointer jumping."""
    while True:
        grandparent = parent[parent]
        if np.array_equal(grandparent, parent):
            return parent
        parent = grandparent


def _zone_history(maze: Maze, opened: np.ndarray, wanted: list[int]) -> list[np.ndarray]:
    """``(C,)`` zone numbers after each step count in ``wanted`` (ascending), replaying the
    passages ``opened`` (interior wall indices in opening order)."""
    edges = maze.tessellation.edges
    zones = _Zones(maze.cell_count)
    snapshots = []
    targets = iter(wanted)
    target = next(targets, None)
    for step in range(len(opened) + 1):
        while target == step:
            snapshots.append(zones.all_numbers())
            target = next(targets, None)
        if step == len(opened):
            break
        first, second = (int(cell) for cell in edges[opened[step]])  # a < b: the first cell has the lower index
        root_first, root_second, _, _ = zones.numbers(first, second)
        if root_first == root_second:
            raise InternalError(f"passage {step} joins cells of one zone: not a perfect maze")
        zones.join(root_first, root_second)
    return snapshots


def zone_numbers(maze: Maze, steps: int) -> np.ndarray:
    """Zone number of every cell after ``steps`` passages, by the exercise's rule (see the
    module): ``(rows, cols)`` on a board of rows and columns, ``(cells,)`` for theta.

    >>> import laby3d
    >>> zone_numbers(laby3d.generate(2, 3, algorithm="kruskal", seed=7), 2).tolist()
    [[0, 1, 4], [3, 4, 4]]
    """
    maze = with_steps(maze)
    opened = passage_walls(maze)
    _checked_steps(steps, len(opened))
    return maze.tessellation.per_cell(_zone_history(maze, opened, [steps])[0])


def stage_after(maze: Maze, steps: int) -> Stage:
    """The :class:`Stage` after ``steps`` passages."""
    return next(stages(maze, steps=[steps]))


def stages(maze: Maze, *, every: int = 1, steps: list[int] | None = None) -> Iterator[Stage]:
    """The stages at steps 0, ``every``, 2·``every``, ... and the last, or at the given ``steps``:
    the tree as it was carved, then (a braided maze) each loop added, the end of the tree
    always among them.

    >>> import laby3d
    >>> [s.opened for s in stages(laby3d.generate(3, 3, seed=1), every=3)]
    [0, 3, 6, 8]
    >>> [(s.opened, s.zone_count, s.loops) for s in stages(laby3d.generate(3, 3, seed=1, braid=100), every=3)][-3:]
    [(8, 1, 0), (9, 1, 1), (10, 1, 2)]
    """
    maze = with_steps(maze)
    tree = passage_walls(maze)
    opened = np.concatenate([tree, loop_walls(maze)])
    if isinstance(every, bool) or not isinstance(every, int) or every < 1:
        raise ParameterError(f"must be an integer >= 1, got {every!r}", field="every")
    if steps is None:
        steps = sorted({*range(0, len(opened), every), len(tree), len(opened)})
    for step in steps:
        _checked_steps(step, len(opened))
    rejected, rejected_at = rejected_walls(maze)
    carved = [min(step, len(tree)) for step in steps]
    history = dict(zip(sorted(set(carved)), _zone_history(maze, tree, sorted(set(carved))), strict=True))
    for step, tree_steps in zip(steps, carved, strict=True):
        open_walls = np.zeros(len(maze.open_walls), dtype=bool)
        open_walls[opened[:step]] = True
        yield Stage(
            maze=Maze(maze.tessellation, open_walls),
            opened=step,
            zones=history[tree_steps],
            last_opened=int(opened[step - 1]) if step else None,
            rejected=rejected[rejected_at <= step] if step < len(tree) else rejected,
            loops=step - tree_steps,
            all_loops=len(opened) - len(tree),
        )


@dataclass(frozen=True, kw_only=True)
class WallTaken:
    """One wall as the algorithm took it: its two cells (the first with the lower index, the cell
    it is named from) and their zone numbers then (the module's rule), and whether it was opened
    or rejected."""

    first: int
    second: int
    first_number: int
    second_number: int
    opened: bool
    #: A wall a braided maze opened after its tree: it closes a loop (its cells are in one zone).
    loop: bool = False


def walls_taken(maze: Maze) -> list[WallTaken]:
    """Every wall in the order the algorithm took it, with its two cells' zone numbers then: for
    Kruskal, the walls drawn until the maze was finished, opened or rejected; for the other
    algorithms, the passages in the order they were opened; then the loops a braided maze has.

    >>> import laby3d
    >>> for wall in walls_taken(laby3d.generate(2, 3, algorithm="kruskal", seed=7)):
    ...     print(wall.first, wall.second, wall.first_number, wall.second_number, wall.opened)
    2 5 2 5 True
    4 5 4 2 True
    1 2 1 4 True
    1 4 1 1 False
    0 3 0 3 True
    3 4 0 1 True
    """
    maze = with_steps(maze)
    opened = passage_walls(maze)
    rejected, rejected_at = rejected_walls(maze)
    # each rejection was taken before the passage whose number of open passages it records
    order = np.argsort(np.concatenate([np.arange(len(opened)) + 0.5, rejected_at]), kind="stable")
    taken = np.concatenate([opened, rejected])[order]
    edges = maze.tessellation.edges
    zones = _Zones(maze.cell_count)
    found = []
    for wall in taken.tolist():
        first, second = (int(cell) for cell in edges[wall])
        root_first, root_second, first_number, second_number = zones.numbers(first, second)
        is_open = root_first != root_second
        found.append(
            WallTaken(
                first=first, second=second, first_number=first_number, second_number=second_number, opened=is_open
            )
        )
        if is_open:
            zones.join(root_first, root_second)
    for wall in loop_walls(maze).tolist():
        first, second = (int(cell) for cell in edges[wall])
        _, _, first_number, second_number = zones.numbers(first, second)
        found.append(
            WallTaken(
                first=first,
                second=second,
                first_number=first_number,
                second_number=second_number,
                opened=True,
                loop=True,
            )
        )
    return found
