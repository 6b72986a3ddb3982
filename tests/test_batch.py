"""YAML batch runs: validation with precise messages, safety, failures, interruption, reproducibility."""

from __future__ import annotations

import json
import os
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
    assert (
        result.returncode == 2
        and "jobs[0] (huge).maze.rows: 1500 with cols 1500: the stl would take about" in result.stderr
    )
    assert not (tmp_path / "outputs").exists()


@pytest.mark.parametrize(
    ("name", "why", "bad"), [("..", "has no letter or digit", 1), ("\x00\x1b[31m", "not text (U+0000, U+001B)", 2)]
)
def test_names_with_no_letter_or_with_control_characters_are_refused_up_front(
    tmp_path: Path, name: str, why: str, bad: int
) -> None:
    """The one name rule (tests/test_names.py): refused naming the field, a line per bad name
    (``.. 2`` has a digit; the control characters stay in ``\x00\x1b[31m 2``), nothing written."""
    job = {"name": "class", "seed": 1, "formats": ["txt"], "names": [name, f"{name} 2"]}
    config = write_config(tmp_path, {"jobs": [job]})
    result = run_cli("batch", str(config), "--output-dir", "out", "-j", "1", cwd=tmp_path)
    assert result.returncode == 2 and "jobs[0] (class).names[0]: " in result.stderr and why in result.stderr
    assert len(result.stderr.splitlines()) == bad and not (tmp_path / "out").exists()


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
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


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
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
    assert run_cli("batch", str(config), "--output-dir", "out", cwd=tmp_path).returncode == 0
    for path in (tmp_path / "out" / "blocked").iterdir():
        path.unlink()
    (tmp_path / "out" / "blocked" / "blocked.stl").mkdir()  # a rerun: this maze's STL name is now a folder
    result = run_cli("batch", str(config), "--output-dir", "out", cwd=tmp_path)
    assert result.returncode == 1
    assert "blocked" in result.stderr and "is a directory" in result.stderr and "Traceback" not in result.stderr
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert [e["maze"] for e in manifest["mazes"] if e["error"]] == ["blocked"]
    assert (tmp_path / "out" / "also-good" / "also-good.stl").exists()
    assert (tmp_path / "out" / "good" / "good-2.maze.json").exists()
    assert sorted(p.name for p in (tmp_path / "out" / "blocked").iterdir()) == ["blocked.stl"]  # all or nothing


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
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


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_dry_run_writes_nothing_and_only_selects(tmp_path: Path) -> None:
    config = ROOT / "configs" / "classroom.yaml"
    result = run_cli("batch", str(config), "--dry-run", "--only", "class-set", "--output-dir", "out", cwd=tmp_path)
    assert result.returncode == 0 and "8 mazes would be written" in result.stdout and "class-set-Chloe" in result.stdout
    assert not (tmp_path / "out").exists()
    bad = run_cli("batch", str(config), "--only", "nobody", cwd=tmp_path)
    assert bad.returncode == 2 and "no job named 'nobody'" in bad.stderr


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_schema_and_validate(tmp_path: Path) -> None:
    schema = json.loads(run_cli("schema", cwd=tmp_path).stdout)
    job = schema["properties"]["jobs"]["items"]
    assert set(job["properties"]) >= {"name", "seed", "count", "names", "maze", "print", "formats"}
    assert set(FORMAT_NAMES) <= set(json.dumps(schema).replace('"', " ").split())
    ok = run_cli("validate", str(ROOT / "configs" / "classroom.yaml"), cwd=tmp_path)
    assert ok.returncode == 0 and "valid" in ok.stdout


# --- issue 28: output folders, unknown keys, totals of what was written ---------------------------


def status_and_error(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str, str]:
    from laby3d.cli import main

    status = main(args)
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert status == 0 or (len(lines) >= 1 and "Traceback" not in captured.err), captured.err
    return status, captured.out, captured.err


SMALL = {"jobs": [{"name": "class", "seed": 1, "maze": {"rows": 3, "cols": 3}, "formats": ["txt"]}]}


def test_a_folder_of_someone_elses_files_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_config(tmp_path, SMALL, "class.yaml")
    documents = tmp_path / "Documents"
    documents.mkdir()
    (documents / "report.odt").write_text("a teacher's file")
    (documents / "manifest.json").write_text('{"name": "a web app", "icons": []}')  # would be removed
    for verb in (["--dry-run"], []):
        status, _, err = status_and_error(capsys, ["batch", str(config), "--output-dir", str(documents), *verb])
        assert status == 1, err
        line = err.strip()
        assert line.startswith("laby3d: error: cannot use ") and line.endswith(" or empty it"), line
        assert "its manifest.json is not a laby3d run's; use a new folder in it, such as " in line
        assert f"Documents{os.sep}class, or empty" in line and len(line) <= 300
    (documents / "manifest.json").unlink()
    status, _, err = status_and_error(capsys, ["batch", str(config), "--output-dir", str(documents)])
    assert status == 1 and "it holds a file not written by laby3d (report.odt) and no manifest.json" in err
    assert sorted(path.name for path in documents.iterdir()) == ["report.odt"]
    status, _, err = status_and_error(capsys, ["batch", str(config), "--output-dir", str(documents / "class")])
    assert status == 0, err  # the new folder the message offers


def test_an_empty_folder_and_a_runs_own_folder_are_fine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_config(tmp_path, SMALL, "class.yaml")
    out = tmp_path / "out"
    out.mkdir()
    (out / ".DS_Store").write_bytes(b"\0")  # what a Mac's Finder leaves in any folder it shows
    for _ in range(2):  # empty, then the run's own (its manifest)
        assert status_and_error(capsys, ["batch", str(config), "--output-dir", str(out)])[0] == 0
    (out / "manifest.json").unlink()
    (out / ".laby3d.lock").write_bytes(b"")  # what a run stopped by Ctrl-C leaves beside its files
    assert status_and_error(capsys, ["batch", str(config), "--output-dir", str(out)])[0] == 0
    assert sorted(path.name for path in out.iterdir()) == [".DS_Store", "class", "manifest.json"]


@pytest.mark.parametrize("where", ["yaml", "flag"])
def test_home_and_variables_are_expanded_in_output_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "ana"))
    monkeypatch.setenv("CLASS", "5B")
    monkeypatch.chdir(tmp_path)
    if where == "yaml":
        config = write_config(tmp_path, {"output_dir": "~/mazes/$CLASS", **SMALL})
        args = ["batch", str(config)]
    else:
        args = ["batch", str(write_config(tmp_path, SMALL)), "--output-dir", "$HOME/mazes/${CLASS}"]
    status, out, err = status_and_error(capsys, args)
    assert status == 0, err
    assert (tmp_path / "ana" / "mazes" / "5B" / "manifest.json").exists()
    assert not (tmp_path / "~").exists() and not (tmp_path / "$HOME").exists()
    assert f"written to {tmp_path / 'ana' / 'mazes' / '5B'}" in out


def test_an_unset_variable_in_output_dir_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_config(tmp_path, {"output_dir": "$LABY3D_NOT_SET/out", **SMALL}, "class.yaml")
    for verb in ("validate", "batch"):
        status, _, err = status_and_error(capsys, [verb, str(config)])
        assert status == 2 and err.strip() == (
            "laby3d: error: class.yaml: output_dir: uses $LABY3D_NOT_SET, which is not set (laby3d expands ~ and "
            "$VARIABLES as a shell would): set it or write the path in full, got '$LABY3D_NOT_SET/out'"
        )


def test_validate_refuses_a_system_output_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_config(tmp_path, {"output_dir": "/etc", **SMALL}, "class.yaml")
    status, _, err = status_and_error(capsys, ["validate", str(config)])
    assert status == 1 and "cannot use /etc as the output folder: it is /etc, a folder of the operating system" in err
    assert err.strip().endswith("; use a new folder such as ~/laby3d/class")


@pytest.mark.parametrize(
    ("yaml_text", "message"),
    [
        (
            "defaults: {print: {nozle: 0.4}}\njobs: [{}]\n",
            "defaults.print.nozle: is not a known key; did you mean 'nozzle'?",
        ),
        ("jobs: [{maze: {colz: 4}}]\n", "jobs[0] (?).maze.colz: is not a known key; did you mean 'cols'?"),
        ("jobs: [{maze: {Rows: 4}}]\n", "jobs[0] (?).maze.Rows: is not a known key; did you mean 'rows'?"),
        ("jobs: [{maze: {lignes: 4}}]\n", "jobs[0] (?).maze.lignes: is not a known key; did you mean 'rows'?"),
        ("jobs: [{formt: [stl]}]\n", "jobs[0] (?).formt: is not a known key; did you mean 'formats'?"),
        ("job: [{}]\n", "b.yaml: job: is not a known key; did you mean 'jobs'?"),
        ("output_directory: x\njobs: [{}]\n", "output_directory: is not a known key; did you mean 'output_dir'?"),
        ("jobs: [{print: {zzzz: 1}}]\n", "jobs[0] (?).print.zzzz: is not a known key"),
    ],
)
def test_an_unknown_key_is_answered_with_the_closest_one(tmp_path: Path, yaml_text: str, message: str) -> None:
    config = tmp_path / "b.yaml"
    config.write_text(yaml_text)
    with pytest.raises(ConfigError) as error:
        load_batch(config)
    assert str(error.value).endswith(message)
    assert message.endswith("?") or "did you mean" not in str(error.value)


@pytest.mark.parametrize(
    ("yaml_text", "french"),
    [
        (
            "defaults: {lang: fr, print: {nozle: 0.4}}\njobs: [{}]\n",
            "laby3d: erreur : b.yaml: defaults.print.nozle: n’est pas une clé connue ; vouliez-vous dire « nozzle » ?",
        ),
        (
            "jobs: [{lang: fr, name: a, maze: {rows: 0}}]\n",
            "laby3d: erreur : b.yaml: jobs[0] (a).maze.rows: doit être ≥ 1, pas 0",
        ),
        (
            "defaults: {lang: fr}\njobs: [{name: a, maze: {shape: theta, cols: 9}}]\n",
            "laby3d: erreur : b.yaml: jobs[0] (a).maze.cols: n’a pas d’effet avec la forme theta : la taille d’un "
            "labyrinthe rond est son nombre d’anneaux (« rows »)",
        ),
    ],
)
def test_a_french_batch_files_errors_are_french(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], yaml_text: str, french: str
) -> None:
    config = tmp_path / "b.yaml"
    config.write_text(yaml_text)
    for verb in ("validate", "batch"):
        status, _, err = status_and_error(capsys, [verb, str(config)])
        assert status == 2 and err.strip() == french


def test_cols_of_a_round_maze_is_refused_where_it_is_stated(tmp_path: Path) -> None:
    """--cols with --shape theta was silently ignored: a job (or the defaults) that states both is
    refused; cols in the defaults for the square jobs leaves a round job alone."""
    config = write_config(tmp_path, {"jobs": [{"name": "r", "maze": {"shape": "theta", "rows": 5, "cols": 9}}]})
    with pytest.raises(ConfigError, match=r"jobs\[0\] \(r\)\.maze\.cols: has no effect with shape theta"):
        load_batch(config)
    config = write_config(tmp_path, {"defaults": {"maze": {"shape": "theta", "cols": 9}}, "jobs": [{"name": "r"}]})
    with pytest.raises(ConfigError, match=r"defaults\.maze\.cols: has no effect with shape theta"):
        load_batch(config)
    shared = {
        "defaults": {"maze": {"rows": 8, "cols": 8}},
        "jobs": [{"name": "sq"}, {"name": "round", "maze": {"shape": "theta"}}],
    }
    _, jobs = load_batch(write_config(tmp_path, shared))
    assert [job.maze.size() for job in jobs] == [(8, 8), (8, None)]
    _, (quick,) = load_batch(write_config(tmp_path, {"jobs": [{"preset": "quick", "maze": {"shape": "theta"}}]}))
    assert quick.maze.size() == (10, None)  # the preset's cols are for square mazes


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_a_full_disk_gives_the_totals_of_what_was_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A disk that filled up with 0 of 8 mazes written printed "totals: 8 solids, 2.11 kg": the
    totals are those of the files on the disk (a 64 KB tmpfs holds the first STL at most)."""
    from test_writer import mount

    disk = tmp_path / "disk"
    disk.mkdir()
    mount(["-t", "tmpfs", "-o", "size=256k", "tmpfs", str(disk)])
    try:
        job = {"name": "class", "seed": 4, "maze": {"rows": 10, "cols": 10}, "formats": ["stl"]}
        config = write_config(tmp_path, {"jobs": [{**job, "names": [f"Élève {k}" for k in range(8)]}]})
        status, out, err = status_and_error(
            capsys, ["batch", str(config), "--output-dir", str(disk / "out"), "-j", "1"]
        )
        assert status == 1 and "no space left on device" in err
        manifest = (
            json.loads((disk / "out" / "manifest.json").read_text())
            if (disk / "out" / "manifest.json").exists()
            else None
        )
        written = sorted((disk / "out" / "class").glob("*.stl"))
        assert 0 < len(written) < 8, written  # some STLs fit, not all
        line = next(line for line in out.splitlines() if line.startswith("totals:"))
        assert line.startswith(f"totals: {len(written)} solid{'s' if len(written) > 1 else ''}, "), line
        if manifest is not None:
            assert manifest["totals"]["solids"] == len(written)
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True, check=False)


def test_a_french_batch_is_refused_its_folder_in_french(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = write_config(tmp_path, {"defaults": {"lang": "fr"}, **SMALL}, "classe.yaml")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "cours.odt").write_text("x")
    cases = {
        "/etc": "impossible d’utiliser /etc comme dossier de sortie : c’est /etc, un dossier du système "
        "d’exploitation ; utiliser un nouveau dossier, par exemple ",
        "docs": "impossible d’utiliser docs comme dossier de sortie : il contient un "
        "fichier qui ne vient pas de laby3d (cours.odt) et pas de manifest.json ; utiliser un nouveau dossier à "
        "l’intérieur, par exemple ",
    }
    for folder, french in cases.items():
        status, _, err = status_and_error(capsys, ["batch", str(config), "--output-dir", folder])
        assert status == 1 and err.startswith(f"laby3d: erreur : {french}"), err
    status, _, err = status_and_error(capsys, ["batch", str(config), "--only", "x"])
    assert status == 2 and err.strip() == "laby3d: erreur : --only n’a pas de travail nommé 'x' (travaux : class)"
