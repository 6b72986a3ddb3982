"""Class sets: a pupil's maze depends on their name, not their place in the list; duplicates are
refused; a Dask cluster gives the same files; the manifest never contradicts the disk."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import require_tool

from laby3d.batch import expand, run_batch
from laby3d.config import ConfigError, load_batch

NAMES = ["Léa Martin", "Ben", "Chloé", "Dmitri", "Zoë-Anne", "O'Brien"]


def write(folder: Path, names: list[str], formats: list[str] | None = None) -> Path:
    job = {
        "name": "class",
        "seed": 100,
        "names": names,
        "maze": {"rows": 6, "cols": 6},
        "print": {"margin": 6},
        "formats": formats or ["maze.json", "stl", "svg"],
    }
    path = folder / "class.yaml"
    path.write_text(yaml.safe_dump({"jobs": [job]}, allow_unicode=True), encoding="utf-8")
    return path


def digests(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "manifest.json" and not p.name.startswith(".")
    }


def run(config: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "laby3d", "batch", str(config), "--output-dir", str(out), *extra],
        capture_output=True,
        text=True,
    )


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_removing_a_pupil_leaves_every_other_file_identical(tmp_path: Path) -> None:
    assert run(write(tmp_path, NAMES), tmp_path / "all", "-j", "1").returncode == 0
    fewer = [name for name in NAMES if name != "Chloé"]
    (tmp_path / "b").mkdir()
    assert run(write(tmp_path / "b", fewer[::-1]), tmp_path / "fewer", "-j", "1").returncode == 0
    everyone, others = digests(tmp_path / "all"), digests(tmp_path / "fewer")
    assert others and all(everyone[name] == digest for name, digest in others.items())
    assert set(everyone) - set(others) == {f"class/class-Chloe.{ext}" for ext in ("maze.json", "stl", "svg")} | {
        "class/class-Chloe.printability.json"
    }


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["Léa", "Ben", "Léa"], "names[2]: 'Léa' appears twice (names[0]): make each name distinct, e.g. 'Léa M.'"),
        (["Zoë", "zoe"], "names[1]: 'zoe' is 'Zoë' but for accents, case, spaces or punctuation (names[0])"),
    ],
)
def test_names_that_would_share_a_file_are_refused(tmp_path: Path, names: list[str], message: str) -> None:
    with pytest.raises(ConfigError) as error:
        load_batch(write(tmp_path, names))
    assert f"class.yaml: jobs[0] (class).{message}" in str(error.value)


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_class_booklets_hold_every_pupil(tmp_path: Path) -> None:
    config = write(tmp_path, NAMES[:3], ["maze.json", "worksheet.pdf", "key.pdf"])
    result = run(config, tmp_path / "out", "-j", "1")
    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert {b["file"] for b in manifest["booklets"]} == {"class/class.worksheet.pdf", "class/class.key.pdf"}
    pdftotext = require_tool("pdftotext")
    text = subprocess.run(
        [pdftotext, str(tmp_path / "out" / "class" / "class.worksheet.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert all(name in text.stdout for name in NAMES[:3])


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_files(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="pip install 'laby3d[dask]'")
    from laby3d.batch import dask_executor

    _, jobs = load_batch(write(tmp_path, NAMES[:4]))
    alone = run_batch(expand(jobs, tmp_path / "one"), tmp_path / "one", workers=1)
    executor, close = dask_executor("local")
    try:
        on_cluster = run_batch(expand(jobs, tmp_path / "dask"), tmp_path / "dask", executor=executor)
    finally:
        close()
    assert [e["files"] for e in alone["mazes"]] == [e["files"] for e in on_cluster["mazes"]]
    assert digests(tmp_path / "one") == digests(tmp_path / "dask")


def test_a_rerun_removes_the_old_manifest_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An interrupted re-run must not leave the previous manifest listing files that changed."""
    import laby3d.batch

    _, jobs = load_batch(write(tmp_path, NAMES[:2], ["maze.json"]))
    out = tmp_path / "out"
    run_batch(expand(jobs, out), out, workers=1)
    assert (out / "manifest.json").exists()

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(laby3d.batch, "_run", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_batch(expand(jobs, out), out, workers=1)
    assert not (out / "manifest.json").exists()
