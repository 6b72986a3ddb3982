"""Print time of a solid, estimated from what the slicer lays down (:class:`PrintWork`).

A linear model per printer and nozzle: seconds per mm of perimeter path (the loops each wall's
width takes, :meth:`laby3d.filament.SlicerSettings.loops`: one in 0.8–1.0 mm walls with a
0.4 mm nozzle), per mm³ of solid and of sparse infill (travel, layer changes and the skirt ride
on these), and per mm of perimeter around the label's letters in the layers it is cut into
(under the base: the slow first layers, a loop round every letter). A term per layer and one per
corner of the path were tried and left out: fitted without each solid in turn, they widened the
error; with the thin and tall walls the layer term narrows the 0.4 mm ranges by 0.01–0.03 but
widens the 0.6 mm ones (MK3S 0.6 to 0.79–1.27), and a term per mm³ of filament adds nothing the
others do not hold. Its coefficients are fitted (non-negative least squares, on the relative
error) to PrusaSlicer 2.5's G-code estimate ("estimated printing time (normal mode)") of random
solids (3–13 rows and columns, cells 6–14 mm, walls 0.8–4 mm, heights 4–30 mm, bases 1.2–5 mm,
a third with the quick preset's thin sizes, half with a name on the margin or under the base,
12 a profile with walls 2–2.5 nozzle widths thick or 20–30 mm high) sliced with the vendor's
profile for that printer and nozzle (0.20mm QUALITY for 0.4 mm, 0.30mm QUALITY @0.6 nozzle for
0.6 mm), Generic PLA and its skirt: ``bench/fit_print_time.py`` (data in
bench/print_time_data.json). Each model states the range of its ratio to PrusaSlicer on the
solids left out of the fit (:attr:`TimeModel.fitted`), and the report quotes it. Only printers
and nozzles measured that way have a model (PrusaSlicer 2.5 ships no MK4 profile): the others
get no figure. It is an estimate of the slicer's estimate, stated as such.
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
    """Seconds per unit of work for one printer profile (one printer and nozzle)."""

    per_perimeter_mm: float
    per_solid_infill_mm3: float
    per_sparse_infill_mm3: float
    per_label_perimeter_mm: float
    profile: str  # the slicer profile it was fitted to
    fitted: tuple[float, float]  # lowest and highest ratio to PrusaSlicer on the solids left out of the fit

    @staticmethod
    def features(work: PrintWork) -> list[float]:
        """The work a model multiplies by its coefficients, in their order."""
        return [work.perimeter_mm, work.solid_infill_mm3, work.sparse_infill_mm3, work.label_perimeter_mm]

    def seconds(self, work: PrintWork) -> float:
        """Estimated print time of ``work``, s."""
        coefficients = (
            self.per_perimeter_mm,
            self.per_solid_infill_mm3,
            self.per_sparse_infill_mm3,
            self.per_label_perimeter_mm,
        )
        return sum(c * f for c, f in zip(coefficients, self.features(work), strict=True))

    def note(self) -> str:
        """What the estimate is, for the report."""
        low, high = self.fitted
        return (
            f"estimate of the slicer's own estimate, fitted to {self.profile}, skirt included: "
            f"{low:.2f}–{high:.2f} × PrusaSlicer's on solids left out of the fit"
        )


def time_model(printer: str, nozzle: float) -> TimeModel | None:
    """The model of ``printer`` (a laby3d printer name) with a ``nozzle`` mm nozzle, if measured."""
    key = printer if abs(nozzle - 0.4) < 1e-9 else f"{printer}@{nozzle:g}"
    return TIME_MODELS.get(key)


#: Fitted models by laby3d printer name, and ``printer@nozzle`` for other nozzles than 0.4 mm
#: (``python bench/fit_print_time.py fit``; ``fitted``: the ratio's range with each solid left out).
TIME_MODELS = {
    "mini": TimeModel(
        per_perimeter_mm=0.03466,
        per_solid_infill_mm3=0.23748,
        per_sparse_infill_mm3=0.57003,
        per_label_perimeter_mm=0.27448,
        profile="PrusaSlicer 2.5, Original Prusa MINI, 0.20mm QUALITY @MINI, Generic PLA",
        fitted=(0.82, 1.14),
    ),
    "mk3": TimeModel(
        per_perimeter_mm=0.03833,
        per_solid_infill_mm3=0.25780,
        per_sparse_infill_mm3=0.40930,
        per_label_perimeter_mm=0.15774,
        profile="PrusaSlicer 2.5, Original Prusa i3 MK3S, 0.20mm QUALITY @MK3, Generic PLA",
        fitted=(0.85, 1.18),
    ),
    "mini@0.6": TimeModel(
        per_perimeter_mm=0.03645,
        per_solid_infill_mm3=0.12758,
        per_sparse_infill_mm3=0.02477,
        per_label_perimeter_mm=0.15313,
        profile="PrusaSlicer 2.5, Original Prusa MINI 0.6 nozzle, 0.30mm QUALITY @0.6 nozzle MINI, Generic PLA",
        fitted=(0.87, 1.17),
    ),
    "mk3@0.6": TimeModel(
        per_perimeter_mm=0.04193,
        per_solid_infill_mm3=0.11228,
        per_sparse_infill_mm3=0.21320,
        per_label_perimeter_mm=0.14602,
        profile="PrusaSlicer 2.5, Original Prusa i3 MK3S 0.6 nozzle, 0.30mm QUALITY @0.6 nozzle MK3, Generic PLA",
        fitted=(0.81, 1.25),
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
