"""Benchmark: boards cut by an outline and braided mazes against the whole board (issue 26).

Run: ``python bench/bench_outlines.py`` (``--repeat 7``). Figures, in one process after a warm-up
of each case: a 100×100 square board inside ``heart`` and a hex 100×100 inside ``text:A``, from
``laby3d.generate`` to the STL's bytes, beside the whole board of the same size (the targets:
at most 1.2× its time); braiding a 1000×1000 maze (``braid=100`` and ``50`` against ``0``: the
target, at most 0.2 s more, each braided run paired with an unbraided one just before it). Medians
of wall time; the load average is printed, as the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

import laby3d


def median_seconds(call: Callable[[], object], repeat: int) -> float:
    """Median wall time (s) of ``repeat`` calls of ``call``, after one untimed call."""
    call()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def paired_seconds(call: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median wall time (s) of ``call`` and the median of what it adds to an unbraided
    1000×1000 generation run just before it, pair by pair (the machine's drift hits both)."""
    call()
    times, added = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        laby3d.generate(1000, 1000, seed=1)
        middle = time.perf_counter()
        call()
        end = time.perf_counter()
        times.append(end - middle)
        added.append((end - middle) - (middle - start))
    return statistics.median(times), statistics.median(added)


def to_stl(shape: str, outline: str | None) -> Callable[[], bytes]:
    """A 100×100 maze of ``shape`` (cut by ``outline``) generated and written as STL bytes."""
    return lambda: laby3d.render(laby3d.generate(100, 100, shape=shape, outline=outline, seed=1), "stl")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per figure (median)")
    repeat = parser.parse_args().repeat
    print(f"load average {os.getloadavg()[0]:.2f}, median of {repeat}")
    print("| case | whole board s | cut board s | ratio (cut / whole) | cells |")
    print("|---|---|---|---|---|")
    for shape, outline in (("square", "heart"), ("hex", "text:A")):
        whole = median_seconds(to_stl(shape, None), repeat)
        cut = median_seconds(to_stl(shape, outline), repeat)
        cells = laby3d.generate(100, 100, shape=shape, outline=outline, seed=1).cell_count
        print(f"| {shape} 100×100 `{outline}` to STL | {whole:.3f} | {cut:.3f} | {cut / whole:.2f} | {cells:,} |")
    print()
    print("| 1000×1000 kruskal | s | added by braiding, s |")
    print("|---|---|---|")
    perfect = median_seconds(lambda: laby3d.generate(1000, 1000, seed=1), repeat)
    print(f"| braid 0 | {perfect:.3f} | – |")
    for braid in (50, 100):
        braided, added = paired_seconds(lambda braid=braid: laby3d.generate(1000, 1000, seed=1, braid=braid), repeat)
        print(f"| braid {braid} | {braided:.3f} | {added:+.3f} |")


if __name__ == "__main__":
    main()
