"""Running jobs: mazes generated, every format written atomically, a manifest per batch.

The work of one maze is a pure function of its :class:`MazeTask` (picklable), so any
``concurrent.futures`` executor can run it: processes here, a cluster executor (e.g. Dask's)
for very large batches.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import time
import unicodedata
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from laby3d.errors import Laby3dError
from laby3d.export.writer import TEMPORARY_GLOB, write_atomic
from laby3d.maze.generate import generate, new_seed
from laby3d.maze.model import Maze
from laby3d.options.job import Job
from laby3d.pipeline import render_all

_WINDOWS_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}


def safe_name(name: str) -> str:
    """A file-name part from any text: letters, digits, ``-`` and ``_`` only; never empty, never
    a path, never a reserved device name (``CON``, ``NUL``…)."""
    ascii_text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    cleaned = re.sub(r"[^A-Za-z0-9_-]+", "-", ascii_text).strip("-_")[:80] or "maze"
    return f"{cleaned}_" if cleaned.lower() in _WINDOWS_RESERVED else cleaned


def derived_seed(seed: int, index: int) -> int:
    """Seed of variant ``index`` of a job with ``seed`` (reproducible, independent streams)."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0] >> np.uint64(1))


@dataclass(frozen=True)
class MazeTask:
    """One maze of a batch: its job, seed, label and where its files go."""

    job: Job
    variant: str  # file stem
    seed: int
    label: str | None
    folder: str


def expand(jobs: Iterable[Job], output_dir: Path) -> list[MazeTask]:
    """Every maze of every job, with safe, unique file names and seeds."""
    tasks = []
    folders: set[str] = set()
    for job in jobs:
        folder = safe_name(job.name)
        while folder in folders:
            folder += "_"
        folders.add(folder)
        seed = job.seed if job.seed is not None else new_seed()
        variants: list[tuple[str, int, str | None]]
        if job.names is not None:
            variants = [
                (f"{folder}-{safe_name(name)}", derived_seed(seed, i), name) for i, name in enumerate(job.names)
            ]
        elif job.count is not None:
            variants = [(f"{folder}-{i + 1}", derived_seed(seed, i), job.label) for i in range(job.count)]
        else:
            variants = [(folder, seed, job.label)]
        stems: set[str] = set()
        for stem, variant_seed, label in variants:
            while stem in stems:
                stem += "_"
            stems.add(stem)
            tasks.append(MazeTask(job, stem, variant_seed, label, str(output_dir / folder)))
    return tasks


def run_task(task: MazeTask) -> dict[str, Any]:
    """Generate one maze and write all its files; returns its manifest entry (never raises)."""
    job = task.job
    if task.label is not None:  # a class set's name labels its maze
        job = job.model_copy(update={"label": task.label})
    entry: dict[str, Any] = {
        "job": job.name,
        "maze": task.variant,
        "label": task.label,
        "seed": task.seed,
        "algorithm": job.maze.algorithm,
        "rows": job.maze.rows,
        "cols": job.maze.cols,
        "parameters": job.model_dump(mode="json", exclude={"name", "seed", "count", "names"}),
    }
    timings: dict[str, float] = {}
    try:
        start = time.perf_counter()
        maze = maze_for(job, task.seed)
        timings["generate"] = time.perf_counter() - start
        entry["statistics"] = maze.stats().as_dict()
        rendered = render_all(maze, job, list(job.formats))
        timings.update(rendered.timings)
        if rendered.report is not None:
            entry["printability"] = rendered.report
        files = {}
        for suffix, data in rendered.files.items():
            path = write_atomic(f"{task.folder}/{task.variant}.{suffix}", data)
            files[path.name] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
        entry["files"] = files
        entry["error"] = None
    except Laby3dError as error:
        entry["error"] = str(error)
    except Exception as error:  # noqa: BLE001 - a failing job is reported, the batch goes on
        entry["error"] = f"internal error: {type(error).__name__}: {error}"
    entry["timings_s"] = {name: round(value, 4) for name, value in timings.items()}
    return entry


def maze_for(job: Job, seed: int | None) -> Maze:
    """The maze ``job`` describes, with ``seed`` (drawn when None)."""
    spec = job.maze
    return generate(
        spec.rows,
        spec.cols,
        algorithm=spec.algorithm,
        seed=seed,
        placement=spec.placement,
        entrance=spec.entrance,
        exit=spec.exit,
        **spec.options(),
    )


def remove_temporaries(folder: Path) -> None:
    """Delete temporary files an interrupted run may have left (never a finished file)."""
    if folder.is_dir():
        for stale in folder.rglob(TEMPORARY_GLOB):
            stale.unlink(missing_ok=True)


def run_batch(
    tasks: list[MazeTask],
    output_dir: Path,
    *,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: Callable[[int, int, dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Run every task (in parallel), write ``manifest.json``; returns the manifest."""
    output_dir.mkdir(parents=True, exist_ok=True)
    remove_temporaries(output_dir)
    entries: list[dict[str, Any]] = []
    own = executor is None
    pool = executor or ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1)
    started = time.perf_counter()
    try:
        futures = {pool.submit(run_task, task): task for task in tasks}
        for done, future in enumerate(as_completed(futures), start=1):
            task = futures[future]
            try:
                entry = future.result()
            except Exception as error:  # noqa: BLE001 - e.g. a killed worker process
                entry = {
                    "job": task.job.name,
                    "maze": task.variant,
                    "seed": task.seed,
                    "error": f"worker failed: {type(error).__name__}: {error}",
                }
            entries.append(entry)
            if progress:
                progress(done, len(tasks), entry)
    except BaseException:
        remove_temporaries(output_dir)
        raise
    finally:
        if own:
            pool.shutdown(cancel_futures=True)
    remove_temporaries(output_dir)  # left by a worker that died while writing
    order = {task.variant: index for index, task in enumerate(tasks)}
    entries.sort(key=lambda entry: order[entry["maze"]])
    manifest = {
        "format": "laby3d.manifest",
        "version": 1,
        "mazes": entries,
        "failed": sum(1 for entry in entries if entry.get("error")),
        "timings_s": {"total": round(time.perf_counter() - started, 3)},
    }
    write_atomic(output_dir / "manifest.json", (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode())
    return manifest


def progress_printer(stream: Any = None) -> Callable[[int, int, dict[str, Any]], None]:
    """A progress bar on a terminal, one plain line per maze otherwise."""
    stream = stream or sys.stderr
    terminal = stream.isatty()

    def report(done: int, total: int, entry: dict[str, Any]) -> None:
        state = f"FAILED: {entry['error']}" if entry.get("error") else "ok"
        if terminal:
            filled = int(30 * done / total)
            stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} {entry['maze'][:40]:40}")
            if entry.get("error"):
                stream.write(f"\n{entry['maze']}: {state}\n")
            if done == total:
                stream.write("\n")
        else:
            stream.write(f"{done}/{total} {entry['maze']}: {state}\n")
        stream.flush()

    return report
