"""How much one output may cost: refused up front, with the estimate and the largest size or
value that fits, by the same rule in ``generate``, ``export``, ``batch`` and ``validate``.

Text, pictures and the maze file are limited only by the maze size (:data:`MAX_SIDE` rows and
columns). Solids, laser sheets and walk-through pages are limited by the memory one maze needs
while it is rendered; the lesson's frames (GIF, lesson PDF) by time and memory, as frames times
cells; ``laby3d stats --table`` by time; a laser kit by its wall sheets times cells. The figures
are measured on the 2-core machine of bench/README.md (``bench/bench_budget.py`` prints the
estimates next to measured runs): estimates err on the high side.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from laby3d.errors import ParameterError
from laby3d.maze.model import MAX_SIDE

#: Memory of a worker before the maze, MB.
BASE_MB = 200.0
#: Peak memory per cell by what an output needs, KB (solid: bench_solid at 300×300).
PER_CELL_KB = {"maze": 0.3, "solid": 2.5, "laser": 1.5, "page": 1.0}
#: The same for a maze that is not square, where it differs (page: its scene's tables of points,
#: polygons and wall segments; a 300×300 hex page peaks at 445 MB, 2.7 KB a cell over the base;
#: solid: a 300×300 hex maze's STL and 3MF peak 12.2 KB a cell over the bare interpreter (36 MB),
#: 10.2 over the maze; theta and triangles less: bench/bench_shaped_solid.py --memory).
SHAPED_CELL_KB = {"page": 3.5, "solid": 12.5}
#: Memory one maze may use while rendered, MB.
LIMIT_MB = 3000.0
#: Time one output file of one maze may take, s.
LIMIT_SECONDS = 120.0
#: Most wall sheets a laser kit stacks (as ``laser.wall_layers`` allows).
MAX_WALL_LAYERS = 50


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


#: Formats that draw the lesson's frames (bench/bench_budget.py measures them).
FRAME_FORMATS = {
    "gif": FrameCost(seconds=0.03, seconds_per_cell=1.0e-5, cell_kb=1.0, frame_mb=0.7, frame_cell_bytes=0.0),
    "lesson.pdf": FrameCost(seconds=0.005, seconds_per_cell=4.0e-6, cell_kb=2.5, frame_mb=0.0, frame_cell_bytes=10.0),
}
#: One maze of ``laby3d stats --table``, generated and measured: s + s per cell as Python, or
#: numba's start-up + s per cell compiled, whichever is less (bench/bench_budget.py).
TABLE_MAZE_SECONDS = (5e-4, 2e-5, 1.0, 1e-6)


#: A laser kit: s + s per cell and wall sheet; KB per cell + KB per cell and wall sheet.
KIT_COST = (2.0, 2e-5, PER_CELL_KB["laser"], 0.6)


def _cell_kb(need: str, shaped: bool) -> float:
    return SHAPED_CELL_KB.get(need, PER_CELL_KB[need]) if shaped else PER_CELL_KB[need]


def largest_cells(need: str, *, shaped: bool = False) -> int:
    """The most cells of a maze (``shaped``: not square) whose outputs needing ``need`` fit
    :data:`LIMIT_MB`."""
    return int((LIMIT_MB - BASE_MB) * 1024 / _cell_kb(need, shaped))


def estimate_mb(cells: int, needs: set[str], *, shaped: bool = False) -> float:
    """Peak memory, MB, of rendering the outputs that need ``needs`` of a maze of ``cells`` cells
    (``shaped``: not square, :data:`SHAPED_CELL_KB`)."""
    return BASE_MB + cells * max(_cell_kb(need, shaped) for need in needs | {"maze"}) / 1024


def check_budget(rows: int, cols: int | None, needs: set[str], *, cells: int | None = None) -> None:
    """Refuse a ``rows × cols`` maze (of ``cells`` cells when another shape's) up front when
    rendering its outputs that need ``needs`` would take more than :data:`LIMIT_MB`; the error
    is on ``maze.rows``."""
    shaped = cells is not None
    estimate = estimate_mb(rows * (cols or 0) if cells is None else cells, needs, shaped=shaped)
    if estimate <= LIMIT_MB:
        return
    most = min(largest_cells(need, shaped=shaped) for need in needs)
    largest = math.isqrt(most)
    kinds = ", ".join(sorted(needs))
    size = f"{rows} with cols {cols}" if cells is None else f"{rows} ({cells:,} cells)"
    room = f"about {largest}×{largest} cells" if cells is None else f"about {most:,} cells"
    raise ParameterError(
        f"{size}: would need about {estimate:,.0f} MB for the {kinds} outputs; at most "
        f"{LIMIT_MB:,.0f} MB per maze, {room} (text and pictures go up to {MAX_SIDE}×{MAX_SIDE})",
        field="maze.rows",
    )


def frame_count(cells: int, every: int | None) -> int:
    """Frames of the lesson of a ``cells`` maze: one every ``every`` passages and the last
    (about :data:`laby3d.draw.lesson.DEFAULT_FRAMES` when None)."""
    from laby3d.draw.lesson import DEFAULT_FRAMES

    passages = cells - 1
    if every is None:
        return min(cells, DEFAULT_FRAMES + 1)
    return math.ceil(passages / every) + 1 if passages else 1


def check_frames(rows: int, cols: int, formats: Iterable[str], every: int | None, *, cells: int | None = None) -> None:
    """Refuse up front a GIF or lesson whose frames would take more than :data:`LIMIT_SECONDS`
    or :data:`LIMIT_MB`: on ``worksheet.every`` (with the least stride that fits) when it is
    given, else on ``maze.rows`` (with the largest square maze that fits). ``cells``: the maze's
    cell count when it is not ``rows × cols`` (another shape: its tessellation's)."""
    costs = {name: FRAME_FORMATS[name] for name in formats if name in FRAME_FORMATS}
    if not costs:  # nothing drawn frame by frame: the lesson's module need not be loaded
        return
    cells = rows * cols if cells is None else cells
    frames = frame_count(cells, every)
    for name, cost in costs.items():
        seconds, memory = cost.of(cells, frames)
        if _fits((seconds, memory)):
            continue
        estimate = (
            f"{frames:,} frames: the {name} would take about {_duration(seconds)} and {memory:,.0f} MB; at most "
            f"{LIMIT_SECONDS:g} s and {LIMIT_MB:,.0f} MB per file"
        )
        most = min(other.most_frames(cells) for other in costs.values())
        if every is not None and most >= 2:
            least = math.ceil((cells - 1) / (most - 1))
            raise ParameterError(
                f"{every} gives {estimate}: {least} or more for this {rows}×{cols} maze", field="worksheet.every"
            )
        side = min(_largest_side(_frames_cost(other, every)) for other in costs.values())
        raise ParameterError(
            f"{rows} with cols {cols} gives {estimate}: about {side}×{side} cells at most", field="maze.rows"
        )


def _frames_cost(cost: FrameCost, every: int | None) -> Callable[[int], tuple[float, float]]:
    return lambda cells: cost.of(cells, frame_count(cells, every))


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
    """``45 s``, ``12 min``, ``3.5 h``, ``2,000 days``: how long, roughly."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 172_800:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:,.0f} days"
