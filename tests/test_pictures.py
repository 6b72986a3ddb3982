"""Pictures are byte-identical whatever the clock, time zone, locale or hash seed of the process."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import textwrap

import pytest

import laby3d
from laby3d.draw.pictures import maze_picture

FORMATS = ("png", "pdf", "ps")
DIGESTS = textwrap.dedent(
    """
    import hashlib, laby3d
    from laby3d.draw.pictures import maze_picture
    maze = laby3d.generate(7, 9, algorithm="wilson", seed=11)
    for fmt in ("png", "pdf", "ps"):
        print(fmt, hashlib.sha256(maze_picture(maze, fmt, solution=True, heatmap=True)).hexdigest())
    """
)
#: Two processes 24 hours of time zone apart (UTC+14, UTC−10), other locales and hash seeds.
ENVIRONMENTS = [
    {"TZ": "Pacific/Kiritimati", "LC_ALL": "fr_FR.UTF-8", "PYTHONHASHSEED": "12345"},
    {"TZ": "America/Adak", "LC_ALL": "C", "PYTHONHASHSEED": "0", "SOURCE_DATE_EPOCH": "86400"},
]


def digests_in(environment: dict[str, str]) -> dict[str, str]:
    result = subprocess.run(
        [sys.executable, "-c", DIGESTS],
        env={**os.environ, **environment},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return dict(line.split() for line in result.stdout.splitlines())


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_same_bytes_in_every_environment() -> None:
    maze = laby3d.generate(7, 9, algorithm="wilson", seed=11)
    here = {fmt: hashlib.sha256(maze_picture(maze, fmt, solution=True, heatmap=True)).hexdigest() for fmt in FORMATS}
    for environment in ENVIRONMENTS:
        assert digests_in(environment) == here, environment


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_date_and_no_tool_version_in_the_file(fmt: str) -> None:
    data = maze_picture(laby3d.generate(3, 4, seed=1), fmt)
    for marker in (b"CreationDate", b"Matplotlib v", b"matplotlib version", b"Creator: None"):
        assert marker not in data
    if fmt == "ps":
        assert data.startswith(b"%!PS-Adobe-3.0\n%%DocumentPaperSizes: letter\n") and b"%%Creator: laby3d\n" in data


@pytest.mark.parametrize(("shape", "size"), [("square", (1, 1)), ("square", (1, 5)), ("hex", (1, 2)), ("theta", (2,))])
def test_a_tiny_mazes_picture_is_big_enough_to_see(shape: str, size: tuple[int, ...]) -> None:
    """Issue 28: a 1×1 maze's PNG was 110 px; its longer side is now at least 240 px."""
    import io

    from PIL import Image

    png = laby3d.render(laby3d.generate(*size, shape=shape, seed=1), "png")
    assert max(Image.open(io.BytesIO(png)).size) >= 240
