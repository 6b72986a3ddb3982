"""The French teacher's guide (docs/fr/guide.md) stays true: its YAML files are valid, its commands
run in order in one folder (the batches' in the slow suite), its Python program (the pupils'
``fusionner``) replays the ``.walls.csv`` it has just written, and its prose holds no English word."""

from __future__ import annotations

import re
import runpy
import shlex
from pathlib import Path

import pytest
from test_french_words import english_words

from laby3d import cli

ROOT = Path(__file__).parent.parent
GUIDE = (ROOT / "docs" / "fr" / "guide.md").read_text(encoding="utf-8")
#: Each fenced block: (language, text), in the guide's order.
BLOCKS = re.findall(r"```(\w*)\n(.*?)```", GUIDE, re.S)


def _yaml_files() -> dict[str, str]:
    """The guide's YAML blocks, by the file name of their first line (``# classe.yaml``)."""
    files = {}
    for language, text in BLOCKS:
        if language == "yaml":
            name = re.match(r"# (\S+\.yaml)\n", text)
            assert name, f"a YAML block without its file name: {text[:40]!r}"
            files[name[1]] = text
    return files


def _commands() -> list[str]:
    return [line for language, text in BLOCKS if language == "sh" for line in text.splitlines() if line.strip()]


def test_the_guide_is_linked_from_the_readme() -> None:
    assert "(docs/fr/guide.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_guides_prose_is_french() -> None:
    prose = re.sub(r"```.*?```", " ", GUIDE, flags=re.S)
    prose = re.sub(r"`[^`]*`|\([^()]*\.md\)|\*", " ", prose)  # code as typed, links, emphasis
    assert not english_words(prose), english_words(prose)


def test_the_guides_yaml_files_are_valid(tmp_path: Path) -> None:
    from laby3d.config import load_batch
    from laby3d.serve.classroom import settings_from_config

    files = _yaml_files()
    assert set(files) == {"classe.yaml", "plateaux.yaml", "laser.yaml"}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        _, jobs = load_batch(tmp_path / name)
        assert all(job.lang == "fr" for job in jobs), name
    settings = settings_from_config("2nde STI2D", tmp_path / "state", tmp_path / "classe.yaml")
    assert settings.defaults["lang"] == "fr"


def _run_guide(folder: Path, *, batches: bool) -> list[str]:
    """Every command of the guide, in order, in ``folder``; the serve line is parsed, not run."""
    for name, text in _yaml_files().items():
        (folder / name).write_text(text, encoding="utf-8")
    ran = []
    for command in _commands():
        words = shlex.split(command)
        if words[0] == "pip":
            continue
        assert words[0] == "laby3d", command
        if words[1] == "serve":
            arguments = cli.build_parser().parse_args(words[1:])
            assert arguments.config == "classe.yaml" and arguments.code == "loutre"
            continue
        if words[1] == "batch" and not batches:
            continue
        assert cli.main(words[1:]) == 0, command
        ran.append(command)
        if words[1] == "generate" and "td.walls.csv" in words:  # the pupils' program replays it
            (python,) = (text for language, text in BLOCKS if language == "python")
            (folder / "eleve.py").write_text(python, encoding="utf-8")
            runpy.run_path(str(folder / "eleve.py"), run_name="__main__")
    return ran


def test_the_guides_exercise_and_lesson_commands_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    ran = _run_guide(tmp_path, batches=False)
    assert len(ran) == 5
    handout = (tmp_path / "td.walls.csv").read_text(encoding="utf-8")
    assert handout.startswith("etape,ligne,colonne,cote,premier_numero,second_numero,ouvert\n")
    assert (tmp_path / "td.classroom.py").read_text(encoding="utf-8").startswith("# Un labyrinthe de 5×6 cases")


@pytest.mark.slow
def test_every_command_of_the_guide_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    ran = _run_guide(tmp_path, batches=True)
    assert len(ran) == 7
    plan = (tmp_path / "impression" / "plates" / "plan.txt").read_text(encoding="utf-8")
    shown = re.search(r"```\n(Plaque 1.+?)```", GUIDE, re.S)
    assert shown and all(line in plan for line in shown[1].splitlines()), "the plan the guide shows is the one made"
    sheets = tmp_path / "decoupe" / "kits" / "class-sheets"
    assert {p.name for p in sheets.glob("*.svg")} >= {"plywood-3mm-1.svg", "acrylic-3mm-1.svg"}
