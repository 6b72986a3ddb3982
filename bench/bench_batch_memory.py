"""Benchmark: the batch process's own peak memory for 30 and for 300 mazes (it should not grow
with the number of mazes: each maze's bytes are written and dropped as they come back).

Run: ``python bench/bench_batch_memory.py``. Each size runs ``laby3d batch`` in a fresh process
(2 workers, 20×20 mazes as maze.json, STL, 3MF, PNG, worksheet) and reads that process's peak
resident set (``ru_maxrss`` of the batch process alone; its workers are other processes).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

#: Runs the batch, then prints its own peak RSS in MB (Linux reports ru_maxrss in KB).
PROBE = """
import resource, sys
from laby3d.cli import main
status = main(sys.argv[1:])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, flush=True)
sys.exit(status)
"""


def peak_mb(folder: Path, count: int, run: int) -> float:
    config = folder / f"class{count}.yaml"
    job = {"name": "class", "seed": 1, "count": count, "maze": {"rows": 20, "cols": 20}}
    formats = ["maze.json", "stl", "3mf", "png", "worksheet.pdf"]
    config.write_text(yaml.safe_dump({"defaults": {"formats": formats}, "jobs": [job]}))
    out = folder / f"out{count}-{run}"
    command = [sys.executable, "-c", PROBE, "batch", str(config), "-j", "2", "--output-dir", str(out)]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    figures = {
        count: statistics.median(peak_mb(folder, count, run) for run in range(args.repeat)) for count in (30, 300)
    }
    print("| mazes | batch process peak RSS, median MB |")
    print("|---|---|")
    for count, figure in figures.items():
        print(f"| {count} | {figure:.0f} |")
    print(f"300 / 30: {figures[300] / figures[30]:.3f}")


if __name__ == "__main__":
    main()
