"""Benchmark: a square maze → plan → solid → STL on disk, beside the library-call reference.

Run: ``python bench/bench_solid.py`` (``--quick`` stops at 100×100). Each row runs in its own
process (import and a warm-up first); times are medians of ``--repeat`` runs, memory the
process's peak RSS on the maze → STL path (interpreter and libraries included; the plan alone,
walls, floor and plate polygons, is timed afterwards as a share of it).
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
import json, os, resource, sys, tempfile, time
sys.path.insert(0, {here!r})
import laby3d
from laby3d.geometry.params import Fabrication
from laby3d.geometry.plan import maze_plan
from laby3d.export.writer import write_atomic
from laby3d.export.meshes import stl_bytes, stl_header
from laby3d.mesh.solid import maze_solid
size, repeat, kind = {size}, {repeat}, {kind!r}
fab = Fabrication()
maze = laby3d.generate(size, size, seed=1)
out = os.path.join(tempfile.mkdtemp(), "m.stl")
rows = []
if kind == "laby3d":
    maze_solid(laby3d.generate(20, 20, seed=0))  # warm-up: imports, compiled kernels
    for _ in range(repeat):
        t1 = time.perf_counter()
        body = maze_solid(maze, fab).body; t2 = time.perf_counter()
        write_atomic(out, stl_bytes(body, stl_header(maze, body, fab))); t3 = time.perf_counter()
        rows.append({{"mesh": t2 - t1, "stl": t3 - t2, "total": t3 - t1, "triangles": len(body.faces)}})
        del body
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # the maze -> STL path only
    for row in rows:  # the plan alone (part of the mesh time)
        t0 = time.perf_counter(); maze_plan(maze, fab); row["footprint"] = time.perf_counter() - t0
else:
    from reference_solid import reference_stl
    reference_stl(laby3d.generate(5, 5, seed=0), fab)
    for _ in range(repeat):
        t0 = time.perf_counter(); data, triangles = reference_stl(maze, fab); write_atomic(out, data)
        rows.append({{"total": time.perf_counter() - t0, "triangles": triangles}})
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"rows": rows, "peak_mb": peak}}))
"""


def measure(kind: str, size: int, repeat: int) -> dict:
    code = CHILD.format(here=str(HERE), size=size, repeat=repeat, kind=kind)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="stop at 100×100")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    sizes = [20, 50, 100] if args.quick else [20, 50, 100, 300]
    print(
        "| maze | plan s | mesh s | STL write s | maze→STL s | triangles (per cell) | peak MB "
        "| reference maze→STL s (triangles) | reference peak MB | speed-up |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for size in sizes:
        ours = measure("laby3d", size, args.repeat)
        reference = measure("reference", size, 1 if size >= 300 else 3)

        def median(rows: list, key: str) -> float:
            return statistics.median(row[key] for row in rows)

        total, ref_total = median(ours["rows"], "total"), median(reference["rows"], "total")
        triangles = ours["rows"][0]["triangles"]
        print(
            f"| {size}×{size} | {median(ours['rows'], 'footprint'):.4f} | {median(ours['rows'], 'mesh'):.4f} "
            f"| {median(ours['rows'], 'stl'):.4f} | {total:.4f} | {triangles:,} ({triangles / size**2:.2f}) "
            f"| {ours['peak_mb']:.0f} | {ref_total:.3f} ({reference['rows'][0]['triangles']:,}) "
            f"| {reference['peak_mb']:.0f} | {ref_total / total:.1f}× |",
            flush=True,
        )


if __name__ == "__main__":
    main()
