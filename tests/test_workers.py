"""The batch's worker processes: a maze whose worker dies is rendered again, and workers never
outlive the batch, however it is stopped (SIGTERM, or SIGKILL of the batch process alone)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import psutil
import pytest
import yaml
from dying import dies_first_time, dies_on

from laby3d.batch import expand, run_batch
from laby3d.options.build import validated_job


def _tasks(tmp_path: Path, count: int) -> list:
    job = validated_job({"name": "w", "seed": 5, "count": count, "maze": {"rows": 6, "cols": 6}, "formats": ["stl"]})
    return expand([job], tmp_path / "out")


def test_a_maze_whose_worker_dies_is_rendered_again(tmp_path: Path) -> None:
    tasks = _tasks(tmp_path, 4)
    manifest = run_batch(tasks, tmp_path / "out", workers=2, render=partial(dies_first_time, str(tmp_path)))
    assert manifest["failed"] == 0
    assert len(list(tmp_path.glob("w-*"))) == 4, "every maze's worker died once"
    for entry in manifest["mazes"]:
        stl = (tmp_path / "out" / "w" / f"{entry['maze']}.stl").read_bytes()
        assert len(stl) == 84 + 50 * int.from_bytes(stl[80:84], "little")


def test_a_maze_whose_worker_dies_twice_fails_alone(tmp_path: Path) -> None:
    tasks = _tasks(tmp_path, 5)
    manifest = run_batch(tasks, tmp_path / "out", workers=2, render=partial(dies_on, "w-3"))
    failed = {entry["maze"]: entry["error"] for entry in manifest["mazes"] if entry.get("error")}
    assert list(failed) == ["w-3"] and "died 2 times" in failed["w-3"]
    assert manifest["failed"] == 1
    written = sorted(path.name for path in (tmp_path / "out" / "w").glob("*.stl"))
    assert written == ["w-1.stl", "w-2.stl", "w-4.stl", "w-5.stl"]


def _slow_batch(tmp_path: Path) -> subprocess.Popen:
    config = tmp_path / "slow.yaml"
    job = {"name": "slow", "seed": 1, "count": 40, "maze": {"rows": 60, "cols": 60}}
    config.write_text(yaml.safe_dump({"defaults": {"formats": ["stl", "3mf", "png"]}, "jobs": [job]}))
    return subprocess.Popen(
        [sys.executable, "-m", "laby3d", "batch", str(config), "--output-dir", str(tmp_path / "out"), "-j", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def _workers(batch: psutil.Process) -> list[psutil.Process]:
    """The batch's render workers: its descendants with no children of their own, but for the
    standard library's resource tracker (a fork server, where there is one, is their parent)."""
    found = []
    for process in batch.children(recursive=True):
        try:
            if not process.children() and "resource_tracker" not in " ".join(process.cmdline()):
                found.append(process)
        except psutil.NoSuchProcess:
            pass
    return found


def _wait_for_busy_workers(batch: psutil.Process, count: int) -> list[psutil.Process]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        workers = _workers(batch)
        if len(workers) >= count and all(worker.cpu_percent(0.2) > 10 for worker in workers):
            return workers
        time.sleep(0.1)
    pytest.fail(f"the batch did not start {count} busy workers")


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_workers_die_with_the_batch_process(tmp_path: Path, how: signal.Signals) -> None:
    process = _slow_batch(tmp_path)
    batch = psutil.Process(process.pid)
    try:
        _wait_for_busy_workers(batch, 2)
        descendants = batch.children(recursive=True)
        os.kill(process.pid, how)  # the batch process alone, not its process group
        process.wait(timeout=30)
        _, alive = psutil.wait_procs(descendants, timeout=10)
        assert not alive, f"still running after the batch ended: {[p.cmdline()[:3] for p in alive]}"
    finally:
        for child in psutil.Process().children(recursive=True):
            child.kill()
    assert process.returncode == (-signal.SIGKILL if how == signal.SIGKILL else 143)
    assert "Traceback" not in (process.stderr.read() if process.stderr else "")


@pytest.mark.slow
def test_killing_a_busy_worker_renders_its_maze_again(tmp_path: Path) -> None:
    process = _slow_batch(tmp_path)
    workers = _wait_for_busy_workers(psutil.Process(process.pid), 2)
    workers[0].kill()
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 0, stderr
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["failed"] == 0 and len(manifest["mazes"]) == 40
    files = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert not [p for p in files if p.name.startswith(".")], "temporary files left behind"
    for path in files:
        if path.suffix == ".stl":
            data = path.read_bytes()
            assert len(data) == 84 + 50 * int.from_bytes(data[80:84], "little")
