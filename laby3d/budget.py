"""How much one output may cost: refused up front, with the estimate and the largest size or
value that fits, by the same rule in ``generate``, ``export``, ``import``, ``batch``,
``validate`` and the class app.

Every format of every shape has a :class:`Cost` (:data:`COSTS`): seconds and memory as the
maze's cells grow; so has carving the maze itself, per algorithm (:data:`CARVING`). The lesson's
frames (GIF, lesson PDF) cost frames times cells (:data:`FRAME_COSTS`); ``laby3d stats --table``
costs its mazes; a laser kit its wall sheets times cells. One file, or carving one maze, may take
:data:`LIMIT_SECONDS` and :data:`LIMIT_MB`.

The figures come from ``bench/bench_budget.py`` run on the 2-core machine of bench/README.md while
it did other work too (load averages of 2 to 7): each line of time passes above every measured
point, with half as much again, so an estimate holds on a machine about as busy as that one (a
quiet machine takes a half to a quarter of it; no figure holds for any load). The bench prints
each estimate beside its measure, every format of every shape at three sizes. Checking costs
nothing: no maze is made, the figures are formulas of the cell count.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from laby3d.errors import ParameterError
from laby3d.i18n import Message
from laby3d.maze.model import MAX_SIDE

#: Memory of a worker before the maze (the interpreter, numpy, numba's compiler), MB.
BASE_MB = 200.0
#: Memory one maze may use while rendered, MB.
LIMIT_MB = 3000.0
#: Time one output file of one maze, or the maze itself, may take, s.
LIMIT_SECONDS = 120.0
#: Most wall sheets a laser kit stacks (as ``laser.wall_layers`` allows).
MAX_WALL_LAYERS = 50


@dataclass(frozen=True, kw_only=True)
class Cost:
    """What one file (or carving one maze) costs: ``seconds + seconds_per_cell × cells**growth``
    seconds and ``kb_per_cell`` KB of memory a cell over :data:`BASE_MB` (``growth`` above 1 for
    work that grows faster than the cells: the wall order's replay)."""

    seconds: float
    seconds_per_cell: float
    kb_per_cell: float
    growth: float = 1.0

    def of(self, cells: int) -> tuple[float, float]:
        """(seconds, MB) for a maze of ``cells`` cells."""
        return self.seconds + self.seconds_per_cell * cells**self.growth, BASE_MB + cells * self.kb_per_cell / 1024


def _cost(seconds: float, per_million: float, kb: float, growth: float = 1.0) -> Cost:
    """A :class:`Cost` from its seconds per million cells (the tables read better so)."""
    return Cost(seconds=seconds, seconds_per_cell=per_million / 1e6**growth, kb_per_cell=kb, growth=growth)


#: Each format of each shape: fixed s (at least 2: its imports, its kernels loaded from numba's
#: cache), s per million cells, KB a cell (bench/bench_budget.py, pictures with the solution and
#: the heatmap, their dearest options).
COSTS: dict[str, dict[str, Cost]] = {
    "square": {
        "maze.json": _cost(2, 0.37, 0.3),
        "classroom.json": _cost(2, 7.7, 0.3),
        "classroom.py": _cost(2, 5.7, 0.3),
        "walls.csv": _cost(2, 86.5, 0.9, growth=1.25),
        "txt": _cost(2, 2.3, 0.3),
        "png": _cost(2, 19, 0.9),
        "pdf": _cost(4, 92.5, 0.9),
        "ps": _cost(3.5, 98.5, 1.2),
        "worksheet.pdf": _cost(2, 2.9, 0.3),
        "key.pdf": _cost(2, 3.1, 0.3),
        "stl": _cost(2, 81, 2.5),
        "3mf": _cost(2, 240, 3.7),
        "glb": _cost(2, 144, 2.6),
        "svg": _cost(9, 54.5, 1),
        "dxf": _cost(6, 170, 0.7),
        "laser.png": _cost(4.5, 54.5, 1.9),
        # the scene of every shape (version 5): 1.1 KB a cell at 600×600 where version 3 took 0.4,
        # 1.0-1.15× its time (side by side, loaded machine)
        "html": _cost(2, 37, 1.2),
        "js": _cost(2, 29.5, 1.2),
        "scene.json": _cost(2, 34, 1.2),
        "handout.pdf": _cost(3, 0, 0),  # at most 30 cells (laby3d.draw.handout)
    },
    "hex": {
        "maze.json": _cost(2, 19.5, 0.3),
        "png": _cost(2, 120, 2),
        "pdf": _cost(15.5, 1070, 2.4),
        "ps": _cost(13, 726, 3.2),
        "worksheet.pdf": _cost(2, 77.5, 1.7),
        "key.pdf": _cost(2, 43.5, 1.7),
        "stl": _cost(3.5, 774, 8.8, growth=1.3),
        "3mf": _cost(3.5, 677, 10.5, growth=1.15),
        "glb": _cost(3.5, 407, 6.8, growth=1.05),
        "svg": _cost(8, 190, 2.1),
        "dxf": _cost(7, 288, 2),
        "laser.png": _cost(4.5, 174, 2.3),
        "html": _cost(2, 63, 3.4),
        "js": _cost(2, 61.5, 3.4),
        "scene.json": _cost(2, 92.5, 3.4),
        "handout.pdf": _cost(3, 0, 0),  # at most 30 cells (laby3d.draw.handout)
    },
    "triangle": {
        "maze.json": _cost(2, 3.4, 0.3),
        "png": _cost(2, 37.5, 1.2),
        "pdf": _cost(4.5, 287, 1.6),
        "ps": _cost(4, 186, 1.9),
        "worksheet.pdf": _cost(2, 8.1, 0.8),
        "key.pdf": _cost(2, 8.8, 0.8),
        "stl": _cost(2, 383, 2.1, growth=1.3),
        "3mf": _cost(2, 616, 2.5, growth=1.3),
        "glb": _cost(2, 497, 1.6, growth=1.3),
        "svg": _cost(2, 20, 0.9),
        "dxf": _cost(4, 186, 0.9),
        "laser.png": _cost(5, 32, 0.8),
        "html": _cost(2, 49, 1.8),
        "js": _cost(2, 45, 1.8),
        "scene.json": _cost(2, 49, 1.8),
        "handout.pdf": _cost(3, 0, 0),  # at most 30 cells (laby3d.draw.handout)
    },
    "theta": {
        "maze.json": _cost(2, 13.5, 0.3),
        "png": _cost(2, 148, 1.7),
        "pdf": _cost(4, 491, 2.2),
        "ps": _cost(3.5, 275, 2.7),
        "worksheet.pdf": _cost(2, 30.5, 1.1),
        "key.pdf": _cost(2, 35.5, 1.1),
        "stl": _cost(2, 392, 4.1, growth=1.3),
        "3mf": _cost(2, 498, 5.1, growth=1.3),
        "glb": _cost(2, 424, 3.2, growth=1.3),
        "svg": _cost(3.5, 83, 1.4),
        "dxf": _cost(4.5, 304, 1.3),
        "laser.png": _cost(4.5, 124, 1.2),
        "html": _cost(2, 80.5, 1.7),
        "js": _cost(2, 99, 2.3),
        "scene.json": _cost(2, 108, 2.3),
        "handout.pdf": _cost(3, 0, 0),  # at most 30 cells (laby3d.draw.handout)
    },
}
#: Carving a maze, per shape and algorithm: fixed s, s per million cells, KB a cell (the square
#: grid kernels, compiled by numba past about 10,000 cells and cached; the graph carvers for the
#: other shapes, the same for the three).
_SQUARE_CARVING = {
    "kruskal": _cost(2, 12.5, 0.3),
    "backtracker": _cost(2, 8, 0.3),
    "growing_tree": _cost(2, 11, 0.3),
    "wilson": _cost(2, 10, 0.3),
    "aldous_broder": _cost(2, 16, 0.3),
    "prim": _cost(2, 20, 0.3),
    "eller": _cost(2, 21.5, 0.3),
    "hunt_and_kill": _cost(2, 13, 0.3),
    "sidewinder": _cost(2, 2, 0.3),
    "binary_tree": _cost(2, 1, 0.3),
    "recursive_division": _cost(2, 21.5, 0.3),
}
_GRAPH_CARVING = {
    "kruskal": _cost(2, 30, 1.0),
    "backtracker": _cost(2, 70, 1.0),
    "growing_tree": _cost(2, 80, 1.0),
    "wilson": _cost(2, 50, 1.0),
    "aldous_broder": _cost(2, 50, 1.0),
    "prim": _cost(2, 70, 1.0),
    "hunt_and_kill": _cost(2, 50, 1.0),
}
CARVING: dict[str, dict[str, Cost]] = {"square": _SQUARE_CARVING} | dict.fromkeys(
    ("hex", "triangle", "theta"), _GRAPH_CARVING
)
#: Carving when an algorithm has no figure of its own (the dearest of the table).
DEFAULT_CARVING = _cost(2, 80, 1.0)


@dataclass(frozen=True, kw_only=True)
class FrameCost:
    """What drawing the lesson's frames costs: ``seconds + seconds_per_cell × cells`` a frame;
    ``cell_kb`` of memory per cell, and per frame kept until the file is written ``frame_mb``
    plus ``frame_cell_bytes`` per cell."""

    seconds: float
    seconds_per_cell: float
    cell_kb: float
    frame_mb: float
    frame_cell_bytes: float

    def of(self, cells: int, frames: int) -> tuple[float, float]:
        """(seconds, MB) of ``frames`` frames of a maze of ``cells`` cells."""
        seconds = frames * (self.seconds + self.seconds_per_cell * cells)
        memory = BASE_MB + cells * self.cell_kb / 1024 + frames * (self.frame_mb + cells * self.frame_cell_bytes / 1e6)
        return seconds, memory

    def most_frames(self, cells: int) -> int:
        """The most frames of a ``cells`` maze that fit :data:`LIMIT_SECONDS` and :data:`LIMIT_MB`."""
        by_time = LIMIT_SECONDS / (self.seconds + self.seconds_per_cell * cells)
        room = LIMIT_MB - BASE_MB - cells * self.cell_kb / 1024
        per_frame = self.frame_mb + cells * self.frame_cell_bytes / 1e6
        by_memory = room / per_frame if per_frame else math.inf
        return max(0, math.floor(min(by_time, by_memory)))


#: Formats that draw the lesson's frames, per shape (bench/bench_budget.py measures them).
FRAME_COSTS: dict[str, dict[str, FrameCost]] = {
    "square": {
        "gif": FrameCost(seconds=0.01, seconds_per_cell=1.7e-05, cell_kb=4.5, frame_mb=0.7, frame_cell_bytes=0.0),
        "lesson.pdf": FrameCost(
            seconds=0.02, seconds_per_cell=1.2e-05, cell_kb=4.5, frame_mb=0.0, frame_cell_bytes=10.0
        ),
    },
    "hex": {
        "gif": FrameCost(seconds=0.58, seconds_per_cell=7.8e-05, cell_kb=5.5, frame_mb=0.7, frame_cell_bytes=0.0),
        "lesson.pdf": FrameCost(
            seconds=0.01, seconds_per_cell=0.0002, cell_kb=6.5, frame_mb=0.0, frame_cell_bytes=10.0
        ),
    },
    "triangle": {
        "gif": FrameCost(seconds=0.04, seconds_per_cell=3.4e-05, cell_kb=1, frame_mb=0.7, frame_cell_bytes=0.0),
        "lesson.pdf": FrameCost(seconds=0.04, seconds_per_cell=7.3e-05, cell_kb=1, frame_mb=0.0, frame_cell_bytes=10.0),
    },
    "theta": {
        "gif": FrameCost(seconds=0.03, seconds_per_cell=4.1e-05, cell_kb=1, frame_mb=0.7, frame_cell_bytes=0.0),
        "lesson.pdf": FrameCost(seconds=0.07, seconds_per_cell=9.4e-05, cell_kb=1, frame_mb=0.0, frame_cell_bytes=10.0),
    },
}
#: One maze of ``laby3d stats --table``, generated and measured: s + s per cell as Python, or
#: numba's start-up + s per cell compiled, whichever is less (bench/bench_budget.py).
TABLE_MAZE_SECONDS = (5e-4, 2e-5, 1.0, 1e-6)
#: A laser kit: s + s per cell and wall sheet; KB per cell + KB per cell and wall sheet.
KIT_COST = (2.0, 2e-5, 1.5, 0.6)


def cost_of(name: str, shape: str = "square") -> Cost | None:
    """The cost of format ``name`` for a ``shape`` maze (None for a format drawn frame by frame,
    or made once over a batch's mazes)."""
    return COSTS[shape].get(name)


def carving_cost(algorithm: str, shape: str = "square") -> Cost:
    """The cost of carving a ``shape`` maze with ``algorithm``."""
    return CARVING[shape].get(algorithm, DEFAULT_CARVING)


def frame_cost(name: str, shape: str = "square") -> FrameCost | None:
    """The frames' cost of format ``name`` (None unless it draws the lesson's frames)."""
    return FRAME_COSTS[shape].get(name)


def largest_scene_cells(shape: str) -> int:
    """The most cells of a ``shape`` maze whose scene file (``scene.json``) :data:`COSTS`
    accepts: what a scene reader must take (:mod:`laby3d.export.scene`)."""
    cost = COSTS[shape]["scene.json"]
    low, high = 1, 1 << 40
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if _fits(cost.of(middle)) else (low, middle - 1)
    return low


@dataclass(frozen=True)
class MazeSize:
    """A maze's shape and size as typed (``cols`` None for theta) and its cell count."""

    shape: str
    rows: int
    cols: int | None
    cells: int

    @classmethod
    def of(cls, shape: str, rows: int, cols: int | None) -> MazeSize:
        from laby3d.tessellation import SHAPES, cell_count_of

        cols = cols if SHAPES[shape].uses_cols else None
        return cls(shape, rows, cols, cell_count_of(shape, rows, cols))

    def typed(self) -> str:
        """``300 with cols 200`` (the rows flag's value and the columns), ``40 (5,599 cells)``."""
        if self.cols is None:  # rings: the cells say the size
            return Message("size_cells", rows=self.rows, cells=f"{self.cells:,}")
        return Message("size_cols", rows=self.rows, cols=self.cols)

    def largest(self, fits: Callable[[int], bool]) -> str:
        """The largest maze of this shape (square sides, or rings) whose cell count ``fits``:
        ``about 640×640 cells``, ``about 180 rings``."""
        from laby3d.tessellation import cell_count_of

        def cells(side: int) -> int:
            return cell_count_of(self.shape, side, None if self.cols is None else side)

        low, high = 1, MAX_SIDE
        while low < high:
            middle = (low + high + 1) // 2
            if fits(cells(middle)):
                low = middle
            else:
                high = middle - 1
        return Message("largest_rings", rings=low) if self.cols is None else Message("largest_side", side=low)


def check_costs(
    size: MazeSize, formats: Iterable[str], *, algorithm: str = "kruskal", every: int | None = None
) -> None:
    """Refuse up front a maze (carving it) or a file of ``formats`` that would take more than
    :data:`LIMIT_SECONDS` or :data:`LIMIT_MB`, on ``maze.rows`` with the largest maze that fits
    (or on ``maze.algorithm`` with one that carves it in time; on ``worksheet.every`` for the
    lesson's frames, :func:`check_frames`)."""
    carving = carving_cost(algorithm, size.shape)
    seconds, memory = carving.of(size.cells)
    if not _fits((seconds, memory)):
        faster = [name for name, cost in CARVING[size.shape].items() if _fits(cost.of(size.cells))]
        largest = size.largest(lambda cells: _fits(carving.of(cells)))
        values = {"size_list": size.typed(), "algorithm": algorithm, "duration": _duration(seconds)}
        values.update(seconds=f"{LIMIT_SECONDS:g}", largest_list=largest)
        if faster:
            raise ParameterError(Message("carving_cost_faster", **values, faster=", ".join(faster)), field="maze.rows")
        raise ParameterError(Message("carving_cost", **values), field="maze.rows")
    formats = list(formats)
    for name in formats:
        cost = cost_of(name, size.shape)
        if cost is None:
            continue
        seconds, memory = cost.of(size.cells)
        if _fits((seconds, memory)):
            continue
        raise ParameterError(
            Message(
                "file_cost",
                size_list=size.typed(),
                format=name,
                duration=_duration(seconds),
                megabytes=f"{memory:,.0f}",
                seconds=f"{LIMIT_SECONDS:g}",
                limit=f"{LIMIT_MB:,.0f}",
                largest_list=size.largest(lambda cells, cost=cost: _fits(cost.of(cells))),  # type: ignore[misc]
            ),
            field="maze.rows",
        )
    check_frames(size, formats, every)


def frame_count(cells: int, every: int | None) -> int:
    """Frames of the lesson of a ``cells`` maze: one every ``every`` passages and the last
    (about :data:`laby3d.draw.lesson.DEFAULT_FRAMES` when None)."""
    from laby3d.draw.lesson import DEFAULT_FRAMES

    passages = cells - 1
    if every is None:
        return min(cells, DEFAULT_FRAMES + 1)
    return math.ceil(passages / every) + 1 if passages else 1


def check_frames(size: MazeSize, formats: Iterable[str], every: int | None) -> None:
    """Refuse up front a GIF or lesson whose frames would take more than :data:`LIMIT_SECONDS`
    or :data:`LIMIT_MB`: on ``worksheet.every`` (with the least stride that fits) when it is
    given, else on ``maze.rows`` (with the largest maze that fits)."""
    costs = {name: cost for name in formats if (cost := frame_cost(name, size.shape)) is not None}
    if not costs:  # nothing drawn frame by frame: the lesson's module need not be loaded
        return
    frames = frame_count(size.cells, every)
    for name, cost in costs.items():
        seconds, memory = cost.of(size.cells, frames)
        if _fits((seconds, memory)):
            continue
        estimate = (
            f"{frames:,} frames: the {name} would take about {_duration(seconds)} and {memory:,.0f} MB; at most "
            f"{LIMIT_SECONDS:g} s and {LIMIT_MB:,.0f} MB per file"
        )
        most = min(other.most_frames(size.cells) for other in costs.values())
        if every is not None and most >= 2:
            least = math.ceil((size.cells - 1) / (most - 1))
            what = f"{size.cells:,}-cell" if size.cols is None else f"{size.rows}×{size.cols}"
            raise ParameterError(
                f"{every} gives {estimate}: {least} or more for this {what} maze", field="worksheet.every"
            )
        largest = size.largest(
            lambda cells: all(_fits(other.of(cells, frame_count(cells, every))) for other in costs.values())
        )
        raise ParameterError(f"{size.typed()} gives {estimate}: {largest} at most", field="maze.rows")


def check_table(rows: int, cols: int, seeds: int, algorithms: int) -> None:
    """Refuse up front a ``stats --table`` of ``seeds`` mazes per algorithm that would take more
    than :data:`LIMIT_SECONDS`; the error is on ``--seeds``, with the most that fit."""
    fixed, per_cell, start_up, compiled = TABLE_MAZE_SECONDS
    cells = rows * cols
    per_maze = fixed + min(per_cell * cells, start_up + compiled * cells)
    seconds = seeds * algorithms * per_maze
    if seconds > LIMIT_SECONDS:
        most = max(1, math.floor(LIMIT_SECONDS / (algorithms * per_maze)))
        raise ParameterError(
            f"{seeds:,} would take about {_duration(seconds)} ({algorithms} algorithms × {seeds:,} mazes of "
            f"{rows}×{cols}); at most {LIMIT_SECONDS:g} s: {most:,} or fewer",
            field="--seeds",
        )


def check_laser_kit(
    rows: int,
    cols: int | None,
    *,
    height: float,
    thickness: float,
    wall_layers: int | None,
    cells: int | None = None,
) -> None:
    """Refuse up front a laser kit of a ``rows × cols`` maze (of ``cells`` cells when another
    shape's) whose walls, ``height`` mm (ball and play) of sheets ``thickness`` mm thick (or
    ``wall_layers`` sheets), would need more than :data:`MAX_WALL_LAYERS` sheets,
    :data:`LIMIT_SECONDS` or :data:`LIMIT_MB`: on ``laser.wall_material_thickness`` (or
    ``laser.wall_layers`` when given), with what fits."""
    layers = wall_layers if wall_layers is not None else height / thickness
    if wall_layers is None and layers > MAX_WALL_LAYERS + 1e-9:
        count = f"{layers:,.0f}" if layers < 1e15 else f"{layers:.1e}"
        raise ParameterError(
            f"{thickness:g} mm needs {count} wall sheets to stack {height:g} mm (ball and play); at most "
            f"{MAX_WALL_LAYERS}: sheets of at least {_thousandths_up(height / MAX_WALL_LAYERS):g} mm",
            field="laser.wall_material_thickness",
        )
    sheets = max(1, math.ceil(layers - 1e-9))
    total = rows * (cols or 0) if cells is None else cells
    seconds, memory = kit_cost(total, sheets)
    if seconds <= LIMIT_SECONDS and memory <= LIMIT_MB:
        return
    most = 0
    while most < MAX_WALL_LAYERS and _fits(kit_cost(total, most + 1)):
        most += 1
    size = f"{rows}×{cols} maze" if cells is None else f"{cells:,}-cell maze"
    estimate = (
        f"{sheets} wall sheets of this {size}: the kit would take about {_duration(seconds)} and "
        f"{memory:,.0f} MB; at most {LIMIT_SECONDS:g} s and {LIMIT_MB:,.0f} MB"
    )
    if most == 0:
        side = _largest_side(lambda cells: kit_cost(cells, sheets))
        what = f"{rows} with cols {cols}" if cells is None else f"{rows} ({cells:,} cells)"
        room = f"{side}×{side} cells" if cells is None else f"{side * side:,} cells"
        raise ParameterError(f"{what} gives {estimate}: about {room}", field="maze.rows")
    if wall_layers is not None:
        raise ParameterError(f"{wall_layers} gives {estimate}: {most} sheets at most", field="laser.wall_layers")
    raise ParameterError(
        f"{thickness:g} mm gives {estimate}: sheets of at least {_thousandths_up(height / most):g} mm",
        field="laser.wall_material_thickness",
    )


def kit_cost(cells: int, sheets: int) -> tuple[float, float]:
    """(seconds, MB) of a laser kit of ``sheets`` wall sheets for a maze of ``cells`` cells."""
    seconds, per_cell_sheet, cell_kb, cell_sheet_kb = KIT_COST
    return seconds + per_cell_sheet * cells * sheets, BASE_MB + cells * (cell_kb + cell_sheet_kb * sheets) / 1024


def _fits(cost: tuple[float, float]) -> bool:
    return cost[0] <= LIMIT_SECONDS and cost[1] <= LIMIT_MB


def _thousandths_up(value: float) -> float:
    """``value`` rounded up to 0.001 (mm)."""
    return math.ceil(value * 1000 - 1e-6) / 1000


def _largest_side(cost: Callable[[int], tuple[float, float]]) -> int:
    """The largest square side whose ``cost(cells) -> (seconds, MB)`` fits the limits."""
    low, high = 1, MAX_SIDE
    while low < high:
        middle = (low + high + 1) // 2
        if _fits(cost(middle * middle)):
            low = middle
        else:
            high = middle - 1
    return low


def _duration(seconds: float) -> str:
    """``45 s``, ``12 min``, ``3.5 h``, ``2,000 h``: how long, roughly (units every language writes)."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 36_000:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 3600:,.0f} h"
