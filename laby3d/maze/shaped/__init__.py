"""Mazes of any shape (square, theta, hex, triangle): the model, solving, statistics, placement
and the maze file, over a :class:`laby3d.tessellation.Tessellation`. docs/shapes.md is the guide."""

from laby3d.maze.shaped.model import ShapedMaze, ShapedOpening

__all__ = ["ShapedMaze", "ShapedOpening"]
