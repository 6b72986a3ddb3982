"""A batch interrupted anywhere (Ctrl-C, SIGTERM or kill -9, to the process group as a terminal
sends them or to the batch alone, at random moments from its first instant on) leaves no
temporary and no truncated file, a manifest that is either absent or true to the disk, and says
so on one line: no traceback from laby3d, from a worker being born or from the fork server, and no
"leaked semaphore" warning (issue 28)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
import yaml

CONFIG = {
    "defaults": {"maze": {"rows": 30, "cols": 30}, "formats": ["maze.json", "stl", "3mf", "png", "svg"]},
    "jobs": [{"name": "class", "seed": 3, "names": [f"Pupil {k}" for k in range(10)]}],
}
#: A progress line of a batch whose standard error is not a terminal.
PROGRESS = re.compile(r"\d+/\d+ \S.*: (ok|WARN: .*)")
#: The one line a stopped batch may print, by what stopped it.
STOPPED = {
    signal.SIGINT: (
        "laby3d: interrupted; finished files are complete, unfinished ones were not written",
        "laby3d: interrupted; nothing was written",  # while laby3d's modules were still being imported
    ),
    signal.SIGTERM: (
        "laby3d: stopped by SIGTERM; finished files are complete, unfinished ones were not written",
        "laby3d: interrupted; nothing was written",
    ),
    signal.SIGKILL: (),
}


def whole(path: Path) -> bool:
    """The file is complete by its own format's rules (an independent check per format)."""
    data = path.read_bytes()
    if path.name.endswith(".stl"):
        return len(data) == 84 + 50 * int.from_bytes(data[80:84], "little")
    if path.name.endswith(".json"):
        json.loads(data)
        return True
    if path.name.endswith(".png"):
        return data.endswith(b"IEND\xaeB`\x82")
    if path.name.endswith(".3mf"):
        import zipfile

        with zipfile.ZipFile(path) as archive:
            return archive.testzip() is None
    if path.name.endswith(".svg"):
        return data.rstrip().endswith(b"</svg>")
    return True


def said(stderr: str, how: signal.Signals) -> list[str]:
    """What a stopped batch printed besides its progress: nothing, or its one line."""
    assert "Traceback" not in stderr and "leaked" not in stderr and "Exception" not in stderr, stderr
    others = [line for line in stderr.splitlines() if line and not PROGRESS.fullmatch(line)]
    assert len(others) <= 1 and all(line in STOPPED[how] for line in others), stderr
    return others


def batch(config: Path, out: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "laby3d", "batch", str(config), "--output-dir", str(out), "-j", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a group of its own, as a terminal gives a command
    )


def check_the_disk(out: Path, pid: int, how: signal.Signals, attempt: int) -> None:
    files = [p for p in out.rglob("*") if p.is_file()]
    leftovers = [p for p in files if p.name.startswith(".") and p.name != ".laby3d.lock"]
    # Ctrl-C and SIGTERM clean up their own temporaries; kill -9 cannot, and leaves only marked ones
    # (named by the killed process's id), which the next run that gets going removes
    assert all(p.name.endswith(".laby3d-tmp") for p in leftovers), leftovers
    own = [p for p in leftovers if p.name.startswith(f".{pid}.")]
    assert how == signal.SIGKILL or not own, f"attempt {attempt}: {how.name} left {own}"
    for path in files:
        if not path.name.startswith("."):
            assert whole(path), f"attempt {attempt}: truncated {path}"
    manifest = out / "manifest.json"
    if manifest.exists():  # then every file it lists is on the disk with its SHA-256
        for entry in json.loads(manifest.read_text())["mazes"]:
            for name, info in (entry.get("files") or {}).items():
                data = (out / "class" / name).read_bytes()
                assert hashlib.sha256(data).hexdigest() == info["sha256"], f"attempt {attempt}: {name}"


def start_up_seconds() -> float:
    """How long this interpreter takes to start before it reads any of laby3d (its site-packages'
    start-up files): Ctrl-C before then is Python's own, out of laby3d's reach."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


@pytest.mark.slow
def test_interrupting_a_batch_anywhere_leaves_a_true_state_and_one_line(tmp_path: Path) -> None:
    config = tmp_path / "class.yaml"
    config.write_text(yaml.safe_dump(CONFIG), encoding="utf-8")
    out = tmp_path / "out"
    chooser = np.random.default_rng(7)
    earliest = 1.5 * start_up_seconds()
    signals = [signal.SIGINT, signal.SIGTERM, signal.SIGKILL]
    for attempt in range(16):  # every (signal, moment) pair of the cycles below comes up
        how = signals[attempt % 3]
        to_group = attempt % 2 == 0 or how == signal.SIGINT  # a terminal's Ctrl-C reaches the whole group
        # the first seconds (imports, the fork server, workers starting) come up more often
        delay = chooser.uniform(earliest, 2.5) if attempt % 4 < 2 else chooser.uniform(2.5, 8.0)
        process = batch(config, out)
        time.sleep(delay)
        try:
            (os.killpg if to_group else os.kill)(process.pid, how)
        except ProcessLookupError:
            pass  # it had finished
        _, stderr = process.communicate(timeout=120)  # also waits for every worker to be gone
        said(stderr, how)
        check_the_disk(out, process.pid, how, attempt)
    final = subprocess.run(
        [sys.executable, "-m", "laby3d", "batch", str(config), "--output-dir", str(out), "-j", "2"],
        capture_output=True,
        text=True,
    )
    assert final.returncode == 0, final.stderr  # a run after a kill -9 takes the folder over
    assert not [p for p in out.rglob(".*") if p.is_file()], "temporaries or the lock left after a full run"


@contextmanager
def busy_cores(count: int) -> Iterator[None]:
    """``count`` processes spinning on the CPU for the block: a loaded machine."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


@pytest.mark.slow
def test_a_batch_on_a_loaded_machine_prints_only_its_progress(tmp_path: Path) -> None:
    """Under heavy load a worker still being born as an uninterrupted batch finished once printed
    multiprocessing's "FileNotFoundError … SemLock._rebuild" traceback."""
    config = tmp_path / "class.yaml"
    config.write_text(yaml.safe_dump(CONFIG), encoding="utf-8")
    with busy_cores(4):  # two runs: the load holds up the rest of the slow suite meanwhile
        for run in range(2):
            done = subprocess.run(
                [sys.executable, "-m", "laby3d", "batch", str(config), "--output-dir", str(tmp_path / f"{run}")],
                capture_output=True,
                text=True,
                timeout=600,
            )
            assert done.returncode == 0, done.stderr
            lines = done.stderr.splitlines()
            assert all(PROGRESS.fullmatch(line) for line in lines) and len(lines) == 10, done.stderr


def test_a_ctrl_c_while_laby3d_is_imported_is_one_line(tmp_path: Path) -> None:
    """A Ctrl-C in the first second printed a KeyboardInterrupt traceback from the imports."""
    code = (  # the alarm's Ctrl-C comes once the interpreter has started and found laby3d's entry point
        "import os, signal, sys; sys.argv = ['laby3d', 'list'];"
        "from laby3d.__main__ import run;"
        "signal.signal(signal.SIGALRM, lambda *a: os.kill(os.getpid(), signal.SIGINT));"
        "signal.setitimer(signal.ITIMER_REAL, {delay});"
        "sys.exit(run())"
    )
    seen = set()
    for delay in (0.001, 0.01, 0.03, 0.06, 0.1, 0.2):
        done = subprocess.run([sys.executable, "-c", code.format(delay=delay)], capture_output=True, text=True)
        assert "Traceback" not in done.stderr, (delay, done.stderr)
        if done.returncode == 130:
            assert done.stderr.strip() in STOPPED[signal.SIGINT], done.stderr
            seen.add(done.stderr.strip())
    assert "laby3d: interrupted; nothing was written" in seen  # at least one came while importing


def test_a_stop_inside_an_extension_that_wraps_every_error_still_ends_on_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """pydantic-core building the option models once caught a Ctrl-C and raised its own SchemaError
    with the traceback; the stop is noted during the imports, not raised, so no such code sees it."""
    import importlib.abc
    import importlib.machinery

    from laby3d import __main__ as program

    class Wrapping(importlib.abc.Loader):
        def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
            return None

        def exec_module(self, module: object) -> None:
            try:
                os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while the extension runs
                time.sleep(0.05)
            except BaseException as error:  # as pydantic-core does
                raise RuntimeError(f"SchemaError: {error!r}") from None
            module.main = lambda: 0  # type: ignore[attr-defined]

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, name: str, path: object, target: object = None) -> importlib.machinery.ModuleSpec | None:
            return importlib.machinery.ModuleSpec(name, Wrapping()) if name == "laby3d.cli" else None

    import laby3d
    import laby3d.cli

    monkeypatch.delitem(sys.modules, "laby3d.cli")  # the real one comes back after the test
    monkeypatch.setattr(laby3d, "cli", laby3d.cli)
    monkeypatch.setattr(sys, "meta_path", [Finder(), *sys.meta_path])
    monkeypatch.setattr(sys, "argv", ["laby3d", "generate"])
    assert program.run() == 130
    assert capsys.readouterr().err == "laby3d: interrupted; nothing was written\n"
