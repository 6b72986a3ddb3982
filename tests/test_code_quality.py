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


#: Largest file the repository may track outside docs/ and tests/golden/ (bench and trial outputs
#: belong in outputs/ or a temporary folder, which .gitignore keeps out).
MAX_TRACKED_BYTES = 2 * 1024 * 1024


def test_no_large_generated_files_are_tracked() -> None:
    """A benchmark once committed a 6.5 MB GIF and a 50 MB lesson at the root; nothing over 2 MB
    is tracked outside docs/ and tests/golden/."""
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run([git, "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    large = [
        name
        for name in listed.decode().split("\0")
        if name
        and not name.startswith(("docs/", "tests/golden/"))
        and (ROOT / name).is_file()
        and (ROOT / name).stat().st_size > MAX_TRACKED_BYTES
    ]
    assert not large, f"tracked files over 2 MB outside docs/ and tests/golden/: {large}"
