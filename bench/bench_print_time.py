"""Print-time estimates against PrusaSlicer 2.5's own, on the cases a time model must cover:
labels engraved under the base, labels on the margin, and a 0.6 mm nozzle with its vendor
profile (0.30mm QUALITY @0.6 nozzle MINI / MK3: 0.3 mm layers, 0.68 mm lines).

Run: ``python bench/bench_print_time.py`` (slices about 20 solids: several minutes). Prints one
table row per case: PrusaSlicer's estimate, laby3d's, and their ratio (laby3d / PrusaSlicer).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

#: (case, slicer profile, rows, cols, print options, label): print options as a job's ``print``.
QUICK = {"cell_size": 8.0, "wall_thickness": 1.2, "wall_height": 4.0, "base_thickness": 1.2}
CASES = [
    ("quick 10×10, no label", "mini", 10, 10, QUICK, None),
    ("quick 10×10, 'Ana' under the base", "mini", 10, 10, QUICK, "Ana"),
    ("quick 10×10, 'Élodie Dupont-Lefèvre' under the base", "mini", 10, 10, QUICK, "Élodie Dupont-Lefèvre"),
    ("quick 10×10, 'Željko' under the base", "mk3", 10, 10, QUICK, "Željko"),
    ("default 8×8, 'Nguyễn Văn An' under the base", "mini", 8, 8, {}, "Nguyễn Văn An"),
    ("default 8×8 margin 10, 'Chloé' on the margin", "mini", 8, 8, {"margin": 10}, "Chloé"),
    ("default 5×5, 0.6 nozzle", "mini@0.6", 5, 5, {"nozzle": 0.6}, None),
    ("default 9×7, 0.6 nozzle", "mini@0.6", 9, 7, {"nozzle": 0.6}, None),
    ("quick 10×10, 0.6 nozzle", "mini@0.6", 10, 10, {**QUICK, "nozzle": 0.6}, None),
    (
        "12×12 margin 6 'KEY' ridge, 0.6 nozzle",
        "mini@0.6",
        12,
        12,
        {"margin": 6, "solution": "ridge", "nozzle": 0.6},
        "KEY",
    ),
    ("default 9×7, 0.6 nozzle", "mk3@0.6", 9, 7, {"nozzle": 0.6}, None),
    ("quick 10×10, 'Ana' under the base, 0.6 nozzle", "mini@0.6", 10, 10, {**QUICK, "nozzle": 0.6}, "Ana"),
]


def estimate(rows: int, cols: int, options: dict, label: str | None, printer: str, folder: Path) -> tuple[float, Path]:
    """laby3d's estimate (s) for the case, and its STL written in ``folder``."""
    import laby3d
    from laby3d.options.build import validated_job
    from laby3d.pipeline import RenderContext

    job = validated_job({"label": label, "print": {**options, "printer": printer.split("@")[0]}, "formats": ["stl"]})
    context = RenderContext(laby3d.generate(rows, cols, seed=3), job)
    path = folder / "case.stl"
    path.write_bytes(context.render("stl"))
    timing = context.printability.get("print_time")
    return (float(timing["seconds"]) if timing else float("nan")), path


def main() -> None:
    from slicer import require_profiles, slice_model, vendor_config

    require_profiles()
    print("| case | profile | PrusaSlicer min | laby3d min | laby3d / PrusaSlicer |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for case, profile, rows, cols, options, label in CASES:
            ours, model = estimate(rows, cols, options, label, profile, folder)
            config = vendor_config(profile, folder / "config.ini")
            theirs = slice_model("prusa-slicer", model, config, folder / "case.gcode").seconds
            print(f"| {case} | {profile} | {theirs / 60:.0f} | {ours / 60:.0f} | {ours / theirs:.2f} |", flush=True)


if __name__ == "__main__":
    main()
