"""Output formats: pure renderers ``RenderContext -> bytes``, chosen by format name.

The registry (:data:`FORMATS`) maps each name to its renderer; :mod:`laby3d.export.writer` is
the one place that writes files.
"""

from laby3d.export.formats import FORMATS, Format, format_for, get_format

__all__ = ["FORMATS", "Format", "format_for", "get_format"]
