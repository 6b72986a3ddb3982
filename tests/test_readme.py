"""The README's commands stay true: CI runs its test command, its Python examples give the
values they show (run as doctests), and its main command makes the class set it describes."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_ci_runs_the_readme_test_command() -> None:
    commands = re.findall(r"```sh\n(.+?)\n```", README)
    test_command = next(c for c in commands if "pytest" in c)
    assert test_command in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


EXAMPLES = re.findall(r"```pycon\n(.+?)```", README, re.S)


def test_the_readme_has_python_examples() -> None:
    assert len(EXAMPLES) >= 2


def test_python_examples_show_what_they_give() -> None:
    """Each `pycon` block is a doctest (later blocks go on from earlier ones): every value shown
    is checked, not only run."""
    globs: dict = {}
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for number, example in enumerate(EXAMPLES):
        test = doctest.DocTestParser().get_doctest(example, globs, f"README[{number}]", "README.md", 0)
        runner.run(test, clear_globs=False)
        globs = test.globs  # DocTest copies the names it is given
    assert runner.failures == 0, "a README example differs from what it shows (see the output above)"


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_main_command_makes_the_classroom_set(tmp_path: Path) -> None:
    """The README's main command (its laby3d part) produces the class set it describes."""
    main = next(c for c in re.findall(r"```sh\n(.+?)\n```", README) if "laby3d batch" in c)
    config = main.split("laby3d batch", 1)[1].split()[0]
    result = subprocess.run(
        [sys.executable, "-m", "laby3d", "batch", str(ROOT / config), "--output-dir", str(tmp_path / "out")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert f"11 of 11 mazes written to {tmp_path / 'out'}" in result.stdout
    summary = re.search(r"^totals: .+$", result.stdout, re.M)
    assert summary and summary[0] in README  # the summary the README shows is the one it prints
    folder = tmp_path / "out" / "class-set"
    for name in ("class-set-Chloe.stl", "class-set-Zeljko.3mf", "class-set.worksheet.pdf", "class-set.key.pdf"):
        assert (folder / name).exists(), name
