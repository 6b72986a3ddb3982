"""A batch interrupted anywhere (Ctrl-C or kill -9, a dozen times at random moments) leaves no
temporary and no truncated file, and a manifest that is either absent or true to the disk."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import yaml

CONFIG = {
    "defaults": {"maze": {"rows": 30, "cols": 30}, "formats": ["maze.json", "stl", "3mf", "png", "svg"]},
    "jobs": [{"name": "class", "seed": 3, "names": [f"Pupil {k}" for k in range(10)]}],
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


def laby3d_output(stderr: str) -> str:
    """``stderr`` less the tracebacks of a worker process still starting when Ctrl-C came:
    CPython's fork server guards itself from Ctrl-C only after its imports, and a worker forked
    as the batch stops finds the batch's semaphores gone (multiprocessing prints both; a known
    wart, about 1 run in 3 of this test, that leaves every file right)."""
    blocks = stderr.split("Traceback (most recent call last):")
    kept = [blocks[0]] + [b for b in blocks[1:] if "multiprocessing/forkserver.py" not in "".join(b.splitlines()[:3])]
    return "Traceback (most recent call last):".join(kept)


@pytest.mark.slow
def test_interrupting_a_batch_anywhere_leaves_a_true_state(tmp_path: Path) -> None:
    config = tmp_path / "class.yaml"
    config.write_text(yaml.safe_dump(CONFIG), encoding="utf-8")
    out = tmp_path / "out"
    chooser = np.random.default_rng(7)
    for attempt in range(12):
        process = subprocess.Popen(
            [sys.executable, "-m", "laby3d", "batch", str(config), "--output-dir", str(out), "-j", "2"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        time.sleep(chooser.uniform(0.5, 6.0))
        how = signal.SIGINT if attempt % 2 == 0 else signal.SIGKILL
        try:
            os.killpg(process.pid, how)
        except ProcessLookupError:
            pass  # it had finished
        _, stderr = process.communicate(timeout=120)
        assert "Traceback" not in laby3d_output(stderr), stderr
        files = [p for p in out.rglob("*") if p.is_file()]
        leftovers = [p for p in files if p.name.startswith(".") and p.name != ".laby3d.lock"]
        # Ctrl-C cleans up its own temporaries; kill -9 cannot, and leaves only marked ones (named
        # by the killed process's id), which the next run that gets going removes (a Ctrl-C during
        # start-up may come before it has looked)
        assert all(p.name.endswith(".laby3d-tmp") for p in leftovers), leftovers
        own = [p for p in leftovers if p.name.startswith(f".{process.pid}.")]
        assert how == signal.SIGKILL or not own, f"attempt {attempt}: Ctrl-C left {own}"
        for path in files:
            if not path.name.startswith("."):
                assert whole(path), f"attempt {attempt}: truncated {path}"
        manifest = out / "manifest.json"
        if manifest.exists():  # then every file it lists is on the disk with its SHA-256
            for entry in json.loads(manifest.read_text())["mazes"]:
                for name, info in (entry.get("files") or {}).items():
                    data = (out / "class" / name).read_bytes()
                    assert hashlib.sha256(data).hexdigest() == info["sha256"], f"attempt {attempt}: {name}"
    final = subprocess.run(
        [sys.executable, "-m", "laby3d", "batch", str(config), "--output-dir", str(out), "-j", "2"],
        capture_output=True,
        text=True,
    )
    assert final.returncode == 0, final.stderr  # a run after a kill -9 takes the folder over
    assert not [p for p in out.rglob(".*") if p.is_file()], "temporaries or the lock left after a full run"
