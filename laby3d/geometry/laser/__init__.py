"""Laser sheets: the maze as cut, score and engrave strokes on material sheets, mm.

:func:`laser_sheets` gives one page per material sheet (y down, as in SVG) with the strokes in a
short-travel order; :func:`laser_drawing` the overview of all of them on one page;
:func:`ball_kit` the layered ball-maze kit; :func:`class_sheets` many pupils' kits nested together.
"""

from laby3d.geometry.laser.classset import class_sheets
from laby3d.geometry.laser.drawing import Drawing
from laby3d.geometry.laser.kit import Kit, ball_kit
from laby3d.geometry.laser.options import (
    CUT_OPERATIONS,
    LASER_MODES,
    OPERATIONS,
    LaserMode,
    LaserOptions,
    LineOperation,
    Material,
)
from laby3d.geometry.laser.sheets import LaserSheets, laser_drawing, laser_sheets

__all__ = [
    "CUT_OPERATIONS",
    "LASER_MODES",
    "OPERATIONS",
    "Drawing",
    "Kit",
    "LaserMode",
    "LaserOptions",
    "LaserSheets",
    "LineOperation",
    "Material",
    "ball_kit",
    "class_sheets",
    "laser_drawing",
    "laser_sheets",
]
