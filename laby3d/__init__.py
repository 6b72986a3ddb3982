"""laby3d: mazes of every shape as 3D prints, laser-cut sheets, pictures and browser scenes.

>>> import laby3d
>>> maze = laby3d.generate(4, 6, algorithm="backtracker", seed=3)
>>> len(maze.solution) >= 9
True

The names below are imported on first use (PEP 562), so ``import laby3d`` and a CLI run load
only what they need.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from laby3d.errors import InternalError, Laby3dError, MazeFileError, OutputError, ParameterError
    from laby3d.maze.algorithms import ALGORITHMS
    from laby3d.maze.convert import from_classroom, from_grid, to_classroom, to_grid
    from laby3d.maze.generate import generate
    from laby3d.maze.model import Maze, Opening
    from laby3d.maze.solve import distance_map
    from laby3d.pipeline import render
    from laby3d.tessellation import Tessellation, tessellate

#: Each public name and the module that defines it.
_HOMES = {
    "ALGORITHMS": "laby3d.maze.algorithms",
    "InternalError": "laby3d.errors",
    "Laby3dError": "laby3d.errors",
    "Maze": "laby3d.maze.model",
    "MazeFileError": "laby3d.errors",
    "Opening": "laby3d.maze.model",
    "OutputError": "laby3d.errors",
    "ParameterError": "laby3d.errors",
    "Tessellation": "laby3d.tessellation",
    "distance_map": "laby3d.maze.solve",
    "from_classroom": "laby3d.maze.convert",
    "from_grid": "laby3d.maze.convert",
    "generate": "laby3d.maze.generate",
    "render": "laby3d.pipeline",
    "tessellate": "laby3d.tessellation",
    "to_classroom": "laby3d.maze.convert",
    "to_grid": "laby3d.maze.convert",
}

__all__ = [
    "ALGORITHMS",
    "InternalError",
    "Laby3dError",
    "Maze",
    "MazeFileError",
    "Opening",
    "OutputError",
    "ParameterError",
    "Tessellation",
    "distance_map",
    "from_classroom",
    "from_grid",
    "generate",
    "render",
    "tessellate",
    "to_classroom",
    "to_grid",
]


def __getattr__(name: str) -> Any:
    """The public name ``name``, imported from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'laby3d' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
