"""Benchmark: a class set of 30 named mazes of 15×15 in every format, with 1 and 2 workers.

Run: ``python bench/bench_batch.py``. Whole CLI runs (``laby3d batch``), median of ``--repeat``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from laby3d.options import FORMAT_NAMES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    config = folder / "class.yaml"
    config.write_text(
        yaml.safe_dump(
            {
                "defaults": {
                    "maze": {"rows": 15, "cols": 15, "algorithm": "wilson"},
                    "print": {"margin": 6},  # room for each student's name on the solid
                    "formats": list(FORMAT_NAMES),
                },
                "jobs": [{"name": "class", "seed": 1, "names": [f"student{i:02d}" for i in range(30)]}],
            }
        )
    )
    print(f"formats: {', '.join(FORMAT_NAMES)}")
    print("| workers | 30 mazes, median s | mazes/s |")
    print("|---|---|---|")
    for workers in (1, 2):
        times = []
        for run in range(args.repeat):
            start = time.perf_counter()
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "laby3d",
                    "batch",
                    str(config),
                    "-j",
                    str(workers),
                    "--output-dir",
                    str(folder / f"out{workers}-{run}"),
                ],
                check=True,
                capture_output=True,
            )
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        print(f"| {workers} | {median:.2f} | {30 / median:.1f} |", flush=True)


if __name__ == "__main__":
    main()
