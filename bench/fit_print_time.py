"""The print-time models' data and fit: PrusaSlicer 2.5's own estimates of random solids with
each vendor profile laby3d has a model for, and the non-negative least-squares fit of
:class:`laby3d.print_time.TimeModel` to them.

``python bench/fit_print_time.py slice`` slices the solids (about 130, 3–10 s each on two cores)
not yet in ``bench/print_time_data.json`` and appends them; ``python bench/fit_print_time.py fit``
fits each profile on every solid and prints the coefficients and each solid's ratio when fitted
without it.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
DATA = ROOT / "bench" / "print_time_data.json"
#: Profiles (tests/slicer.py), with how many random solids each and the nozzle, mm.
PROFILES = {"mini": (20, 0.4), "mk3": (24, 0.4), "mini@0.6": (16, 0.6), "mk3@0.6": (8, 0.6)}
#: Solids of laby3d's default sizes added to each profile's random ones.
DEFAULTS = 4
#: Thin-wall (2 and 2.5 nozzle widths: 0.8 and 1.0 mm with a 0.4 mm nozzle) and tall-wall
#: (20–30 mm) solids added last to each profile's (the random ones have walls of 1.2–4 mm, 4–15 mm
#: high).
EXTRA = 12
NAMES = ["Ana", "Élodie Dupont-Lefèvre", "Željko", "Nguyễn Văn An", "Chloé", "KEY", "Þórgunnur", "Ben"]


def cases(profile: str, count: int, nozzle: float) -> list[dict[str, Any]]:
    """``count`` random solids for ``profile``: a third with the quick preset's thin sizes, half
    of all with a name (on the margin or under the base, engraved or embossed); then
    :data:`DEFAULTS` of the default sizes; then :data:`EXTRA` :func:`extra_cases` (appended, so
    that the solids already sliced stay the first ones)."""
    rng = np.random.default_rng(sum(map(ord, profile)))
    found = []
    for index in range(count):
        quick = index % 3 == 0
        cell = 8.0 if quick else float(rng.choice([6, 8, 10, 12, 14]))
        wall = 1.2 if quick else float(rng.choice([1.2, 1.6, 2.0, 3.0, 4.0]))
        wall = min(wall, cell - 2.5)
        spec: dict[str, Any] = {
            "cell_size": cell,
            "wall_thickness": max(wall, 2 * nozzle),
            "wall_height": 4.0 if quick else float(rng.choice([4, 6, 8, 10, 15])),
            "base_thickness": 1.2 if quick else float(rng.choice([1.2, 2.0, 3.0, 5.0])),
            "margin": float(rng.choice([0, 0, 6, 10])),
            "nozzle": nozzle,
        }
        if rng.random() < 0.25:
            spec["solution"] = str(rng.choice(["groove", "ridge"]))
        label = str(rng.choice(NAMES)) if index % 2 == 1 or quick else None
        if label is not None and spec["margin"] and rng.random() < 0.5:
            spec["label_mode"] = "emboss"
        case = {"rows": int(rng.integers(3, 14)), "cols": int(rng.integers(3, 14)), "seed": index, "print": spec}
        found.append({**case, "label": label if label is None or _fits(case, label) else None})
    for index in range(DEFAULTS):  # the sizes most people print: laby3d's defaults, a class's margin
        spec = {"margin": [0.0, 6.0][index % 2], "nozzle": nozzle}
        case = {"rows": int(rng.integers(5, 13)), "cols": int(rng.integers(5, 13)), "seed": 100 + index, "print": spec}
        label = NAMES[index] if index % 2 else None
        found.append({**case, "label": label if label is None or _fits(case, label) else None})
    return found + extra_cases(profile, EXTRA, nozzle)


def extra_cases(profile: str, count: int, nozzle: float) -> list[dict[str, Any]]:
    """``count`` random solids for ``profile`` beyond the random sizes: every other one
    thin-walled (2 or 2.5 nozzle widths, 4–15 mm high), the others tall-walled (20–30 mm, a third
    of them thin too), a third of all with a name."""
    rng = np.random.default_rng(sum(map(ord, profile)) + 1000)  # its own: the first cases stay
    found = []
    for index in range(count):
        tall = index % 2 == 1
        thin = not tall or index % 3 == 0
        spec: dict[str, Any] = {
            "cell_size": float(rng.choice([6, 8, 10, 12])),
            "wall_thickness": float(rng.choice([2 * nozzle, 2.5 * nozzle]))
            if thin
            else max(float(rng.choice([1.2, 1.6, 2.0])), 2 * nozzle),
            "wall_height": float(rng.choice([20, 25, 30])) if tall else float(rng.choice([4, 6, 8, 10, 15])),
            "base_thickness": float(rng.choice([1.2, 2.0, 3.0])),
            "margin": float(rng.choice([0, 0, 6])),
            "nozzle": nozzle,
        }
        if rng.random() < 0.25:
            spec["solution"] = str(rng.choice(["groove", "ridge"]))
        label = str(rng.choice(NAMES)) if index % 3 == 2 else None
        case = {"rows": int(rng.integers(3, 14)), "cols": int(rng.integers(3, 14)), "seed": 200 + index, "print": spec}
        found.append({**case, "label": label if label is None or _fits(case, label) else None})
    return found


def _fits(case: dict[str, Any], label: str) -> bool:
    from laby3d.errors import ParameterError

    try:
        return solid_of({**case, "label": label}).solid.label_placement is not None
    except ParameterError:
        return False


def solid_of(case: dict[str, Any]) -> Any:
    import laby3d
    from laby3d.options.build import validated_job
    from laby3d.pipeline import RenderContext

    job = validated_job({"label": case["label"], "print": case["print"], "formats": ["stl"]})
    return RenderContext(laby3d.generate(case["rows"], case["cols"], seed=case["seed"]), job)


def slice_all() -> None:
    from slicer import require_profiles, slice_model, vendor_config

    require_profiles()
    data = json.loads(DATA.read_text()) if DATA.exists() else {}
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for profile, (count, nozzle) in PROFILES.items():
            done = data.setdefault(profile, [])
            config = vendor_config(profile, folder / "config.ini")
            for case in cases(profile, count, nozzle)[len(done) :]:
                model = folder / "case.stl"
                model.write_bytes(solid_of(case).render("stl"))
                try:
                    case["prusaslicer_s"] = slice_model("prusa-slicer", model, config, folder / "case.gcode").seconds
                except RuntimeError as error:  # too big for the bed: left out of the fit
                    case["prusaslicer_s"] = None
                    print(profile, len(done), error, flush=True)
                done.append(case)
                DATA.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
                print(profile, len(done), case["prusaslicer_s"], flush=True)


def fit() -> None:
    """Per profile: the coefficients fitted on every solid, the ratio of each solid's estimate to
    PrusaSlicer's when fitted without it (leave-one-out), and that ratio's range."""
    from scipy.optimize import nnls

    from laby3d.filament import print_work, slicer_settings
    from laby3d.print_time import TimeModel

    data = json.loads(DATA.read_text())
    for profile, sliced in data.items():
        found = [case for case in sliced if case["prusaslicer_s"] is not None]
        settings = slicer_settings(float(profile.partition("@")[2] or 0.4))
        features = np.array([TimeModel.features(print_work(solid_of(case).solid, settings)) for case in found])
        seconds = np.array([case["prusaslicer_s"] for case in found])
        relative = features / seconds[:, None]  # fitted on the relative error
        coefficients, _ = nnls(relative, np.ones(len(found)))
        left_out = []
        for index in range(len(found)):
            keep = np.arange(len(found)) != index
            own, _ = nnls(relative[keep], np.ones(keep.sum()))
            left_out.append(float(relative[index] @ own))
        print(f"{profile}: {len(found)} solids, coefficients {[round(float(c), 5) for c in coefficients]}")
        print(
            f"  fitted {np.min(relative @ coefficients):.3f}–{np.max(relative @ coefficients):.3f}, "
            f"left out {min(left_out):.3f}–{max(left_out):.3f}"
        )
        for case, ratio in zip(found, left_out, strict=True):
            print(f"    {ratio:.3f} {case['rows']}×{case['cols']} {case['print']} {case['label']!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("step", choices=["slice", "fit"])
    args = parser.parse_args()
    slice_all() if args.step == "slice" else fit()


if __name__ == "__main__":
    main()
