"""A user's matplotlibrc changes no byte of laby3d's files (issue 21).

matplotlib reads ``matplotlibrc`` from ``MPLCONFIGDIR`` (and ``MATPLOTLIBRC``, and the current
folder) at import: line widths, fonts, DPI, colours and PDF settings there used to reach the
pictures, worksheets and lesson. Two runs in fresh processes, one with a hostile matplotlibrc in
every place matplotlib looks, must write identical files.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

HOSTILE_RC = """\
lines.linewidth: 7
lines.color: red
lines.solid_capstyle: round
font.family: serif
font.size: 23
savefig.dpi: 37
savefig.facecolor: yellow
savefig.bbox: tight
savefig.pad_inches: 1.5
figure.facecolor: green
figure.dpi: 50
axes.facecolor: blue
axes.linewidth: 5
text.color: magenta
image.interpolation: bicubic
image.cmap: jet
pdf.compression: 0
pdf.fonttype: 3
ps.papersize: a3
path.simplify: False
path.simplify_threshold: 1.0
agg.path.chunksize: 10
hatch.linewidth: 4
"""
#: Every format matplotlib draws (or, for the laser and the solid, whose labels come from a font).
FORMATS = ["png", "pdf", "ps", "gif", "lesson.pdf", "worksheet.pdf", "key.pdf", "laser.png", "svg", "stl"]


def digests(folder: Path, config: Path) -> dict[str, str]:
    folder.mkdir()
    config.mkdir(exist_ok=True)
    environment = {**os.environ, "MPLCONFIGDIR": str(config)}
    environment.pop("MATPLOTLIBRC", None)
    if (config / "matplotlibrc").exists():
        environment["MATPLOTLIBRC"] = str(config / "matplotlibrc")
        (folder / "matplotlibrc").write_text((config / "matplotlibrc").read_text())
    outputs = [arg for name in FORMATS for arg in ("-o", f"m.{name}")]
    done = subprocess.run(
        [sys.executable, "-m", "laby3d", "generate", "--rows", "6", "--cols", "7", "--seed", "3"]
        + ["--label", "Zoé", "--show-solution", *outputs],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return {name: hashlib.sha256((folder / f"m.{name}").read_bytes()).hexdigest() for name in FORMATS}


@pytest.mark.slow
def test_a_hostile_matplotlibrc_changes_no_output_byte(tmp_path: Path) -> None:
    hostile = tmp_path / "hostile-config"
    hostile.mkdir()
    (hostile / "matplotlibrc").write_text(HOSTILE_RC)
    plain = digests(tmp_path / "plain", tmp_path / "plain-config")
    assert digests(tmp_path / "hostile", hostile) == plain


def test_drawing_entry_points_take_matplotlibs_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    """In process: settings a user's rc would make are not seen inside a drawing."""
    import matplotlib

    from laby3d.draw import exclusive

    seen = {}

    @exclusive
    def draw() -> bytes:
        seen.update({key: matplotlib.rcParams[key] for key in ("lines.linewidth", "font.family", "savefig.dpi")})
        return b""

    monkeypatch.setitem(matplotlib.rcParams, "lines.linewidth", 7.0)
    monkeypatch.setitem(matplotlib.rcParams, "font.family", ["serif"])
    monkeypatch.setitem(matplotlib.rcParams, "savefig.dpi", 37.0)
    draw()
    assert seen == {key: matplotlib.rcParamsDefault[key] for key in seen}
    assert matplotlib.rcParams["lines.linewidth"] == 7.0  # the user's settings are back afterwards
