"""Watching generation step by step: the zones, the walls opened and the walls rejected.

Every generated maze records what its carver did: the order its passages were opened
(``maze.carve_order``) and, for Kruskal, the walls it drew and left closed (``maze.rejected``,
with ``maze.rejected_at``), so the maze can be shown after any number of steps; a maze read from a
file is generated again from the algorithm, seed and options the file records (:func:`with_steps`),
and that carver's record is read.

A *step* is a wall taken, as the class exercise counts: for Kruskal every wall drawn, opened or
rejected (both cells already in one zone); for the other algorithms every passage opened (they
reject none); then, in a braided maze, every loop opened. One definition for the handout's table
and its "after step k" grids, ``.walls.csv``'s ``step``, the lesson's pages and ``laby3d show
--sets-after K``: after step k is the same state everywhere.

A *zone* is a set of cells joined by the passages open so far (Kruskal's sets, the class
exercise's "zones"): after ``o`` passages there are ``cells − o`` zones, and the finished maze
has one.

Zone numbers follow the class exercise ("fusion aléatoire de chemins"), one rule for ``laby3d
show --sets-after``, the lesson, the handout, ``.walls.csv``, the classroom form's ``zone`` key and
this API, on any shape:

1. cell ``c`` starts with its own number, its index (``r·cols + c`` on a board of rows and
   columns; ring by ring for theta);
2. a wall is taken (Kruskal: drawn at random); it is named from its *first* cell, the exercise's
   ``fusionner(i, j, dir)``: with numbering ``west-north`` (the default) the cell with the lower
   index (on a square grid: its west or north cell); with ``drawn-side`` either of its two cells,
   drawn at random from the maze's seed, as the exercise draws a cell and one of its sides;
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
>>> step_count(maze), zone_numbers(maze, 6).tolist()   # 6 walls drawn, one of them rejected
(6, [[0, 0, 0], [0, 0, 0]])

For Kruskal, the walls drawn and left closed (both cells already in one zone), as the carver
recorded them: step 4 drew one.

>>> [(s.opened, len(s.rejected), s.last_rejected is not None) for s in stages(maze)][3:6]
[(3, 0, False), (3, 1, True), (4, 1, False)]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np

from laby3d.errors import InternalError, ParameterError
from laby3d.maze.model import Maze
from laby3d.unionfind import find

#: Which cell of a wall is its first, whose number the zone takes (see the module's rule).
Numbering = Literal["west-north", "drawn-side"]
NUMBERINGS: tuple[str, ...] = get_args(Numbering)
#: Second word of the seed sequence of ``drawn-side``'s coin per wall: a stream of its own, so the
#: maze (drawn from the seed alone) is the same whichever numbering shows it.
_SIDE_STREAM = 0x6C616279


@dataclass(frozen=True, kw_only=True)
class Stage:
    """The maze after ``step`` walls taken (see the module's *step*), as a lesson page shows it."""

    #: The maze with only the passages open after ``step`` steps (no entrance or exit).
    maze: Maze
    #: Walls taken so far (the step number): opened and rejected, then loops.
    step: int
    #: Walls taken while carving (the tree's last step): the steps the maze has before its loops.
    tree_steps: int
    #: Passages open so far.
    opened: int
    #: ``(C,)`` int64 zone number of every cell (see the module's rule).
    zones: np.ndarray
    #: Interior wall index of the wall this step opened (None before the first step, or when this
    #: step's wall was rejected).
    last_opened: int | None
    #: Interior wall index of the wall this step took and rejected (None otherwise).
    last_rejected: int | None = None
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


def check_numbering(numbering: object) -> str:
    """``numbering`` itself when it is one of :data:`NUMBERINGS`; a :class:`ParameterError` otherwise."""
    if numbering not in NUMBERINGS:
        raise ParameterError(f"must be one of {', '.join(NUMBERINGS)}, got {numbering!r}", field="numbering")
    return str(numbering)


def _taken(maze: Maze) -> tuple[np.ndarray, np.ndarray]:
    """``(T,)`` interior wall index of every wall the carver took, in order (Kruskal: drawn, opened
    or rejected; the others: their passages), and ``(T,)`` bool whether each was opened; then the
    loops a braided maze opened (opened)."""
    opened = passage_walls(maze)
    rejected, rejected_at = rejected_walls(maze)
    # each rejection was taken before the passage whose number of open passages it records
    order = np.argsort(np.concatenate([np.arange(len(opened)) + 0.5, rejected_at]), kind="stable")
    loops = loop_walls(maze)
    walls = np.concatenate([np.concatenate([opened, rejected])[order], loops])
    is_open = np.concatenate([np.ones(len(opened), dtype=bool), np.zeros(len(rejected), dtype=bool)])[order]
    return walls.astype(np.int64), np.concatenate([is_open, np.ones(len(loops), dtype=bool)])


def step_count(maze: Maze) -> int:
    """Steps of the carving: walls taken until the tree is done (Kruskal: drawn; the others:
    ``cells − 1``), the loops of a braided maze not counted."""
    maze = with_steps(maze)
    rejected, _ = rejected_walls(maze)
    return len(passage_walls(maze)) + len(rejected)


def _named(maze: Maze, walls: np.ndarray, numbering: str) -> np.ndarray:
    """``(T, 2)`` int64 first and second cell of each wall taken, as the rule names it: the lower
    index first (``west-north``), or either cell by a coin per wall from the maze's seed
    (``drawn-side``)."""
    check_numbering(numbering)
    pairs = maze.tessellation.edges[walls].astype(np.int64)
    if numbering == "west-north":
        return pairs
    if maze.seed is None:
        raise ParameterError("drawn-side needs the maze's seed, which this maze does not record", field="numbering")
    flipped = np.random.default_rng([maze.seed, _SIDE_STREAM]).random(len(walls)) < 0.5
    return np.where(flipped[:, None], pairs[:, ::-1], pairs)


def _checked_steps(steps: int, total: int) -> None:
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or not 0 <= steps <= total:
        raise ParameterError(f"must be in 0..{total}, got {steps}", field="steps")


def partial_maze(maze: Maze, steps: int) -> Maze:
    """The maze after its first ``steps`` steps (walls taken: the tree's in the order carved, then
    the loops a braided maze has), with only the walls opened so far open (no entrance or exit)."""
    maze = with_steps(maze)
    walls, is_open = _taken(maze)
    _checked_steps(steps, len(walls))
    open_walls = np.zeros(len(maze.open_walls), dtype=bool)
    open_walls[walls[:steps][is_open[:steps]]] = True
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


def _zone_history(maze: Maze, named: np.ndarray, is_open: np.ndarray, wanted: list[int]) -> list[np.ndarray]:
    """``(C,)`` zone numbers after each step count in ``wanted`` (ascending), replaying the walls
    taken as ``named`` (first, second cell) while carving, ``is_open`` saying which opened."""
    zones = _Zones(maze.cell_count)
    snapshots = []
    targets = iter(wanted)
    target = next(targets, None)
    for step in range(len(named) + 1):
        while target == step:
            snapshots.append(zones.all_numbers())
            target = next(targets, None)
        if step == len(named) or target is None:
            break
        first, second = (int(cell) for cell in named[step])
        root_first, root_second, _, _ = zones.numbers(first, second)
        if (root_first != root_second) != bool(is_open[step]):
            raise InternalError(f"step {step} does not match the carver's record: not a perfect maze")
        if is_open[step]:
            zones.join(root_first, root_second)
    return snapshots


def zone_numbers(maze: Maze, steps: int, *, numbering: str = "west-north") -> np.ndarray:
    """Zone number of every cell after ``steps`` steps, by the exercise's rule (see the module):
    ``(rows, cols)`` on a board of rows and columns, ``(cells,)`` for theta.

    >>> import laby3d
    >>> zone_numbers(laby3d.generate(2, 3, algorithm="kruskal", seed=7), 2).tolist()
    [[0, 1, 4], [3, 4, 4]]
    """
    return maze.tessellation.per_cell(stage_after(maze, steps, numbering=numbering).zones)


def stage_after(maze: Maze, steps: int, *, numbering: str = "west-north") -> Stage:
    """The :class:`Stage` after ``steps`` steps."""
    return next(stages(maze, steps=[steps], numbering=numbering))


def stages(
    maze: Maze, *, every: int = 1, steps: list[int] | None = None, numbering: str = "west-north"
) -> Iterator[Stage]:
    """The stages at steps 0, ``every``, 2·``every``, ... and the last, or at the given ``steps``:
    the tree as it was carved (Kruskal: every wall drawn), then (a braided maze) each loop added,
    the end of the tree always among them.

    >>> import laby3d
    >>> [(s.step, s.opened) for s in stages(laby3d.generate(4, 5, algorithm="kruskal", seed=4), every=6)]
    [(0, 0), (6, 6), (12, 10), (18, 16), (24, 17), (26, 19)]
    >>> braided = laby3d.generate(3, 3, seed=1, braid=100)
    >>> [(s.step, s.opened, s.zone_count, s.loops) for s in stages(braided, every=3)][-3:]
    [(8, 8, 1, 0), (9, 9, 1, 1), (10, 10, 1, 2)]
    """
    maze = with_steps(maze)
    walls, is_open = _taken(maze)
    tree = step_count(maze)
    if isinstance(every, bool) or not isinstance(every, int) or every < 1:
        raise ParameterError(f"must be an integer >= 1, got {every!r}", field="every")
    if steps is None:
        steps = sorted({*range(0, len(walls), every), tree, len(walls)})
    for step in steps:
        _checked_steps(step, len(walls))
    named = _named(maze, walls[:tree], numbering)
    carved = [min(step, tree) for step in steps]
    wanted = sorted(set(carved))
    history = dict(zip(wanted, _zone_history(maze, named, is_open[:tree], wanted), strict=True))
    opened_by = np.concatenate([[0], np.cumsum(is_open)])
    for step, tree_steps in zip(steps, carved, strict=True):
        open_walls = np.zeros(len(maze.open_walls), dtype=bool)
        open_walls[walls[:step][is_open[:step]]] = True
        taken_rejected = walls[:step][~is_open[:step]]
        last = int(walls[step - 1]) if step else None
        yield Stage(
            maze=Maze(maze.tessellation, open_walls),
            step=step,
            tree_steps=tree,
            opened=int(opened_by[step]),
            zones=history[tree_steps],
            last_opened=last if step and is_open[step - 1] else None,
            last_rejected=last if step and not is_open[step - 1] else None,
            rejected=taken_rejected,
            loops=step - tree_steps,
            all_loops=len(walls) - tree,
        )


@dataclass(frozen=True, kw_only=True)
class WallTaken:
    """One wall as the algorithm took it: its two cells (the first the cell it is named from, by
    the numbering: the lower index with ``west-north``) and their zone numbers then (the module's
    rule), and whether it was opened or rejected."""

    first: int
    second: int
    first_number: int
    second_number: int
    opened: bool
    #: A wall a braided maze opened after its tree: it closes a loop (its cells are in one zone).
    loop: bool = False

    def side(self, cols: int) -> str:
        """On a square grid of ``cols`` columns, the side of the first cell the wall is on, as the
        class exercise names it: ``N``, ``E``, ``S`` or ``O`` (ouest).

        >>> WallTaken(first=4, second=1, first_number=4, second_number=1, opened=True).side(3)
        'N'
        """
        return {cols: "S", -cols: "N", 1: "E", -1: "O"}[self.second - self.first]


def walls_taken(maze: Maze, *, numbering: str = "west-north") -> list[WallTaken]:
    """Every wall in the order the algorithm took it (one a step), with its two cells' zone
    numbers then: for Kruskal, the walls drawn until the maze was finished, opened or rejected;
    for the other algorithms, the passages in the order they were opened; then the loops a braided
    maze has.

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
    walls, is_open = _taken(maze)
    tree = step_count(maze)
    named = np.concatenate([_named(maze, walls[:tree], numbering), maze.tessellation.edges[walls[tree:]]])
    zones = _Zones(maze.cell_count)
    found = []
    for index, (first, second) in enumerate(named.tolist()):
        root_first, root_second, first_number, second_number = zones.numbers(first, second)
        loop = index >= tree
        opened = bool(is_open[index])
        found.append(
            WallTaken(
                first=first,
                second=second,
                first_number=first_number,
                second_number=second_number,
                opened=opened,
                loop=loop,
            )
        )
        if opened and not loop:
            zones.join(root_first, root_second)
    return found
