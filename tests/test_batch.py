"""YAML batch runs: validation with precise messages, safety, failures, interruption, reproducibility."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from laby3d.batch import expand, run_batch
from laby3d.config import ConfigError, load_batch
from laby3d.errors import Laby3dError
from laby3d.filenames import safe_name
from laby3d.options import FORMAT_NAMES

ROOT = Path(__file__).parent.parent


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "laby3d", *args], capture_output=True, text=True, cwd=cwd)


def write_config(folder: Path, data: dict, name: str = "batch.yaml") -> Path:
    path = folder / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


@pytest.mark.parametrize("config", sorted((ROOT / "configs").glob("*.yaml")), ids=lambda p: p.name)
def test_every_shipped_config_is_valid(config: Path) -> None:
    _, jobs = load_batch(config)
    assert jobs


FAST_FORMATS = ["maze.json", "txt", "stl"]
valid_jobs = st.fixed_dictionaries(
    {
        "name": st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=12),
        "seed": st.integers(0, 2**40),
        "maze": st.fixed_dictionaries(
            {"rows": st.integers(1, 6), "cols": st.integers(1, 6), "algorithm": st.sampled_from(["wilson", "prim"])}
        ),
        "print": st.fixed_dictionaries(
            {"cell_size": st.sampled_from([8, 10]), "wall_thickness": st.sampled_from([1.2, 1.6])}
        ),
        "formats": st.lists(st.sampled_from(FAST_FORMATS), min_size=1, max_size=3, unique=True),
    },
    optional={"count": st.integers(1, 3)},
)
# (path into a job, bad value, text the message must contain)
mistakes = st.sampled_from(
    [
        (("maze", "rows"), 0, "maze.rows"),
        (("maze", "cols"), 5000, "maze.cols"),
        (("maze", "algorithm"), "mystery", "maze.algorithm"),
        (("maze", "colour"), "red", "maze.colour: is not a known key"),
        (("print", "wall_thickness"), 20, "print.wall_thickness: must be < cell_size"),
        (("print", "nozzle"), -1, "print.nozzle"),
        (("print", "solution"), "sideways", "print.solution"),
        (("formats",), ["docx"], "formats[0]"),
        (("count",), 0, "count"),
        (("seed",), -5, "seed"),
        (("pictures", "charset"), "emoji", "pictures.charset"),
    ]
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    jobs=st.lists(valid_jobs, min_size=1, max_size=3), mistake=st.one_of(st.none(), mistakes), where=st.integers(0, 2)
)
def test_random_configs_run_or_fail_naming_the_field(tmp_path_factory, jobs: list, mistake, where: int) -> None:
    folder = tmp_path_factory.mktemp("batch")
    if mistake is not None:
        target = jobs[where % len(jobs)]
        *parents, key = mistake[0]
        for parent in parents:
            target = target.setdefault(parent, {})
        target[key] = mistake[1]
    config = write_config(folder, {"jobs": jobs})
    if mistake is not None:
        with pytest.raises(ConfigError) as error:
            load_batch(config)
        index = where % len(jobs)
        assert f"batch.yaml: jobs[{index}]" in str(error.value) and mistake[2] in str(error.value)
        return
    _, loaded = load_batch(config)
    tasks = expand(loaded, folder / "out")
    with ThreadPoolExecutor(2) as pool:  # any concurrent.futures executor plugs in
        manifest = run_batch(tasks, folder / "out", executor=pool)
    assert manifest["failed"] == 0
    for entry, task in zip(manifest["mazes"], tasks, strict=True):
        for name, info in entry["files"].items():
            path = Path(task.folder) / name
            assert path.stat().st_size == info["bytes"]
            assert path.resolve().is_relative_to((folder / "out").resolve())


def test_defaults_merge_key_by_key_and_errors_name_defaults(tmp_path: Path) -> None:
    config = write_config(
        tmp_path,
        {
            "defaults": {"maze": {"rows": 7, "algorithm": "wilson"}, "formats": ["txt"]},
            "jobs": [{"name": "a", "seed": 1, "maze": {"cols": 9}}],
        },
    )
    _, (job,) = load_batch(config)
    assert (job.maze.rows, job.maze.cols, job.maze.algorithm, job.formats) == (7, 9, "wilson", ["txt"])
    bad = write_config(tmp_path, {"defaults": {"print": {"cell_sise": 9}}, "jobs": [{"name": "a"}]}, "bad.yaml")
    with pytest.raises(ConfigError, match=r"bad.yaml: defaults\.print\.cell_sise: is not a known key"):
        load_batch(bad)


def test_yaml_is_loaded_safely(tmp_path: Path) -> None:
    path = tmp_path / "evil.yaml"
    path.write_text("jobs: !!python/object/apply:os.system ['echo pwned']\n")
    with pytest.raises(Laby3dError, match="evil.yaml: line 1: could not determine a constructor"):
        load_batch(path)


def test_too_big_is_refused_up_front(tmp_path: Path) -> None:
    job = {"name": "huge", "maze": {"rows": 1500, "cols": 1500}, "formats": ["stl"]}
    job["print"] = {"cell_size": 2, "wall_thickness": 0.8}
    config = write_config(tmp_path, {"jobs": [job]})
    result = run_cli("batch", str(config), cwd=tmp_path)
    assert result.returncode == 2 and "jobs[0] (huge).maze.rows: 1500 with cols 1500: would need about" in result.stderr
    assert not (tmp_path / "outputs").exists()


@pytest.mark.parametrize(
    ("name", "why"), [("..", "has no letter or digit"), ("\x00\x1b[31m", "not text (U+0000, U+001B)")]
)
def test_names_with_no_letter_or_with_control_characters_are_refused_up_front(
    tmp_path: Path, name: str, why: str
) -> None:
    """The one name rule (tests/test_names.py): refused naming the field, nothing written."""
    job = {"name": "class", "seed": 1, "formats": ["txt"], "names": [name, f"{name} 2"]}
    config = write_config(tmp_path, {"jobs": [job]})
    result = run_cli("batch", str(config), "--output-dir", "out", "-j", "1", cwd=tmp_path)
    assert result.returncode == 2 and "jobs[0] (class).names[0]: " in result.stderr and why in result.stderr
    assert len(result.stderr.splitlines()) == 1 and not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", ["../../escape", "CON", "a/b\\c", "Chloé & Zoë"])
def test_hostile_names_stay_inside_the_output_folder(tmp_path: Path, name: str) -> None:
    job = {"name": name, "seed": 1, "formats": ["txt"], "names": [name, f"{name} 2"]}
    config = write_config(tmp_path, {"jobs": [job]})
    result = run_cli("batch", str(config), "--output-dir", "out", "-j", "1", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    written = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert len(written) == 3  # two mazes (unique after sanitizing) and the manifest
    for path in written:
        assert path.resolve().is_relative_to((tmp_path / "out").resolve())
        assert path.stem.split(".")[0].lower() not in ("con", "", "..")
    assert safe_name("CON") == "CON_" and safe_name("../../x") == "x"


def test_a_failing_job_is_reported_and_the_others_finish(tmp_path: Path) -> None:
    """Every up-front check passes; one maze's files cannot be written (its STL's name is taken by
    a folder): that maze is reported, writes nothing, and the others finish."""
    config = write_config(
        tmp_path,
        {
            "defaults": {"formats": ["maze.json", "stl"], "maze": {"rows": 5, "cols": 5}},
            "jobs": [
                {"name": "good", "seed": 1, "count": 2},
                {"name": "blocked", "seed": 2},
                {"name": "also-good", "seed": 3},
            ],
        },
    )
    (tmp_path / "out" / "blocked" / "blocked.stl").mkdir(parents=True)
    result = run_cli("batch", str(config), "--output-dir", "out", cwd=tmp_path)
    assert result.returncode == 1
    assert "blocked" in result.stderr and "is a directory" in result.stderr and "Traceback" not in result.stderr
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert [e["maze"] for e in manifest["mazes"] if e["error"]] == ["blocked"]
    assert (tmp_path / "out" / "also-good" / "also-good.stl").exists()
    assert (tmp_path / "out" / "good" / "good-2.maze.json").exists()
    assert sorted(p.name for p in (tmp_path / "out" / "blocked").iterdir()) == ["blocked.stl"]  # all or nothing


def test_rerun_is_byte_identical(tmp_path: Path) -> None:
    config = ROOT / "configs" / "classroom.yaml"
    hashes = []
    for out in ("first", "second"):
        assert run_cli("batch", str(config), "--output-dir", out, cwd=tmp_path).returncode == 0
        manifest = json.loads((tmp_path / out / "manifest.json").read_text())
        manifest.pop("timings_s")
        for entry in manifest["mazes"]:
            entry.pop("timings_s")
        files = {p.relative_to(tmp_path / out): p.read_bytes() for p in (tmp_path / out).rglob("*") if p.is_file()}
        files.pop(Path("manifest.json"))
        hashes.append((manifest, files))
    assert hashes[0] == hashes[1]
    # 8 pupils × (maze.json, stl, 3mf, printability.json, worksheet.pdf, key.pdf), 3 practice mazes ×
    # (maze.json, png, worksheet.pdf, key.pdf), and two booklets per job
    assert len(hashes[0][1]) == 8 * 6 + 3 * 4 + 2 * 2


def test_dry_run_writes_nothing_and_only_selects(tmp_path: Path) -> None:
    config = ROOT / "configs" / "classroom.yaml"
    result = run_cli("batch", str(config), "--dry-run", "--only", "class-set", "--output-dir", "out", cwd=tmp_path)
    assert result.returncode == 0 and "8 mazes would be written" in result.stdout and "class-set-Chloe" in result.stdout
    assert not (tmp_path / "out").exists()
    bad = run_cli("batch", str(config), "--only", "nobody", cwd=tmp_path)
    assert bad.returncode == 2 and "no job named 'nobody'" in bad.stderr


def test_schema_and_validate(tmp_path: Path) -> None:
    schema = json.loads(run_cli("schema", cwd=tmp_path).stdout)
    job = schema["properties"]["jobs"]["items"]
    assert set(job["properties"]) >= {"name", "seed", "count", "names", "maze", "print", "formats"}
    assert set(FORMAT_NAMES) <= set(json.dumps(schema).replace('"', " ").split())
    ok = run_cli("validate", str(ROOT / "configs" / "classroom.yaml"), cwd=tmp_path)
    assert ok.returncode == 0 and "valid" in ok.stdout
