"""Every option of laby3d, defined once: sections of fields (:mod:`laby3d.options.base`) that
check themselves, and that the CLI, YAML, ``laby3d schema`` and the README's tables are generated
from."""

from laby3d.options.job import FORMAT_NAMES, SECTIONS, Job, job_flag_fields
from laby3d.options.laser import LaserSpec
from laby3d.options.maze import MazeSpec
from laby3d.options.pictures import PictureSpec
from laby3d.options.solid import PrintSpec
from laby3d.options.walk import WalkSpec
from laby3d.options.worksheet import WorksheetSpec

__all__ = [
    "FORMAT_NAMES",
    "SECTIONS",
    "Job",
    "LaserSpec",
    "MazeSpec",
    "PictureSpec",
    "PrintSpec",
    "WalkSpec",
    "WorksheetSpec",
    "job_flag_fields",
]
