"""Running jobs: every maze rendered by a worker, written by this process, one manifest per run.

:func:`plan_batch` reads a batch file into a :class:`BatchPlan` (its checked jobs, every maze
with its file names and seed, the output folder); :func:`run_plan` runs it and
:func:`summary_lines` says what was made: ``laby3d batch`` is these three calls and its flags.

The work of one maze is a pure function of its :class:`MazeTask` (picklable) that returns bytes,
so any ``concurrent.futures`` executor can run it (processes here; a Dask cluster with
``laby3d batch --scheduler``) and workers need no shared disk. This process writes each maze's
files all or nothing, holds the output folder's lock, removes the previous ``manifest.json``
when it starts and writes the new one atomically at the end, so a manifest never lists files
that the disk does not hold. An output folder is empty or a laby3d run's (its manifest or its
lock: :func:`check_own_folder`): a run never mixes its files with someone else's.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import re
import sys
import time
import unicodedata
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, Future, as_completed
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from laby3d.errors import Laby3dError, OutputError, ParameterError
from laby3d.export.writer import (
    LOCK_NAME,
    TEMPORARY_SUFFIX,
    check_output_folder,
    expand_path,
    output_lock,
    remove_output,
    remove_stale_temporaries,
    write_atomic,
    write_outputs,
)
from laby3d.filenames import safe_name
from laby3d.maze.generate import new_seed
from laby3d.options.base import as_data
from laby3d.options.job import Job
from laby3d.pipeline import maze_for
from laby3d.quoting import shown_path
from laby3d.workers import WorkerDied, worker_pool

MANIFEST = "manifest.json"
#: How a manifest laby3d wrote begins (``json.dumps(..., indent=2)`` of its first key).
MANIFEST_START = '{\n  "format": "laby3d.manifest"'
#: Files a desktop leaves in any folder it shows: a folder holding only these is empty.
DESKTOP_FILES = frozenset({".DS_Store", "Thumbs.db", "desktop.ini", ".directory"})
#: Renders of one maze before it is reported failed when its worker process dies each time.
RENDER_ATTEMPTS = 2
#: File name of one laser sheet (``…plywood-3mm-2.svg``).
SHEET = re.compile(r"mm-\d+\.(svg|dxf)$")
#: The maze file text of every maze rendered, by task key (folder, file stem).
MazeTexts = dict[tuple[str, str], str]


def derived_seed(seed: int, key: int | str) -> int:
    """Seed of a job's variant ``key``: its index (``count``) or its name (a class set's pupil, so
    adding or removing a pupil leaves every other pupil's maze as it was)."""
    if isinstance(key, str):
        digest = hashlib.sha256(unicodedata.normalize("NFC", key).encode()).digest()
        entropy = [seed, *np.frombuffer(digest, dtype=np.uint32).tolist()]
    else:
        entropy = [seed, key]
    return int(np.random.SeedSequence(entropy).generate_state(1, np.uint64)[0] >> np.uint64(1))


@dataclass(frozen=True)
class MazeTask:
    """One maze of a batch: its job, seed, label and where its files go."""

    job: Job
    variant: str  # file stem
    seed: int
    label: str | None
    folder: str
    job_seed: int  # the job's seed (drawn when the job has none), from which variants derive

    @property
    def key(self) -> tuple[str, str]:
        """Folder and file stem: unique in a batch."""
        return self.folder, self.variant

    @property
    def labelled_job(self) -> Job:
        """The job with this maze's label (a class set's name labels its maze, on the side the
        whole class's names share: :meth:`laby3d.options.job.Job.pupil_job`)."""
        if self.label is None:
            return self.job
        if self.job.names is not None:  # a class set: the class's one label side
            return self.job.pupil_job(self.label)
        return replace(self.job, label=self.label)

    @property
    def title(self) -> str:
        """What a class's plan calls this maze: its pupil's name, its file stem (one of a
        job's ``count``), or its job's name."""
        if self.job.names is not None and self.label is not None:
            return self.label
        return self.variant if self.job.count is not None else self.job.name


@dataclass
class MazeResult:
    """What a worker returns for one maze: its manifest entry, and its files' bytes by name."""

    entry: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)
    maze_json: str | None = None


def expand(jobs: Iterable[Job], output_dir: Path) -> list[MazeTask]:
    """Every maze of every job, with safe, unique file names and seeds (drawn when absent)."""
    tasks = []
    folders: set[str] = set()
    for job in jobs:
        folder = safe_name(job.name)
        while folder.casefold() in folders:
            folder += "_"
        folders.add(folder.casefold())
        seed = job.seed if job.seed is not None else new_seed()
        variants: list[tuple[str, int, str | None]]
        if job.names is not None:  # names are distinct as file names (checked by the job)
            variants = [(f"{folder}-{safe_name(name)}", derived_seed(seed, name), name) for name in job.names]
        elif job.count is not None:
            variants = [(f"{folder}-{i + 1}", derived_seed(seed, i), job.label) for i in range(job.count)]
        else:
            variants = [(folder, seed, job.label)]
        tasks += [MazeTask(job, stem, s, label, str(output_dir / folder), seed) for stem, s, label in variants]
    return tasks


@dataclass(frozen=True, kw_only=True)
class BatchPlan:
    """A batch file read and checked: its jobs, every maze to make, and where they go."""

    #: the batch file's stem (``classroom`` for classroom.yaml)
    name: str
    output_dir: Path
    jobs: list[Job]
    tasks: list[MazeTask]

    @property
    def lang(self) -> str | None:
        """``fr`` when every job selected is French (its messages then are), else None."""
        langs = {task.job.lang for task in self.tasks}
        return "fr" if langs == {"fr"} else None

    def drawn_seeds(self) -> list[tuple[str, int]]:
        """(job name, seed) of each selected job whose seed was drawn for this run."""
        return [
            (job.name, next(task.job_seed for task in self.tasks if task.job is job))
            for job in self.jobs
            if job.seed is None and any(task.job is job for task in self.tasks)
        ]

    def listing(self) -> list[str]:
        """One line per maze (folder, file stem, size, algorithm, seed, formats), and the total."""
        lines = [
            f"{task.folder}/{task.variant}: {task.job.maze.rows}×{task.job.maze.cols} "
            f"{task.job.maze.algorithm} seed {task.seed} [{', '.join(task.job.formats)}]"
            for task in self.tasks
        ]
        return [*lines, f"{len(self.tasks)} mazes would be written under {self.output_dir}"]


def plan_batch(
    config: str | os.PathLike[str],
    *,
    output_dir: str | None = None,
    only: Iterable[str] | None = None,
    overrides: dict[str, Any] | None = None,
) -> BatchPlan:
    """The plan of the batch file ``config``: its jobs (``overrides`` over each, as typed on the
    command line) or those named in ``only``, their mazes in ``output_dir`` (``~`` and
    ``$VARIABLES`` expanded; default the file's ``output_dir``, else ``outputs/<file stem>``).
    The folder is checked as :func:`run_batch` checks it, so a dry run says what a run would."""
    from laby3d.config import load_batch

    batch, jobs = load_batch(Path(config), overrides=overrides)
    selected = list(only or [])
    french = {job.lang for job in ([job for job in jobs if job.name in selected] or jobs)} == {"fr"}
    try:
        unknown = sorted(set(selected) - {job.name for job in jobs})
        if unknown:
            names = ", ".join(job.name for job in jobs)
            raise ParameterError(f"has no job named {unknown[0]!r} (jobs: {names})", field="--only")
        if output_dir is not None:
            try:
                output_dir = expand_path(output_dir)
            except ParameterError as error:
                raise ParameterError(error.detail, field="--output-dir") from None
        name = Path(config).stem
        folder = Path(output_dir or batch.output_dir or Path("outputs") / name)
        check_output_folder(folder, example=name)
        check_own_folder(folder, example=name)
    except Laby3dError as error:
        error.lang = error.lang or ("fr" if french else None)  # said in the batch's language
        raise
    # expanded whole, then selected: a job's folder is the same with or without --only
    tasks = [task for task in expand(jobs, folder) if not selected or task.job.name in selected]
    return BatchPlan(name=name, output_dir=folder, jobs=jobs, tasks=tasks)


def run_plan(
    plan: BatchPlan,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int, int, dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Run ``plan`` with ``workers`` processes (default: one per core), or on the Dask cluster at
    ``scheduler``; returns the manifest."""
    if workers is not None and workers < 1:
        raise ParameterError(f"must be at least 1, got {workers}", field="-j")
    executor, close = dask_executor(scheduler) if scheduler else (None, None)
    try:
        return run_batch(plan.tasks, plan.output_dir, executor=executor, workers=workers, progress=progress)
    finally:
        if close is not None:
            close()


def check_own_folder(folder: Path, *, example: str = "mazes") -> None:
    """Refuse an output folder that holds files but no sign of a laby3d run (its manifest, or
    the lock a run leaves when it is stopped): a run would mix its folders with someone else's
    files, and replace any ``manifest.json`` there. The message offers a new folder inside it."""
    try:
        names = [entry.name for entry in os.scandir(folder)] if folder.is_dir() else []
    except OSError:
        return  # the lock names what keeps it from the folder
    if LOCK_NAME in names:
        return
    theirs = sorted(name for name in names if name not in DESKTOP_FILES and not name.endswith(TEMPORARY_SUFFIX))
    if MANIFEST in theirs:
        if _is_our_manifest(folder / MANIFEST):
            return
        why = f"its {MANIFEST} is a folder" if (folder / MANIFEST).is_dir() else f"its {MANIFEST} is not a laby3d run's"
    elif theirs:
        count = f"{len(theirs):,} files or folders" if len(theirs) > 1 else "a file"
        why = f"it holds {count} not written by laby3d ({shown_path(theirs[0], 30)}) and no {MANIFEST}"
    else:
        return
    raise OutputError(
        f"cannot use {shown_path(folder)} as the output folder: {why}; use a new folder in it, such as "
        f"{shown_path(folder / example, 40)}, or empty it"
    )


def _is_our_manifest(path: Path) -> bool:
    try:
        with open(path, "rb") as stream:
            return stream.read(len(MANIFEST_START)).decode("utf-8", "replace") == MANIFEST_START
    except OSError:
        return False


def render_task(task: MazeTask) -> MazeResult:
    """Generate one maze and render all its files (nothing is written); never raises."""
    from laby3d.pipeline import render_all

    job = task.labelled_job
    entry: dict[str, Any] = {
        "job": job.name,
        "maze": task.variant,
        "label": task.label,
        "seed": task.seed,
        "job_seed": task.job_seed,
        "algorithm": job.maze.algorithm,
        "rows": job.maze.rows,
        "cols": job.maze.cols,
        "parameters": as_data(job, exclude={"name", "seed", "count", "names"}),
    }
    result = MazeResult(entry)
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
        if rendered.laser_warnings:
            entry["laser_warnings"] = rendered.laser_warnings
        result.files = {f"{task.variant}.{suffix}": data for suffix, data in rendered.files.items()}
        result.maze_json = maze.to_json()
        entry["error"] = None
    except Laby3dError as error:
        entry["error"] = str(error)
    except Exception as error:  # noqa: BLE001 - a failing maze is reported, the batch goes on
        entry["error"] = f"internal error (a bug in laby3d): {type(error).__name__}: {error}"
    entry["timings_s"] = {name: round(value, 4) for name, value in timings.items()}
    return result


#: Formats also made once per job of several mazes: one booklet for the whole class.
BOOKLETS = ("worksheet.pdf", "key.pdf")


def _write_result(result: MazeResult, folder: Path, output_dir: Path) -> None:
    """Write one maze's files all or nothing and record them in its entry."""
    entry = result.entry
    if entry.get("error") or not result.files:
        return
    try:
        write_outputs({folder / name: data for name, data in result.files.items()}, root=output_dir)
    except OutputError as error:
        entry["error"] = str(error)
        return
    entry["files"] = {
        name: {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)} for name, data in result.files.items()
    }


def run_batch(
    tasks: list[MazeTask],
    output_dir: Path,
    *,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: Callable[[int, int, dict[str, Any]], None] | None = None,
    render: Callable[[MazeTask], MazeResult] = render_task,
) -> dict[str, Any]:
    """Render every task (in parallel, with ``render``), write its files and ``manifest.json`` as
    each maze comes back; returns the manifest. A maze whose worker process dies is rendered
    once more (:data:`RENDER_ATTEMPTS`); only that maze fails if it dies again."""
    check_output_folder(output_dir)
    check_own_folder(output_dir)
    with output_lock(output_dir):
        remove_output(output_dir / MANIFEST)  # an interrupted run leaves no stale manifest
        remove_stale_temporaries(output_dir)
        return _run(tasks, output_dir, executor, workers, progress, render)


def _run(
    tasks: list[MazeTask],
    output_dir: Path,
    executor: Executor | None,
    workers: int | None,
    progress: Callable[[int, int, dict[str, Any]], None] | None,
    render: Callable[[MazeTask], MazeResult],
) -> dict[str, Any]:
    entries: dict[tuple[str, str], dict[str, Any]] = {}
    mazes: MazeTexts = {}  # (folder, variant) -> maze file text, for the class booklets
    size = max(1, min(workers or os.cpu_count() or 1, len(tasks)))
    pool = None if executor is not None else worker_pool(size, preload=("laby3d.batch",))
    submit = executor.submit if executor is not None else partial(_schedule, pool)
    finished: queue.SimpleQueue[Future[MazeResult]] = queue.SimpleQueue()
    pending: dict[Future[MazeResult], tuple[MazeTask, int]] = {}  # future -> its task, attempts so far

    def start(task: MazeTask, attempt: int) -> None:
        future = submit(render, task)
        pending[future] = (task, attempt)
        future.add_done_callback(finished.put)

    started = time.perf_counter()
    try:
        for task in tasks:
            start(task, 1)
        done = 0
        while pending:
            future = finished.get()
            task, attempt = pending.pop(future)
            try:
                result = future.result()
            except WorkerDied as error:
                if attempt < RENDER_ATTEMPTS:  # once more: a worker killed for memory by a busy machine, say
                    start(task, attempt + 1)
                    continue
                result = _failed(task, f"its worker process died {attempt} times (exit code {error.exitcode})")
            except Exception as error:  # noqa: BLE001 - reported on the maze, the batch goes on
                result = _failed(task, f"worker failed: {type(error).__name__}: {error}")
            del future  # nothing keeps a maze's bytes once they are written: memory stays flat
            _write_result(result, Path(task.folder), output_dir)
            if result.maze_json is not None and not result.entry.get("error"):
                mazes[task.key] = result.maze_json
            entries[task.key] = result.entry
            del result
            done += 1
            if progress:
                progress(done, len(tasks), entries[task.key])
        plates = _write_plates(tasks, mazes, entries, output_dir, submit)
    finally:
        if pool is not None:
            pool.stop()  # the workers' own exit; interrupted work is abandoned
            pool.join()
        remove_stale_temporaries(output_dir)
    ordered = [entries[task.key] for task in tasks]
    booklets = _write_booklets(tasks, mazes, output_dir)
    class_sheets = _write_class_sheets(tasks, mazes, output_dir)
    manifest = {
        "format": "laby3d.manifest",
        "version": 2,
        "mazes": ordered,
        "booklets": booklets,
        "class_sheets": class_sheets,
        "plates": plates,
        "failed": sum(1 for entry in [*ordered, *booklets, *class_sheets, *plate_files(plates)] if entry.get("error")),
        "totals": totals(ordered, class_sheets, plates),
        "timings_s": {"total": round(time.perf_counter() - started, 3)},
    }
    text = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
    write_atomic(output_dir / MANIFEST, text.encode(), root=output_dir)
    return manifest


def _schedule(pool: Any, function: Callable[[Any], Any], task: Any) -> Future[Any]:
    return pool.schedule(function, args=(task,))


def _failed(task: MazeTask, message: str) -> MazeResult:
    """The result of a maze whose render did not come back."""
    return MazeResult({"job": task.job.name, "maze": task.variant, "seed": task.seed, "error": message})


def _write_booklets(tasks: list[MazeTask], mazes: MazeTexts, output_dir: Path) -> list[dict[str, Any]]:
    """A job's class booklets (worksheets, answer key) over its mazes, in list order."""
    from laby3d.maze.mazefile import maze_from_json
    from laby3d.pipeline import render_booklet

    written = []
    for folder, members in _by_job(tasks).items():
        job = members[0].job
        wanted = [name for name in job.formats if name in BOOKLETS]
        if not wanted or len(members) < 2:  # before reading the mazes
            continue
        pupils = [(maze_from_json(mazes[t.key]), t.label) for t in members if t.key in mazes]
        if not pupils:
            continue
        for name in wanted:
            path = Path(folder) / f"{Path(folder).name}.{name}"
            entry: dict[str, Any] = {"job": job.name, "file": str(path.relative_to(output_dir)), "mazes": len(pupils)}
            try:
                data = render_booklet(pupils, job, name)
                write_atomic(path, data, root=output_dir)
                entry.update({"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)})
            except Laby3dError as error:
                entry["error"] = str(error)
            written.append(entry)
    return written


def _write_class_sheets(tasks: list[MazeTask], mazes: MazeTexts, output_dir: Path) -> list[dict[str, Any]]:
    """The batch's class sheets: the ball kits of every job of the class (stack mode, with
    names), pooled by their sheet (size, spacing and file options alike) and nested together per
    material, each part engraved with its pupil's name; in ``<job>/class-sheets/`` when one job
    makes them, else in the batch's ``class-sheets/`` (a class of several maze sizes)."""
    from laby3d.export.laser import laser_files
    from laby3d.geometry.laser.classset import ClassKits, pooled_sheets
    from laby3d.maze.mazefile import maze_from_json

    groups: dict[str, list[ClassKits]] = {}
    wanted: dict[str, set[str]] = {}
    jobs_at: dict[str, tuple[Path, Any]] = {}  # job name -> its folder and laser options
    for folder, members in _by_job(tasks).items():
        job, laser = members[0].job, members[0].job.laser
        formats = {name for name in job.formats if name in ("svg", "dxf")}
        if job.names is None or laser.mode != "stack" or not formats:  # before reading the mazes
            continue
        options = laser.options(job.print.ball, None)
        pupils = [(t.label or t.variant, maze_from_json(mazes[t.key])) for t in members if t.key in mazes]
        same = json.dumps([options.sheet_size, options.spacing, laser.file_options(), laser.sheet_overview])
        if pupils:
            groups.setdefault(same, []).append(
                ClassKits(job=job.name, pupils=pupils, fab=job.print.fabrication(), options=options)
            )
            wanted.setdefault(same, set()).update(formats)
            jobs_at[job.name] = (Path(folder), laser)
    taken = {Path(task.folder).name.casefold() for task in tasks}
    written: list[dict[str, Any]] = []
    pooled = 0
    for same, jobs in groups.items():
        names = [kits.job for kits in jobs]
        home, first = jobs_at[names[0]]  # the first job's laser options: the shared sheets' file options
        if len(jobs) == 1:
            place = home / "class-sheets"
            about: dict[str, Any] = {"job": names[0]}
        else:
            pooled += 1
            name = "class-sheets" + (f"-{pooled}" if pooled > 1 else "")
            while name.casefold() in taken:  # a job of that name keeps its folder
                name += "_"
            place, about = output_dir / name, {"job": ", ".join(names), "jobs": names}
        metadata = {"generator": "laby3d", **about, "pupils": sum(len(kits.pupils) for kits in jobs)}
        try:
            sheets = pooled_sheets(jobs)
            files = {
                place / file_name: data
                for suffix in ("svg", "dxf")
                if suffix in wanted[same]
                for file_name, data in laser_files(
                    sheets, suffix=suffix, metadata=metadata, overview=first.sheet_overview, **first.file_options()
                ).items()
            }
            write_outputs(files, root=output_dir)
        except Laby3dError as error:
            written.append({**about, "error": str(error)})
            continue
        for path, data in files.items():
            entry: dict[str, Any] = {**about, "file": str(path.relative_to(output_dir))}
            if path.name == "laser.json":  # the sheets used against the area and line bounds, and text moved
                entry.update({"nesting": sheets.nesting, "warnings": sheets.warnings})
            written.append({**entry, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)})
    return written


def _write_plates(
    tasks: list[MazeTask],
    mazes: MazeTexts,
    entries: dict[tuple[str, str], dict[str, Any]],
    output_dir: Path,
    submit: Callable[..., Future[Any]],
) -> dict[str, Any] | None:
    """The class's plates (:mod:`laby3d.plates`): every maze whose job asks for the ``plates``
    format, arranged on its printer's plates, one 3MF per plate rendered by the workers from the
    mazes' file text (this process keeps no solid), the plates shared among the printers, and
    the plan for the teacher, in ``plates/``; None when no job asks for plates."""
    from laby3d.plates import (
        PLATES,
        PlateMaze,
        group_record,
        margin_advice,
        plan_groups,
        plan_text,
        plate_tasks,
        render_plate,
    )

    wanted = [task for task in tasks if PLATES in task.job.formats]
    if not wanted:
        return None
    taken = {Path(task.folder).name.casefold() for task in tasks}
    name = PLATES
    while name.casefold() in taken:  # a job named "plates" keeps its folder
        name += "_"
    folder = output_dir / name
    members = [
        PlateMaze(
            name=t.title,
            job=t.labelled_job,
            key=t.key,
            seconds=_print_seconds(entries[t.key]),
            seconds_on=(entries[t.key].get("printability") or {}).get("print_seconds_on") or {},
        )
        for t in wanted
        if t.key in mazes
    ]
    groups = plan_groups(members)
    futures: dict[Future[Any], tuple[int, int]] = {}
    for g, group in enumerate(groups):
        for p, plate in enumerate(plate_tasks(group, mazes)):
            futures[submit(render_plate, plate)] = (g, p)
    written: dict[tuple[int, int], dict[str, Any]] = {}
    for future in as_completed(list(futures)):
        g, p = futures.pop(future)
        path = folder / groups[g].file_name(p)
        entry: dict[str, Any] = {"file": str(path.relative_to(output_dir))}
        try:
            data = future.result()
            write_atomic(path, data, root=output_dir)
            entry.update(sha256=hashlib.sha256(data).hexdigest(), bytes=len(data))
            del data
        except (Laby3dError, WorkerDied) as error:
            entry["error"] = str(error) if isinstance(error, Laby3dError) else f"its worker died ({error})"
        except Exception as error:  # noqa: BLE001 - reported on the plate, the batch goes on
            entry["error"] = f"internal error (a bug in laby3d): {type(error).__name__}: {error}"
        del future
        written[g, p] = entry
    records = [
        group_record(group, [written[g, p] for p in range(len(group.arrangement.plates))], margin_advice(group))
        for g, group in enumerate(groups)
    ]
    lang = wanted[0].job.lang
    data = plan_text(records, lang).encode()
    plan = folder / "plan.txt"
    write_atomic(plan, data, root=output_dir)
    return {
        "folder": name,
        "plan": {"file": str(plan.relative_to(output_dir)), "sha256": hashlib.sha256(data).hexdigest()},
        "printers": records,
    }


def _print_seconds(entry: dict[str, Any]) -> float | None:
    """A maze's own print time estimate (s), when its report has one."""
    timing = (entry.get("printability") or {}).get("print_time")
    return None if timing is None else float(timing["seconds"])


def plate_files(plates: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Every plate of a manifest's ``plates`` section (none without it)."""
    return [plate for group in (plates or {}).get("printers", []) for plate in group["plates"]]


def _by_job(tasks: list[MazeTask]) -> dict[str, list[MazeTask]]:
    """The tasks grouped by their job's folder, in order."""
    jobs: dict[str, list[MazeTask]] = {}
    for task in tasks:
        jobs.setdefault(task.folder, []).append(task)
    return jobs


def totals(
    entries: list[dict[str, Any]], class_sheets: list[dict[str, Any]], plates: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Class totals of what was written: mazes, solids, filament (g) and print time (h) where the
    report estimates them, laser sheets to cut (the class's shared sheets where nested, else each
    maze's), and printer plates (with the plates format). A maze whose files could not be
    written (a full disk) counts in ``failed`` only."""
    reports = [entry["printability"] for entry in entries if entry.get("printability") and not entry.get("error")]
    result: dict[str, Any] = {"mazes": len(entries), "failed": sum(1 for e in entries if e.get("error"))}
    result["solids"] = len(reports)
    nested = {job for entry in class_sheets for job in entry.get("jobs", [entry["job"]])}
    sheet_files = [f for e in entries if e.get("job") not in nested for f in e.get("files", {})]
    sheet_files += [entry.get("file", "") for entry in class_sheets if not entry.get("error")]
    # a sheet is one file per format (.svg, .dxf): count the distinct sheets
    result["laser_sheets"] = len({re.sub(r"\.(svg|dxf)$", "", name) for name in sheet_files if SHEET.search(name)})
    if reports:
        result["pla_solid_g"] = round(sum(r["mass"]["solid_g"] for r in reports), 1)
        if all("typical_g" in r["mass"] for r in reports):
            result["filament_g"] = round(sum(r["mass"]["typical_g"] for r in reports), 1)
        if all("print_time" in r for r in reports):
            result["print_seconds"] = sum(r["print_time"]["seconds"] for r in reports)
    if plates is not None:
        planned = [plate for plate in plate_files(plates) if not plate.get("error")]
        result["plates"] = len(planned)
        seconds = [plate.get("print_seconds") for plate in planned]
        if "print_seconds" not in result and planned and None not in seconds:  # a fleet: each solid on its kind
            result["print_seconds"] = sum(seconds)
    return result


def _said(key: str, lang: str | None) -> str:
    from laby3d.i18n.terminal import said

    return said(key, lang)


def summary_lines(manifest: dict[str, Any], output_dir: Path, lang: str | None = None) -> list[str]:
    """What a run made, for the terminal: mazes written, the class totals and plates, in ``lang``."""
    written = sum(1 for entry in manifest["mazes"] if not entry.get("error"))
    counts = {"written": written, "total": len(manifest["mazes"]), "folder": output_dir}
    lines = [
        _said("written", lang).format(**counts, manifest=output_dir / MANIFEST),
        totals_line(manifest["totals"], lang),
    ]
    if manifest["plates"] is not None:
        lines += plates_lines(manifest["plates"], output_dir, lang)
    return lines


def failure_lines(manifest: dict[str, Any], lang: str | None = None) -> list[str]:
    """One line per maze, booklet, class sheet or plate that failed, with why, in ``lang``."""
    from laby3d.i18n import colon, in_language

    every = [*manifest["mazes"], *manifest["booklets"], *manifest["class_sheets"], *plate_files(manifest["plates"])]
    word = colon(_said("failed", lang), lang or "en")
    return [
        f"{word} {colon(entry.get('maze') or entry.get('file') or entry['job'], lang or 'en')} "
        f"{in_language(entry['error'], lang or 'en')}"
        for entry in every
        if entry.get("error")
    ]


def totals_line(totals: dict[str, Any], lang: str | None = None) -> str:
    """The class totals on one line: solids, print time and filament (estimates) of what was
    written, in ``lang``."""
    from laby3d.i18n import colon, number_text
    from laby3d.print_time import duration_text

    def counted(number: int, thing: str) -> str:
        return f"{number} {_said(thing if number == 1 else thing + 's', lang)}"

    def kg(grams: float) -> str:
        return number_text(grams / 1000, lang or "en", digits=2)

    parts = [counted(totals["solids"], "solid")] if totals["solids"] else []
    if totals.get("plates"):
        parts.append(counted(totals["plates"], "printer plate"))
    if totals.get("laser_sheets"):
        parts.append(counted(totals["laser_sheets"], "laser sheet"))
    if "print_seconds" in totals:
        parts.append(f"{duration_text(totals['print_seconds'], lang or 'en')} {_said('of printing', lang)}")
    if "filament_g" in totals:
        parts.append(_said("filament", lang).format(kg=kg(totals["filament_g"])))
    elif "pla_solid_g" in totals:
        parts.append(_said("solid PLA", lang).format(kg=kg(totals["pla_solid_g"])))
    made = totals["mazes"] - totals["failed"]
    nothing = counted(made, "maze") if made else _said("nothing", lang)
    return f"{colon(_said('totals', lang), lang or 'en')} " + (", ".join(parts) or nothing)


def plates_lines(plates: dict[str, Any], output_dir: Path, lang: str | None = None) -> list[str]:
    """The class's plates per printer (how many, how full), each printer's plates and hours, the
    solids no plate holds, and where the plan is, in ``lang``."""
    from laby3d.i18n import colon
    from laby3d.plates import advice_line, group_heading, left_out_line, printer_line

    said = lang or "en"
    lines = []
    for group in plates["printers"]:
        lines.append(f"{colon(_said('plates', lang), said)} {group_heading(group, said)}")
        lines += [f"  {printer_line(group, printer, said)}" for printer in group["per_printer"]]
        lines += [f"  {left_out_line(group, left, said)}" for left in group["left_out"]]
        advice = advice_line(group, said)
        lines += [] if advice is None else [f"  {advice}"]
    lines.append(f"{colon(_said('plan', lang), said)} {output_dir / plates['plan']['file']}")
    return lines


def state_text(state: str, lang: str | None) -> str:
    """A maze's state (:func:`state_of`) in ``lang``: ``ATTENTION : …``, ``ÉCHEC : …``."""
    from laby3d.i18n import colon, in_language

    kind, sep, detail = state.partition(": ")
    if lang != "fr" or not sep:
        return state
    return f"{colon({'WARN': 'ATTENTION', 'FAILED': 'ÉCHEC'}.get(kind, kind), lang)} {in_language(detail, lang)}"


def state_of(entry: dict[str, Any]) -> str:
    """``ok``, ``WARN: <first warning>`` (of the solid, then of the laser sheets) or
    ``FAILED: <error>`` for one maze."""
    if entry.get("error"):
        return f"FAILED: {entry['error']}"
    warnings = [*((entry.get("printability") or {}).get("warnings") or []), *entry.get("laser_warnings", [])]
    return f"WARN: {warnings[0]}" if warnings else "ok"


def progress_printer(stream: Any = None, lang: str | None = None) -> Callable[[int, int, dict[str, Any]], None]:
    """A progress bar on a terminal, one plain line per maze otherwise; states in ``lang``
    (``ATTENTION : …``, ``ÉCHEC : …``)."""
    from laby3d.i18n import colon

    stream = stream or sys.stderr
    terminal = stream.isatty()

    def report(done: int, total: int, entry: dict[str, Any]) -> None:
        state = state_text(state_of(entry), lang)
        if terminal:
            filled = int(30 * done / total)
            stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} {entry['maze'][:40]:40}")
            if state != "ok":
                stream.write(f"\n{colon(entry['maze'], lang or 'en')} {state}\n")
            if done == total:
                stream.write("\n")
        else:
            stream.write(f"{done}/{total} {colon(entry['maze'], lang or 'en')} {state}\n")
        stream.flush()

    return report


def dask_executor(address: str) -> tuple[Executor, Callable[[], None]]:
    """An executor on a Dask cluster at ``address`` (``local``: a local cluster), and its closer.

    Needs ``pip install 'laby3d[dask]'``. Workers return bytes; this process writes the files.
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise Laby3dError("--scheduler needs Dask: pip install 'laby3d[dask]'") from None
    if address == "local":
        workers = os.cpu_count() or 1
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        cluster = None
        try:
            client = Client(address, timeout="10s")
        except OSError as error:
            raise Laby3dError(f"--scheduler {address}: cannot reach the Dask scheduler ({error})") from None

    def close() -> None:
        client.close()
        if cluster is not None:
            cluster.close()

    return client.get_executor(), close
