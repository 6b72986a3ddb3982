"""Moved to :mod:`laby3d.geometry.plan` (``ShapedPlan`` is :class:`~laby3d.geometry.plan.Plan`,
``shaped_plan`` :func:`~laby3d.geometry.plan.maze_plan`): these names stay for the laser sheets'
modules until they import the plan from there, then this file goes."""

from laby3d.geometry.plan import Plan as ShapedPlan
from laby3d.geometry.plan import maze_plan as shaped_plan
from laby3d.geometry.plan import plate_size

__all__ = ["ShapedPlan", "plate_size", "shaped_plan"]
