"""Quick presets: named bundles of option values a job starts from (its own values win).

Each preset is written as a YAML job would write it, so what it sets is visible in one place
and validated like any job. Print times are PrusaSlicer 2.5's own estimates on the Original
Prusa MINI profile (0.20mm QUALITY, Generic PLA), measured with the command in bench/README.md.
"""

from __future__ import annotations

from typing import Any

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
