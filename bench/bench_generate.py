"""Benchmark: ``laby3d.generate`` for every algorithm at 100×100, 300×300, 1000×1000.

Beside it, plain-Python references (lists) in the same run.

Run: ``python bench/bench_generate.py`` (``--quick`` skips 1000×1000). Each measurement runs in
its own process: import and a warm-up (numba compilation or cache load) first, then the median
of ``--repeat`` timed runs; memory is the growth of the process's peak RSS during them, and that peak itself
(interpreter, numpy and numba included).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, {here!r})
kind, name, size, repeat = {kind!r}, {name!r}, {size}, {repeat}
if kind == "laby3d":
    import laby3d
    import os
    os.environ["LABY3D_JIT"] = "always"  # warm-up: compile or load the cache of the compiled path
    laby3d.generate(120, 120, algorithm=name, seed=0)
    del os.environ["LABY3D_JIT"]
    run = lambda seed: laby3d.generate(size, size, algorithm=name, seed=seed)
else:
    from reference_generators import REFERENCES
    run = lambda seed: REFERENCES[name](size, size, seed)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
times = []
for seed in range(repeat):
    start = time.perf_counter()
    run(seed)
    times.append(time.perf_counter() - start)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"times": times, "growth_mb": (peak - before) / 1024, "peak_mb": peak / 1024}}))
"""


def measure(kind: str, name: str, size: int, repeat: int) -> dict:
    code = CHILD.format(here=str(HERE), kind=kind, name=name, size=size, repeat=repeat)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip 1000×1000")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per cell (median reported)")
    args = parser.parse_args()
    from reference_generators import REFERENCES

    from laby3d.maze.algorithms import ALGORITHMS

    sizes = [100, 300] if args.quick else [100, 300, 1000]
    print("| algorithm | " + " | ".join(f"{s}×{s}: median s, RSS growth / process peak MB" for s in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    rows = [("laby3d", name) for name in ALGORITHMS] + [("python", name) for name in REFERENCES]
    for kind, name in rows:
        cells = []
        for size in sizes:
            slow = kind == "python" or (name == "aldous_broder" and size >= 1000)
            result = measure(kind, name, size, 3 if slow and size >= 1000 else args.repeat)
            median = statistics.median(result["times"])
            cells.append(f"{median:.3f} s, +{result['growth_mb']:.0f} / {result['peak_mb']:.0f} MB")
        label = name if kind == "laby3d" else f"plain Python {name}"
        print(f"| {label} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
