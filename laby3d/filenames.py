"""File names made from what people type: names of jobs and pupils."""

from __future__ import annotations

import re
import unicodedata

_WINDOWS_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}


def safe_name(name: str) -> str:
    """A file-name part from any text: ASCII letters, digits, ``-`` and ``_`` only, at most 80
    characters; never empty, never a path, never a reserved device name (``CON``, ``NUL``…).

    >>> safe_name("Chloé Dupont-Lefèvre"), safe_name("../../etc"), safe_name("CON")
    ('Chloe-Dupont-Lefevre', 'etc', 'CON_')
    """
    ascii_text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    cleaned = re.sub(r"[^A-Za-z0-9_-]+", "-", ascii_text).strip("-_")[:80].strip("-_") or "maze"
    return f"{cleaned}_" if cleaned.lower() in _WINDOWS_RESERVED else cleaned
