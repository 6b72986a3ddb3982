"""laby3d's errors: one root, a few narrow subclasses.

Every error a user can cause derives from :class:`Laby3dError`; the CLI prints its message on
one line and exits with status 2. :class:`InternalError` is a bug, not a user error: the CLI
says so and exits with status 1.
"""

from __future__ import annotations


class Laby3dError(Exception):
    """Root of every error laby3d raises on purpose."""

    #: The language of whom the error is for, when it knows (a French batch file's): ``"fr"``.
    lang: str | None = None
    #: Further errors of the same input, each said on a line of its own after this one (every
    #: bad name of a class list at once, not one a run).
    also: tuple[Laby3dError, ...] = ()


class ParameterError(ValueError, Laby3dError):
    """A parameter is out of its allowed range or of the wrong kind.

    ``field`` names the option at fault (``"nozzle"``, or ``"print.nozzle"`` once the section is
    known) and ``detail`` says what is wrong with it, so each front end can name the option the
    way its user typed it (``--nozzle`` on the CLI, ``jobs[1].print.nozzle`` in YAML).

    >>> str(ParameterError("must be > 0 mm, got 0", field="nozzle"))
    'nozzle must be > 0 mm, got 0'
    >>> ParameterError("must be > 0 mm, got 0", field="nozzle").within("print").field
    'print.nozzle'
    """

    def __init__(self, detail: str, *, field: str | None = None) -> None:
        self.detail = detail
        self.field = field
        super().__init__(f"{field} {detail}" if field else detail)

    def within(self, section: str) -> ParameterError:
        """The same error with ``section.`` before its field (the field's owner is known now)."""
        if self.field is None or self.field.startswith(f"{section}."):
            return self
        return type(self)(self.detail, field=f"{section}.{self.field}")


class MazeFileError(ValueError, Laby3dError):
    """A maze file (or classroom form, or grid) is malformed or not a perfect maze."""


class PrintabilityError(ParameterError):
    """The solid cannot be printed with the given nozzle or printer (and was not forced)."""


class OutputError(Laby3dError):
    """An output could not be written: the message names the path and the cause."""


class InternalError(Laby3dError):
    """A bug in laby3d (a check of its own result failed), never the user's fault."""
