"""Print time of a solid, estimated from what the slicer lays down (:class:`PrintWork`).

A linear model per printer: seconds per mm of perimeter path, per mm³ of solid and of sparse
infill, and per layer (travel, layer change, the skirt's share). Its coefficients were fitted
(non-negative least squares) to PrusaSlicer 2.5's G-code estimate ("estimated printing time
(normal mode)") of 16 random mazes (3–13 rows and columns, cells 6–14 mm, walls 1.2–4 mm,
heights 4–15 mm, bases 1.2–5 mm) sliced with the vendor's 0.20 mm QUALITY profile, Generic PLA
and its skirt: every fitted maze within 14 %, every left-out one within 18 %. Only printers
measured that way have a model (PrusaSlicer 2.5 ships no MK4 profile): the others get no figure.
It is an estimate of the slicer's estimate, stated as such.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from laby3d.i18n.formatting import duration_text as duration_text  # the wording lives with the other formats

if TYPE_CHECKING:
    from laby3d.filament import PrintWork


@dataclass(frozen=True, kw_only=True)
class TimeModel:
    """Seconds per unit of work for one printer profile."""

    per_perimeter_mm: float
    per_solid_infill_mm3: float
    per_sparse_infill_mm3: float
    per_layer: float
    profile: str  # the slicer profile it was fitted to

    def seconds(self, work: PrintWork) -> float:
        """Estimated print time of ``work``, s."""
        return (
            self.per_perimeter_mm * work.perimeter_mm
            + self.per_solid_infill_mm3 * work.solid_infill_mm3
            + self.per_sparse_infill_mm3 * work.sparse_infill_mm3
            + self.per_layer * work.layers
        )


#: Fitted models by laby3d printer name.
TIME_MODELS = {
    "mini": TimeModel(
        per_perimeter_mm=0.02783,
        per_solid_infill_mm3=0.2852,
        per_sparse_infill_mm3=0.499,
        per_layer=3.715,
        profile="PrusaSlicer 2.5, Original Prusa MINI, 0.20mm QUALITY @MINI, Generic PLA",
    ),
    "mk3": TimeModel(
        per_perimeter_mm=0.02915,
        per_solid_infill_mm3=0.2939,
        per_sparse_infill_mm3=0.5184,
        per_layer=4.363,
        profile="PrusaSlicer 2.5, Original Prusa i3 MK3S, 0.20mm QUALITY @MK3, Generic PLA",
    ),
}


#: Seconds PrusaSlicer 2.5's estimate saves per layer for each solid of a plate beyond the first
#: (one layer change for all, less the travel between solids): fitted on 7 plates of 4–30 mazes
#: on the MINI and MK3S profiles, where the plain sum of the solids' own estimates was 0.3–5.8 %
#: over PrusaSlicer's estimate of the plate, and this within 1.8 % (bench/bench_plates.py).
PLATE_LAYER_SAVING = 0.86


def plate_seconds(seconds: Sequence[float], layers: Sequence[int]) -> float:
    """Estimated print time of solids printed together on one plate, s, from each solid's own
    estimate (``seconds``) and layers: their sum, less :data:`PLATE_LAYER_SAVING` for every
    layer a solid shares with a taller one."""
    shared = sum(layers) - max(layers, default=0)
    return sum(seconds) - PLATE_LAYER_SAVING * shared
