"""The README's commands stay true: CI runs its test command, and its examples work."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"```sh\n(.+?)\n```", readme)
    test_command = next(c for c in commands if "pytest" in c)
    assert test_command in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_python_example_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = re.search(r"```python\n(.+?)\n```", readme, re.S)[1]
    exec(compile(example, "README.md", "exec"), {})


def test_main_command_makes_the_classroom_set(tmp_path) -> None:
    """The README's main command (its laby3d part) produces the class set and says where."""
    import subprocess
    import sys

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    main = next(c for c in re.findall(r"```sh\n(.+?)\n```", readme) if "laby3d batch" in c)
    config = main.split("laby3d batch", 1)[1].split()[0]
    result = subprocess.run(
        [sys.executable, "-m", "laby3d", "batch", str(ROOT / config), "--output-dir", str(tmp_path / "out")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert f"8 of 8 mazes written to {tmp_path / 'out'}" in result.stdout
    assert (tmp_path / "out" / "class-set" / "class-set-Chloe.stl").exists()
