"""laby3d's errors: one root, a few narrow subclasses.

Every error a user can cause derives from :class:`Laby3dError`; the CLI prints its message on
one line and exits with status 2.
"""


class Laby3dError(Exception):
    """Root of every error laby3d raises on purpose."""


class ParameterError(ValueError, Laby3dError):
    """A parameter is out of its allowed range or of the wrong kind."""


class MazeFileError(ValueError, Laby3dError):
    """A maze file (or classroom form, or grid) is malformed or not a perfect maze."""


class PrintabilityError(Laby3dError):
    """The solid cannot be printed with the given nozzle or printer (and was not forced)."""
