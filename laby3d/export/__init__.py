"""Output formats: pure functions ``(maze, options) -> bytes``, chosen by file suffix.

The registry is filled by the modules that own the formats; :func:`write_outputs` is the one
place that writes files.
"""

from laby3d.export.formats import FORMATS, ExportOptions, Format, format_for, render_output
from laby3d.export.writer import write_atomic, write_outputs

__all__ = ["FORMATS", "ExportOptions", "Format", "format_for", "render_output", "write_atomic", "write_outputs"]
