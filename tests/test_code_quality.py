"""The code stays as the style guide asks: ruff lint and format clean, mypy clean.

Skipped where the tools are not installed (they come with the ``test`` extra, as in CI).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


@pytest.mark.parametrize(
    "command",
    [["ruff", "check", "."], ["ruff", "format", "--check", "."], ["mypy", "laby3d"]],
    ids=["ruff-check", "ruff-format", "mypy"],
)
def test_linters_are_clean(command: list[str]) -> None:
    tool = shutil.which(command[0], path=str(Path(sys.executable).parent)) or shutil.which(command[0])
    if tool is None:
        pytest.skip(f"{command[0]} is not installed (pip install -e '.[test]')")
    done = subprocess.run([tool, *command[1:]], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
