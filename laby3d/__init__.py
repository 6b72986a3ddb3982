"""laby3d: perfect mazes as 3D prints, laser-cut sheets, pictures and browser scenes.

>>> import laby3d
>>> maze = laby3d.generate(4, 6, algorithm="backtracker", seed=3)
>>> len(maze.solution) >= 9
True
"""

from laby3d.errors import InternalError, Laby3dError, MazeFileError, OutputError, ParameterError
from laby3d.maze.algorithms import ALGORITHMS
from laby3d.maze.convert import from_classroom, from_grid, to_classroom, to_grid
from laby3d.maze.generate import generate
from laby3d.maze.model import Maze, Opening
from laby3d.maze.solve import distance_map
from laby3d.pipeline import render
from laby3d.tessellation import Tessellation, tessellate

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
