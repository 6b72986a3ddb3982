"""laby3d: perfect mazes as 3D prints, laser-cut sheets, pictures and browser scenes.

>>> import laby3d
>>> maze = laby3d.generate(4, 6, algorithm="backtracker", seed=3)
>>> len(maze.solution) >= 9
True

``import laby3d`` loads only the errors; each other name is loaded on first use (PEP 562), so a
command starts by importing what it needs and a Ctrl-C in its first instant meets laby3d's own
handling (:mod:`laby3d.__main__`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from laby3d.errors import InternalError, Laby3dError, MazeFileError, OutputError, ParameterError

if TYPE_CHECKING:
    from laby3d.maze.algorithms import ALGORITHMS
    from laby3d.maze.convert import from_classroom, from_grid, to_classroom, to_grid
    from laby3d.maze.generate import generate
    from laby3d.maze.model import Maze, Opening
    from laby3d.maze.solve import distance_map
    from laby3d.pipeline import render
    from laby3d.tessellation import Tessellation, tessellate

#: Public name → the module that defines it.
_HOMES = {
    "ALGORITHMS": "laby3d.maze.algorithms",
    "from_classroom": "laby3d.maze.convert",
    "from_grid": "laby3d.maze.convert",
    "to_classroom": "laby3d.maze.convert",
    "to_grid": "laby3d.maze.convert",
    "generate": "laby3d.maze.generate",
    "Maze": "laby3d.maze.model",
    "Opening": "laby3d.maze.model",
    "distance_map": "laby3d.maze.solve",
    "render": "laby3d.pipeline",
    "Tessellation": "laby3d.tessellation",
    "tessellate": "laby3d.tessellation",
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
    """A public name, loaded from its module the first time it is used (a subpackage too:
    ``laby3d.maze`` after ``import laby3d``, as when every name was loaded at once)."""
    if name in _HOMES:
        value = getattr(importlib.import_module(_HOMES[name]), name)
        globals()[name] = value
        return value
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{name}":
            raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
