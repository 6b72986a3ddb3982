"""Benchmark: a class's printer plates — how many a class of 24 needs, and laby3d's plate time
against PrusaSlicer's own estimate of the same plate.

Run: ``python bench/bench_plates.py`` (``--no-slicer`` skips the PrusaSlicer part). Part one runs
``laby3d batch`` on the issue's class (24 names, ``preset: quick``, margin 6; then margin 0) on a
MINI and an MK4 with 1 and 2 printers and prints plates, solids a plate and hours per printer.
Part two slices seven plates (4–30 mazes, MINI and MK3S vendor profiles, ``tests/slicer.py``)
whole and maze by maze: PrusaSlicer's plate against the sum of its own single-maze estimates
(what printing them together saves), and laby3d's plate estimate against PrusaSlicer's.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

NAMES = [f"Pupil {letter}" for letter in "ABCDEFGHIJKLMNOPQRSTUVWX"]
#: (name, printer, count, job options) of the plates timed against PrusaSlicer.
TIMED = [
    ("A", "mini", 4, {"preset": "quick", "print": {"margin": 0}}),
    ("B", "mini", 9, {"maze": {"rows": 5, "cols": 5}, "print": {"cell_size": 8, "margin": 0}}),
    ("E", "mini", 25, {"maze": {"rows": 3, "cols": 3}, "print": {"cell_size": 8, "margin": 0}}),
    ("H", "mini", 16, {"preset": "quick", "maze": {"rows": 4, "cols": 4}, "print": {"margin": 0}}),
    ("C", "mk3", 4, {"preset": "quick", "print": {"margin": 6}}),
    ("F", "mk3", 9, {"maze": {"rows": 5, "cols": 5}, "print": {"cell_size": 8, "margin": 0}}),
    ("G", "mk3", 30, {"maze": {"rows": 3, "cols": 3}, "print": {"cell_size": 8, "margin": 0}}),
]


def batch(folder: Path, jobs: list[dict]) -> dict:
    from laby3d.batch import expand, run_batch
    from laby3d.config import load_batch

    config = folder / "batch.yaml"
    config.write_text(yaml.safe_dump({"jobs": jobs}, allow_unicode=True), encoding="utf-8")
    _, loaded = load_batch(config)
    return run_batch(expand(loaded, folder / "out"), folder / "out", workers=2)


def class_plates(folder: Path) -> None:
    from laby3d.plates import per_plate_text
    from laby3d.print_time import duration_text

    print("| printer | margin mm | printers | plates (before: one maze each) | solids a plate | hours per printer |")
    print("|---|---|---|---|---|---|")
    for printer in ("mini", "mk4"):
        for margin in (6, 0):
            for printers in (1, 2):
                job = {"name": "class", "seed": 3, "preset": "quick", "names": NAMES, "formats": ["plates"]}
                job["print"] = {"printer": printer, "margin": margin, "printers": printers}
                run = folder / f"{printer}-{margin}-{printers}"
                run.mkdir()
                (group,) = batch(run, [job])["plates"]["printers"]
                hours = [p["print_seconds"] for p in group["per_printer"]]
                shown = ", ".join(duration_text(h) if h is not None else "unknown" for h in hours)
                counts = per_plate_text([len(p["mazes"]) for p in group["plates"]])
                print(f"| {printer} | {margin} | {printers} | {len(group['plates'])} (24) | {counts} | {shown} |")


def timed_plates(folder: Path) -> None:
    from slicer import require_profiles, slice_model, vendor_config

    require_profiles()
    print(
        "| plate | printer | mazes | PrusaSlicer plate s | PrusaSlicer Σ mazes s | plate / Σ | laby3d plate s "
        "| laby3d / PrusaSlicer (plate) | laby3d Σ / PrusaSlicer Σ |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, printer, count, options in TIMED:
        run = folder / name
        run.mkdir()
        job = {"name": "t", "seed": 5, "count": count, "formats": ["3mf", "plates"], **options}
        job["print"] = {"printer": printer, **options.get("print", {})}
        manifest = batch(run, [job])
        plate = manifest["plates"]["printers"][0]["plates"][0]
        config = vendor_config(printer, run / f"{printer}.ini")
        whole = slice_model("prusa-slicer", run / "out" / plate["file"], config, run / "p.gcode", as_placed=True)
        singles = [
            slice_model("prusa-slicer", run / "out" / "t" / f"{m}.3mf", config, run / f"{m}.gcode").seconds
            for m in plate["mazes"]
        ]
        own = {e["maze"]: e["printability"]["print_time"]["seconds"] for e in manifest["mazes"]}
        mine = sum(own[m] for m in plate["mazes"])
        print(
            f"| {name} | {printer} | {len(plate['mazes'])} | {whole.seconds:.0f} | {sum(singles):.0f} "
            f"| {whole.seconds / sum(singles):.3f} | {plate['print_seconds']} "
            f"| {plate['print_seconds'] / whole.seconds:.3f} | {mine / sum(singles):.3f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-slicer", action="store_true", help="skip the plates timed with PrusaSlicer")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    class_plates(folder)
    if not args.no_slicer:
        print()
        timed_plates(folder)


if __name__ == "__main__":
    main()
