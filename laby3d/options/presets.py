"""Quick presets: named bundles of option values a job starts from (its own values win).

Each preset is written as a YAML job would write it, so what it sets is visible in one place
and validated like any job. Print times are PrusaSlicer 2.5's own estimates on the Original
Prusa MINI profile (0.20mm QUALITY, Generic PLA), measured with the command in bench/README.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from laby3d.geometry.choices import MARKER_MARGIN

PRESETS: dict[str, dict[str, Any]] = {
    # 10×10 on a MINI in about an hour: lower walls, a thinner base, smaller cells.
    "quick": {
        "maze": {"rows": 10, "cols": 10},
        "print": {"cell_size": 8.0, "wall_thickness": 1.2, "wall_height": 4.0, "base_thickness": 1.2},
    },
    # A 10×10 coaster, 92 mm square, flat enough for a glass.
    "coaster": {
        "maze": {"rows": 10, "cols": 10},
        "print": {"cell_size": 9.0, "wall_thickness": 1.2, "wall_height": 2.0, "base_thickness": 2.0, "margin": 0},
    },
}


def fitted_to_markers(name: str, own: Mapping[str, Any], merged: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """``merged`` (the job over preset ``name``) with the margin its markers need, when the preset
    (or the default) left it narrower and the job's ``own`` values do not set it: a preset is a
    starting point, so it takes what an option asked beside it needs, and says so; a margin the
    job sets itself stays and is refused as typed. Returns the data and the warning (or None)."""
    section = merged.get("print")
    own_print = own.get("print")
    if not isinstance(section, Mapping) or section.get("markers") is not True:
        return merged, None
    if isinstance(own_print, Mapping) and "margin" in own_print:
        return merged, None
    margin = section.get("margin", 0)
    if not isinstance(margin, (int, float)) or margin >= MARKER_MARGIN:
        return merged, None
    fitted = {**merged, "print": {**section, "margin": MARKER_MARGIN}}
    limit = f"{MARKER_MARGIN:g}"
    return fitted, f"the markers need margin >= {limit} mm: preset {name} takes {limit} mm, not {margin:g}"
